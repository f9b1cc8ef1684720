// RUN: posenc-opt %s --allow-unregistered-dialect --split-input-file --posenc-raise-attention=zero-padding-rows=true | FileCheck %s

// IREE's attention at a dynamic sequence length (B and H static): Q, K and V
// cut to the keys' length (K rotated: a posenc.rotary result has its input's
// sizes), HF's padding mask `keys[b, j]` broadcast over the heads. There is
// no logits tensor: the lengths are Q's and K's, proven equal to the keys'.
// CHECK-LABEL: func.func @padding
// CHECK: %[[A:.+]] = posenc.attention %{{.+}}, %{{.+}}, %{{.+}} scale(2.500000e-01) key_mask(%{{.+}} : tensor<2x?xi1>) : tensor<2x2x?x4xf32>, tensor<2x2x?x4xf32>, tensor<2x2x?x4xf32> -> tensor<2x2x?x4xf32>
// CHECK: tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2], [3]]
// CHECK-NOT: iree_linalg_ext.attention
#keys = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @padding(%q0: tensor<2x2x64x4xf32>, %k0: tensor<2x2x64x4xf32>, %v0: tensor<2x2x64x4xf32>, %keys: tensor<2x?xi1>, %inv: tensor<2xf32>) -> tensor<4x?x4xf32> {
  %c1 = arith.constant 1 : index
  %scale = arith.constant 2.500000e-01 : f32
  %n = tensor.dim %keys, %c1 : tensor<2x?xi1>
  %q = tensor.extract_slice %q0[0, 0, 0, 0] [2, 2, %n, 4] [1, 1, 1, 1] : tensor<2x2x64x4xf32> to tensor<2x2x?x4xf32>
  %kin = tensor.extract_slice %k0[0, 0, 0, 0] [2, 2, %n, 4] [1, 1, 1, 1] : tensor<2x2x64x4xf32> to tensor<2x2x?x4xf32>
  %k = posenc.rotary %kin half_split dim 4 inv_freq(%inv : tensor<2xf32>) : tensor<2x2x?x4xf32>
  %v = tensor.extract_slice %v0[0, 0, 0, 0] [2, 2, %n, 4] [1, 1, 1, 1] : tensor<2x2x64x4xf32> to tensor<2x2x?x4xf32>
  %e1 = tensor.empty(%n, %n) : tensor<2x1x?x?xi1>
  %m1 = linalg.generic {indexing_maps = [#keys, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keys : tensor<2x?xi1>) outs(%e1 : tensor<2x1x?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<2x1x?x?xi1>
  %e2 = tensor.empty(%n, %n) : tensor<2x2x?x?xi1>
  %m2 = linalg.generic {indexing_maps = [#heads, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m1 : tensor<2x1x?x?xi1>) outs(%e2 : tensor<2x2x?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<2x2x?x?xi1>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x?x4xf32> into tensor<4x?x4xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x2x?x4xf32> into tensor<4x?x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x?x4xf32> into tensor<4x?x4xf32>
  %mc = tensor.collapse_shape %m2 [[0, 1], [2], [3]] : tensor<2x2x?x?xi1> into tensor<4x?x?xi1>
  %out = tensor.empty(%n) : tensor<4x?x4xf32>
  %r = "iree_linalg_ext.attention"(%qc, %kc, %vc, %scale, %mc, %out) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) : (tensor<4x?x4xf32>, tensor<4x?x4xf32>, tensor<4x?x4xf32>, f32, tensor<4x?x?xi1>, tensor<4x?x4xf32>) -> tensor<4x?x4xf32>
  return %r : tensor<4x?x4xf32>
}

// -----

// Near miss: K's length is an argument's that nothing ties to the keys'
// (a mask shorter than the keys would hide the wrong ones): it stays.
// CHECK-LABEL: func.func @untied_keys
// CHECK-NOT: posenc.attention
// CHECK: "iree_linalg_ext.attention"
#keys = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @untied_keys(%q: tensor<2x2x?x4xf32>, %k: tensor<2x2x?x4xf32>, %v: tensor<2x2x?x4xf32>, %keys: tensor<2x?xi1>) -> tensor<4x?x4xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %scale = arith.constant 5.000000e-01 : f32
  %n = tensor.dim %keys, %c1 : tensor<2x?xi1>
  %nq = tensor.dim %q, %c2 : tensor<2x2x?x4xf32>
  %e1 = tensor.empty(%nq, %n) : tensor<2x1x?x?xi1>
  %m1 = linalg.generic {indexing_maps = [#keys, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keys : tensor<2x?xi1>) outs(%e1 : tensor<2x1x?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<2x1x?x?xi1>
  %e2 = tensor.empty(%nq, %n) : tensor<2x2x?x?xi1>
  %m2 = linalg.generic {indexing_maps = [#heads, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m1 : tensor<2x1x?x?xi1>) outs(%e2 : tensor<2x2x?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<2x2x?x?xi1>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x?x4xf32> into tensor<4x?x4xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x2x?x4xf32> into tensor<4x?x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x?x4xf32> into tensor<4x?x4xf32>
  %mc = tensor.collapse_shape %m2 [[0, 1], [2], [3]] : tensor<2x2x?x?xi1> into tensor<4x?x?xi1>
  %out = tensor.empty(%nq) : tensor<4x?x4xf32>
  %r = "iree_linalg_ext.attention"(%qc, %kc, %vc, %scale, %mc, %out) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) : (tensor<4x?x4xf32>, tensor<4x?x4xf32>, tensor<4x?x4xf32>, f32, tensor<4x?x?xi1>, tensor<4x?x4xf32>) -> tensor<4x?x4xf32>
  return %r : tensor<4x?x4xf32>
}
