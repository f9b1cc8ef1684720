//===- Passes.td - posenc conversion passes ----------------*- tablegen -*-===//

#ifndef POSENC_CONVERSION_PASSES_TD
#define POSENC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertPosEncToLinalg : Pass<"convert-posenc-to-linalg"> {
  let summary = "Lower posenc ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every posenc op into destination-style `linalg.generic` ops on
    tensors (plus `arith`/`math` scalar code, `tensor` slices and `cf.assert`
    runtime checks). This is where `posenc-cpu-pipeline` enters linalg and
    the stopping point for hosts that keep their own codegen below linalg
    (`posenc-to-linalg-pipeline`).

    - `posenc.rope_frequencies`: static schemes become fp64-computed constants
      rounded once; runtime schemes (HF dynamic NTK, HF LongRoPE switch)
      become arith/math on the runtime length.
    - `posenc.rotary`: one generic builds the cos/sin rows per (position,
      pair) — shared by every head — and one generic rotates the pairs; the
      pass-through channels are copied. Angles are reduced modulo 2*pi in
      f64 before the f32 cos/sin, so long positions stay accurate.
    - `posenc.alibi`, `posenc.sinusoidal`: one generic each, computed from
      indices.
    - `posenc.learned_absolute`: a runtime bounds check (`cf.assert`) and a
      gather.
    - `posenc.attention`: the reference decomposition (RoPE, QK^T, scale,
      ALiBi, causal mask, softmax, PV) with GQA by indexing; attention sinks
      seed the row max and add `exp(sink - max)` to the row sum.

    Ops that cannot be lowered make the pass fail with a diagnostic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // POSENC_CONVERSION_PASSES_TD
