"""Writes the PTX of every gpu.binary in an MLIR file to OUT_DIR/<name>.ptx,
and with --ptxas assembles each with CUDA's ptxas for its target chip.

Usage: extract_ptx.py INPUT.mlir OUT_DIR [--ptxas PATH]

gpu-module-to-binary{format=isa} stores PTX as an escaped string
(`assembly = "..."`: `"` and bytes outside printable ASCII as \\XX, a
backslash as \\\\). Prints one line per binary: name, chip, entry points
(and with --ptxas, "ptxas ok" and the registers per thread). Exits 1 if the
file holds no PTX or ptxas rejects one.
"""

import argparse
import os
import re
import subprocess
import sys

BINARY = re.compile(r'gpu\.binary @([\w$.]+)\s*\[#gpu\.object<#nvvm\.target<([^>]*)>'
                    r'.*?assembly = "([^"]*)"', re.S)
ESCAPE = re.compile(r'\\(\\|[0-9A-Fa-f]{2})')


def unescape(text):
    return ESCAPE.sub(lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1), 16)), text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("out_dir")
    ap.add_argument("--ptxas", help="assemble each file with this ptxas for its chip")
    args = ap.parse_args()
    with open(args.input) as f:
        text = f.read()
    os.makedirs(args.out_dir, exist_ok=True)
    found, failed = 0, 0
    for name, target, assembly in BINARY.findall(text):
        ptx = unescape(assembly)
        chip = re.search(r'chip = "(\w+)"', target)
        chip = chip.group(1) if chip else "sm_50"  # NVVM's default chip
        kernels = " ".join(re.findall(r"\.entry\s+(\w+)", ptx))
        path = os.path.join(args.out_dir, name + ".ptx")
        with open(path, "w") as f:
            f.write(ptx)
        found += 1
        if not args.ptxas:
            print(f"{name} {chip} {kernels}")
            continue
        out = subprocess.run([args.ptxas, f"-arch={chip}", "-v", path, "-o", path + ".cubin"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            failed += 1
            print(f"ptxas FAILED {name} {chip}:\n{out.stderr}")
            continue
        regs = re.search(r"Used (\d+) registers", out.stderr)
        print(f"ptxas ok {name} {chip} {kernels} ({regs.group(1) if regs else '?'} registers)")
    if not found:
        print("no PTX (gpu.binary with assembly) in " + args.input, file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
