// The smoke test of the installed package (scripts/test-install.sh):
//   host-opt smoke.mlir --host-pipeline | FileCheck smoke.mlir
//   host-capi smoke.mlir | FileCheck smoke.mlir
// Both lower with posenc-to-linalg-pipeline: frequencies fold to constants,
// every posenc op becomes linalg on tensors.

// CHECK-LABEL: func.func @rope
// CHECK-DAG: arith.constant dense<[5.000000e-01, 5.000000e-02, 5.000000e-03, 5.000000e-04]> : tensor<4xf32>
// CHECK-NOT: posenc.
// CHECK: linalg.generic
// CHECK: math.cos
// CHECK: return %{{.+}} : tensor<1x2x16x8xf32>
func.func @rope(%x: tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32> {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0
      scaling(#posenc.linear<factor = 2.0>) : tensor<4xf32>, f32
  %y = posenc.rotary %x half_split dim 8 inv_freq(%inv : tensor<4xf32>)
      attention_factor(%af) : tensor<1x2x16x8xf32>
  return %y : tensor<1x2x16x8xf32>
}

// CHECK-LABEL: func.func @alibi
// CHECK-NOT: posenc.
// CHECK: linalg.generic
// CHECK: return %{{.+}} : tensor<4x16x16xf32>
func.func @alibi() -> tensor<4x16x16xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 4>) : tensor<4x16x16xf32>
  return %b : tensor<4x16x16xf32>
}
