"""D14's reproducer and its neighbours: every arith.cmpf predicate on bf16
tensors, the mask sign- or zero-extended to i16 (the form that aborted LLVM
22's x86 instruction selection at 16 lanes on AVX-512 BF16 hosts), i8 or
i32, through posenc-run's default pipeline and posenc-cpu-pipeline at vector
widths 8, 16 and 32, on the reported shape ([30, 31] after a bf16 divide)
and seeded random shapes. Inputs mix NaNs, infinities, signed zeros and
equal pairs; the reference is numpy's compare of the same values in f32
(exact: every bf16 is an f32), so results must match exactly."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
from posenc_exec import Tally, from_bf16_bits, run, to_bf16_bits  # noqa: E402

PREDICATES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
              "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]
# (result type, extension) per predicate, cycling.
EXTENSIONS = [("i16", "extsi"), ("i16", "extui"), ("i8", "extsi"), ("i32", "extui")]

GENERIC = """
  %e{i} = tensor.empty() : tensor<{S}x{T}>
  %r{i} = linalg.generic {{indexing_maps = [{MAP}, {MAP}, {MAP}], iterator_types = [{ITERS}]}}
      ins(%q, %b : tensor<{S}xbf16>, tensor<{S}xbf16>) outs(%e{i} : tensor<{S}x{T}>) {{
  ^bb0(%x: bf16, %y: bf16, %o: {T}):
    %c = arith.cmpf {P}, %x, %y : bf16
    %w = arith.{EXT} %c : i1 to {T}
    linalg.yield %w : {T}
  }} -> tensor<{S}x{T}>"""


def module(shape):
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    s = "x".join(map(str, shape))
    amap = f"affine_map<({dims}) -> ({dims})>"
    iters = ", ".join(['"parallel"'] * rank)
    body, results, types = [], [], []
    # a / a first, as in the reported chain (NaN for 0 and infinities).
    body.append(f"""
  %eq = tensor.empty() : tensor<{s}xbf16>
  %q = linalg.generic {{indexing_maps = [{amap}, {amap}], iterator_types = [{iters}]}}
      ins(%a : tensor<{s}xbf16>) outs(%eq : tensor<{s}xbf16>) {{
  ^bb0(%x: bf16, %o: bf16):
    %d = arith.divf %x, %x : bf16
    linalg.yield %d : bf16
  }} -> tensor<{s}xbf16>""")
    for i, p in enumerate(PREDICATES):
        t, ext = EXTENSIONS[i % len(EXTENSIONS)]
        body.append(GENERIC.format(i=i, S=s, T=t, MAP=amap, ITERS=iters, P=p, EXT=ext))
        results.append(f"%r{i}")
        types.append(f"tensor<{s}x{t}>")
    return (f"func.func @main(%a: tensor<{s}xbf16>, %b: tensor<{s}xbf16>) -> ({', '.join(types)}) {{"
            + "".join(body) + f"\n  return {', '.join(results)} : {', '.join(types)}\n}}\n")


def reference(p, x, y):
    unordered = np.isnan(x) | np.isnan(y)
    base = {"eq": x == y, "gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y, "ne": x != y}
    if p == "false":
        return np.zeros(x.shape, bool)
    if p == "true":
        return np.ones(x.shape, bool)
    if p == "ord":
        return ~unordered
    if p == "uno":
        return unordered
    if p[0] == "o":
        return base[p[1:]] & ~unordered
    return base[p[1:]] | unordered


def draw(rng, shape):
    """bf16 bits: normals, repeated values, zeros of both signs, infinities
    and NaNs (a / a of 0 or infinity is NaN too)."""
    x = rng.standard_normal(shape).astype(np.float32) * 4
    pick = rng.random(shape)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0], np.float32)
    x = np.where(pick < 0.3, specials[rng.integers(0, len(specials), shape)], x)
    return to_bf16_bits(x)


def main():
    posenc_run = sys.argv[1]
    rng = np.random.default_rng(14)
    shapes = [(30, 31), (16,), (2, 16)]
    while len(shapes) < 6:
        shapes.append(tuple(int(n) for n in rng.integers(1, 40, rng.integers(1, 4))))
    tally = Tally()
    for shape in shapes:
        a = draw(rng, shape)
        # b: half copies of a / a (equal pairs), half fresh values.
        with np.errstate(invalid="ignore", divide="ignore"):
            q = from_bf16_bits(a) / from_bf16_bits(a)
        q = from_bf16_bits(to_bf16_bits(q))
        b = np.where(rng.random(shape) < 0.5, to_bf16_bits(q), draw(rng, shape))
        y = from_bf16_bits(b)
        src = module(shape)
        for width in (None, 8, 16, 32):
            pipeline = None if width is None else f"posenc-cpu-pipeline{{vector-width={width}}}"
            label = f"{list(shape)} width={width or 'default'}"
            try:
                outs = run(posenc_run, src, [a, b], pipeline=pipeline, timeout=120)
            except RuntimeError as e:
                tally.check(False, f"{label}: {str(e).splitlines()[0]}")
                continue
            for i, p in enumerate(PREDICATES):
                t, ext = EXTENSIONS[i % len(EXTENSIONS)]
                mask = reference(p, q, y)
                want = -mask.astype(np.int64) if ext == "extsi" else mask.astype(np.int64)
                wrong = int(np.sum(outs[i].astype(np.int64) != want))
                tally.check(wrong == 0, f"cmpf {p} ({ext} to {t}) {label}: "
                            f"{wrong} of {want.size} wrong")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
