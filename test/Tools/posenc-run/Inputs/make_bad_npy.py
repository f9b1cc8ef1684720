"""Writes one malformed (or mismatched) .npy file per error class into the
directory given as argument; errors-npy.mlir feeds each to posenc-run."""

import os
import struct
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def path(name):
    return os.path.join(out, name + ".npy")


def raw(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def with_header(name, header, data=b"", version=(1, 0), length=None):
    """A file with `header` (a dict literal) spelled out by hand."""
    header = header.encode("latin1") + b"\n"
    if length is None:
        length = len(header)
    size = struct.pack("<H" if version[0] == 1 else "<I", length)
    raw(name, b"\x93NUMPY" + bytes(version) + size + header + data)


good = np.arange(32, dtype=np.float32).reshape(4, 8)
np.save(path("good"), good)
valid = open(path("good"), "rb").read()

raw("bad-magic", b"PK\x03\x04" + valid[4:])
raw("empty", b"")
raw("short-preamble", valid[:7])
raw("truncated-header", valid[:40])
raw("truncated-data", valid[:-4])
raw("extra-data", valid + b"\0\0\0\0")
with_header("oversized-header", "{}", version=(2, 0), length=0xFFFFFFF0)
with_header("version", "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), }",
            good.tobytes(), version=(4, 0))
with_header("missing-key", "{'descr': '<f4', 'fortran_order': False, }", good.tobytes())
with_header("garbage-header", "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), 'x': 1}",
            good.tobytes())
with_header("huge-dims", "{'descr': '<f4', 'fortran_order': False, "
            "'shape': (4611686018427387904, 4611686018427387904), }", b"\0" * 16)
with_header("huge-dim", "{'descr': '<f4', 'fortran_order': False, "
            "'shape': (99999999999999999999,), }", b"\0" * 16)
with_header("huge-bytes", "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 8), }",
            b"\0" * 16)
np.save(path("fortran"), np.asfortranarray(good))
np.save(path("f64"), good.astype(np.float64))
np.save(path("big-endian"), good.astype(">f4"))
np.save(path("wrong-shape"), good.reshape(8, 4))
np.save(path("structured"), np.zeros(3, dtype=[("a", "<f4")]))
np.save(path("object"), np.array([None, 1], dtype=object), allow_pickle=True)
np.save(path("f16-pair"), np.zeros(2, dtype=np.float16))
