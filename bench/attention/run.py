#!/usr/bin/env python3
"""bench/attention: attention with positional encodings -- posenc.attention
against its peers, all measured in this one run, at 1 and 2 threads.

Cases (f32, batch 1, head dim 128):
  a  prefill, Llama-3.1-8B: Hq=32, Hkv=8 (GQA), S=2048, causal, RoPE half-split
     with llama3 scaling (theta 500000, factor 8, low_freq_factor 1,
     high_freq_factor 4, original_max_position_embeddings 8192);
  b  prefill, ALiBi: H=32, S=2048, causal (Press et al.'s slopes for 32 heads);
  c  decode: 1 query token at position Sk-1, Sk=32768, GQA 32/8, RoPE as in a.

Contenders:
  posenc             a module with one posenc.attention (rope(...) or alibi(...)
                     clause; llama3 frequencies from posenc.rope_frequencies)
                     run by build/bin/posenc-run (--threads, default pipeline
                     or --pipeline).
  posenc-prerotated  the same module with K rotated once before the flash
                     kernel (the ablation): the posenc pipeline with
                     --posenc-prerotated-options added (default
                     'attention-prerotate-keys=true'), or
                     --posenc-prerotated-pipeline whole. In c (no rope
                     clause: the cache is rotated) both are the same code.
  torch              torch.nn.functional.scaled_dot_product_attention
                     (enable_gqa=True), RoPE in Hugging Face's form before it
                     (cos/sin = f32 inv_freq x positions, rotate_half).
  torch-unfused      the same RoPE, then explicit matmul, scale, mask/bias,
                     softmax, matmul (GQA as a grouped view of q, no K/V copy).
  ort                ONNX Runtime com.microsoft GroupQueryAttention
                     (do_rotary=1, cos_cache/sin_cache) for a and c,
                     com.microsoft MultiHeadAttention with attention_bias
                     (ALiBi + causal as one bias tensor) for b; IO-bound
                     preallocated outputs.
  openvino           OpenVINO's CPU plugin, f32 forced (ov_peer.py): HF-form
                     RoPE in the graph (f32 inv_freq x positions, cos/sin,
                     rotate_half), GQA as a grouped view of q, opset13
                     ScaledDotProductAttention (causal flag for a, the
                     ALiBi + causal bias as its mask for b); the plugin
                     decomposes SDPA outside stateful LLM models and fuses
                     it back into one Snippets kernel (the note says what
                     ran). c: the cache holds every rotated key, the new
                     one included (untimed: OpenVINO writes no cache).
  iree               not in this first version (printed as skipped).

What each contender gets (untimed), and what it computes in the timed call:
  - q, k, v in its native layout (ORT: [B, S, H*D]; the others [B, H, S, D]).
  - a: every contender rotates q and k inside the call. torch forms cos/sin
    per call (as HF's LlamaRotaryEmbedding does); ORT's caches are inputs.
  - b: posenc computes the ALiBi bias and the causal mask inside its kernel;
    torch and ort get the [1, H, S, S] bias (ALiBi + -inf above the diagonal)
    precomputed, untimed: the peers are favoured.
  - c: every contender reads a KV cache of already rotated keys (prepared
    untimed, as HF's StaticCache and ORT's GQA cache hold them). posenc
    rotates q (posenc.rotary at offset Sk-1) and attends over the cache
    (posenc.attention without rope); torch and ort rotate q and the new key
    (position Sk-1) in the call, writing the new key and value into the
    cache slot Sk-1.

Every output is checked against an fp64 NumPy reference of the same inputs
(all heads and rows; RoPE and ALiBi recomputed in fp64, llama3 frequencies
from the fp64 formula) before its time counts: the check is
max |out - ref| <= tol * max |ref| (tol printed with its reason; a contender
that fails is reported as FAILED, its figures are left out, and the script
exits with status 1 after the RESULT line;
tol = 2e-5 + max_position * 2^-24, see tolerance()). Each case also prints how far a
wrong encoding (RoPE without the llama3 scaling; attention without ALiBi) is
from the reference, so that the tolerance is seen to discriminate.

Per contender, case and thread count: the median of --reps timed calls after
--warmup untimed ones; GFLOP/s (4*Hq*Sq*Sk*D; causal prefill counts the
unmasked half, 4*Hq*D*S*(S+1)/2); % of the f32 sgemm rate measured in the
same run (torch.mm 2048^3 at the same thread count); for c the K/V read rate
(bytes of K and V / time) and its % of a streaming copy measured in the same
run (glibc memcpy of 512 MiB numpy arrays, which streams its stores at that
size, split over the same number of threads; (read + written bytes) / time;
measured before and after the contenders, the faster counts, as is the
sgemm), and its % of a read-only stream of the same K/V bytes measured right
after the case at each thread count (readstream.cpp, compiled here with
clang++-22 -O3 -march=native: the best of four read patterns; the ceiling of
any decode kernel, which reads every K/V byte once and writes almost
nothing). posenc's peak memory is posenc-run's max RSS (GNU time's %M;
without /usr/bin/time, VmHWM polled every 50 ms).

The last line is

  RESULT shapes=full|quick key=value ... host_cpu=... host_family=...
         host_model=... host_isa=... host_cores=...

with, for each thread count T: sgemm_gflops_tT, copy_gbps_tT; for each case
X in a, b, c and contender N (hyphens as underscores): X_N_ms_tT,
X_N_gflops_tT, X_N_pct_sgemm_tT, c_N_kv_gbps_tT, c_N_pct_copy_tT,
X_posenc_maxrss_mib_tT; for c, c_read_gbps_tT (the read-only stream) and
c_N_pct_read_tT; ratios (peer time / posenc time: > 1 means posenc is
faster): a_posenc_vs_best_peer_tT (the fastest of torch, ort and openvino;
before 2026-12-06 of torch and ort), b_posenc_vs_ort_tT,
X_posenc_vs_openvino_tT, X_posenc_vs_prerotated_tT; and c_posenc_pct_copy_tT.
Keys of contenders that were skipped or failed are absent.

Usage: run.py [--quick] [--threads 1,2] [--cases a,b,c]
              [--contenders posenc,posenc-prerotated,torch,torch-unfused,ort,openvino]
              [--reps N] [--warmup N] [--posenc-reps N] [--build build]
              [--pipeline TEXT] [--posenc-prerotated-pipeline TEXT]
              [--posenc-prerotated-options 'OPT=VAL ...']
(--quick: S=256, Sk=4096, 3 reps: a smoke test, not a measurement.)
"""

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import hostinfo  # noqa: E402

# Llama-3.1-8B's RoPE (config.json: rope_theta, rope_scaling).
THETA = 500000.0
LLAMA3 = dict(factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
              original_max_position_embeddings=8192)
D = 128

CONTENDERS = ["posenc", "posenc-prerotated", "torch", "torch-unfused", "ort", "openvino"]

# Tolerance of the reference check, relative to max |ref| of the case:
#   tol = 2e-5 + max_position * 2^-24.
# Every contender forms the RoPE angle as one f32 product pos * inv_freq (HF's
# numerics; posenc with an f32 inv_freq does the same), whose error grows
# with the position: up to pos * 2^-24 rad relative to the angle (2e-3 rad at
# position 32767, 1.2e-4 at 2047). ALiBi's f32 bias m * (j - i) has the same
# form. The output, a softmax-weighted mean of v rows, moves by a fraction of
# that (peers measured at ~1/5 of it); 2e-5 covers f32 accumulation over up
# to 32768 keys. A wrong encoding is off by far more (printed per case).
def tolerance(case):
    return 2e-5 + (case["Sk"] - 1) * 2.0**-24


class Skip(Exception):
    """A contender that cannot run this case (the reason is printed)."""


def median(values):
    return float(np.median(np.asarray(values)))


def timed(fn, warmup, reps):
    for _ in range(warmup):
        out = fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - start) * 1e3)
    return median(times), out


def key(name):
    return name.replace("-", "_")


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def make_cases(quick):
    s, sk = (256, 4096) if quick else (2048, 32768)
    return {
        "a": dict(name="a", kind="prefill", pe="rope", Hq=32, Hkv=8, Sq=s, Sk=s,
                  title=f"prefill, RoPE llama3 x8 (Llama-3.1-8B), Hq=32 Hkv=8 S={s} D={D}, causal"),
        "b": dict(name="b", kind="prefill", pe="alibi", Hq=32, Hkv=32, Sq=s, Sk=s,
                  title=f"prefill, ALiBi, H=32 S={s} D={D}, causal"),
        "c": dict(name="c", kind="decode", pe="rope", Hq=32, Hkv=8, Sq=1, Sk=sk,
                  title=f"decode, RoPE llama3 x8, 1 query at position {sk - 1}, "
                        f"Sk={sk}, Hq=32 Hkv=8 D={D}"),
    }


def flops(case):
    if case["kind"] == "prefill":  # causal: the unmasked half, diagonal included
        s = case["Sq"]
        return 4.0 * case["Hq"] * D * s * (s + 1) / 2
    return 4.0 * case["Hq"] * case["Sq"] * case["Sk"] * D


def kv_bytes(case):
    return 2 * case["Hkv"] * case["Sk"] * D * 4


def make_inputs(case):
    rng = np.random.default_rng({"a": 11, "b": 12, "c": 13}[case["name"]])
    q = rng.standard_normal((1, case["Hq"], case["Sq"], D), dtype=np.float32)
    k = rng.standard_normal((1, case["Hkv"], case["Sk"], D), dtype=np.float32)
    v = rng.standard_normal((1, case["Hkv"], case["Sk"], D), dtype=np.float32)
    return q, k, v


def q_positions(case):
    # Bottom-right alignment: query i sits at position i + Sk - Sq.
    return np.arange(case["Sq"], dtype=np.int64) + case["Sk"] - case["Sq"]


# ----------------------------------------------------------------------------
# fp64 reference (independent of every contender)
# ----------------------------------------------------------------------------

def llama3_inv_freq_f64(scaled=True):
    inv = THETA ** (-np.arange(0, D, 2, dtype=np.float64) / D)
    if not scaled:
        return inv
    f, lo, hi = LLAMA3["factor"], LLAMA3["low_freq_factor"], LLAMA3["high_freq_factor"]
    L = LLAMA3["original_max_position_embeddings"]
    wavelen = 2 * math.pi / inv
    smooth = (L / wavelen - lo) / (hi - lo)
    return np.where(wavelen < L / hi, inv,
                    np.where(wavelen > L / lo, inv / f, (1 - smooth) * inv / f + smooth * inv))


def alibi_slopes_f64(n):
    # Press et al. for a power of two n (max_bias 8): 2^(-8 (h+1) / n).
    assert n & (n - 1) == 0
    return 2.0 ** (-8.0 * np.arange(1, n + 1, dtype=np.float64) / n)


def rope_f64(x, positions, inv):
    """Half-split RoPE of x [H, S, D] (fp64) at positions [S]."""
    ang = positions[:, None].astype(np.float64) * inv[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., :D // 2], x[..., D // 2:]
    return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)


def reference(case, q, k, v, rows=None, variant=None):
    """fp64 attention, out [Hq, len(rows), D]; per kv head, 128-row chunks,
    keys cut at the last visible one. variant: 'no-scaling' (RoPE without
    llama3 scaling) or 'no-alibi', for the discrimination figure."""
    hq, hkv, sq, sk = case["Hq"], case["Hkv"], case["Sq"], case["Sk"]
    g = hq // hkv
    rows = np.arange(sq) if rows is None else rows
    qpos_all, kpos = q_positions(case), np.arange(sk, dtype=np.int64)
    qpos = qpos_all[rows]
    q64 = q[0][:, rows].astype(np.float64)
    k64, v64 = k[0].astype(np.float64), v[0].astype(np.float64)
    if case["pe"] == "rope":
        inv = llama3_inv_freq_f64(scaled=variant != "no-scaling")
        q64 = rope_f64(q64, qpos, inv)
        k64 = rope_f64(k64, kpos, inv)
    slopes = alibi_slopes_f64(hq) if case["pe"] == "alibi" and variant != "no-alibi" else None
    scale = 1.0 / math.sqrt(D)
    out = np.empty((hq, len(rows), D))
    chunk = 128
    for kvh in range(hkv):
        heads = slice(kvh * g, (kvh + 1) * g)
        for r0 in range(0, len(rows), chunk):
            r1 = min(r0 + chunk, len(rows))
            qp = qpos[r0:r1]
            kmax = int(qp.max()) + 1  # causal: no key beyond the last query
            s = np.einsum("grd,kd->grk", q64[heads, r0:r1], k64[kvh, :kmax]) * scale
            rel = qp[:, None] - kpos[None, :kmax]
            if slopes is not None:
                s -= slopes[heads, None, None] * np.abs(rel)[None]
            s = np.where((rel < 0)[None], -np.inf, s)
            s -= s.max(axis=-1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(axis=-1, keepdims=True)
            out[heads, r0:r1] = np.einsum("grk,kd->grd", p, v64[kvh, :kmax])
    return out


def rel_error(got, ref):
    got = np.asarray(got, dtype=np.float64).reshape(ref.shape)
    if not np.all(np.isfinite(got)):
        return float("inf")
    return float(np.max(np.abs(got - ref)) / np.max(np.abs(ref)))


# ----------------------------------------------------------------------------
# Baselines: sgemm and a streaming copy at a thread count
# ----------------------------------------------------------------------------

def streaming_copy_gbps(threads, mib=512, reps=7):
    """(read + written bytes) / time of copying mib MiB of numpy memory with
    glibc memcpy (ctypes.memmove, which drops the GIL) on `threads` Python
    threads, one slice each. At this size glibc copies with streaming stores:
    the read-once/write-once ceiling, like bench/rope's ntcopy."""
    import ctypes
    from concurrent.futures import ThreadPoolExecutor
    n = mib * 2**20
    src = np.ones(n // 4, np.float32)
    dst = np.zeros_like(src)
    step = n // threads
    with ThreadPoolExecutor(threads) as pool:
        def once():
            for f in [pool.submit(ctypes.memmove, dst.ctypes.data + i * step,
                                  src.ctypes.data + i * step, step) for i in range(threads)]:
                f.result()
        ms, _ = timed(once, 2, reps)
    return 2 * n / ms / 1e6


def baselines(threads, quick):
    """(sgemm GFLOP/s, copy GB/s, what measured them)."""
    n, reps = 2048, (3 if quick else 7)
    try:
        import torch
        torch.set_num_threads(threads)
        a, b, c = torch.randn(n, n), torch.randn(n, n), torch.empty(n, n)
        ms, _ = timed(lambda: torch.mm(a, b, out=c), 2, reps)
        how = f"sgemm: torch.mm f32 {n}^3"
    except ImportError:
        a = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
        c = np.empty_like(a)
        ms, _ = timed(lambda: np.matmul(a, a, out=c), 2, reps)
        how = f"sgemm: numpy matmul f32 {n}^3 (OpenBLAS's default threads: torch missing)"
    how += ", copy: memcpy of 512 MiB numpy arrays (streaming stores) on T threads"
    return 2.0 * n**3 / ms / 1e6, streaming_copy_gbps(threads, reps=reps), how


def build_readstream(build):
    """bench/attention's read-only ceiling (readstream.cpp), built once into
    the build tree; None, with a reason printed, when it cannot be built."""
    exe = os.path.join(build, "bench", "attention-readstream")
    src = os.path.join(HERE, "readstream.cpp")
    if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src):
        return exe
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    try:
        subprocess.run(["clang++-22", "-O3", "-march=native", "-fopenmp", "-o", exe, src],
                       check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"read-only stream: skipped: readstream.cpp did not build ({e})")
        return None
    return exe


def read_stream_gbps(exe, case, threads, reps):
    """K+V bytes / median time of the fastest read pattern of readstream."""
    out = subprocess.run([exe, str(threads), str(reps), str(case["Hkv"]), str(case["Sk"]),
                          str(D)], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"^best median_ms=\S+ gbps=([0-9.e+-]+)", out, re.M).group(1))


# ----------------------------------------------------------------------------
# posenc
# ----------------------------------------------------------------------------

def posenc_module(case):
    hq, hkv, sq, sk = case["Hq"], case["Hkv"], case["Sq"], case["Sk"]
    tq, tk = f"tensor<1x{hq}x{sq}x{D}xf32>", f"tensor<1x{hkv}x{sk}x{D}xf32>"
    decode = case["kind"] == "decode"
    if case["pe"] == "rope":
        pre = (f"  %inv, %af = posenc.rope_frequencies dim {D} base {THETA:.1f}\n"
               f"      scaling(#posenc.llama3<factor = {LLAMA3['factor']:.1f}, "
               f"low_freq_factor = {LLAMA3['low_freq_factor']:.1f}, "
               f"high_freq_factor = {LLAMA3['high_freq_factor']:.1f}, "
               f"original_max_position_embeddings = {LLAMA3['original_max_position_embeddings']}>)\n"
               f"      : tensor<{D // 2}xf32>, f32\n")
        clause = (f" rope(#posenc.rope<layout = half_split, rotary_dim = {D}>, "
                  f"%inv : tensor<{D // 2}xf32>, %af)")
    else:
        pre, clause = "", f" alibi(#posenc.alibi_slopes<num_heads = {hq}>)"
    query = "%q"
    if decode and case["pe"] == "rope":
        # A decode step reads a KV cache of rotated keys (posenc_inputs):
        # only the query is rotated, at its position Sk - Sq.
        pre += (f"  %off = arith.constant {sk - sq} : index\n"
                f"  %qr = posenc.rotary %q half_split dim {D} inv_freq(%inv : tensor<{D // 2}xf32>) "
                f"offset(%off : index) attention_factor(%af) : {tq}\n")
        query, clause = "%qr", ""
    return (f"// bench/attention case {case['name']}: {case['title']}\n"
            f"func.func @attention(%q: {tq}, %k: {tk}, %v: {tk}) -> {tq} {{\n{pre}"
            f"  %o = posenc.attention {query}, %k, %v causal{clause}\n"
            f"      : {tq}, {tk}, {tk} -> {tq}\n"
            f"  return %o : {tq}\n}}\n")


def posenc_inputs(case, q, k, v):
    """posenc's inputs: for decode, K as a cache of rotated keys (prepared
    untimed, as torch and ort get it), rotated in f64 and rounded once."""
    if case["kind"] == "decode" and case["pe"] == "rope":
        k = rope_f64(k.astype(np.float64), np.arange(case["Sk"]),
                     llama3_inv_freq_f64()).astype(np.float32)
    return q, k, v


def run_posenc(args, case, threads, pipeline, tmp, inputs, label):
    exe = os.path.join(args.build, "bin", "posenc-run")
    mlir = os.path.join(tmp, f"attention_{case['name']}.mlir")
    with open(mlir, "w") as f:
        f.write(posenc_module(case))
    outdir = os.path.join(tmp, f"out_{case['name']}_{key(label)}_t{threads}")
    cmd = [exe, mlir, f"--inputs={','.join(inputs)}", f"--threads={threads}",
           f"--iterations={args.posenc_reps}", f"--warmup={args.warmup}",
           f"--outputs-dir={outdir}", f"--flops={int(flops(case))}"]
    if pipeline:
        cmd.append(f"--pipeline={pipeline}")
    log, rss = os.path.join(tmp, "posenc-run.log"), os.path.join(tmp, "posenc-run.rss")
    # Peak memory: GNU time's max RSS of posenc-run. (wait4 on a child of
    # this process would count this process's pages, inherited at fork.)
    timer = "/usr/bin/time"
    if os.access(timer, os.X_OK):
        cmd = [timer, "-f", "%M", "-o", rss] + cmd
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        hwm_kib = 0
        while proc.poll() is None:  # without GNU time: the VmHWM of the live process
            if not cmd[0] == timer:
                try:
                    with open(f"/proc/{proc.pid}/status") as f:
                        m = re.search(r"VmHWM:\s+(\d+) kB", f.read())
                    hwm_kib = max(hwm_kib, int(m.group(1)) if m else 0)
                except OSError:
                    pass
            time.sleep(0.05)
    if cmd[0] == timer:
        try:
            with open(rss) as f:
                hwm_kib = int(f.read().split()[-1])
        except (OSError, ValueError, IndexError):
            hwm_kib = 0
    with open(log) as f:
        text = f.read()
    if proc.returncode != 0:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        first = next((line for line in lines if "error:" in line), None)
        why = lines[-1] if lines else "(no output)"
        if first and first != why:
            why = f"{first} ... {why}"
        raise Skip(f"posenc-run exited with {proc.returncode}: {why[:400]}")
    ms = float(re.search(r"RESULT entry=\S+ median_ms=([0-9.e+-]+)", text).group(1))
    compiled = re.search(r"compiled @\S+ in ([0-9.]+) ms", text)
    note = f"compile {float(compiled.group(1)) / 1e3:.1f} s, " if compiled else ""
    extra = {}
    if hwm_kib:
        note += f"max RSS {hwm_kib / 1024:.0f} MiB"
        extra["maxrss_mib"] = hwm_kib / 1024
    out = np.load(os.path.join(outdir, "out0.npy"))
    return ms, out, extra, note


# ----------------------------------------------------------------------------
# PyTorch: HF-form RoPE, then SDPA or the unfused form
# ----------------------------------------------------------------------------

def torch_llama3_inv_freq(torch):
    """HF transformers' _compute_llama3_parameters, in f32 as HF computes it."""
    inv = 1.0 / (THETA ** (torch.arange(0, D, 2, dtype=torch.int64).to(torch.float) / D))
    f, lo, hi = LLAMA3["factor"], LLAMA3["low_freq_factor"], LLAMA3["high_freq_factor"]
    L = LLAMA3["original_max_position_embeddings"]
    low_wl, high_wl = L / lo, L / hi
    wavelen = 2 * math.pi / inv
    inv_llama = torch.where(wavelen > low_wl, inv / f, inv)
    smooth = (L / wavelen - lo) / (hi - lo)
    smoothed = (1 - smooth) * inv_llama / f + smooth * inv_llama
    medium = ~(wavelen < high_wl) * ~(wavelen > low_wl)
    return torch.where(medium, smoothed, inv_llama)


def torch_cos_sin(torch, inv, positions):
    """HF's LlamaRotaryEmbedding.forward (attention_scaling 1 for llama3)."""
    inv_exp = inv[None, :, None].float()
    pos_exp = positions[None, None, :].float()
    freqs = (inv_exp @ pos_exp).transpose(1, 2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()  # [1, S, D]


def torch_rope(torch, x, cos, sin):
    """HF's apply_rotary_pos_emb on one tensor (unsqueeze_dim=1)."""
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    x1, x2 = x[..., :D // 2], x[..., D // 2:]
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


def alibi_causal_bias(case):
    """[1, H, S, S] f32: -m (i - j) on and below the diagonal, -inf above."""
    s = case["Sq"]
    slopes = alibi_slopes_f64(case["Hq"]).astype(np.float32)
    rel = (np.arange(s)[None, :] - np.arange(s)[:, None]).astype(np.float32)  # j - i
    bias = slopes[:, None, None] * rel[None]
    bias[:, rel > 0] = -np.inf
    return bias[None]


def run_torch(args, case, threads, q, k, v, fused, bias=None):
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as e:
        raise Skip(f"torch not installed ({e})")
    torch.set_num_threads(threads)
    hq, hkv, sq, sk = case["Hq"], case["Hkv"], case["Sq"], case["Sk"]
    g = hq // hkv
    scale = 1.0 / math.sqrt(D)
    tq, tk, tv = torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(v)

    def unfused(qr, kr, vv, mask):
        # Grouped view: query heads (kvh, i) -> [1, Hkv, G*Sq, D]; no K/V copy.
        s = torch.matmul(qr.reshape(1, hkv, g * sq, D), kr.transpose(-1, -2))
        s.mul_(scale)
        if mask is not None:
            s = s.view(1, hkv, g, sq, sk).add_(mask).view(1, hkv, g * sq, sk)
        p = torch.softmax(s, dim=-1)
        return torch.matmul(p, vv).reshape(1, hq, sq, D)

    if case["pe"] == "rope":
        inv = torch_llama3_inv_freq(torch)
        if case["kind"] == "prefill":
            pos = torch.arange(sq)
            causal = torch.full((sq, sk), float("-inf")).triu_(1)  # HF builds it per forward

            def once():
                cos, sin = torch_cos_sin(torch, inv, pos)
                qr, kr = torch_rope(torch, tq, cos, sin), torch_rope(torch, tk, cos, sin)
                if fused:
                    return F.scaled_dot_product_attention(qr, kr, tv, is_causal=True,
                                                          enable_gqa=True)
                return unfused(qr, kr, tv, causal)
        else:
            # KV cache of rotated keys 0..Sk-2 (untimed); slot Sk-1 is written
            # by the call (HF StaticCache style), as is the new value.
            cos_all, sin_all = torch_cos_sin(torch, inv, torch.arange(sk))
            kcache = torch_rope(torch, tk, cos_all, sin_all).contiguous()
            vcache = tv.clone()
            kcache[:, :, sk - 1].zero_()
            vcache[:, :, sk - 1].zero_()
            knew, vnew = tk[:, :, sk - 1:], tv[:, :, sk - 1:]
            pos = torch.tensor([sk - 1])

            def once():
                cos, sin = torch_cos_sin(torch, inv, pos)
                qr = torch_rope(torch, tq, cos, sin)
                kcache[:, :, sk - 1:] = torch_rope(torch, knew, cos, sin)
                vcache[:, :, sk - 1:] = vnew
                # The query sees every key: no mask (is_causal would align top-left).
                if fused:
                    return F.scaled_dot_product_attention(qr, kcache, vcache, enable_gqa=True)
                return unfused(qr, kcache, vcache, None)
    else:
        tbias = torch.from_numpy(bias)  # precomputed, untimed (the peers are favoured)

        def once():
            if fused:
                return F.scaled_dot_product_attention(tq, tk, tv, attn_mask=tbias)
            s = torch.matmul(tq, tk.transpose(-1, -2))
            s.mul_(scale).add_(tbias)
            return torch.matmul(torch.softmax(s, dim=-1), tv)

    with torch.inference_mode():
        ms, out = timed(once, args.warmup, args.reps)
    return ms, out.numpy(), {}, ""


# ----------------------------------------------------------------------------
# ONNX Runtime: GroupQueryAttention (a, c), MultiHeadAttention (b)
# ----------------------------------------------------------------------------

def hf_cos_sin_cache_f32(positions):
    """cos/sin caches [P, D/2] as an HF export holds them: f32 inv_freq (HF's
    llama3 formula), one f32 product with the position, f32 cos/sin."""
    import torch
    inv = torch_llama3_inv_freq(torch).numpy()
    ang = positions.astype(np.float32)[:, None] * inv[None, :]
    return np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)


def time_ort_graph(args, threads, graph, feeds, outputs):
    """Median ms of `graph` (one com.microsoft node) on ORT's CPU provider
    with `threads` intra-op threads, inputs and outputs IO-bound to the
    given numpy buffers (the outputs are written in place); Skip with ORT's
    first error line when it cannot run it."""
    import onnxruntime as ort
    from onnx import helper
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    try:
        session = ort.InferenceSession(model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
        binding = session.io_binding()
        for name, value in feeds.items():
            binding.bind_cpu_input(name, value)
        for name, value in outputs.items():
            binding.bind_output(name, "cpu", 0, np.float32, list(value.shape),
                                value.ctypes.data)
        ms, _ = timed(lambda: session.run_with_iobinding(binding), args.warmup, args.reps)
    except Exception as e:  # an op ORT cannot run for this case: say so
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise Skip(f"ONNX Runtime cannot run this case: {first[:300]}")
    return ms


def run_ort(args, case, threads, q, k, v, bias=None):
    try:
        import onnxruntime  # noqa: F401
        from onnx import TensorProto, helper
    except ImportError as e:
        raise Skip(f"onnxruntime/onnx not installed ({e}; requirements-bench.txt)")
    hq, hkv, sq, sk = case["Hq"], case["Hkv"], case["Sq"], case["Sk"]
    F32, I32 = TensorProto.FLOAT, TensorProto.INT32

    def bsnh(x):  # [1, H, S, D] -> [1, S, H*D]
        return np.ascontiguousarray(x.transpose(0, 2, 1, 3).reshape(1, x.shape[2], -1))

    def vi(name, dtype, shape):
        return helper.make_tensor_value_info(name, dtype, shape)

    feeds, outputs = {}, {}
    if case["pe"] == "rope":
        try:
            import torch  # noqa: F401  (the HF-form caches)
        except ImportError as e:
            raise Skip(f"torch needed for the HF-form cos/sin caches ({e})")
        cos, sin = hf_cos_sin_cache_f32(np.arange(sk))
        if case["kind"] == "prefill":
            # First prompt: no past, positions 0..S-1 from seqlens_k.
            qi, ki, vi_ = bsnh(q), bsnh(k), bsnh(v)
            past = []
            feeds.update(query=qi, key=ki, value=vi_)
            present = np.zeros((1, hkv, sk, D), np.float32)
            outputs.update(present_key=present, present_value=present.copy())
        else:
            # Decode step: past_key holds rotated keys 0..Sk-2 in a buffer of
            # Sk slots shared with present_key (ORT writes the new rotated
            # key into slot Sk-1); the new token's k, v are the op's key/value.
            kr = k[0].copy()
            x1, x2 = kr[..., :D // 2].copy(), kr[..., D // 2:].copy()
            kr[..., :D // 2] = x1 * cos[None] - x2 * sin[None]
            kr[..., D // 2:] = x2 * cos[None] + x1 * sin[None]
            kcache = kr[None].copy()
            vcache = v.copy()
            kcache[:, :, sk - 1] = 0
            vcache[:, :, sk - 1] = 0
            past = ["past_key", "past_value"]
            feeds.update(query=bsnh(q), key=bsnh(k[:, :, sk - 1:]), value=bsnh(v[:, :, sk - 1:]),
                         past_key=kcache, past_value=vcache)
            outputs.update(present_key=kcache, present_value=vcache)  # shared buffers
        feeds.update(seqlens_k=np.array([sk - 1], np.int32),
                     total_sequence_length=np.array([sk], np.int32),
                     cos_cache=cos, sin_cache=sin)
        node = helper.make_node(
            "GroupQueryAttention",
            ["query", "key", "value", past[0] if past else "", past[1] if past else "",
             "seqlens_k", "total_sequence_length", "cos_cache", "sin_cache"],
            ["output", "present_key", "present_value"], domain="com.microsoft",
            num_heads=hq, kv_num_heads=hkv, do_rotary=1, rotary_interleaved=0)
        inputs = [vi("query", F32, [1, sq, hq * D]), vi("key", F32, [1, sq, hkv * D]),
                  vi("value", F32, [1, sq, hkv * D])]
        if past:
            inputs += [vi("past_key", F32, [1, hkv, sk, D]), vi("past_value", F32, [1, hkv, sk, D])]
        inputs += [vi("seqlens_k", I32, [1]), vi("total_sequence_length", I32, [1]),
                   vi("cos_cache", F32, [sk, D // 2]), vi("sin_cache", F32, [sk, D // 2])]
        outs = [vi("output", F32, [1, sq, hq * D]), vi("present_key", F32, [1, hkv, sk, D]),
                vi("present_value", F32, [1, hkv, sk, D])]
    else:
        # ALiBi + causal as one additive bias (precomputed, untimed).
        feeds.update(query=bsnh(q), key=bsnh(k), value=bsnh(v), attention_bias=bias)
        node = helper.make_node(
            "MultiHeadAttention", ["query", "key", "value", "", "", "attention_bias"],
            ["output"], domain="com.microsoft", num_heads=hq)
        inputs = [vi("query", F32, [1, sq, hq * D]), vi("key", F32, [1, sk, hkv * D]),
                  vi("value", F32, [1, sk, hkv * D]), vi("attention_bias", F32, [1, hq, sq, sk])]
        outs = [vi("output", F32, [1, sq, hq * D])]
    outputs["output"] = np.zeros((1, sq, hq * D), np.float32)
    graph = helper.make_graph([node], f"attention_{case['name']}", inputs, outs)
    ms = time_ort_graph(args, threads, graph, feeds, outputs)
    out = outputs["output"].reshape(1, sq, hq, D).transpose(0, 2, 1, 3)
    op = "GroupQueryAttention" if case["pe"] == "rope" else "MultiHeadAttention"
    return ms, out, {}, op


# ----------------------------------------------------------------------------
# OpenVINO (ov_peer.py)
# ----------------------------------------------------------------------------

def run_openvino(args, case, threads, q, k, v, bias=None):
    import ov_peer
    hq, hkv, sq, sk = case["Hq"], case["Hkv"], case["Sq"], case["Sk"]
    if case["pe"] == "alibi":
        model = ov_peer.build(hq, hkv, sq, sk, D, mask=bias)
        feeds = [q, k, v, bias]
    else:
        try:
            import torch
        except ImportError as e:
            raise Skip(f"torch needed for HF's f32 llama3 inv_freq ({e})")
        inv = torch_llama3_inv_freq(torch).numpy()
        if case["kind"] == "prefill":
            pos = np.arange(sq, dtype=np.int64)
            model = ov_peer.build(hq, hkv, sq, sk, D, inv_freq=inv, mask="causal")
            feeds = [q, k, v, pos, pos]
        else:
            cos, sin = hf_cos_sin_cache_f32(np.arange(sk))
            kr = k.copy()
            x1, x2 = k[..., :D // 2], k[..., D // 2:]
            kr[..., :D // 2] = x1 * cos - x2 * sin
            kr[..., D // 2:] = x2 * cos + x1 * sin
            model = ov_peer.build(hq, hkv, sq, sk, D, inv_freq=inv, rotate_k=False)
            feeds = [q, kr, v, q_positions(case)]
    try:
        ms, out, note = ov_peer.run(model, feeds, threads, args.warmup, args.reps, timed)
    except ov_peer.OVSkip as e:
        raise Skip(str(e))
    return ms, out, {}, note


# ----------------------------------------------------------------------------

def resolve_pipeline(args):
    exe = os.path.join(args.build, "bin", "posenc-run")
    if args.pipeline:
        return args.pipeline
    if not os.path.exists(exe):
        return ""
    out = subprocess.run([exe, "--print-pipeline"], check=True, capture_output=True,
                         text=True).stdout
    return out.strip().splitlines()[-1].removeprefix("pipeline: ")


def prerotated_pipeline(args, base):
    """ABLATION HOOK (posenc-prerotated): the pipeline text for the variant
    that rotates K once before the kernel. --posenc-prerotated-pipeline gives
    it whole; --posenc-prerotated-options adds options to base's
    posenc-cpu-pipeline{...} (e.g. 'attention-prerotate-keys=true'; an option
    base already sets is replaced). Default: base itself."""
    if args.posenc_prerotated_pipeline:
        return args.posenc_prerotated_pipeline
    if args.posenc_prerotated_options:
        m = re.search(r"posenc-cpu-pipeline(\{[^}]*\})?", base)
        if not m:
            sys.exit("bench/attention: --posenc-prerotated-options needs a posenc-cpu-pipeline "
                     f"in the posenc pipeline, got {base!r}")
        opts = {}  # option -> value, in order; the added ones replace the base's
        for text in ((m.group(1) or "{}")[1:-1], args.posenc_prerotated_options):
            for item in text.split():
                name, _, value = item.partition("=")
                opts[name] = value
        inner = " ".join(f"{n}={v}" if v else n for n, v in opts.items())
        return base[:m.start()] + "posenc-cpu-pipeline{" + inner + "}" + base[m.end():]
    return base


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="small shapes (S=256, Sk=4096), 3 reps: a smoke test")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--cases", default="a,b,c")
    parser.add_argument("--contenders", default=",".join(CONTENDERS))
    parser.add_argument("--reps", type=int, default=None,
                        help="timed calls per contender (default 5; 3 with --quick)")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--posenc-reps", type=int, default=None,
                        help="timed posenc-run calls (default --reps)")
    parser.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    parser.add_argument("--pipeline", default="",
                        help="posenc-run --pipeline (default: its host-tuned default)")
    parser.add_argument("--posenc-prerotated-pipeline", default="",
                        help="ABLATION HOOK: whole pipeline of posenc-prerotated "
                             "(default: the posenc pipeline)")
    parser.add_argument("--posenc-prerotated-options", default="attention-prerotate-keys=true",
                        help="options added to the posenc pipeline's posenc-cpu-pipeline{...} "
                             "for posenc-prerotated (default: 'attention-prerotate-keys=true', "
                             "K rotated once before the flash loop nest)")
    args = parser.parse_args()
    args.reps = args.reps or (3 if args.quick else 5)
    args.posenc_reps = args.posenc_reps or args.reps
    threads_list = [int(t) for t in args.threads.split(",")]
    cases = make_cases(args.quick)
    case_names = args.cases.split(",")
    contenders = args.contenders.split(",")
    for name in case_names:
        if name not in cases:
            sys.exit(f"bench/attention: unknown case {name!r} (a, b, c)")
    for name in contenders:
        if name not in CONTENDERS:
            sys.exit(f"bench/attention: unknown contender {name!r} ({', '.join(CONTENDERS)})")

    host = hostinfo.host(threads=max(threads_list))
    print(f"bench/attention: attention with positional encodings, f32, "
          f"{'QUICK shapes (smoke test, not a measurement)' if args.quick else 'full shapes'}, "
          f"median of {args.reps} calls (posenc {args.posenc_reps}) after {args.warmup} warm-up")
    print(hostinfo.describe(host))

    # Which contenders can run at all (never skipped silently).
    skipped = {}
    posenc_exe = os.path.join(args.build, "bin", "posenc-run")
    if not os.path.exists(posenc_exe):
        for name in ("posenc", "posenc-prerotated"):
            skipped[name] = f"{posenc_exe} not built (scripts/build.sh)"
    try:
        import torch  # noqa: F401
    except ImportError as e:
        for name in ("torch", "torch-unfused"):
            skipped[name] = f"torch not installed ({e}; requirements-hf.txt)"
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError as e:
        skipped["ort"] = f"onnxruntime/onnx not installed ({e}; requirements-bench.txt)"
    import ov_peer
    if ov_peer.available():
        skipped["openvino"] = ov_peer.available()
    pipeline = resolve_pipeline(args)
    pre_pipeline = prerotated_pipeline(args, pipeline)
    if "posenc" not in skipped:
        print(f"posenc pipeline: {pipeline}")
        same = " (same as posenc: ablation hook not wired, ratio = noise)" \
            if pre_pipeline == pipeline else ""
        print(f"posenc-prerotated pipeline{same}: {pre_pipeline}")
    for name in contenders:
        if name in skipped:
            print(f"{name}: skipped: {skipped[name]}")
    print("iree: skipped: not in this first version (bench/iree/rope_attention.py runs "
          "posenc's attention through IREE llvm-cpu)")
    print("check: max |out - ref| <= tol * max |ref|, ref = fp64 NumPy attention of the same "
          "inputs (all heads and rows), tol = 2e-5 + max_position * 2^-24 (the error bound of "
          "the f32 angle pos * inv_freq that HF, ORT's caches and posenc form, and of ALiBi's "
          "f32 bias; 2e-5 for f32 accumulation)")
    active = [c for c in contenders if c not in skipped]

    results = {"shapes": "quick" if args.quick else "full"}
    failed, records, read_gbps = [], [], {}
    readstream = build_readstream(args.build) if any(
        cases[c]["kind"] == "decode" for c in case_names) else None
    base = {t: baselines(t, args.quick) for t in threads_list}
    print(f"baselines: {base[threads_list[0]][2]}; measured before and after the cases, "
          f"the faster counts")

    with tempfile.TemporaryDirectory(prefix="bench-attention-") as tmp:
        for cname in case_names:
            case = cases[cname]
            q, k, v = make_inputs(case)
            fl = flops(case)
            print(f"\ncase {cname}: {case['title']}, f32; {fl / 1e9:.3g} GFLOP per call"
                  + (f", K+V {kv_bytes(case) / 2**20:.0f} MiB read" if case["kind"] == "decode"
                     else ""))
            if case["kind"] == "decode":
                print("  all read a cache of rotated keys (untimed); posenc rotates q, "
                      "torch/ort rotate q + the new key")
            if case["pe"] == "alibi":
                print("  posenc forms ALiBi + causal in its kernel; torch/ort get the [1, H, S, S] "
                      "bias precomputed (untimed)")
            start = time.perf_counter()
            ref = reference(case, q, k, v)
            rows = np.unique(np.linspace(0, case["Sq"] - 1, min(case["Sq"], 64)).astype(np.int64))
            variant = "no-scaling" if case["pe"] == "rope" else "no-alibi"
            wrong = reference(case, q, k, v, rows=rows, variant=variant)
            wrong_err = rel_error(wrong, ref[:, rows])
            tol = tolerance(case)
            print(f"  fp64 reference in {time.perf_counter() - start:.1f} s; tolerance {tol:.2e}; "
                  f"a wrong encoding "
                  f"({'RoPE without llama3 scaling' if variant == 'no-scaling' else 'no ALiBi'}) "
                  f"is off by {wrong_err:.2e} ({wrong_err / tol:.0f}x the tolerance)")
            bias = alibi_causal_bias(case) if case["pe"] == "alibi" and any(
                c in active for c in ("torch", "torch-unfused", "ort", "openvino")) else None
            inputs = []
            if any(c.startswith("posenc") for c in active):
                for name, x in zip(("q", "k", "v"), posenc_inputs(case, q, k, v)):
                    inputs.append(os.path.join(tmp, f"{cname}_{name}.npy"))
                    np.save(inputs[-1], x)
            for t in threads_list:
                print(f"  threads={t}")
                for name in active:
                    try:
                        if name == "posenc":
                            r = run_posenc(args, case, t, args.pipeline, tmp, inputs, name)
                        elif name == "posenc-prerotated":
                            r = run_posenc(args, case, t, pre_pipeline, tmp, inputs, name)
                        elif name in ("torch", "torch-unfused"):
                            r = run_torch(args, case, t, q, k, v, name == "torch", bias)
                        elif name == "ort":
                            r = run_ort(args, case, t, q, k, v, bias)
                        else:
                            r = run_openvino(args, case, t, q, k, v, bias)
                    except Skip as e:
                        print(f"    {name:18s} skipped: {e}")
                        continue
                    median_ms, out, extra, note = r
                    err = rel_error(out, ref[None])
                    del out
                    time.sleep(0.2)  # let the worker threads of the last peer stop spinning
                    if not err <= tol:
                        print(f"    {name:18s} FAILED the check: error {err:.2e} > {tol:.2e} "
                              f"(its time, {median_ms:.2f} ms, does not count)")
                        failed.append(f"{cname}:{name}:t{t}")
                        continue
                    line = f"    {name:18s} {median_ms:10.2f} ms  {fl / median_ms / 1e6:8.2f} GFLOP/s"
                    if case["kind"] == "decode":
                        line += f"  K/V {kv_bytes(case) / median_ms / 1e6:6.2f} GB/s"
                    line += f"  err {err:.1e}" + (f"  ({note})" if note else "")
                    print(line)
                    records.append(dict(case=cname, t=t, name=name, ms=median_ms, **extra))
                if case["kind"] == "decode" and readstream:
                    read_gbps[(cname, t)] = read_stream_gbps(readstream, case, t, args.reps)
                    print(f"    {'read-only stream':18s} K/V {read_gbps[(cname, t)]:6.2f} GB/s "
                          "(readstream.cpp: the ceiling)")
            del q, k, v, ref, bias

    for t in threads_list:  # the baselines again: the faster of the two counts
        again = baselines(t, args.quick)
        base[t] = (max(base[t][0], again[0]), max(base[t][1], again[1]))
        results[f"sgemm_gflops_t{t}"] = base[t][0]
        results[f"copy_gbps_t{t}"] = base[t][1]

    print("\nsummary (sgemm and copy: the faster of the measurements before and after)")
    for t in threads_list:
        print(f"  threads={t}: sgemm {base[t][0]:.1f} GFLOP/s, copy {base[t][1]:.2f} GB/s "
              "(read + written bytes / time)")
    for cname in case_names:
        case = cases[cname]
        fl = flops(case)
        for t in threads_list:
            ms = {r["name"]: r["ms"] for r in records if r["case"] == cname and r["t"] == t}
            if not ms:
                continue
            print(f"  case {cname} threads={t}")
            for r in (r for r in records if r["case"] == cname and r["t"] == t):
                kk = f"{cname}_{key(r['name'])}"
                gflops = fl / r["ms"] / 1e6
                results[f"{kk}_ms_t{t}"] = r["ms"]
                results[f"{kk}_gflops_t{t}"] = gflops
                results[f"{kk}_pct_sgemm_t{t}"] = 100 * gflops / base[t][0]
                line = (f"    {r['name']:18s} {r['ms']:10.2f} ms  {gflops:8.2f} GFLOP/s "
                        f"{100 * gflops / base[t][0]:6.2f}% sgemm")
                if case["kind"] == "decode":
                    gbps = kv_bytes(case) / r["ms"] / 1e6
                    results[f"{kk}_kv_gbps_t{t}"] = gbps
                    results[f"{kk}_pct_copy_t{t}"] = 100 * gbps / base[t][1]
                    line += f"  K/V {gbps:6.2f} GB/s {100 * gbps / base[t][1]:6.2f}% copy"
                    if (cname, t) in read_gbps:
                        results[f"{kk}_pct_read_t{t}"] = 100 * gbps / read_gbps[(cname, t)]
                        line += f" {100 * gbps / read_gbps[(cname, t)]:6.2f}% read"
                if "maxrss_mib" in r and r["name"] == "posenc":
                    results[f"{kk}_maxrss_mib_t{t}"] = r["maxrss_mib"]
                    line += f"  max RSS {r['maxrss_mib']:.0f} MiB"
                print(line)
            if "posenc" not in ms:
                continue
            p = ms["posenc"]
            if cname == "a":
                peers = {n: ms[n] for n in ("torch", "ort", "openvino") if n in ms}
                if peers:
                    best = min(peers, key=peers.get)
                    results[f"a_posenc_vs_best_peer_t{t}"] = peers[best] / p
                    print(f"    ratio posenc vs the fastest of torch, ort and openvino ({best}): "
                          f"{peers[best] / p:.3g}x (> 1: posenc faster)")
            if "openvino" in ms:
                results[f"{cname}_posenc_vs_openvino_t{t}"] = ms["openvino"] / p
                print(f"    ratio posenc vs openvino: {ms['openvino'] / p:.3g}x "
                      "(> 1: posenc faster)")
            if cname == "b" and "ort" in ms:
                results[f"b_posenc_vs_ort_t{t}"] = ms["ort"] / p
                print(f"    ratio posenc vs ort: {ms['ort'] / p:.3g}x (> 1: posenc faster)")
            if cname == "c":
                print(f"    posenc decode reads K/V at {results[f'c_posenc_pct_copy_t{t}']:.2f}% "
                      "of the copy bandwidth")
                if (cname, t) in read_gbps:
                    results[f"c_read_gbps_t{t}"] = read_gbps[(cname, t)]
                    print(f"    read-only stream of the same K/V: {read_gbps[(cname, t)]:.2f} GB/s "
                          f"= {100 * read_gbps[(cname, t)] / base[t][1]:.2f}% of the copy; "
                          f"posenc at {results['c_posenc_pct_read_t' + str(t)]:.2f}% of it")
            if "posenc-prerotated" in ms:
                results[f"{cname}_posenc_vs_prerotated_t{t}"] = ms["posenc-prerotated"] / p
                print(f"    ratio posenc vs posenc-prerotated: {ms['posenc-prerotated'] / p:.3g}x "
                      "(> 1: posenc faster)")
    if failed:
        results["failed"] = ",".join(failed)
    fmt = lambda v: v if isinstance(v, str) else f"{v:.4g}"  # noqa: E731
    print("RESULT " + " ".join(f"{k}={fmt(v)}" for k, v in results.items())
          + " " + hostinfo.result_fields(host))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
