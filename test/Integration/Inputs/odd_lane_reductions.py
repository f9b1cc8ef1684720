"""D12's reproducer and its neighbours: max and sum reductions over the last
or the first axis of f32 tensors, through posenc-run's default pipeline and
posenc-cpu-pipeline at vector widths 8, 16 and 32, on the reported shape
([1, 4, 3, 4, 7]: 16 of 48 maxima wrong at width 32 before
posenc-lower-multi-reductions, an LLVM 22 x86 miscompile) and seeded random
shapes of rank 2-5. Max is compared exactly with numpy's; sum with numpy's
fp64 sum at n * 2^-23 * sum(|x|) (n terms rounded to f32 one by one)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
from posenc_exec import Tally, run  # noqa: E402

MODULE = """
func.func @main(%x: tensor<{IN}xf32>) -> tensor<{OUT}xf32> {{
  %init = arith.constant {INIT} : f32
  %e = tensor.empty() : tensor<{OUT}xf32>
  %f = linalg.fill ins(%init : f32) outs(%e : tensor<{OUT}xf32>) -> tensor<{OUT}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<({DIMS}) -> ({DIMS})>, affine_map<({DIMS}) -> ({KEPT})>],
                       iterator_types = [{ITERS}]}}
      ins(%x : tensor<{IN}xf32>) outs(%f : tensor<{OUT}xf32>) {{
  ^bb0(%in: f32, %out: f32):
    %v = {OP} %in, %out : f32
    linalg.yield %v : f32
  }} -> tensor<{OUT}xf32>
  return %r : tensor<{OUT}xf32>
}}
"""


def module(shape, axis, op):
    dims = [f"d{i}" for i in range(len(shape))]
    kept = [d for i, d in enumerate(dims) if i != axis]
    out = [n for i, n in enumerate(shape) if i != axis]
    return MODULE.format(
        IN="x".join(map(str, shape)), OUT="x".join(map(str, out)),
        DIMS=", ".join(dims), KEPT=", ".join(kept),
        ITERS=", ".join('"reduction"' if i == axis else '"parallel"' for i in range(len(shape))),
        INIT="0xFF800000" if op == "max" else "0.0",
        OP="arith.maximumf" if op == "max" else "arith.addf")


def main():
    posenc_run = sys.argv[1]
    rng = np.random.default_rng(12)
    shapes = [(1, 4, 3, 4, 7), (1, 2, 3, 4, 7), (1, 4, 4, 4, 7)]
    while len(shapes) < 9:
        shapes.append(tuple(int(n) for n in rng.integers(1, 10, rng.integers(2, 6))))
    tally = Tally()
    for shape in shapes:
        for axis in (len(shape) - 1, 0):
            for op in ("max", "sum"):
                x = rng.standard_normal(shape).astype(np.float32)
                if op == "max":
                    want, tol = np.max(x, axis=axis), 0.0
                else:
                    want = np.sum(x.astype(np.float64), axis=axis)
                    tol = shape[axis] * 2.0**-23 * np.sum(np.abs(x.astype(np.float64)), axis=axis)
                for width in (None, 8, 16, 32):
                    pipeline = None if width is None else f"posenc-cpu-pipeline{{vector-width={width}}}"
                    (got,) = run(posenc_run, module(shape, axis, op), [x], pipeline=pipeline)
                    wrong = int(np.sum(np.abs(got.astype(np.float64) - want) > tol))
                    tally.check(wrong == 0, f"{op} axis {axis} of {list(shape)} width="
                                f"{width or 'default'}: {wrong} of {want.size} wrong")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
