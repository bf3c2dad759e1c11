#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write a copy of the spec changed in one way, for tests/spec/test_spec.sh.

  mutate.py SPEC.yaml OUT.yaml MUTATION

A layout mutation (move, resize, retype, insert, remove, use-reserved,
append, append-bump-ver0) changes one struct and then renumbers the
struct's <group>-f enum and its members' "Mask bit: N." sentences, so that
the copy still obeys every rule of scripts/gen-abi and only the check of
released layouts can tell. The other mutations break one rule each on
purpose. Exit 1 if the mutation did not change the spec.
"""
import copy
import re
import sys

import yaml


def struct(spec, name):
    for d in spec["definitions"]:
        if d.get("type") == "struct" and d["name"] == name:
            return d
    raise KeyError(name)


def define(spec, name):
    for d in spec["definitions"]:
        if d["name"] == name:
            return d
    raise KeyError(name)


def member(st, name):
    for i, m in enumerate(st["members"]):
        if m["name"] == name:
            return i, m
    raise KeyError(name)


def new_member(name, typ, bit=0):
    return {"name": name, "type": typ,
            "doc": "A test field.\nMask bit: %d. Unit: count.\n" % bit}


def renumber(spec, group):
    st = struct(spec, group)
    fields = [m for m in st["members"][1:]
              if not m["name"].startswith("__reserved")]
    for bit, m in enumerate(fields):
        m["doc"] = re.sub(r"Mask bit: \d+\.", "Mask bit: %d." % bit, m["doc"])
    define(spec, group + "-f")["entries"] = [m["name"] for m in fields]


def layout(spec, mutation):
    if mutation == "move":
        st = struct(spec, "base")
        i, _ = member(st, "ppid")
        j, _ = member(st, "pgid")
        st["members"][i], st["members"][j] = st["members"][j], st["members"][i]
        return "base"
    if mutation == "resize":
        st = struct(spec, "cred")
        _, m = member(st, "ngroups")
        m["type"] = "u64"
        i, _ = member(st, "__reserved")
        del st["members"][i]
        return "cred"
    if mutation == "retype":
        _, m = member(struct(spec, "base"), "tpgid")
        m["type"] = "u32"
        return "base"
    if mutation == "insert":
        st = struct(spec, "io")
        i, _ = member(st, "rchar")
        st["members"].insert(i, new_member("new-field", "u64"))
        return "io"
    if mutation == "remove":
        # lib goes; a field appended at the end keeps the size.
        st = struct(spec, "statm")
        i, _ = member(st, "lib")
        del st["members"][i]
        st["members"].append(new_member("new-field", "u64"))
        return "statm"
    if mutation == "use-reserved":
        st = struct(spec, "base")
        i, m = member(st, "__reserved")
        m["len"] -= 1
        st["members"].insert(i, new_member("new-field", "u8"))
        return "base"
    if mutation in ("append", "append-bump-ver0"):
        st = struct(spec, "base")
        st["members"].append(new_member("new-field", "u64"))
        if mutation == "append-bump-ver0":
            define(spec, "base-size-ver0")["value"] = 64
        return "base"
    return None


def broken(spec, mutation):
    st = struct(spec, "base")
    if mutation == "misaligned":
        member(st, "num-threads")[1]["type"] = "u64"
    elif mutation == "size-not-8":
        member(st, "__reserved")[1]["len"] = 6
    elif mutation == "wrong-bit-doc":
        m = member(st, "tracer-pid")[1]
        m["doc"] = m["doc"].replace("Mask bit: 3.", "Mask bit: 4.")
    elif mutation == "unknown-unit":
        m = member(st, "flags")[1]
        m["doc"] = m["doc"].replace("Unit: bit mask.", "Unit: furlongs.")
    elif mutation == "enum-order":
        e = define(spec, "base-f")["entries"]
        e[0], e[1] = e[1], e[0]
    elif mutation == "no-unit":
        task = next(s for s in spec["attribute-sets"] if s["name"] == "task")
        for a in task["attributes"]:
            if a["name"] == "tgid":
                a["doc"] = a["doc"].replace("Unit: pid.", "")
    elif mutation == "show-all":
        define(spec, "show-all")["value"] = 63
    elif mutation == "mask-not-first":
        st["members"].append(st["members"].pop(0))
    elif mutation == "schema-unknown-key":
        member(st, "ppid")[1]["unit"] = "pid"
    elif mutation == "doc-change":
        m = member(st, "num-threads")[1]
        m["doc"] = m["doc"].replace("Unit: count.", "Unit: bit mask.")
    else:
        raise SystemExit("mutate.py: unknown mutation %s" % mutation)


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: mutate.py SPEC.yaml OUT.yaml MUTATION\n")
        return 2
    with open(argv[1]) as f:
        spdx = f.readline().rstrip("\n")
        f.seek(0)
        spec = yaml.safe_load(f)
    orig = copy.deepcopy(spec)
    group = layout(spec, argv[3])
    if group:
        renumber(spec, group)
    else:
        broken(spec, argv[3])
    if spec == orig:
        sys.stderr.write("mutate.py: %s changed nothing\n" % argv[3])
        return 1
    with open(argv[2], "w") as f:
        f.write(spdx + "\n")  # cli.py of tools/net/ynl insists on it
        yaml.safe_dump(spec, f, sort_keys=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
