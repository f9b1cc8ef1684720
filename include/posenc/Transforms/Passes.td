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

def PosEncTileAndVectorize
    : InterfacePass<"posenc-tile-and-vectorize", "mlir::FunctionOpInterface"> {
  let summary = "Tile linalg ops to register-sized pieces and vectorize them";
  let description = [{
    Tiles every `linalg` op of a function with `scf.forall` (so that the CPU
    pipeline can run the tiles on all cores): parallel dimensions to 1 except
    the innermost parallel one, which is tiled to `vector-width`; reduction
    dimensions stay whole. Each tile is then vectorized (masked when a
    remainder tile is dynamic; `tensor.extract` becomes gathers or contiguous
    loads), and the vector IR is cleaned up (subset folding, unit-dimension
    dropping). Ops with dynamic reduction extents are tiled but stay scalar.

    Tiling before vectorizing keeps the vector IR register-sized: a whole
    4096x128 tensor vectorized at once produces megabytes of IR.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Elements per vector along the innermost parallel dimension "
           "(16 x f32 = one AVX-512 register)">
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // POSENC_TRANSFORMS_PASSES_TD
