#!/usr/bin/env python3
"""Two real attention blocks from examples/, compiled and run by posenc-run,
checked against an fp64 reference and timed against PyTorch SDPA.

  llama31_8b_attention.mlir   Llama-3.1-8B: GQA 32/8, head_dim 128, S=2048,
                              causal, RoPE theta 500000 with llama3 scaling x8
  mpt7b_alibi_attention.mlir  MPT-7B style: 32 heads of 128, S=2048, causal,
                              ALiBi (bias max 8, MPT's causal key-linear form)

For each block: seeded random q, k, v (f32, the inputs of bench/attention
cases a and b) are written as .npy; build/bin/posenc-run compiles the module
with its host-tuned default pipeline and runs it (--threads, median of
--iterations calls after one warm-up); the output is checked against
bench/attention's fp64 NumPy reference (every head and row; RoPE and ALiBi
recomputed in fp64): max |out - ref| <= tol * max |ref| with bench/attention's
tol = 2e-5 + max_position * 2^-24 (the error bound of the f32 angle
pos * inv_freq and of ALiBi's f32 bias, plus f32 accumulation). If torch is
installed, torch.nn.functional.scaled_dot_product_attention runs on the same
inputs at the same thread count, Llama with RoPE in Hugging Face's form before
it (bench/attention's run_torch: cos/sin per call, rotate_half), ALiBi with the
[1, H, S, S] bias + causal mask precomputed (untimed), and its output is
checked too.

The reference, the tolerance, the inputs and the torch contender are imported
from bench/attention/run.py (not copied). Exit status 1 if any check fails or
posenc-run fails. About 20-40 s on 2 cores.

Usage: attention_demo.py [--build build] [--threads N] [--iterations N]
                         [--torch-reps N] [--no-torch]
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load_bench():
    """bench/attention/run.py as a module (it is a script, not a package)."""
    path = os.path.join(ROOT, "bench", "attention", "run.py")
    spec = importlib.util.spec_from_file_location("bench_attention_run", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_posenc(exe, mlir, inputs, outdir, threads, iterations):
    cmd = [exe, mlir, f"--inputs={','.join(inputs)}", f"--threads={threads}",
           f"--iterations={iterations}", "--warmup=1", f"--outputs-dir={outdir}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise RuntimeError(f"posenc-run exited with {proc.returncode} on {mlir}")
    ms = float(re.search(r"RESULT entry=\S+ median_ms=([0-9.e+-]+)", proc.stdout).group(1))
    compiled = re.search(r"compiled @\S+ in ([0-9.]+) ms", proc.stdout)
    compile_s = float(compiled.group(1)) / 1e3 if compiled else float("nan")
    return ms, compile_s, np.load(os.path.join(outdir, "out0.npy"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                        help="posenc-run --threads and torch.set_num_threads "
                             "(default: the cores available)")
    parser.add_argument("--iterations", type=int, default=3,
                        help="timed posenc-run calls (median; after 1 warm-up)")
    parser.add_argument("--torch-reps", type=int, default=3,
                        help="timed torch calls (median; after 1 warm-up)")
    parser.add_argument("--no-torch", action="store_true", help="skip PyTorch SDPA")
    args = parser.parse_args()

    bench = load_bench()
    exe = os.path.join(args.build, "bin", "posenc-run")
    if not os.access(exe, os.X_OK):
        sys.exit(f"attention_demo: {exe} not built (scripts/build.sh)")

    have_torch = False
    if not args.no_torch:
        try:
            import torch
            have_torch = True
            torch_version = torch.__version__
        except ImportError:
            print("torch not installed: pip install -r requirements-hf.txt "
                  "(numerics are still checked; no SDPA column)")

    bench_cases = bench.make_cases(quick=False)
    demos = [
        ("Llama-3.1-8B", "llama31_8b_attention.mlir", bench_cases["a"],
         "RoPE llama3 x8, GQA 32/8", "no-scaling", "RoPE without the llama3 scaling"),
        ("MPT-7B ALiBi", "mpt7b_alibi_attention.mlir", bench_cases["b"],
         "ALiBi, MHA 32", "no-alibi", "attention without ALiBi"),
    ]
    print(f"attention_demo: f32, batch 1, S=2048, head_dim 128, causal; {args.threads} threads; "
          f"posenc-run median of {args.iterations} calls"
          + (f", torch {torch_version} SDPA median of {args.torch_reps}" if have_torch else ""))
    print("check: max |out - ref| <= tol * max |ref|, ref = fp64 NumPy attention "
          "(bench/attention/run.py), tol = 2e-5 + 2047 * 2^-24")

    rows, failed = [], []
    torch_args = types.SimpleNamespace(warmup=1, reps=args.torch_reps)
    with tempfile.TemporaryDirectory(prefix="posenc-attention-demo-") as tmp:
        for name, fname, case, what, variant, variant_text in demos:
            mlir = os.path.join(HERE, fname)
            q, k, v = bench.make_inputs(case)  # seeded
            inputs = []
            for label, x in zip(("q", "k", "v"), (q, k, v)):
                inputs.append(os.path.join(tmp, f"{case['name']}_{label}.npy"))
                np.save(inputs[-1], x)
            outdir = os.path.join(tmp, f"out_{case['name']}")
            try:
                ms, compile_s, out = run_posenc(exe, mlir, inputs, outdir, args.threads,
                                                args.iterations)
            except RuntimeError as e:
                print(f"{name}: FAILED: {e}")
                failed.append(name)
                continue

            start = time.perf_counter()
            ref = bench.reference(case, q, k, v)
            ref_s = time.perf_counter() - start
            tol = bench.tolerance(case)
            err = bench.rel_error(out, ref[None])
            del out
            ok = err <= tol
            # The tolerance discriminates: a wrong encoding, on 64 sampled rows.
            sample = np.unique(np.linspace(0, case["Sq"] - 1, 64).astype(np.int64))
            wrong = bench.rel_error(bench.reference(case, q, k, v, rows=sample, variant=variant),
                                    ref[:, sample])
            print(f"{name} (examples/{fname}): compiled in {compile_s:.1f} s, "
                  f"fp64 reference in {ref_s:.1f} s; {variant_text} would be off by "
                  f"{wrong:.1e} ({wrong / tol:.0f}x the tolerance)")

            t_ms, t_err = None, None
            if have_torch:
                bias = bench.alibi_causal_bias(case) if case["pe"] == "alibi" else None
                t_ms, t_out, _, _ = bench.run_torch(torch_args, case, args.threads, q, k, v,
                                                    True, bias)
                del bias
                t_err = bench.rel_error(t_out, ref[None])
                del t_out
                if not t_err <= tol:
                    print(f"{name}: torch SDPA FAILED the check: error {t_err:.2e} > {tol:.2e}")
                    failed.append(f"{name} (torch)")
            if not ok:
                print(f"{name}: posenc FAILED the check: error {err:.2e} > {tol:.2e}")
                failed.append(name)
            rows.append((name, what, ms, t_ms, err, t_err, tol, ok))
            del q, k, v, ref

    print()
    header = (f"{'case':13s} {'encoding':25s} {'posenc ms':>10s} {'torch SDPA ms':>14s} "
              f"{'ratio':>7s} {'max error':>10s} {'tol':>8s}  check")
    print(header)
    print("-" * len(header))
    for name, what, ms, t_ms, err, t_err, tol, ok in rows:
        t_col = f"{t_ms:14.1f}" if t_ms is not None else f"{'-':>14s}"
        r_col = f"{t_ms / ms:6.2f}x" if t_ms is not None else f"{'-':>7s}"
        print(f"{name:13s} {what:25s} {ms:10.1f} {t_col} {r_col} {err:10.1e} {tol:8.1e}  "
              f"{'pass' if ok else 'FAIL'}")
    print("ratio = torch SDPA time / posenc time (> 1: posenc faster); max error = posenc's "
          "max |out - ref| / max |ref|"
          + ("; torch SDPA's: " + ", ".join(f"{r[0]} {r[5]:.1e}" for r in rows if r[5] is not None)
             if have_torch else ""))
    if failed:
        print(f"attention_demo: FAILED: {', '.join(failed)}")
        sys.exit(1)
    print(f"attention_demo: all {len(rows)} blocks match the fp64 reference")


if __name__ == "__main__":
    main()
