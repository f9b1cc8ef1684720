"""posenc lowered by posenc-to-linalg-pipeline, compiled by IREE (llvm-cpu)
and run by IREE's runtime, against the independent fp64 NumPy reference
(test/lib/posenc_ref.py).

Usage: iree_vs_reference.py POSENC_OPT POSENC_TRANSLATE [--seed S]
Prints one line per case and ends with "N passed, N failed".

Tolerance: f32 outputs, absolute, 4e-6 * max(1, max|reference|): f32
arithmetic on inputs of magnitude ~1-4 (RoPE: f32 cos/sin of an angle reduced
in f64; attention: f32 dot products of length 64 and an f32 softmax, which
IREE may reassociate and vectorize). With f32 frequencies the angle is the
f32 product p * inv_freq by posenc's definition (HF's too), so that case is
compared with reference tables built from the f32 angle; f64 frequencies are
compared with the exact reference.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import posenc_iree as pi  # noqa: E402
import posenc_ref as ref  # noqa: E402

RESULTS = {"passed": 0, "failed": 0}


def check(name, got, want):
    want = np.asarray(want, np.float64)
    err = float(np.max(np.abs(got.astype(np.float64) - want)))
    tol = 4e-6 * max(1.0, float(np.max(np.abs(want))))
    ok = got.shape == want.shape and err <= tol
    RESULTS["passed" if ok else "failed"] += 1
    print(f"{'PASS' if ok else 'FAIL'} {name}  (max abs err {err:.2e}, tol {tol:.1e})")


def rope_llama3_f64(opt, rng):
    # Positions far past the original context (8192) with f64 frequencies:
    # the angle is exact to ~1e-12 rad only if IREE keeps posenc's f64
    # arithmetic (no f64 -> f32 demotion).
    src = """
func.func @f(%x: tensor<1x4x32x64xf32>, %pos: tensor<32xi64>) -> tensor<1x4x32x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 500000.0
      scaling(#posenc.llama3<factor = 8.0, original_max_position_embeddings = 8192>)
      : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>)
      positions(%pos : tensor<32xi64>) attention_factor(%af) : tensor<1x4x32x64xf32>
  return %y : tensor<1x4x32x64xf32>
}"""
    x = rng.standard_normal((1, 4, 32, 64)).astype(np.float32)
    pos = (np.arange(32) * 3989 + 9000).astype(np.int64)
    (got,) = pi.build(opt, src)("f", x, pos)
    inv, af = ref.inv_freq(64, 500000.0, "llama3", factor=8.0,
                           original_max_position_embeddings=8192)
    check("rope_llama3_f64", got, ref.rotary(x, pos, inv, af, "half_split", token_axis=2))


def f32_angle_tables(inv, af, num_positions):
    """Half-width cos/sin tables of posenc's f32-frequency semantics: the
    angle is the f32 product f32(p) * f32(inv_freq) (as in HF), the rest is
    exact. The reference then rotates with these tables."""
    p = np.arange(num_positions, dtype=np.float32)[:, None]
    ang = (p * inv.astype(np.float32)[None, :]).astype(np.float64)
    return np.cos(ang) * af, np.sin(ang) * af


def rope_yarn_interleaved_partial(opt, rng):
    # YaRN's attention factor (0.1 ln 4 + 1), interleaved pairs on the first
    # 32 of 64 channels, per-sequence positions [B, S], f32 frequencies.
    src = """
func.func @f(%x: tensor<2x2x16x64xf32>, %pos: tensor<2x16xi64>) -> tensor<2x2x16x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 32 base 10000.0
      scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096>)
      : tensor<16xf32>, f32
  %y = posenc.rotary %x interleaved dim 32 inv_freq(%inv : tensor<16xf32>)
      positions(%pos : tensor<2x16xi64>) attention_factor(%af) : tensor<2x2x16x64xf32>
  return %y : tensor<2x2x16x64xf32>
}"""
    x = rng.standard_normal((2, 2, 16, 64)).astype(np.float32)
    pos = rng.integers(0, 16384, size=(2, 16)).astype(np.int64)
    (got,) = pi.build(opt, src)("f", x, pos)
    inv, af = ref.inv_freq(32, 10000.0, "yarn", factor=4.0,
                           original_max_position_embeddings=4096)
    want = ref.rotary(x, pos, layout="interleaved", token_axis=2,
                      cos_sin=f32_angle_tables(inv, af, 16384))
    check("rope_yarn_interleaved_partial", got, want)


def alibi_symmetric(opt, rng):
    # 12 heads (not a power of two), Sq < Sk: bottom-right aligned.
    src = """
func.func @f() -> tensor<12x16x48xf32> {
  %b = posenc.alibi symmetric slopes(<num_heads = 12>) : tensor<12x16x48xf32>
  return %b : tensor<12x16x48xf32>
}"""
    (got,) = pi.build(opt, src)("f")
    check("alibi_symmetric", got,
          ref.alibi_bias(ref.alibi_slopes(12), 16, 48, "symmetric"))


def alibi_key_linear_shard(opt, rng):
    # BLOOM-style key-linear bias of the second tensor-parallel shard.
    src = """
func.func @f() -> tensor<56x8x8xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 112, head_offset = 56>)
      : tensor<56x8x8xf32>
  return %b : tensor<56x8x8xf32>
}"""
    (got,) = pi.build(opt, src)("f")
    slopes = ref.alibi_slopes(112, head_offset=56)
    check("alibi_key_linear_shard", got, ref.alibi_bias(slopes, 8, 8, "key_linear"))


def attention_rope_gqa_causal(opt, rng):
    # A Llama-3 block: RoPE (f64 frequencies) on q and k at explicit
    # positions, causal GQA attention (8 query heads over 2 kv heads).
    src = """
func.func @f(%q: tensor<1x8x64x64xf32>, %k: tensor<1x2x64x64xf32>,
             %v: tensor<1x2x64x64xf32>, %pos: tensor<64xi64>) -> tensor<1x8x64x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 500000.0
      scaling(#posenc.llama3<factor = 8.0, original_max_position_embeddings = 8192>)
      : tensor<32xf64>, f32
  %qr = posenc.rotary %q half_split dim 64 inv_freq(%inv : tensor<32xf64>)
      positions(%pos : tensor<64xi64>) attention_factor(%af) : tensor<1x8x64x64xf32>
  %kr = posenc.rotary %k half_split dim 64 inv_freq(%inv : tensor<32xf64>)
      positions(%pos : tensor<64xi64>) attention_factor(%af) : tensor<1x2x64x64xf32>
  %o = posenc.attention %qr, %kr, %v causal
      : tensor<1x8x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>
      -> tensor<1x8x64x64xf32>
  return %o : tensor<1x8x64x64xf32>
}"""
    q = rng.standard_normal((1, 8, 64, 64)).astype(np.float32)
    k = rng.standard_normal((1, 2, 64, 64)).astype(np.float32)
    v = rng.standard_normal((1, 2, 64, 64)).astype(np.float32)
    pos = np.arange(64, dtype=np.int64) + 4000
    (got,) = pi.build(opt, src)("f", q, k, v, pos)
    inv, af = ref.inv_freq(64, 500000.0, "llama3", factor=8.0,
                           original_max_position_embeddings=8192)
    want = ref.attention(q, k, v, causal=True, inv_freq=inv, attention_factor=af,
                         q_positions=pos, k_positions=pos)
    check("attention_rope_gqa_causal", got, want)


def attention_alibi_causal(opt, rng):
    # ALiBi inside posenc.attention (natural-log units, exp softmax), GQA.
    src = """
func.func @f(%q: tensor<1x8x32x64xf32>, %k: tensor<1x2x32x64xf32>,
             %v: tensor<1x2x32x64xf32>) -> tensor<1x8x32x64xf32> {
  %o = posenc.attention %q, %k, %v causal alibi(<num_heads = 8>)
      : tensor<1x8x32x64xf32>, tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>
      -> tensor<1x8x32x64xf32>
  return %o : tensor<1x8x32x64xf32>
}"""
    q = rng.standard_normal((1, 8, 32, 64)).astype(np.float32)
    k = rng.standard_normal((1, 2, 32, 64)).astype(np.float32)
    v = rng.standard_normal((1, 2, 32, 64)).astype(np.float32)
    (got,) = pi.build(opt, src)("f", q, k, v)
    want = ref.attention(q, k, v, causal=True, alibi_slopes=ref.alibi_slopes(8))
    check("attention_alibi_causal", got, want)


def attention_key_mask_rope_only(opt, rng):
    # Issue 24: HF's attention_mask (left padding) as key_mask, RoPE at
    # position_ids with gaps (rope_only_positions), causal GQA.
    src = """
func.func @f(%q: tensor<2x8x32x64xf32>, %k: tensor<2x2x32x64xf32>,
             %v: tensor<2x2x32x64xf32>, %m: tensor<2x32xi64>,
             %pos: tensor<2x32xi64>) -> tensor<2x8x32x64xf32> {
  %inv = arith.constant dense<%INV%> : tensor<32xf64>
  %o = posenc.attention %q, %k, %v causal
      rope(<layout = half_split, rotary_dim = 64>, %inv : tensor<32xf64>)
      q_positions(%pos : tensor<2x32xi64>) k_positions(%pos : tensor<2x32xi64>)
      rope_only_positions key_mask(%m : tensor<2x32xi64>)
      : tensor<2x8x32x64xf32>, tensor<2x2x32x64xf32>, tensor<2x2x32x64xf32>
      -> tensor<2x8x32x64xf32>
  return %o : tensor<2x8x32x64xf32>
}"""
    inv = ref.inv_freq(64, 10000.0)[0]
    src = src.replace("%INV%", "[" + ", ".join(repr(float(x)) for x in inv) + "]")
    q = rng.standard_normal((2, 8, 32, 64)).astype(np.float32)
    k = rng.standard_normal((2, 2, 32, 64)).astype(np.float32)
    v = rng.standard_normal((2, 2, 32, 64)).astype(np.float32)
    mask = np.ones((2, 32), np.int64)
    mask[1, :9] = 0
    pos = np.cumsum(rng.integers(1, 3, size=(2, 32)), axis=1) - 1
    (got,) = pi.build(opt, src)("f", q, k, v, mask, pos)
    want = ref.attention(q, k, v, causal=True, inv_freq=inv, rotary_dim=64,
                         q_positions=pos, k_positions=pos, rope_only_positions=True,
                         key_mask=mask)
    check("attention_key_mask_rope_only", got, want)


def hf_import_llama32(opt, rng, translate):
    # The user-guide flow: Llama-3.2-1B's config.json -> posenc-translate
    # -> posenc-to-linalg-pipeline -> IREE.
    config = os.path.join(os.path.dirname(__file__), "..", "Translate", "Inputs",
                          "llama-3.2-1b.json")
    out = subprocess.run([translate, "--import-hf-config", config, "--seq-len=64",
                          "--dtype=f32"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    q = rng.standard_normal((1, 32, 64, 64)).astype(np.float32)
    k = rng.standard_normal((1, 8, 64, 64)).astype(np.float32)
    v = rng.standard_normal((1, 8, 64, 64)).astype(np.float32)
    pos = (np.arange(64, dtype=np.int64) + 100)[None, :]
    (got,) = pi.build(opt, out.stdout)("attention", q, k, v, pos)
    inv, af = ref.inv_freq(64, 500000.0, "llama3", factor=32.0,
                           original_max_position_embeddings=8192)
    want = ref.attention(q, k, v, causal=True, inv_freq=inv, attention_factor=af,
                         q_positions=pos, k_positions=pos)
    check("hf_import_llama32", got, want)


def hf_import_gqa(opt, rng, translate, hq, hkv):
    # GQA imports whose group size G = Hq/Hkv does not divide IREE's head
    # tiles: posenc's linalg form must be tileable (no semi-affine
    # `h floordiv G` maps, which IREE's llvm-cpu tiling rejects) and exact.
    import json
    import tempfile
    head_dim, seq = 32, 24
    config = {"model_type": "llama", "num_attention_heads": hq,
              "num_key_value_heads": hkv, "hidden_size": hq * head_dim,
              "head_dim": head_dim, "max_position_embeddings": 4096,
              "rope_theta": 10000.0}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(config, f)
    try:
        out = subprocess.run([translate, "--import-hf-config", f.name, f"--seq-len={seq}",
                              "--dtype=f32"], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    linalg = pi.lower_with_posenc(opt, out.stdout)
    if "floordiv" in linalg:
        raise RuntimeError("posenc-to-linalg-pipeline output has a floordiv map")
    q = rng.standard_normal((1, hq, seq, head_dim)).astype(np.float32)
    k = rng.standard_normal((1, hkv, seq, head_dim)).astype(np.float32)
    v = rng.standard_normal((1, hkv, seq, head_dim)).astype(np.float32)
    pos = (np.arange(seq, dtype=np.int64) + 7)[None, :]
    (got,) = pi.Module(pi.compile_with_iree(linalg))("attention", q, k, v, pos)
    inv, af = ref.inv_freq(head_dim, 10000.0)
    want = ref.attention(q, k, v, causal=True, inv_freq=inv, attention_factor=af,
                         q_positions=pos, k_positions=pos)
    check(f"hf_import_gqa_{hq}_{hkv}", got, want)


CASES = [rope_llama3_f64, rope_yarn_interleaved_partial, alibi_symmetric,
         alibi_key_linear_shard, attention_rope_gqa_causal, attention_alibi_causal,
         attention_key_mask_rope_only]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("posenc_opt")
    parser.add_argument("posenc_translate")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    cases = [(c, ()) for c in CASES] + [(hf_import_llama32, (args.posenc_translate,))]
    cases += [(hf_import_gqa, (args.posenc_translate, hq, hkv))
              for hq, hkv in ((20, 4), (24, 8), (12, 4))]
    for case, extra in cases:
        try:
            case(args.posenc_opt, rng, *extra)
        except Exception as e:  # a compile or run failure is a failed case
            RESULTS["failed"] += 1
            print(f"FAIL {case.__name__}  ({type(e).__name__}: {str(e)[-2000:]})")
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 0 if RESULTS["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
