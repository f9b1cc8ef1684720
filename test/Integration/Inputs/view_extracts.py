"""Gathers (tensor.extract in a generic's body) from column slices of a table
seen through reshapes: GPT-J's repeat_interleave of the sin/cos halves of its
gathered table (`[B, N, C]` sliced to `[B, N, w]`, expanded to
`[B, N, 1, w, 1]`, read at `(b, n, 0, j, 0)` into `[B, N, 1, w, 2]`) and a
collapsed slice read backwards (`[B * N, w]` at `(r, w - 1 - j)`). MLIR 22
vectorizes such reads into vector.gathers that, once bufferized, index the
strided view as if it were contiguous: wrong values whenever the gather is
vectorized (the GPT-J export at 16 tokens, issue 24). Static and dynamic N
(tensor.cast wrapper), posenc-run's default pipeline and vector widths 1, 8,
16 and 32, the reported shape and seeded random ones; the results are
copies, compared exactly with numpy's."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
from posenc_exec import Tally, run  # noqa: E402

REPEAT = """
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @f(%t: tensor<{B}x{N}x{C}xf32>) -> tensor<{B}x{N}x1x{W}x2xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %t, %c1 : tensor<{B}x{N}x{C}xf32>
  %s = tensor.extract_slice %t[0, 0, {O}] [{B}, {NV}, {W}] [1, 1, 1] : tensor<{B}x{N}x{C}xf32> to tensor<{B}x{N}x{W}xf32>
  %e = tensor.expand_shape %s [[0], [1], [2, 3, 4]] output_shape [{B}, {NV}, 1, {W}, 1] : tensor<{B}x{N}x{W}xf32> into tensor<{B}x{N}x1x{W}x1xf32>
  %o = tensor.empty({NE}) : tensor<{B}x{N}x1x{W}x2xf32>
  %r = linalg.generic {{indexing_maps = [#id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}}
      outs(%o : tensor<{B}x{N}x1x{W}x2xf32>) {{
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i3 = linalg.index 3 : index
    %v = tensor.extract %e[%i0, %i1, %c0, %i3, %c0] : tensor<{B}x{N}x1x{W}x1xf32>
    linalg.yield %v : f32
  }} -> tensor<{B}x{N}x1x{W}x2xf32>
  return %r : tensor<{B}x{N}x1x{W}x2xf32>
}}
"""

REVERSE = """
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%t: tensor<{B}x{N}x{C}xf32>) -> tensor<{R}x{W}xf32> {{
  %c1 = arith.constant 1 : index
  %last = arith.constant {WL} : index
  %n = tensor.dim %t, %c1 : tensor<{B}x{N}x{C}xf32>
  %s = tensor.extract_slice %t[0, 0, {O}] [{B}, {NV}, {W}] [1, 1, 1] : tensor<{B}x{N}x{C}xf32> to tensor<{B}x{N}x{W}xf32>
  %c = tensor.collapse_shape %s [[0, 1], [2]] : tensor<{B}x{N}x{W}xf32> into tensor<{R}x{W}xf32>
  %c0 = arith.constant 0 : index
  %nr = tensor.dim %c, %c0 : tensor<{R}x{W}xf32>
  %o = tensor.empty({RE}) : tensor<{R}x{W}xf32>
  %r = linalg.generic {{indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}}
      outs(%o : tensor<{R}x{W}xf32>) {{
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %j = arith.subi %last, %i1 : index
    %v = tensor.extract %c[%i0, %j] : tensor<{R}x{W}xf32>
    linalg.yield %v : f32
  }} -> tensor<{R}x{W}xf32>
  return %r : tensor<{R}x{W}xf32>
}}
"""

WRAPPER = """
func.func @main(%a: tensor<{B}x{NS}x{C}xf32>) -> {OUTS} {{
  %c = tensor.cast %a : tensor<{B}x{NS}x{C}xf32> to tensor<{B}x?x{C}xf32>
  %r = func.call @f(%c) : (tensor<{B}x?x{C}xf32>) -> {OUTD}
  %s = tensor.cast %r : {OUTD} to {OUTS}
  return %s : {OUTS}
}}
"""


def module(kind, b, n, c, o, w, dynamic):
    fmt = dict(B=b, N="?" if dynamic else n, C=c, O=o, W=w, WL=w - 1,
               R="?" if dynamic else b * n, NV="%n" if dynamic else n,
               NE="%n" if dynamic else "", RE="%nr" if dynamic else "")
    text = (REPEAT if kind == "repeat" else REVERSE).format(**fmt)
    if not dynamic:
        return text.replace("@f(", "@main(")
    out = {"repeat": "tensor<{B}x{N}x1x{W}x2xf32>", "reverse": "tensor<{R}x{W}xf32>"}[kind]
    outs = out.format(B=b, N=n, W=w, R=b * n)
    outd = out.format(B=b, N="?", W=w, R="?")
    return text + WRAPPER.format(B=b, NS=n, C=c, OUTS=outs, OUTD=outd)


def reference(kind, t, o, w):
    s = t[:, :, o:o + w]
    if kind == "repeat":
        return np.repeat(s[:, :, None, :, None], 2, axis=4)
    return s.reshape(-1, w)[:, ::-1]


def main():
    posenc_run = sys.argv[1]
    rng = np.random.default_rng(24)
    shapes = [(2, 16, 8, 4, 4), (2, 11, 8, 4, 4), (1, 8, 8, 0, 4)]
    while len(shapes) < 8:
        b, n = int(rng.integers(1, 4)), int(rng.choice([1, 3, 8, 16, 17, 24, 32]))
        c = int(rng.integers(2, 13))
        w = int(rng.integers(1, c))
        shapes.append((b, n, c, int(rng.integers(0, c - w + 1)), w))
    tally = Tally()
    for b, n, c, o, w in shapes:
        t = rng.standard_normal((b, n, c)).astype(np.float32)
        for kind in ("repeat", "reverse"):
            want = reference(kind, t, o, w)
            for dynamic in (False, True):
                for width in (None, 1, 8, 16, 32):
                    pipeline = None if width is None else \
                        f"posenc-cpu-pipeline{{vector-width={width}}}"
                    (got,) = run(posenc_run, module(kind, b, n, c, o, w, dynamic), [t],
                                 entry="main", pipeline=pipeline)
                    wrong = int(np.sum(got != want))
                    tally.check(wrong == 0, f"{kind} [{b}, {n}, {c}] cols {o}:{o + w} "
                                f"{'dynamic' if dynamic else 'static'} width="
                                f"{width or 'default'}: {wrong} of {want.size} wrong")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
