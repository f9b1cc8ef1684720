#!/usr/bin/env python3
"""Self-tests of posenc_ref against every golden value and "(checked)" statement of the spec.

Run:  python3 test/lib/test_ref_golden.py [-v]
Prints one line per failed check (every check with -v) and ends with
``N passed, N failed``; exits 1 if any check failed. NumPy only.

Tolerances (spec §9): derived fp64 quantities are compared at 1e-12 relative
unless the spec prints a rounded value, in which case the tolerance is half a
unit in the last printed digit (plus 1e-12), e.g. 6 decimals -> 5e-7.
"""

from __future__ import annotations

import math
import os
import sys
from typing import List

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import posenc_ref as R  # noqa: E402

VERBOSE = "-v" in sys.argv
_results: List[bool] = []


def check(name: str, ok: bool, detail: str = "") -> None:
    ok = bool(ok)
    _results.append(ok)
    if VERBOSE or not ok:
        print(f"{'PASS' if ok else 'FAIL'}: {name}" + (f"  [{detail}]" if detail else ""))


def near(a, b, tol: float) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol))


def rel_near(a, b, rtol: float = 1e-12) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= rtol * np.abs(b)))


def digits(x: int) -> float:
    """Half a unit in the x-th decimal, plus fp slack."""
    return 0.5 * 10.0 ** (-x) + 1e-12


# ----------------------------------------------------------------------------
# §6 Llama-3.1-8B (llama3 scaling)
# ----------------------------------------------------------------------------
def test_llama31() -> None:
    inv, af = R.inv_freq(128, 500000.0, "llama3", factor=8.0, low_freq_factor=1.0,
                         high_freq_factor=4.0, original_max_position_embeddings=8192)
    ratio = R.default_inv_freq(128, 500000.0) / inv
    gold = [1.207484, 1.553415, 2.026313, 2.694530, 3.684253, 5.257327]
    check("llama3.1 base/inv pairs 29-34", near(ratio[29:35], gold, digits(6)),
          f"{np.round(ratio[29:35], 6)}")
    check("llama3.1 pairs 0-28 kept", rel_near(ratio[:29], np.ones(29)))
    check("llama3.1 pairs 35-63 divided by 8", rel_near(ratio[35:], np.full(29, 8.0)))
    check("llama3.1 attention_factor 1", af == 1.0)
    # Llama-3.2-1B: head_dim 64, factor 32 -- same banding (kept / smoothed / /32)
    inv32, _ = R.inv_freq(64, 500000.0, "llama3", factor=32.0,
                          original_max_position_embeddings=8192)
    r32 = R.default_inv_freq(64, 500000.0) / inv32
    check("llama3.2 ratios within [1, 32] and monotone",
          bool(np.all(np.diff(r32) >= -1e-12)) and near(r32[0], 1.0, 1e-12)
          and near(r32[-1], 32.0, 1e-9))
    # §2.5: vLLM smooth = 0 when low == high (no division by zero, no NaN)
    inv_eq, _ = R.inv_freq(128, 500000.0, "llama3", factor=8.0, low_freq_factor=2.0,
                           high_freq_factor=2.0, original_max_position_embeddings=8192)
    base = R.default_inv_freq(128, 500000.0)
    wl = 2 * math.pi / base
    expect = np.where(wl < 4096, base, base / 8.0)
    check("llama3 low==high: finite, step at L/low (smooth=0)",
          bool(np.all(np.isfinite(inv_eq))) and rel_near(inv_eq, expect))


# ----------------------------------------------------------------------------
# §6 Qwen2.5 YaRN, DeepSeek-V3, gpt-oss, Phi-3
# ----------------------------------------------------------------------------
def test_qwen25_yarn() -> None:
    rng = R.yarn_correction_range(128, 1e6, 32768)
    check("qwen2.5 yarn corr range (23, 40)", rng == (23, 40), str(rng))
    inv, af = R.inv_freq(128, 1e6, "yarn", factor=4.0, original_max_position_embeddings=32768)
    check("qwen2.5 attention_factor 1.138629", near(af, 1.138629, digits(6)), f"{af:.9f}")
    check("qwen2.5 logits x1.296477 (= af**2)", near(af * af, 1.296477, digits(6)))
    ratio = R.default_inv_freq(128, 1e6) / inv
    check("qwen2.5 base/inv = 1 for pairs <= 23", rel_near(ratio[:24], np.ones(24)))
    check("qwen2.5 base/inv = 4 for pairs >= 40", rel_near(ratio[40:], np.full(24, 4.0)))
    check("qwen2.5 base/inv strictly increasing over 23..40",
          bool(np.all(np.diff(ratio[23:41]) > 0)))
    # HF-mid (§7.1): s = max_pos/original = 1 -> unscaled RoPE, attention factor 1
    inv1, af1 = R.inv_freq(128, 1e6, "yarn", factor=32768 / 32768,
                           original_max_position_embeddings=32768)
    check("yarn with s=1 == default RoPE, factor 1",
          rel_near(inv1, R.default_inv_freq(128, 1e6)) and af1 == 1.0)


def test_deepseek_v3() -> None:
    rng = R.yarn_correction_range(64, 1e4, 4096, 32, 1)
    check("deepseek-v3 corr range (10, 23)", rng == (10, 23), str(rng))
    _, af = R.inv_freq(64, 1e4, "yarn", factor=40.0, original_max_position_embeddings=4096,
                       beta_fast=32, beta_slow=1, mscale=1.0, mscale_all_dim=1.0)
    check("deepseek-v3 cos/sin factor 1.0", near(af, 1.0, 1e-15), repr(af))
    m2 = R.get_mscale(40.0, 1.0) ** 2
    check("deepseek-v3 get_mscale(40,1)**2 = 1.873854", near(m2, 1.873854, digits(6)), f"{m2:.7f}")
    ss = R.deepseek_softmax_scale(192, 40.0, 1.0)
    check("deepseek-v3 softmax_scale 0.135234", near(ss, 0.135234, digits(6)), f"{ss:.7f}")
    check("deepseek softmax_scale without mscale_all_dim = 192**-0.5",
          R.deepseek_softmax_scale(192, 40.0, 0.0) == 192 ** -0.5
          and R.deepseek_softmax_scale(192, 40.0, None) == 192 ** -0.5)


def test_gpt_oss() -> None:
    lo, hi = R.yarn_correction_range(64, 150000.0, 4096, 32, 1, truncate=False)
    check("gpt-oss untruncated corr range (8.0928, 17.3980)",
          near([lo, hi], [8.0928, 17.3980], digits(4)), f"({lo:.5f}, {hi:.5f})")
    check("gpt-oss truncated corr range (8, 18)",
          R.yarn_correction_range(64, 150000.0, 4096, 32, 1, truncate=True) == (8, 18))
    kw = dict(factor=32.0, original_max_position_embeddings=4096, beta_fast=32, beta_slow=1)
    i_u, af = R.inv_freq(64, 150000.0, "yarn", truncate=False, **kw)
    i_t, af_t = R.inv_freq(64, 150000.0, "yarn", truncate=True, **kw)
    check("gpt-oss attention_factor 1.346574", near(af, 1.346574, digits(6)) and af == af_t)
    diff = max(np.max(i_u / i_t), np.max(i_t / i_u)) - 1
    check("gpt-oss truncated vs untruncated differ by up to 76%", near(diff, 0.76, digits(2)),
          f"{diff:.4f}")


def test_phi3() -> None:
    d = 96
    rng = np.random.default_rng(3)
    sf, lf = list(rng.uniform(1, 2, d // 2)), list(rng.uniform(1, 60, d // 2))
    kw = dict(short_factor=sf, long_factor=lf, original_max_position_embeddings=4096,
              max_position_embeddings=131072)
    i_s, af_s = R.inv_freq(d, 1e4, "longrope", select="short", **kw)
    i_l, af_l = R.inv_freq(d, 1e4, "longrope", select="long", **kw)
    check("phi-3 attention_factor 1.190238 (short and long)",
          near(af_s, 1.190238, digits(6)) and af_s == af_l, f"{af_s:.7f}")
    check("phi-3 attention_factor == sqrt(1 + ln 32 / ln 4096)",
          near(af_s, math.sqrt(1 + math.log(32) / math.log(4096)), 1e-15))
    base = R.default_inv_freq(d, 1e4)
    check("longrope factors DIVIDE inv_freq", rel_near(i_s, base / np.asarray(sf))
          and rel_near(i_l, base / np.asarray(lf)))
    # §2.6 HF rule: long iff seq_len > L
    pick = lambda sl: R.inv_freq(d, 1e4, "longrope", select="hf", seq_len=sl, **kw)[0]
    check("longrope hf: seq_len None/1/L -> short",
          all(np.array_equal(pick(s), i_s) for s in (None, 1, 4096)))
    check("longrope hf: seq_len L+1 -> long", np.array_equal(pick(4097), i_l))
    _, af_eq = R.inv_freq(d, 1e4, "longrope", **{**kw, "max_position_embeddings": 4096})
    check("longrope s <= 1 -> attention_factor 1", af_eq == 1.0)
    _, af_x = R.inv_freq(d, 1e4, "longrope", attention_factor=0.77, **kw)
    check("longrope explicit attention_factor wins", af_x == 0.77)


# ----------------------------------------------------------------------------
# §2.2 / §2.3 NTK
# ----------------------------------------------------------------------------
def test_dynamic_ntk() -> None:
    b = lambda L, rule="hf": R.dynamic_ntk_base(128, 1e4, 2.0, 4096, rule, L)
    check("dynamic hf base 10000 for L <= 4096", all(b(L) == 1e4 for L in (1, 100, 4095, 4096)))
    check("dynamic hf base 30527.7 at 8192", near(b(8192), 30527.7, digits(1)), f"{b(8192):.3f}")
    check("dynamic hf base 72195.9 at 16384", near(b(16384), 72195.9, digits(1)),
          f"{b(16384):.3f}")
    check("dynamic vllm_legacy base 30527.7 everywhere",
          all(near(b(L, "vllm_legacy"), 30527.7, digits(1)) for L in (None, 1, 4096, 8192, 1 << 20)))
    check("dynamic hf inactive at init (seq_len None)", b(None) == 1e4)
    # (checked) vllm_legacy == HF evaluated at seq_len = s * max_pos
    rng = np.random.default_rng(5)
    ok = True
    for _ in range(50):
        d = int(rng.integers(2, 129)) * 2
        s = float(rng.uniform(1, 32))
        mpe = int(rng.integers(256, 65537))
        ok &= rel_near(R.dynamic_ntk_base(d, 1e4, s, mpe, "vllm_legacy"),
                       R.dynamic_ntk_base(d, 1e4, s, mpe, "hf", s * mpe), 1e-13)
    check("vllm_legacy == hf at seq_len = s*max_pos (50 random)", ok)
    inv, af = R.inv_freq(128, 1e4, "dynamic_ntk", factor=2.0, max_position_embeddings=4096,
                         seq_len=4096)
    check("dynamic inv_freq == default when inactive", rel_near(inv, R.default_inv_freq(128, 1e4))
          and af == 1.0)
    # vllm_legacy: b(s^2 - s + 1)^(d/(d-2))
    check("vllm_legacy closed form b(s^2-s+1)^(d/(d-2))",
          rel_near(b(None, "vllm_legacy"), 1e4 * 3.0 ** (128 / 126), 1e-14))


def test_static_ntk() -> None:
    d, s = 128, 4.0
    base = R.default_inv_freq(d, 1e4)
    hf, _ = R.inv_freq(d, 1e4, "ntk", factor=s, form="hf")
    vl, _ = R.inv_freq(d, 1e4, "ntk", factor=s, form="vllm")
    check("static ntk pair 0: hf 1.000", near(hf[0] / base[0], 1.0, 1e-15))
    check("static ntk pair 0: vllm 0.97857", near(vl[0] / base[0], 0.97857, digits(5)),
          f"{vl[0] / base[0]:.6f}")
    check("static ntk hf last pair = 1/s", rel_near(hf[-1] / base[-1], 1 / s, 1e-13))
    check("static ntk vllm last pair = 1/s (the only agreement)",
          rel_near(vl[-1] / base[-1], 1 / s, 1e-13)
          and bool(np.all(np.abs(hf[:-1] / vl[:-1] - 1) > 1e-6)))
    i = np.arange(d // 2)
    check("static ntk vllm = b^(-2i/d) * s^(-2(i+1)/d)",
          rel_near(vl, 1e4 ** (-2 * i / d) * s ** (-2 * (i + 1) / d), 1e-13))


# ----------------------------------------------------------------------------
# §2.4 YaRN details
# ----------------------------------------------------------------------------
def guard_beta(d: int, base: float, L: int, target: float) -> float:
    """beta with corr_dim(beta) == target: beta = L/(2pi) * exp(-2 ln(b) target / d) (inverse of spec §2.4)."""
    return L / (2 * math.pi) * math.exp(-2 * math.log(base) * target / d)


def test_yarn_details() -> None:
    # low == high guard: untruncated with beta_fast == beta_slow -> a step at `low`
    d, b, L = 64, 1e4, 4096
    lo, hi = R.yarn_correction_range(d, b, L, 8.0, 8.0, truncate=False)
    inv, _ = R.inv_freq(d, b, "yarn", factor=4.0, original_max_position_embeddings=L,
                        beta_fast=8.0, beta_slow=8.0, truncate=False)
    i = np.arange(d // 2)
    ramp = np.clip((i - lo) / 0.001, 0, 1)
    base = R.default_inv_freq(d, b)
    expect = base / 4.0 * ramp + base * (1 - ramp)
    check("yarn low==high: +0.001 guard gives a step", lo == hi and rel_near(inv, expect))
    # the guard's size is observable when low sits just below an integer pair index:
    # corr_dim(beta) = 20 - 0.0005 -> ramp(20) = 0.0005 / 0.001 = 0.5
    beta = guard_beta(d, b, L, 20 - 0.0005)
    inv_g, _ = R.inv_freq(d, b, "yarn", factor=4.0, original_max_position_embeddings=L,
                          beta_fast=beta, beta_slow=beta, truncate=False)
    r20 = (base[20] - inv_g[20]) / (base[20] - base[20] / 4)
    check("yarn guard is exactly +0.001 (ramp 0.5 at 0.0005 past low)", near(r20, 0.5, 1e-6),
          f"ramp(20) = {r20:.6f}")
    # clamp is d-1 (not d/2-1): with beta_slow tiny, high = d-1 and the last pair is not fully interpolated
    lo2, hi2 = R.yarn_correction_range(d, b, L, 32.0, 1e-6)
    inv2, _ = R.inv_freq(d, b, "yarn", factor=4.0, original_max_position_embeddings=L,
                         beta_fast=32.0, beta_slow=1e-6)
    w_last = (base[-1] - inv2[-1]) / (base[-1] - base[-1] / 4)
    check("yarn clamp high to d-1, ramp at last pair < 1",
          hi2 == d - 1 and near(w_last, (d // 2 - 1 - lo2) / (d - 1 - lo2), 1e-12),
          f"high={hi2} ramp_last={w_last:.4f}")
    # clamp quirk of the spec formula (and HF): tiny base + long L gives low = 80 > high = d-1 = 63,
    # and the ramp then interpolates EVERY pair, even the highest-frequency one
    q_rng = R.yarn_correction_range(64, 10.0, 65536)
    q_inv, _ = R.inv_freq(64, 10.0, "yarn", factor=4.0, original_max_position_embeddings=65536)
    check("yarn clamp quirk: low > high after clamp -> all pairs / s",
          q_rng == (80, 63) and rel_near(R.default_inv_freq(64, 10.0) / q_inv, np.full(32, 4.0)), str(q_rng))
    # beta 0 / None -> 32 / 1 (HF `or`)
    a, _ = R.inv_freq(d, b, "yarn", factor=4.0, original_max_position_embeddings=L,
                      beta_fast=0, beta_slow=None)
    c, _ = R.inv_freq(d, b, "yarn", factor=4.0, original_max_position_embeddings=L)
    check("yarn beta 0/None default to 32/1", np.array_equal(a, c))
    # high-frequency pairs kept, low-frequency interpolated (not inverted)
    check("yarn keeps pair 0, interpolates the last pair",
          rel_near(c[0], base[0]) and rel_near(c[-1], base[-1] / 4))
    # attention factor variants
    f = lambda **k: R.inv_freq(d, b, "yarn", factor=16.0, original_max_position_embeddings=L, **k)[1]
    check("yarn default attention_factor 0.1 ln s + 1", near(f(), 0.1 * math.log(16) + 1, 1e-15))
    check("yarn mscale ratio", near(f(mscale=0.707, mscale_all_dim=1.0),
                                    (0.0707 * math.log(16) + 1) / (0.1 * math.log(16) + 1), 1e-15))
    check("yarn mscale_all_dim = 0 -> default factor", f(mscale=1.0, mscale_all_dim=0.0) == f())
    check("yarn explicit attention_factor wins", f(attention_factor=0.5, mscale=1, mscale_all_dim=2) == 0.5)
    check("get_mscale(s <= 1) == 1", R.get_mscale(1.0, 3.0) == 1.0 and R.get_mscale(0.5) == 1.0)


# ----------------------------------------------------------------------------
# §3 ALiBi
# ----------------------------------------------------------------------------
def test_alibi_slopes() -> None:
    gold12 = 2.0 ** -np.array([1, 2, 3, 4, 5, 6, 7, 8, 0.5, 1.5, 2.5, 3.5])
    check("alibi n=12 list", rel_near(R.alibi_slopes(12), gold12))
    s112 = R.alibi_slopes(112)
    gold112 = np.concatenate([2.0 ** (-np.arange(1, 65) / 8), 2.0 ** (-(2 * np.arange(48) + 1) / 16)])
    check("alibi n=112 BLOOM-176B rule", rel_near(s112, gold112))
    check("alibi n=112 slope 64 = 0.9576 = 2^-1/16", near(s112[64], 0.9576, digits(4))
          and rel_near(s112[64], 2 ** (-1 / 16)))
    mpt = R.alibi_slopes(32)
    check("MPT-7B slopes 2^(-k/4), k=1..32 (0.840896, 0.707107, ...)",
          rel_near(mpt, 2.0 ** (-np.arange(1, 33) / 4)) and near(mpt[:2], [0.840896, 0.707107], digits(6)))
    check("MPT-7B via mpt_slopes(32, 8)", rel_near(R.mpt_slopes(32, 8.0), mpt))
    ok_all, bad = True, []
    for n in range(1, 130):
        g = R.alibi_slopes(n)
        ok = (rel_near(np.array(R.press_get_slopes(n)), g, 1e-12)
              and rel_near(R.bloom_slopes(n), g, 1e-12) and rel_near(R.mpt_slopes(n, 8.0), g, 1e-12))
        if not ok:
            bad.append(n)
        ok_all &= ok
    check("GGML == Press == BLOOM == MPT for max_bias 8, n = 1..129", ok_all, f"bad n: {bad[:8]}")
    rng = np.random.default_rng(7)
    ok = True
    for _ in range(100):
        n, mb = int(rng.integers(1, 300)), float(rng.uniform(0.25, 16))
        ok &= rel_near(R.mpt_slopes(n, mb), R.alibi_slopes(n, max_bias=mb), 1e-12)
    check("MPT(b) == GGML(b) for random b, n (100)", ok)
    check("shard slicing: head_offset 56 of 112 == global[56:]",
          np.array_equal(R.alibi_slopes(112, head_offset=56, local_heads=56), s112[56:])
          and np.array_equal(R.alibi_slopes(112, head_offset=56), s112[56:]))
    check("shard != recomputed from local head count",
          not rel_near(R.alibi_slopes(112, head_offset=56, local_heads=56), R.alibi_slopes(56), 1e-3))


def _softmax(x):
    x = x - x.max(-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(-1, keepdims=True)


def test_alibi_bias() -> None:
    m = R.alibi_slopes(4)
    sq, sk = 3, 7
    sym = R.alibi_bias(m, sq, sk, "symmetric")
    kl = R.alibi_bias(m, sq, sk, "key_linear")
    qp = np.arange(sq) + sk - sq
    check("symmetric bias = -m|i + sk - sq - j| (bottom_right)",
          rel_near(sym, -m[:, None, None] * np.abs(qp[:, None] - np.arange(sk)[None, :])))
    check("key_linear bias = m*j", rel_near(kl, np.broadcast_to(m[:, None, None] * np.arange(sk), (4, sq, sk))))
    tl = R.alibi_bias(m, sq, sk, "symmetric", alignment="top_left")
    check("top_left: q_pos = i", rel_near(tl, -m[:, None, None] * np.abs(np.arange(sq)[:, None] - np.arange(sk))))
    # causal equivalence of the three forms (sq=3, sk=7), via raw softmax of random logits
    rng = np.random.default_rng(11)
    logits = rng.standard_normal((4, sq, sk))
    mpt_c = m[:, None, None] * (np.arange(sk) - (sk - 1))  # spec §3.2 MPT causal: m*(j-(S-1))
    mask = np.arange(sk)[None, :] > qp[:, None]
    probs = [_softmax(np.where(mask, -np.inf, logits + b)) for b in (sym, kl, mpt_c)]
    check("causal: symmetric == key_linear == MPT-causal softmax",
          near(probs[0], probs[1], 1e-12) and near(probs[0], probs[2], 1e-12))
    nc = [_softmax(logits + b) for b in (sym, kl)]
    check("non-causal: symmetric != key_linear", np.max(np.abs(nc[0] - nc[1])) > 1e-3)
    # padding-aware key positions (BLOOM) and batching
    mask2 = np.array([[0, 0, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1]])
    kpos = (np.cumsum(mask2, -1) - 1) * mask2
    bb = R.alibi_bias(m, 1, sk, "key_linear", k_positions=kpos)
    check("batched k_positions -> [B,H,Sq,Sk]", bb.shape == (2, 4, 1, sk)
          and rel_near(bb[0, :, 0], m[:, None] * kpos[0]))
    check("batch= broadcasts", R.alibi_bias(m, sq, sk, "symmetric", batch=3).shape == (3, 4, sq, sk))


# ----------------------------------------------------------------------------
# §4 sinusoidal
# ----------------------------------------------------------------------------
def test_sinusoidal() -> None:
    v = R.sinusoidal([2], 6, "interleaved")[0]
    check("Vaswani d=6 p=2", near(v, [0.909297, -0.416147, 0.092699, 0.995694, 0.004309, 0.999991], digits(6)),
          f"{np.round(v, 6)}")
    t = R.sinusoidal([2], 6, "concatenated")[0]
    check("T2T d=6 p=2", near(t, [0.909297, 0.019999, 0.000200, -0.416147, 0.999800, 1.000000], digits(6)),
          f"{np.round(t, 6)}")
    # (checked) T2T == fairseq get_embedding: emb = ln(10000)/(half-1); inv = exp(-arange(half)*emb)
    ok = True
    for dim in (4, 6, 7, 64, 129, 512):
        half = dim // 2
        emb = math.log(10000) / (half - 1)
        inv = np.exp(np.arange(half) * -emb)
        p = np.arange(50)[:, None] * inv[None, :]
        fs = np.concatenate([np.sin(p), np.cos(p)] + ([np.zeros((50, 1))] if dim % 2 else []), 1)
        ok &= near(R.sinusoidal(np.arange(50), dim, "concatenated"), fs, 1e-12)
    check("concatenated == fairseq get_embedding (d even and odd)", ok)
    odd = R.sinusoidal(np.arange(5), 7, "concatenated")
    check("concatenated odd d: zero last column", odd.shape == (5, 7) and np.all(odd[:, -1] == 0))
    # lowest frequency: concatenated reaches 1/base (p = base -> angle 1), interleaved stops at base^(-(d-2)/d)
    check("lowest freq: concatenated 1e-4, interleaved 1e4^(-6/8)",
          near(R.sinusoidal([1e4], 8, "concatenated")[0, 3], math.sin(1.0), 1e-15)
          and near(R.sinusoidal([1e4], 8, "interleaved")[0, 6], math.sin(1e4 * 1e4 ** (-6 / 8)), 1e-12))
    b = R.sinusoidal(np.array([[0, 1], [5, 6]]), 8, "interleaved")
    check("sinusoidal batched positions shape", b.shape == (2, 2, 8)
          and near(b[1, 0], R.sinusoidal([5], 8)[0], 0))


# ----------------------------------------------------------------------------
# §1.2-§1.4, §2.7 RoPE application
# ----------------------------------------------------------------------------
def test_rotary() -> None:
    x = np.arange(1, 9, dtype=float)
    inv = R.default_inv_freq(8, 1e4)
    neox = R.rotary(x[None], [3], inv, layout="half_split")[0]
    gptj = R.rotary(x[None], [3], inv, layout="interleaved")[0]
    check("NeoX golden d=8 p=3", near(neox, [-1.695593, 0.137552, 2.788682, 3.975982, -4.808842,
                                             6.323059, 7.086837, 8.011964], digits(6)), f"{np.round(neox, 6)}")
    check("GPT-J golden d=8 p=3", near(gptj, [-1.272233, -1.838865, 1.683929, 4.707907, 4.817777,
                                              6.147278, 6.975969, 8.020964], digits(6)), f"{np.round(gptj, 6)}")
    rng = np.random.default_rng(1)
    ok = True
    for _ in range(30):
        D = int(rng.integers(2, 65)) * 2
        d = int(rng.integers(1, D // 2 + 1)) * 2
        P = np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])
        xs = rng.standard_normal((2, 3, 5, D))
        pos = rng.integers(0, 100000, 5)
        invd, _ = R.inv_freq(d, float(rng.uniform(100, 1e6)))
        xp = xs.copy()
        xp[..., :d] = xs[..., P]
        a = R.rotary(xp, pos, invd, layout="half_split")
        g = R.rotary(xs, pos, invd, layout="interleaved")
        ok &= near(a[..., :d], g[..., P], 1e-12) and near(a[..., d:], g[..., d:], 0)
    check("layout identity neox(x[P]) == gptj(x)[P] (30 random, partial)", ok)
    # partial rotary: pass-through exact, pairs (i, i + d/2) not (i, i + D/2)
    D, d = 16, 8
    xs = rng.standard_normal((4, D))
    inv8 = R.default_inv_freq(d, 1e4)
    out = R.rotary(xs, np.arange(4) + 7, inv8, layout="half_split", rotary_dim=d)
    check("partial rotary pass-through unchanged", np.array_equal(out[:, d:], xs[:, d:]))
    check("partial rotary pairs (i, i+d/2)",
          near(out[:, :d], R.rotary(xs[:, :d], np.arange(4) + 7, inv8), 0))
    c, s = np.cos(10 * inv8), np.sin(10 * inv8)
    check("partial rotary explicit pair (0, d/2)",
          near(out[3, [0, 4]], [xs[3, 0] * c[0] - xs[3, 4] * s[0], xs[3, 4] * c[0] + xs[3, 0] * s[0]], 1e-14))
    # attention factor scales cos and sin
    af = 1.3
    check("attention_factor multiplies cos and sin",
          near(R.rotary(xs, None, inv8, af, rotary_dim=d)[:, :d], af * R.rotary(xs, None, inv8, rotary_dim=d)[:, :d], 1e-14))
    # offset == explicit positions; cos_sin tables == inv_freq path
    xq = rng.standard_normal((1, 2, 3, d))
    check("offset k == positions arange + k",
          near(R.rotary(xq, None, inv8, offset=41), R.rotary(xq, np.arange(3) + 41, inv8), 0))
    T = np.arange(64)[:, None] * inv8
    check("cos_sin tables == inv_freq path",
          near(R.rotary(xq, [5, 60, 2], cos_sin=(af * np.cos(T), af * np.sin(T))),
               R.rotary(xq, [5, 60, 2], inv8, af), 1e-14))
    # [B, S] positions (batch = axis 0), token_axis=1 layout [B, S, H, D]
    xb = rng.standard_normal((2, 3, 4, d))
    pb = np.array([[0, 1, 2], [10, 11, 12]])
    outb = R.rotary(xb, pb, inv8, token_axis=1)
    ref = np.stack([R.rotary(xb[b].transpose(1, 0, 2), pb[b], inv8).transpose(1, 0, 2) for b in range(2)])
    check("[B,S] positions with token_axis=1", near(outb, ref, 1e-14))
    # fp64 angles at long positions: exact to fp64 rounding
    big = 2 ** 20
    check("angles are fp64 (p=2^20 exact to 1e-9)",
          near(R.rope_angles(np.array([big]), inv8)[0], big * inv8, 1e-9))


def test_mrope() -> None:
    rng = np.random.default_rng(2)
    d = 128
    inv = R.default_inv_freq(d, 1e6)
    x = rng.standard_normal((1, 2, 5, d))
    p = rng.integers(0, 1000, 5)
    same = np.stack([p, p, p])
    for lay in ("chunked", "interleaved"):
        check(f"M-RoPE t==h==w reduces to RoPE ({lay})",
              near(R.rotary(x, same, inv, mrope_sections=[16, 24, 24], mrope_layout=lay),
                   R.rotary(x, p, inv), 0))
    pos3 = np.stack([p, p + 100, p + 2000])
    ang = R.rope_angles(pos3, inv, [16, 24, 24], "chunked")
    axis = np.repeat([0, 1, 2], [16, 24, 24])
    check("M-RoPE chunked: block k from axis k",
          near(ang, pos3[axis].T * inv, 1e-9))
    ang_i = R.rope_angles(pos3, inv, [16, 24, 24], "interleaved")
    c = np.arange(64)
    ax = np.where((c % 3 == 1) & (c < 72), 1, np.where((c % 3 == 2) & (c < 72), 2, 0))
    check("M-RoPE interleaved: c%3 rule", near(ang_i, pos3[ax].T * inv, 1e-9)
          and ax[63] == 0 and ax[61] == 1 and ax[62] == 2)
    pb = rng.integers(0, 100, (3, 2, 5))
    xb = rng.standard_normal((2, 4, 5, d))
    outb = R.rotary(xb, pb, inv, mrope_sections=[16, 24, 24])
    check("M-RoPE [k,B,S] positions", near(outb[1], R.rotary(xb[1], pb[:, 1], inv, mrope_sections=[16, 24, 24]), 1e-14))


# ----------------------------------------------------------------------------
# §5 attention contract
# ----------------------------------------------------------------------------
def test_attention() -> None:
    rng = np.random.default_rng(4)
    B, Hq, Hkv, S, D = 2, 8, 2, 9, 32
    q = rng.standard_normal((B, Hq, S, D))
    k = rng.standard_normal((B, Hkv, S, D))
    v = rng.standard_normal((B, Hkv, S, D))
    inv = R.default_inv_freq(D, 1e4)
    slopes = R.alibi_slopes(Hq)
    for name, kw in (("rope", dict(inv_freq=inv)),
                     ("rope partial+interleaved", dict(inv_freq=R.default_inv_freq(16, 1e4), rotary_dim=16,
                                                       rope_layout="interleaved")),
                     ("alibi", dict(alibi_slopes=slopes)),
                     ("rope+alibi key_linear", dict(inv_freq=inv, alibi_slopes=slopes, alibi_form="key_linear"))):
        full = R.attention(q, k, v, causal=True, **kw)
        dec = R.attention(q[:, :, -1:], k, v, causal=True, **kw)
        check(f"prefill last row == decode with offset ({name})", near(full[:, :, -1:], dec, 1e-12))
    # GQA: h uses kv head h // (Hq/Hkv)
    kr = np.repeat(k, Hq // Hkv, axis=1)
    vr = np.repeat(v, Hq // Hkv, axis=1)
    check("GQA == explicit repeat_kv", near(R.attention(q, k, v, causal=True, inv_freq=inv),
                                            R.attention(q, kr, vr, causal=True, inv_freq=inv), 1e-12))
    # causal equivalence of ALiBi forms inside attention (sq=3, sk=7)
    q3 = q[:, :, :3]
    k7, v7 = k[:, :, :7], v[:, :, :7]
    a = R.attention(q3, k7, v7, causal=True, alibi_slopes=slopes, alibi_form="symmetric")
    b = R.attention(q3, k7, v7, causal=True, alibi_slopes=slopes, alibi_form="key_linear")
    check("attention causal: symmetric == key_linear (sq=3, sk=7)", near(a, b, 1e-12))
    a2 = R.attention(q3, k7, v7, causal=False, alibi_slopes=slopes, alibi_form="symmetric")
    b2 = R.attention(q3, k7, v7, causal=False, alibi_slopes=slopes, alibi_form="key_linear")
    check("attention non-causal: forms differ", np.max(np.abs(a2 - b2)) > 1e-3)
    # explicit softmax transcription for one head (scale, ALiBi after scaling, mask by positions)
    qh, kh, vh = q3[0, 5], k7[0, 5 // 4], v7[0, 5 // 4]
    lg = qh @ kh.T / math.sqrt(D) - slopes[5] * np.abs((np.arange(3) + 4)[:, None] - np.arange(7)[None, :])
    lg = np.where(np.arange(7)[None, :] > (np.arange(3) + 4)[:, None], -np.inf, lg)
    check("attention == explicit softmax (scale, alibi, causal)", near(a[0, 5], _softmax(lg) @ vh, 1e-12))
    # attention_factor m: full rotary == softmax_scale * m^2; partial rotary differs
    m = 1.25
    f1 = R.attention(q, k, v, causal=True, inv_freq=inv, attention_factor=m)
    f2 = R.attention(q, k, v, causal=True, inv_freq=inv, scale=m * m / math.sqrt(D))
    check("full rotary: attention_factor m == scale * m^2", near(f1, f2, 1e-12))
    inv16 = R.default_inv_freq(16, 1e4)
    p1 = R.attention(q, k, v, causal=True, inv_freq=inv16, rotary_dim=16, attention_factor=m)
    p2 = R.attention(q, k, v, causal=True, inv_freq=inv16, rotary_dim=16, scale=m * m / math.sqrt(D))
    check("partial rotary: attention_factor m != scale * m^2", np.max(np.abs(p1 - p2)) > 1e-3)
    # top_left vs bottom_right with sq < sk differ; fully-masked rows -> zeros / NaN
    tl = R.attention(q3, k7, v7, causal=True, alignment="top_left")
    br = R.attention(q3, k7, v7, causal=True)
    check("top_left != bottom_right causal when sq < sk", np.max(np.abs(tl - br)) > 1e-3)
    big_q = rng.standard_normal((1, 2, 5, D))
    z = R.attention(big_q, k[:1, :, :3], v[:1, :, :3], causal=True)
    n = R.attention(big_q, k[:1, :, :3], v[:1, :, :3], causal=True, masked_row="nan")
    check("sq > sk bottom_right: fully masked rows -> 0 / NaN",
          np.all(z[:, :, :2] == 0) and np.all(np.isnan(n[:, :, :2])) and np.all(np.isfinite(n[:, :, 2:])))
    # gpt-oss attention sinks: one more logit column per head, dropped after
    # the softmax
    sinks = rng.uniform(-3, 3, Hq)
    s1 = R.attention(q3, k7, v7, causal=True, alibi_slopes=slopes, sinks=sinks)
    m = max(lg.max(axis=-1).max(), sinks[5])
    num = np.exp(lg - m)
    den = num.sum(-1, keepdims=True) + np.exp(sinks[5] - m)
    check("attention sinks == explicit exp(s - m) / (exp(sink - m) + sum exp(s - m))",
          near(s1[0, 5], (num / den) @ vh, 1e-12))
    check("attention sinks = -inf == no sinks",
          near(R.attention(q3, k7, v7, causal=True, sinks=np.full(Hq, -np.inf)),
               R.attention(q3, k7, v7, causal=True), 1e-15))
    check("attention sinks = +60 -> output ~ 0",
          np.max(np.abs(R.attention(q3, k7, v7, sinks=np.full(Hq, 60.0)))) < 1e-20)
    zs = R.attention(big_q, k[:1, :, :3], v[:1, :, :3], causal=True, sinks=sinks[:2])
    ns = R.attention(big_q, k[:1, :, :3], v[:1, :, :3], causal=True, sinks=sinks[:2],
                     masked_row="nan")
    check("attention sinks: fully masked rows -> 0 (also under masked_row='nan', as HF)",
          np.all(zs[:, :, :2] == 0) and np.all(ns[:, :, :2] == 0) and near(zs, ns, 0))
    # relative-position invariance: scores depend only on i - j
    x1 = rng.standard_normal(D)
    x2 = rng.standard_normal(D)
    sc = lambda i, j: R.rotary(x1[None], [i], inv) @ R.rotary(x2[None], [j], inv).T
    check("RoPE q.k depends only on i-j", near(sc(10, 3), sc(1007, 1000), 1e-10))


def test_angle_error_demo() -> None:
    demo = R.angle_error_demo()
    worst = max(v["cos_abs_err"] for v in demo.values() if v["max_pos"] <= 131072)
    check("Llama-3.1 fp32 cos error for positions <= 131072 ~ 5.5e-3 (within 2x)",
          5.5e-3 / 2 <= worst <= 5.5e-3 * 2, f"{worst:.3e}")
    check("fp32 cos error grows with position", demo[20]["cos_abs_err"] > 10 * demo[12]["cos_abs_err"])


def test_inputs_validation() -> None:
    def raises(fn) -> bool:
        try:
            fn()
        except ValueError:
            return True
        return False
    check("odd rotary_dim rejected", raises(lambda: R.inv_freq(7, 1e4)))
    check("unknown scheme rejected", raises(lambda: R.inv_freq(8, 1e4, "nope")))
    check("longrope list length checked", raises(lambda: R.inv_freq(
        8, 1e4, "longrope", short_factor=[1] * 3, long_factor=[1] * 4,
        original_max_position_embeddings=4, max_position_embeddings=8)))
    check("rotary_dim > D rejected", raises(lambda: R.rotary(np.zeros((1, 4)), None, R.default_inv_freq(8, 1e4))))


def test_random_configs() -> None:
    ok, n = True, 0
    for scheme in R.SCHEMES:
        for c in R.random_configs(scheme, 200, seed=0):
            inv, af = R.inv_freq(c["rotary_dim"], c["base"], c["scheme"], seq_len=c["seq_len"], **c["params"])
            n += 1
            ok &= inv.shape == (c["rotary_dim"] // 2,) and bool(np.all(np.isfinite(inv) & (inv > 0)))
            ok &= math.isfinite(af) and af > 0
            ok &= 4 <= c["rotary_dim"] <= 256 and c["rotary_dim"] % 2 == 0
    check(f"random_configs valid and evaluable ({n} configs)", ok)
    same = [c["params"] for c in R.random_configs("yarn", 5, seed=9)]
    check("random_configs deterministic per seed", same == [c["params"] for c in R.random_configs("yarn", 5, seed=9)])


def main() -> int:
    tests = [v for k, v in globals().items() if k.startswith("test_") and callable(v)]
    for t in tests:
        try:
            t()
        except Exception as e:  # a crash is a failure, never a silent pass
            check(f"{t.__name__} raised {type(e).__name__}: {e}", False)
    passed = sum(_results)
    failed = len(_results) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
