"""Checks that every mgpu* function an LLVM IR module declares is provided,
with the same type, by posenc-run's GPU runtime.

Usage: check_runtime_imports.py MODULE.ll PROVIDED.txt
PROVIDED.txt is `posenc-run --list-runtime-symbols` ("name: type" lines).
Independent of posenc-run's own import check (--dry-run): the LLVM IR comes
from mlir-translate.
"""

import re
import sys


def main():
    ir, provided_path = sys.argv[1:3]
    provided = {}
    with open(provided_path) as f:
        for line in f:
            name, _, type_ = line.strip().partition(": ")
            provided[name] = type_
    declared = {}
    with open(ir) as f:
        for line in f:
            m = re.match(r"declare (?:\w+ )*?(\S+) @(mgpu\w+)\((.*)\)", line.strip())
            if m:
                ret, name, params = m.groups()
                declared[name] = f"{ret} ({params})"
    missing = [f"{n} ({t})" + (f", provided as {provided[n]}" if n in provided else "")
               for n, t in sorted(declared.items()) if provided.get(n) != t]
    for n in sorted(declared):
        print(f"{n}: {declared[n]}: {'provided' if n not in missing else 'MISSING'}")
    if not declared:
        print("no mgpu* declarations")
        return 1
    if missing:
        print("not provided: " + "; ".join(missing))
        return 1
    print(f"{len(declared)} mgpu* functions declared, all provided")
    return 0


if __name__ == "__main__":
    sys.exit(main())
