#!/usr/bin/env python3
"""Issue #12's prefill attention through IREE (llvm-cpu), five ways in one run:

  iree-torch         IREE's own attention: a torch module (HF RoPE with the
                     llama3 frequencies, repeat_kv, scaled_dot_product_attention
                     with is_causal) exported by iree-turbine's aot.export,
                     compiled by iree-compile (its torch input conversion makes
                     SDPA an iree_linalg_ext.attention).
  posenc-iree-ref    posenc.attention with a rope(...) clause, lowered by
                     posenc-to-linalg-pipeline{flash-attention=false} (the
                     reference decomposition: an Sq x Sk score matrix), then
                     iree-compile.
  posenc-iree-fused  the same module through posenc-to-linalg-pipeline with
                     its defaults (flash-attention=true): the flash loop nest
                     (posenc-tile-attention, 512 x 512 tiles, online softmax,
                     RoPE per tile) with its scf.forall rewritten into scf.for
                     (posenc-forall-to-for), then iree-compile.
  posenc-iree-kernels
                     the same module with the attention as an IREE dispatch
                     of posenc's own flash kernel, compiled by posenc-cpu-
                     pipeline{workgroups} into an object that IREE links
                     (scripts/posenc_iree_kernels.py, issue #25): IREE's
                     workgroups run the kernel's blocks.
  posenc-run         the same module compiled and run by posenc alone
                     (posenc-run, default posenc-cpu-pipeline).

Shape: batch 1, Hq=32, Hkv=8, D=128, causal, RoPE half-split with llama3
scaling (theta 500000, factor 8), f32, for each S of --seqs (case a).
`--cases` adds bench/attention's case b (ALiBi, 32 heads, each S of
--seqs) and c (decode: one query over each Sk of --decode-sks, keys as a
cache of rotated keys); iree-torch runs case a only. RESULT keys of case a
start with sS_, of b with b_sS_, of c with c_skSK_. IREE's own
attention ran at 0.16 GFLOP/s here (IREE 3.13: S=512 took 9-13 s per call;
at S=2048 one call did not finish in 5 minutes on a loaded machine), so it
is timed only at S <= --iree-torch-max-seq (default 512); the other three
run at every S.

Every output is checked against the fp64 NumPy reference of bench/attention
(RoPE and softmax in fp64): max |out - ref| <= tol * max |ref|,
tol = 2e-5 + (S - 1) * 2^-24 (bench/attention's tolerance()). A contender
that fails the check or does not compile is reported and left out of the
ratios; the script then exits with status 1 after the RESULT line.

IREE runs with the local-task driver on --threads workers
(--task_topology_group_count), posenc-run with --threads. Each IREE
contender is compiled, its inputs uploaded once (untimed), its output taken
from a first, untimed call; then the IREE contenders are timed in --reps
rounds of one call each, in a rotating order, so that load changes on a
shared machine hit them alike. Printed: the median and the minimum of those
calls; posenc-run reports its own median of --reps runs after one warm-up.
GFLOP/s counts the unmasked half (4*Hq*D*S*(S+1)/2), from the median.

Last line:
  RESULT bench=iree_attention_prefill threads=T heads=32 kv_heads=8 dim=128
         reps=R sS_<contender>_ms=<median> sS_<contender>_min_ms=<min>
         sS_<contender>_gflops=...
         sS_fused_vs_ref[_min]=<ref time / fused time>
         sS_fused_vs_iree_torch[_min]=<iree-torch time / fused time>
         sS_posenc_run_vs_fused=<fused time / posenc-run time>
         sS_kernels_vs_fused[_min]=<fused time / kernels time>
         sS_kernels_vs_posenc_run=<posenc-run time / kernels time>
         numerics=ok|MISMATCH host_...
(contender names with hyphens as underscores; ratios of medians, `_min` of
minima; > 1 means the second-named is faster; posenc-run has no _min.)

Usage: attention_prefill.py [--build build] [--seqs 512,2048] [--threads 2]
           [--cases a,b,c] [--decode-sks 32768]
           [--reps 5] [--iree-torch-max-seq 512]
           [--contenders iree-torch,posenc-iree-ref,posenc-iree-fused,posenc-iree-kernels,posenc-run]
           [--kernel-workgroups N]
           [--fused-options 'attention-query-tile=256 ...' | --fused-pipeline TEXT]
           [--iree-flags '--iree-opt-level=O3 ...']
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
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "attention"))
import hostinfo  # noqa: E402
import posenc_iree as pi  # noqa: E402
import run as ba  # noqa: E402  (bench/attention: reference, module, HF RoPE)

HQ, HKV, D = 32, 8, ba.D
CONTENDERS = ["iree-torch", "posenc-iree-ref", "posenc-iree-fused", "posenc-iree-kernels",
              "posenc-run"]
PIPELINES = {"posenc-iree-ref": "posenc-to-linalg-pipeline{flash-attention=false}"}


def case_for(s, name="a"):
    """bench/attention's cases: a (prefill, RoPE, GQA 32/8), b (prefill,
    ALiBi, 32 heads) at S = s, c (decode of one query over s keys)."""
    if name == "b":
        return dict(name="b", kind="prefill", pe="alibi", Hq=HQ, Hkv=HQ, Sq=s, Sk=s,
                    prefix=f"b_s{s}_", title=f"prefill, ALiBi, H={HQ} S={s} D={D}, causal")
    if name == "c":
        return dict(name="c", kind="decode", pe="rope", Hq=HQ, Hkv=HKV, Sq=1, Sk=s,
                    prefix=f"c_sk{s}_",
                    title=f"decode, RoPE llama3 x8, 1 query at position {s - 1}, Sk={s}, "
                          f"Hq={HQ} Hkv={HKV} D={D}")
    return dict(name="a", kind="prefill", pe="rope", Hq=HQ, Hkv=HKV, Sq=s, Sk=s,
                prefix=f"s{s}_",
                title=f"prefill, RoPE llama3 x8, Hq={HQ} Hkv={HKV} S={s} D={D}, causal")


def torch_module(s):
    """HF's Llama attention core as a frontend exports it: RoPE (f32 cos/sin
    of f32 inv_freq x positions, rotate_half), repeat_kv, SDPA with
    is_causal (transformers' sdpa_attention_forward)."""
    import torch
    import torch.nn.functional as F
    g = HQ // HKV

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("inv", ba.torch_llama3_inv_freq(torch))

        def forward(self, q, k, v):
            cos, sin = ba.torch_cos_sin(torch, self.inv, torch.arange(s))
            qr, kr = ba.torch_rope(torch, q, cos, sin), ba.torch_rope(torch, k, cos, sin)
            kr = kr[:, :, None].expand(1, HKV, g, s, D).reshape(1, HQ, s, D)
            vv = v[:, :, None].expand(1, HKV, g, s, D).reshape(1, HQ, s, D)
            return F.scaled_dot_product_attention(qr, kr, vv, is_causal=True)

    return Block()


def build_iree_torch(s, extra_flags):
    import torch
    from iree.turbine import aot
    example = (torch.zeros(1, HQ, s, D), torch.zeros(1, HKV, s, D),
               torch.zeros(1, HKV, s, D))
    exported = aot.export(torch_module(s), args=example)
    mlir = str(exported.mlir_module)
    if "scaled_dot_product_attention" not in mlir:
        raise RuntimeError("the export holds no torch SDPA op")
    import iree.compiler.tools as ireec
    vmfb = ireec.compile_str(mlir, input_type="auto",
                             extra_args=pi.IREE_FLAGS + list(extra_flags))
    return pi.Module(vmfb), "main"


def build_posenc_iree_kernels(build, case, workgroups, tmp, extra_flags):
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import posenc_iree_kernels as pk
    host = pk.convert(ba.posenc_module(case), os.path.join(tmp, f"kernels_{case['prefix']}"),
                      build=build, workgroups=workgroups)
    return pi.Module(pi.compile_with_iree(host, extra_flags)), "attention"


def build_posenc_iree(opt, case, pipeline, extra_flags):
    linalg = pi.lower_with_posenc(opt, ba.posenc_module(case), pipeline)
    return pi.Module(pi.compile_with_iree(linalg, extra_flags)), "attention"


class IreeContender:
    """A compiled module with its inputs uploaded once (untimed)."""

    def __init__(self, module, fn_name, inputs):
        import iree.runtime as rt
        dev = module._config.device
        self.module = module
        self.args = [rt.asdevicearray(dev, x) for x in inputs]
        self.fn = module.function(fn_name)
        self.times = []

    def call(self):
        return self.fn(*self.args).to_host()

    def timed_call(self):
        t0 = time.perf_counter()
        self.fn(*self.args)
        self.times.append((time.perf_counter() - t0) * 1e3)


def run_posenc_run(build, case, inputs, threads, reps, tmp):
    tag = case["prefix"]
    mlir = os.path.join(tmp, f"attention_{tag}.mlir")
    with open(mlir, "w") as f:
        f.write(ba.posenc_module(case))
    names = []
    for i, x in enumerate(inputs):
        names.append(os.path.join(tmp, f"in{tag}{i}.npy"))
        np.save(names[-1], x)
    outdir = os.path.join(tmp, f"out_{tag}")
    cmd = [os.path.join(build, "bin", "posenc-run"), mlir, f"--inputs={','.join(names)}",
           f"--threads={threads}", f"--iterations={reps}", "--warmup=1",
           f"--outputs-dir={outdir}"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"posenc-run exited with {proc.returncode}: "
                           f"{(proc.stdout + proc.stderr)[-1500:]}")
    ms = float(re.search(r"RESULT entry=\S+ median_ms=([0-9.e+-]+)", proc.stdout).group(1))
    return ms, np.load(os.path.join(outdir, "out0.npy")), time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--seqs", default="512,2048")
    ap.add_argument("--cases", default="a",
                    help="a (prefill, RoPE), b (prefill, ALiBi) at each --seqs; "
                         "c (decode) at each --decode-sks")
    ap.add_argument("--decode-sks", default="32768")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--iree-torch-max-seq", type=int, default=512)
    ap.add_argument("--contenders", default=",".join(CONTENDERS))
    ap.add_argument("--fused-options", default="",
                    help="extra posenc-to-linalg-pipeline options of posenc-iree-fused")
    ap.add_argument("--fused-pipeline", default="",
                    help="the whole pass pipeline of posenc-iree-fused (overrides "
                         "--fused-options)")
    ap.add_argument("--kernel-workgroups", type=int, default=None,
                    help="posenc-iree-kernels: most workgroups per attention "
                         "(scripts/posenc_iree_kernels.py's default)")
    ap.add_argument("--iree-flags", default="",
                    help="extra iree-compile flags (space-separated) for every IREE "
                         "contender, after test/lib/posenc_iree.py's IREE_FLAGS")
    a = ap.parse_args()
    iree_flags = a.iree_flags.split()
    contenders = a.contenders.split(",")
    for c in contenders:
        if c not in CONTENDERS:
            ap.error(f"unknown contender {c}")
    cases = []
    for name in a.cases.split(","):
        if name not in ("a", "b", "c"):
            ap.error(f"unknown case {name}")
        sizes = a.decode_sks if name == "c" else a.seqs
        cases += [case_for(int(x), name) for x in sizes.split(",")]
    opt = os.path.join(a.build, "bin", "posenc-opt")
    import iree.runtime as rt
    rt.flags.parse_flags(f"--task_topology_group_count={a.threads}")
    host = hostinfo.host(a.threads)
    print(hostinfo.describe(host))
    try:
        print(f"load average at start: {os.getloadavg()[0]:.2f} (1 min), "
              f"{os.cpu_count()} cpus")
    except OSError:
        pass
    fused_pipeline = "posenc-to-linalg-pipeline{flash-attention=true" + (
        f" {a.fused_options}" if a.fused_options else "") + "}"
    if a.fused_pipeline:
        fused_pipeline = a.fused_pipeline
    print(f"posenc-iree-fused pipeline: {fused_pipeline}")
    print(f"iree-compile flags: {' '.join(pi.IREE_FLAGS + iree_flags)}")

    fields, failed = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            s, p = case["Sk"], case["prefix"]
            print(f"\n{case['title']}")
            q, k, v = ba.make_inputs(case)
            want = ba.reference(case, q, k, v)
            # posenc's inputs: a decode step reads a cache of rotated keys.
            q, k, v = ba.posenc_inputs(case, q, k, v)
            tol = ba.tolerance(case)
            flops = ba.flops(case)
            iree, notes, outs, ms, best = {}, {}, {}, {}, {}
            # Compile every IREE contender and check its output (the warm-up
            # call), then time them in rounds, one call each per round in a
            # rotating order: on a shared machine, load changes during the
            # run hit all contenders alike.
            for c in contenders:
                if c == "posenc-run":
                    continue
                if c == "iree-torch" and case["name"] != "a":
                    continue
                if c == "iree-torch" and s > a.iree_torch_max_seq:
                    print(f"  {c:18s} skipped (S > --iree-torch-max-seq {a.iree_torch_max_seq})")
                    continue
                try:
                    t0 = time.perf_counter()
                    if c == "iree-torch":
                        mod, fn = build_iree_torch(s, iree_flags)
                    elif c == "posenc-iree-kernels":
                        mod, fn = build_posenc_iree_kernels(a.build, case, a.kernel_workgroups,
                                                            tmp, iree_flags)
                    else:
                        mod, fn = build_posenc_iree(opt, case, PIPELINES.get(c, fused_pipeline),
                                                    iree_flags)
                    notes[c] = f"export+compile {time.perf_counter() - t0:.1f} s"
                    iree[c] = IreeContender(mod, fn, (q, k, v))
                    outs[c] = iree[c].call()
                except Exception as e:  # noqa: BLE001 (a contender failing is a result)
                    print(f"  {c:18s} FAILED ({type(e).__name__}: {str(e)[-600:]})")
                    failed.append(f"{p}{c}")
                    iree.pop(c, None)
            names = list(iree)
            for r in range(a.reps):
                for i in range(len(names)):
                    iree[names[(r + i) % len(names)]].timed_call()
            for c in names:
                ms[c], best[c] = ba.median(iree[c].times), min(iree[c].times)
            iree.clear()  # free the modules and their buffers
            if "posenc-run" in contenders:
                try:
                    ms["posenc-run"], outs["posenc-run"], total = run_posenc_run(
                        a.build, case, (q, k, v), a.threads, a.reps, tmp)
                    best["posenc-run"] = None
                    notes["posenc-run"] = f"posenc-run total {total:.1f} s, its own median"
                except Exception as e:  # noqa: BLE001
                    print(f"  {'posenc-run':18s} FAILED ({type(e).__name__}: {str(e)[-600:]})")
                    failed.append(f"{p}posenc-run")
            for c in contenders:
                if c not in ms:
                    continue
                err = ba.rel_error(outs[c], want)
                ok = err <= tol
                t = ms[c]
                low = f"min {best[c]:9.1f}" if best[c] is not None else " " * 13
                print(f"  {c:18s} {t:10.1f} ms ({low})  {flops / t / 1e6:7.2f} GFLOP/s  "
                      f"err/max|ref| {err:.1e} (tol {tol:.1e}) {'ok' if ok else 'MISMATCH'}  "
                      f"({notes[c]})")
                if not ok:
                    failed.append(f"{p}{c}")
                    del ms[c]
                    continue
                fields[f"{p}{ba.key(c)}_ms"] = f"{t:.1f}"
                if best[c] is not None:
                    fields[f"{p}{ba.key(c)}_min_ms"] = f"{best[c]:.1f}"
                fields[f"{p}{ba.key(c)}_gflops"] = f"{flops / t / 1e6:.2f}"
            ratios = [("fused_vs_ref", "posenc-iree-ref", "posenc-iree-fused"),
                      ("fused_vs_iree_torch", "iree-torch", "posenc-iree-fused"),
                      ("posenc_run_vs_fused", "posenc-iree-fused", "posenc-run"),
                      ("kernels_vs_fused", "posenc-iree-fused", "posenc-iree-kernels"),
                      ("kernels_vs_posenc_run", "posenc-run", "posenc-iree-kernels")]
            for name, slow, fast in ratios:
                if slow in ms and fast in ms:
                    r = ms[slow] / ms[fast]
                    fields[f"{p}{name}"] = f"{r:.2f}"
                    line = f"  {slow} / {fast}: {r:.2f}x (medians)"
                    if best.get(slow) and best.get(fast):
                        rmin = best[slow] / best[fast]
                        fields[f"{p}{name}_min"] = f"{rmin:.2f}"
                        line += f", {rmin:.2f}x (minima)"
                    print(line)
    try:
        print(f"\nload average at end: {os.getloadavg()[0]:.2f} (1 min)")
    except OSError:
        pass
    numerics = "MISMATCH" if failed else "ok"
    print(f"RESULT bench=iree_attention_prefill threads={a.threads} heads={HQ} "
          f"kv_heads={HKV} dim={D} reps={a.reps} "
          + " ".join(f"{k}={v}" for k, v in fields.items())
          + f" numerics={numerics} {hostinfo.result_fields(host)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
