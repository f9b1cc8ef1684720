"""posenc.attention as the flash loop nest (posenc-to-linalg-pipeline with
flash-attention, its scf.forall rewritten into scf.for by
posenc-forall-to-for), compiled by IREE (llvm-cpu) and run by IREE's
runtime, against the independent fp64 NumPy reference
(test/lib/posenc_ref.py).

Usage: iree_flash_attention.py POSENC_OPT [--seed S]
Prints one line per case and ends with "N passed, N failed".

Every case first checks the linalg form it hands IREE: no scf.forall, an
scf.for nest, no posenc op, and no tensor type holding an Sq x Sk score
matrix; except the small case that the
default attention-min-scores leaves to the reference decomposition, which
checks exactly that, as does a dynamic-shape case (IREE 3.13 rejects the
nest's loop-carried tensors of dynamic shape). Small shapes force the nest with attention-min-scores=0
and small tiles, so that key loops, causal clamps, partial tiles and decode
splits are exercised.

Tolerance: f32 outputs, absolute, 4e-6 * max(1, max|reference|), as in
iree_vs_reference.py (f32 dot products of length 64 and an f32 online
softmax, reassociated by IREE); RoPE frequencies are f64 so that the
reference angle is exact. bf16: 2^-8 * max|reference| + 1e-6 (the output is
rounded to bf16 once; inputs are bf16 values, compared in fp64).
"""

import argparse
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import posenc_iree as pi  # noqa: E402
import posenc_ref as ref  # noqa: E402

RESULTS = pi.Results()
FUSED = "posenc-to-linalg-pipeline{{flash-attention=true {}}}"


def check(name, got, want, tol=None):
    RESULTS.check(name, got, want, tol)


def lower(opt, src, options, sq, sk, fused=True):
    """posenc-to-linalg-pipeline with `options`; checks the form IREE gets."""
    linalg = pi.lower_with_posenc(opt, src, FUSED.format(options))
    if "= posenc." in linalg:
        raise RuntimeError("a posenc op is left")
    if "scf.forall" in linalg:
        raise RuntimeError("an scf.forall is left (iree-compile 3.13 crashes on it)")
    # The reference decomposition's scores: [B, Hkv, G, Sq, Sk] (the nest's
    # score tiles are [G, Tq, Tk]).
    scores = re.search(rf"tensor<\d+x\d+x\d+x{sq}x{sk}x(f32|bf16)>", linalg)
    if fused:
        if "scf.for" not in linalg:
            raise RuntimeError("no scf.for nest: the attention was not fused")
        if scores:
            raise RuntimeError(f"an Sq x Sk tensor is left: {scores.group(0)}")
    elif "scf.for" in linalg or not scores:
        raise RuntimeError("expected the reference decomposition")
    return linalg


def run(linalg, *inputs):
    return pi.Module(pi.compile_with_iree(linalg))("f", *inputs)[0]


def normal(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def default_gqa_rope_causal(opt, rng):
    # The default options (host tiles 512 x 512) at 8 x 1024 x 1024 scores
    # (2^23, above the default attention-min-scores of 2^22): fused, two
    # query blocks per kv head, the second with two key tiles (causal
    # clamp), RoPE (llama3, f64 frequencies) on each Q block and K tile.
    hq, hkv, s, d = 8, 2, 1024, 64
    q, k = f"tensor<1x{hq}x{s}x{d}xf32>", f"tensor<1x{hkv}x{s}x{d}xf32>"
    src = pi.llama3_rope_attention(q, k, d)
    qa, ka, va = normal(rng, 1, hq, s, d), normal(rng, 1, hkv, s, d), normal(rng, 1, hkv, s, d)
    got = run(lower(opt, src, "", s, s), qa, ka, va)
    inv, af = ref.inv_freq(d, 500000.0, "llama3", factor=8.0,
                           original_max_position_embeddings=8192)
    check("default_gqa_rope_causal",
          got, ref.attention(qa, ka, va, causal=True, inv_freq=inv, attention_factor=af))


def default_small_stays_reference(opt, rng):
    # Below attention-min-scores (8 x 64 x 64 scores): the reference
    # decomposition, even with flash-attention=true.
    hq, hkv, s, d = 8, 2, 64, 64
    q, k = f"tensor<1x{hq}x{s}x{d}xf32>", f"tensor<1x{hkv}x{s}x{d}xf32>"
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}) -> {q} {{
  %o = posenc.attention %q, %k, %v causal : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    qa, ka, va = normal(rng, 1, hq, s, d), normal(rng, 1, hkv, s, d), normal(rng, 1, hkv, s, d)
    got = run(lower(opt, src, "", s, s, fused=False), qa, ka, va)
    check("default_small_stays_reference", got, ref.attention(qa, ka, va, causal=True))


def default_dynamic_stays_reference(opt, rng):
    # Dynamic Sq/Sk: not known to reach attention-min-scores, so the
    # reference decomposition (IREE 3.13 rejects the nest's loop-carried
    # tensors of dynamic shape); one module run at two lengths.
    hq, hkv, d = 8, 2, 64
    q, k = f"tensor<1x{hq}x?x{d}xf32>", f"tensor<1x{hkv}x?x{d}xf32>"
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}) -> {q} {{
  %o = posenc.attention %q, %k, %v causal : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    linalg = pi.lower_with_posenc(opt, src, FUSED.format(""))
    if "scf." in linalg or "tensor<1x2x4x?x?xf32>" not in linalg:
        raise RuntimeError("expected the reference decomposition")
    module = pi.Module(pi.compile_with_iree(linalg))
    for sq, sk in ((100, 100), (37, 90)):
        qa, ka, va = normal(rng, 1, hq, sq, d), normal(rng, 1, hkv, sk, d), normal(rng, 1, hkv, sk, d)
        check(f"default_dynamic_stays_reference_{sq}x{sk}", module("f", qa, ka, va)[0],
              ref.attention(qa, ka, va, causal=True))


def rope_positions_causal_tiles(opt, rng):
    # Explicit positions (decode-style offset 4000) for q and k, GQA 8/2,
    # 16 x 16 tiles: a key loop of 6 steps per block, causal from the
    # positions (no clamp), RoPE per Q block and per K tile.
    hq, hkv, s, d = 8, 2, 96, 64
    q, k = f"tensor<1x{hq}x{s}x{d}xf32>", f"tensor<1x{hkv}x{s}x{d}xf32>"
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}, %p: tensor<{s}xi64>) -> {q} {{
  %inv, %af = posenc.rope_frequencies dim {d} base 500000.0
      scaling(#posenc.llama3<factor = 8.0, original_max_position_embeddings = 8192>)
      : tensor<{d // 2}xf64>, f32
  %o = posenc.attention %q, %k, %v causal
      rope(<layout = half_split, rotary_dim = {d}>, %inv : tensor<{d // 2}xf64>, %af)
      q_positions(%p : tensor<{s}xi64>) k_positions(%p : tensor<{s}xi64>)
      : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    qa, ka, va = normal(rng, 1, hq, s, d), normal(rng, 1, hkv, s, d), normal(rng, 1, hkv, s, d)
    pos = np.arange(s, dtype=np.int64) + 4000
    linalg = lower(opt, src, "attention-min-scores=0 attention-query-tile=16 "
                   "attention-key-tile=16", s, s)
    got = run(linalg, qa, ka, va, pos)
    inv, af = ref.inv_freq(d, 500000.0, "llama3", factor=8.0,
                           original_max_position_embeddings=8192)
    check("rope_positions_causal_tiles", got,
          ref.attention(qa, ka, va, causal=True, inv_freq=inv, attention_factor=af,
                        q_positions=pos, k_positions=pos))


def alibi_causal_partial_tiles(opt, rng):
    # ALiBi (12 heads, not a power of two), MHA, Sq = 40 < Sk = 100
    # (bottom-right aligned), tiles 16 x 24: partial last tiles (dynamic
    # sizes) in both loops, causal clamp on default positions.
    h, sq, sk, d = 12, 40, 100, 64
    q, k = f"tensor<1x{h}x{sq}x{d}xf32>", f"tensor<1x{h}x{sk}x{d}xf32>"
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}) -> {q} {{
  %o = posenc.attention %q, %k, %v causal alibi(<num_heads = {h}>) : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    qa, ka, va = normal(rng, 1, h, sq, d), normal(rng, 1, h, sk, d), normal(rng, 1, h, sk, d)
    linalg = lower(opt, src, "attention-min-scores=0 attention-query-tile=16 "
                   "attention-key-tile=24", sq, sk)
    got = run(linalg, qa, ka, va)
    check("alibi_causal_partial_tiles", got,
          ref.attention(qa, ka, va, causal=True, alibi_slopes=ref.alibi_slopes(h)))


def decode_split_sinks(opt, rng):
    # Decode: 1 query row per head, Sk = 2048 keys split into chunks that
    # become an scf.for level, partial (max, sum, acc) combined after, with
    # gpt-oss attention sinks counted once in the combine. GQA 8/2.
    hq, hkv, sk, d = 8, 2, 2048, 64
    q, k = f"tensor<1x{hq}x1x{d}xf32>", f"tensor<1x{hkv}x{sk}x{d}xf32>"
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}, %s: tensor<{hq}xf32>) -> {q} {{
  %o = posenc.attention %q, %k, %v causal sinks(%s : tensor<{hq}xf32>) : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    qa, ka, va = normal(rng, 1, hq, 1, d), normal(rng, 1, hkv, sk, d), normal(rng, 1, hkv, sk, d)
    sinks = (rng.standard_normal(hq) * 2).astype(np.float32)
    linalg = lower(opt, src, "attention-min-scores=0", 1, sk)
    if "[1, 1, 1, 4, 1]" not in linalg.replace("  ", " "):
        raise RuntimeError("no per-chunk partial result: the keys were not split")
    got = run(linalg, qa, ka, va, sinks)
    check("decode_split_sinks", got, ref.attention(qa, ka, va, causal=True, sinks=sinks))


def non_causal_bf16(opt, rng):
    # bf16 q, k, v (f32 accumulation inside), not causal, Sq != Sk, GQA 4/1.
    # IREE's Python runtime passes bf16 buffers as their bits: the function
    # takes and returns i16 and bitcasts.
    hq, hkv, sq, sk, d = 4, 1, 48, 80, 64
    q, k = f"tensor<1x{hq}x{sq}x{d}xbf16>", f"tensor<1x{hkv}x{sk}x{d}xbf16>"
    src = pi.attention_on_bits(q, k)

    def bf16(*shape):  # bf16 values (as f32) and their bits (as i16)
        x = normal(rng, *shape)
        bits = (x.view(np.uint32) + 0x8000) >> 16
        return (bits << 16).view(np.float32), bits.astype(np.uint16).view(np.int16)

    (qf, qb), (kf, kb), (vf, vb) = bf16(1, hq, sq, d), bf16(1, hkv, sk, d), bf16(1, hkv, sk, d)
    linalg = lower(opt, src, "attention-min-scores=0 attention-query-tile=16 "
                   "attention-key-tile=32", sq, sk)
    bits = run(linalg, qb, kb, vb)
    got = (bits.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    want = ref.attention(qf, kf, vf)
    check("non_causal_bf16", got, want,
          tol=2.0 ** -8 * float(np.max(np.abs(want))) + 1e-6)


CASES = [default_gqa_rope_causal, default_small_stays_reference,
         default_dynamic_stays_reference, rope_positions_causal_tiles, alibi_causal_partial_tiles, decode_split_sinks,
         non_causal_bf16]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("posenc_opt")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    for case in CASES:
        try:
            case(args.posenc_opt, rng)
        except Exception as e:  # a compile or run failure is a failed case
            RESULTS.record(False, f"{case.__name__}  ({type(e).__name__}: {str(e)[-2000:]})")
    return RESULTS.finish()


if __name__ == "__main__":
    sys.exit(main())
