"""A Llama-3 RoPE + causal GQA attention block on IREE (llvm-cpu), two ways,
in the same run:

  iree-alone   the block as a frontend hands it to IREE without posenc: plain
               linalg/arith/tensor IR in Hugging Face's decomposition (cos/sin
               of the f32 angle over full width, rotate_half by slice + concat,
               repeat_kv by broadcast, QK^T, scale, causal mask, softmax, PV).
  posenc-iree  the same block as posenc ops, lowered by
               posenc-to-linalg-pipeline with its defaults (posenc.attention
               above 2^22 scores, e.g. the default S=512 with 32 heads, is
               the flash loop nest as scf.for; below, the reference
               decomposition), then IREE.
  (optional)   --with-iree-attention-op: the HF RoPE with IREE's own fused
               iree_linalg_ext.attention (repeat_kv + additive causal mask).

Both are compiled with the same iree-compile flags (test/lib/posenc_iree.py)
and timed through IREE's Python runtime on inputs uploaded once; outputs are
checked against each other and the fp64 reference. Ends with one line:
  RESULT key=value ...   ratio = posenc-iree time / iree-alone time.

Usage: rope_attention.py POSENC_OPT [--heads 32 --kv-heads 8 --seq 512
                                     --dim 128 --iters 10 --with-iree-attention-op]
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "test", "lib"))
import posenc_iree as pi  # noqa: E402
import posenc_ref as ref  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import hostinfo  # noqa: E402

THETA, FACTOR, ORIGINAL = 500000.0, 8.0, 8192


def posenc_block(h, hkv, s, d):
    q, k = f"tensor<1x{h}x{s}x{d}xf32>", f"tensor<1x{hkv}x{s}x{d}xf32>"
    return f"""
func.func @block(%q: {q}, %k: {k}, %v: {k}, %pos: tensor<{s}xi64>) -> {q} {{
  %inv, %af = posenc.rope_frequencies dim {d} base {THETA}
      scaling(#posenc.llama3<factor = {FACTOR}, original_max_position_embeddings = {ORIGINAL}>)
      : tensor<{d // 2}xf32>, f32
  %qr = posenc.rotary %q half_split dim {d} inv_freq(%inv : tensor<{d // 2}xf32>)
      positions(%pos : tensor<{s}xi64>) attention_factor(%af) : {q}
  %kr = posenc.rotary %k half_split dim {d} inv_freq(%inv : tensor<{d // 2}xf32>)
      positions(%pos : tensor<{s}xi64>) attention_factor(%af) : {k}
  %o = posenc.attention %qr, %kr, %v causal : {q}, {k}, {k} -> {q}
  return %o : {q}
}}"""


def hf_block(h, hkv, s, d, inv_freq, fused=False):
    """Hugging Face's decomposition, as linalg on tensors (what a frontend
    such as torch-mlir gives IREE for LlamaAttention with eager SDPA). With
    `fused`, the attention itself is IREE's own iree_linalg_ext.attention
    (what IREE's torch frontend makes of SDPA) with an additive causal mask."""
    g, half = h // hkv, d // 2
    inv_full = ", ".join("%.9e" % x for x in np.concatenate([inv_freq, inv_freq]))
    scale = 1.0 / np.sqrt(d)
    x4 = "affine_map<(b, h, s, e) -> (b, h, s, e)>"
    tab = "affine_map<(b, h, s, e) -> (s, e)>"

    def rope(name, x, heads):
        t = f"tensor<1x{heads}x{s}x{d}xf32>"
        th = f"tensor<1x{heads}x{s}x{half}xf32>"
        return f"""
  %{name}1 = tensor.extract_slice {x}[0, 0, 0, 0] [1, {heads}, {s}, {half}] [1, 1, 1, 1] : {t} to {th}
  %{name}2 = tensor.extract_slice {x}[0, 0, 0, {half}] [1, {heads}, {s}, {half}] [1, 1, 1, 1] : {t} to {th}
  %{name}e = tensor.empty() : {th}
  %{name}n = linalg.generic {{indexing_maps = [{x4}, {x4}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%{name}2 : {th}) outs(%{name}e : {th}) {{
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  }} -> {th}
  %{name}rot = tensor.concat dim(3) %{name}n, %{name}1 : ({th}, {th}) -> {t}
  %{name}o = tensor.empty() : {t}
  %{name}r = linalg.generic {{indexing_maps = [{x4}, {x4}, {tab}, {tab}, {x4}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins({x}, %{name}rot, %cos, %sin : {t}, {t}, tensor<{s}x{d}xf32>, tensor<{s}x{d}xf32>) outs(%{name}o : {t}) {{
  ^bb0(%a: f32, %b: f32, %c: f32, %sn: f32, %o: f32):
    %m0 = arith.mulf %a, %c : f32
    %m1 = arith.mulf %b, %sn : f32
    %r = arith.addf %m0, %m1 : f32
    linalg.yield %r : f32
  }} -> {t}"""

    q, k = f"tensor<1x{h}x{s}x{d}xf32>", f"tensor<1x{hkv}x{s}x{d}xf32>"
    q5 = f"tensor<1x{hkv}x{g}x{s}x{d}xf32>"
    attention = fused_attention(hkv, g, s, d) if fused else decomposed_attention(hkv, g, s, d)
    sc = f"tensor<1x{hkv}x{g}x{s}x{s}xf32>"
    row = f"tensor<1x{hkv}x{g}x{s}xf32>"
    m5 = "affine_map<(b, h, g, i, j) -> (b, h, g, i, j)>"
    r5 = "affine_map<(b, h, g, i, j) -> (b, h, g, i)>"
    return f"""
func.func @block(%q: {q}, %k: {k}, %v: {k}, %pos: tensor<{s}xi64>) -> {q} {{
  %inv = arith.constant dense<[{inv_full}]> : tensor<{d}xf32>
  %te = tensor.empty() : tensor<{s}x{d}xf32>
  %cos, %sin = linalg.generic {{indexing_maps = [affine_map<(s, e) -> (s)>, affine_map<(s, e) -> (e)>, affine_map<(s, e) -> (s, e)>, affine_map<(s, e) -> (s, e)>], iterator_types = ["parallel", "parallel"]}}
      ins(%pos, %inv : tensor<{s}xi64>, tensor<{d}xf32>) outs(%te, %te : tensor<{s}x{d}xf32>, tensor<{s}x{d}xf32>) {{
  ^bb0(%p: i64, %f: f32, %o0: f32, %o1: f32):
    %pf = arith.sitofp %p : i64 to f32
    %a = arith.mulf %pf, %f : f32
    %c = math.cos %a : f32
    %sn = math.sin %a : f32
    linalg.yield %c, %sn : f32, f32
  }} -> (tensor<{s}x{d}xf32>, tensor<{s}x{d}xf32>)
{rope("q", "%q", h)}
{rope("k", "%k", hkv)}
  %q5 = tensor.expand_shape %qr [[0], [1, 2], [3], [4]] output_shape [1, {hkv}, {g}, {s}, {d}] : {q} into {q5}
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
{attention}  %o = tensor.collapse_shape %pv [[0], [1, 2], [3], [4]] : {q5} into {q}
  return %o : {q}
}}"""


def decomposed_attention(hkv, g, s, d):
    """QK^T, scale, causal mask, softmax, PV as linalg.generic ops (GQA by
    reshaping q to [1, Hkv, G, S, D]), reading %q5, %kr, %v; result %pv."""
    scale = 1.0 / np.sqrt(d)
    k = f"tensor<1x{hkv}x{s}x{d}xf32>"
    q5 = f"tensor<1x{hkv}x{g}x{s}x{d}xf32>"
    sc = f"tensor<1x{hkv}x{g}x{s}x{s}xf32>"
    row = f"tensor<1x{hkv}x{g}x{s}xf32>"
    m5 = "affine_map<(b, h, g, i, j) -> (b, h, g, i, j)>"
    r5 = "affine_map<(b, h, g, i, j) -> (b, h, g, i)>"
    return f"""  %se = tensor.empty() : {sc}
  %sz = linalg.fill ins(%zero : f32) outs(%se : {sc}) -> {sc}
  %qk = linalg.generic {{indexing_maps = [affine_map<(b, h, g, i, j, e) -> (b, h, g, i, e)>, affine_map<(b, h, g, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, g, i, j, e) -> (b, h, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%q5, %kr : {q5}, {k}) outs(%sz : {sc}) {{
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }} -> {sc}
  %scale = arith.constant {scale:.9e} : f32
  %masked = linalg.generic {{indexing_maps = [{m5}, {m5}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}}
      ins(%qk : {sc}) outs(%se : {sc}) {{
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 3 : index
    %j = linalg.index 4 : index
    %future = arith.cmpi ugt, %j, %i : index
    %x = arith.mulf %a, %scale : f32
    %r = arith.select %future, %ninf, %x : f32
    linalg.yield %r : f32
  }} -> {sc}
  %re = tensor.empty() : {row}
  %mi = linalg.fill ins(%ninf : f32) outs(%re : {row}) -> {row}
  %mx = linalg.generic {{indexing_maps = [{m5}, {r5}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%masked : {sc}) outs(%mi : {row}) {{
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }} -> {row}
  %ex = linalg.generic {{indexing_maps = [{m5}, {r5}, {m5}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}}
      ins(%masked, %mx : {sc}, {row}) outs(%se : {sc}) {{
  ^bb0(%a: f32, %m: f32, %o: f32):
    %x = arith.subf %a, %m : f32
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }} -> {sc}
  %si = linalg.fill ins(%zero : f32) outs(%re : {row}) -> {row}
  %sum = linalg.generic {{indexing_maps = [{m5}, {r5}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%ex : {sc}) outs(%si : {row}) {{
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }} -> {row}
  %p = linalg.generic {{indexing_maps = [{m5}, {r5}, {m5}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}}
      ins(%ex, %sum : {sc}, {row}) outs(%se : {sc}) {{
  ^bb0(%a: f32, %t: f32, %o: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  }} -> {sc}
  %oe = tensor.empty() : {q5}
  %oz = linalg.fill ins(%zero : f32) outs(%oe : {q5}) -> {q5}
  %pv = linalg.generic {{indexing_maps = [affine_map<(b, h, g, i, e, j) -> (b, h, g, i, j)>, affine_map<(b, h, g, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, g, i, e, j) -> (b, h, g, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%p, %v : {sc}, {k}) outs(%oz : {q5}) {{
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }} -> {q5}
"""


def fused_attention(hkv, g, s, d):
    """IREE's iree_linalg_ext.attention with an additive causal mask [S, S],
    on q [1, H, S, D] and k/v repeated to H heads (repeat_kv, as the torch
    frontend gives it); reads %qr, %kr, %v, yields %pv as [1, Hkv, G, S, D]."""
    scale = 1.0 / np.sqrt(d)
    h = hkv * g
    k = f"tensor<1x{hkv}x{s}x{d}xf32>"
    k5 = f"tensor<1x{hkv}x{g}x{s}x{d}xf32>"
    q = f"tensor<1x{h}x{s}x{d}xf32>"
    mask = f"tensor<{s}x{s}xf32>"
    dims = "(b, h, m, k1, k2, n)"

    def repeat(name, x):
        return f"""
  %{name}be = tensor.empty() : {k5}
  %{name}b = linalg.generic {{indexing_maps = [affine_map<(b, h, g, s, e) -> (b, h, s, e)>, affine_map<(b, h, g, s, e) -> (b, h, g, s, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}}
      ins({x} : {k}) outs(%{name}be : {k5}) {{
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }} -> {k5}
  %{name}h = tensor.collapse_shape %{name}b [[0], [1, 2], [3], [4]] : {k5} into {q}"""
    return f"""{repeat("kk", "%kr")}{repeat("vv", "%v")}
  %me = tensor.empty() : {mask}
  %mask = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}
      outs(%me : {mask}) {{
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %future = arith.cmpi ugt, %j, %i : index
    %r = arith.select %future, %ninf, %zero : f32
    linalg.yield %r : f32
  }} -> {mask}
  %scale = arith.constant {scale:.9e} : f32
  %ae = tensor.empty() : {q}
  %att = iree_linalg_ext.attention <{{indexing_maps = [
      affine_map<{dims} -> (b, h, m, k1)>, affine_map<{dims} -> (b, h, k2, k1)>,
      affine_map<{dims} -> (b, h, k2, n)>, affine_map<{dims} -> ()>,
      affine_map<{dims} -> (m, k2)>, affine_map<{dims} -> (b, h, m, n)>]}}>
      ins(%qr, %kkh, %vvh, %scale, %mask : {q}, {q}, {q}, f32, {mask}) outs(%ae : {q}) {{
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  }} -> {q}
  %pv = tensor.expand_shape %att [[0], [1, 2], [3], [4]] output_shape [1, {hkv}, {g}, {s}, {d}] : {q} into {k5}
"""


def time_ms(fn, args, iters):
    fn(*args)  # warm-up: first-touch of IREE's buffers, thread pool start
    best = float("inf")
    for _ in range(iters):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("posenc_opt")
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--kv-heads", type=int, default=8)
    ap.add_argument("--seq", type=int, default=512)
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--with-iree-attention-op", action="store_true",
                    help="also time IREE's own iree_linalg_ext.attention (slow on "
                         "llvm-cpu in IREE 3.13: ~0.1 GFLOP/s here)")
    a = ap.parse_args()
    h, hkv, s, d = a.heads, a.kv_heads, a.seq, a.dim
    host = hostinfo.host()  # IREE's local-task driver uses every core
    print(hostinfo.describe(host))

    inv, af = ref.inv_freq(d, THETA, "llama3", factor=FACTOR,
                           original_max_position_embeddings=ORIGINAL)
    assert af == 1.0  # llama3 scaling has no attention factor
    inv32 = inv.astype(np.float32)
    builders = [
        ("iree_alone", lambda: pi.Module(pi.compile_with_iree(
            hf_block(h, hkv, s, d, inv32)))),
        ("posenc_iree", lambda: pi.build(a.posenc_opt, posenc_block(h, hkv, s, d)))]
    if a.with_iree_attention_op:
        builders.append(("iree_attention_op", lambda: pi.Module(pi.compile_with_iree(
            hf_block(h, hkv, s, d, inv32, fused=True)))))
    variants = {}  # name -> (module, compile seconds)
    for name, build in builders:
        t0 = time.perf_counter()
        variants[name] = (build(), time.perf_counter() - t0)

    rng = np.random.default_rng(0)
    q = rng.standard_normal((1, h, s, d)).astype(np.float32)
    k = rng.standard_normal((1, hkv, s, d)).astype(np.float32)
    v = rng.standard_normal((1, hkv, s, d)).astype(np.float32)
    pos = np.arange(s, dtype=np.int64)
    want = ref.attention(q, k, v, causal=True, inv_freq=inv, attention_factor=af)

    # Inputs uploaded once: time the kernels, not host->device copies.
    import iree.runtime as rt
    dev = variants["iree_alone"][0]._config.device
    args = [rt.asdevicearray(dev, x) for x in (q, k, v, pos)]
    flops = 4.0 * h * s * s * d  # QK^T + PV, full (unmasked) work
    ms, err = {}, {}
    for name, (mod, compile_s) in variants.items():
        out = mod("block", q, k, v, pos)[0]
        err[name] = float(np.max(np.abs(out - want)))
        ms[name] = time_ms(mod.function("block"), args, a.iters)
        print(f"{name:17s} {ms[name]:9.2f} ms  {flops / ms[name] / 1e6:6.1f} GFLOP/s  "
              f"max err vs fp64 {err[name]:.1e}  (compile {compile_s:.1f} s)")
    ok = all(e < 1e-3 for e in err.values())
    extra = "".join(f" {n}_ms={ms[n]:.3f}" for n in ms
                    if n not in ("iree_alone", "posenc_iree"))
    print(f"RESULT bench=iree_rope_attention shape=1x{h}x{s}x{d} kv_heads={hkv} "
          f"iters={a.iters} iree_alone_ms={ms['iree_alone']:.3f} "
          f"posenc_iree_ms={ms['posenc_iree']:.3f}{extra} "
          f"ratio={ms['posenc_iree'] / ms['iree_alone']:.3f} "
          f"numerics={'ok' if ok else 'MISMATCH'} {hostinfo.result_fields(host)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
