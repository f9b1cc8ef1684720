#!/usr/bin/env python3
"""Semantic check of the pass fuzzer's corpus: compiled code vs a scalar
lowering of the same module.

The pass fuzzer (PassFuzzer.cpp) finds crashes and IR that stops verifying;
it cannot see a pass that succeeds and computes the wrong thing. This step
takes the modules it kept (each corpus file is a selector byte + MLIR text),
and for every one whose entry function posenc-run can run (statically
shaped tensors), runs it twice on the same seeded random inputs:

  * posenc-cpu-pipeline with options drawn per module (vector width, block
    size down to a few elements so modules split into many blocks and
    remainder tiles, OpenMP on or off, 1 or 2 threads);
  * the scalar reference lowering documented in docs/posenc-run.md
    (convert-posenc-to-linalg, bufferize, convert-linalg-to-loops, LLVM):
    no tiling, fusion, vectorization, approximation or threads.

Outcomes per module: the scalar lowering fails (not runnable: dynamic
shapes, no tensors, IR only the optimized pipeline handles) -> skipped;
both run -> every output must agree; only the optimized pipeline fails ->
a mismatch (a crash, a runtime error such as a table bounds check on one
side only, or a compile failure on IR the scalar lowering accepts).

Raising (docs/raising.md): every module the scalar lowering runs is also
raised by `posenc-opt --pass-pipeline='builtin.module(posenc-raise-pipeline)'`
(posenc-opt next to POSENC_RUN); when the raising passes changed something
(their print-stats counts), the raised module goes through the same scalar
lowering on the same inputs and must agree with the un-raised one, with the
same tolerance (raising changes rounding only). A raised module that fails
to run is a mismatch too. Counted apart ("raising: N passed, N failed").

Integer inputs are drawn from [0, 8) (INT_MAX): positions stay inside the
tables of the tests, which importer IR reads without bounds checks.

Tolerance: the pipelines differ by polynomial vs libm sin/cos (~2e-7
absolute on reduced angles), reassociated vector reductions and fused
multiply-adds, so floats agree to |a - b| <= 1e-4 * max(1, |ref|) (loose
enough for sums of a few thousand terms of size ~1, tight enough that a
wrong row, head or tile is off by O(1)), plus one output ulp for bf16 (2^-7
|ref|) and f16 (2^-10 |ref|) outputs, whose f32 values may round either
way; NaN and +-inf must match exactly; integer outputs exactly.

Exported models (--models DIR...: test/Raising/Models/<name>, issue 26):
each whole imported model is compiled both ways too, on its own .npy inputs
(token ids, padding masks, positions with gaps, weights), with the same
tolerance; a model the scalar lowering cannot run (foreign ops) is counted
as not runnable. Counted with the corpus ("semantic: models: ...").

Usage: semantic_check.py POSENC_RUN CORPUS_DIR... [--max-files N]
       [--seconds S] [--seed S] [--models DIR...] [-v]
Prints one REPRO line per mismatch and ends with "N passed, N failed"
(passed = modules that ran on both sides and agreed).
"""

import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

REFERENCE_PIPELINE = (
    "inline, convert-posenc-to-linalg, eliminate-empty-tensors, "
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map}, canonicalize, "
    "buffer-deallocation-pipeline, convert-bufferization-to-memref, "
    "convert-linalg-to-loops, convert-scf-to-cf, expand-strided-metadata, "
    "lower-affine, convert-math-to-llvm, convert-math-to-libm, convert-to-llvm, "
    "reconcile-unrealized-casts")

TIMEOUT_S = 30
# Mutants can declare huge tensors: each posenc-run gets this much address
# space (a module that needs more fails on both sides and is skipped), and
# outputs beyond MAX_OUTPUT_BYTES are not loaded (skipped too).
MAX_ADDRESS_SPACE = 8 << 30
MAX_OUTPUT_BYTES = 256 << 20
# Random integer inputs are drawn from [0, INT_MAX) (posenc-run --int-max;
# its default is 4096). Integer arguments are positions and token ids; the
# tables they index in the tests have 8 rows or more, and importer IR reads
# them without bounds checks (GPT-J's and Meta's rotary tables): a position
# past the table is an out-of-bounds read, garbage that differs between
# lowerings and from the raised op.
INT_MAX = 8
# Test functions (seeds) that read out of bounds by design, whatever the
# inputs: near misses that raising must leave alone. Their outputs are
# garbage that differs between lowerings: not compared.
UNDEFINED_ENTRIES = {
    # test/Raising/posenc-raise-rotary-interleaved.mlir: positions 5..8 of
    # an 8-row table.
    "arange_past_table",
}


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MAX_ADDRESS_SPACE, MAX_ADDRESS_SPACE))


def draw_options(rng):
    """posenc-cpu-pipeline options and thread count for one module."""
    width = rng.choice([1, 4, 8, 16, 32])
    blocks = rng.choice([7, 64, 1000, 262144])
    openmp = rng.choice(["true", "false"])
    threads = rng.choice([1, 2]) if openmp == "true" else 1
    pipeline = (f"posenc-cpu-pipeline{{vector-width={width} "
                f"block-elements={blocks} openmp={openmp}}}")
    return pipeline, threads


def entry_of(text):
    """The first public function of the module (posenc-run's --entry)."""
    m = re.search(rb"func\.func @([\w$.]+)\s*\(", text)
    return m.group(1).decode() if m else None


def run(posenc_run, module_path, entry, pipeline, threads, seed, outdir, inputs=None,
        timeout=TIMEOUT_S):
    """Runs posenc-run once (on `inputs`, .npy paths, or seeded random
    inputs); returns (ok, outputs or error text)."""
    cmd = [posenc_run, module_path, f"--entry={entry}", "--iterations=1", "--warmup=0",
           f"--seed={seed}", f"--int-max={INT_MAX}", f"--pipeline={pipeline}", f"--outputs-dir={outdir}",
           f"--threads={threads}"]
    if inputs:
        cmd.append("--inputs=" + ",".join(inputs))
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                             preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    if out.returncode != 0:
        return False, (out.stderr.strip().splitlines() or [f"exit {out.returncode}"])[-1]
    paths, i = [], 0
    while os.path.exists(os.path.join(outdir, f"out{i}.npy")):
        paths.append(os.path.join(outdir, f"out{i}.npy"))
        i += 1
    if sum(os.path.getsize(p) for p in paths) > MAX_OUTPUT_BYTES:
        return False, f"outputs larger than {MAX_OUTPUT_BYTES} bytes: not compared"
    return True, [np.load(p) for p in paths]


def raise_module(posenc_opt, module_path, raised_path):
    """Raises the module with posenc-raise-pipeline into raised_path; True
    when a raising pass changed something (a non-zero print-stats count),
    None when posenc-opt failed."""
    cmd = [posenc_opt, "--allow-unregistered-dialect",
           "--pass-pipeline=builtin.module(posenc-raise-pipeline{print-stats=true})",
           module_path, "-o", raised_path]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S,
                             preexec_fn=limit_memory)
    except (subprocess.TimeoutExpired, OSError):
        return None
    if out.returncode != 0:
        return None
    return bool(re.search(r"^posenc-[a-z-]+:.* [1-9][0-9]* ", out.stderr, re.M))


def compare(got, want):
    """None when the outputs agree, else a one-line description."""
    if len(got) != len(want):
        return f"{len(got)} outputs vs {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"output {i}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        # One output ulp (relative) on top: both sides compute in f32 and
        # round to bf16/f16 once, so a 1e-7 difference can flip a rounding.
        ulp = {np.dtype(np.uint16): 2.0 ** -7, np.dtype(np.float16): 2.0 ** -10}.get(w.dtype, 0.0)
        if w.dtype == np.uint16:  # bf16 bits (posenc-run's .npy form)
            g64, w64 = (x.astype(np.uint32) << 16 for x in (g, w))
            g64, w64 = g64.view(np.float32).astype(np.float64), w64.view(np.float32).astype(np.float64)
        elif w.dtype.kind in "iub":
            if not np.array_equal(g, w):
                return f"output {i}: integers differ at {int(np.sum(g != w))} elements"
            continue
        else:
            g64, w64 = g.astype(np.float64), w.astype(np.float64)
        finite = np.isfinite(w64)
        same_special = np.array_equal(np.isnan(g64), np.isnan(w64)) and np.array_equal(
            g64[np.isinf(w64)], w64[np.isinf(w64)])
        if not same_special:
            return f"output {i}: NaN/inf positions differ"
        err = np.abs(g64[finite] - w64[finite])
        tol = 1e-4 * np.maximum(1.0, np.abs(w64[finite])) + ulp * np.abs(w64[finite])
        if err.size and np.any(err > tol):
            return (f"output {i}: max err {err.max():.3g} "
                    f"(tol 1e-4 * max(1, |ref|) + {ulp:g} * |ref|)")
    return None


MODEL_TIMEOUT_S = 180  # a whole exported model compiles in 5-10 s


def check_models(posenc_run, dirs, rng, verbose):
    """The exported models (test/Raising/Models/<name>: model.mlir and its
    argN.npy): posenc-cpu-pipeline with drawn options vs the scalar lowering,
    on the model's own inputs (real token ids, positions, masks and weights).
    Returns (passed, failed, not runnable)."""
    passed = failed = skipped = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, d in enumerate(sorted(dirs)):
            module = os.path.join(d, "model.mlir")
            inputs = []
            while os.path.exists(os.path.join(d, f"arg{len(inputs)}.npy")):
                inputs.append(os.path.join(d, f"arg{len(inputs)}.npy"))
            with open(module, "rb") as f:
                entry = entry_of(f.read())
            if not inputs or entry is None:
                skipped += 1
                continue
            pipeline, threads = draw_options(rng)
            outs = []
            for side, (pl, th) in enumerate(((pipeline, threads), (REFERENCE_PIPELINE, 1))):
                outdir = os.path.join(tmp, f"model{n}-{side}")
                os.mkdir(outdir)
                outs.append(run(posenc_run, module, entry, pl, th, 0, outdir, inputs,
                                MODEL_TIMEOUT_S))
                shutil.rmtree(outdir)
            (ok_cpu, cpu), (ok_ref, ref) = outs
            name = os.path.basename(os.path.normpath(d))
            if not ok_ref:
                skipped += 1  # e.g. foreign ops (tm_tensor) in the import
                if verbose:
                    print(f"skip model {name}: {ref}")
                continue
            problem = (compare(cpu, ref) if ok_cpu else
                       f"posenc-cpu-pipeline failed, the scalar lowering ran: {cpu}")
            if problem is None:
                passed += 1
                if verbose:
                    print(f"ok   model {name}")
                continue
            failed += 1
            print(f"REPRO: posenc-run {module} --inputs={','.join(inputs)} --threads={threads} "
                  f"--pipeline='{pipeline}'  # vs --pipeline='{REFERENCE_PIPELINE}': {problem}")
    return passed, failed, skipped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("posenc_run")
    ap.add_argument("corpus", nargs="+")
    ap.add_argument("--max-files", type=int, default=0, help="0: all")
    ap.add_argument("--seconds", type=float, default=0, help="0: no limit")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--models", nargs="*", default=[],
                    help="exported model directories (model.mlir + argN.npy) checked "
                    "on their own inputs, whatever --max-files and --seconds say")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()

    files = sorted(os.path.join(d, f) for d in args.corpus if os.path.isdir(d)
                   for f in os.listdir(d))
    rng = random.Random(args.seed)
    rng.shuffle(files)
    if args.max_files:
        files = files[:args.max_files]
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    raising = {"passed": 0, "failed": 0, "timeout": 0}
    posenc_opt = os.path.join(os.path.dirname(args.posenc_run), "posenc-opt")
    if not os.access(posenc_opt, os.X_OK):
        posenc_opt = None
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for n, path in enumerate(files):
            if args.seconds and time.time() - start > args.seconds:
                break
            with open(path, "rb") as f:
                data = f.read()[1:]  # the selector byte picks a pass, not IR
            entry = entry_of(data)
            if entry is None or entry in UNDEFINED_ENTRIES:
                counts["skipped"] += 1
                continue
            module = os.path.join(tmp, "module.mlir")
            with open(module, "wb") as f:
                f.write(data)
            pipeline, threads = draw_options(rng)
            seed = rng.randrange(1 << 20)
            outs = []
            for side, (pl, th) in enumerate(((pipeline, threads), (REFERENCE_PIPELINE, 1))):
                outdir = os.path.join(tmp, f"out{n}-{side}")
                os.mkdir(outdir)
                outs.append(run(args.posenc_run, module, entry, pl, th, seed, outdir))
            (ok_cpu, cpu), (ok_ref, ref) = outs
            for side in range(2):  # loaded: the files are not needed again
                shutil.rmtree(os.path.join(tmp, f"out{n}-{side}"))
            if not ok_ref:
                # Nothing to compare with: not runnable at all, or IR only the
                # optimized pipeline handles (e.g. a collapse_shape into a
                # destination, which needs posenc-expand-destinations).
                counts["skipped"] += 1
                if args.v:
                    print(f"skip {os.path.basename(path)}: {ref}")
                continue
            raised = os.path.join(tmp, "raised.mlir")
            if posenc_opt and raise_module(posenc_opt, module, raised):
                outdir = os.path.join(tmp, f"out{n}-raised")
                os.mkdir(outdir)
                ok_raised, got = run(args.posenc_run, raised, entry, REFERENCE_PIPELINE, 1,
                                     seed, outdir)
                shutil.rmtree(outdir)
                problem = (compare(got, ref) if ok_raised else
                           f"the raised module failed, the un-raised one ran: {got}")
                if not ok_raised and got == "timeout":
                    # Compile time, not semantics: a raised model (posenc
                    # attention lowered by the scalar lowering) takes 1.5x
                    # the un-raised one, past TIMEOUT_S on a loaded machine.
                    raising["timeout"] += 1
                    if args.v:
                        print(f"skip {os.path.basename(path)} (raised): timeout")
                elif problem is None:
                    raising["passed"] += 1
                    if args.v:
                        print(f"ok   {os.path.basename(path)} (raised)")
                else:
                    raising["failed"] += 1
                    print(f"REPRO: tail -c +2 {path} > m.mlir && posenc-opt m.mlir "
                          f"--allow-unregistered-dialect "
                          f"--pass-pipeline='builtin.module(posenc-raise-pipeline)' -o r.mlir && "
                          f"posenc-run r.mlir --entry={entry} --seed={seed} --int-max={INT_MAX} "
                          f"--pipeline='{REFERENCE_PIPELINE}'  # vs m.mlir, raised vs not: "
                          f"{problem}")
            if ok_cpu:
                problem = compare(cpu, ref)
            else:
                problem = f"posenc-cpu-pipeline failed, the scalar lowering ran: {cpu}"
            if problem is None:
                counts["passed"] += 1
                if args.v:
                    print(f"ok   {os.path.basename(path)}")
                continue
            counts["failed"] += 1
            print(f"REPRO: tail -c +2 {path} > m.mlir && posenc-run m.mlir --entry={entry} --seed={seed} "
                  f"--int-max={INT_MAX} "
                  f"--threads={threads} --pipeline='{pipeline}'  "
                  f"# vs --pipeline='{REFERENCE_PIPELINE}': {problem}")
    print(f"semantic: {len(files)} corpus files, {counts['skipped']} not runnable, "
          f"{time.time() - start:.0f} s")
    if posenc_opt:
        print(f"semantic: raising: {raising['passed']} passed, {raising['failed']} failed, "
              f"{raising['timeout']} timed out (raised modules vs un-raised, scalar lowering)")
    if args.models:
        mp, mf, ms = check_models(args.posenc_run, args.models, rng, args.v)
        print(f"semantic: models: {mp} passed, {mf} failed, {ms} not runnable "
              f"(exported models on their own inputs)")
        counts["passed"] += mp
        counts["failed"] += mf
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    return 1 if counts["failed"] or raising["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
