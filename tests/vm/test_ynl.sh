#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's YNL client (tools/net/ynl/cli.py of Debian's linux-source-6.12)
# decodes task_diag from docs/netlink/task_diag.yaml alone, and its values
# equal /proc's: tests/vm/test_ynl.py, in a guest with the module loaded.
# The tools are unpacked on the host (the guest sees its files read-only).
#
#   tests/vm/test_ynl.sh VM-RUN [VM-RUN OPTIONS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tools=$("$root/tests/spec/kernel-netlink-tools.sh")
exec "$@" -- /usr/bin/python3 "$here/test_ynl.py" "$tools" "$root/docs/netlink/task_diag.yaml"
