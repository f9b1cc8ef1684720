// RUN: posenc-opt %s --split-input-file --posenc-raise-rotary | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-raise-rotary=print-stats -o /dev/null 2>&1 | grep -e "remark:" -e "^posenc-raise-rotary:" | FileCheck %s --check-prefix=STATS

// posenc-raise-rotary on importer-style IR (one linalg.generic per
// elementwise op, as torch-mlir emits). Each near miss differs from the
// positive case it names in the one detail it breaks.

// The STATS run: print-stats writes one line per split, in order, after the remark
// that each raised rotary gets (it names the frequencies).
// STATS: remark: rotary raised; inv_freq equals the unscaled ladder of rope_theta = 1.000000e+04
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq is a scaled or custom table
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: remark: rotary raised;
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NOT: posenc-raise-rotary

// HF half-split RoPE on [B, H, S, D] = [1, 2, 4, 8]: x * cos + rotate_half(x)
// * sin with cos/sin = trig(concat(f, f)), f = float(arange(4)) * inv_freq.
// Implicit positions 0..3 (no positions, no offset), default token axis.
// CHECK-LABEL: func.func @half_split_arange(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) : tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: tensor.concat
// CHECK-NOT: tensor.extract_slice
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @half_split_arange(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
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

// -----

// Positions arange(4) + 3 (decode after a 3-token cache): the implicit
// positions get an offset operand.
// CHECK-LABEL: func.func @arange_offset(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[OFF:.+]] = arith.constant 3 : index
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) offset(%[[OFF]] : index) : tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @arange_offset(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  // positions = arange(4) + 3 (a KV-cache offset)
  %c3_i64 = arith.constant 3 : i64
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p0 = arith.index_cast %i : index to i64
    %p = arith.addi %p0, %c3_i64 : i64
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
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

// -----

// HF position_ids [1, S] as a function argument: not an arange, so it becomes
// the positions operand, its unit batch dimension collapsed.
// CHECK-LABEL: func.func @position_ids(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>, %[[POS:[^:]+]]: tensor<1x4xi64>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[P:.+]] = tensor.collapse_shape %[[POS]] {{\[\[}}0, 1]] : tensor<1x4xi64> into tensor<4xi64>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) positions(%[[P]] : tensor<4xi64>) : tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @position_ids(%x: tensor<1x2x4x8xf32>, %pos: tensor<1x4xi64>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %pos3 = tensor.expand_shape %pos [[0], [1, 2]] output_shape [1, 4, 1] : tensor<1x4xi64> into tensor<1x4x1xi64>
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
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

// -----

// Per-sequence positions [B, S] = [2, 4] (left padding): kept as [2, 4]. The
// frequencies are not an unscaled ladder (a remark says so, see STATS).
// CHECK-LABEL: func.func @batched_position_ids(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x2x4x8xf32>, %[[POS:[^:]+]]: tensor<2x4xi64>
// CHECK: %[[INV:.+]] = arith.constant dense<[5.000000e-01, 5.000000e-02, 5.000000e-03, 5.000000e-04]> : tensor<4xf32>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) positions(%[[POS]] : tensor<2x4xi64>) : tensor<2x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @batched_position_ids(%x: tensor<2x2x4x8xf32>, %pos: tensor<2x4xi64>) -> tensor<2x2x4x8xf32> {
  %inv = arith.constant dense<[5.000000e-01, 5.000000e-02, 5.000000e-03, 5.000000e-04]> : tensor<4xf32>
  %pos3 = tensor.expand_shape %pos [[0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xi64> into tensor<2x4x1xi64>
  %posf_init = tensor.empty() : tensor<2x4x1xf32>
  %posf = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos3 : tensor<2x4x1xi64>) outs(%posf_init : tensor<2x4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %y = arith.sitofp %in : i64 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x1xf32>
  // f = float(positions) * inv_freq; emb = concat(f, f)
  %f_init = tensor.empty() : tensor<2x4x4xf32>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%posf, %inv : tensor<2x4x1xf32>, tensor<4xf32>) outs(%f_init : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %emb = tensor.concat dim(2) %f, %f : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x8xf32>
  %t_init = tensor.empty() : tensor<2x4x8xf32>
  %cos = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%emb : tensor<2x4x8xf32>) outs(%t_init : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<2x4x8xf32>
  %sin = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%emb : tensor<2x4x8xf32>) outs(%t_init : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<2x4x8xf32>
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [2, 1, 4, 8] : tensor<2x4x8xf32> into tensor<2x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [2, 1, 4, 8] : tensor<2x4x8xf32> into tensor<2x1x4x8xf32>
  // x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1)
  %o_init = tensor.empty() : tensor<2x2x4x8xf32>
  %xc = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %cos4 : tensor<2x2x4x8xf32>, tensor<2x1x4x8xf32>) outs(%o_init : tensor<2x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x4x8xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [2, 2, 4, 4] [1, 1, 1, 1] : tensor<2x2x4x8xf32> to tensor<2x2x4x4xf32>
  %x2 = tensor.extract_slice %x[0, 0, 0, 4] [2, 2, 4, 4] [1, 1, 1, 1] : tensor<2x2x4x8xf32> to tensor<2x2x4x4xf32>
  %h_init = tensor.empty() : tensor<2x2x4x4xf32>
  %neg = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2 : tensor<2x2x4x4xf32>) outs(%h_init : tensor<2x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<2x2x4x4xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x8xf32>
  %rs = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin4 : tensor<2x2x4x8xf32>, tensor<2x1x4x8xf32>) outs(%o_init : tensor<2x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x4x8xf32>
  %res = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<2x2x4x8xf32>, tensor<2x2x4x8xf32>) outs(%o_init : tensor<2x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x4x8xf32>
  return %res : tensor<2x2x4x8xf32>
}

// -----

// [B, S, H, D] = [1, 4, 2, 8] (rotary applied before the head transpose): the
// tables broadcast over axis 2, so the token axis is 1.
// CHECK-LABEL: func.func @bshd_token_dim(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x8xf32>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
func.func @bshd_token_dim(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
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
  %cos4 = tensor.expand_shape %cos [[0], [1], [2, 3]] output_shape [1, 4, 1, 8] : tensor<1x4x8xf32> into tensor<1x4x1x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1], [2, 3]] output_shape [1, 4, 1, 8] : tensor<1x4x8xf32> into tensor<1x4x1x8xf32>
  // x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1)
  %o_init = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %cos4 : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%o_init : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x2x8xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 1] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %x2 = tensor.extract_slice %x[0, 0, 0, 4] [1, 4, 2, 4] [1, 1, 1, 1] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %h_init = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2 : tensor<1x4x2x4xf32>) outs(%h_init : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x2x4xf32>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin4 : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%o_init : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x2x8xf32>
  %res = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%o_init : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// YaRN-style attention factor: cos and sin both multiplied by the f32 scalar
// 1.25 (f32 arithmetic on the tables).
// CHECK-LABEL: func.func @attention_factor(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[AF:.+]] = arith.constant 1.250000e+00 : f32
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) attention_factor(%[[AF]]) : tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @attention_factor(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  %af = arith.constant 1.250000e+00 : f32
  %af2 = arith.constant 1.500000e+00 : f32
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
  %cos_af = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cos : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %af : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %sin_af = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sin : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %af : f32
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

// -----

// Near miss of @attention_factor: cos scaled by 1.25, sin by 1.5 (no single
// attention factor): stays decomposed.
// CHECK-LABEL: func.func @attention_factor_differs(
// CHECK-NOT: posenc.rotary
// CHECK: math.cos
// CHECK: math.sin
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: arith.negf
// CHECK: arith.addf
// CHECK-NOT: posenc.rotary
// CHECK: return
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @attention_factor_differs(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  %af = arith.constant 1.250000e+00 : f32
  %af2 = arith.constant 1.500000e+00 : f32
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
  %cos_af = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cos : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %af : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %sin_af = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sin : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %af2 : f32
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

// -----

// rotate_half's negation written as a multiply by the scalar -1.
// CHECK-LABEL: func.func @negate_by_mul(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%{{.+}} : tensor<4xf32>) : tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @negate_by_mul(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
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
  %minus1 = arith.constant -1.000000e+00 : f32
  %neg = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2 : tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %minus1 : f32
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

// -----

// Near miss: rotate_half(x) = concat(x2, -x1) (the first half negated instead
// of the second: the opposite rotation). Stays decomposed.
// CHECK-LABEL: func.func @rotate_half_wrong_sign(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK-DAG: %[[X1:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 4, 4]
// CHECK-DAG: %[[X2:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 4] [1, 2, 4, 4]
// CHECK: %[[NEG:.+]] = linalg.generic {{.+}} ins(%[[X1]] :
// CHECK: arith.negf
// CHECK: tensor.concat dim(3) %[[X2]], %[[NEG]]
// CHECK: arith.addf
// CHECK-NOT: posenc.rotary
// CHECK: return
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @rotate_half_wrong_sign(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  // x * cos + rotate_half(x) * sin, rotate_half(x) = concat(x2, -x1): wrong sign
  %o_init = tensor.empty() : tensor<1x2x4x8xf32>
  %xc = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %cos4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %x2 = tensor.extract_slice %x[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %h_init = tensor.empty() : tensor<1x2x4x4xf32>
  %neg = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1 : tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %rot = tensor.concat dim(3) %x2, %neg : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x8xf32>
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

// -----

// Near miss: the negated slice starts at channel 3, not D/2 = 4 (slices that
// do not halve x). Stays decomposed.
// CHECK-LABEL: func.func @rotate_half_not_halves(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 3] [1, 2, 4, 4]
// CHECK: arith.negf
// CHECK: tensor.concat dim(3)
// CHECK: arith.addf
// CHECK-NOT: posenc.rotary
// CHECK: return
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @rotate_half_not_halves(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  // x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1)
  %o_init = tensor.empty() : tensor<1x2x4x8xf32>
  %xc = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %cos4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %x2 = tensor.extract_slice %x[0, 0, 0, 3] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
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

// -----

// Near miss: the tables repeat each angle twice, [f0, f0, f1, f1, ...]
// (repeat_interleave, the GPT-J layout's tables), not concat(f, f), while x
// is rotated by halves. Stays decomposed.
// CHECK-LABEL: func.func @interleaved_tables(
// CHECK-NOT: posenc.rotary
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1], [2, 3]] : tensor<1x4x4x2xf32> into tensor<1x4x8xf32>
// CHECK: math.cos
// CHECK: math.sin
// CHECK: arith.negf
// CHECK: arith.addf
// CHECK-NOT: posenc.rotary
// CHECK: return
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rep = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @interleaved_tables(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  // f = float(positions) * inv_freq; emb = repeat_interleave(f, 2)
  %f_init = tensor.empty() : tensor<1x4x4xf32>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%posf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %rep_init = tensor.empty() : tensor<1x4x4x2xf32>
  %rep = linalg.generic {indexing_maps = [#rep, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f : tensor<1x4x4xf32>) outs(%rep_init : tensor<1x4x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x4x2xf32>
  %emb = tensor.collapse_shape %rep [[0], [1], [2, 3]] : tensor<1x4x4x2xf32> into tensor<1x4x8xf32>
  %t_init = tensor.empty() : tensor<1x4x8xf32>
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
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

// -----

// sin computed from its own copy of the same positions (no CSE ran): the
// tables agree, raised.
// CHECK-LABEL: func.func @cos_sin_same_positions(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%{{.+}} : tensor<4xf32>) : tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @cos_sin_same_positions(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  // sin's own positions: arange(4)
  %spos = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %spos3 = tensor.expand_shape %spos [[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xi64> into tensor<1x4x1xi64>
  %sposf = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%spos3 : tensor<1x4x1xi64>) outs(%posf_init : tensor<1x4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %y = arith.sitofp %in : i64 to f32
    linalg.yield %y : f32
  } -> tensor<1x4x1xf32>
  %sf = linalg.generic {indexing_maps = [#pos3, #freq3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sposf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %semb = tensor.concat dim(2) %sf, %sf : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x8xf32>
  %t_init = tensor.empty() : tensor<1x4x8xf32>
  %cos = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%emb : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %sin = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%semb : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
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

// -----

// Near miss of @cos_sin_same_positions: sin at positions arange(4) + 1, cos at
// arange(4). Stays decomposed.
// CHECK-LABEL: func.func @cos_sin_different_positions(
// CHECK-NOT: posenc.rotary
// CHECK: arith.addi %{{.+}}, %{{.+}} : i64
// CHECK: math.cos
// CHECK: math.sin
// CHECK: arith.negf
// CHECK: arith.addf
// CHECK-NOT: posenc.rotary
// CHECK: return
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @cos_sin_different_positions(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  // sin's own positions: arange(4) + 1
  %c1_i64 = arith.constant 1 : i64
  %spos = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p0 = arith.index_cast %i : index to i64
    %p = arith.addi %p0, %c1_i64 : i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %spos3 = tensor.expand_shape %spos [[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xi64> into tensor<1x4x1xi64>
  %sposf = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%spos3 : tensor<1x4x1xi64>) outs(%posf_init : tensor<1x4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %y = arith.sitofp %in : i64 to f32
    linalg.yield %y : f32
  } -> tensor<1x4x1xf32>
  %sf = linalg.generic {indexing_maps = [#pos3, #freq3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sposf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %semb = tensor.concat dim(2) %sf, %sf : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x8xf32>
  %t_init = tensor.empty() : tensor<1x4x8xf32>
  %cos = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%emb : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %sin = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%semb : tensor<1x4x8xf32>) outs(%t_init : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
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

// -----

// The halves form (gpt-oss): concat(x1 * cos - x2 * sin, x2 * cos + x1 * sin)
// with half-width tables cos(f), sin(f).
// CHECK-LABEL: func.func @halves(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) : tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: tensor.concat
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @halves(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  // f = float(positions) * inv_freq; half-width tables cos(f), sin(f)
  %f_init = tensor.empty() : tensor<1x4x4xf32>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%posf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %cos = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%f : tensor<1x4x4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %sin = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%f : tensor<1x4x4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<1x4x4xf32> into tensor<1x1x4x4xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<1x4x4xf32> into tensor<1x1x4x4xf32>
  // concat(x1 * cos - x2 * sin, x2 * cos + x1 * sin)
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %x2 = tensor.extract_slice %x[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %h_init = tensor.empty() : tensor<1x2x4x4xf32>
  %x1c = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1, %cos4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %x2s = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2, %sin4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %first = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1c, %x2s : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %x2c = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2, %cos4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %x1s = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1, %sin4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %second = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2c, %x1s : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %res = tensor.concat dim(3) %first, %second : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x8xf32>
  return %res : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @halves: concat(x1 * cos + x2 * sin, x2 * cos - x1 * sin), the
// opposite rotation. Stays decomposed.
// CHECK-LABEL: func.func @halves_wrong_sign(
// CHECK-NOT: posenc.rotary
// CHECK: arith.addf
// CHECK: arith.subf
// CHECK: tensor.concat dim(3)
// CHECK-NOT: posenc.rotary
// CHECK: return
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @halves_wrong_sign(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
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
  // f = float(positions) * inv_freq; half-width tables cos(f), sin(f)
  %f_init = tensor.empty() : tensor<1x4x4xf32>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%posf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %cos = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%f : tensor<1x4x4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %sin = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%f : tensor<1x4x4xf32>) outs(%f_init : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<1x4x4xf32> into tensor<1x1x4x4xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<1x4x4xf32> into tensor<1x1x4x4xf32>
  // concat(x1 * cos + x2 * sin, x2 * cos - x1 * sin): wrong signs
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %x2 = tensor.extract_slice %x[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %h_init = tensor.empty() : tensor<1x2x4x4xf32>
  %x1c = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1, %cos4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %x2s = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2, %sin4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %first = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1c, %x2s : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %x2c = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2, %cos4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %x1s = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1, %sin4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %second = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2c, %x1s : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %res = tensor.concat dim(3) %first, %second : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x8xf32>
  return %res : tensor<1x2x4x8xf32>
}

// -----

// Partial rotary (Phi, GPT-NeoX): concat(rotary(x[..., :8]), x[..., 8:]) on
// D = 12 becomes one rotary of dim 8 on x.
// CHECK-LABEL: func.func @partial_rotary(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x12xf32>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) : tensor<1x2x4x12xf32>
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: tensor.concat
// CHECK: return %[[R]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @partial_rotary(%x: tensor<1x2x4x12xf32>) -> tensor<1x2x4x12xf32> {
  // rotary on the first 8 of 12 channels
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x4x12xf32> to tensor<1x2x4x8xf32>
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  // x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1)
  %o_init = tensor.empty() : tensor<1x2x4x8xf32>
  %xc = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %x1 = tensor.extract_slice %xr[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %x2 = tensor.extract_slice %xr[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
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
  %pass = tensor.extract_slice %x[0, 0, 0, 8] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x12xf32> to tensor<1x2x4x4xf32>
  %full = tensor.concat dim(3) %res, %pass : (tensor<1x2x4x8xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x12xf32>
  return %full : tensor<1x2x4x12xf32>
}

// -----

// Near miss of @partial_rotary: the pass-through slice is x[..., 7:11], not
// x[..., 8:]. The rotary of the slice is raised; the concat stays.
// CHECK-LABEL: func.func @partial_rotary_bad_pass(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x4x12xf32>
// CHECK-DAG: %[[XR:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x4x12xf32> to tensor<1x2x4x8xf32>
// CHECK-DAG: %[[R:.+]] = posenc.rotary %[[XR]] half_split dim 8 inv_freq(%{{.+}} : tensor<4xf32>) : tensor<1x2x4x8xf32>
// CHECK-DAG: %[[P:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 7] [1, 2, 4, 4]
// CHECK: %[[C:.+]] = tensor.concat dim(3) %[[R]], %[[P]]
// CHECK: return %[[C]]
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @partial_rotary_bad_pass(%x: tensor<1x2x4x12xf32>) -> tensor<1x2x4x12xf32> {
  // rotary on the first 8 of 12 channels
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 1, 1] : tensor<1x2x4x12xf32> to tensor<1x2x4x8xf32>
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
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf32> into tensor<1x1x4x8xf32>
  // x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1)
  %o_init = tensor.empty() : tensor<1x2x4x8xf32>
  %xc = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %x1 = tensor.extract_slice %xr[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %x2 = tensor.extract_slice %xr[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
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
  %pass = tensor.extract_slice %x[0, 0, 0, 7] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x12xf32> to tensor<1x2x4x4xf32>
  %full = tensor.concat dim(3) %res, %pass : (tensor<1x2x4x8xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x12xf32>
  return %full : tensor<1x2x4x12xf32>
}

// -----

// @position_ids in f64 (fuzz finding R6, docs/testing.md): posenc.rotary
// takes f32, f16 and bf16 only, so nothing is raised.
// CHECK-LABEL: func.func @position_ids_f64(
// CHECK-NOT: posenc.rotary
// CHECK: return
#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @position_ids_f64(%x: tensor<1x2x4x8xf64>, %pos: tensor<1x4xi64>) -> tensor<1x2x4x8xf64> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf64>
  %pos3 = tensor.expand_shape %pos [[0], [1, 2]] output_shape [1, 4, 1] : tensor<1x4xi64> into tensor<1x4x1xi64>
  %posf_init = tensor.empty() : tensor<1x4x1xf64>
  %posf = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos3 : tensor<1x4x1xi64>) outs(%posf_init : tensor<1x4x1xf64>) {
  ^bb0(%in: i64, %out: f64):
    %y = arith.sitofp %in : i64 to f64
    linalg.yield %y : f64
  } -> tensor<1x4x1xf64>
  // f = float(positions) * inv_freq; emb = concat(f, f)
  %f_init = tensor.empty() : tensor<1x4x4xf64>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%posf, %inv : tensor<1x4x1xf64>, tensor<4xf64>) outs(%f_init : tensor<1x4x4xf64>) {
  ^bb0(%in: f64, %in_0: f64, %out: f64):
    %y = arith.mulf %in, %in_0 : f64
    linalg.yield %y : f64
  } -> tensor<1x4x4xf64>
  %emb = tensor.concat dim(2) %f, %f : (tensor<1x4x4xf64>, tensor<1x4x4xf64>) -> tensor<1x4x8xf64>
  %t_init = tensor.empty() : tensor<1x4x8xf64>
  %cos = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%emb : tensor<1x4x8xf64>) outs(%t_init : tensor<1x4x8xf64>) {
  ^bb0(%in: f64, %out: f64):
    %y = math.cos %in : f64
    linalg.yield %y : f64
  } -> tensor<1x4x8xf64>
  %sin = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%emb : tensor<1x4x8xf64>) outs(%t_init : tensor<1x4x8xf64>) {
  ^bb0(%in: f64, %out: f64):
    %y = math.sin %in : f64
    linalg.yield %y : f64
  } -> tensor<1x4x8xf64>
  %cos4 = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf64> into tensor<1x1x4x8xf64>
  %sin4 = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [1, 1, 4, 8] : tensor<1x4x8xf64> into tensor<1x1x4x8xf64>
  // x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1)
  %o_init = tensor.empty() : tensor<1x2x4x8xf64>
  %xc = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %cos4 : tensor<1x2x4x8xf64>, tensor<1x1x4x8xf64>) outs(%o_init : tensor<1x2x4x8xf64>) {
  ^bb0(%in: f64, %in_0: f64, %out: f64):
    %y = arith.mulf %in, %in_0 : f64
    linalg.yield %y : f64
  } -> tensor<1x2x4x8xf64>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf64> to tensor<1x2x4x4xf64>
  %x2 = tensor.extract_slice %x[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf64> to tensor<1x2x4x4xf64>
  %h_init = tensor.empty() : tensor<1x2x4x4xf64>
  %neg = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2 : tensor<1x2x4x4xf64>) outs(%h_init : tensor<1x2x4x4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %y = arith.negf %in : f64
    linalg.yield %y : f64
  } -> tensor<1x2x4x4xf64>
  %rot = tensor.concat dim(3) %neg, %x1 : (tensor<1x2x4x4xf64>, tensor<1x2x4x4xf64>) -> tensor<1x2x4x8xf64>
  %rs = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin4 : tensor<1x2x4x8xf64>, tensor<1x1x4x8xf64>) outs(%o_init : tensor<1x2x4x8xf64>) {
  ^bb0(%in: f64, %in_0: f64, %out: f64):
    %y = arith.mulf %in, %in_0 : f64
    linalg.yield %y : f64
  } -> tensor<1x2x4x8xf64>
  %res = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>) outs(%o_init : tensor<1x2x4x8xf64>) {
  ^bb0(%in: f64, %in_0: f64, %out: f64):
    %y = arith.addf %in, %in_0 : f64
    linalg.yield %y : f64
  } -> tensor<1x2x4x8xf64>
  return %res : tensor<1x2x4x8xf64>
}
