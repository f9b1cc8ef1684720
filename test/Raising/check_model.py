#!/usr/bin/env python3
"""Run an exported model through posenc-run and compare with torch's output.

    check_model.py MODEL_DIR POSENC_RUN [--rtol 1e-5] [--tol ABS] [--flags "--threads=1 ..."]
                   [--pre-pipeline PASSES] [--mlir FILE] [--skip-padding-rows]
                   [-- EXTRA POSENC-RUN FLAGS...]

MODEL_DIR holds model.mlir, arg0.npy .. argN-1.npy and out0.npy (written by
scripts/export_hf_attention.py). Runs

    POSENC_RUN --inputs=arg0.npy,... --outputs-dir=TMP --iterations=1 --warmup=0
               [--pipeline=PASSES,<default pipeline>] [extra flags] MODEL_DIR/model.mlir

and checks max |TMP/out0.npy - out0.npy| <= rtol * max |out0.npy| (default
rtol 1e-5: f32, and posenc-run's default pipeline uses polynomial sin/cos/exp;
the models' outputs are O(1) and their attention far from uniform, so a wrong
mask, row or position moves them by far more), or <= --tol (absolute) when
given. With --skip-padding-rows the output rows [b, s] of padding tokens
(arg1.npy, the attention_mask, is 0 there) are left out of the comparison
(and counted in the line printed): a padding query sees no key, and eager
PyTorch averages V there where posenc.attention gives 0 (posenc-raise-
attention's zero-padding-rows); every other row must match. Prints one
line "<name>: ok max_abs_err=..." or "FAIL ...".
Exit status: 0 match, 1 mismatch (or shape/dtype mismatch), 2 posenc-run
failed (its last stderr lines are printed), 3 bad usage / missing files.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np


STATIC_ENTRY = "posenc_static_entry"
NPY_TYPES = {"int64": "i64", "int32": "i32", "bool": "i1", "float32": "f32",
             "float16": "f16"}


def tensor_type(path: str) -> str:
    a = np.load(path, mmap_mode="r")
    return "tensor<" + "".join(f"{n}x" for n in a.shape) + NPY_TYPES[str(a.dtype)] + ">"


def static_entry(mlir: str, args, ref_path: str, tmp: str) -> str:
    """posenc-run allocates every buffer up front, so a function with dynamic
    sizes runs through a wrapper that casts the inputs' static types to its
    argument types and the result back (the documented way to run dynamic
    lengths). Returns the wrapped module's path, or "" if nothing is dynamic."""
    text = open(mlir).read()
    sig = re.search(r"func\.func @([\w$.]+)\((.*?)\) -> (tensor<[^>]*>) \{", text)
    if not sig or "?" not in sig.group(2) + sig.group(3):
        return ""
    name, params, result = sig.groups()
    types = [p.split(": ", 1)[1] for p in params.split(", %")]
    static = [tensor_type(a) for a in args]
    static_result = tensor_type(ref_path)
    lines = [f"func.func @{STATIC_ENTRY}("
             + ", ".join(f"%a{i}: {t}" for i, t in enumerate(static)) + f") -> {static_result} {{"]
    for i, (s, t) in enumerate(zip(static, types)):
        lines.append(f"  %c{i} = tensor.cast %a{i} : {s} to {t}")
    lines.append(f"  %r = func.call @{name}(" + ", ".join(f"%c{i}" for i in range(len(types)))
                 + f") : ({', '.join(types)}) -> {result}")
    lines.append(f"  %s = tensor.cast %r : {result} to {static_result}")
    lines.append(f"  return %s : {static_result}\n}}")
    # Into the module, before its closing brace (and the resource blobs).
    cut = text.find("\n{-#")
    module, resources = (text[:cut], text[cut:]) if cut >= 0 else (text, "")
    module = module.rstrip()
    assert module.endswith("}"), "the module ends with its closing brace"
    path = os.path.join(tmp, "wrapped.mlir")
    with open(path, "w") as f:
        f.write(module[:-1] + "\n".join(lines) + "\n}\n" + resources)
    return path


def main() -> int:
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model_dir")
    ap.add_argument("posenc_run")
    ap.add_argument("--rtol", type=float, default=1e-5,
                    help="max error relative to max |reference| (default 1e-5)")
    ap.add_argument("--tol", type=float, default=None,
                    help="max absolute error instead of --rtol")
    ap.add_argument("--flags", default="", help="extra posenc-run flags, one shell-quoted string")
    ap.add_argument("--pre-pipeline", default="",
                    help="passes to run before posenc-run's default pipeline, e.g. "
                    "'func.func(math-expand-ops{ops=fpowi})' (reads the default with "
                    "--print-pipeline and passes --pipeline=PRE,DEFAULT)")
    ap.add_argument("--mlir", default="",
                    help="run this file instead of MODEL_DIR/model.mlir (e.g. the "
                    "model raised by posenc-opt), with MODEL_DIR's inputs and output")
    ap.add_argument("--skip-padding-rows", action="store_true",
                    help="compare only the rows of tokens whose attention_mask (arg1.npy) "
                    "is not 0")
    ap.add_argument("--length", default="",
                    help="a subdirectory of MODEL_DIR (e.g. seq11) whose argN.npy and "
                    "out0.npy replace MODEL_DIR's: a dynamically shaped export run at "
                    "another sequence length")
    ap.add_argument("--timeout", type=float, default=300.0)
    opts = ap.parse_args(argv)
    extra = shlex.split(opts.flags) + extra
    if opts.pre_pipeline:
        out = subprocess.run([opts.posenc_run, "--print-pipeline"], capture_output=True,
                             text=True).stdout
        default = [l[len("pipeline: "):] for l in out.splitlines() if l.startswith("pipeline: ")]
        if not default:
            print(f"FAIL cannot read the default pipeline from {opts.posenc_run} --print-pipeline")
            return 3
        extra.insert(0, f"--pipeline={opts.pre_pipeline},{default[0].strip()}")

    d = opts.model_dir
    name = os.path.basename(os.path.normpath(d))
    mlir = opts.mlir or os.path.join(d, "model.mlir")
    sub = os.path.join(d, opts.length) if opts.length else d

    def data(file):
        return os.path.join(sub, file) if os.path.exists(os.path.join(sub, file)) \
            else os.path.join(d, file)

    ref_path = data("out0.npy")
    args = []
    while os.path.exists(data(f"arg{len(args)}.npy")):
        args.append(data(f"arg{len(args)}.npy"))
    if not os.path.exists(mlir) or not os.path.exists(ref_path) or not args:
        print(f"{name}: FAIL missing model.mlir, out0.npy or arg0.npy in {d}")
        return 3

    with tempfile.TemporaryDirectory(prefix="posenc-check-") as tmp:
        wrapped = static_entry(mlir, args, ref_path, tmp)
        if wrapped:
            mlir = wrapped
            extra.append("--entry=" + STATIC_ENTRY)
        cmd = [
            opts.posenc_run,
            "--inputs=" + ",".join(args),
            "--outputs-dir=" + tmp,
            "--iterations=1",
            "--warmup=0",
            *extra,
            mlir,
        ]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=opts.timeout)
        except subprocess.TimeoutExpired:
            print(f"{name}: FAIL posenc-run timed out after {opts.timeout:.0f} s")
            return 2
        got_path = os.path.join(tmp, "out0.npy")
        if proc.returncode != 0 or not os.path.exists(got_path):
            errs = [l for l in proc.stderr.splitlines() if "error" in l]
            first = errs[0] if errs else (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
            print(f"{name}: FAIL posenc-run exited {proc.returncode}: {first}")
            tail = proc.stderr.strip().splitlines()[-15:]
            for line in tail:
                print("  | " + line)
            return 2
        got = np.load(got_path)
    ref = np.load(ref_path)
    if got.shape != ref.shape or got.dtype != ref.dtype:
        print(f"{name}: FAIL output {got.dtype}{list(got.shape)} != expected {ref.dtype}{list(ref.shape)}")
        return 1
    diff = np.abs(got.astype(np.float64) - ref.astype(np.float64))
    skipped = ""
    if opts.skip_padding_rows:
        mask = np.load(args[1])
        if got.ndim < 2 or mask.shape != got.shape[:2]:
            print(f"{name}: FAIL attention_mask {list(mask.shape)} does not index the "
                  f"output's rows {list(got.shape)}")
            return 3
        keep = mask != 0
        diff = diff[keep]
        got, ref = got[keep], ref[keep]
        skipped = f" skipped_padding_rows={int((~keep).sum())}"
    err = float(np.max(diff))
    nonfinite = not np.all(np.isfinite(got))
    scale = float(np.max(np.abs(ref)))
    tol = opts.tol if opts.tol is not None else opts.rtol * scale
    ok = err <= tol and not nonfinite
    print(f"{name}: {'ok' if ok else 'FAIL'} max_abs_err={err:.3g} tol={tol:.3g} "
          f"max_abs_ref={scale:.3g} rel_err={err / max(scale, 1e-30):.3g}{skipped}"
          + (" (non-finite output)" if nonfinite else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
