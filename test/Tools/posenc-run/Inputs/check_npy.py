"""Checks a .npy file written by posenc-run against a numpy reference.

usage: check_npy.py GOT.npy --dtype DESCR --expect EXPR [NAME=PATH ...]
                    [--rtol R] [--atol A]

EXPR is a Python expression over `np` and the arrays NAME (loaded from PATH);
it is the independent reference. GOT must have dtype DESCR (e.g. '<f4') and
the reference's shape. Floats must satisfy |got - ref| <= atol + rtol * |ref|
(computed in float64); integers must match exactly. DESCR '<u2' with --bf16
reads GOT as bfloat16 bits. Prints one line and exits 1 on a mismatch.
"""

import argparse
import sys

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("got")
    parser.add_argument("arrays", nargs="*", metavar="NAME=PATH")
    parser.add_argument("--dtype", required=True)
    parser.add_argument("--expect", required=True)
    parser.add_argument("--rtol", type=float, default=0.0)
    parser.add_argument("--atol", type=float, default=0.0)
    parser.add_argument("--bf16", action="store_true")
    args = parser.parse_args()

    env = {"np": np}
    for item in args.arrays:
        name, path = item.split("=", 1)
        env[name] = np.load(path)
    ref = np.asarray(eval(args.expect, env))
    got = np.load(args.got)

    if got.dtype.str != args.dtype:
        sys.exit(f"FAIL: dtype {got.dtype.str}, expected {args.dtype}")
    if got.shape != ref.shape:
        sys.exit(f"FAIL: shape {got.shape}, expected {ref.shape}")
    if args.bf16:
        got = (got.astype(np.uint32) << 16).view(np.float32)
    if got.dtype.kind == "f":
        err = np.abs(got.astype(np.float64) - ref.astype(np.float64))
        bound = args.atol + args.rtol * np.abs(ref.astype(np.float64))
        bad = ~(err <= bound)  # NaN counts as a mismatch.
        worst = float(np.nanmax(err)) if err.size else 0.0
    else:
        bad = got != ref
        worst = int(np.max(np.abs(got.astype(np.int64) - ref))) if got.size else 0
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        sys.exit(f"FAIL: {int(bad.sum())} of {got.size} elements differ; "
                 f"first at {index}: got {got[index]!r}, expected {ref[index]!r}")
    print(f"PASS {got.size} elements, max abs error {worst}")


if __name__ == "__main__":
    main()
