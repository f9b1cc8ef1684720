// RUN: posenc-opt %s --posenc-fold-frequencies --mlir-elide-elementsattrs-if-larger=16 | FileCheck %s
// RUN: posenc-opt %s --canonicalize --mlir-elide-elementsattrs-if-larger=16 | FileCheck %s
//
// The folder leaves frequency tables beyond kMaxConstantElements (2^16)
// unfolded: rotary_dim 2^63 - 2 made it ask for 2^62 doubles ("SmallVector
// unable to grow", an abort; found by posenc-pass-fuzzer). The lowering
// reports such ops (Conversion/PosEncToLinalg/
// convert-posenc-to-linalg-huge-tables.mlir).

// CHECK-LABEL: func.func @huge_frequencies
// CHECK: posenc.rope_frequencies dim 9223372036854775806
func.func @huge_frequencies() -> tensor<4611686018427387903xf32> {
  %inv, %af = posenc.rope_frequencies dim 9223372036854775806 base 10000.0 : tensor<4611686018427387903xf32>, f32
  return %inv : tensor<4611686018427387903xf32>
}

// The largest table that still folds.
// CHECK-LABEL: func.func @largest_folded
// CHECK-NOT: posenc.rope_frequencies
// CHECK: arith.constant dense_resource<__elided__> : tensor<65536xf32>
func.func @largest_folded() -> tensor<65536xf32> {
  %inv, %af = posenc.rope_frequencies dim 131072 base 10000.0 : tensor<65536xf32>, f32
  return %inv : tensor<65536xf32>
}
