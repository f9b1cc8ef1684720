//===- Passes.td - posenc transformation passes ------------*- tablegen -*-===//

#ifndef POSENC_TRANSFORMS_PASSES_TD
#define POSENC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PosEncFoldFrequencies : Pass<"posenc-fold-frequencies"> {
  let summary = "Fold static RoPE frequency tables into constants";
  let description = [{
    Replaces every `posenc.rope_frequencies` whose scheme is static (or whose
    `seq_len` is a constant) by constants computed in fp64 and rounded once
    to the result type, then drops attention factors that folded to exactly
    1.0 from `posenc.rotary` and `posenc.attention`. Runtime schemes are left
    for the lowering.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // POSENC_TRANSFORMS_PASSES_TD
