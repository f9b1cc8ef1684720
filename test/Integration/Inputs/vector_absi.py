"""math.absi inside a vectorized linalg body (symmetric ALiBi's |i - j|, as
importers emit it): vectorized to an n-D vector, which MLIR 22's
math-to-llvm cannot lower (fuzz finding R7, docs/testing.md);
posenc-tile-and-vectorize expands it to maxsi(x, 0 - x). Seeded random
shapes and slopes, i32 and i64 distances, against an fp64 NumPy reference,
tolerance 1e-6 relative (one f32 product)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
from posenc_exec import run  # noqa: E402

MODULE = """
#head3 = affine_map<(d0, d1, d2) -> (d0)>
#qk3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%slopes: tensor<{H}xf32>) -> tensor<{H}x{Q}x{K}xf32> {{
  %zero = arith.constant 0 : {I}
  %e0 = tensor.empty() : tensor<{Q}x{K}x{I}>
  %dist = linalg.generic {{indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}} outs(%e0 : tensor<{Q}x{K}x{I}>) {{
  ^bb0(%out: {I}):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to {I}
    %jj = arith.index_cast %j : index to {I}
    %d = arith.subi %jj, %ii : {I}
    %a = math.absi %d : {I}
    %n = arith.subi %zero, %a : {I}
    linalg.yield %n : {I}
  }} -> tensor<{Q}x{K}x{I}>
  %e1 = tensor.empty() : tensor<{H}x{Q}x{K}xf32>
  %bias = linalg.generic {{indexing_maps = [#head3, #qk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%slopes, %dist : tensor<{H}xf32>, tensor<{Q}x{K}x{I}>) outs(%e1 : tensor<{H}x{Q}x{K}xf32>) {{
  ^bb0(%s: f32, %d: {I}, %out: f32):
    %p = arith.sitofp %d : {I} to f32
    %y = arith.mulf %s, %p : f32
    linalg.yield %y : f32
  }} -> tensor<{H}x{Q}x{K}xf32>
  return %bias : tensor<{H}x{Q}x{K}xf32>
}}
"""


def main():
    rng = np.random.default_rng(13)
    cases = [(4, 8, 8, "i64")]  # the fuzzer's seed, @symmetric_square
    for _ in range(5):
        cases.append((int(rng.integers(1, 6)), int(rng.integers(1, 40)),
                      int(rng.integers(1, 40)), str(rng.choice(["i32", "i64"]))))
    failed = 0
    for h, q, k, itype in cases:
        slopes = rng.uniform(0.01, 1.0, h).astype(np.float32)
        module = MODULE.format(H=h, Q=q, K=k, I=itype)
        (got,) = run(sys.argv[1], module, [slopes])
        i = np.arange(q)[:, None]
        j = np.arange(k)[None, :]
        want = slopes.astype(np.float64)[:, None, None] * -np.abs(j - i)
        err = float((np.abs(got - want) / np.maximum(np.abs(want), 1)).max())
        ok = got.shape == want.shape and err <= 1e-6
        failed += not ok
        print(f"H={h} Q={q} K={k} {itype}: {'ok' if ok else 'FAIL'} err={err:.3g}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
