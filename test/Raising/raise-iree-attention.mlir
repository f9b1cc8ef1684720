// RUN: posenc-opt %s --allow-unregistered-dialect --split-input-file --posenc-raise-attention | FileCheck %s

// IREE's attention over [B*H, S, D] with a constant causal i1 mask (true
// keeps) broadcast over the heads: a causal posenc.attention at the op's
// scale (not 1/sqrt(D): kept), collapsed back.
// CHECK-LABEL: func.func @causal
// CHECK: %[[A:.+]] = posenc.attention %{{.+}}, %{{.+}}, %{{.+}} scale(2.500000e-01) causal : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2], [3]]
// CHECK-NOT: iree_linalg_ext.attention
// CHECK: return %[[C]]
#map = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @causal(%q: tensor<1x2x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>) -> tensor<2x4x4xf32> {
  %scale = arith.constant 2.500000e-01 : f32
  %keep = arith.constant dense<[[[[true, false, false, false], [true, true, false, false], [true, true, true, false], [true, true, true, true]]]]> : tensor<1x1x4x4xi1>
  %e = tensor.empty() : tensor<1x2x4x4xi1>
  %b = linalg.generic {indexing_maps = [#map, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep : tensor<1x1x4x4xi1>) outs(%e : tensor<1x2x4x4xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<1x2x4x4xi1>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %mc = tensor.collapse_shape %b [[0, 1], [2], [3]] : tensor<1x2x4x4xi1> into tensor<2x4x4xi1>
  %out = tensor.empty() : tensor<2x4x4xf32>
  %r = "iree_linalg_ext.attention"(%qc, %kc, %vc, %scale, %mc, %out) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, f32, tensor<2x4x4xi1>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %r : tensor<2x4x4xf32>
}

// -----

// Near misses stay: a score modification in the region, an attribute the
// pattern does not read, a mask that is not causal (anti-diagonal).
// CHECK-LABEL: func.func @near_misses
// CHECK-NOT: posenc.attention
// CHECK-COUNT-3: "iree_linalg_ext.attention"
#map = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @near_misses(%q: tensor<1x2x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>) {
  %scale = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %keep = arith.constant dense<[[[[false, false, false, true], [false, false, true, true], [false, true, true, true], [true, true, true, true]]]]> : tensor<1x1x4x4xi1>
  %e = tensor.empty() : tensor<1x2x4x4xi1>
  %b = linalg.generic {indexing_maps = [#map, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep : tensor<1x1x4x4xi1>) outs(%e : tensor<1x2x4x4xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<1x2x4x4xi1>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %mc = tensor.collapse_shape %b [[0, 1], [2], [3]] : tensor<1x2x4x4xi1> into tensor<2x4x4xi1>
  %out = tensor.empty() : tensor<2x4x4xf32>
  %r0 = "iree_linalg_ext.attention"(%qc, %kc, %vc, %scale, %out) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ({
  ^bb0(%s: f32):
    %t = arith.mulf %s, %two : f32
    "iree_linalg_ext.yield"(%t) : (f32) -> ()
  }) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, f32, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %r1 = "iree_linalg_ext.attention"(%qc, %kc, %vc, %scale, %out) <{decomposition_config = {}, indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, f32, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %r2 = "iree_linalg_ext.attention"(%qc, %kc, %vc, %scale, %mc, %out) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, f32, tensor<2x4x4xi1>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %r0, %r1, %r2 : tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>
}
