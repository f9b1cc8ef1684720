#!/usr/bin/env python3
"""A whole Llama-3.1-8B-shaped decoder layer through IREE, with and without
posenc, against PyTorch (same run).

The model is transformers' LlamaModel with one decoder layer and Llama-3.1-8B's
shapes and RoPE (hidden 4096, GQA 32/8, head dim 128, MLP 14336, RMSNorm eps
1e-5, llama3 scaling x8 over 8192 positions, theta 500000), random weights
(scripts/export_hf_attention.py's seeded reinit_), f32, SDPA attention. Its
forward takes the embedded tokens [1, S, 4096] and the layer's weights as
arguments (the weights are runtime inputs: nothing is constant-folded) and
builds the positions, cos/sin and the mask (attention_mask of ones, as a
tokenizer gives) itself: RMSNorm, QKV projections, RoPE, causal attention,
output projection, residual, RMSNorm, SwiGLU MLP, residual, final RMSNorm.

It is exported the way IREE users export: iree-turbine `aot.export`, then
`iree-compile --compile-to=input` (scripts/export_iree_input.py's steps).
Contenders:

  iree            the input IR compiled by iree-compile (IREE alone)
  iree-posenc     scripts/posenc_iree_kernels.py --iree-input on it: the
                  attention raised with its RoPE fused and run as posenc's
                  flash kernel in IREE dispatches, the rest compiled by IREE
  torch-sdpa      the PyTorch module (attn_implementation "sdpa")
  torch-eager     the same with attn_implementation "eager"

Every output is checked against the layer in float64 (PyTorch, eager):
max |got - want| / max |want| <= 1e-4 (f32 matrix products over 14336
terms); a contender over it is reported FAIL and the script exits 1.

IREE runs with the local-task driver on --threads workers, PyTorch with
torch.set_num_threads(--threads). Times are medians of --reps calls after the
checked call (--iree-reps for IREE alone, which takes minutes at S=2048: its
CPU attention). Both IREE contenders get iree-compile's llvm-cpu flags of
test/lib/posenc_iree.py plus --iree-flags (default --iree-opt-data-tiling,
which makes the layer's f32 matrix products 2.7x faster here; IREE 3.13
fails to compile its own attention with it, and IREE alone then gets the
default flags, as the output says).
Output:

  RESULT bench=iree_llama_layer threads=T seq=S hidden=4096 iree_ms=...
      iree_posenc_ms=... torch_sdpa_ms=... torch_eager_ms=...
      posenc_vs_iree=... posenc_vs_torch_sdpa=... posenc_vs_torch_eager=...

(ratios > 1: IREE + posenc faster). --small runs a 1/8-width layer (hidden
512, 4/1 heads) at S=256 to check the path in seconds.

Requirements: requirements-hf.txt and requirements-iree.txt.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "lib"))

TOL = 1e-4

LLAMA_31_8B = dict(hidden_size=4096, intermediate_size=14336, num_attention_heads=32,
                   num_key_value_heads=8, head_dim=128)
SMALL = dict(hidden_size=512, intermediate_size=1792, num_attention_heads=4,
             num_key_value_heads=1, head_dim=128)


def build_model(shape, seed):
    """(model, parameter names) of a one-layer LlamaModel, seeded."""
    import torch
    import transformers

    import export_hf_attention as hf

    cfg = transformers.LlamaConfig(
        vocab_size=16, num_hidden_layers=1, rms_norm_eps=1e-5, max_position_embeddings=131072,
        rope_parameters=dict(rope_type="llama3", rope_theta=500000.0, factor=8.0,
                             low_freq_factor=1.0, high_freq_factor=4.0,
                             original_max_position_embeddings=8192),
        use_cache=False, attn_implementation="sdpa", **shape)
    torch.manual_seed(seed)
    model = transformers.LlamaModel(cfg).eval()
    hf.reinit_(model, torch.Generator().manual_seed(seed))
    hf._keep_buffers_as_constants(model)
    names = [n for n, _ in model.named_parameters() if not n.startswith("embed_tokens")]
    return model, names


def layer_module(model, names):
    """forward(x, *weights) of the model: a torch.nn.Module for export."""
    import torch

    class Layer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x, *params):
            mask = torch.ones(x.shape[:2], dtype=torch.int64)
            out = torch.func.functional_call(
                self.model, dict(zip(names, params)), (),
                {"inputs_embeds": x, "attention_mask": mask, "use_cache": False})
            return out[0]

    return Layer().eval()


def export_input_ir(wrapper, args, out):
    """iree-turbine export -> IREE's input IR (generic), as a file path."""
    from iree.turbine import aot

    import export_iree_input as ei

    exported = aot.export(wrapper, args=tuple(args))
    torch_path = os.path.join(out, "layer.torch.mlir")
    with open(torch_path, "w") as f:
        f.write(ei.legalize_bool_masks(str(exported.mlir_module)))
    input_path = os.path.join(out, "layer.input.mlir")
    ei.iree_compile([torch_path, "--compile-to=input", "--mlir-print-op-generic", ei.HEX,
                     "-o", input_path])
    return input_path


def timed(fn, reps):
    """Median of `reps` calls (the caller's checked call was the warm-up)."""
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    ap.add_argument("--seq", type=int, default=2048)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--iree-reps", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--small", action="store_true", help="a 1/8-width layer at S=256")
    ap.add_argument("--skip-iree", action="store_true",
                    help="leave IREE alone out (minutes at S=2048)")
    ap.add_argument("--skip-torch", action="store_true", help="leave PyTorch out")
    ap.add_argument("--iree-flags", default="--iree-opt-data-tiling",
                    help="more iree-compile flags, for both IREE contenders")
    a = ap.parse_args()

    import torch
    import iree.runtime as rt

    import posenc_iree as pi
    import posenc_iree_kernels as pk

    torch.set_num_threads(a.threads)
    rt.flags.parse_flags(f"--task_topology_group_count={a.threads}")
    shape, seq = (SMALL, 256 if a.seq == 2048 else a.seq) if a.small else (LLAMA_31_8B, a.seq)
    model, names = build_model(shape, a.seed)
    params = dict(model.named_parameters())
    weights = [params[n].detach().contiguous() for n in names]
    x = torch.randn((1, seq, shape["hidden_size"]), generator=torch.Generator().manual_seed(a.seed))
    wrapper = layer_module(model, names)

    with torch.no_grad():
        want = layer_module(model.double(), names)(x.double(), *[w.double() for w in weights])
        want = want.numpy()
        model.float()
    scale = float(np.max(np.abs(want)))

    failed = []

    def check(name, got):
        err = float(np.max(np.abs(np.asarray(got, np.float64) - want))) / scale
        ok = got.shape == want.shape and err <= TOL
        print(f"{'PASS' if ok else 'FAIL'} {name}: max |err| / max |want| = {err:.2e} "
              f"(tolerance {TOL:g})", flush=True)
        if not ok:
            failed.append(name)

    ms = {}
    with torch.no_grad():
        for impl in () if a.skip_torch else ("sdpa", "eager"):
            model.set_attn_implementation(impl)
            check(f"torch-{impl}", wrapper(x, *weights).numpy())
            ms[f"torch_{impl}"] = timed(lambda: wrapper(x, *weights), a.reps)
            print(f"torch-{impl}: {ms[f'torch_{impl}']:.1f} ms", flush=True)
        model.set_attn_implementation("sdpa")

    inputs = [x.numpy()] + [w.numpy() for w in weights]
    with tempfile.TemporaryDirectory() as tmp:
        input_path = export_input_ir(wrapper, [x] + weights, tmp)
        with open(input_path) as f:
            input_ir = f.read()
        t0 = time.perf_counter()
        kernels_ir = pk.convert(input_ir, os.path.join(tmp, "objects"), build=a.build,
                                iree_input=True, log=sys.stdout)
        print(f"posenc: raised and compiled the kernels in {time.perf_counter() - t0:.1f} s",
              flush=True)
        contenders = [("iree_posenc", kernels_ir, a.reps)]
        if not a.skip_iree:
            contenders.append(("iree", input_ir, a.iree_reps))
        for name, text, reps in contenders:
            t0 = time.perf_counter()
            flags = a.iree_flags.split()
            try:
                vmfb = pi.compile_with_iree(text, flags)
            except Exception as e:  # noqa: BLE001 (iree.compiler's CompilerToolError)
                if not flags:
                    raise
                # IREE 3.13 fails to compile its own attention with data
                # tiling: IREE alone then gets its default flags.
                error = next((l for l in str(e).splitlines() if "error:" in l), str(e))[:160]
                print(f"{name}: iree-compile failed with {' '.join(flags)} ({error}); "
                      f"compiled without them", flush=True)
                vmfb = pi.compile_with_iree(text)
            module = pi.Module(vmfb)
            print(f"{name}: iree-compile {time.perf_counter() - t0:.1f} s", flush=True)
            fn = module.function("main")
            # Uploaded once, untimed (PyTorch does not copy its inputs).
            args = [rt.asdevicearray(module._config.device, x) for x in inputs]
            check(name.replace("_", "-"), fn(*args).to_host())
            ms[name] = timed(lambda: fn(*args), reps)
            print(f"{name}: {ms[name]:.1f} ms", flush=True)

    line = (f"RESULT bench=iree_llama_layer threads={a.threads} seq={seq} "
            f"hidden={shape['hidden_size']}")
    for key in ("iree", "iree_posenc", "torch_sdpa", "torch_eager"):
        if key in ms:
            line += f" {key}_ms={ms[key]:.1f}"
    for key in ("iree", "torch_sdpa", "torch_eager"):
        if key in ms:
            line += f" posenc_vs_{key}={ms[key] / ms['iree_posenc']:.2f}"
    print(line)
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
