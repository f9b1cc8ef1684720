"""posenc.rotary reading its cos/sin tables through column slices of one
table (how raising emits GPT-J's embed_positions when the table is not a
ladder): MLIR 22's vectorizer gathered from the strided view as if it were
contiguous (max error 11.5); posenc-tile-and-vectorize now reads the slice's
source. Compared with an fp64 NumPy reference, tolerance 1e-5 absolute
(f32 products of O(1) values)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
from posenc_exec import run  # noqa: E402

MODULE = """
func.func @f(%x: tensor<1x{S}x4x16xf32>, %t: tensor<32x8xf32>) -> tensor<1x{S}x4x16xf32> {{
  %c = tensor.extract_slice %t[0, 4] [32, 4] [1, 1] : tensor<32x8xf32> to tensor<32x4xf32>
  %s = tensor.extract_slice %t[0, 0] [32, 4] [1, 1] : tensor<32x8xf32> to tensor<32x4xf32>
  %r = posenc.rotary %x {layout} dim 8 cos_sin(%c, %s : tensor<32x4xf32>, tensor<32x4xf32>) {{token_dim = 1 : i64}} : tensor<1x{S}x4x16xf32>
  return %r : tensor<1x{S}x4x16xf32>
}}
"""


def reference(x, t, layout):
    s = x.shape[1]
    cos, sin = t[:s, 4:8].astype(np.float64), t[:s, 0:4].astype(np.float64)
    out = x.astype(np.float64).copy()
    for i in range(4):
        a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + 4)
        xa, xb = x[..., a].astype(np.float64), x[..., b].astype(np.float64)
        c, sn = cos[:, i][None, :, None], sin[:, i][None, :, None]
        out[..., a] = xa * c - xb * sn
        out[..., b] = xb * c + xa * sn
    return out


def main():
    rng = np.random.default_rng(7)
    failed = 0
    for layout in ("interleaved", "half_split"):
        for s in (16, 5):
            x = rng.standard_normal((1, s, 4, 16)).astype(np.float32)
            t = rng.standard_normal((32, 8)).astype(np.float32)
            (got,) = run(sys.argv[1], MODULE.format(S=s, layout=layout), [x, t])
            err = float(np.abs(got - reference(x, t, layout)).max())
            ok = err <= 1e-5
            failed += not ok
            print(f"{layout} S={s}: {'ok' if ok else 'FAIL'} err={err:.3g}")
    print(f"{4 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
