"""posenc IR through a real host compiler: posenc-to-linalg-pipeline, then
IREE (iree-compile for llvm-cpu) and IREE's runtime.

Test and benchmark utility. posenc stops at linalg on tensors (its documented
stopping point); IREE does everything below. IREE's input conversion demotes
f64 to f32 by default, which would undo posenc's f64 angle reduction, so
`--iree-input-demote-f64-to-f32=false` is passed (see docs/integration.md).
"""

import re
import subprocess
from typing import List, Sequence

import numpy as np

IREE_FLAGS = [
    "--iree-hal-target-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
    "--iree-input-demote-f64-to-f32=false",
]


def lower_with_posenc(posenc_opt: str, module: str,
                      pipeline: str = "posenc-to-linalg-pipeline") -> str:
    """posenc IR -> linalg on tensors (textual MLIR)."""
    out = subprocess.run(
        [posenc_opt, "-", f"--pass-pipeline=builtin.module({pipeline})"],
        input=module, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"posenc-opt failed:\n{out.stderr[-4000:]}")
    return out.stdout


def compile_with_iree(module: str, extra_flags: Sequence[str] = ()) -> bytes:
    """linalg on tensors -> an IREE VM flatbuffer for the host CPU."""
    import iree.compiler.tools as ireec
    return ireec.compile_str(module, input_type="auto",
                             extra_args=IREE_FLAGS + list(extra_flags))


class Module:
    """A compiled module loaded into IREE's runtime (local-task driver)."""

    def __init__(self, vmfb: bytes, driver: str = "local-task"):
        import iree.runtime as rt
        self._config = rt.Config(driver)
        self._ctx = rt.SystemContext(config=self._config)
        self._ctx.add_vm_module(
            rt.VmModule.copy_buffer(self._config.vm_instance, vmfb))

    def function(self, name: str):
        return self._ctx.modules.module[name]

    def __call__(self, name: str, *inputs: np.ndarray) -> List[np.ndarray]:
        results = self.function(name)(*inputs)
        if not isinstance(results, (list, tuple)):
            results = [results]
        return [r.to_host() for r in results]


def build(posenc_opt: str, module: str) -> Module:
    """posenc IR -> posenc-to-linalg-pipeline -> IREE -> a loaded module."""
    return Module(compile_with_iree(lower_with_posenc(posenc_opt, module)))


class Results:
    """PASS/FAIL lines of an IREE test script and its "N passed, M failed"
    summary. f32 tolerance by default: absolute, 4e-6 * max(1, max|want|)
    (f32 dot products and an online softmax, reassociated by IREE)."""

    def __init__(self):
        self.passed = self.failed = 0

    def record(self, ok: bool, line: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'} {line}")

    def check(self, name, got, want, tol=None) -> None:
        want = np.asarray(want, np.float64)
        err = float(np.max(np.abs(got.astype(np.float64) - want)))
        if tol is None:
            tol = 4e-6 * max(1.0, float(np.max(np.abs(want))))
        ok = got.shape == want.shape and err <= tol
        self.record(ok, f"{name}  (max abs err {err:.2e}, tol {tol:.1e})")

    def finish(self) -> int:
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def llama3_rope_attention(q_type: str, k_type: str, d: int) -> str:
    """`@f(q, k, v)`: causal posenc.attention with Llama-3's RoPE (f64
    frequencies, theta 500000, factor 8, 8192 original positions); the
    reference is posenc_ref.inv_freq(d, 500000.0, "llama3", factor=8.0,
    original_max_position_embeddings=8192)."""
    return f"""
func.func @f(%q: {q_type}, %k: {k_type}, %v: {k_type}) -> {q_type} {{
  %inv, %af = posenc.rope_frequencies dim {d} base 500000.0
      scaling(#posenc.llama3<factor = 8.0, original_max_position_embeddings = 8192>)
      : tensor<{d // 2}xf64>, f32
  %o = posenc.attention %q, %k, %v causal
      rope(<layout = half_split, rotary_dim = {d}>, %inv : tensor<{d // 2}xf64>, %af)
      : {q_type}, {k_type}, {k_type} -> {q_type}
  return %o : {q_type}
}}"""


def attention_on_bits(q_type: str, k_type: str) -> str:
    """`@f(q, k, v)`: posenc.attention (not causal) on 16-bit float tensors
    taken and returned as i16 bits, bitcast inside: IREE's Python runtime
    passes bf16 buffers as their bits."""
    qi, ki = re.sub(r"x(bf16|f16)>", "xi16>", q_type), re.sub(r"x(bf16|f16)>", "xi16>", k_type)
    return f"""
func.func @f(%qi: {qi}, %ki: {ki}, %vi: {ki}) -> {qi} {{
  %q = arith.bitcast %qi : {qi} to {q_type}
  %k = arith.bitcast %ki : {ki} to {k_type}
  %v = arith.bitcast %vi : {ki} to {k_type}
  %o = posenc.attention %q, %k, %v : {q_type}, {k_type}, {k_type} -> {q_type}
  %oi = arith.bitcast %o : {q_type} to {qi}
  return %oi : {qi}
}}"""
