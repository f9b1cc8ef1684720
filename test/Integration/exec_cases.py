"""Execution tests: posenc kernels JIT-compiled by posenc-run vs the fp64
NumPy reference (test/lib/posenc_ref.py), on fresh seeded random inputs.

Usage: exec_cases.py POSENC_RUN GROUP [--seed S]
Groups: rotary, schemes, runtime-frequencies, alibi, sinusoidal, learned,
        mrope, long-angle, attention, attention-sinks, attention-gpu, semi-affine. Each prints one line per case and ends
with "N passed, N failed".

Tolerances (stated per check, all absolute on outputs of magnitude <= ~2):
  f32 outputs: 4e-6 * max|x| (f32 cos/sin of a reduced angle + one rounding);
  bf16 / f16 outputs: half an output ulp of the reference magnitude plus
  1e-5 (inputs are exact in bf16/f16; arithmetic is f32, rounded once);
  frequencies computed at run time: 8 f32 ulps of the fp64 reference;
  the long-position angle: 1e-6 rad (issue: <= 1e-6 rad up to 2^20);
  16-bit attention through posenc-gpu-pipeline's tensor cores: plus
  EPS * max|v| (P rounded to the element type before P V, see p_rounding).
"""

import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import posenc_exec as pe  # noqa: E402
import posenc_mlir as pm  # noqa: E402
import posenc_ref as ref  # noqa: E402

RESULTS = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    RESULTS["passed" if ok else "failed"] += 1
    print(("PASS " if ok else "FAIL ") + name + (f"  ({detail})" if detail else ""))


ELEM = {"f32": np.float32, "f16": np.float16, "bf16": None}
EPS = {"f32": 2.0 ** -24, "f16": 2.0 ** -11, "bf16": 2.0 ** -8}


# Set by main: the cases run through posenc-gpu-pipeline with tensor cores,
# whose 16-bit attention multiplies V by P rounded to the element type (as
# FlashAttention does): one more rounding per weight, at most EPS * max|v|
# on each output (the weights sum to the row's softmax denominator).
P_ROUNDED = False


def p_rounding(elem, v):
    if not P_ROUNDED or elem == "f32":
        return 0.0
    return EPS[elem] * float(np.abs(v).max())


def as_input(x64, elem):
    """The input as the kernel sees it (exact in its dtype) and its fp64 value."""
    if elem == "bf16":
        bits = pe.to_bf16_bits(x64.astype(np.float32))
        return bits, pe.from_bf16_bits(bits).astype(np.float64)
    arr = x64.astype(ELEM[elem])
    return arr, arr.astype(np.float64)


def as_output(y, elem):
    return pe.from_bf16_bits(y).astype(np.float64) if elem == "bf16" else y.astype(np.float64)


def tolerance(ref_out, x, elem):
    if elem == "f32":
        return 4e-6 * max(1.0, float(np.abs(x).max()))
    return EPS[elem] * np.abs(ref_out) + 1e-5 + 4e-6 * float(np.abs(x).max())


def tensor(shape, elem):
    return "tensor<" + "x".join(str(s) for s in shape) + f"x{elem}>"


def hf_exact_tables(inv32, positions_max, af):
    """cos/sin of the f32 product p * inv (HF's fp32 angle), rows 0..max."""
    p = np.arange(positions_max + 1, dtype=np.float32)
    ang = (p[:, None] * inv32[None, :]).astype(np.float64)  # one f32 rounding
    return np.cos(ang) * af, np.sin(ang) * af


# ----------------------------------------------------------------------------
def group_rotary(run, rng):
    """Layouts x partial rotary x dtypes x position forms x token axes."""
    cases = [
        # (shape, token_dim, layout, rotary_dim, elem, positions, inv elem)
        ((2, 4, 16, 64), None, "half_split", 64, "f32", "shared", "f64"),
        ((2, 4, 16, 64), None, "interleaved", 64, "f32", "batch", "f64"),
        ((2, 4, 16, 64), None, "half_split", 32, "f32", "offset", "f64"),
        ((2, 4, 16, 64), None, "interleaved", 48, "f32", "shared", "f64"),
        ((1, 3, 9, 80), None, "half_split", 32, "bf16", "batch", "f64"),
        ((1, 3, 9, 80), None, "interleaved", 80, "f16", "shared", "f64"),
        ((2, 16, 4, 64), 1, "half_split", 64, "f32", "batch", "f64"),   # [B, S, H, D]
        ((24, 4, 64), 0, "half_split", 64, "f32", "shared", "f64"),     # vLLM [T, H, D]
        ((2, 4, 16, 64), None, "half_split", 64, "f32", "shared", "f32"),  # HF-exact angles
        ((2, 4, 16, 64), None, "interleaved", 64, "bf16", "offset", "f32"),
    ]
    for shape, token_dim, layout, d, elem, pos_form, inv_elem in cases:
        tok = token_dim if token_dim is not None else len(shape) - 2
        S = shape[tok]
        x64 = rng.uniform(-1, 1, size=shape)
        x_in, x_ref = as_input(x64, elem)
        base = float(rng.choice([1e4, 5e5]))
        inv64, af = ref.inv_freq(d, base)
        args = [f"%x: {tensor(shape, elem)}"]
        inputs = [x_in]
        operands = ""
        positions = None
        offset = 0
        if pos_form == "shared":
            positions = rng.integers(0, 8192, size=(S,)).astype(np.int64)
            args.append(f"%p: tensor<{S}xi64>")
            operands += f" positions(%p : tensor<{S}xi64>)"
            inputs.append(positions)
        elif pos_form == "batch":
            positions = rng.integers(0, 8192, size=(shape[0], S)).astype(np.int64)
            args.append(f"%p: tensor<{shape[0]}x{S}xi64>")
            operands += f" positions(%p : tensor<{shape[0]}x{S}xi64>)"
            inputs.append(positions)
        else:
            offset = int(rng.integers(0, 100000))
            args.append("%o: tensor<1xi64>")
            inputs.append(np.array([offset], np.int64))
        body = ""
        if pos_form == "offset":
            body += "  %c0 = arith.constant 0 : index\n  %off = tensor.extract %o[%c0] : tensor<1xi64>\n"
            operands += " offset(%off : i64)"
        attrs = f" {{token_dim = {token_dim} : i64}}" if token_dim is not None else ""
        module = (
            f"func.func @rope({', '.join(args)}) -> {tensor(shape, elem)} {{\n{body}"
            f"  %inv, %af = posenc.rope_frequencies dim {d} base {pm.f(base)} : tensor<{d // 2}x{inv_elem}>, f32\n"
            f"  %y = posenc.rotary %x {layout} dim {d} inv_freq(%inv : tensor<{d // 2}x{inv_elem}>){operands}"
            f" attention_factor(%af){attrs} : {tensor(shape, elem)}\n"
            f"  return %y : {tensor(shape, elem)}\n}}\n")
        (y,) = run(module, inputs)
        if inv_elem == "f32":
            inv32 = inv64.astype(np.float32)
            maxpos = int((positions.max() if positions is not None else 0) + offset + S)
            expect = ref.rotary(x_ref, positions, layout=layout, rotary_dim=d, token_axis=tok,
                                cos_sin=hf_exact_tables(inv32, maxpos, af), offset=offset)
        else:
            expect = ref.rotary(x_ref, positions, inv64, af, layout=layout, rotary_dim=d,
                                token_axis=tok, offset=offset)
        got = as_output(y, elem)
        err = np.abs(got - expect)
        tol = tolerance(expect, x_ref, elem)
        check(f"rotary {layout} d={d}/{shape[-1]} {elem} positions={pos_form} token_dim={tok} "
              f"inv={inv_elem}", bool(np.all(err <= tol)), f"max err {err.max():.3g}")


# ----------------------------------------------------------------------------
def group_schemes(run, rng):
    """Every scaling scheme: random configs applied by posenc.rotary."""
    for scheme in ["default", "linear", "ntk", "dynamic_ntk", "yarn", "llama3", "longrope"]:
        for cfg in ref.random_configs(scheme, 3, seed=int(rng.integers(1 << 30))):
            d = cfg["rotary_dim"]
            D = cfg["head_dim"]
            S = 8
            x64 = rng.uniform(-1, 1, size=(1, 2, S, D))
            positions = rng.integers(0, 1 << 16, size=(S,)).astype(np.int64)
            seq_len = ref_len = None
            inputs = [x64.astype(np.float32), positions]
            args = [f"%x: tensor<1x2x{S}x{D}xf32>", f"%p: tensor<{S}xi64>"]
            body = ""
            if pm.needs_seq_len(cfg):
                seq_len = ref_len = cfg["seq_len"]
                inputs.append(np.array([seq_len], np.int64))
                args.append("%n: tensor<1xi64>")
                body = "  %c0 = arith.constant 0 : index\n  %len = tensor.extract %n[%c0] : tensor<1xi64>\n"
            inv64, af = ref.inv_freq(d, cfg["base"], cfg["scheme"], seq_len=ref_len, **cfg["params"])
            module = (
                f"func.func @rope({', '.join(args)}) -> tensor<1x2x{S}x{D}xf32> {{\n{body}"
                f"  {pm.frequencies_op(cfg, 'f64', '%len')}\n"
                f"  %y = posenc.rotary %x half_split dim {d} inv_freq(%inv : tensor<{d // 2}xf64>)"
                f" positions(%p : tensor<{S}xi64>) attention_factor(%af) : tensor<1x2x{S}x{D}xf32>\n"
                f"  return %y : tensor<1x2x{S}x{D}xf32>\n}}\n")
            (y,) = run(module, inputs)
            x_ref = inputs[0].astype(np.float64)
            expect = ref.rotary(x_ref, positions, inv64, af, rotary_dim=d)
            err = np.abs(y.astype(np.float64) - expect)
            tol = 4e-6 * max(1.0, af)
            check(f"scheme {scheme} d={d}/{D} base={cfg['base']:.4g} seq_len={seq_len}",
                  bool(np.all(err <= tol)), f"max err {err.max():.3g}, tol {tol:.3g}")


# ----------------------------------------------------------------------------
def group_runtime_frequencies(run, rng):
    """HF dynamic NTK and LongRoPE switch computed at run time: >= 100 random
    configs each, f32 tables within 8 ulp of the fp64 reference."""
    for scheme, rule_key, rule in (("dynamic_ntk", "rule", "hf"), ("longrope", "select", "hf")):
        cfgs = [c for c in ref.random_configs(scheme, 400, seed=int(rng.integers(1 << 30)))
                if c["params"].get(rule_key, "hf") == rule][:100]
        args, body, results, types = [], "  %c0 = arith.constant 0 : index\n", [], []
        inputs = []
        for i, cfg in enumerate(cfgs):
            d = cfg["rotary_dim"]
            args.append(f"%n{i}: tensor<1xi64>")
            inputs.append(np.array([cfg["seq_len"]], np.int64))
            body += f"  %len{i} = tensor.extract %n{i}[%c0] : tensor<1xi64>\n"
            op = pm.frequencies_op(cfg, "f32", f"%len{i}").replace("%inv, %af", f"%inv{i}, %af{i}")
            body += f"  {op}\n"
            results.append(f"%inv{i}")
            types.append(f"tensor<{d // 2}xf32>")
        module = (f"func.func @freqs({', '.join(args)}) -> ({', '.join(types)}) {{\n{body}"
                  f"  return {', '.join(results)} : {', '.join(types)}\n}}\n")
        outs = run(module, inputs)
        worst = 0
        for cfg, inv in zip(cfgs, outs):
            inv64, _ = ref.inv_freq(cfg["rotary_dim"], cfg["base"], cfg["scheme"],
                                    seq_len=cfg["seq_len"], **cfg["params"])
            worst = max(worst, int(pm.ulp_distance_f32(inv, inv64.astype(np.float32)).max()))
        check(f"runtime {scheme} ({len(cfgs)} configs, seq_len as a runtime value)",
              len(cfgs) >= 100 and worst <= 8, f"worst {worst} ulp")


# ----------------------------------------------------------------------------
def group_alibi(run, rng):
    """ALiBi for head counts 1..130 (non powers of two included), both forms,
    both alignments, shards, explicit positions."""
    for start in range(1, 131, 26):
        ns = list(range(start, min(start + 26, 131)))
        body, results, types, expects = "", [], [], []
        for n in ns:
            sq, sk = int(rng.integers(1, 6)), int(rng.integers(1, 9))
            form = "symmetric" if n % 2 else "key_linear"
            align = "bottom_right" if n % 3 else "top_left"
            offset = int(rng.integers(0, n))
            local = n - offset
            mb = float(rng.choice([8.0, 16.0, 4.0]))
            t = f"tensor<{local}x{sq}x{sk}xf32>"
            body += (f"  %b{n} = posenc.alibi {form} slopes(<num_heads = {n}, head_offset = {offset}, "
                     f"max_bias = {pm.f(mb)}>) {{alignment = #posenc<alignment {align}>}} : {t}\n")
            results.append(f"%b{n}")
            types.append(t)
            slopes = ref.alibi_slopes(n, mb, offset, local)
            expects.append(ref.alibi_bias(slopes, sq, sk, form, align))
        module = (f"func.func @alibi() -> ({', '.join(types)}) {{\n{body}"
                  f"  return {', '.join(results)} : {', '.join(types)}\n}}\n")
        outs = run(module, [])
        for n, got, expect in zip(ns, outs, expects):
            err = np.abs(got - expect)
            tol = 2.0 ** -23 * np.abs(expect) + 1e-30
            check(f"alibi n={n}", bool(np.all(err <= tol)), f"max err {err.max():.3g}")
    # Batched, per-sequence (padding-aware) key positions and explicit query positions.
    B, H, sq, sk = 2, 12, 3, 7
    qp = rng.integers(0, 64, size=(B, sq)).astype(np.int64)
    kp = rng.integers(0, 64, size=(B, sk)).astype(np.int64)
    t = f"tensor<{B}x{H}x{sq}x{sk}xf32>"
    module = (f"func.func @alibi(%q: tensor<{B}x{sq}xi64>, %k: tensor<{B}x{sk}xi64>) -> {t} {{\n"
              f"  %b = posenc.alibi symmetric slopes(<num_heads = {H}>) q_positions(%q : tensor<{B}x{sq}xi64>)"
              f" k_positions(%k : tensor<{B}x{sk}xi64>) : {t}\n  return %b : {t}\n}}\n")
    (got,) = run(module, [qp, kp])
    expect = ref.alibi_bias(ref.alibi_slopes(H), sq, sk, "symmetric", q_positions=qp,
                            k_positions=kp, batch=B)
    check("alibi batched explicit positions", bool(np.allclose(got, expect, rtol=2 ** -23, atol=0)))
    # Positions at the ends of i64 (issue 22 item 6): |q - k| up to 2^64 - 2^40
    # does not fit a signed i64; max(q - k, k - q) wrapped to -2^63 and gave
    # the farthest key a bias of +m 2^63. The distance is now unsigned.
    # Values whose differences f64 holds exactly (the reference subtracts in
    # f64); three f32 roundings (slope, distance, product).
    qp = np.array([2 ** 62, -2 ** 62, 0, 2 ** 63 - 2 ** 40], np.int64)
    kp = np.array([-2 ** 62, 2 ** 62, -2 ** 63, 2 ** 61, -2 ** 63 + 2 ** 40, 7], np.int64)
    for form in ("symmetric", "key_linear"):
        t = f"tensor<3x4x6xf32>"
        module = (f"func.func @alibi(%q: tensor<4xi64>, %k: tensor<6xi64>) -> {t} {{\n"
                  f"  %b = posenc.alibi {form} slopes(<num_heads = 3>) q_positions(%q : tensor<4xi64>)"
                  f" k_positions(%k : tensor<6xi64>) : {t}\n  return %b : {t}\n}}\n")
        (got,) = run(module, [qp, kp])
        expect = ref.alibi_bias(ref.alibi_slopes(3), 4, 6, form, q_positions=qp, k_positions=kp)
        err = np.abs(got - expect)
        check(f"alibi {form} positions at the ends of i64",
              bool(np.all(err <= 3 * 2.0 ** -24 * np.abs(expect))), f"max err {err.max():.3g}")


# ----------------------------------------------------------------------------
def group_sinusoidal(run, rng):
    for layout in ("interleaved", "concatenated"):
        for dim in (6, 7, 64, 513):
            P = 50
            offset = int(rng.integers(0, 3000))
            t = f"tensor<{P}x{dim}xf32>"
            module = (f"func.func @table(%o: tensor<1xi64>) -> {t} {{\n"
                      f"  %c0 = arith.constant 0 : index\n  %off = tensor.extract %o[%c0] : tensor<1xi64>\n"
                      f"  %t = posenc.sinusoidal {layout} offset(%off : i64) : {t}\n  return %t : {t}\n}}\n")
            (got,) = run(module, [np.array([offset], np.int64)])
            expect = ref.sinusoidal(np.arange(P) + offset, dim, layout)
            err = np.abs(got - expect)
            check(f"sinusoidal {layout} d={dim} offset={offset}", bool(np.all(err <= 2e-6)),
                  f"max err {err.max():.3g}")
    # Per-sequence positions, bf16 output.
    pos = rng.integers(0, 1 << 15, size=(2, 5)).astype(np.int64)
    module = ("func.func @table(%p: tensor<2x5xi64>) -> tensor<2x5x32xbf16> {\n"
              "  %t = posenc.sinusoidal interleaved positions(%p : tensor<2x5xi64>) : tensor<2x5x32xbf16>\n"
              "  return %t : tensor<2x5x32xbf16>\n}\n")
    (got,) = run(module, [pos])
    expect = ref.sinusoidal(pos, 32, "interleaved")
    err = np.abs(pe.from_bf16_bits(got) - expect)
    check("sinusoidal interleaved bf16 positions [B, S]",
          bool(np.all(err <= 2 ** -8 * np.abs(expect) + 2e-6)), f"max err {err.max():.3g}")


# ----------------------------------------------------------------------------
def group_learned(run, rng):
    x = rng.uniform(-1, 1, size=(2, 6, 16)).astype(np.float32)
    table = rng.uniform(-1, 1, size=(40, 16)).astype(np.float32)
    pos = rng.integers(0, 40, size=(2, 6)).astype(np.int64)
    module = ("func.func @add(%x: tensor<2x6x16xf32>, %t: tensor<40x16xf32>, %p: tensor<2x6xi64>)"
              " -> tensor<2x6x16xf32> {\n"
              "  %y = posenc.learned_absolute %x, %t positions(%p : tensor<2x6xi64>)"
              " : tensor<2x6x16xf32>, tensor<40x16xf32>\n  return %y : tensor<2x6x16xf32>\n}\n")
    (got,) = run(module, [x, table, pos])
    expect = x.astype(np.float64) + table.astype(np.float64)[pos]
    check("learned_absolute gather + add", bool(np.allclose(got, expect, rtol=2 ** -23, atol=1e-7)))
    bad = pos.copy()
    bad[1, 3] = 40
    try:
        run(module, [x, table, bad])
        check("learned_absolute position 40 of 40 rows is a runtime error", False, "it ran")
    except RuntimeError as e:
        check("learned_absolute position 40 of 40 rows is a runtime error",
              "outside the learned table" in str(e), str(e).strip().splitlines()[-1][:120])


# ----------------------------------------------------------------------------
def group_mrope(run, rng):
    for mlayout in ("chunked", "interleaved"):
        sections = [16, 24, 24]
        d = 2 * sum(sections)
        S = 10
        x = rng.uniform(-1, 1, size=(1, 2, S, d)).astype(np.float32)
        pos = rng.integers(0, 4096, size=(3, S)).astype(np.int64)
        inv64, af = ref.inv_freq(d, 1e6)
        t = f"tensor<1x2x{S}x{d}xf32>"
        module = (f"func.func @m(%x: {t}, %p: tensor<3x{S}xi64>) -> {t} {{\n"
                  f"  %inv, %af = posenc.rope_frequencies dim {d} base 1.0e6 : tensor<{d // 2}xf64>, f32\n"
                  f"  %y = posenc.rotary %x half_split dim {d} inv_freq(%inv : tensor<{d // 2}xf64>)"
                  f" positions(%p : tensor<3x{S}xi64>) {{mrope_sections = array<i64: 16, 24, 24>,"
                  f" mrope_layout = #posenc<mrope_layout {mlayout}>}} : {t}\n  return %y : {t}\n}}\n")
        (got,) = run(module, [x, pos])
        expect = ref.rotary(x.astype(np.float64), pos, inv64, af, mrope_sections=sections,
                            mrope_layout=mlayout)
        err = np.abs(got - expect)
        check(f"M-RoPE {mlayout} sections {sections}", bool(np.all(err <= 4e-6)), f"max err {err.max():.3g}")
    # Found by fuzz/semantic_check.py (CI seed 1): a [4, 5, 16] interleaved
    # M-RoPE through small blocks and 32 lanes; applying upstream's
    # transfer permutation-map lowering to every transfer made the second
    # half of the channels wrong (error 1.78).
    x = rng.uniform(-1, 1, size=(4, 5, 16)).astype(np.float32)
    inv = rng.uniform(-1, 1, size=(8,)).astype(np.float32)
    pos = rng.integers(0, 4096, size=(3, 5)).astype(np.int64)
    module = ("func.func @m(%x: tensor<4x5x16xf32>, %f: tensor<8xf32>, %p: tensor<3x5xi64>)"
              " -> tensor<4x5x16xf32> {\n"
              "  %y = posenc.rotary %x half_split dim 16 inv_freq(%f : tensor<8xf32>)"
              " positions(%p : tensor<3x5xi64>) {mrope_sections = array<i64: 2, 3, 3>,"
              " mrope_layout = #posenc<mrope_layout interleaved>} : tensor<4x5x16xf32>\n"
              "  return %y : tensor<4x5x16xf32>\n}\n")
    for opts in ("vector-width=32 block-elements=64 openmp=false", "vector-width=16 block-elements=64"):
        (got,) = run(module, [x, inv, pos], pipeline=f"posenc-cpu-pipeline{{{opts}}}")
        expect = ref.rotary(x[None].astype(np.float64), pos, inv.astype(np.float64), 1.0,
                            mrope_sections=[2, 3, 3], mrope_layout="interleaved")[0]
        err = np.abs(got - expect)
        # f32 angles pos * inv up to 4096 rad: 2^-24 * 4096 relative.
        check(f"M-RoPE interleaved [4, 5, 16] {{{opts}}}", bool(np.all(err <= 4e-4)),
              f"max err {err.max():.3g}")


# ----------------------------------------------------------------------------
def group_long_angle(run, rng):
    """Angles at positions up to 2^20: rotate unit pairs (x1=1, x2=0) so the
    output is (cos, sin) of the angle, and recover the angle with atan2."""
    d = 128
    S = 64
    inv64, _ = ref.inv_freq(d, 500000.0)
    pos = np.concatenate([(1 << 20) - np.arange(S // 2), rng.integers(1 << 19, 1 << 20, S // 2)])
    pos = pos.astype(np.int64)
    x = np.zeros((1, 1, S, d), np.float32)
    x[..., : d // 2] = 1.0
    t = f"tensor<1x1x{S}x{d}xf32>"
    for inv_elem in ("f64", "f32"):
        module = (f"func.func @a(%x: {t}, %p: tensor<{S}xi64>) -> {t} {{\n"
                  f"  %inv, %af = posenc.rope_frequencies dim {d} base 5.0e5 : tensor<{d // 2}x{inv_elem}>, f32\n"
                  f"  %y = posenc.rotary %x half_split dim {d} inv_freq(%inv : tensor<{d // 2}x{inv_elem}>)"
                  f" positions(%p : tensor<{S}xi64>) : {t}\n  return %y : {t}\n}}\n")
        (y,) = run(module, [x, pos])
        got = np.arctan2(y[0, 0, :, d // 2:].astype(np.float64), y[0, 0, :, : d // 2].astype(np.float64))
        inv = inv64 if inv_elem == "f64" else inv64.astype(np.float32).astype(np.float64)
        exact = np.mod(pos[:, None].astype(np.float64) * inv[None, :] + np.pi, 2 * np.pi) - np.pi
        err = np.abs(np.angle(np.exp(1j * (got - exact))))
        if inv_elem == "f64":
            check("long-context angle error at positions up to 2^20 (f64 inv_freq)",
                  float(err.max()) <= 1e-6, f"max angle error {err.max():.3g} rad")
        else:
            # HF-exact option: the angle is one f32 product; it must match
            # that product (not the exact angle) to 1e-6.
            hf = (np.float32(1.0) * pos[:, None].astype(np.float32) *
                  inv64.astype(np.float32)[None, :]).astype(np.float64)
            hf = np.mod(hf + np.pi, 2 * np.pi) - np.pi
            hf_err = np.abs(np.angle(np.exp(1j * (got - hf))))
            check("HF-exact f32 angles reproduce the f32 product at 2^20",
                  float(hf_err.max()) <= 1e-6,
                  f"vs f32 product {hf_err.max():.3g} rad; vs exact angle {err.max():.3g} rad")


# ----------------------------------------------------------------------------
def group_attention(run, rng):
    cases = [
        # (B, Hq, Hkv, Sq, Sk, D, Dv, causal, rope, alibi, align)
        (1, 4, 2, 5, 9, 32, 32, True, True, False, "bottom_right"),
        (2, 8, 2, 6, 6, 16, 8, True, False, True, "bottom_right"),
        (1, 6, 6, 4, 7, 16, 16, False, True, True, "top_left"),
        (1, 4, 1, 1, 12, 64, 64, True, True, False, "bottom_right"),   # decode, MQA
        # GQA shapes whose head blocks do not start at a multiple of the group
        # size (miscompiled before GQA became a [B, Hkv, G, S, D] view).
        (1, 12, 4, 16, 16, 128, 128, True, False, False, "bottom_right"),
        (1, 24, 8, 16, 16, 64, 64, True, True, False, "bottom_right"),
        (1, 40, 8, 4, 64, 64, 64, True, False, True, "bottom_right"),
        (1, 20, 4, 9, 13, 32, 16, False, True, False, "top_left"),
        (2, 28, 4, 1, 37, 64, 64, True, True, True, "bottom_right"),  # decode
    ]
    for B, Hq, Hkv, Sq, Sk, D, Dv, causal, rope, alibi, align in cases:
        q = rng.uniform(-1, 1, (B, Hq, Sq, D)).astype(np.float32)
        k = rng.uniform(-1, 1, (B, Hkv, Sk, D)).astype(np.float32)
        v = rng.uniform(-1, 1, (B, Hkv, Sk, Dv)).astype(np.float32)
        tq, tk, tv, to = (f"tensor<{B}x{Hq}x{Sq}x{D}xf32>", f"tensor<{B}x{Hkv}x{Sk}x{D}xf32>",
                          f"tensor<{B}x{Hkv}x{Sk}x{Dv}xf32>", f"tensor<{B}x{Hq}x{Sq}x{Dv}xf32>")
        clauses, pre = "", ""
        inv64 = None
        if causal:
            clauses += " causal"
        if rope:
            inv64, pre, rope_text = rope_clause(D)
            clauses += rope_text
        if alibi:
            clauses += f" alibi(<num_heads = {Hq}>)"
        module = (f"func.func @att(%q: {tq}, %k: {tk}, %v: {tv}) -> {to} {{\n{pre}"
                  f"  %o = posenc.attention %q, %k, %v{clauses} {{alignment = #posenc<alignment {align}>}}"
                  f" : {tq}, {tk}, {tv} -> {to}\n  return %o : {to}\n}}\n")
        (got,) = run(module, [q, k, v])
        expect = ref.attention(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64),
                               causal=causal, inv_freq=inv64, rotary_dim=D if rope else None,
                               alibi_slopes=ref.alibi_slopes(Hq) if alibi else None,
                               alignment=align)
        err = np.abs(got - expect)
        check(f"attention B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} Sk={Sk} causal={causal} rope={rope} "
              f"alibi={alibi} {align}", bool(np.all(err <= 2e-5)), f"max err {err.max():.3g}")
    attention_pair(run, rng)
    attention_local(run, rng)
    attention_key_lengths(run, rng)
    attention_key_mask(run, rng)


def local_inputs(rng, B, Hq, Hkv, Sq, Sk, D):
    """f32 q, k (U(-2, 2): logits large enough to saturate caps) and v
    (U(-1, 1)) of attention_local and attention_key_lengths, their types
    (q, k, v, result) and the function's argument list."""
    q = rng.uniform(-2, 2, (B, Hq, Sq, D)).astype(np.float32)
    k = rng.uniform(-2, 2, (B, Hkv, Sk, D)).astype(np.float32)
    v = rng.uniform(-1, 1, (B, Hkv, Sk, D)).astype(np.float32)
    types = [tensor(x.shape, "f32") for x in (q, k, v, q)]
    return q, k, v, types, [f"%q: {types[0]}", f"%k: {types[1]}", f"%v: {types[2]}"]


def attention_key_lengths(run, rng):
    """Issue 24's key_lengths (a right-padded batch): each sequence's keys
    past its length are never seen. Prefill whose key tiles divide Sk (a
    length inside a tile), decode split into key chunks (lengths inside,
    past and before chunks), the dot-product decode loop, lengths of 0,
    negative and past Sk, i32/i64/index lengths, with RoPE, a window and
    sinks; against the fp64 reference (tolerance 2e-5)."""
    cases = [
        # (B, Hq, Hkv, Sq, Sk, D, lengths, elem, clauses, keywords, pipeline)
        (2, 8, 2, 128, 128, 32, [77, 128], "i32", "causal", dict(causal=True), None),
        (2, 4, 2, 64, 64, 16, [64, 5], "i64", "", {}, "attention-key-tile=16"),
        (3, 8, 2, 1, 1500, 32, [700, 1499, 0], "i64", "causal", dict(causal=True), None),
        (2, 8, 2, 1, 1500, 64, [1300, 9000], "index", "causal window(<left = 511>)",
         dict(causal=True, window=(511, None)), None),
        (2, 4, 1, 2, 40, 32, [-3, 17], "i32", "causal", dict(causal=True),
         "attention-vector-width=8"),
    ]
    for B, Hq, Hkv, Sq, Sk, D, lengths, elem, clauses, kw, opts in cases:
        for extra in ("", "rope sinks"):
            q, k, v, types, args = local_inputs(rng, B, Hq, Hkv, Sq, Sk, D)
            inputs, pre, text, ref_kw = [q, k, v], "", clauses, dict(kw)
            lt = tensor((B,), elem)
            if elem == "index":
                pre += f"  %len = arith.constant dense<{lengths}> : {lt}\n"
            else:
                args.append(f"%len: {lt}")
                inputs.append(np.asarray(lengths, np.int32 if elem == "i32" else np.int64))
            text += f" key_lengths(%len : {lt})"
            if extra:
                inv64, rope_pre, rope_text = rope_clause(D)
                pre += rope_pre
                sinks = (math.log(Sk) + rng.uniform(-2, 2, Hq)).astype(np.float32)
                args.append(f"%s: {tensor(sinks.shape, 'f32')}")
                inputs.append(sinks)
                text += rope_text + f" sinks(%s : {tensor(sinks.shape, 'f32')})"
                ref_kw.update(inv_freq=inv64, rotary_dim=D, sinks=sinks)
            pipeline = f"posenc-cpu-pipeline{{{opts}}}" if opts else None
            (got,) = run(attention_module(args, pre, " " + text, types), inputs,
                         pipeline=pipeline)
            expect = ref.attention(*(x.astype(np.float64) for x in (q, k, v)),
                                   key_lengths=lengths, **ref_kw)
            err = np.abs(got - expect)
            check(f"attention key_lengths={lengths} ({elem}) B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} "
                  f"Sk={Sk} D={D} {clauses} {extra} {opts or ''}", bool(np.all(err <= 2e-5)),
                  f"max err {err.max():.3g}")


def rope_only_positions(rng, B, Sq, Sk, D, args, inputs, ref_kw):
    """HF after left padding: RoPE at position_ids with gaps, masks by index
    (rope_only_positions). Appends the position arguments and inputs and the
    reference keywords (the clauses under "_clauses"); returns the rope
    frequencies' prelude."""
    inv64, rope_pre, rope_text = rope_clause(D)
    kpos = np.cumsum(rng.integers(1, 3, size=(B, Sk)), axis=1) - 1
    qpos = np.ascontiguousarray(kpos[:, Sk - Sq:])
    qt, kt = tensor((B, Sq), "i64"), tensor((B, Sk), "i64")
    args += [f"%qp: {qt}", f"%kp: {kt}"]
    inputs += [qpos, kpos]
    ref_kw.update(inv_freq=inv64, rotary_dim=D, q_positions=qpos, k_positions=kpos,
                  rope_only_positions=True,
                  _clauses=(rope_text + f" q_positions(%qp : {qt}) k_positions(%kp : {kt})"
                            " rope_only_positions"))
    return rope_pre


def attention_key_mask(run, rng):
    """Issue 24's key_mask (HF's attention_mask, [B, Sk], 0 = padding):
    left padding under a causal mask (the padding queries' rows are fully
    masked and give 0), random holes in a prefill whose key tiles divide Sk
    and in one that ends in a partial tile, a split decode with one sequence
    fully masked, the dot-product decode loop; i1, i8, i32 and i64 masks,
    with RoPE, a window, sinks and key_lengths, with RoPE at positions with
    gaps that mask nothing (rope_only_positions), and with dynamic lengths;
    against the fp64 reference (tolerance 2e-5)."""
    cases = [
        # (B, Hq, Hkv, Sq, Sk, D, mask kind, elem, clauses, keywords, pipeline)
        (2, 8, 2, 16, 16, 32, "left", "i64", "causal", dict(causal=True), None),
        (2, 4, 2, 64, 64, 16, "holes", "i32", "", {}, "attention-key-tile=16"),
        (2, 4, 1, 50, 75, 32, "holes", "i8", "causal", dict(causal=True),
         "attention-key-tile=16"),
        (3, 8, 2, 1, 1500, 32, "decode", "i1", "causal", dict(causal=True), None),
        (2, 8, 2, 1, 1500, 64, "left", "i64", "causal window(<left = 511>)",
         dict(causal=True, window=(511, None)), None),
        (2, 4, 1, 2, 40, 32, "holes", "i1", "causal", dict(causal=True),
         "attention-vector-width=8"),
    ]
    np_types = {"i1": np.bool_, "i8": np.int8, "i32": np.int32, "i64": np.int64}
    for index, (B, Hq, Hkv, Sq, Sk, D, kind, elem, clauses, kw, opts) in enumerate(cases):
        # Dynamic lengths (q, k, v and the mask cast to `?`): a prefill that
        # ends in a partial key tile, a split decode.
        dynamic = ("dynamic",) if index in (2, 3) else ()
        for extra in ("", "rope sinks lengths", "rope_only_positions") + dynamic:
            q, k, v, types, args = local_inputs(rng, B, Hq, Hkv, Sq, Sk, D)
            mask = np.ones((B, Sk), np.int64)
            if kind == "left":    # HF's left padding: row b starts late
                for b in range(1, B):
                    mask[b, :int(rng.integers(1, Sk // 2))] = 0
            else:                 # any key may be padding
                mask = (rng.uniform(size=(B, Sk)) < 0.7).astype(np.int64)
            if kind == "decode":  # a sequence with no valid key
                mask[-1] = 0
            if elem != "i1":      # any nonzero value is a valid key
                mask *= rng.integers(1, 100, size=mask.shape)
            mask = mask.astype(np_types[elem])
            mt = tensor((B, Sk), elem)
            args.append(f"%m: {mt}")
            inputs, pre, text, ref_kw = [q, k, v, mask], "", clauses, dict(kw)
            if extra == "dynamic":
                dt = f"tensor<{B}x?x{elem}>"
                pre += f"  %md = tensor.cast %m : {mt} to {dt}\n"
                text += f" key_mask(%md : {dt})"
            else:
                text += f" key_mask(%m : {mt})"
            ref_kw.update(key_mask=mask)
            if extra == "rope_only_positions":
                pre += rope_only_positions(rng, B, Sq, Sk, D, args, inputs, ref_kw)
                text += ref_kw.pop("_clauses")
            elif extra == "rope sinks lengths":
                inv64, rope_pre, rope_text = rope_clause(D)
                pre += rope_pre
                sinks = (math.log(Sk) + rng.uniform(-2, 2, Hq)).astype(np.float32)
                lengths = rng.integers(Sk // 2, Sk + 2, size=B).astype(np.int32)
                args += [f"%s: {tensor(sinks.shape, 'f32')}", f"%len: {tensor((B,), 'i32')}"]
                inputs += [sinks, lengths]
                text += (rope_text + f" sinks(%s : {tensor(sinks.shape, 'f32')})"
                         f" key_lengths(%len : {tensor((B,), 'i32')})")
                ref_kw.update(inv_freq=inv64, rotary_dim=D, sinks=sinks, key_lengths=lengths)
            pipeline = f"posenc-cpu-pipeline{{{opts}}}" if opts else None
            build = dynamic_attention_module if extra == "dynamic" else attention_module
            (got,) = run(build(args, pre, " " + text, types), inputs, pipeline=pipeline)
            expect = ref.attention(*(x.astype(np.float64) for x in (q, k, v)), **ref_kw)
            err = np.abs(got - expect)
            check(f"attention key_mask={kind} ({elem}) B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} "
                  f"Sk={Sk} D={D} {clauses} {extra} {opts or ''}", bool(np.all(err <= 2e-5)),
                  f"max err {err.max():.3g}")


def attention_local(run, rng):
    """Issue 23's positional terms through the default pipeline: sliding
    windows (causal, bidirectional, decode over a long cache: the key loop
    starts inside the keys), chunks (boundaries inside query blocks), soft-
    capping (logits large enough to saturate tanh) and Llama 4's query
    temperature, alone and with RoPE, ALiBi, sinks, GQA and explicit
    positions, against the fp64 reference (tolerance 2e-5)."""
    cases = [
        # (B, Hq, Hkv, Sq, Sk, D, causal, clauses, reference keywords)
        (1, 8, 2, 70, 70, 32, True, "window(<left = 15>)", dict(window=(15, None))),
        (1, 4, 4, 33, 33, 16, False, "window(<left = 4, right = 6>)", dict(window=(4, 6))),
        (1, 8, 2, 1, 1500, 64, True, "window(<left = 127>)", dict(window=(127, None))),
        (2, 4, 1, 3, 700, 32, True, "window(<left = 0>)", dict(window=(0, None))),
        (1, 8, 2, 70, 90, 32, True, "chunk_size(16)", dict(chunk_size=16)),
        (1, 4, 2, 1, 1100, 32, True, "chunk_size(300)", dict(chunk_size=300)),
        (1, 8, 4, 40, 40, 64, True, "window(<left = 9>) softcap(5.0)",
         dict(window=(9, None), softcap=5.0)),
        (1, 8, 2, 20, 20, 32, True,
         "query_temperature(<floor_scale = 4.0, attn_scale = 0.5>)",
         dict(temperature=(4.0, 0.5))),
    ]
    for B, Hq, Hkv, Sq, Sk, D, causal, clauses, kw in cases:
        for extra in ("", "rope alibi sinks"):
            q, k, v, types, args = local_inputs(rng, B, Hq, Hkv, Sq, Sk, D)
            inputs, pre, text, ref_kw = [q, k, v], "", clauses, dict(kw)
            if causal:
                text = "causal " + text
            if extra:
                inv64, pre, rope_text = rope_clause(D)
                sinks = (math.log(Sk) + rng.uniform(-2, 2, Hq)).astype(np.float32)
                args.append(f"%s: {tensor(sinks.shape, 'f32')}")
                inputs.append(sinks)
                text += rope_text + f" alibi(<num_heads = {Hq}>) sinks(%s : {tensor(sinks.shape, 'f32')})"
                ref_kw.update(inv_freq=inv64, rotary_dim=D, alibi_slopes=ref.alibi_slopes(Hq),
                              sinks=sinks)
            (got,) = run(attention_module(args, pre, " " + text, types), inputs)
            expect = ref.attention(*(x.astype(np.float64) for x in (q, k, v)), causal=causal,
                                   **ref_kw)
            err = np.abs(got - expect)
            check(f"attention local B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} Sk={Sk} D={D} "
                  f"causal={causal} {clauses} {extra}", bool(np.all(err <= 2e-5)),
                  f"max err {err.max():.3g}")
    # Decode split into key chunks of 512 with key tiles of 5, a window wider
    # than the keys: chunk 1's loop began at 512 rounded down to a tile, 510,
    # inside chunk 0, and counted keys 510-511 twice (found by the harness,
    # 5151:1244).
    q = rng.uniform(-2, 2, (1, 4, 1, 16)).astype(np.float32)
    k = rng.uniform(-2, 2, (1, 2, 1543, 16)).astype(np.float32)
    v = rng.uniform(-1, 1, (1, 2, 1543, 16)).astype(np.float32)
    types = [tensor(x.shape, "f32") for x in (q, k, v, q)]
    module = attention_module([f"%q: {types[0]}", f"%k: {types[1]}", f"%v: {types[2]}"], "",
                              " causal window(<left = 2000>)", types)
    (got,) = run(module, [q, k, v],
                 pipeline="posenc-cpu-pipeline{attention-key-tile=5 attention-vector-width=0}")
    err = np.abs(got - ref.attention(q, k, v, causal=True, window=(2000, None)))
    check("attention local split keys, key tile 5, chunks off the tile grid",
          bool(np.all(err <= 2e-5)), f"max err {err.max():.3g}")


def attention_pair(run, rng):
    """Two attentions in one function (issue 21's D9): a decode-chunked one,
    then a 1-key one whose zero accumulator CSE shares with the first's.
    Upstream bufferization took the second's first row write for a full
    overwrite and dropped the copy of the zeros (docs/testing.md D9); the
    rows it then read were the first attention's freed scratch."""
    shapes = [((1, 2, 4, 15), (1, 1, 4097, 15)), ((1, 9, 1, 40), (1, 3, 1, 40))]
    inputs, types = [], []
    for qs, ks in shapes:
        inputs += [rng.uniform(-1, 1, s).astype(np.float32) for s in (qs, ks, ks)]
        types += [tensor(s, "f32") for s in (qs, ks, ks)]
    args = ", ".join(f"%{n}{i}: {types[3 * i + j]}"
                     for i in range(2) for j, n in enumerate("qkv"))
    module = (f"func.func @att({args}) -> ({types[0]}, {types[3]}) {{\n"
              f"  %o0 = posenc.attention %q0, %k0, %v0 causal : {', '.join(types[:3])} -> {types[0]}\n"
              f"  %o1 = posenc.attention %q1, %k1, %v1 : {', '.join(types[3:])} -> {types[3]}\n"
              f"  return %o0, %o1 : {types[0]}, {types[3]}\n}}\n")
    pipeline = ("posenc-cpu-pipeline{vector-width=4 block-elements=33 flash-attention=true "
                "attention-query-tile=3 attention-key-tile=1 attention-vector-width=8}")
    got = run(module, inputs, pipeline=pipeline)
    for i, causal in enumerate((True, False)):
        q, k, v = inputs[3 * i:3 * i + 3]
        err = np.abs(got[i] - ref.attention(q, k, v, causal=causal))
        check(f"attention pair op {i} causal={causal}", bool(np.all(err <= 2e-5)),
              f"max err {err.max():.3g}")


def rope_clause(D):
    """fp64 inverse frequencies (base 1e4), the op computing them and the
    attention's rope clause."""
    inv64, _ = ref.inv_freq(D, 1e4)
    pre = f"  %inv, %af = posenc.rope_frequencies dim {D} base 1.0e4 : tensor<{D // 2}xf64>, f32\n"
    return inv64, pre, f" rope(<layout = half_split, rotary_dim = {D}>, %inv : tensor<{D // 2}xf64>)"


def attention_module(args, pre, clauses, types):
    """func @att(args) holding `pre` and one posenc.attention with `clauses`;
    types: those of q, k, v and the result."""
    tq, tk, tv, to = types
    return (f"func.func @att({', '.join(args)}) -> {to} {{\n{pre}"
            f"  %o = posenc.attention %q, %k, %v{clauses} : {tq}, {tk}, {tv} -> {to}\n"
            f"  return %o : {to}\n}}\n")


def dynamic_attention_module(args, pre, clauses, types):
    """attention_module with q, k, v and the result cast to dynamic sequence
    lengths (the documented way to run dynamic lengths with static inputs)."""
    def dynamic(t):
        dims = t[len("tensor<"):-1].split("x")
        dims[2] = "?"
        return "tensor<" + "x".join(dims) + ">"
    tq, tk, tv, to = types
    renamed = [a.replace("%q:", "%q0:").replace("%k:", "%k0:").replace("%v:", "%v0:")
               for a in args]
    casts = "".join(f"  %{n} = tensor.cast %{n}0 : {t} to {dynamic(t)}\n"
                    for n, t in (("q", tq), ("k", tk), ("v", tv)))
    return (f"func.func @att({', '.join(renamed)}) -> {to} {{\n{casts}{pre}"
            f"  %od = posenc.attention %q, %k, %v{clauses} : {dynamic(tq)}, {dynamic(tk)}, "
            f"{dynamic(tv)} -> {dynamic(to)}\n"
            f"  %o = tensor.cast %od : {dynamic(to)} to {to}\n"
            f"  return %o : {to}\n}}\n")


# ----------------------------------------------------------------------------
def group_attention_sinks(run, rng):
    """gpt-oss attention sinks through both lowerings: the flash loop nest
    (posenc-run's default pipeline; decode shapes with Sk > 512 split the keys
    into chunks and combine them) and the reference decomposition
    (flash-attention=false); the same shapes without sinks as controls.
    Sinks are log(Sk) + U(-2, 2), so that the sink takes 10-90% of a row's
    weight; head 0 has a -inf sink (no sink) and head 1 a dominating one."""
    U = 2.0 ** -24
    cases = [
        # (B, Hq, Hkv, Sq, Sk, D, Dv, causal, elem, sinks, extra clauses)
        (1, 8, 2, 7, 13, 32, 32, True, "f32", True, ""),             # GQA prefill
        (2, 6, 6, 5, 9, 16, 16, False, "f32", True, "rope alibi"),   # MHA, RoPE + ALiBi
        (1, 8, 2, 1, 700, 64, 64, True, "f32", True, ""),            # decode, 2 key chunks
        (1, 8, 2, 1, 700, 64, 64, True, "f32", False, ""),           # same, no sinks
        (1, 12, 4, 2, 1100, 32, 48, False, "f32", True, ""),         # decode, 3 chunks, GQA 3
        (1, 8, 2, 1, 1100, 64, 64, False, "bf16", True, ""),         # decode bf16, 3 chunks
        (1, 8, 2, 1, 1100, 64, 64, False, "bf16", False, ""),        # same, no sinks
        (1, 8, 2, 16, 600, 32, 32, True, "f32", True, ""),           # G*Sq > 16: one key loop
        (1, 4, 4, 9, 6, 32, 16, True, "bf16", True, ""),             # Sq > Sk: masked rows
        (1, 4, 2, 6, 6, 32, 32, True, "bf16", False, ""),
        # Dynamic lengths entered through tensor.cast (issue 22 item 1: group
        # size 1 with sinks was rejected by a [1, ?] -> [?, 1] cast).
        (1, 1, 1, 8, 8, 16, 16, True, "f32", True, "dynamic"),
        (1, 4, 4, 7, 13, 32, 32, True, "f32", True, "dynamic"),
        (1, 6, 2, 5, 9, 16, 16, False, "f32", True, "dynamic"),
    ]
    pipelines = (("flash", None), ("reference", "posenc-cpu-pipeline{flash-attention=false}"))
    for B, Hq, Hkv, Sq, Sk, D, Dv, causal, elem, with_sinks, extra in cases:
        q_in, q = as_input(rng.uniform(-1, 1, (B, Hq, Sq, D)), elem)
        k_in, k = as_input(rng.uniform(-1, 1, (B, Hkv, Sk, D)), elem)
        v_in, v = as_input(rng.uniform(-1, 1, (B, Hkv, Sk, Dv)), elem)
        tq, tk, tv, to = (tensor((B, Hq, Sq, D), elem), tensor((B, Hkv, Sk, D), elem),
                          tensor((B, Hkv, Sk, Dv), elem), tensor((B, Hq, Sq, Dv), elem))
        args = [f"%q: {tq}", f"%k: {tk}", f"%v: {tv}"]
        inputs = [q_in, k_in, v_in]
        clauses, pre = " causal" if causal else "", ""
        inv64, sinks = None, None
        if "rope" in extra:
            inv64, pre, rope_text = rope_clause(D)
            clauses += rope_text
        if "alibi" in extra:
            clauses += f" alibi(<num_heads = {Hq}>)"
        if with_sinks:
            sinks = (np.log(Sk) + rng.uniform(-2, 2, Hq)).astype(np.float32)
            if Hq > 1:
                sinks[0], sinks[1] = -np.inf, np.log(Sk) + 12.0
            args.append(f"%s: tensor<{Hq}xf32>")
            inputs.append(sinks)
            clauses += f" sinks(%s : tensor<{Hq}xf32>)"
        if "dynamic" in extra:
            module = dynamic_attention_module(args, pre, clauses, (tq, tk, tv, to))
        else:
            module = attention_module(args, pre, clauses, (tq, tk, tv, to))
        expect = ref.attention(q, k, v, causal=causal, inv_freq=inv64,
                               rotary_dim=D if inv64 is not None else None,
                               alibi_slopes=ref.alibi_slopes(Hq) if "alibi" in extra else None,
                               sinks=None if sinks is None else sinks.astype(np.float64))
        # f32 accumulation over Sk keys (+ the sink), then one output rounding.
        tol = 2e-5 + (2 * Sk + 8) * U + (EPS[elem] * np.abs(expect) if elem != "f32" else 0.0)
        split = Hq // Hkv * Sq <= 16 and Sk > 512
        for name, pipeline in pipelines:
            (y,) = run(module, inputs, pipeline=pipeline)
            err = np.abs(as_output(y, elem) - expect)
            tol_run = tol + (p_rounding(elem, v) if pipeline is None else 0.0)
            check(f"attention {name} sinks={with_sinks} {elem} B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} "
                  f"Sk={Sk} causal={causal}{' split-keys' if split and name == 'flash' else ''}"
                  f"{' ' + extra if extra else ''}", bool(np.all(err <= tol_run)),
                  f"max err {err.max():.3g}, max err/tol {(err / tol_run).max():.3g}")


# ----------------------------------------------------------------------------
def group_attention_gpu(run, rng):
    """Shapes that exercise the GPU flash kernel's tiling (posenc-attention-
    to-gpu; the other attention groups run through it too): GQA 32/8 and odd
    groups (3, 5, 7), Sq != Sk both ways, more keys than one key tile,
    decode at an offset (explicit query positions), dynamic lengths, YaRN
    with a partial interleaved rotary (attention factor), ALiBi, sinks,
    key_lengths, key_mask, bf16 and f16. Tolerances as attention-sinks'."""
    U = 2.0 ** -24
    cases = [
        # (B, Hq, Hkv, Sq, Sk, D, Dv, causal, elem, extra)
        (1, 32, 8, 20, 20, 64, 64, True, "f32", "rope"),          # GQA 32/8 prefill
        (1, 12, 4, 7, 150, 32, 32, True, "f32", "rope"),          # G=3, Sq < Sk, 3 key tiles
        (1, 20, 4, 40, 33, 16, 24, True, "bf16", "alibi"),        # G=5, Sq > Sk: masked rows
        (2, 28, 4, 1, 77, 64, 64, True, "f32", "decode"),         # G=7 decode at an offset
        (1, 32, 8, 1, 300, 128, 128, True, "bf16", "decode"),     # Llama decode, bf16
        (1, 8, 2, 9, 70, 64, 64, True, "f32", "yarn"),            # YaRN, partial interleaved
        (1, 8, 2, 5, 40, 32, 32, False, "f16", "sinks alibi"),
        (2, 4, 4, 17, 17, 48, 40, True, "bf16", "rope dynamic"),  # dynamic Sq, Sk
        (1, 8, 1, 33, 65, 96, 80, False, "f32", "rope sinks"),    # MQA, Dv != D
        # Tensor cores: D, Dv not multiples of the mma's 16 and 8 (padded).
        (1, 6, 3, 11, 45, 40, 20, True, "f16", "rope"),
        (1, 9, 3, 35, 200, 64, 64, False, "bf16", "alibi"),       # G=3: 48-row tiles
        # key_lengths: a length inside a key tile, one past Sk, one of 0.
        (3, 8, 2, 20, 70, 32, 32, True, "f16", "rope lengths"),
        (2, 8, 4, 6, 90, 64, 64, False, "f32", "sinks lengths"),
        # key_mask: left padding (fully masked rows) and holes; i64 and i1.
        (2, 8, 2, 20, 20, 32, 32, True, "f16", "rope keymask"),
        (2, 4, 2, 9, 70, 64, 64, False, "f32", "sinks keymask"),
    ]
    for B, Hq, Hkv, Sq, Sk, D, Dv, causal, elem, extra in cases:
        q_in, q = as_input(rng.uniform(-1, 1, (B, Hq, Sq, D)), elem)
        k_in, k = as_input(rng.uniform(-1, 1, (B, Hkv, Sk, D)), elem)
        v_in, v = as_input(rng.uniform(-1, 1, (B, Hkv, Sk, Dv)), elem)
        tq, tk, tv, to = (tensor((B, Hq, Sq, D), elem), tensor((B, Hkv, Sk, D), elem),
                          tensor((B, Hkv, Sk, Dv), elem), tensor((B, Hq, Sq, Dv), elem))
        args = [f"%q: {tq}", f"%k: {tk}", f"%v: {tv}"]
        # Dynamic lengths inside the function (posenc-run's buffers are static).
        cast_in, cast_out, ret = "", "", "%o"
        operands, types = "%q, %k, %v", (tq, tk, tv, to)
        if "dynamic" in extra:
            dq, dk, dv, do = (tensor((B, Hq, "?", D), elem), tensor((B, Hkv, "?", D), elem),
                              tensor((B, Hkv, "?", Dv), elem), tensor((B, Hq, "?", Dv), elem))
            cast_in = "".join(f"  %{n}d = tensor.cast %{n} : {t} to {dt}\n"
                              for n, t, dt in (("q", tq, dq), ("k", tk, dk), ("v", tv, dv)))
            cast_out = f"  %os = tensor.cast %o : {do} to {to}\n"
            operands, types, ret = "%qd, %kd, %vd", (dq, dk, dv, do), "%os"
        inputs = [q_in, k_in, v_in]
        clauses, pre = " causal" if causal else "", ""
        kw = {}
        if "rope" in extra or "decode" in extra:
            inv64, pre, rope_text = rope_clause(D)
            clauses += rope_text
            kw.update(inv_freq=inv64, rotary_dim=D)
        if "yarn" in extra:
            d = D // 2
            inv64, af = ref.inv_freq(d, 1e4, "yarn", factor=4.0,
                                     original_max_position_embeddings=64)
            pre = (f"  %inv, %af = posenc.rope_frequencies dim {d} base 1.0e4 scaling("
                   f"#posenc.yarn<factor = 4.0, original_max_position_embeddings = 64>)"
                   f" : tensor<{d // 2}xf64>, f32\n")
            clauses += (f" rope(<layout = interleaved, rotary_dim = {d}>, %inv : tensor<{d // 2}xf64>,"
                        f" %af)")
            kw.update(inv_freq=inv64, rotary_dim=d, rope_layout="interleaved",
                      attention_factor=af)
        if "decode" in extra:
            qpos = rng.integers(Sk - 1, 4 * Sk, size=(B, Sq)).astype(np.int64)
            args.append(f"%p: tensor<{B}x{Sq}xi64>")
            inputs.append(qpos)
            clauses += f" q_positions(%p : tensor<{B}x{Sq}xi64>)"
            kw.update(q_positions=qpos)
        if "alibi" in extra:
            clauses += f" alibi(<num_heads = {Hq}>)"
            kw.update(alibi_slopes=ref.alibi_slopes(Hq))
        if "sinks" in extra:
            sinks = (np.log(Sk) + rng.uniform(-2, 2, Hq)).astype(np.float32)
            sinks[0] = -np.inf
            args.append(f"%s: tensor<{Hq}xf32>")
            inputs.append(sinks)
            clauses += f" sinks(%s : tensor<{Hq}xf32>)"
            kw.update(sinks=sinks.astype(np.float64))
        if "lengths" in extra:
            lengths = np.array([37, Sk + 5, 0][:B], np.int32)
            args.append(f"%len: tensor<{B}xi32>")
            inputs.append(lengths)
            clauses += f" key_lengths(%len : tensor<{B}xi32>)"
            kw.update(key_lengths=lengths)
        if "keymask" in extra:
            mask = np.ones((B, Sk), np.int64)
            if causal:  # left padding
                mask[1, :7] = 0
                mt, kmask = f"tensor<{B}x{Sk}xi64>", mask
            else:       # holes
                mask = rng.uniform(size=(B, Sk)) < 0.6
                mt, kmask = f"tensor<{B}x{Sk}xi1>", mask
            args.append(f"%m: {mt}")
            inputs.append(kmask)
            clauses += f" key_mask(%m : {mt})"
            kw.update(key_mask=kmask)
        module = (f"func.func @att({', '.join(args)}) -> {to} {{\n{pre}{cast_in}"
                  f"  %o = posenc.attention {operands}{clauses} : {', '.join(types[:3])}"
                  f" -> {types[3]}\n{cast_out}  return {ret} : {to}\n}}\n")
        if elem != "f32" and "inv_freq" in kw:
            # 16-bit Q and K are rotated in f32 and rounded to their type (as
            # posenc.rotary's result is, on the CPU too): the reference rotates
            # in fp64 and rounds the same way.
            qpos = kw.pop("q_positions", None)
            if qpos is None:
                qpos = np.arange(Sq, dtype=np.int64) + (Sk - Sq)
            rot = dict(inv_freq=kw.pop("inv_freq"), rotary_dim=kw.pop("rotary_dim"),
                       attention_factor=kw.pop("attention_factor", 1.0),
                       layout=kw.pop("rope_layout", "half_split"))
            q = as_input(ref.rotary(q, qpos, **rot), elem)[1]
            k = as_input(ref.rotary(k, np.arange(Sk, dtype=np.int64), **rot), elem)[1]
            if "q_positions" in clauses:
                kw.update(q_positions=qpos)
        expect = ref.attention(q, k, v, causal=causal, **kw)
        tol = (2e-5 + (2 * Sk + 8) * U + (EPS[elem] * np.abs(expect) if elem != "f32" else 0.0)
               + p_rounding(elem, v))
        (y,) = run(module, inputs)
        err = np.abs(as_output(y, elem) - expect)
        check(f"attention-gpu {elem} B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} Sk={Sk} D={D} Dv={Dv} "
              f"causal={causal} {extra}", bool(np.all(err <= tol)),
              f"max err {err.max():.3g}, max err/tol {(err / tol).max():.3g}")


# ----------------------------------------------------------------------------
def group_attention_bf16_dot(run, rng):
    """bf16 decode through the dot-product key loop with AVX-512 BF16 dot
    products (attention-bf16-dot-products=true): vdpbf16ps sums pairs of
    exact bf16 products in f32, so the error is that of f32 accumulation plus
    the output's rounding, as with f32 FMAs (tolerance of the sinks group).
    Head dims of 1, 2 and 4 dot products of 32 channels (and 8 lanes: 16),
    GQA 4 and 3, MHA, key counts that leave partial key tiles and chunks,
    RoPE in the kernel at a KV offset, ALiBi, sinks."""
    U = 2.0 ** -24
    cases = [
        # (B, Hq, Hkv, Sq, Sk, D, Dv, causal, extra, lanes)
        (1, 32, 8, 1, 2053, 128, 128, True, "rope", 16),  # Llama decode, split keys
        (1, 8, 8, 1, 300, 64, 64, False, "alibi", 16),    # MHA, one chunk
        (2, 12, 4, 1, 777, 32, 48, True, "sinks", 16),    # G = 3, Dv != D
        (1, 8, 2, 2, 100, 64, 64, True, "rope", 16),      # 2 tokens, partial tile
        (1, 4, 1, 1, 513, 128, 128, False, "", 8),        # 8 lanes (ymm)
    ]
    for B, Hq, Hkv, Sq, Sk, D, Dv, causal, extra, lanes in cases:
        q_in, q = as_input(rng.uniform(-1, 1, (B, Hq, Sq, D)), "bf16")
        k_in, k = as_input(rng.uniform(-1, 1, (B, Hkv, Sk, D)), "bf16")
        v_in, v = as_input(rng.uniform(-1, 1, (B, Hkv, Sk, Dv)), "bf16")
        tq, tk, tv, to = (tensor((B, Hq, Sq, D), "bf16"), tensor((B, Hkv, Sk, D), "bf16"),
                          tensor((B, Hkv, Sk, Dv), "bf16"), tensor((B, Hq, Sq, Dv), "bf16"))
        args = [f"%q: {tq}", f"%k: {tk}", f"%v: {tv}"]
        inputs = [q_in, k_in, v_in]
        clauses, pre = " causal" if causal else "", ""
        inv64, sinks = None, None
        if extra == "rope":
            inv64, pre, rope_text = rope_clause(D)
            clauses += rope_text
        if extra == "alibi":
            clauses += f" alibi(<num_heads = {Hq}>)"
        if extra == "sinks":
            sinks = (np.log(Sk) + rng.uniform(-2, 2, Hq)).astype(np.float32)
            args.append(f"%s: tensor<{Hq}xf32>")
            inputs.append(sinks)
            clauses += f" sinks(%s : tensor<{Hq}xf32>)"
        module = attention_module(args, pre, clauses, (tq, tk, tv, to))
        shift = 0.0
        qx, kx = q, k
        if inv64 is not None:
            # The kernel dots q and k rotated in f32 and rounded to bf16 (the
            # rotary's result type, as HF rotates bf16 tensors): the
            # reference rotates in fp64 and rounds the same way. The f32
            # rotation may round an element near a bf16 midpoint the other
            # way (one ulp, at most 2^-7 of it); allowing two such per logit
            # moves it by 2 * 2^-7 * scale * max|q| max|k|, an output by
            # twice that times max|v|.
            qx = as_input(ref.rotary(q, np.arange(Sk - Sq, Sk), inv64, token_axis=2), "bf16")[1]
            kx = as_input(ref.rotary(k, np.arange(Sk), inv64, token_axis=2), "bf16")[1]
            moved = 2 * 2.0 ** -7 * D ** -0.5 * np.abs(qx).max() * np.abs(kx).max()
            shift = 2.0 * moved * np.abs(v).max()
        expect = ref.attention(qx, kx, v, causal=causal,
                               alibi_slopes=ref.alibi_slopes(Hq) if extra == "alibi" else None,
                               sinks=None if sinks is None else sinks.astype(np.float64))
        tol = 2e-5 + (2 * Sk + 8) * U + EPS["bf16"] * np.abs(expect) + shift
        pipeline = (f"posenc-cpu-pipeline{{attention-vector-width={lanes} "
                    f"attention-bf16-dot-products=true}}")
        (y,) = run(module, inputs, pipeline=pipeline)
        err = np.abs(as_output(y, "bf16") - expect)
        check(f"attention-bf16-dot B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} Sk={Sk} D={D} Dv={Dv} "
              f"causal={causal} lanes={lanes}{' ' + extra if extra else ''}",
              bool(np.all(err <= tol)),
              f"max err {err.max():.3g}, max err/tol {(err / tol).max():.3g}")


# ----------------------------------------------------------------------------
def group_semi_affine(run, rng):
    """linalg input with GQA as a `h floordiv G` map (what importers and older
    posenc emitted): tiling must not split such a dim at offsets that are not
    multiples of G. Block sizes are chosen so blocks of heads straddle groups
    (e.g. 2 heads of a group of 3)."""
    for B, Hq, Hkv, S, D, blocks in [(1, 12, 4, 16, 32, 1024), (2, 20, 4, 7, 24, 300),
                                     (1, 24, 8, 5, 16, 100), (1, 14, 2, 9, 8, 243)]:
        G = Hq // Hkv
        q = rng.uniform(-1, 1, (B, Hq, S, D)).astype(np.float32)
        k = rng.uniform(-1, 1, (B, Hkv, S, D)).astype(np.float32)
        tq, tk = f"tensor<{B}x{Hq}x{S}x{D}xf32>", f"tensor<{B}x{Hkv}x{S}x{D}xf32>"
        ts = f"tensor<{B}x{Hq}x{S}x{S}xf32>"
        module = (
            f"#q = affine_map<(b, h, i, j, r) -> (b, h, i, r)>\n"
            f"#k = affine_map<(b, h, i, j, r) -> (b, h floordiv {G}, j, r)>\n"
            f"#s = affine_map<(b, h, i, j, r) -> (b, h, i, j)>\n"
            f"#id = affine_map<(b, h, i, j) -> (b, h, i, j)>\n"
            f"func.func @gqa(%q: {tq}, %k: {tk}) -> {ts} {{\n"
            f"  %zero = arith.constant 0.0 : f32\n"
            f"  %e = tensor.empty() : {ts}\n"
            f"  %init = linalg.fill ins(%zero : f32) outs(%e : {ts}) -> {ts}\n"
            f"  %s = linalg.generic {{indexing_maps = [#q, #k, #s], iterator_types = [\"parallel\", "
            f"\"parallel\", \"parallel\", \"parallel\", \"reduction\"]}} ins(%q, %k : {tq}, {tk}) "
            f"outs(%init : {ts}) {{\n"
            f"  ^bb0(%a: f32, %b: f32, %c: f32):\n"
            f"    %m = arith.mulf %a, %b : f32\n    %r = arith.addf %c, %m : f32\n"
            f"    linalg.yield %r : f32\n  }} -> {ts}\n"
            f"  %e2 = tensor.empty() : {ts}\n"
            f"  %o = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", "
            f"\"parallel\", \"parallel\", \"parallel\"]}} ins(%s : {ts}) outs(%e2 : {ts}) {{\n"
            f"  ^bb0(%a: f32, %c: f32):\n    %n = arith.negf %a : f32\n    linalg.yield %n : f32\n"
            f"  }} -> {ts}\n  return %o : {ts}\n}}\n")
        pipeline = f"posenc-cpu-pipeline{{block-elements={blocks} vector-width=8}}"
        (got,) = run(module, [q, k], pipeline=pipeline)
        kk = np.repeat(k.astype(np.float64), G, axis=1)
        expect = -np.einsum("bhid,bhjd->bhij", q.astype(np.float64), kk)
        err = np.abs(got - expect)
        tol = 4e-6 * D
        check(f"linalg h floordiv {G} (Hq={Hq} Hkv={Hkv} S={S} D={D}) block-elements={blocks}",
              bool(np.all(err <= tol)), f"max err {err.max():.3g}, tol {tol:.3g}")


GROUPS = {
    "rotary": group_rotary, "schemes": group_schemes,
    "runtime-frequencies": group_runtime_frequencies, "alibi": group_alibi,
    "sinusoidal": group_sinusoidal, "learned": group_learned, "mrope": group_mrope,
    "long-angle": group_long_angle, "attention": group_attention,
    "attention-sinks": group_attention_sinks, "attention-gpu": group_attention_gpu,
    # Named to sort last: a group's seed is its index in sorted(GROUPS).
    "x86-bf16-dot": group_attention_bf16_dot,
    "semi-affine": group_semi_affine,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("posenc_run")
    ap.add_argument("group", choices=sorted(GROUPS))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--pipeline", default=None,
                    help="pipeline of the cases that do not name one (default: posenc-run's)")
    ap.add_argument("--gpu", action="store_true",
                    help="run every case on the CUDA device (posenc-run --gpu, its default GPU "
                         "pipeline or --pipeline; cases that name a CPU pipeline take it too)")
    ap.add_argument("--gpu-dry-run", action="store_true",
                    help="compile and link every case for the GPU (posenc-run --gpu --dry-run, "
                         "no device needed), then check its numerics through --pipeline")
    args = ap.parse_args()
    global P_ROUNDED
    P_ROUNDED = args.gpu or ("posenc-gpu-pipeline" in (args.pipeline or "")
                             and "tensor-cores=false" not in args.pipeline)
    rng = np.random.default_rng([args.seed, sorted(GROUPS).index(args.group)])
    compiled, rejected = 0, 0

    def run(module, inputs, pipeline=None):
        nonlocal compiled, rejected
        if args.gpu:
            return pe.run(args.posenc_run, module, inputs, pipeline=args.pipeline,
                          extra=["--gpu"])
        if args.gpu_dry_run:
            # posenc-run's checks of the host code (it may only launch) and of
            # the runtime functions it imports reject a module here.
            try:
                pe.run(args.posenc_run, module, [], extra=["--gpu", "--dry-run"])
                compiled += 1
            except RuntimeError as e:
                rejected += 1
                print("GPU-REJECTED " + str(e).strip().splitlines()[-1])
        return pe.run(args.posenc_run, module, inputs, pipeline=pipeline or args.pipeline,
                      threads=args.threads, extra=["--poison-allocations"])

    GROUPS[args.group](run, rng)
    if args.gpu_dry_run:
        print(f"{compiled} compiled for the GPU, {rejected} rejected")
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
