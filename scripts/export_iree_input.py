#!/usr/bin/env python3
"""Export the padded whole-model tests as IREE's input IR and check posenc on it.

For each model of scripts/export_hf_attention.py's PADDED list (two sequences,
the second left-padded, with attention_mask and position_ids), this:

  1. exports the model to the torch dialect the way IREE users do: with
     iree-turbine (`aot.export`; --form turbine, the default), or to ONNX
     (opset 18, `torch.onnx.export(dynamo=True)`) imported by
     `iree-import-onnx` (--form onnx);
  2. works around two iree-compile 3.13 input-conversion failures on
     transformers v5's mask builder (`new_ones((), dtype=bool) & mask` and
     `__and__`/`__or__` on bool tensors: "failed to legalize"): the `true &
     m` is dropped and `__and__`/`__or__` become `bitwise_and`/`bitwise_or`
     (same values);
  3. runs `iree-compile --compile-to=input --mlir-print-op-generic
     --mlir-print-elementsattrs-with-hex-if-larger=-1`: IREE's input IR
     (util.func, iree_linalg_ext.attention) as IREE users have it. (IREE's
     MLIR and LLVM 22's lay out i1 constants differently in hex: print
     them as lists both ways.)

With --check POSENC_OPT it then runs `posenc-iree-input-pipeline{print-stats
zero-padding-rows}` on it, prints posenc's stats, compiles the result with
iree-compile (llvm-cpu) and runs it with IREE's runtime on the export's
inputs against torch's output: "CHECK <model> rel <err> ..." lines and a
final "N passed, M failed" (relative error = max abs error / max |torch|,
at most 1e-5, over every row but the PAD padding queries of the second
sequence, whose values zero-padding-rows documents).

    python3 scripts/export_iree_input.py --out DIR llama3_sdpa
    python3 scripts/export_iree_input.py --out DIR --check build/bin/posenc-opt
    python3 scripts/export_iree_input.py --form onnx --out DIR --check build/bin/posenc-opt

Requirements: requirements-hf.txt (torch, transformers) and
requirements-iree.txt (iree-base-compiler, iree-base-runtime, iree-turbine,
onnx and onnxscript for --form onnx).
"""

import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_hf_attention as hf  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "lib"))
import posenc_iree as pi  # noqa: E402

TOL = 1e-5


HEX = "--mlir-print-elementsattrs-with-hex-if-larger=-1"


def torch_cases(spec, wrapper, args, dynamic: bool):
    """(inputs, torch's output) at the export's length, and for a dynamic
    export also at export_hf_attention's SECOND_SEQ (fresh seeded inputs,
    the same parameters)."""
    import torch

    lengths = [args]
    if dynamic:
        inputs = 3 if spec.position_ids else 2
        second = hf.padded_inputs(torch.Generator().manual_seed(spec.seed + 1), hf.SECOND_SEQ)
        lengths.append(list(second)[:inputs] + list(args[inputs:]))
    cases = []
    for case in lengths:
        with torch.no_grad():
            want = wrapper(*case)
        want = want[0] if isinstance(want, (tuple, list)) else want
        cases.append(([a.numpy() for a in case], want.numpy()))
    return cases


def export_torch(name: str, form: str, out: str, dynamic: bool):
    """The padded model `name` in the torch dialect, through iree-turbine or
    ONNX: (MLIR text, [(inputs, torch's output)] as torch_cases gives)."""
    import torch

    spec = next(s for s in hf.SPECS if s.name == name)
    _, wrapper, args, _ = hf.build(spec, padded=True)
    cases = torch_cases(spec, wrapper, args, dynamic)
    shapes = hf.dynamic_shapes(spec, args) if dynamic else None
    if form == "turbine":
        from iree.turbine import aot

        # The symbolic shape expressions say that the inputs share one
        # length (flow.tensor.tie_shape in the input IR); without them
        # nothing in the module relates the lengths of the inputs.
        exported = aot.export(wrapper, args=tuple(args), dynamic_shapes=shapes,
                              import_symbolic_shape_expressions=dynamic)
        return str(exported.mlir_module), cases
    path = os.path.join(out, f"{stem_name(name, dynamic)}.onnx")
    torch.onnx.export(wrapper, tuple(args), path, opset_version=18, dynamo=True,
                      verbose=False, dynamic_shapes=shapes)
    proc = subprocess.run([sys.executable, "-m", "iree.compiler.tools.import_onnx", path,
                           "-o", "-"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-import-onnx {path}:\n{proc.stderr[-4000:]}")
    return proc.stdout, cases


def stem_name(name: str, dynamic: bool) -> str:
    return f"{name}_dynamic" if dynamic else f"{name}_padded"


def legalize_bool_masks(text: str) -> str:
    """Step 2 of the module docstring, on the torch-dialect module."""
    from iree.compiler import ir

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        dead = []

        def drop_true_and(op):
            if (op.name == "torch.aten.new_ones"
                    and str(op.results[0].type) == "!torch.vtensor<[],i1>"):
                for use in list(op.results[0].uses):
                    user = use.owner
                    other = user.operands[1 - use.operand_number]
                    if (user.name == "torch.aten.__and__.Tensor"
                            and other.type == user.results[0].type):
                        user.results[0].replace_all_uses_with(other)
                        dead.append(user)
                if all(u.owner in dead for u in op.results[0].uses):
                    dead.append(op)
            return ir.WalkResult.ADVANCE

        def bitwise(op):
            names = {"torch.aten.__and__.Tensor": "torch.aten.bitwise_and.Tensor",
                     "torch.aten.__or__.Tensor": "torch.aten.bitwise_or.Tensor"}
            if op.name in names:
                with ir.InsertionPoint(op), op.location:
                    new = ir.Operation.create(names[op.name], results=[op.results[0].type],
                                              operands=list(op.operands))
                op.results[0].replace_all_uses_with(new.results[0])
                dead.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(drop_true_and)
        for op in dead:
            op.erase()
        dead.clear()
        module.operation.walk(bitwise)
        for op in dead:
            op.erase()
        return str(module)


def iree_compile(args) -> str:
    from iree.compiler.tools import binaries

    exe = binaries.find_tool("iree-compile")
    proc = subprocess.run([exe] + args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-compile {' '.join(args)}:\n{proc.stderr[-4000:]}")
    return proc.stdout


def export(name: str, form: str, out: str, dynamic: bool):
    torch_text, cases = export_torch(name, form, out, dynamic)
    stem = os.path.join(out, f"{stem_name(name, dynamic)}.{form}")
    path = stem + ".torch.mlir"
    with open(path, "w") as f:
        f.write(legalize_bool_masks(torch_text) if form == "turbine" else torch_text)
    input_path = stem + ".input.mlir"
    iree_compile([path, "--compile-to=input", "--mlir-print-op-generic", HEX,
                  "-o", input_path])
    return input_path, cases


def compile_iree(path: str):
    """`path` compiled by IREE and loaded (test/lib/posenc_iree.py)."""
    with open(path) as f:
        return pi.Module(pi.compile_with_iree(f.read()))


def check(name: str, form: str, out: str, posenc_opt: str, dynamic: bool) -> bool:
    input_path, cases = export(name, form, out, dynamic)
    raised = os.path.join(out, f"{stem_name(name, dynamic)}.{form}.posenc.mlir")
    proc = subprocess.run(
        [posenc_opt, "--allow-unregistered-dialect", input_path, "--mlir-print-op-generic", HEX,
         "--mlir-disable-threading",  # the stats of both functions in order
         "--pass-pipeline=builtin.module(posenc-iree-input-pipeline{zero-padding-rows=true "
         "print-stats=true})", "-o", raised], capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"FAIL {name}: posenc-opt:\n{proc.stderr}")
        return False
    stats = [line for line in proc.stderr.splitlines() if line.startswith("posenc-")]
    for line in stats:
        print(f"STATS {name} {line}")
    module = compile_iree(raised)
    all_ok = True
    for inputs, want in cases:
        got = module("main" if form == "turbine" else "main_graph", *inputs)[0]
        # zero-padding-rows: the rows of the padding queries are 0 in
        # posenc.attention (SDPA's too), eager PyTorch averages V there.
        rows = np.ones(want.shape[:2], bool)
        rows[1, :hf.PAD] = False
        ok = got.shape == want.shape
        rel = float(np.max(np.abs(got - want)[rows]) / np.max(np.abs(want))) if ok else np.inf
        ok = ok and rel <= TOL
        at = f" at {want.shape[1]} tokens" if dynamic else ""
        print(f"CHECK {name}{at} rel {rel:.2e} (tolerance {TOL:g}, padding rows skipped) "
              f"{'ok' if ok else 'FAIL'}")
        all_ok &= ok
    return all_ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", help="subset of: " + " ".join(hf.PADDED))
    ap.add_argument("--out", required=True, help="directory for the modules")
    ap.add_argument("--form", choices=("turbine", "onnx"), default="turbine",
                    help="export with iree-turbine, or to ONNX + iree-import-onnx")
    ap.add_argument("--dynamic", action="store_true",
                    help="a dynamic sequence length (torch.export.Dim); checked at two lengths")
    ap.add_argument("--check", metavar="POSENC_OPT", help="raise, compile and run them")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    passed = failed = 0
    for name in args.models or (hf.DYNAMIC if args.dynamic else hf.PADDED):
        if args.check:
            ok = check(name, args.form, args.out, args.check, args.dynamic)
            passed += ok
            failed += not ok
        else:
            print(export(name, args.form, args.out, args.dynamic)[0])
    if args.check:
        print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
