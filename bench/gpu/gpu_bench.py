#!/usr/bin/env python3
"""bench/gpu: posenc's GPU kernels on a CUDA device against the device's copy
bandwidth and PyTorch, in one run sized for a 10-minute GPU slot.

GPU machines lent for a few minutes start bare and have no LLVM/MLIR 22, so
posenc-run (which JIT-compiles with libMLIR) cannot run there. The work is
split in two:

  prepare  (any machine with the build; no GPU needed) compiles every case
           with posenc-run --gpu --dry-run --dump-llvm: the host code, with
           the kernels' PTX inside, as LLVM IR, made a shared object by
           clang-22; the same for smaller "check" shapes, and those through
           the CPU pipeline too (openmp=false, x86-64-v3). Writes them, the
           GPU runtime (libPosEncGPURuntime.so: posenc-run's mgpu* functions
           over the CUDA driver, no LLVM) and manifest.json to one folder.
           A case posenc-gpu-pipeline cannot compile is recorded as
           unsupported with its first error line.
  run      (the GPU machine: python3, numpy, optionally torch) loads the
           runtime, then each case's host code (its constructor loads the
           PTX), and calls it through ctypes on device buffers: CUDA-event
           timing of the whole call and of the kernels, the device copy
           baseline, the check shapes against the CPU pipeline's code on the
           same inputs (what posenc-run --compare-cpu does), the full shapes
           against a PyTorch reference on the GPU, PyTorch peers. Each case
           runs in a subprocess: a failure inside the host code (which ends
           its process) loses that case only.

Cases (full shapes; --small for smoke tests):
  rope     RoPE on q and k, f32 [1, 32, 4096, 128], half-split, theta 500000
           (bench/rope's shape): GB/s against a device-to-device copy moving
           the same bytes, and PyTorch's HF-form RoPE.
  prefill  posenc.attention with RoPE, bf16, H=32, S=4096, D=128, causal:
           TFLOP/s against PyTorch RoPE + scaled_dot_product_attention.
  decode   one bf16 query at position Sk-1 against a rotated KV cache, H=32,
           Sk=4096, D=128 (posenc.rotary on q, then posenc.attention): GB/s
           of K and V read, against PyTorch.

The last line is `RESULT bench=gpu key=value ...` (README.md lists the keys).
"""

import argparse
import ctypes
import json
import math
import os
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
THETA = 500000.0
# Where references and peers run (tests check the references on the CPU).
TORCH_DEVICE = "cuda"
D = 128
H = 32
# The CPU check's code runs on another x86-64 machine, without LLVM's libomp
# (which posenc's OpenMP lowering calls).
CPU_PIPELINE = "posenc-cpu-pipeline{openmp=false}"


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def shapes(small):
    """S for the timed shapes and for the CPU check shapes."""
    if small:
        return {"rope": (64, 32), "prefill": (128, 64), "decode": (256, 128)}
    return {"rope": (4096, 256), "prefill": (4096, 256), "decode": (4096, 1024)}


def tensor(shape, elem):
    return "tensor<" + "x".join(str(s) for s in shape) + f"x{elem}>"


def rope_module(s):
    t = tensor((1, H, s, D), "f32")
    return (f"// bench/gpu rope: RoPE on q and k, f32 [1, {H}, {s}, {D}], theta {THETA:g}\n"
            f"func.func @rope(%q: {t}, %k: {t}) -> ({t}, {t}) {{\n"
            f"  %inv, %af = posenc.rope_frequencies dim {D} base {THETA:.1f} : tensor<{D // 2}xf32>, f32\n"
            f"  %qr = posenc.rotary %q half_split dim {D} inv_freq(%inv : tensor<{D // 2}xf32>) : {t}\n"
            f"  %kr = posenc.rotary %k half_split dim {D} inv_freq(%inv : tensor<{D // 2}xf32>) : {t}\n"
            f"  return %qr, %kr : {t}, {t}\n}}\n")


def prefill_module(s):
    t = tensor((1, H, s, D), "bf16")
    return (f"// bench/gpu prefill: attention with RoPE, bf16, H={H}, S={s}, D={D}, causal\n"
            f"func.func @prefill(%q: {t}, %k: {t}, %v: {t}) -> {t} {{\n"
            f"  %inv, %af = posenc.rope_frequencies dim {D} base {THETA:.1f} : tensor<{D // 2}xf32>, f32\n"
            f"  %o = posenc.attention %q, %k, %v causal rope(#posenc.rope<layout = half_split, "
            f"rotary_dim = {D}>, %inv : tensor<{D // 2}xf32>, %af) : {t}, {t}, {t} -> {t}\n"
            f"  return %o : {t}\n}}\n")


def decode_module(sk):
    tq, tk = tensor((1, H, 1, D), "bf16"), tensor((1, H, sk, D), "bf16")
    return (f"// bench/gpu decode: one bf16 query at position {sk - 1}, rotated KV cache of {sk}\n"
            f"func.func @decode(%q: {tq}, %k: {tk}, %v: {tk}) -> {tq} {{\n"
            f"  %inv, %af = posenc.rope_frequencies dim {D} base {THETA:.1f} : tensor<{D // 2}xf32>, f32\n"
            f"  %off = arith.constant {sk - 1} : index\n"
            f"  %qr = posenc.rotary %q half_split dim {D} inv_freq(%inv : tensor<{D // 2}xf32>) "
            f"offset(%off : index) attention_factor(%af) : {tq}\n"
            f"  %o = posenc.attention %qr, %k, %v causal : {tq}, {tk}, {tk} -> {tq}\n"
            f"  return %o : {tq}\n}}\n")


def signature(case, s):
    """(inputs, outputs) as [(elem, shape)]."""
    if case == "rope":
        t = ("f32", [1, H, s, D])
        return [t, t], [t, t]
    if case == "prefill":
        t = ("bf16", [1, H, s, D])
        return [t, t, t], [t]
    q, kv = ("bf16", [1, H, 1, D]), ("bf16", [1, H, s, D])
    return [q, kv, kv], [q]


MODULES = {"rope": rope_module, "prefill": prefill_module, "decode": decode_module}
CASES = ("rope", "prefill", "decode")


# ----------------------------------------------------------------------------
# prepare
# ----------------------------------------------------------------------------

def first_error(text):
    lines = [l for l in text.splitlines() if "error" in l] or text.splitlines() or ["failed"]
    return lines[0].strip()[:300]


def compile_so(posenc_run, module_path, so_path, gpu, chip, clang, builtins):
    """posenc-run --dry-run --dump-llvm, then clang-22 -shared. Returns None
    or the first error line."""
    ll = so_path[:-3] + ".ll"
    cmd = [posenc_run, module_path, "--dry-run", f"--dump-llvm={ll}"]
    cmd += ["--gpu", f"--chip={chip}"] if gpu else [f"--pipeline={CPU_PIPELINE}"]
    env = dict(os.environ, POSENC_LIBCUDA="/nonexistent")  # no device needed
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        return first_error(out.stderr + out.stdout)
    # The CPU code may call compiler-rt builtins (bf16 truncation) that the
    # GPU machine's libgcc lacks: linked in statically.
    cmd = [clang, "-O2", "-fPIC", "-shared", ll, "-o", so_path]
    if not gpu:
        cmd[1:1] = ["-march=x86-64-v3"]
        if builtins:
            cmd.append(builtins)
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        return first_error(out.stderr)
    os.remove(ll)
    return None


def prepare(args):
    posenc_run = os.path.join(args.build, "bin", "posenc-run")
    runtime = os.path.join(args.build, "lib", "libPosEncGPURuntime.so")
    for path in (posenc_run, runtime):
        if not os.path.exists(path):
            sys.exit(f"gpu_bench: error: {path} does not exist (build posenc-run and "
                     "PosEncGPURuntime first)")
    clang = shutil.which(args.clang)
    if not clang:
        sys.exit(f"gpu_bench: error: {args.clang} not found (it makes the host code a shared object)")
    builtins = subprocess.run([clang, "-rtlib=compiler-rt", "-print-libgcc-file-name"],
                              capture_output=True, text=True).stdout.strip()
    builtins = builtins if builtins and os.path.exists(builtins) else None
    os.makedirs(args.out, exist_ok=True)
    shutil.copy(runtime, os.path.join(args.out, "libPosEncGPURuntime.so"))
    manifest = {"chip": args.chip, "shapes": "small" if args.small else "full",
                "cpu_pipeline": CPU_PIPELINE, "cases": {}}
    for case in args.cases:
        s, s_check = shapes(args.small)[case]
        entry = {"s": s, "s_check": s_check}
        for variant, size in (("", s), ("check.", s_check)):
            path = os.path.join(args.out, f"{case}.{variant}mlir")
            with open(path, "w") as f:
                f.write(MODULES[case](size))
            targets = [("gpu", True)] + ([("cpu", False)] if variant else [])
            for name, gpu in targets:
                so = os.path.join(args.out, f"{case}.{variant}{name}.so")
                error = compile_so(posenc_run, path, so, gpu, args.chip, clang, builtins)
                key = f"{variant}{name}".replace(".", "_")
                entry[key] = os.path.basename(so) if error is None else None
                if error:
                    entry[key + "_error"] = error
        entry["status"] = "ok" if entry.get("gpu") else "unsupported"
        if entry["status"] != "ok":
            entry["reason"] = entry.get("gpu_error", "")
        manifest["cases"][case] = entry
        print(f"prepared {case}: {entry['status']}"
              + (f" ({entry['reason']})" if entry["status"] != "ok" else "")
              + ("" if entry.get("check_cpu") else
                 f"; no CPU check ({entry.get('check_cpu_error', 'not compiled')})"))
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    size = sum(os.path.getsize(os.path.join(args.out, n)) for n in os.listdir(args.out))
    print(f"artifacts: {args.out} ({size / 1e6:.1f} MB)")


# ----------------------------------------------------------------------------
# The runtime through ctypes
# ----------------------------------------------------------------------------

class Runtime:
    def __init__(self, path):
        # RTLD_GLOBAL: the host code's undefined mgpu* functions bind to it.
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        L = self.lib
        L.posencGpuMessage.restype = ctypes.c_char_p
        L.posencGpuDeviceName.restype = ctypes.c_char_p
        L.posencGpuTotalMemory.restype = ctypes.c_uint64
        L.posencGpuAlloc.restype = ctypes.c_void_p
        L.posencGpuAlloc.argtypes = [ctypes.c_uint64]
        L.posencGpuFree.argtypes = [ctypes.c_void_p]
        for name in ("posencGpuCopyToDevice", "posencGpuCopyToHost"):
            getattr(L, name).argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64]
        L.posencGpuTimeCalls.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint,
                                         ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p,
                                         ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        L.posencGpuTimeCopy.argtypes = [ctypes.c_uint64, ctypes.c_uint, ctypes.c_uint,
                                        ctypes.c_void_p]
        L.posencGpuSetProgramName(b"gpu_bench")

    def init(self):
        """(status, message): 0 ready; 1-3 no driver or device; 4 failure."""
        status = self.lib.posencGpuInit(0)
        return status, self.message()

    def message(self):
        return self.lib.posencGpuMessage().decode()

    def device(self):
        L = self.lib
        cc, driver = L.posencGpuComputeCapability(), L.posencGpuDriverVersion()
        return (f"{L.posencGpuDeviceName().decode()}, sm_{cc}, {L.posencGpuMultiprocessors()} SMs, "
                f"{L.posencGpuTotalMemory() / 2**30:.1f} GiB, CUDA driver "
                f"{driver // 1000}.{driver % 1000 // 10}")

    def check(self, status, what):
        if status:
            raise RuntimeError(f"{what}: {self.message()}")

    def upload(self, array):
        array = np.ascontiguousarray(array)
        pointer = self.lib.posencGpuAlloc(array.nbytes)
        if not pointer:
            raise RuntimeError(self.message())
        self.check(self.lib.posencGpuCopyToDevice(pointer, array.ctypes.data, array.nbytes),
                   "copy to the device")
        return pointer

    def download(self, pointer, like):
        out = np.empty_like(like)
        self.check(self.lib.posencGpuCopyToHost(out.ctypes.data, pointer, out.nbytes),
                   "copy from the device")
        return out

    def time_calls(self, fn, args, warmup, iterations):
        call = (ctypes.c_double * iterations)()
        kernels = (ctypes.c_double * iterations)()
        launches = ctypes.c_uint()
        self.check(self.lib.posencGpuTimeCalls(fn, args, warmup, iterations, None, None, call,
                                               kernels, ctypes.byref(launches)),
                   "timing the calls")
        return list(call), list(kernels), launches.value

    def time_copy(self, nbytes, warmup, iterations):
        ms = (ctypes.c_double * iterations)()
        self.check(self.lib.posencGpuTimeCopy(nbytes, warmup, iterations, ms), "device copy")
        return list(ms)


class Entry:
    """The packed C interface of posenc-run's entry wrapper in a host code
    shared object, with memref descriptors for given buffers."""

    def __init__(self, so_path):
        self.lib = ctypes.CDLL(so_path)  # its constructor loads the kernels
        self.fn = ctypes.cast(self.lib._mlir__mlir_ciface___posenc_run_entry, ctypes.c_void_p)

    def args(self, buffers):
        """buffers: [(pointer, shape)], inputs then outputs. Returns the
        packed argument array (kept alive by the returned tuple)."""
        descriptors = []
        for pointer, shape in buffers:
            strides, stride = [], 1
            for size in reversed(shape):
                strides.insert(0, stride)
                stride *= size
            fields = [pointer, pointer, 0] + list(shape) + strides
            descriptors.append((ctypes.c_int64 * len(fields))(*fields))
        slots = [ctypes.c_void_p(ctypes.addressof(d)) for d in descriptors]
        argv = (ctypes.c_void_p * len(slots))(*[ctypes.addressof(s) for s in slots])
        return argv, (descriptors, slots)


def aligned_copy(array, alignment=64):
    """A C-order copy starting at a multiple of `alignment` bytes: posenc-run's
    entry wrapper promises 64 (memref.assume_alignment), and the CPU code's
    aligned vector stores fault on less."""
    raw = np.zeros(array.nbytes + alignment, np.uint8)
    offset = -raw.ctypes.data % alignment
    out = raw[offset:offset + array.nbytes].view(array.dtype).reshape(array.shape)
    out[...] = array
    return out


def call_host(entry, inputs, outputs_like):
    """Runs a CPU-pipeline host code once on host arrays."""
    inputs = [aligned_copy(a) for a in inputs]
    outs = [aligned_copy(np.zeros_like(o)) for o in outputs_like]
    argv, keep = entry.args([(a.ctypes.data, a.shape) for a in inputs]
                            + [(o.ctypes.data, o.shape) for o in outs])
    ctypes.cast(entry.fn, ctypes.CFUNCTYPE(None, ctypes.c_void_p))(argv)
    del keep
    return outs


# ----------------------------------------------------------------------------
# Inputs, references
# ----------------------------------------------------------------------------

def to_bf16_bits(x):
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16_bits(b):
    return (np.asarray(b, np.uint16).astype(np.uint32) << 16).view(np.float32)


def make_inputs(case, s, seed):
    rng = np.random.default_rng([seed, CASES.index(case), s])
    ins, _ = signature(case, s)
    arrays = []
    for elem, shape in ins:
        x = rng.uniform(-1, 1, shape).astype(np.float32)
        arrays.append(x if elem == "f32" else to_bf16_bits(x))
    return arrays


def as_f64(array):
    return (from_bf16_bits(array) if array.dtype == np.uint16 else array).astype(np.float64)


def inv_freq64():
    """The modules' inv_freq: tensor<64xf32>, so rounded to f32 (an f64 table
    would differ by up to pos * 2^-24 rad at position pos)."""
    exact = THETA ** (-np.arange(0, D, 2, dtype=np.float64) / D)
    return exact.astype(np.float32).astype(np.float64)


def torch_or_none():
    try:
        import torch
        return torch if torch.cuda.is_available() else None
    except Exception:  # noqa: BLE001 - any import failure means no torch
        return None


def reference(torch, case, inputs, s):
    """fp64 RoPE, then (attention) f32 math attention of bf16-rounded rotated
    q and k, on the GPU; [outputs as float64 numpy]."""
    dev = TORCH_DEVICE
    x = [torch.from_numpy(as_f64(a)).to(dev) for a in inputs]
    inv = torch.from_numpy(inv_freq64()).to(dev)

    def rope(t, positions):
        ang = positions[:, None].double() * inv[None, :]
        cos, sin = torch.cos(ang), torch.sin(ang)
        x1, x2 = t[..., : D // 2], t[..., D // 2:]
        return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)

    def bf16(t):  # posenc rounds rotated 16-bit tiles to their type
        return t.to(torch.bfloat16).double()

    if case == "rope":
        pos = torch.arange(s, device=dev)
        return [rope(x[0], pos).cpu().numpy(), rope(x[1], pos).cpu().numpy()]
    if case == "prefill":
        pos = torch.arange(s, device=dev)
        q, k, v = bf16(rope(x[0], pos)), bf16(rope(x[1], pos)), x[2]
        causal = True
    else:
        q = bf16(rope(x[0], torch.tensor([s - 1], device=dev)))
        k, v = x[1], x[2]
        causal = False
    out = torch.empty_like(q, dtype=torch.float32)
    # Per head, f32 math (a [S, S] score matrix per head at a time).
    for h in range(q.shape[1]):
        scores = (q[0, h].float() @ k[0, h].float().T) / math.sqrt(D)
        if causal:
            mask = torch.ones_like(scores, dtype=torch.bool).triu(1)
            scores = scores.masked_fill(mask, float("-inf"))
        out[0, h] = torch.softmax(scores, dim=-1) @ v[0, h].float()
    return [out.double().cpu().numpy()]


def torch_peers(torch, case, inputs, s, warmup, iterations):
    """{name: median ms} of PyTorch doing the case's work on the GPU in HF's
    form (cos/sin from f32 inv_freq per call, rotate_half)."""
    F = torch.nn.functional
    dev = TORCH_DEVICE
    dtype = torch.float32 if case == "rope" else torch.bfloat16
    x = []
    for a in inputs:
        t = torch.from_numpy(a.view(np.int16) if a.dtype == np.uint16 else a).to(dev)
        x.append(t.view(torch.bfloat16) if a.dtype == np.uint16 else t)
    inv = torch.from_numpy(inv_freq64().astype(np.float32)).to(dev)

    def rotate_half(t):
        return torch.cat((-t[..., D // 2:], t[..., : D // 2]), dim=-1)

    def rope(t, positions):
        freqs = positions[:, None].float() * inv[None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(dtype), emb.sin().to(dtype)
        return t * cos + rotate_half(t) * sin

    def timed(fn):
        for _ in range(warmup):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(iterations):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return float(np.median(times))

    pos = torch.arange(s, device=dev)
    if case == "rope":
        return {"torch_rope": timed(lambda: (rope(x[0], pos), rope(x[1], pos)))}
    if case == "prefill":
        q, k, v = x
        qr, kr = rope(q, pos), rope(k, pos)
        return {"torch_sdpa": timed(lambda: F.scaled_dot_product_attention(qr, kr, v, is_causal=True)),
                "torch_rope_sdpa": timed(lambda: F.scaled_dot_product_attention(
                    rope(q, pos), rope(k, pos), v, is_causal=True))}
    q, k, v = x
    last = torch.tensor([s - 1], device=dev)
    qr = rope(q, last)
    return {"torch_sdpa": timed(lambda: F.scaled_dot_product_attention(qr, k, v)),
            "torch_rope_sdpa": timed(lambda: F.scaled_dot_product_attention(rope(q, last), k, v))}


def max_error(got, want):
    got = np.asarray(got, np.float64)
    if not np.all(np.isfinite(got)):
        return float("inf")
    return float(np.abs(got - want).max())


# ----------------------------------------------------------------------------
# run: one case (in its own process)
# ----------------------------------------------------------------------------

def run_case(args):
    """Prints one JSON line with the case's figures."""
    with open(os.path.join(args.artifacts, "manifest.json")) as f:
        manifest = json.load(f)
    entry = manifest["cases"][args.case]
    case, s, s_check = args.case, entry["s"], entry["s_check"]
    rt = Runtime(os.path.join(args.artifacts, "libPosEncGPURuntime.so"))
    status, message = rt.init()
    if status:
        print(json.dumps({"case": case, "error": f"no GPU: {message}"}), flush=True)
        return
    result = {"case": case, "s": s}
    torch = torch_or_none()

    def on_device(so, inputs, size):
        _, outs = signature(case, size)
        like = [np.zeros(shape, np.float32 if elem == "f32" else np.uint16) for elem, shape in outs]
        dev_in = [rt.upload(a) for a in inputs]
        dev_out = [rt.upload(o) for o in like]
        fn = Entry(os.path.join(args.artifacts, so))
        argv, keep = fn.args([(p, a.shape) for p, a in zip(dev_in, inputs)]
                             + [(p, o.shape) for p, o in zip(dev_out, like)])
        return fn, argv, keep, dev_in, dev_out, like

    # The check shapes: the GPU's code against the CPU pipeline's, same inputs.
    if entry.get("check_gpu") and entry.get("check_cpu"):
        inputs = make_inputs(case, s_check, args.seed)
        fn, argv, keep, dev_in, dev_out, like = on_device(entry["check_gpu"], inputs, s_check)
        rt.time_calls(fn.fn, argv, 0, 1)
        gpu_outs = [rt.download(p, o) for p, o in zip(dev_out, like)]
        cpu_outs = call_host(Entry(os.path.join(args.artifacts, entry["check_cpu"])), inputs, like)
        result["cpu_check_err"] = max(max_error(as_f64(g), as_f64(c))
                                      for g, c in zip(gpu_outs, cpu_outs))
        for p in dev_in + dev_out:
            rt.lib.posencGpuFree(p)
    else:
        result["cpu_check_err"] = None

    inputs = make_inputs(case, s, args.seed)
    fn, argv, keep, dev_in, dev_out, like = on_device(entry["gpu"], inputs, s)
    call, kernels, launches = rt.time_calls(fn.fn, argv, args.warmup, args.iterations)
    result.update(call_ms=float(np.median(call)), kernel_ms=float(np.median(kernels)),
                  launches=launches,
                  bytes=int(sum(a.nbytes for a in inputs) + sum(o.nbytes for o in like)))
    outs = [rt.download(p, o) for p, o in zip(dev_out, like)]
    if case == "rope":
        copied = result["bytes"] // 2 // 4 * 4
        result["copy_ms"] = float(np.median(rt.time_copy(copied, args.warmup, args.iterations)))
        result["copy_bytes"] = 2 * copied
    if torch is not None:
        # PyTorch's failures (memory, a missing kernel) cost its columns only.
        try:
            ref = reference(torch, case, inputs, s)
            result["ref_err"] = max(max_error(as_f64(o), r) for o, r in zip(outs, ref))
            del ref
            torch.cuda.empty_cache()
            result.update(torch_peers(torch, case, inputs, s, args.warmup, args.iterations))
        except Exception as e:  # noqa: BLE001
            result["torch_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
        result["torch"] = torch.__version__
    print(json.dumps(result), flush=True)


# ----------------------------------------------------------------------------
# run: all cases, the table, the RESULT line
# ----------------------------------------------------------------------------

def fmt(x, spec=".4g"):
    return "-" if x is None else format(x, spec)


def run_all(args):
    manifest_path = os.path.join(args.artifacts, "manifest.json")
    if not os.path.exists(manifest_path):
        sys.exit(f"gpu_bench: error: {manifest_path} does not exist: run "
                 "bench/gpu/run.sh --prepare first (on a machine with the build)")
    with open(manifest_path) as f:
        manifest = json.load(f)
    cases = [c for c in args.cases if c in manifest["cases"]]
    if args.dry_run:
        print(f"artifacts: {args.artifacts} ({manifest['shapes']} shapes, chip {manifest['chip']})")
        for c in cases:
            e = manifest["cases"][c]
            what = (f"S={e['s']}, CPU check at S={e['s_check']}"
                    + ("" if e.get("check_cpu") else " (no CPU check)")
                    if e["status"] == "ok" else f"unsupported: {e.get('reason', '')}")
            print(f"would run {c}: {what}")
        print(f"iterations {args.iterations} after {args.warmup} warmup, seed {args.seed}")
        return 0

    rt = Runtime(os.path.join(args.artifacts, "libPosEncGPURuntime.so"))
    status, message = rt.init()
    results, keys = {}, {"bench": "gpu", "shapes": manifest["shapes"]}
    if status:
        print(f"no CUDA driver/GPU: {message}")
        keys["gpu"] = "none"
        print("RESULT " + " ".join(f"{k}={v}" for k, v in keys.items()))
        return 77
    device = rt.device()
    print(f"gpu: {device}")
    keys["gpu"] = device.split(",")[0].replace(" ", "_")
    keys["chip"] = manifest["chip"]
    torch = torch_or_none()
    print("torch: " + (torch.__version__ if torch else "not available (peers and references "
                                                        "skipped)"))
    start = time.time()
    for c in cases:
        e = manifest["cases"][c]
        if e["status"] != "ok":
            results[c] = {"case": c, "unsupported": e.get("reason", "")}
            continue
        if time.time() - start > args.budget_s:
            results[c] = {"case": c, "error": f"skipped: over the {args.budget_s:g} s budget"}
            continue
        cmd = [sys.executable, os.path.abspath(__file__), "case", c, "--artifacts",
               args.artifacts, "--iterations", str(args.iterations), "--warmup",
               str(args.warmup), "--seed", str(args.seed)]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True,
                                 timeout=max(30, args.budget_s - (time.time() - start) + 60))
            lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
            results[c] = (json.loads(lines[-1]) if lines else
                          {"case": c, "error": first_error(out.stderr or "no output")})
        except subprocess.TimeoutExpired:
            results[c] = {"case": c, "error": "timed out"}

    # The table and the RESULT keys.
    print(f"\n{'case':8} {'posenc ms':>10} {'kernels':>9} {'rate':>14} {'peer':>16} "
          f"{'peer ms':>9} {'ratio':>6} {'err vs ref':>11} {'cpu check':>10}")
    numerics_ok = True
    for c in cases:
        r = results.get(c, {})
        if "unsupported" in r or "error" in r:
            note = ("unsupported: " + r["unsupported"]) if "unsupported" in r else r["error"]
            print(f"{c:8} {note}")
            keys[c] = "unsupported" if "unsupported" in r else "error"
            continue
        flops = 2.0 * H * r["s"] ** 2 * D  # causal: half of 4 * H * S^2 * D
        if c == "rope":
            rate = r["bytes"] / r["kernel_ms"] / 1e6
            peer, peer_ms = "device copy", r["copy_ms"]
            ratio = r["copy_ms"] / r["kernel_ms"]
            rate_text = f"{rate:.0f} GB/s"
            keys.update(rope_ms=fmt(r["call_ms"], ".6g"), rope_kernel_ms=fmt(r["kernel_ms"], ".6g"),
                        rope_gbps=fmt(rate, ".6g"),
                        copy_gbps=fmt(r["copy_bytes"] / r["copy_ms"] / 1e6, ".6g"),
                        rope_vs_copy=fmt(ratio, ".4g"))
            if "torch_rope" in r:
                keys["torch_rope_ms"] = fmt(r["torch_rope"], ".6g")
        elif c == "prefill":
            rate = flops / r["kernel_ms"] / 1e9
            rate_text = f"{rate:.1f} TFLOP/s"
            peer, peer_ms = "torch sdpa", r.get("torch_sdpa")
            ratio = peer_ms / r["kernel_ms"] if peer_ms else None
            keys.update(prefill_ms=fmt(r["call_ms"], ".6g"),
                        prefill_kernel_ms=fmt(r["kernel_ms"], ".6g"),
                        prefill_tflops=fmt(rate, ".4g"))
            if peer_ms:
                keys.update(torch_sdpa_ms=fmt(peer_ms, ".6g"),
                            torch_rope_sdpa_ms=fmt(r["torch_rope_sdpa"], ".6g"),
                            prefill_vs_sdpa=fmt(ratio, ".4g"))
        else:
            kv = 2 * H * r["s"] * D * 2
            rate = kv / r["kernel_ms"] / 1e6
            rate_text = f"{rate:.0f} GB/s"
            peer, peer_ms = "torch sdpa", r.get("torch_sdpa")
            ratio = peer_ms / r["kernel_ms"] if peer_ms else None
            keys.update(decode_ms=fmt(r["call_ms"], ".6g"),
                        decode_kernel_ms=fmt(r["kernel_ms"], ".6g"), decode_gbps=fmt(rate, ".6g"))
            if peer_ms:
                keys.update(torch_decode_ms=fmt(peer_ms, ".6g"),
                            torch_rope_decode_ms=fmt(r["torch_rope_sdpa"], ".6g"),
                            decode_vs_sdpa=fmt(ratio, ".4g"))
        # bf16 outputs: a few bf16 ulps of |o| <= 1; f32 RoPE: f32 cos/sin.
        tol_ref, tol_cpu = (1e-5, 1e-5) if c == "rope" else (2e-2, 1e-2)
        ref_err, cpu_err = r.get("ref_err"), r.get("cpu_check_err")
        ok = (ref_err is None or ref_err <= tol_ref) and (cpu_err is None or cpu_err <= tol_cpu)
        numerics_ok &= ok
        keys[f"{c}_err"] = fmt(ref_err, ".3g")
        keys[f"{c}_cpu_err"] = fmt(cpu_err, ".3g")
        print(f"{c:8} {r['call_ms']:>10.4g} {r['kernel_ms']:>9.4g} {rate_text:>14} {peer:>16} "
              f"{fmt(peer_ms):>9} {fmt(ratio, '.3g'):>6} {fmt(ref_err, '.3g'):>11} "
              f"{fmt(cpu_err, '.3g'):>10}" + ("" if ok else "  NUMERICS FAIL")
              + (f"  (torch: {r['torch_error']})" if "torch_error" in r else ""))
    print("\nposenc ms: one call (CUDA events around it: launches and the host code's "
          "synchronizations included); kernels: the kernels alone; rate and ratio from the "
          "kernels' time (ratio: peer ms / posenc kernels ms). err vs ref: max abs error "
          "against PyTorch on the GPU (fp64 RoPE; f32 attention of bf16-rounded rotated q, k); "
          "cpu check: max abs error against posenc's CPU pipeline on the same inputs at the "
          "check shape.")
    keys["numerics"] = "pass" if numerics_ok else "fail"
    keys["torch"] = torch.__version__.split("+")[0] if torch else "none"
    print("RESULT " + " ".join(f"{k}={v}" for k, v in keys.items()))
    return 0 if numerics_ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="compile the cases (no GPU needed)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default=os.path.join(ROOT, "build", "gpu-bench"))
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--clang", default="clang-22")
    p.add_argument("--small", action="store_true")
    p.add_argument("--cases", default=",".join(CASES))
    for name in ("run", "case"):
        r = sub.add_parser(name)
        if name == "case":
            r.add_argument("case", choices=CASES)
        r.add_argument("--artifacts", default=os.path.join(ROOT, "build", "gpu-bench"))
        r.add_argument("--iterations", type=int, default=20)
        r.add_argument("--warmup", type=int, default=3)
        r.add_argument("--seed", type=int, default=0)
        r.add_argument("--budget-s", type=float, default=420)
        r.add_argument("--cases", default=",".join(CASES))
        r.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    if hasattr(args, "cases"):
        args.cases = [c for c in args.cases.split(",") if c]
        bad = [c for c in args.cases if c not in CASES]
        if bad:
            ap.error(f"unknown case(s) {','.join(bad)} (cases: {','.join(CASES)})")
    if getattr(args, "iterations", 1) < 1 or getattr(args, "warmup", 0) < 0:
        ap.error("--iterations must be at least 1 and --warmup at least 0")
    if args.command == "prepare":
        return prepare(args)
    if args.command == "case":
        run_case(args)
        # The host code's destructors (module unload) and PyTorch's at-exit
        # teardown of the same CUDA context may race: the figures are out.
        sys.stdout.flush()
        os._exit(0)
    return run_all(args)


if __name__ == "__main__":
    sys.exit(main())
