"""posenc's own flash kernels inside IREE (scripts/posenc_iree_kernels.py):
each posenc.attention becomes an IREE dispatch of the kernel that
posenc-cpu-pipeline{workgroups} compiles, linked as an object into IREE's
embedded ELF; the rest of the module goes through posenc-to-linalg-pipeline.
Run by IREE's runtime (local-task) against the independent fp64 NumPy
reference (test/lib/posenc_ref.py), on seeded random inputs.

Usage: iree_kernels.py POSENC_OPT [--seed S]
Prints one line per case and ends with "N passed, N failed".

Each case also checks the module handed to IREE: no posenc op and no
linalg attention left, one flow.dispatch per attention. Small tiles
(attention-query-tile=16 attention-key-tile=16) make blocks, key loops,
causal clamps and partial tiles appear at small shapes; the workgroup count
(3) is smaller than the number of blocks, so that workgroups run several.

Tolerance: f32 outputs, absolute, 4e-6 * max(1, max|reference|) (f32 dot
products and an online softmax, as in iree_flash_attention.py); bf16 and
f16 outputs: one final rounding, 2^-8 (bf16) or 2^-11 (f16) of
max|reference| plus 1e-6.

Then 10 seeded random cases: batch, heads, groups, lengths (Sq <= Sk), head
dim, causal, ALiBi, sinks, a padding mask, tiles and workgroup counts
drawn.

A decode step over 300 keys runs unsplit; over 2048 keys it is split into
chunks whose partial results the kernel's second phase combines (a second
dispatch of one workgroup). Dynamic shapes are refused with the script's
message.
"""

import argparse
import os
import re
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import posenc_iree as pi  # noqa: E402
import posenc_iree_kernels as pk  # noqa: E402
import posenc_ref as ref  # noqa: E402

RESULTS = pi.Results()
TILES = "attention-query-tile=16 attention-key-tile=16"


def check(name, got, want, tol=None):
    RESULTS.check(name, got, want, tol)


def compile_module(ctx, name, src, attentions=1, combines=0):
    host = pk.convert(src, os.path.join(ctx.tmp, name), build=ctx.build, workgroups=3,
                      pipeline_options=TILES)
    if re.search(r'"posenc\.\w+"\(', host):
        raise RuntimeError("a posenc op is left in the host module")
    if len(re.findall(r"flow\.dispatch @(posenc_attention_\d+)_executable::@\1\[", host)) != attentions:
        raise RuntimeError("expected one dispatch per attention")
    if len(re.findall(r"flow\.dispatch @(posenc_attention_\d+)_executable::@\1_combine\[",
                      host)) != combines:
        raise RuntimeError(f"expected {combines} combine dispatch(es)")
    if "linalg.softmax" in host or "math.exp" in host:
        raise RuntimeError("an attention was lowered to linalg")
    return pi.Module(pi.compile_with_iree(host))


def normal(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def ty(shape, elem="f32"):
    return "tensor<" + "x".join(map(str, shape)) + f"x{elem}>"


def gqa_odd_groups_rope_causal(ctx, rng):
    # GQA 15/5 (groups of 3), S = 37 (partial query and key tiles), D = 24,
    # RoPE llama3 (f64 frequencies), causal, two sequences.
    b, hq, hkv, s, d = 2, 15, 5, 37, 24
    q, k = ty((b, hq, s, d)), ty((b, hkv, s, d))
    src = pi.llama3_rope_attention(q, k, d)
    qa, ka, va = normal(rng, b, hq, s, d), normal(rng, b, hkv, s, d), normal(rng, b, hkv, s, d)
    got = compile_module(ctx, "gqa", src)("f", qa, ka, va)[0]
    inv, af = ref.inv_freq(d, 500000.0, "llama3", factor=8.0,
                           original_max_position_embeddings=8192)
    check("gqa_odd_groups_rope_causal", got,
          ref.attention(qa, ka, va, causal=True, inv_freq=inv, attention_factor=af))


def alibi_kv_offset(ctx, rng):
    # ALiBi, causal, 20 queries after 30 cached keys (Sq < Sk: the queries
    # sit at positions 30..49), MHA 6/6.
    hq, sq, sk, d = 6, 20, 50, 32
    q, k = ty((1, hq, sq, d)), ty((1, hq, sk, d))
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}) -> {q} {{
  %o = posenc.attention %q, %k, %v causal alibi(<num_heads = {hq}>) : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    qa, ka, va = normal(rng, 1, hq, sq, d), normal(rng, 1, hq, sk, d), normal(rng, 1, hq, sk, d)
    got = compile_module(ctx, "alibi", src)("f", qa, ka, va)[0]
    check("alibi_kv_offset", got,
          ref.attention(qa, ka, va, causal=True, alibi_slopes=ref.alibi_slopes(hq)))


def sinks_and_padding(ctx, rng, name, b, hq, hkv, sq, sk, d, padded, combines=0):
    # gpt-oss sinks and HF's attention_mask (the second sequence left-padded
    # by `padded` keys), causal.
    q, k = ty((b, hq, sq, d)), ty((b, hkv, sk, d))
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}, %s: tensor<{hq}xf32>, %m: tensor<{b}x{sk}xi32>) -> {q} {{
  %o = posenc.attention %q, %k, %v causal sinks(%s : tensor<{hq}xf32>)
      key_mask(%m : tensor<{b}x{sk}xi32>) : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    qa, ka, va = normal(rng, b, hq, sq, d), normal(rng, b, hkv, sk, d), normal(rng, b, hkv, sk, d)
    sinks = (rng.standard_normal(hq) * 2).astype(np.float32)
    mask = np.ones((b, sk), np.int32)
    mask[1, :padded] = 0
    got = compile_module(ctx, name, src, combines=combines)("f", qa, ka, va, sinks, mask)[0]
    check(name, got, ref.attention(qa, ka, va, causal=True, sinks=sinks, key_mask=mask))


def sinks_padding_mask(ctx, rng):
    # GQA 8/2 over two sequences of 29 tokens, the second padded by 5.
    sinks_and_padding(ctx, rng, "sinks_padding_mask", 2, 8, 2, 29, 29, 16, 5)


def decode(ctx, rng, name, sk):
    # One query over sk keys, GQA 8/2, causal (the query at the last
    # position). More than 512 keys are split into chunks (batch x kv head x
    # chunk iterations, their partial results in the shared scratch), combined
    # by a second dispatch of one workgroup.
    hq, hkv, d = 8, 2, 64
    q, k = ty((1, hq, 1, d)), ty((1, hkv, sk, d))
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}) -> {q} {{
  %o = posenc.attention %q, %k, %v causal : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    qa, ka, va = normal(rng, 1, hq, 1, d), normal(rng, 1, hkv, sk, d), normal(rng, 1, hkv, sk, d)
    got = compile_module(ctx, name, src, combines=int(sk > 512))("f", qa, ka, va)[0]
    check(name, got, ref.attention(qa, ka, va, causal=True))


def decode_split_features(ctx, rng):
    # Split decode keys with what the combine must honour: two sequences,
    # GQA 6/2, 2 query rows after 1098 cached keys (3 chunks, the last
    # partial), causal, sinks, the second sequence padded by 100 keys; then
    # ALiBi over 777 keys.
    sinks_and_padding(ctx, rng, "decode_split_sinks_padding", 2, 6, 2, 2, 1100, 32, 100,
                      combines=1)
    h, sk, d = 4, 777, 32
    q, k = ty((1, h, 1, d)), ty((1, h, sk, d))
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}) -> {q} {{
  %o = posenc.attention %q, %k, %v causal alibi(<num_heads = {h}>) : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    qa, ka, va = normal(rng, 1, h, 1, d), normal(rng, 1, h, sk, d), normal(rng, 1, h, sk, d)
    got = compile_module(ctx, "split_alibi", src, combines=1)("f", qa, ka, va)[0]
    check("decode_split_alibi", got,
          ref.attention(qa, ka, va, causal=True, alibi_slopes=ref.alibi_slopes(h)))


def half_precision(ctx, rng, elem):
    # bf16 / f16 q, k, v, not causal, Sq != Sk, GQA 4/2. IREE's Python
    # runtime passes bf16 as bits: the function bitcasts i16.
    hq, hkv, sq, sk, d = 4, 2, 24, 40, 32
    q, k = ty((1, hq, sq, d), elem), ty((1, hkv, sk, d), elem)
    src = pi.attention_on_bits(q, k)

    def draw(*shape):  # values (as f64) and their bits (as i16)
        x = normal(rng, *shape)
        if elem == "bf16":
            bits = ((x.view(np.uint32) + 0x8000) >> 16).astype(np.uint16)
            return (bits.astype(np.uint32) << 16).view(np.float32), bits.view(np.int16)
        h = x.astype(np.float16)
        return h.astype(np.float32), h.view(np.int16)

    (qf, qb), (kf, kb), (vf, vb) = draw(1, hq, sq, d), draw(1, hkv, sk, d), draw(1, hkv, sk, d)
    bits = compile_module(ctx, elem, src)("f", qb, kb, vb)[0]
    if elem == "bf16":
        got = (bits.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    else:
        got = bits.view(np.float16).astype(np.float32)
    want = ref.attention(qf, kf, vf)
    ulp = 2.0 ** -8 if elem == "bf16" else 2.0 ** -11
    check(f"{elem}_not_causal", got, want, tol=ulp * float(np.max(np.abs(want))) + 1e-6)


def two_layers(ctx, rng):
    # Two attentions and a rotary between them (lowered by posenc, not a
    # kernel): the second layer reads the first's output.
    hq, s, d = 4, 33, 16
    t = ty((1, hq, s, d))
    src = f"""
func.func @f(%q: {t}, %k: {t}, %v: {t}) -> {t} {{
  %inv, %af = posenc.rope_frequencies dim {d} base 10000.0 : tensor<{d // 2}xf32>, f32
  %o1 = posenc.attention %q, %k, %v causal : {t}, {t}, {t} -> {t}
  %r = posenc.rotary %o1 half_split dim {d} inv_freq(%inv : tensor<{d // 2}xf32>) : {t}
  %o2 = posenc.attention %r, %k, %v : {t}, {t}, {t} -> {t}
  return %o2 : {t}
}}"""
    qa, ka, va = normal(rng, 1, hq, s, d), normal(rng, 1, hq, s, d), normal(rng, 1, hq, s, d)
    got = compile_module(ctx, "layers", src, attentions=2)("f", qa, ka, va)[0]
    inv = ref.inv_freq(d, 10000.0)[0].astype(np.float32)
    o1 = ref.attention(qa, ka, va, causal=True)
    r = ref.rotary(o1.astype(np.float32), np.arange(s), inv)
    check("two_layers", got, ref.attention(r.astype(np.float32), ka, va))


def yarn_scalar_operand(ctx, rng):
    # YaRN (Qwen2.5 x4): the attention factor is read from an input (IREE's
    # Python runtime passes tensors), an f32 scalar operand of the dispatch
    # (a push constant), not a constant.
    hq, hkv, s, d = 6, 2, 27, 32
    q, k = ty((1, hq, s, d)), ty((1, hkv, s, d))
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}, %aft: tensor<f32>) -> {q} {{
  %af = tensor.extract %aft[] : tensor<f32>
  %inv, %unused = posenc.rope_frequencies dim {d} base 1000000.0
      scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096>)
      : tensor<{d // 2}xf64>, f32
  %o = posenc.attention %q, %k, %v causal
      rope(<layout = half_split, rotary_dim = {d}>, %inv : tensor<{d // 2}xf64>, %af)
      : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    inv, af = ref.inv_freq(d, 1000000.0, "yarn", factor=4.0,
                           original_max_position_embeddings=4096)
    qa, ka, va = normal(rng, 1, hq, s, d), normal(rng, 1, hkv, s, d), normal(rng, 1, hkv, s, d)
    got = compile_module(ctx, "yarn", src)("f", qa, ka, va, np.array(af, np.float32))[0]
    check(f"yarn_scalar_operand (attention factor {af:.4f})", got,
          ref.attention(qa, ka, va, causal=True, inv_freq=inv,
                        attention_factor=float(np.float32(af))))


def refused(ctx, rng):
    # A dynamic length: the script says why and writes nothing.
    q, k = ty((1, 4, 1, 16)), "tensor<1x2x?x16xf32>"
    src = f"""
func.func @f(%q: {q}, %k: {k}, %v: {k}) -> {q} {{
  %o = posenc.attention %q, %k, %v causal : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
    try:
        compile_module(ctx, "refused_dynamic", src)
        ok, msg = False, "accepted"
    except (RuntimeError, ValueError) as e:
        ok, msg = "only static tensors" in str(e), str(e).splitlines()[-1][:160]
    RESULTS.record(ok, f"refused_dynamic  ({msg})")


def random_cases(ctx, rng, count=10, decodes=4):
    # Seeded random shapes, options, tiles and workgroup counts (1 to 5,
    # fewer or more than the blocks), each against the reference; the last
    # `decodes` are decode steps of 1-3 query rows over 513-1700 keys (split
    # into chunks: two dispatches).
    for i in range(count + decodes):
        b, hkv, g = int(rng.integers(1, 3)), int(rng.integers(1, 4)), int(rng.integers(1, 5))
        hq, d = hkv * g, int(rng.choice([8, 16, 24, 40]))
        sq = int(rng.integers(1, 41))
        sk = sq + int(rng.integers(0, 25))
        causal, alibi = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
        sinks, masked = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
        tq, tk = int(rng.choice([8, 16, 32])), int(rng.choice([8, 16, 32]))
        workgroups = int(rng.integers(1, 6))
        if i >= count:
            sq, sk = int(rng.integers(1, 4)), int(rng.integers(513, 1701))
        q, k = ty((b, hq, sq, d)), ty((b, hkv, sk, d))
        args, clauses, extra = [f"%q: {q}", f"%k: {k}", f"%v: {k}"], [], []
        if causal:
            clauses.append("causal")
        if alibi:
            clauses.append(f"alibi(<num_heads = {hq}>)")
        if sinks:
            args.append(f"%s: tensor<{hq}xf32>")
            clauses.append(f"sinks(%s : tensor<{hq}xf32>)")
            extra.append((rng.standard_normal(hq) * 2).astype(np.float32))
        if masked:
            args.append(f"%m: tensor<{b}x{sk}xi8>")
            clauses.append(f"key_mask(%m : tensor<{b}x{sk}xi8>)")
            extra.append((rng.random((b, sk)) > 0.3).astype(np.int8))
        src = f"""
func.func @f({", ".join(args)}) -> {q} {{
  %o = posenc.attention %q, %k, %v {" ".join(clauses)} : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""
        host = pk.convert(src, os.path.join(ctx.tmp, f"random{i}"), build=ctx.build,
                          workgroups=workgroups,
                          pipeline_options=f"attention-query-tile={tq} attention-key-tile={tk}")
        if (i >= count) != ("_combine[" in host):
            raise RuntimeError(f"random{i}: a combine dispatch {'missing' if i >= count else 'found'}")
        qa, ka, va = normal(rng, b, hq, sq, d), normal(rng, b, hkv, sk, d), normal(rng, b, hkv, sk, d)
        got = pi.Module(pi.compile_with_iree(host))("f", qa, ka, va, *extra)[0]
        kw = dict(causal=causal)
        if alibi:
            kw["alibi_slopes"] = ref.alibi_slopes(hq)
        if sinks:
            kw["sinks"] = extra[0]
        if masked:
            kw["key_mask"] = extra[-1]
        check(f"random{i} B={b} Hq={hq} Hkv={hkv} Sq={sq} Sk={sk} D={d} causal={causal} "
              f"alibi={alibi} sinks={sinks} mask={masked} tiles={tq}x{tk} wg={workgroups}",
              got, ref.attention(qa, ka, va, **kw))


class Context:
    def __init__(self, build, tmp):
        self.build, self.tmp = build, tmp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("posenc_opt")
    ap.add_argument("--seed", type=int, default=25)
    a = ap.parse_args()
    opt = shutil.which(a.posenc_opt) or a.posenc_opt
    build = os.path.dirname(os.path.dirname(os.path.abspath(opt)))
    import tempfile
    rng = np.random.default_rng(a.seed)
    cases = [gqa_odd_groups_rope_causal, alibi_kv_offset, sinks_padding_mask,
             lambda c, r: decode(c, r, "decode_unsplit", 300),
             lambda c, r: half_precision(c, r, "bf16"), lambda c, r: half_precision(c, r, "f16"),
             two_layers, lambda c, r: decode(c, r, "decode_long", 2048), decode_split_features,
             yarn_scalar_operand,
             refused,
             random_cases]
    with tempfile.TemporaryDirectory() as tmp:
        ctx = Context(build, tmp)
        for case in cases:
            try:
                case(ctx, rng)
            except Exception as e:  # noqa: BLE001 (report and go on)
                RESULTS.record(False, f"{getattr(case, '__name__', 'case')}: "
                                      f"{type(e).__name__}: {str(e)[:1500]}")
    return RESULTS.finish()


if __name__ == "__main__":
    sys.exit(main())
