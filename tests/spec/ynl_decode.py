#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel's YNL library decodes the C structs as the spec says.

  ynl_decode.py TOOLS SPEC INCLUDE_DIR CC

TOOLS is what tests/spec/kernel-netlink-tools.sh prints. For every struct
of SPEC, a C program compiled against INCLUDE_DIR/linux/task_diag.h fills
each member with its own value and prints the struct's bytes; YNL's own
struct decoder (tools/net/ynl/lib, which cli.py uses), reading SPEC, must
get every value back, and its idea of the struct's size must be sizeof.
So the header's layout (the C compiler's) and the spec's (the kernel
tool's) are compared without the generator in between. Exit 1 on a
difference, 2 if something is missing.
"""
import os
import subprocess
import sys
import tempfile

import yaml

SIGNED = {"s8", "s16", "s32", "s64"}
BITS = {"u8": 8, "u16": 16, "u32": 32, "u64": 64,
        "s8": 8, "s16": 16, "s32": 32, "s64": 64}


def c_name(name):
    return name if name.startswith("__") else name.replace("-", "_")


def value(i, typ):
    """A value for member i of this type that no other member has."""
    if typ in SIGNED:
        return -(i + 1) * 3
    return (0x0102030405060708 * (i + 1) + i) & ((1 << BITS[typ]) - 1)


def main(argv):
    if len(argv) != 5:
        sys.stderr.write("usage: ynl_decode.py TOOLS SPEC INCLUDE_DIR CC\n")
        return 2
    tools, spec_path, inc, cc = argv[1:]
    sys.path.insert(0, os.path.join(tools, "tools", "net", "ynl"))
    try:
        from lib import SpecFamily, YnlFamily
    except ImportError as e:
        sys.stderr.write("ynl_decode: %s\n" % e)
        return 2
    schema = os.path.join(tools, "Documentation", "netlink",
                          "genetlink-legacy.yaml")
    fam = SpecFamily(spec_path, schema)  # YNL's own parse and validation
    with open(spec_path) as f:
        structs = [d for d in yaml.safe_load(f)["definitions"]
                   if d["type"] == "struct"]

    src = ["#include <stdio.h>", "#include <string.h>",
           "#include <linux/task_diag.h>",
           "static void dump(const char *n, const void *p, size_t len)",
           "{", "\tconst unsigned char *b = p;", "\tsize_t i;",
           "\tprintf(\"%s \", n);",
           "\tfor (i = 0; i < len; i++)", "\t\tprintf(\"%02x\", b[i]);",
           "\tprintf(\"\\n\");", "}", "int main(void)", "{"]
    for st in structs:
        v = "s_" + st["name"]
        src.append("\t{ struct task_diag_%s %s;" % (st["name"], v))
        src.append("\tmemset(&%s, 0, sizeof(%s));" % (v, v))
        for i, m in enumerate(st["members"]):
            if m["type"] in BITS:
                src.append("\t%s.%s = %dLL;" % (v, c_name(m["name"]),
                                                 value(i, m["type"]))
                           if m["type"] in SIGNED else
                           "\t%s.%s = %dULL;" % (v, c_name(m["name"]),
                                                  value(i, m["type"])))
        src.append("\tdump(\"%s\", &%s, sizeof(%s)); }" % (st["name"], v, v))
    src += ["\treturn 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "s.c"), "w") as f:
            f.write("\n".join(src) + "\n")
        exe = os.path.join(tmp, "s")
        p = subprocess.run([cc, "-Wall", "-Werror", "-I", inc, "-o", exe,
                            os.path.join(tmp, "s.c")],
                           capture_output=True, text=True)
        if p.returncode:
            print("ynl_decode: the C program does not compile against %s:\n%s"
                  % (inc, p.stderr))
            return 1
        out = subprocess.run([exe], capture_output=True, text=True,
                             check=True).stdout
    errors = 0
    nvalues = 0
    for line in out.splitlines():
        name, hexdata = line.split()
        data = bytes.fromhex(hexdata)
        st = [s for s in structs if s["name"] == name][0]
        size = YnlFamily._struct_size(fam, name)
        if size != len(data):
            print("ynl_decode: struct %s: sizeof %d, YNL's size %d"
                  % (name, len(data), size))
            errors += 1
            continue
        got = YnlFamily._decode_struct(fam, data, name)
        for i, m in enumerate(st["members"]):
            want = value(i, m["type"]) if m["type"] in BITS \
                else bytes(m.get("len", 0))
            if got.get(m["name"]) != want:
                print("ynl_decode: struct %s: %s decodes as %r, the C "
                      "program wrote %r" % (name, m["name"],
                                            got.get(m["name"]), want))
                errors += 1
            else:
                nvalues += 1
    if errors or not out:
        print("ynl_decode: %d difference(s)" % errors)
        return 1
    print("ynl_decode: YNL decodes %d structs (%d members) as the C header "
          "lays them out" % (len(out.splitlines()), nvalues))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
