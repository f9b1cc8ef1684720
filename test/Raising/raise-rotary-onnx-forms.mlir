// RUN: posenc-opt %s --posenc-raise-rotary | FileCheck %s

// ONNX through IREE's importer passes scalars as rank-0 tensor constants:
// Qwen2 YaRN's attention factor multiplies cos and sin as a `tensor<f32>`
// input (posenc-raise-rotary.mlir's @attention_factor with the scalar
// replaced). The factor is raised as the same f32 constant.
// CHECK-LABEL: func.func @rank0_tensor_factor(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-DAG: %[[AF:.+]] = arith.constant 1.250000e+00 : f32
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%{{.+}} : tensor<4xf32>) attention_factor(%[[AF]]) : tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#scalar3 = affine_map<(d0, d1, d2) -> ()>
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @rank0_tensor_factor(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  // positions = arange(4)
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos3 = tensor.expand_shape %pos [[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xi64> into tensor<1x4x1xi64>
  %posf_init = tensor.empty() : tensor<1x4x1xf32>
  %posf = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos3 : tensor<1x4x1xi64>) outs(%posf_init : tensor<1x4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %y = arith.sitofp %in : i64 to f32
    linalg.yield %y : f32
  } -> tensor<1x4x1xf32>
  // f = float(positions) * inv_freq; emb = concat(f, f)
  %f_init = tensor.empty() : tensor<1x4x4xf32>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%posf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %emb = tensor.concat dim(2) %f, %f : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x8xf32>
  %t_init = tensor.empty() : tensor<1x4x8xf32>
  %af = arith.constant dense<1.250000e+00> : tensor<f32>
  %cos = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%emb : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %sin = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%emb : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %cos_af = linalg.generic {indexing_maps = [#map3, #scalar3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cos, %af : tensor<1x4x8xf32>, tensor<f32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %y = arith.mulf %in, %s : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %sin_af = linalg.generic {indexing_maps = [#map3, #scalar3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sin, %af : tensor<1x4x8xf32>, tensor<f32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %y = arith.mulf %in, %s : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %cos4 = tensor.expand_shape %cos_af [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin_af [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  // x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1)
  %o_init = tensor.empty() : tensor<1x2x4x8xf32>
  %xc = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %cos4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %x2 = tensor.extract_slice %x[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %h_init = tensor.empty() : tensor<1x2x4x4xf32>
  %neg = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2 : tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x8xf32>
  %rs = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %res = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  return %res : tensor<1x2x4x8xf32>
}

