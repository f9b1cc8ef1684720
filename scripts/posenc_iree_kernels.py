#!/usr/bin/env python3
"""posenc's own attention kernels inside IREE: each `posenc.attention` of a
module becomes an IREE dispatch of posenc's flash kernel.

    python3 scripts/posenc_iree_kernels.py model.mlir -o model.iree.mlir \\
        --objects-dir DIR [--build build] [--workgroups N]
    iree-compile model.iree.mlir --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu \\
        --iree-llvmcpu-target-cpu=host -o model.vmfb

For each attention (static shapes), the script

  1. writes a kernel function that reads the attention's tensor operands
     and writes its result in place, with five more arguments: a scratch
     buffer (`posenc.scratch`), a shared scratch buffer and a phase (used
     by split decode keys, below), the workgroup id and the workgroup count;
  2. compiles it with posenc-cpu-pipeline, its options tuned for this host
     as posenc-run tunes them (`posenc-run --print-pipeline`), plus
     `workgroups=true`: no OpenMP; the flash nest's parallel loop (batch x
     kv head x query block) runs its iterations as IREE's workgroups
     (posenc-forall-to-workgroups) and every buffer lives in the
     workgroup's slice of the scratch buffer (posenc-allocs-to-scratch:
     IREE's embedded ELF has no heap and small worker stacks);
  3. translates it to LLVM IR and compiles it with clang (-O3, this host's
     CPU) into an object for IREE's embedded-ELF target, with weak memcpy
     and memset (scripts/posenc_iree_freestanding.c: the embedded ELF has no
     libc);
  4. replaces the attention by a `flow.dispatch` of a `stream.executable`
     whose `hal.executable.objects` name that object: a shim that takes
     IREE's bindings and workgroup id and count and calls the kernel. The
     scratch buffer is a second result of the dispatch, which nothing reads.

The rest of the module is left as it is (printed in MLIR's generic form);
IREE compiles it. The workgroup count is min(iterations, --workgroups).

A decode step whose keys posenc splits into chunks is a kernel of two
phases: a first dispatch runs the chunks over the workgroups and writes
their partial results to a shared scratch buffer (posenc.shared_scratch), a
second one of one workgroup combines them (`@<name>_combine`).

With --iree-input, the input is IREE's input IR (`iree-compile
--compile-to=input --mlir-print-op-generic`): its util.func bodies are
raised and fused first (posenc-raise-pipeline), and the functions restored
after the lowering, as posenc-iree-input-pipeline does.

Not yet: dynamic shapes, scalar operands other than f32. Such attentions
are reported and the script fails.
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET_TRIPLE = "x86_64-unknown-unknown-eabi-elf"
# Every workgroup computes what the kernel computes outside its parallel
# loop (the keys' cos/sin rows): few workgroups, each running many
# iterations (IREE schedules them over its workers).
DEFAULT_WORKGROUPS = 8

ATTENTION = re.compile(
    r'^(\s*)(%[\w.$-]+) = "posenc\.attention"\((.*?)\) (<\{.*\}>) : '
    r'\((.*)\) -> (tensor<[^>]*>)(.*)$')
CALL = re.compile(
    r'^(\s*)(%[\w.$-]+) = "func\.call"\((.*?)\) <\{callee = @(\w+)\}> : '
    r'\((.*)\) -> (tensor<[^>]*>)(.*)$')
PLACEHOLDER = re.compile(r'^(\s*)(%[\w.$-]+) = "posenc_iree\.dispatch"\((.*?)\) '
                         r'\{kernel = "(\w+)"\} : \(.*\) -> tensor<[^>]*>(.*)$')
TENSOR = re.compile(r"^tensor<((?:\d+x)+)([a-z0-9]+)>$")


def run(cmd, **kwargs):
    out = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:2])} failed:\n{out.stderr[:3000]}")
    return out.stdout


def split_types(text):
    """`tensor<2x3xf32>, f32, tensor<...>` -> the types (no nesting of ',')."""
    types, depth, cur = [], 0, ""
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            types.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        types.append(cur.strip())
    return types


def strides(shape):
    out, acc = [], 1
    for n in reversed(shape):
        out.append(acc)
        acc *= n
    return list(reversed(out))


class Operand:
    def __init__(self, index, ty):
        self.index, self.type = index, ty
        m = TENSOR.match(ty)
        self.is_tensor = m is not None
        if m:
            self.shape = [int(n) for n in m.group(1).rstrip("x").split("x")]
            self.elem = m.group(2)
        elif ty != "f32":
            raise ValueError(f"operand of type {ty}: only static tensors and f32 scalars")

    def memref(self, offset_dynamic=True):
        dims = "x".join(map(str, self.shape))
        if not offset_dynamic:
            return f"memref<{dims}x{self.elem}>"
        return (f"memref<{dims}x{self.elem}, strided<[{', '.join(map(str, strides(self.shape)))}],"
                f" offset: ?>>")


def kernel_module(name, operands, result, props, operand_types):
    """The kernel: tensors in (as buffers), result written in place."""
    args, body, values = [], [], []
    for op in operands:
        if op.is_tensor:
            args.append(f"%a{op.index}: {op.memref()}")
            body.append(f"  %t{op.index} = bufferization.to_tensor %a{op.index} restrict : "
                        f"{op.memref()} to {op.type}")
            values.append(f"%t{op.index}")
        else:
            args.append(f"%a{op.index}: {op.type}")
            values.append(f"%a{op.index}")
    args += [f"%out: {result.memref()}", "%scratch: memref<?xi8> {posenc.scratch}",
             "%shared: memref<?xi8> {posenc.shared_scratch}",
             "%phase: index {posenc.workgroup_phase}",
             "%id: index {posenc.workgroup_id}", "%count: index {posenc.workgroup_count}"]
    body.append(f'  %r = "posenc.attention"({", ".join(values)}) {props} : '
                f"({operand_types}) -> {result.type}")
    body.append(f"  bufferization.materialize_in_destination %r in restrict writable %out : "
                f"({result.type}, {result.memref()}) -> ()")
    return (f"func.func @{name}({', '.join(args)}) {{\n" + "\n".join(body)
            + "\n  return\n}\n")


def host_pipeline(posenc_run):
    """posenc-run's host-tuned posenc-cpu-pipeline, without OpenMP, as
    workgroups."""
    out = run([posenc_run, "--print-pipeline", os.devnull])
    line = next(l for l in out.splitlines() if l.startswith("pipeline: "))
    pipeline = line[len("pipeline: "):].strip()
    pipeline = re.sub(r"openmp=\w+", "openmp=false", pipeline)
    return re.sub(r"workgroups=\w+", "workgroups=true", pipeline)


def compile_kernel(tools, name, text, objects_dir):
    """Kernel MLIR -> object; returns (object path, units, scratch bytes)."""
    base = os.path.join(objects_dir, name)
    with open(base + ".mlir", "w") as f:
        f.write(text)
    llvm_dialect = run([tools.posenc_opt, base + ".mlir",
                        f"--pass-pipeline=builtin.module({tools.pipeline})"])
    units = re.search(r"posenc\.workgroup_units = (\d+)", llvm_dialect)
    scratch = re.search(r"posenc\.scratch_bytes = (\d+)", llvm_dialect)
    shared = re.search(r"posenc\.shared_scratch_bytes = (\d+)", llvm_dialect)
    phases = re.search(r"posenc\.workgroup_phases = (\d+)", llvm_dialect)
    if not units or not scratch:
        raise RuntimeError(f"{name}: the kernel has no static workgroup count or scratch size")
    with open(base + ".llvm.mlir", "w") as f:
        f.write(llvm_dialect)
    run([tools.mlir_translate, "--mlir-to-llvmir", base + ".llvm.mlir", "-o", base + ".ll"])
    flags = ["-target", TARGET_TRIPLE, "-march=native", "-O3", "-fPIC", "-fno-plt",
             "-ffreestanding", "-fvisibility=hidden", "-c"]
    # The data layout of the target triple (the module has the host's).
    run([tools.clang] + flags + ["-Wno-override-module", base + ".ll", "-o", base + ".kernel.o"])
    run([tools.clang] + flags + ["-fno-builtin",
                                 os.path.join(HERE, "posenc_iree_freestanding.c"),
                                 "-o", base + ".support.o"])
    run([tools.ld, "-r", base + ".kernel.o", base + ".support.o", "-o", base + ".o"])
    return Kernel(os.path.abspath(base + ".o"), int(units.group(1)), int(scratch.group(1)),
                  int(shared.group(1)) if shared else 0, int(phases.group(1)) if phases else 1)


class Kernel:
    """A compiled kernel: its object, iterations, per-workgroup scratch bytes,
    shared scratch bytes and phases (2: split decode keys, the combine a
    second dispatch of one workgroup)."""

    def __init__(self, obj, units, scratch, shared, phases):
        self.obj, self.units, self.scratch = obj, units, scratch
        self.shared, self.phases = shared, phases
        self.workgroups = 1


def shim(name, kernel_name, operands, result, phase, shared, scratch):
    """One export's function: IREE's bindings (tensor operands, then
    results) and push constants -> the kernel's arguments. `shared` and
    `scratch` are byte counts; a shared buffer read (phase 1) is an operand
    binding after the tensors, written (phase 0) a result after `result`."""
    tensors = [op for op in operands if op.is_tensor]
    bindings = [(op.memref(False), op.memref()) for op in tensors]
    shared_ty = f"memref<{max(shared, 1)}xi8>"
    if phase == 1:
        bindings.append((shared_ty, "memref<?xi8>"))
    bindings.append((result.memref(False), result.memref()))
    if phase == 0 and shared:
        bindings.append((shared_ty, "memref<?xi8>"))
    bindings.append((f"memref<{scratch}xi8>", "memref<?xi8>"))
    args, body = [], []
    for i, (ty, cast) in enumerate(bindings):
        args.append(f"%b{i}: !stream.binding")
        body.append(f"      %m{i} = stream.binding.subspan %b{i}[%c0] : !stream.binding -> {ty}")
        body.append(f"      %v{i} = memref.cast %m{i} : {ty} to {cast}")
    n = len(tensors)
    if phase == 1:
        shared_v, out_v, scratch_v = f"%v{n}", f"%v{n + 1}", f"%v{n + 2}"
    elif shared:
        out_v, shared_v, scratch_v = f"%v{n}", f"%v{n + 1}", f"%v{n + 2}"
    else:  # one phase: nothing is shared, the argument is any buffer
        out_v, scratch_v = f"%v{n}", f"%v{n + 1}"
        shared_v = scratch_v
    call, t = [], 0
    for op in operands:
        if op.is_tensor:
            call.append((f"%v{t}", op.memref()))
            t += 1
        else:
            args.append(f"%s{op.index}: f32")
            call.append((f"%s{op.index}", "f32"))
    call += [(out_v, result.memref()), (scratch_v, "memref<?xi8>"),
             (shared_v, "memref<?xi8>"), ("%phase", "index"), ("%id", "index"),
             ("%count", "index")]
    decl = ", ".join(ty for _, ty in call)
    return decl, f"""      func.func @{name}({", ".join(args)}) {{
      %c0 = arith.constant 0 : index
{chr(10).join(body)}
      %phase = arith.constant {phase} : index
      %id = hal.interface.workgroup.id[0] : index
      %count = hal.interface.workgroup.count[0] : index
      func.call @{kernel_name}({", ".join(v for v, _ in call)}) : ({decl}) -> ()
      return
      }}"""


def executable(name, kernel, operands, result):
    """The stream.executable: one export per phase, each a shim calling the
    kernel linked from its object."""
    exports, funcs, decl = [], [], ""
    phases = [(name, 0, kernel.scratch * kernel.workgroups)]
    if kernel.phases == 2:
        phases.append((f"{name}_combine", 1, kernel.scratch))
    for export, phase, scratch in phases:
        decl, text = shim(export, f"{name}_workgroup", operands, result, phase, kernel.shared,
                          scratch)
        funcs.append(text)
        exports.append(f"""    stream.executable.export public @{export} workgroups(%n: index) -> (index, index, index) {{
      %c1 = arith.constant 1 : index
      stream.return %n, %c1, %c1 : index, index, index
    }}""")
    return f"""
  stream.executable private @{name}_executable attributes {{
    hal.executable.objects = #hal.executable.objects<{{
      #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64"> = [
        #hal.executable.object<{{path = "{kernel.obj}"}}>]}}>
  }} {{
{chr(10).join(exports)}
    builtin.module {{
      func.func private @{name}_workgroup({decl}) attributes {{hal.import.static}}
{chr(10).join(funcs)}
    }}
  }}
"""


def dispatch(indent, result_name, name, operand_names, operands, result, kernel):
    """The flow.dispatch(es) of one attention: with two phases, the combine
    reads the shared scratch that the parallel phase wrote."""
    tensors = [(n, op) for n, op in zip(operand_names, operands) if op.is_tensor]
    scalars = [(n, op) for n, op in zip(operand_names, operands) if not op.is_tensor]
    args = [n for n, _ in tensors] + [n for n, _ in scalars]
    types = [op.type for _, op in tensors] + [op.type for _, op in scalars]
    scratch_ty = f"tensor<{kernel.scratch * kernel.workgroups}xi8>"
    count = f"{indent}%{name}_count = arith.constant {kernel.workgroups} : index\n"
    if kernel.phases == 1:
        return (count + f"{indent}{result_name}, %{name}_scratch = flow.dispatch "
                f"@{name}_executable::@{name}[%{name}_count]({', '.join(args)}) : "
                f"({', '.join(types)}) -> ({result.type}, {scratch_ty})")
    shared_ty = f"tensor<{max(kernel.shared, 1)}xi8>"
    combine_args = [n for n, _ in tensors] + [f"%{name}_shared"] + [n for n, _ in scalars]
    combine_types = ([op.type for _, op in tensors] + [shared_ty]
                     + [op.type for _, op in scalars])
    return (count + f"{indent}%{name}_partial, %{name}_shared, %{name}_scratch = flow.dispatch "
            f"@{name}_executable::@{name}[%{name}_count]({', '.join(args)}) : "
            f"({', '.join(types)}) -> ({result.type}, {shared_ty}, {scratch_ty})\n"
            f"{indent}%{name}_one = arith.constant 1 : index\n"
            f"{indent}{result_name}, %{name}_combine_scratch = flow.dispatch "
            f"@{name}_executable::@{name}_combine[%{name}_one]({', '.join(combine_args)}) : "
            f"({', '.join(combine_types)}) -> ({result.type}, tensor<{kernel.scratch}xi8>)")


def module_head(lines):
    """The line that opens the module's body (generic form, with or without
    properties)."""
    return next(i for i, l in enumerate(lines)
                if re.match(r'^"builtin\.module"\(\) (<\{.*\}> )?\(\{$', l))


class Tools:
    def __init__(self, build, clang):
        self.posenc_opt = os.path.join(build, "bin", "posenc-opt")
        self.posenc_run = os.path.join(build, "bin", "posenc-run")
        llvm = "/usr/lib/llvm-22/bin"
        self.mlir_translate = os.path.join(llvm, "mlir-translate")
        self.clang = clang or os.path.join(llvm, "clang")
        self.ld = os.path.join(llvm, "ld.lld")
        self.pipeline = host_pipeline(self.posenc_run)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--objects-dir", required=True)
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--clang", default=None)
    parser.add_argument("--workgroups", type=int, default=DEFAULT_WORKGROUPS,
                        help=f"most workgroups per attention (default {DEFAULT_WORKGROUPS})")
    parser.add_argument("--pipeline-options", default="",
                        help="extra posenc-cpu-pipeline options (e.g. attention-query-tile=32)")
    parser.add_argument("--iree-input", action="store_true",
                        help="the input is IREE's input IR (iree-compile --compile-to=input, "
                        "generic): raise and fuse it first, as posenc-iree-input-pipeline does")
    parser.add_argument("--zero-padding-rows", action="store_true",
                        help="with --iree-input: posenc-raise-pipeline's zero-padding-rows")
    args = parser.parse_args()
    with open(args.input) as f:
        text = f.read()
    try:
        out = convert(text, args.objects_dir, build=args.build, clang=args.clang,
                      workgroups=args.workgroups, pipeline_options=args.pipeline_options,
                      iree_input=args.iree_input, zero_padding_rows=args.zero_padding_rows,
                      log=sys.stderr)
    except (RuntimeError, ValueError) as e:
        raise SystemExit(f"error: {e}")
    with open(args.output, "w") as f:
        f.write(out)


def convert(text, objects_dir, build=os.path.join(HERE, "..", "build"), clang=None,
            workgroups=None, pipeline_options="", iree_input=False, zero_padding_rows=False,
            log=None):
    """posenc IR (text) -> IREE input with posenc's kernels; the objects go
    to `objects_dir`. With `iree_input`, `text` is IREE's input IR (util.func
    bodies, generic form): it is raised and fused first, and the functions
    are restored after the lowering (posenc-iree-input-pipeline's steps)."""
    tools = Tools(build, clang)
    max_workgroups = workgroups or DEFAULT_WORKGROUPS
    if pipeline_options:
        tools.pipeline = tools.pipeline[:-1] + " " + pipeline_options + "}"
    os.makedirs(objects_dir, exist_ok=True)
    first, lower = "posenc-fold-frequencies", "posenc-to-linalg-pipeline"
    if iree_input:
        raise_options = f"zero-padding-rows={str(zero_padding_rows).lower()}"
        first = (f"posenc-wrap-foreign-functions,func.func(posenc-raise-pipeline{{{raise_options}}}),"
                 + first)
    generic = run([tools.posenc_opt, "-", "--allow-unregistered-dialect",
                   f"--pass-pipeline=builtin.module({first})", "--mlir-print-op-generic",
                   "--mlir-print-elementsattrs-with-hex-if-larger=-1"], input=text)
    # Each attention becomes a call of an external function; the rest of the
    # module is lowered by posenc-to-linalg-pipeline; the calls then become
    # dispatches.
    lines, kernels = [], []
    for line in generic.splitlines():
        m = ATTENTION.match(line)
        if not m:
            lines.append(line)
            continue
        indent, result_name, operand_text, props, types_text, result_type, loc = m.groups()
        name = f"posenc_attention_{len(kernels)}"
        kernels.append((name, m.groups()))
        lines.append(f'{indent}{result_name} = "func.call"({operand_text}) <{{callee = @{name}}}> : '
                     f"({types_text}) -> {result_type}{loc}")
    if not kernels:
        raise ValueError("no posenc.attention in the module")
    head = module_head(lines)
    lines[head + 1:head + 1] = [
        f'  "func.func"() <{{function_type = ({g[4]}) -> {g[5]}, sym_name = "{n}", '
        f'sym_visibility = "private"}}> ({{\n  }}) : () -> ()' for n, g in kernels]
    lowered = run([tools.posenc_opt, "-", "--allow-unregistered-dialect",
                   f"--pass-pipeline=builtin.module({lower})", "--mlir-print-op-generic",
                   "--mlir-print-elementsattrs-with-hex-if-larger=-1"],
                  input="\n".join(lines) + "\n")

    lines, executables, calls, dispatches = [], [], {n: g for n, g in kernels}, {}
    skip = False
    for line in lowered.splitlines():
        # The declarations go: `"func.func"() <{...}> ({` and `}) : () -> ()`.
        decl = re.match(r'^\s*"func\.func"\(\) <\{.*sym_name = "(posenc_attention_\d+)"', line)
        if decl and decl.group(1) in calls:
            skip = line.rstrip().endswith("({")
            continue
        if skip:
            skip = False
            continue
        m = CALL.match(line)
        if not m or m.group(4) not in calls:
            lines.append(line)
            continue
        indent, result_name, operand_text, name, types_text, result_type, loc = m.groups()
        props = calls[name][3]
        types = split_types(types_text)
        try:
            operands = [Operand(i, t) for i, t in enumerate(types)]
            result = Operand(len(types), result_type)
        except ValueError as e:
            raise ValueError(f"{name} ({result_name}): {e}")
        text = kernel_module(f"{name}_workgroup", operands, result, props, types_text)
        kernel = compile_kernel(tools, name, text, objects_dir)
        kernel.workgroups = max(1, min(kernel.units, max_workgroups))
        executables.append(executable(name, kernel, operands, result))
        dispatches[name] = (operands, result, kernel)
        lines.append(f'{indent}{result_name} = "posenc_iree.dispatch"({operand_text}) '
                     f'{{kernel = "{name}"}} : ({types_text}) -> {result_type}{loc}')
        if log:
            fused = [k for k in ("causal", "rope", "alibi", "sinks", "key_mask")
                     if re.search(rf"\b{k}\b", props)]
            combine = (f", then a combine ({kernel.shared} shared bytes)"
                       if kernel.phases == 2 else "")
            print(f"{name} ({' '.join(fused) or 'plain'}): {kernel.units} iterations on "
                  f"{kernel.workgroups} workgroups, scratch {kernel.scratch} bytes each"
                  f"{combine}", file=log)
        del calls[name]
    if calls:
        raise RuntimeError(f"{', '.join(calls)}: the call was not found after lowering")
    if iree_input:
        # A func.call in a util.func does not verify (an unregistered op may
        # be a symbol table): the calls are placeholders until then.
        lines = run([tools.posenc_opt, "-", "--allow-unregistered-dialect",
                     "--pass-pipeline=builtin.module(posenc-unwrap-foreign-functions)",
                     "--mlir-print-op-generic", "--mlir-print-elementsattrs-with-hex-if-larger=-1"],
                    input="\n".join(lines) + "\n").splitlines()
    for i, line in enumerate(lines):
        m = PLACEHOLDER.match(line)
        if m:
            indent, result_name, operand_text, name, loc = m.groups()
            operand_names = [o.strip() for o in operand_text.split(",") if o.strip()]
            lines[i] = dispatch(indent, result_name, name, operand_names,
                                *dispatches.pop(name)) + loc
    if dispatches:
        raise RuntimeError(f"{', '.join(dispatches)}: the dispatch was lost")
    # The executables go first in the module's body.
    head = module_head(lines)
    lines[head + 1:head + 1] = "".join(executables).splitlines()
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
