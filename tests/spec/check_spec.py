#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the task_diag YAML netlink spec and the uapi header agree.

Usage: check_spec.py SPEC.yaml HEADER.h

Both directions are checked:
  - family name and version (#define TASK_DIAG_FAMILY_NAME/_VERSION);
  - every attribute set of the spec is one anonymous header enum
    TASK_DIAG_A_<SET>_* (found through its __TASK_DIAG_A_<SET>_MAX sentinel)
    with the same names, values, count and order, and every such header enum
    is a set of the spec; the MAX pair is well formed;
  - each attribute's type equals the type its header comment starts with
    (u8, u32, s32, u64, string, binary, nest; *_PAD attributes are pad), a
    nest names the same attribute set in both, and an attribute whose header
    comment names "enum task_diag_X" has "enum: X" in the spec and back;
  - the enum and flags definitions (scope, show) equal the named header
    enums, and const definitions equal the header #defines of that name;
  - the operations equal the TASK_DIAG_CMD_* enum, and their request and
    reply attributes exist in the right attribute sets;
  - every attribute and every enum entry has a doc; every attribute's doc
    ends with a "Unit: ..." sentence that agrees with the units the header
    comment names (bytes, ns, address, mask); "guarded" in the header comment
    (or in the comment above the enum, for a whole group) <=> a "Guarded:"
    sentence in the doc.

Prints one line per mismatch and exits 1 if there is any, else prints a
summary and exits 0. Exits 2 on a usage error or unreadable input.

Needs PyYAML: Debian package python3-yaml.
"""

import re
import sys

try:
    import yaml
except ImportError:
    sys.stderr.write("check_spec: needs PyYAML "
                     "(apt-get install python3-yaml)\n")
    sys.exit(2)

# Attribute types a header comment may start with.
HEADER_TYPES = ("u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
                "string", "binary", "nest", "flag")


UNIT_RE = re.compile(r"Unit: ([^.]+)\.$")

errors = []


def err(msg):
    errors.append(msg)


def c_upper(name):
    return name.upper().replace("-", "_")


def norm_doc(doc):
    return " ".join(str(doc).split()) if doc is not None else ""


# ---------------------------------------------------------------- header --

class Enum:
    def __init__(self, name, comment):
        self.name = name            # C tag, or None for an anonymous enum
        self.comment = comment      # comment right above the enum, or ""
        self.members = []           # [(NAME, value, trailing comment)]
        self.private = []           # members after /* private: */ and __*

    def value_of(self, name):
        for n, v, _ in self.members + self.private:
            if n == name:
                return v
        return None


class Header:
    def __init__(self):
        self.enums = []
        self.defines = {}           # name -> raw text
        self.symbols = {}           # name -> int value (enum members)


def eval_expr(expr, symbols, where):
    """Evaluate a C integer constant expression made of literals, known
    names, parentheses and | + - << >> operators."""
    def sub(m):
        tok = m.group(0)
        if tok in symbols:
            return str(symbols[tok])
        raise ValueError("unknown name %s" % tok)

    try:
        text = re.sub(r"\b[A-Za-z_]\w*\b", sub, expr)
        text = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", text)
        if not re.fullmatch(r"[\s0-9a-fA-FxX()|&+\-<>~*]*", text):
            raise ValueError("unsupported expression")
        return int(eval(text, {"__builtins__": {}}, {}))  # noqa: S307
    except (ValueError, SyntaxError) as e:
        err("%s: cannot evaluate '%s': %s" % (where, expr.strip(), e))
        return None


def parse_header(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()

    hdr = Header()

    # #defines, with continuation lines joined and comments dropped.
    joined = re.sub(r"\\\n", " ", text)
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.*)$",
                         joined, re.M):
        val = re.sub(r"/\*.*?\*/", "", m.group(2)).strip()
        hdr.defines[m.group(1)] = val

    # enums, with the comment block right above each one.
    pat = re.compile(r"(?:/\*((?:(?!\*/).)*)\*/\s*)?"
                     r"\benum\s+(\w+)?\s*\{(.*?)\}\s*;", re.S)
    for m in pat.finditer(text):
        comment = norm_doc(re.sub(r"^\s*\*+", "", m.group(1) or "", flags=re.M))
        en = Enum(m.group(2), comment)
        body = m.group(3)
        private = False
        nextval = 0
        for line in body.split("\n"):
            cm = re.search(r"/\*(.*?)\*/", line)
            lcomment = cm.group(1).strip() if cm else ""
            code = re.sub(r"/\*.*?\*/", "", line)
            if "private:" in lcomment and not code.strip():
                private = True
                continue
            if "/*" in code or "*/" in code:
                err("%s: multi-line comment inside an enum is not supported: %s"
                    % (path, line.strip()))
                continue
            for item in [s.strip() for s in code.split(",")]:
                if not item:
                    continue
                im = re.fullmatch(r"(\w+)\s*(?:=\s*(.+))?", item)
                if not im:
                    err("%s: cannot parse enum member '%s'" % (path, item))
                    continue
                name, expr = im.group(1), im.group(2)
                if expr is not None:
                    val = eval_expr(expr, hdr.symbols, "%s: %s" % (path, name))
                    if val is None:
                        continue
                else:
                    val = nextval
                nextval = val + 1
                hdr.symbols[name] = val
                if private or name.startswith("__") or name.endswith("_MAX"):
                    en.private.append((name, val, lcomment))
                else:
                    en.members.append((name, val, lcomment))
        hdr.enums.append(en)
    return hdr


def header_type(name, comment):
    if name.endswith("_PAD") and not comment:
        return "pad"
    m = re.match(r"([a-z0-9]+)\b", comment)
    if m and m.group(1) in HEADER_TYPES:
        return m.group(1)
    return None


def check_max_pair(en, prefix, where):
    """__<PREFIX>MAX = last + 1 and <PREFIX>MAX = __<PREFIX>MAX - 1."""
    cnt = en.value_of("__%sMAX" % prefix)
    mx = en.value_of("%sMAX" % prefix)
    last = en.members[-1][1] if en.members else None
    if cnt is None or mx is None:
        err("%s: header lacks __%sMAX / %sMAX" % (where, prefix, prefix))
    elif last is not None and (cnt != last + 1 or mx != last):
        err("%s: header __%sMAX = %d, %sMAX = %d, last member = %d"
            % (where, prefix, cnt, prefix, mx, last))


# ------------------------------------------------------------------ spec --

def load_spec(path):
    with open(path, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    if not isinstance(spec, dict):
        raise ValueError("top level is not a mapping")
    return spec


def spec_attr_values(attrs):
    """Attribute values as the spec generators assign them: explicit value,
    else previous + 1, first one 1."""
    out = []
    val = 1
    for a in attrs:
        if "value" in a:
            val = a["value"]
        out.append(val)
        val += 1
    return out


def check_doc_units(where, doc, hcomment, guarded):
    d = norm_doc(doc)
    if not d:
        err("%s: no doc" % where)
        return
    m = UNIT_RE.search(d)
    if not m or not m.group(1).strip():
        err("%s: doc does not end with a 'Unit: ...' sentence" % where)
        return
    unit = m.group(1).strip()
    words = set(re.findall(r"[a-z]+", hcomment.lower()))
    # header comment -> spec unit
    if "bytes" in words and not unit.startswith("bytes"):
        err("%s: header says bytes, spec unit is '%s'" % (where, unit))
    if "ns" in words and unit != "nanoseconds":
        err("%s: header says ns, spec unit is '%s'" % (where, unit))
    if "address" in words and "address" not in unit:
        err("%s: header says address, spec unit is '%s'" % (where, unit))
    if "mask" in words and unit != "bit mask":
        err("%s: header says mask, spec unit is '%s'" % (where, unit))
    # spec unit -> header comment
    if unit.startswith("bytes") and not words & {"bytes", "address"}:
        err("%s: spec unit is '%s', header comment names no bytes/address"
            % (where, unit))
    if unit == "nanoseconds" and "ns" not in words:
        err("%s: spec unit is nanoseconds, header comment does not say ns"
            % where)
    if "address" in unit and "address" not in words:
        err("%s: spec unit is '%s', header comment does not say address"
            % (where, unit))
    # guarded <=> Guarded:
    has = re.search(r"\bGuarded:", d) is not None
    if guarded and not has:
        err("%s: guarded in the header, doc has no 'Guarded:' sentence" % where)
    if has and not guarded:
        err("%s: doc says 'Guarded:', header does not mark it guarded" % where)


def check_family(spec, hdr):
    name = spec.get("name")
    ident = c_upper(str(name))
    fam_def = c_upper(spec.get("c-family-name", ident + "-family-name"))
    ver_def = c_upper(spec.get("c-version-name", ident + "-family-version"))

    hname = hdr.defines.get(fam_def)
    if hname is None:
        err("family: header has no #define %s" % fam_def)
    elif hname != '"%s"' % name:
        err("family: spec name '%s', header %s %s" % (name, fam_def, hname))

    ver = spec.get("version", 1)
    hver = hdr.defines.get(ver_def)
    if hver is None:
        err("family: header has no #define %s" % ver_def)
    elif eval_expr(hver, hdr.symbols, "family: " + ver_def) != ver:
        err("family: spec version %s, header %s %s" % (ver, ver_def, hver))
    if not norm_doc(spec.get("doc")):
        err("family: no doc")
    return ident


def check_definitions(spec, hdr, ident):
    nenums = 0
    for d in spec.get("definitions", []):
        dname = d.get("name")
        where = "definition %s" % dname
        if not norm_doc(d.get("doc")):
            err("%s: no doc" % where)
        kind = d.get("type")
        if kind == "const":
            cname = c_upper("%s-%s" % (ident, dname))
            hval = hdr.defines.get(cname)
            if hval is None:
                err("%s: header has no #define %s" % (where, cname))
            elif eval_expr(hval, hdr.symbols, where) != d.get("value"):
                err("%s: spec value %s, header %s = %s"
                    % (where, d.get("value"), cname, hval))
            continue
        if kind not in ("enum", "flags"):
            err("%s: type %s is not checked" % (where, kind))
            continue
        nenums += 1
        tag = d.get("enum-name",
                    "%s_%s" % (ident.lower(), c_upper(dname).lower()))
        prefix = c_upper(d.get("name-prefix", "%s-%s-" % (ident, dname)))
        hen = [e for e in hdr.enums if e.name == tag]
        if len(hen) != 1:
            err("%s: header has %d enums named %s" % (where, len(hen), tag))
            continue
        hen = hen[0]
        sval = []
        v = d.get("value-start", 0)
        for e in d.get("entries", []):
            if isinstance(e, str):
                e = {"name": e}
            if "value" in e:
                v = e["value"]
            if not norm_doc(e.get("doc")):
                err("%s: entry %s: no doc" % (where, e.get("name")))
            sval.append((prefix + c_upper(str(e.get("name"))),
                         1 << v if kind == "flags" else v))
            v += 1
        hval = [(n, val) for n, val, _ in hen.members]
        compare_lists(where, sval, hval)
        if d.get("render-max", False) and kind == "enum":
            check_max_pair(hen, prefix, where)
        elif hen.private:
            err("%s: header has %s but spec has no render-max"
                % (where, ", ".join(n for n, _, _ in hen.private)))
        for n, val, _ in hen.members:
            if not n.startswith(prefix):
                err("%s: header member %s lacks prefix %s" % (where, n, prefix))
    # Every other #define of the header must be a const of the spec.
    consts = {c_upper("%s-%s" % (ident, d.get("name")))
              for d in spec.get("definitions", []) if d.get("type") == "const"}
    family = {c_upper(spec.get("c-family-name", ident + "-family-name")),
              c_upper(spec.get("c-version-name", ident + "-family-version"))}
    for name in hdr.defines:
        if (name.startswith(ident + "_") and name not in consts
                and name not in family):
            err("header #define %s has no const definition in the spec" % name)
    return nenums


def compare_lists(where, sval, hval):
    """sval, hval: [(C name, value)] in order. Report every difference."""
    snames = [n for n, _ in sval]
    hnames = [n for n, _ in hval]
    for n in snames:
        if n not in hnames:
            err("%s: %s is in the spec, not in the header" % (where, n))
    for n in hnames:
        if n not in snames:
            err("%s: %s is in the header, not in the spec" % (where, n))
    if len(sval) != len(hval):
        err("%s: spec has %d members, header %d"
            % (where, len(sval), len(hval)))
    common_s = [n for n in snames if n in hnames]
    common_h = [n for n in hnames if n in snames]
    if common_s != common_h:
        err("%s: order differs: spec %s, header %s"
            % (where, " ".join(common_s), " ".join(common_h)))
    hmap = dict(hval)
    for n, v in sval:
        if n in hmap and hmap[n] != v:
            err("%s: %s is %d in the spec, %d in the header"
                % (where, n, v, hmap[n]))


def check_attr_sets(spec, hdr, ident):
    sets = spec.get("attribute-sets", [])
    names = [s.get("name") for s in sets]
    # Header attribute enums: those with a __<IDENT>_A_<SET>_MAX sentinel.
    henums = {}
    sent = re.compile(r"__%s_A_(\w+)_MAX" % ident)
    for en in hdr.enums:
        for n, _, _ in en.private:
            m = sent.fullmatch(n)
            if m:
                henums[m.group(1)] = en
    snames = {}
    nattrs = 0
    for s in sets:
        sname = s.get("name")
        key = c_upper(str(sname))
        snames[key] = sname
        where = "set %s" % sname
        if "subset-of" in s:
            err("%s: subset-of is not checked" % where)
            continue
        if not norm_doc(s.get("doc")):
            err("%s: no doc" % where)
        prefix = c_upper(s.get("name-prefix", "%s-a-%s-" % (ident, sname)))
        en = henums.get(key)
        if en is None:
            err("%s: header has no enum with __%sMAX" % (where, prefix))
            continue
        attrs = s.get("attributes", [])
        nattrs += len(attrs)
        values = spec_attr_values(attrs)
        sval = [(prefix + c_upper(str(a.get("name"))), v)
                for a, v in zip(attrs, values)]
        hval = [(n, v) for n, v, _ in en.members]
        compare_lists(where, sval, hval)
        check_max_pair(en, prefix, where)
        for n, _, _ in en.members:
            if not n.startswith(prefix):
                err("%s: header member %s lacks prefix %s" % (where, n, prefix))
        hinfo = {n: c for n, _, c in en.members}
        group_guarded = "guarded" in en.comment.lower()
        for a, (cname, _) in zip(attrs, sval):
            aw = "%s: attribute %s" % (where, a.get("name"))
            stype = a.get("type")
            if cname not in hinfo:
                check_doc_units(aw, a.get("doc"), "", False)
                continue
            hcomment = hinfo[cname]
            htype = header_type(cname, hcomment)
            if htype is None:
                err("%s: header comment of %s names no type: '%s'"
                    % (aw, cname, hcomment))
            elif htype != stype:
                err("%s: type %s in the spec, %s in the header"
                    % (aw, stype, htype))
            if stype == "nest" or htype == "nest":
                m = re.search(r"nest:\s*%s_A_(\w+?)_\*" % ident, hcomment)
                hn = m.group(1) if m else None
                sn = a.get("nested-attributes")
                if sn is None or hn is None or c_upper(str(sn)) != hn:
                    err("%s: nests %s in the spec, %s in the header"
                        % (aw, sn, hn))
            m = re.search(r"\benum (%s_\w+)" % ident.lower(), hcomment)
            henum = m.group(1) if m else None
            senum = a.get("enum")
            if senum is not None:
                senum = "%s_%s" % (ident.lower(), c_upper(str(senum)).lower())
            if henum != senum:
                err("%s: enum %s in the spec, %s in the header"
                    % (aw, senum, henum))
            # A nest of a guarded group is guarded as a whole.
            nested = henums.get(c_upper(str(a.get("nested-attributes", ""))))
            guarded = ("guarded" in hcomment.lower()
                       or (group_guarded and stype != "pad")
                       or (stype == "nest" and nested is not None
                           and "guarded" in nested.comment.lower()))
            check_doc_units(aw, a.get("doc"), hcomment, guarded)
    for key, en in henums.items():
        if key not in snames:
            err("header enum %s_A_%s_* has no attribute set in the spec"
                % (ident, key))
    # nested-attributes must name existing sets
    for s in sets:
        for a in s.get("attributes", []):
            na = a.get("nested-attributes")
            if na is not None and na not in names:
                err("set %s: attribute %s nests unknown set %s"
                    % (s.get("name"), a.get("name"), na))
    return len(sets), nattrs


def check_ops(spec, hdr, ident):
    ops = spec.get("operations", {})
    prefix = c_upper(ops.get("name-prefix", "%s-cmd-" % ident))
    lst = ops.get("list", [])
    sval = []
    v = 1
    for op in lst:
        if "value" in op:
            v = op["value"]
        sval.append((prefix + c_upper(str(op.get("name"))), v))
        v += 1
    hen = None
    for en in hdr.enums:
        if en.value_of("__%sMAX" % prefix) is not None:
            hen = en
    if hen is None:
        err("operations: header has no enum with __%sMAX" % prefix)
        return len(lst)
    compare_lists("operations", sval, [(n, val) for n, val, _ in hen.members])
    check_max_pair(hen, prefix, "operations")

    sets = {s.get("name"): s for s in spec.get("attribute-sets", [])}
    for op in lst:
        where = "operation %s" % op.get("name")
        if not norm_doc(op.get("doc")):
            err("%s: no doc" % where)
        rset = op.get("attribute-set")
        if rset not in sets:
            err("%s: unknown attribute-set %s" % (where, rset))
            continue
        for mode in ("do", "dump"):
            sub = op.get(mode)
            if sub is None:
                continue
            for part, setname in (("request", rset), ("reply", rset)):
                names = [a.get("name") for a in
                         sets.get(setname, {}).get("attributes", [])]
                for attr in (sub.get(part) or {}).get("attributes", []):
                    if attr not in names:
                        err("%s: %s %s attribute %s is not in set %s"
                            % (where, mode, part, attr, setname))
    return len(lst)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: check_spec.py SPEC.yaml HEADER.h\n")
        return 2
    try:
        spec = load_spec(argv[1])
        hdr = parse_header(argv[2])
    except (OSError, ValueError, yaml.YAMLError) as e:
        sys.stderr.write("check_spec: %s\n" % e)
        return 2

    ident = check_family(spec, hdr)
    nenums = check_definitions(spec, hdr, ident)
    nsets, nattrs = check_attr_sets(spec, hdr, ident)
    nops = check_ops(spec, hdr, ident)

    if errors:
        for e in errors:
            print("check_spec: %s" % e)
        print("check_spec: %d mismatch(es) between %s and %s"
              % (len(errors), argv[1], argv[2]))
        return 1
    print("check_spec: %d attribute sets, %d attributes, %d enums, "
          "%d operation(s): header and spec agree"
          % (nsets, nattrs, nenums, nops))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
