#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Validate a netlink spec against a kernel spec schema (jsonschema).

  validate_schema.py SCHEMA.yaml SPEC.yaml

SCHEMA is the kernel's Documentation/netlink/genetlink-legacy.yaml (see
tests/spec/kernel-netlink-tools.sh). Exit 0 if SPEC is valid, 1 with the
first violation if not, 2 if a file cannot be read or a module is missing
(Debian: python3-yaml, python3-jsonschema).
"""
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:
    sys.stderr.write("validate_schema: %s: run scripts/setup "
                     "(python3-yaml, python3-jsonschema)\n" % e)
    sys.exit(2)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: validate_schema.py SCHEMA.yaml SPEC.yaml\n")
        return 2
    try:
        with open(argv[1]) as f:
            schema = yaml.safe_load(f)
        with open(argv[2]) as f:
            spec = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        sys.stderr.write("validate_schema: %s\n" % e)
        return 2
    try:
        jsonschema.validate(spec, schema)
    except jsonschema.ValidationError as e:
        where = "/".join(str(p) for p in e.absolute_path)
        print("validate_schema: %s is not valid at %s: %s"
              % (argv[2], where or "top level", e.message))
        return 1
    print("validate_schema: %s is valid (%s)" % (argv[2], schema.get("$id")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
