#!/usr/bin/env python3
"""Differential test: posenc_ref (independent fp64 NumPy) vs Hugging Face transformers' own code.

Run:  python3 test/lib/test_ref_vs_hf.py [-v] [--n N] [--seed S]
Needs torch + transformers (requirements-hf.txt). Without them it prints why,
counts one skipped check and exits 0 (never counted as passed).
Ends with ``N passed, N failed, N skipped``; exits 1 if anything failed.

What is compared (see hf_ref.py for how each HF function is called):
  * inv_freq + attention factor, >= 100 random configs per HF scheme: default,
    linear, dynamic (rule hf with seq_len below / at / above max_position_embeddings,
    and rule vllm_legacy vs HF evaluated at s*max_pos), yarn, llama3, longrope
    (select hf with seq_len on both sides of original, short, long). posenc's
    static ntk (both forms) has no HF-v5 counterpart: those configs are skipped.
  * the HF rotary module pipeline (GPTNeoXRotaryEmbedding: fp32 angles, cat(freqs,
    freqs), attention factor, dynamic_rope_update growth/reset, longrope switch).
  * RoPE application: llama/gpt_neox rotate_half, glm and gptj interleaved, deepseek
    de-interleave, GPT-J's own sinusoidal table, the spec's d=8 golden example.
  * ALiBi slopes n = 1..130 and padding-aware key-linear bias vs BLOOM build_alibi_tensor.
  * DeepSeek softmax scale vs yarn_apply_mscale; attention vs llama eager_attention_forward;
    attention sinks vs gpt_oss eager_attention_forward; sliding windows and chunks vs
    masking_utils, soft-capping vs Gemma 2, query temperature vs Llama 4.

Tolerances (u = 2**-24, the fp32 unit roundoff; HF's inv_freq is fp32, the
attention factor a Python float):
  * inv_freq: relative 64u * A  (64u = 3.8e-6). HF's fp32 ``base ** (2i/d)`` is off by
    about (ln b + 2)u <= ~12u measured (7.4e-7); A is the condition number of the scheme's
    blend w.r.t. HF's fp32 ramp/smooth factor: A = 1 for default/linear/dynamic/longrope,
    A = 1 + (s-1)*max(1, 1/(high-low)) for yarn, A = 1 + (s-1)*high/(high-low) for llama3
    (1 when low == high). Measured max error / A over 18000 configs: 7.4e-7.
  * attention factor, DeepSeek softmax scale: relative 1e-12 (both sides fp64).
  * cos/sin of the HF module (fp32 angles) vs fp64: per element
    af * (angle * (rtol_inv + 2u) + 4u)  -- the fp32 angle error; at p ~ 4096 this is
    ~1e-3, far above the spec §9 figure of 1e-6 (see README).
  * RoPE application with identical fp64 tables: absolute 1e-12.
  * ALiBi slopes: relative (2n + 4)u (BLOOM raises an fp32 base to powers up to 2n);
    bias: same plus u.
  * attention: absolute 1e-6 (HF's eager softmax runs in fp32; Gemma 2's and Llama 4's
    too).
  * attention sinks: absolute 1e-12 (gpt-oss's eager softmax runs in the input dtype,
    fp64 here).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import Counter
from typing import Any, Dict, List

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import posenc_ref as R  # noqa: E402

U32 = 2.0 ** -24
RTOL_INV = 64 * U32

_passed = 0
_failed = 0
_skipped = 0
VERBOSE = False


def check(name: str, ok: bool, detail: str = "") -> bool:
    global _passed, _failed
    ok = bool(ok)
    if ok:
        _passed += 1
    else:
        _failed += 1
    if VERBOSE or not ok:
        print(f"{'PASS' if ok else 'FAIL'}: {name}" + (f"  [{detail}]" if detail else ""))
    return ok


def skip(name: str, why: str) -> None:
    global _skipped
    _skipped += 1
    if VERBOSE:
        print(f"SKIP: {name}  [{why}]")


def summary() -> int:
    print(f"{_passed} passed, {_failed} failed, {_skipped} skipped")
    return 1 if _failed else 0


def near(a, b, tol) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol))


def amplification(cfg: Dict[str, Any]) -> float:
    """Condition number A of the scheme w.r.t. HF's fp32 ramp / smooth factor (see module doc)."""
    p, d = cfg["params"], cfg["rotary_dim"]
    s = float(p.get("factor", 1.0))
    if cfg["scheme"] == "yarn":
        lo, hi = R.yarn_correction_range(d, cfg["base"], p["original_max_position_embeddings"],
                                         p.get("beta_fast") or 32, p.get("beta_slow") or 1,
                                         p.get("truncate", True))
        if lo == hi:
            hi += 0.001
        return 1 + (s - 1) * max(1.0, 1 / abs(hi - lo))
    if cfg["scheme"] == "llama3":
        lo, hi = p["low_freq_factor"], p["high_freq_factor"]
        return 1.0 if lo == hi else 1 + (s - 1) * hi / (hi - lo)
    return 1.0


def ref_of(cfg: Dict[str, Any]):
    return R.inv_freq(cfg["rotary_dim"], cfg["base"], cfg["scheme"], seq_len=cfg["seq_len"],
                      **cfg["params"])


def brief(cfg: Dict[str, Any]) -> str:
    p = {k: (f"[{len(v)}]" if isinstance(v, list) else v) for k, v in cfg["params"].items()}
    return (f"d={cfg['rotary_dim']} (head_dim {cfg['head_dim']} x {cfg['partial_rotary_factor']}) "
            f"base={cfg['base']:.6g} seq_len={cfg['seq_len']} {p}")


# ----------------------------------------------------------------------------
# inv_freq / attention factor over random configs
# ----------------------------------------------------------------------------

def test_inv_freq(H, n: int, seed: int) -> None:
    worst: Dict[str, float] = {}
    cover: Counter = Counter()
    for scheme in ("default", "linear", "dynamic_ntk", "yarn", "llama3", "longrope", "ntk"):
        for i, cfg in enumerate(R.random_configs(scheme, n, seed)):
            name = f"{scheme}#{i}"
            try:
                H.rope_parameters(cfg)
            except H.HFUnsupported as e:
                skip(name, str(e))
                continue
            p = cfg["params"]
            if scheme == "dynamic_ntk":
                mpe, sl = p["max_position_embeddings"], cfg["seq_len"]
                cover["dynamic vllm_legacy" if p["rule"] == "vllm_legacy" else
                      "dynamic hf seq_len " + ("<" if sl < mpe else "==" if sl == mpe else ">") + " max"] += 1
            if scheme == "longrope":
                L, sl = p["original_max_position_embeddings"], cfg["seq_len"]
                cover[f"longrope select={p['select']}" +
                      ("" if p["select"] != "hf" else (" seq_len <= L" if sl <= L else " seq_len > L"))] += 1
            if scheme == "yarn":
                cover[f"yarn truncate={p['truncate']}"] += 1
            if scheme == "llama3":
                cover["llama3 low==high" if p["low_freq_factor"] == p["high_freq_factor"]
                      else "llama3 low<high"] += 1
            inv, af = ref_of(cfg)
            hinv, haf = H.hf_inv_freq(cfg)
            rtol = RTOL_INV * amplification(cfg)
            err = float(np.max(np.abs(hinv / inv - 1))) if hinv.shape == inv.shape else float("inf")
            worst[scheme] = max(worst.get(scheme, 0.0), err / rtol * RTOL_INV)
            check(f"inv_freq {name}", err <= rtol, f"rel err {err:.3g} > tol {rtol:.3g}; {brief(cfg)}")
            check(f"attention_factor {name}", abs(haf - af) <= 1e-12 * abs(af),
                  f"hf {haf!r} ref {af!r}; {brief(cfg)}")
    for k in sorted(cover):
        print(f"  coverage: {k}: {cover[k]}")
    for k in sorted(worst):
        print(f"  inv_freq max rel err / A, {k}: {worst[k]:.3g} (tol {RTOL_INV:.3g})")
    needed = ["dynamic hf seq_len < max", "dynamic hf seq_len == max", "dynamic hf seq_len > max",
              "dynamic vllm_legacy", "longrope select=hf seq_len <= L",
              "longrope select=hf seq_len > L", "longrope select=short", "longrope select=long",
              "yarn truncate=True", "yarn truncate=False", "llama3 low==high", "llama3 low<high"]
    missing = [k for k in needed if cover[k] == 0]
    check("random configs cover every rule / side", not missing, f"missing: {missing}")


def _guard_beta(d: int, base: float, L: int, target: float) -> float:
    """beta with corr_dim(beta) == target (inverse of spec §2.4 corr_dim)."""
    return L / (2 * math.pi) * math.exp(-2 * math.log(base) * target / d)


def test_named_models(H) -> None:
    """Spec §6 parameter sets through HF's init functions."""
    def cfg(scheme, d, base, **params):
        return {"scheme": scheme, "rotary_dim": d, "head_dim": d, "partial_rotary_factor": 1.0,
                "base": base, "params": params, "seq_len": params.pop("seq_len", None)}
    sets = {
        "llama3.1": cfg("llama3", 128, 5e5, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                        original_max_position_embeddings=8192),
        "qwen2.5-yarn": cfg("yarn", 128, 1e6, factor=4.0, original_max_position_embeddings=32768),
        "deepseek-v3": cfg("yarn", 64, 1e4, factor=40.0, original_max_position_embeddings=4096,
                           beta_fast=32.0, beta_slow=1.0, mscale=1.0, mscale_all_dim=1.0),
        "gpt-oss": cfg("yarn", 64, 150000.0, factor=32.0, original_max_position_embeddings=4096,
                       beta_fast=32.0, beta_slow=1.0, truncate=False),
        "phi3-long": cfg("longrope", 96, 1e4, short_factor=[1.0] * 48,
                         long_factor=list(np.linspace(1, 40, 48)),
                         original_max_position_embeddings=4096, max_position_embeddings=131072,
                         select="hf", seq_len=5000),
        "dynamic-8192": cfg("dynamic_ntk", 128, 1e4, factor=2.0, max_position_embeddings=4096,
                            seq_len=8192),
        # low == high = 20 - 0.0005 (untruncated): the +0.001 guard makes ramp(20) = 0.5
        "yarn-guard": cfg("yarn", 64, 1e4, factor=4.0, original_max_position_embeddings=4096,
                          beta_fast=_guard_beta(64, 1e4, 4096, 19.9995),
                          beta_slow=_guard_beta(64, 1e4, 4096, 19.9995), truncate=False),
        # clamp quirk: low = 80 > d-1 = 63 = high, so every pair is interpolated (HF does the same)
        "yarn-clamp-quirk": cfg("yarn", 64, 10.0, factor=4.0, original_max_position_embeddings=65536),
    }
    for name, c in sets.items():
        inv, af = ref_of(c)
        hinv, haf = H.hf_inv_freq(c)
        err = float(np.max(np.abs(hinv / inv - 1)))
        rtol = RTOL_INV * amplification(c)
        check(f"{name}: inv_freq vs HF", err <= rtol, f"{err:.3g}")
        check(f"{name}: attention factor vs HF ({af:.6f})", abs(haf - af) <= 1e-12 * af, f"hf {haf}")
    # spec §7.1: HF-v5 uses the explicit YaRN factor even when max_pos == original (Qwen2.5 recipe)
    c = sets["qwen2.5-yarn"]
    rp, _, _ = H.rope_parameters(c)
    conf = H.LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                         max_position_embeddings=32768, rope_parameters=rp)
    hinv, haf = H.ROPE_INIT_FUNCTIONS["yarn"](conf, None)
    inv, af = ref_of(c)
    check("HF-v5 keeps explicit yarn factor when max_pos == original (issue #38224 fixed)",
          abs(haf - af) <= 1e-12 and float(np.max(np.abs(H._np(hinv) / inv - 1))) <= RTOL_INV)


# ----------------------------------------------------------------------------
# HF's rotary module: fp32 pipeline, dynamic growth/reset, longrope switch
# ----------------------------------------------------------------------------

def test_module_pipeline(H, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed + 100)
    for scheme in ("default", "linear", "dynamic_ntk", "yarn", "llama3", "longrope"):
        for i, cfg in enumerate(R.random_configs(scheme, max(10, n // 10), seed + 7)):
            p = cfg["params"]
            if scheme == "dynamic_ntk" and p["rule"] != "hf":
                continue
            mod = H.hf_rotary_module(cfg)
            # positions: [B=2, S=16], up to 2**16 (below max for dynamic/longrope -> static tables)
            top = 1 << 16
            if scheme == "dynamic_ntk":
                top = p["max_position_embeddings"]
            if scheme == "longrope":
                top = p["original_max_position_embeddings"]
            pos = rng.integers(0, top, (2, 16))
            cos, sin = H.hf_module_cos_sin(mod, pos)
            c0 = dict(cfg, seq_len=int(pos.max()) + 1)
            if scheme == "longrope":
                c0 = dict(c0, params=dict(p, select="hf"))
            inv, af = ref_of(c0)
            ang = pos[..., None].astype(float) * inv
            tol = af * (ang * (RTOL_INV * amplification(cfg) + 2 * U32) + 4 * U32)
            tol = np.concatenate([tol, tol], -1)
            ref_c = np.concatenate([np.cos(ang), np.cos(ang)], -1) * af
            ref_s = np.concatenate([np.sin(ang), np.sin(ang)], -1) * af
            ok = near(cos, ref_c, tol) and near(sin, ref_s, tol)
            check(f"HF rotary module cos/sin {scheme}#{i} (fp32 angles, p < {top})", ok,
                  f"max err {np.max(np.abs(cos - ref_c)):.3g}; {brief(cfg)}")

    # dynamic_rope_update: fresh modules at several lengths, then growth/reset history
    d, mpe, s = 128, 4096, 2.0
    base_cfg = {"scheme": "dynamic_ntk", "rotary_dim": d, "head_dim": d, "partial_rotary_factor": 1.0,
                "base": 1e4, "params": {"factor": s, "max_position_embeddings": mpe, "rule": "hf"},
                "seq_len": None}
    ref = lambda L: R.inv_freq(d, 1e4, "dynamic_ntk", seq_len=L, **base_cfg["params"])[0]
    rel = lambda a, b: float(np.max(np.abs(a / b - 1)))
    for L in (1, 1000, 4096, 4097, 8192, 16384, 100000):
        mod = H.hf_rotary_module(base_cfg)
        mod(H.torch.zeros(1), H.torch.arange(L)[None])
        check(f"HF dynamic module at seq_len {L} == ref(seq_len={L})",
              rel(H._np(mod.inv_freq), ref(L)) <= RTOL_INV)
    mod = H.hf_rotary_module(base_cfg)
    mod(H.torch.zeros(1), H.torch.arange(16384)[None])
    mod(H.torch.zeros(1), H.torch.arange(8192)[None])
    check("HF dynamic is stateful: after 16384 then 8192 it keeps the 16384 base (spec §1.4)",
          rel(H._np(mod.inv_freq), ref(16384)) <= RTOL_INV and rel(H._np(mod.inv_freq), ref(8192)) > 1e-3)
    mod(H.torch.zeros(1), H.torch.arange(100)[None])
    check("HF dynamic resets to the original inv_freq below max_position_embeddings",
          rel(H._np(mod.inv_freq), ref(None)) <= RTOL_INV)

    # longrope switch per forward: max(position_ids)+1 > original
    L = 4096
    lr = {"scheme": "longrope", "rotary_dim": 96, "head_dim": 96, "partial_rotary_factor": 1.0,
          "base": 1e4, "seq_len": None,
          "params": {"short_factor": list(np.linspace(1, 2, 48)), "long_factor": list(np.linspace(1, 50, 48)),
                     "original_max_position_embeddings": L, "max_position_embeddings": 32 * L}}
    ref_lr = lambda sl: R.inv_freq(96, 1e4, "longrope", seq_len=sl, select="hf",
                                   **{k: v for k, v in lr["params"].items()})[0]
    mod = H.hf_rotary_module(lr)
    for sl in (L, L + 1, 10, 3 * L):
        mod(H.torch.zeros(1), H.torch.arange(sl)[None])
        check(f"HF longrope module at seq_len {sl}: {'long' if sl > L else 'short'} factors",
              rel(H._np(mod.inv_freq), ref_lr(sl)) <= RTOL_INV)


# ----------------------------------------------------------------------------
# RoPE application
# ----------------------------------------------------------------------------

def test_application(H, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed + 200)
    P_of = lambda d: np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])
    for i in range(max(20, n // 5)):
        B, Hh, S = 2, 3, 5
        D = int(rng.integers(2, 65)) * 2
        d = D if i % 3 == 0 else int(rng.integers(1, D // 2 + 1)) * 2
        base = float(np.exp(rng.uniform(np.log(100), np.log(1e7))))
        inv, _ = R.inv_freq(d, base)
        af = float(rng.uniform(0.5, 1.5))
        pos = rng.integers(0, 200000, (B, S))
        ang = pos[..., None] * inv
        ch, sh = np.cos(ang) * af, np.sin(ang) * af
        q = rng.standard_normal((B, Hh, S, D))
        k = rng.standard_normal((B, Hh, S, D))
        rq = R.rotary(q, pos, inv, af, "half_split", d)
        rk = R.rotary(k, pos, inv, af, "half_split", d)
        iq = R.rotary(q, pos, inv, af, "interleaved", d)
        hq, hk = H.neox_apply(q, k, ch, sh)
        check(f"gpt_neox apply_rotary_pos_emb (D={D}, d={d})", near(hq, rq, 1e-12) and near(hk, rk, 1e-12))
        gq, _ = H.glm_apply(q, k, ch, sh)
        check(f"glm interleaved apply_rotary_pos_emb (D={D}, d={d})", near(gq, iq, 1e-12))
        xj = q.transpose(0, 2, 1, 3)  # GPT-J layout [B, S, H, D]
        jq = H.gptj_apply(xj, sh, ch, d if d < D else None)
        check(f"gptj rotate_every_two apply (D={D}, d={d})", near(jq.transpose(0, 2, 1, 3), iq, 1e-12))
        if d == D:
            lq, lk = H.llama_apply(q, k, ch, sh)
            check(f"llama rotate_half apply (D={D})", near(lq, rq, 1e-12) and near(lk, rk, 1e-12))
            dq, _ = H.deepseek_interleave_apply(q, k, ch, sh)
            check(f"deepseek_v3 interleave apply == gptj(x)[P] (D={D})", near(dq, iq[..., P_of(d)], 1e-12))
            check(f"deepseek_v3 interleave apply == neox(x[P]) (D={D})",
                  near(dq, R.rotary(q[..., P_of(d)], pos, inv, af, "half_split"), 1e-12))

    # spec §6 golden (d=8, b=1e4, p=3, x=[1..8]) through HF's functions
    x = np.arange(1, 9, dtype=float).reshape(1, 1, 1, 8)
    inv = R.default_inv_freq(8, 1e4)
    ch, sh = np.cos(3 * inv)[None, None], np.sin(3 * inv)[None, None]
    lq, _ = H.llama_apply(x, x, ch, sh)
    check("golden NeoX d=8 p=3 via HF llama", near(lq.ravel(), [-1.695593, 0.137552, 2.788682, 3.975982,
                                                                 -4.808842, 6.323059, 7.086837, 8.011964], 5e-7))
    jq = H.gptj_apply(x, sh, ch, None)
    check("golden GPT-J d=8 p=3 via HF gptj", near(jq.ravel(), [-1.272233, -1.838865, 1.683929, 4.707907,
                                                                 4.817777, 6.147278, 6.975969, 8.020964], 5e-7))

    # GPT-J's own fp32 table (create_sinusoidal_positions, base 10000) vs fp64 reference
    for d in (8, 64, 128):
        sin_t, cos_t = H.gptj_sincos(2048, d)
        inv = R.default_inv_freq(d, 1e4)
        ang = np.arange(2048)[:, None] * inv
        tol = ang * (RTOL_INV + 2 * U32) + 4 * U32
        check(f"gptj create_sinusoidal_positions d={d} == [sin | cos] of RoPE angles",
              near(sin_t, np.sin(ang), tol) and near(cos_t, np.cos(ang), tol))
        xs = rng.standard_normal((1, 7, 2, d + 6))
        pos = rng.integers(0, 2048, (1, 7))
        out = H.gptj_apply(xs, sin_t[pos], cos_t[pos], d)
        refo = R.rotary(xs, pos, inv, layout="interleaved", rotary_dim=d, token_axis=1)
        tol_x = np.abs(xs).max() * 2 * (ang.max() * (RTOL_INV + 2 * U32) + 4 * U32)
        check(f"GPT-J attention rotary (own table, rotary_dim={d} of {d + 6})", near(out, refo, tol_x))


# ----------------------------------------------------------------------------
# ALiBi, DeepSeek, attention
# ----------------------------------------------------------------------------

def test_alibi(H, seed: int) -> None:
    bad = []
    for n in range(1, 131):
        ref = R.alibi_slopes(n)
        hs = H.bloom_slopes(n)
        if not (hs.shape == ref.shape and np.all(np.abs(hs / ref - 1) <= (2 * n + 4) * U32)):
            bad.append(n)
    # one check per head count, as the brief asks for n = 1..130
    for n in range(1, 131):
        check(f"ALiBi slopes n={n} vs BLOOM build_alibi_tensor", n not in bad)
    rng = np.random.default_rng(seed + 300)
    for i in range(20):
        B, S, n = 3, int(rng.integers(2, 40)), int(rng.integers(1, 130))
        mask = np.ones((B, S), dtype=np.int64)
        for b in range(B):
            mask[b, : int(rng.integers(0, S - 1))] = 0  # left padding
        kpos = (np.cumsum(mask, -1) - 1) * mask           # BLOOM's padding-aware key positions
        ref = R.alibi_bias(R.alibi_slopes(n), 1, S, "key_linear", k_positions=kpos)
        hb = H.bloom_alibi(mask, n)
        tol = np.abs(ref) * (2 * n + 5) * U32
        check(f"BLOOM alibi bias (padding-aware key_linear) n={n} S={S}", near(hb, ref, tol))


def test_deepseek(H, seed: int) -> None:
    rng = np.random.default_rng(seed + 400)
    cases = [(192, 40.0, 1.0), (192, 40.0, 0.0), (192, 40.0, None), (192, 1.0, 1.0), (192, 0.5, 0.707)]
    cases += [(int(rng.integers(16, 400)), float(rng.uniform(1, 64)), float(rng.choice([0.5, 0.707, 1.0, 2.0])))
              for _ in range(20)]
    for qk, f, m in cases:
        ref = R.deepseek_softmax_scale(qk, f, m)
        hf = H.deepseek_softmax_scale(qk, f, m)
        check(f"DeepSeek softmax scale qk={qk} s={f:.4g} mscale_all_dim={m}", abs(hf - ref) <= 1e-12 * ref,
              f"hf {hf} ref {ref}")
    check("DeepSeek-V3 softmax scale via HF = 0.135234", abs(H.deepseek_softmax_scale(192, 40.0, 1.0) - 0.135234) <= 5e-7)


def test_attention(H, seed: int) -> None:
    rng = np.random.default_rng(seed + 500)
    for i in range(20):
        B, Hkv = 2, int(rng.integers(1, 4))
        Hq = Hkv * int(rng.integers(1, 4))
        Sk = int(rng.integers(1, 12))
        Sq = int(rng.integers(1, Sk + 1))
        D = int(rng.integers(2, 33)) * 2
        q = rng.standard_normal((B, Hq, Sq, D))
        k = rng.standard_normal((B, Hkv, Sk, D))
        v = rng.standard_normal((B, Hkv, Sk, D))
        inv, af = R.inv_freq(D, 1e4, "yarn", factor=4.0, original_max_position_embeddings=64)
        qpos = np.arange(Sq) + Sk - Sq
        kpos = np.arange(Sk)
        use_alibi = i % 2 == 1
        ref = R.attention(q, k, v, causal=True, inv_freq=inv, attention_factor=af,
                          alibi_slopes=R.alibi_slopes(Hq) if use_alibi else None)
        # HF: rotate with llama apply_rotary_pos_emb, additive causal mask (+ ALiBi) from positions
        cq = np.broadcast_to(np.cos(qpos[:, None] * inv) * af, (B, Sq, D // 2))
        sq_ = np.broadcast_to(np.sin(qpos[:, None] * inv) * af, (B, Sq, D // 2))
        ck = np.broadcast_to(np.cos(kpos[:, None] * inv) * af, (B, Sk, D // 2))
        sk_ = np.broadcast_to(np.sin(kpos[:, None] * inv) * af, (B, Sk, D // 2))
        hq, _ = H.llama_apply(q, q, cq, sq_)
        hk, _ = H.llama_apply(k, k, ck, sk_)
        mask = np.where(kpos[None, :] > qpos[:, None], -np.inf, 0.0)[None, None]
        if use_alibi:
            mask = mask + R.alibi_bias(R.alibi_slopes(Hq), Sq, Sk, "symmetric")[None]
        out = H.eager_attention(hq, hk, v, mask, 1 / math.sqrt(D))
        check(f"attention vs HF eager (GQA {Hq}/{Hkv}, Sq={Sq}, Sk={Sk}, alibi={use_alibi})",
              near(out, ref, 1e-6), f"max err {np.max(np.abs(out - ref)):.3g}")


def test_attention_sinks(H, seed: int) -> None:
    """posenc_ref's sinks vs gpt-oss's own eager attention (fp64 on both sides):
    GQA, causal or not, Sq > Sk (fully masked rows: zeros), sinks that
    dominate and sinks that vanish."""
    rng = np.random.default_rng(seed + 600)
    for i in range(20):
        B, Hkv = 2, int(rng.integers(1, 4))
        Hq = Hkv * int(rng.integers(1, 4))
        Sk = int(rng.integers(1, 12))
        Sq = int(rng.integers(1, Sk + 4))
        D = int(rng.integers(1, 33)) * 2
        causal = i % 2 == 0
        q = rng.standard_normal((B, Hq, Sq, D))
        k = rng.standard_normal((B, Hkv, Sk, D))
        v = rng.standard_normal((B, Hkv, Sk, D))
        # Ordinary sinks, and every fifth case sinks that dominate or vanish.
        sinks = rng.uniform(-6.0, 6.0, Hq) * (10.0 if i % 5 == 4 else 1.0)
        ref = R.attention(q, k, v, causal=causal, sinks=sinks)
        qpos = np.arange(Sq) + Sk - Sq
        mask = None
        if causal:
            mask = np.where(np.arange(Sk)[None, :] > qpos[:, None], -np.inf, 0.0)[None, None]
        out = H.gpt_oss_eager_attention(q, k, v, mask, 1 / math.sqrt(D), sinks)
        check(f"attention sinks vs HF gpt-oss eager (GQA {Hq}/{Hkv}, Sq={Sq}, Sk={Sk}, "
              f"causal={causal}, max |sink| {np.abs(sinks).max():.3g})",
              near(out, ref, 1e-12), f"max err {np.max(np.abs(out - ref)):.3g}")


def test_local_attention(H, seed: int) -> None:
    """Issue 23's conventions against HF's own code (fp64 on both sides): the
    masks of masking_utils (causal sliding window W = posenc window left
    W - 1; bidirectional sliding window W = left = right = W; chunked causal
    = chunk_size) through llama's eager attention, Gemma 2's eager attention
    with soft-capping (after the scale, before the mask) and a sliding
    window, and Llama 4's NoPE attention with temperature tuning."""
    rng = np.random.default_rng(seed + 700)
    for i in range(24):
        B, Hkv = 2, int(rng.integers(1, 3))
        Hq = Hkv * int(rng.integers(1, 3))
        Sk = int(rng.integers(1, 24))
        Sq = int(rng.integers(1, Sk + 1))
        D = int(rng.integers(1, 9)) * 2
        size = int(rng.integers(1, Sk + 3))
        q = rng.standard_normal((B, Hq, Sq, D)) * 2
        k = rng.standard_normal((B, Hkv, Sk, D)) * 2
        v = rng.standard_normal((B, Hkv, Sk, D))
        kind = ("sliding_causal", "sliding_bidirectional", "chunked_causal")[i % 3]
        visible = H.hf_visible(kind, size, Sq, Sk)
        mask = np.where(visible, 0.0, -np.inf)[None, None]
        kw = {"sliding_causal": dict(causal=True, window=(size - 1, None)),
              "sliding_bidirectional": dict(causal=False, window=(size, size)),
              "chunked_causal": dict(causal=True, chunk_size=size)}[kind]
        out = H.eager_attention(q, k, v, mask, 1 / math.sqrt(D))
        ref = R.attention(q, k, v, **kw)
        check(f"{kind} {size} vs HF masking_utils (GQA {Hq}/{Hkv}, Sq={Sq}, Sk={Sk})",
              near(out, ref, 1e-6), f"max err {np.max(np.abs(out - ref)):.3g}")
        cap = float(rng.uniform(0.5, 20.0))
        if kind == "sliding_causal":
            out = H.gemma2_eager_attention(q, k, v, mask, 1 / math.sqrt(D), cap)
            ref = R.attention(q, k, v, softcap=cap, **kw)
            check(f"softcap {cap:.3g} + window {size} vs HF Gemma 2 eager (Sq={Sq}, Sk={Sk})",
                  near(out, ref, 1e-6), f"max err {np.max(np.abs(out - ref)):.3g}")
    for i in range(8):
        B, Hkv = 2, int(rng.integers(1, 3))
        Hq, D, S = Hkv * int(rng.integers(1, 3)), int(rng.integers(1, 9)) * 2, int(rng.integers(1, 40))
        f, a = int(rng.choice([1, 2, 4, 7])), float(rng.uniform(0.05, 1.0))
        x = rng.standard_normal((B, S, Hq * D))
        q, k, v, out = H.llama4_nope_attention(x, Hq, Hkv, D, f, a)
        ref = R.attention(q, k, v, causal=True, temperature=(float(f), a))
        check(f"query temperature ({f:g}, {a:.3g}) vs HF Llama 4 NoPE attention (S={S})",
              near(out, ref, 1e-6), f"max err {np.max(np.abs(out - ref)):.3g}")


def main(argv: List[str]) -> int:
    global VERBOSE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-v", action="store_true", help="print every check")
    ap.add_argument("--n", type=int, default=150, help="random configs per scheme (>= 100)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    VERBOSE = args.v
    try:
        import hf_ref as H
    except Exception as e:  # pragma: no cover
        print(f"SKIP: cannot import hf_ref: {e}")
        skip("hf differential suite", str(e))
        return summary()
    if H.IMPORT_ERROR is not None:
        print(f"SKIP: torch/transformers not importable ({H.IMPORT_ERROR}); "
              "install requirements-hf.txt to run the HF differential tests")
        skip("hf differential suite", H.IMPORT_ERROR)
        return summary()
    print(f"posenc_ref vs HF: {H.versions()}, {args.n} configs per scheme, seed {args.seed}")
    H.torch.set_num_threads(1)
    for name, fn in (("inv_freq", lambda: test_inv_freq(H, args.n, args.seed)),
                     ("named models", lambda: test_named_models(H)),
                     ("module pipeline", lambda: test_module_pipeline(H, args.n, args.seed)),
                     ("application", lambda: test_application(H, args.n, args.seed)),
                     ("alibi", lambda: test_alibi(H, args.seed)),
                     ("deepseek", lambda: test_deepseek(H, args.seed)),
                     ("attention", lambda: test_attention(H, args.seed)),
                     ("attention sinks", lambda: test_attention_sinks(H, args.seed)),
                     ("local attention", lambda: test_local_attention(H, args.seed))):
        try:
            fn()
        except Exception as e:  # a crash is a failure
            import traceback
            traceback.print_exc()
            check(f"{name} section raised {type(e).__name__}: {e}", False)
    return summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
