#!/usr/bin/env python3
"""bench/rope: RoPE on q and k, f32 [1, 32, 4096, 128], half-split, all 128
channels rotated, positions 0..4095, rope_theta 500000 -- posenc against its
peers, all measured in this one run, at 1 and 2 threads:

  ntcopy   a STREAM-style copy of the same bytes with non-temporal stores
           (peers.cpp): the bandwidth ceiling.
  cxx      the plain C++ loop, -O3 -march=native, OpenMP (peers.cpp).
  torch    PyTorch (CPU) in Hugging Face's form: LlamaRotaryEmbedding for
           cos/sin, then apply_rotary_pos_emb on q and k (HF's own code).
  ort      ONNX Runtime's com.microsoft RotaryEmbedding on q and k, outputs
           bound to preallocated buffers (IO binding), cos/sin caches given.
  posenc   bench/rope/rope.mlir through posenc-run (posenc-cpu-pipeline).

Every peer computes its cos/sin inside the timed call except ort (its
kernel takes the caches as inputs). Buffers are allocated and touched once
before timing (posenc-run and peers.cpp pre-touch; torch's HF form allocates
its results per call, as HF does). Times are medians of --iterations calls
after warm-up. All outputs are checked against an fp64 NumPy reference on the
same inputs (max abs error printed; the run fails beyond 1e-3: like HF, every
peer forms the angle as one f32 product pos * inv_freq, off by up to about
pos * 2^-24 rad, 2.4e-4 at position 4095).

The last line is

  RESULT key=value ...

with, for T in 1 and 2 threads: posenc_vs_ntcopy_tT (ntcopy time / posenc
time: the fraction of the streaming copy's bandwidth posenc reaches; ntcopy is
measured before and after the others and the faster is used), speedup_vs_cxx_tT,
speedup_vs_torch_tT, speedup_vs_ort_tT (peer time / posenc time), and the
medians in ms (<peer>_ms_tT), then the host (bench/hostinfo.py): host_cpu,
host_family, host_model, host_isa (avx2 | avx512 | avx512_bf16 | other),
host_cores.

Usage: run.py [--build build] [--iterations 20] [--threads 1,2] [--seq 4096]
              [--pipeline TEXT]
(The posenc pipeline used, posenc-run's host-tuned default unless
--pipeline is given, is printed under the host line.)
(--seq only for smoke tests: the issue's shape is 4096 tokens.)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import hostinfo  # noqa: E402
H, D, THETA = 32, 128, 500000.0


def median(values):
    return float(np.median(np.asarray(values)))


def run(cmd, env=None):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    return out.stdout


def build_peers(build):
    exe = os.path.join(build, "bench", "rope-peers")
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    src = os.path.join(HERE, "peers.cpp")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        run(["clang++-22", "-O3", "-march=native", "-fopenmp", "-o", exe, src])
    return exe


def peer_ms(exe, mode, threads, iterations):
    out = run([exe, mode, str(threads), str(iterations), str(H), str(S), str(D),
               str(THETA)])
    return float(re.search(r"median_ms=([0-9.e+-]+)", out).group(1))


def max_error(got, ref_rows, rows):
    return float(np.max(np.abs(got[:, :, rows, :].astype(np.float64) - ref_rows)))


def rope_module(tmp):
    """bench/rope/rope.mlir, with the sequence length of this run."""
    with open(os.path.join(HERE, "rope.mlir")) as f:
        text = f.read().replace("x4096x", f"x{S}x")
    path = os.path.join(tmp, "rope.mlir")
    with open(path, "w") as f:
        f.write(text)
    return path


def bench_posenc(args, threads, qpath, kpath, outdir):
    cmd = [os.path.join(args.build, "bin", "posenc-run"), rope_module(os.path.dirname(qpath)),
           f"--inputs={qpath},{kpath}", f"--threads={threads}",
           f"--iterations={args.iterations}", "--warmup=2"]
    if args.pipeline:
        cmd.append(f"--pipeline={args.pipeline}")
    if outdir:
        cmd.append(f"--outputs-dir={outdir}")
    out = run(cmd)
    return float(re.search(r"RESULT entry=rope median_ms=([0-9.e+-]+)", out).group(1))


def bench_torch(threads, q, k, iterations):
    import torch
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import (LlamaRotaryEmbedding,
                                                          apply_rotary_pos_emb)
    torch.set_num_threads(threads)
    config = LlamaConfig(hidden_size=H * D, num_attention_heads=H, head_dim=D,
                         max_position_embeddings=S,
                         rope_parameters={"rope_type": "default", "rope_theta": THETA})
    rotary = LlamaRotaryEmbedding(config)
    tq, tk = torch.from_numpy(q), torch.from_numpy(k)
    pos = torch.arange(S)[None]

    def once():
        with torch.no_grad():
            cos, sin = rotary(tq, pos)
            return apply_rotary_pos_emb(tq, tk, cos, sin)

    for _ in range(2):
        out = once()
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        out = once()
        times.append((time.perf_counter() - start) * 1e3)
    return median(times), (out[0].numpy(), out[1].numpy())


def bench_ort(threads, q, k, iterations):
    import onnxruntime as ort
    from onnx import TensorProto, helper

    half = D // 2
    shape = [1, H, S, D]
    nodes = [helper.make_node("RotaryEmbedding", [x, "pos", "cos", "sin"], [x + "_out"],
                              domain="com.microsoft", interleaved=0)
             for x in ("q", "k")]
    graph = helper.make_graph(
        nodes, "rope",
        [helper.make_tensor_value_info("q", TensorProto.FLOAT, shape),
         helper.make_tensor_value_info("k", TensorProto.FLOAT, shape),
         helper.make_tensor_value_info("pos", TensorProto.INT64, [1, S]),
         helper.make_tensor_value_info("cos", TensorProto.FLOAT, [S, half]),
         helper.make_tensor_value_info("sin", TensorProto.FLOAT, [S, half])],
        [helper.make_tensor_value_info("q_out", TensorProto.FLOAT, shape),
         helper.make_tensor_value_info("k_out", TensorProto.FLOAT, shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    # HF's f32 cos/sin: inv_freq in f32, angle = f32(pos) * inv_freq.
    inv = (1.0 / (THETA ** (np.arange(0, D, 2, dtype=np.int64).astype(np.float32) / D))).astype(np.float32)
    ang = np.arange(S, dtype=np.float32)[:, None] * inv[None, :]
    cos, sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
    pos = np.arange(S, dtype=np.int64)[None]
    qo, ko = np.empty_like(q), np.empty_like(k)
    qo.fill(0), ko.fill(0)
    binding = session.io_binding()
    for name, value in (("q", q), ("k", k), ("pos", pos), ("cos", cos), ("sin", sin)):
        binding.bind_cpu_input(name, value)
    for name, value in (("q_out", qo), ("k_out", ko)):
        binding.bind_output(name, "cpu", 0, np.float32, list(value.shape),
                            value.ctypes.data)
    for _ in range(2):
        session.run_with_iobinding(binding)
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        session.run_with_iobinding(binding)
        times.append((time.perf_counter() - start) * 1e3)
    return median(times), (qo, ko)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--seq", type=int, default=4096)
    parser.add_argument("--pipeline", default="",
                        help="posenc-run --pipeline (default: its host-tuned default)")
    args = parser.parse_args()
    global S, BYTES
    S = args.seq
    BYTES = 4 * H * S * D * 4  # q, k in; q, k out
    threads_list = [int(t) for t in args.threads.split(",")]
    peers = build_peers(args.build)

    rng = np.random.default_rng(2024)
    q = rng.uniform(-1, 1, (1, H, S, D)).astype(np.float32)
    k = rng.uniform(-1, 1, (1, H, S, D)).astype(np.float32)
    # The fp64 reference (independent of posenc) on a sample of 64 token
    # rows (position = row), every head and channel.
    rows = np.sort(rng.choice(S, 64, replace=False))
    half = D // 2
    inv = THETA ** (-np.arange(half, dtype=np.float64) * 2 / D)

    def reference_rows(x):
        ang = rows[:, None].astype(np.float64) * inv[None, :]
        c, s = np.cos(ang), np.sin(ang)
        xs = x[:, :, rows, :].astype(np.float64)
        x1, x2 = xs[..., :half], xs[..., half:]
        return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)
    ref_q, ref_k = reference_rows(q), reference_rows(k)

    def check(name, outputs):
        err = max(max_error(outputs[0], ref_q, rows), max_error(outputs[1], ref_k, rows))
        print(f"  {name:7s} max |error| vs fp64 reference: {err:.2e}")
        if not err < 1e-3:
            sys.exit(f"bench/rope: {name} output differs from the reference by {err}")

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        qpath, kpath = os.path.join(tmp, "q.npy"), os.path.join(tmp, "k.npy")
        np.save(qpath, q)
        np.save(kpath, k)
        print(f"bench/rope: RoPE on q and k, f32 [1, {H}, {S}, {D}], "
              f"{BYTES / 2**20:.0f} MiB moved per call, {args.iterations} iterations")
        host = hostinfo.host(threads=max(threads_list))
        print(hostinfo.describe(host))
        pipeline = args.pipeline or run([os.path.join(args.build, "bin", "posenc-run"),
                                         "--print-pipeline"]).splitlines()[-1]
        print(f"posenc {pipeline.removeprefix('pipeline: ')}")
        for t in threads_list:
            outdir = os.path.join(tmp, f"out{t}")
            ms = {}
            copy_before = peer_ms(peers, "ntcopy", t, args.iterations)
            ms["posenc"] = bench_posenc(args, t, qpath, kpath, outdir)
            ms["cxx"] = peer_ms(peers, "cxxloop", t, args.iterations)
            ms["torch"], torch_out = bench_torch(t, q, k, args.iterations)
            ms["ort"], ort_out = bench_ort(t, q, k, args.iterations)
            copy_after = peer_ms(peers, "ntcopy", t, args.iterations)
            ms["ntcopy"] = min(copy_before, copy_after)
            print(f"threads={t}")
            for name in ("ntcopy", "posenc", "cxx", "torch", "ort"):
                print(f"  {name:7s} median {ms[name]:8.3f} ms  {BYTES / ms[name] / 1e6:6.2f} GB/s")
            check("posenc", (np.load(os.path.join(outdir, "out0.npy")),
                             np.load(os.path.join(outdir, "out1.npy"))))
            check("torch", torch_out)
            check("ort", ort_out)
            results[f"posenc_vs_ntcopy_t{t}"] = ms["ntcopy"] / ms["posenc"]
            for peer in ("cxx", "torch", "ort"):
                results[f"speedup_vs_{peer}_t{t}"] = ms[peer] / ms["posenc"]
            for name, value in ms.items():
                results[f"{name}_ms_t{t}"] = value
    print("RESULT " + " ".join(f"{key}={value:.4g}" for key, value in results.items())
          + " " + hostinfo.result_fields(host))


if __name__ == "__main__":
    main()
