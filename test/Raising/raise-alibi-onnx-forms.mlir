// RUN: posenc-opt %s --split-input-file --posenc-raise-alibi | FileCheck %s

// ONNX exporters fold MPT's ALiBi bias, `slope[h] * (j - (Sk - 1))`, into a
// constant [H, 1, Sk] added to the scores. Its values are exactly what
// posenc.alibi key_linear computes in f32 for 2 heads (max_bias 8: slopes
// 2^-4, 2^-8) at key positions -3..0.
#s4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b4 = affine_map<(d0, d1, d2, d3) -> (d1, 0, d3)>
// CHECK-LABEL: func.func @mpt_constant(
// CHECK: %[[P:.+]] = arith.constant dense<[-3, -2, -1, 0]> : tensor<4xi64>
// CHECK: %[[A:.+]] = posenc.alibi key_linear slopes(<num_heads = 2>) k_positions(%[[P]] : tensor<4xi64>) : tensor<2x1x4xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[A]] : tensor<1x2x4x4xf32>, tensor<2x1x4xf32>)
func.func @mpt_constant(%s: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %bias = arith.constant dense<[[[-0.1875, -0.125, -0.0625, 0.0]], [[-0.01171875, -0.0078125, -0.00390625, 0.0]]]> : tensor<2x1x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %r = linalg.generic {indexing_maps = [#s4, #b4, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x4x4xf32>, tensor<2x1x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}

// -----

// Near misses stay constants: one value an ulp off (-0.1875 -> -0.18750001),
// positions that are no arange (-3, -2, 0, 0), and an exact bias that is
// multiplied, not added.
#s4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b4 = affine_map<(d0, d1, d2, d3) -> (d1, 0, d3)>
// CHECK-LABEL: func.func @near_misses(
// CHECK-NOT: posenc.alibi
// CHECK-COUNT-3: arith.constant dense<{{.*}}> : tensor<2x1x4xf32>
// CHECK-NOT: posenc.alibi
func.func @near_misses(%s: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %ulp = arith.constant dense<[[[-0.18750001, -0.125, -0.0625, 0.0]], [[-0.01171875, -0.0078125, -0.00390625, 0.0]]]> : tensor<2x1x4xf32>
  %gap = arith.constant dense<[[[-0.1875, -0.125, 0.0, 0.0]], [[-0.01171875, -0.0078125, 0.0, 0.0]]]> : tensor<2x1x4xf32>
  %mul = arith.constant dense<[[[-0.1875, -0.125, -0.0625, 0.0]], [[-0.01171875, -0.0078125, -0.00390625, 0.0]]]> : tensor<2x1x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %r0 = linalg.generic {indexing_maps = [#s4, #b4, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %ulp : tensor<1x2x4x4xf32>, tensor<2x1x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %r1 = linalg.generic {indexing_maps = [#s4, #b4, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %gap : tensor<1x2x4x4xf32>, tensor<2x1x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %r2 = linalg.generic {indexing_maps = [#s4, #b4, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mul : tensor<1x2x4x4xf32>, tensor<2x1x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.mulf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  return %r0, %r1, %r2 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
