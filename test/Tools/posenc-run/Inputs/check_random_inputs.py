"""Checks the outputs of random-inputs.mlir: runs a, b (same seed), c (another
seed) and d (--int-max=3) under the directory given as argument."""

import os
import sys

import numpy as np

root = sys.argv[1]


def load(run, i):
    return np.load(os.path.join(root, run, f"out{i}.npy"))


descrs = ["<f4", "<f8", "<f2", "<u2", "<i4", "<i8"]
for i, descr in enumerate(descrs):
    a, b, c, d = (load(run, i) for run in "abcd")
    assert a.dtype.str == descr, (i, a.dtype.str)
    assert np.array_equal(a, b), f"output {i}: same seed, different data"
    assert not np.array_equal(a, c), f"output {i}: other seed, same data"
    if descr == "<u2":  # bf16 bits
        a = (a.astype(np.uint32) << 16).view(np.float32)
    if a.dtype.kind == "f":
        assert a.min() >= -1 and a.max() < 1, (i, a.min(), a.max())
        assert a.min() < -0.9 and a.max() > 0.9, f"output {i}: not spread"
    else:
        assert a.min() >= 0 and a.max() < 4096, (i, a.min(), a.max())
        assert a.max() > 3000, f"output {i}: not spread"
        assert set(np.unique(d)) == {0, 1, 2}, (i, np.unique(d))
print("PASS")
