"""Issue 26's reproducer: a boolean mask built as `cmp & dense<true>` (the
`causal & true & padding` shape of transformers v5's mask builders) and
turned into floats, through posenc-run's default pipeline and through
posenc-cpu-pipeline at every vector width, on seeded random shapes (16x16
as reported, and odd ones) and seeded i64 inputs in [-3, 3). The expected
output is numpy's `where(a <= 0 & c, 1, 0)` (exact: no rounding). Before
posenc-lower-i1-vector-memory the vector loads read the i1 constant as
packed bits: 142 of 256 elements wrong on the reported shape."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
from posenc_exec import Tally, run  # noqa: E402

MODULE = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<{M}x{N}xi64>) -> tensor<{M}x{N}xf32> {{
  %c0 = arith.constant 0 : i64
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %all = arith.constant {CONST} : tensor<{M}x{N}xi1>
  %e = tensor.empty() : tensor<{M}x{N}xi1>
  %m = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<{M}x{N}xi64>) outs(%e : tensor<{M}x{N}xi1>) {{
  ^bb0(%in: i64, %out: i1):
    %p = arith.cmpi sle, %in, %c0 : i64
    linalg.yield %p : i1
  }} -> tensor<{M}x{N}xi1>
  %m2 = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%m, %all : tensor<{M}x{N}xi1>, tensor<{M}x{N}xi1>) outs(%e : tensor<{M}x{N}xi1>) {{
  ^bb0(%x: i1, %y: i1, %out: i1):
    %p = arith.andi %x, %y : i1
    linalg.yield %p : i1
  }} -> tensor<{M}x{N}xi1>
  %e2 = tensor.empty() : tensor<{M}x{N}xf32>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%m2 : tensor<{M}x{N}xi1>) outs(%e2 : tensor<{M}x{N}xf32>) {{
  ^bb0(%x: i1, %out: f32):
    %v = arith.select %x, %one, %zero : f32
    linalg.yield %v : f32
  }} -> tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}
"""


def main():
    posenc_run = sys.argv[1]
    rng = np.random.default_rng(26)
    shapes = [(16, 16), (7, 33), (1, 65), (31, 17)]
    tally = Tally()
    for m, n in shapes:
        for const in ("splat", "dense"):
            c = np.ones((m, n), bool) if const == "splat" else rng.integers(0, 2, (m, n)) == 1
            text = ("dense<true>" if const == "splat" else
                    "dense<[" + ", ".join("[" + ", ".join("true" if v else "false" for v in row)
                                          + "]" for row in c) + "]>")
            module = MODULE.format(M=m, N=n, CONST=text)
            a = rng.integers(-3, 3, (m, n)).astype(np.int64)
            want = np.where((a <= 0) & c, 1.0, 0.0).astype(np.float32)
            for width in (None, 1, 4, 8, 16, 32):
                pipeline = None if width is None else f"posenc-cpu-pipeline{{vector-width={width}}}"
                (got,) = run(posenc_run, module, [a], pipeline=pipeline)
                wrong = int(np.sum(got != want))
                what = f"{m}x{n} {const} width={width or 'default'}"
                tally.check(wrong == 0, f"{what}: {wrong} of {m * n} elements wrong")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
