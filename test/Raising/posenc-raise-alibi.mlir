// RUN: posenc-opt %s --split-input-file --allow-unregistered-dialect --posenc-raise-alibi | FileCheck %s
// RUN: posenc-opt %s --split-input-file --allow-unregistered-dialect --posenc-raise-alibi=print-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// posenc-raise-alibi on importer-style IR (one linalg.generic per
// elementwise op, as torch-mlir emits; tm_tensor ops in generic form, as
// scripts/export_hf_attention.py writes them). Each near miss differs from
// the positive case it names in the one detail it breaks.

// The STATS run: one count line per split, in order.
// STATS: posenc-raise-alibi: 1 raised-alibi, 1 raised-slope-configs, 0 folded-key-slices, 1 erased-scans
// STATS-NEXT: posenc-raise-alibi: 1 raised-alibi, 1 raised-slope-configs, 1 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 1 raised-alibi, 1 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 1 raised-alibi, 1 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 1 raised-alibi, 1 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 1 raised-alibi, 1 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 1 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 1 raised-alibi, 1 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 1 raised-alibi, 1 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NOT: posenc-raise-alibi

// BLOOM's build_alibi_tensor (PATTERNS.md C.1): slopes base^(1..H) computed
// in f64 from base = 2^-(8/H), key positions (cumsum(mask) - 1) * mask on
// the all-ones mask (tm_tensor.scan), bias [B, H, Sk] reshaped to
// [B*H, 1, Sk]. The slopes are posenc's for 4 heads, the positions j: a
// key-linear posenc.alibi with implicit positions, and the scan, now
// unused, is erased.
// CHECK-LABEL: func.func @bloom_cumsum(
// CHECK-NOT: tm_tensor
// CHECK: %[[B:.+]] = posenc.alibi key_linear slopes(<num_heads = 4>) : tensor<4x1x8xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: tm_tensor
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[B]] {{\[\[}}0], [1, 2]] : tensor<4x1x8xf32> into tensor<4x8xf32>
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]] {{\[\[}}0, 1], [2]] output_shape [1, 4, 8] : tensor<4x8xf32> into tensor<1x4x8xf32>
// CHECK: %[[C2:.+]] = tensor.collapse_shape %[[E]]
// CHECK: %[[E2:.+]] = tensor.expand_shape %[[C2]]
// CHECK: return %[[E2]] : tensor<4x1x8xf32>
#id1 = affine_map<(d0) -> (d0)>
#scalar1 = affine_map<(d0) -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#head3 = affine_map<(d0, d1, d2) -> (d1, 0)>
#key3 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
func.func @bloom_cumsum() -> tensor<4x1x8xf32> {
  %c1_i32 = arith.constant 1 : i32
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %base = arith.constant dense<2.500000e-01> : tensor<f32>
  %mask = arith.constant dense<1> : tensor<1x8xi64>
  %e0 = tensor.empty() : tensor<4xi32>
  %powers = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %i32 = arith.trunci %i64 : i64 to i32
    %p = arith.addi %i32, %c1_i32 : i32
    linalg.yield %p : i32
  } -> tensor<4xi32>
  %e1 = tensor.empty() : tensor<4xf32>
  %slopes = linalg.generic {indexing_maps = [#scalar1, #id1, #id1], iterator_types = ["parallel"]} ins(%base, %powers : tensor<f32>, tensor<4xi32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%in: f32, %in_0: i32, %out: f32):
    %b = arith.extf %in : f32 to f64
    %x = arith.sitofp %in_0 : i32 to f64
    %y = math.powf %b, %x : f64
    %z = arith.truncf %y : f64 to f32
    linalg.yield %z : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<1x8xi64>
  %f2 = linalg.fill ins(%c0_i64 : i64) outs(%e2 : tensor<1x8xi64>) -> tensor<1x8xi64>
  %e3 = tensor.empty() : tensor<1xi64>
  %f3 = linalg.fill ins(%c0_i64 : i64) outs(%e3 : tensor<1xi64>) -> tensor<1xi64>
  %cumsum:2 = "tm_tensor.scan"(%mask, %f2, %f3) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    "tm_tensor.yield"(%s) : (i64) -> ()
  }) : (tensor<1x8xi64>, tensor<1x8xi64>, tensor<1xi64>) -> (tensor<1x8xi64>, tensor<1xi64>)
  %minus1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%cumsum#0 : tensor<1x8xi64>) outs(%e2 : tensor<1x8xi64>) {
  ^bb0(%in: i64, %out: i64):
    %y = arith.subi %in, %c1_i64 : i64
    linalg.yield %y : i64
  } -> tensor<1x8xi64>
  %pos = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%minus1, %mask : tensor<1x8xi64>, tensor<1x8xi64>) outs(%e2 : tensor<1x8xi64>) {
  ^bb0(%in: i64, %in_0: i64, %out: i64):
    %y = arith.muli %in, %in_0 : i64
    linalg.yield %y : i64
  } -> tensor<1x8xi64>
  %pos3 = tensor.expand_shape %pos [[0], [1, 2]] output_shape [1, 1, 8] : tensor<1x8xi64> into tensor<1x1x8xi64>
  %slopes2 = tensor.expand_shape %slopes [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %e4 = tensor.empty() : tensor<1x4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #key3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes2, %pos3 : tensor<4x1xf32>, tensor<1x1x8xi64>) outs(%e4 : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %c = tensor.collapse_shape %bias [[0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>
  %r = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 1, 8] : tensor<4x8xf32> into tensor<4x1x8xf32>
  return %r : tensor<4x1x8xf32>
}

// -----

// MPT's build_mpt_alibi_tensor (PATTERNS.md C.2): slopes 1 / 2^(k * 8 / H)
// in f32 behind a cf.assert, positions arange(1 - max_seq_len, 1) with
// max_seq_len = 16, the bias sliced to the last Sk = 8 keys:
// slope * (j - 7), key-linear with constant key positions. The full-width
// bias the slice read is gone, and so is the slope computation with its
// assert (which holds: the evaluator checked it).
// CHECK-LABEL: func.func @mpt_slice(
// CHECK-NOT: dense<[-15
// CHECK: %[[K:.+]] = arith.constant dense<[-7, -6, -5, -4, -3, -2, -1, 0]> : tensor<8xi64>
// CHECK-NOT: linalg.generic
// CHECK: %[[B:.+]] = posenc.alibi key_linear slopes(<num_heads = 4>) k_positions(%[[K]] : tensor<8xi64>) : tensor<4x1x8xf32>
// CHECK-NOT: posenc.alibi
// CHECK-NOT: tensor.extract_slice
// CHECK: return %[[B]] : tensor<4x1x8xf32>
#id1 = affine_map<(d0) -> (d0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#key4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#head4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @mpt_slice() -> tensor<4x1x8xf32> {
  %c-15_i32 = arith.constant -15 : i32
  %c1_i64 = arith.constant 1 : i64
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %e0 = tensor.empty() : tensor<16xi32>
  %arange = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<16xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %i32 = arith.trunci %i64 : i64 to i32
    %p = arith.addi %i32, %c-15_i32 : i32
    linalg.yield %p : i32
  } -> tensor<16xi32>
  %arange4 = tensor.expand_shape %arange [[0, 1, 2, 3]] output_shape [1, 1, 1, 16] : tensor<16xi32> into tensor<1x1x1x16xi32>
  %e1 = tensor.empty() : tensor<4xi64>
  %k = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e1 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %p = arith.addi %i64, %c1_i64 : i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %e2 = tensor.empty() : tensor<4xf32>
  %kf = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%k : tensor<4xi64>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %y = arith.sitofp %in : i64 to f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %exps = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%kf : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %two : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %pows = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%exps : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.powf %two, %in : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %slopes = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%pows : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %nz = arith.cmpf one, %in, %zero : f32
    cf.assert %nz, "unimplemented: tensor with zero element"
    %y = arith.divf %one, %in : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %slopes4 = tensor.expand_shape %slopes [[0, 1, 2, 3]] output_shape [1, 4, 1, 1] : tensor<4xf32> into tensor<1x4x1x1xf32>
  %e3 = tensor.empty() : tensor<1x4x1x16xf32>
  %bias = linalg.generic {indexing_maps = [#key4, #head4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arange4, %slopes4 : tensor<1x1x1x16xi32>, tensor<1x4x1x1xf32>) outs(%e3 : tensor<1x4x1x16xf32>) {
  ^bb0(%in: i32, %in_0: f32, %out: f32):
    %p = arith.sitofp %in : i32 to f32
    %y = arith.mulf %p, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x16xf32>
  %c = tensor.collapse_shape %bias [[0, 1], [2], [3]] : tensor<1x4x1x16xf32> into tensor<4x1x16xf32>
  %s = tensor.extract_slice %c[0, 0, 8] [4, 1, 8] [1, 1, 1] : tensor<4x1x16xf32> to tensor<4x1x8xf32>
  return %s : tensor<4x1x8xf32>
}

// -----

// A slope table for 6 heads (posenc's order: 2^-2, 2^-4, 2^-6, 2^-8 for the
// largest power of two, then 2^-1, 2^-3) times a constant arange, as a 2-D
// [H, Sk] bias: the config, implicit positions, [H, 1, Sk] collapsed.
// CHECK-LABEL: func.func @table_six_heads(
// CHECK: %[[B:.+]] = posenc.alibi key_linear slopes(<num_heads = 6>) : tensor<6x1x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[B]] {{\[\[}}0], [1, 2]] : tensor<6x1x8xf32> into tensor<6x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[C]]
#head2 = affine_map<(d0, d1) -> (d0)>
#key2 = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @table_six_heads() -> tensor<6x8xf32> {
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03, 5.000000e-01, 1.250000e-01]> : tensor<6xf32>
  %pos = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
  %e = tensor.empty() : tensor<6x8xf32>
  %bias = linalg.generic {indexing_maps = [#head2, #key2, #id2], iterator_types = ["parallel", "parallel"]} ins(%slopes, %pos : tensor<6xf32>, tensor<8xi64>) outs(%e : tensor<6x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<6x8xf32>
  return %bias : tensor<6x8xf32>
}

// -----

// Symmetric ALiBi as MosaicBERT builds it: slopes * -|q - k| over
// [H, Sq, Sk] with Sq = Sk, the distance from two aranges (math.absi):
// symmetric, default (bottom-right) positions.
// CHECK-LABEL: func.func @symmetric_square(
// CHECK: %[[B:.+]] = posenc.alibi symmetric slopes(<num_heads = 4>) : tensor<4x8x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[B]]
#head3 = affine_map<(d0, d1, d2) -> (d0)>
#qk3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @symmetric_square() -> tensor<4x8x8xf32> {
  %c0_i64 = arith.constant 0 : i64
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %e0 = tensor.empty() : tensor<8x8xi64>
  %dist = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<8x8xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %j64, %i64 : i64
    %a = math.absi %d : i64
    %n = arith.subi %c0_i64, %a : i64
    linalg.yield %n : i64
  } -> tensor<8x8xi64>
  %e1 = tensor.empty() : tensor<4x8x8xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #qk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes, %dist : tensor<4xf32>, tensor<8x8xi64>) outs(%e1 : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x8x8xf32>
  return %bias : tensor<4x8x8xf32>
}

// -----

// Symmetric with Sq = 4 < Sk = 8 and queries at 0..3 (top-left), written
// as -(slope * |q - k|) with the negation in the product's body, slopes
// for max_bias = 16 (MPT's alibi_bias_max).
// CHECK-LABEL: func.func @symmetric_top_left(
// CHECK: %[[B:.+]] = posenc.alibi symmetric slopes(<num_heads = 4, max_bias = 1.600000e+01>) {alignment = #posenc<alignment top_left>} : tensor<4x4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[B]]
#head3 = affine_map<(d0, d1, d2) -> (d0)>
#qk3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @symmetric_top_left() -> tensor<4x4x8xf32> {
  %slopes = arith.constant dense<[6.250000e-02, 3.906250e-03, 2.44140625E-4, 1.52587891E-5]> : tensor<4xf32>
  %e0 = tensor.empty() : tensor<4x8xi64>
  %dist = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<4x8xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %a = math.absi %d : i64
    linalg.yield %a : i64
  } -> tensor<4x8xi64>
  %e1 = tensor.empty() : tensor<4x4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #qk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes, %dist : tensor<4xf32>, tensor<4x8xi64>) outs(%e1 : tensor<4x4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    %n = arith.negf %y : f32
    linalg.yield %n : f32
  } -> tensor<4x4x8xf32>
  return %bias : tensor<4x4x8xf32>
}

// -----

// Symmetric with Sq = 2 < Sk = 8 and queries at 3 and 4: neither alignment,
// constant query positions.
// CHECK-LABEL: func.func @symmetric_shifted_queries(
// CHECK: %[[Q:.+]] = arith.constant dense<[3, 4]> : tensor<2xi64>
// CHECK: %[[B:.+]] = posenc.alibi symmetric slopes(<num_heads = 4>) q_positions(%[[Q]] : tensor<2xi64>) : tensor<4x2x8xf32>
// CHECK: return %[[B]]
#head3 = affine_map<(d0, d1, d2) -> (d0)>
#qk3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @symmetric_shifted_queries() -> tensor<4x2x8xf32> {
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %dist = arith.constant dense<[[-3, -2, -1, 0, -1, -2, -3, -4], [-4, -3, -2, -1, 0, -1, -2, -3]]> : tensor<2x8xi64>
  %e1 = tensor.empty() : tensor<4x2x8xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #qk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes, %dist : tensor<4xf32>, tensor<2x8xi64>) outs(%e1 : tensor<4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x2x8xf32>
  return %bias : tensor<4x2x8xf32>
}

// -----

// Near miss of the slope config: BLOOM's ladder with base 0.3 instead of
// 2^-(8/H) is still an exact ALiBi bias, with a constant slopes tensor.
// CHECK-LABEL: func.func @wrong_slope_base(
// CHECK: %[[S:.+]] = arith.constant dense<{{.+}}> : tensor<4xf32>
// CHECK: %[[B:.+]] = posenc.alibi key_linear slopes(%[[S]] : tensor<4xf32>) : tensor<4x1x8xf32>
// CHECK-NOT: alibi_slopes
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
#scalar1 = affine_map<(d0) -> ()>
#head2 = affine_map<(d0, d1) -> (d0)>
#key2 = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @wrong_slope_base() -> tensor<4x8xf32> {
  %c1_i32 = arith.constant 1 : i32
  %base = arith.constant dense<3.000000e-01> : tensor<f32>
  %e0 = tensor.empty() : tensor<4xi32>
  %powers = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %i32 = arith.trunci %i64 : i64 to i32
    %p = arith.addi %i32, %c1_i32 : i32
    linalg.yield %p : i32
  } -> tensor<4xi32>
  %e1 = tensor.empty() : tensor<4xf32>
  %slopes = linalg.generic {indexing_maps = [#scalar1, #id1, #id1], iterator_types = ["parallel"]} ins(%base, %powers : tensor<f32>, tensor<4xi32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%in: f32, %in_0: i32, %out: f32):
    %b = arith.extf %in : f32 to f64
    %x = arith.sitofp %in_0 : i32 to f64
    %y = math.powf %b, %x : f64
    %z = arith.truncf %y : f64 to f32
    linalg.yield %z : f32
  } -> tensor<4xf32>
  %pos = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
  %e = tensor.empty() : tensor<4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head2, #key2, #id2], iterator_types = ["parallel", "parallel"]} ins(%slopes, %pos : tensor<4xf32>, tensor<8xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %bias : tensor<4x8xf32>
}

// -----

// Batch 2 with the same key positions in both rows ([B, Sk] from a
// broadcast mask): a 4-D posenc.alibi [B, H, 1, Sk].
// CHECK-LABEL: func.func @batch_same_positions(
// CHECK: %[[B:.+]] = posenc.alibi key_linear slopes(<num_heads = 4>) : tensor<2x4x1x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[B]] {{\[\[}}0], [1], [2, 3]] : tensor<2x4x1x8xf32> into tensor<2x4x8xf32>
// CHECK: return %[[C]]
#head3 = affine_map<(d0, d1, d2) -> (d1)>
#key3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @batch_same_positions() -> tensor<2x4x8xf32> {
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %pos = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<2x8xi64>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #key3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes, %pos : tensor<4xf32>, tensor<2x8xi64>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x4x8xf32>
  return %bias : tensor<2x4x8xf32>
}

// -----

// Near miss of @batch_same_positions: the second sequence is left-padded
// (BLOOM's positions of a padded batch), not expressible as one arange.
// CHECK-LABEL: func.func @batch_padded_positions(
// CHECK-NOT: posenc.alibi
// CHECK: linalg.generic
// CHECK: return
#head3 = affine_map<(d0, d1, d2) -> (d1)>
#key3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @batch_padded_positions() -> tensor<2x4x8xf32> {
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %pos = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [0, 0, 0, 1, 2, 3, 4, 5]]> : tensor<2x8xi64>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #key3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes, %pos : tensor<4xf32>, tensor<2x8xi64>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x4x8xf32>
  return %bias : tensor<2x4x8xf32>
}

// -----

// Near miss of @table_six_heads: key positions that are not an arange (a
// gap after 3).
// CHECK-LABEL: func.func @positions_not_arange(
// CHECK-NOT: posenc.alibi
// CHECK: linalg.generic
// CHECK: return
#head2 = affine_map<(d0, d1) -> (d0)>
#key2 = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @positions_not_arange() -> tensor<4x8xf32> {
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %pos = arith.constant dense<[0, 1, 2, 3, 5, 6, 7, 8]> : tensor<8xi64>
  %e = tensor.empty() : tensor<4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head2, #key2, #id2], iterator_types = ["parallel", "parallel"]} ins(%slopes, %pos : tensor<4xf32>, tensor<8xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %bias : tensor<4x8xf32>
}

// -----

// Near miss of @symmetric_square: the query-dependent term is j - i (what
// symmetric ALiBi equals only under a causal mask), not -|i - j|.
// CHECK-LABEL: func.func @query_term_not_distance(
// CHECK-NOT: posenc.alibi
// CHECK: linalg.generic
// CHECK: return
#head3 = affine_map<(d0, d1, d2) -> (d0)>
#qk3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @query_term_not_distance() -> tensor<4x8x8xf32> {
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %e0 = tensor.empty() : tensor<8x8xi64>
  %rel = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<8x8xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %j64, %i64 : i64
    linalg.yield %d : i64
  } -> tensor<8x8xi64>
  %e1 = tensor.empty() : tensor<4x8x8xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #qk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes, %rel : tensor<4xf32>, tensor<8x8xi64>) outs(%e1 : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x8x8xf32>
  return %bias : tensor<4x8x8xf32>
}

// -----

// Near miss of @table_six_heads: slopes of mixed sign.
// CHECK-LABEL: func.func @slopes_mixed_sign(
// CHECK-NOT: posenc.alibi
// CHECK: linalg.generic
// CHECK: return
#head2 = affine_map<(d0, d1) -> (d0)>
#key2 = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @slopes_mixed_sign() -> tensor<4x8xf32> {
  %slopes = arith.constant dense<[2.500000e-01, -6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %pos = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
  %e = tensor.empty() : tensor<4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head2, #key2, #id2], iterator_types = ["parallel", "parallel"]} ins(%slopes, %pos : tensor<4xf32>, tensor<8xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %bias : tensor<4x8xf32>
}

// -----

// Near miss of @table_six_heads: slopes that are an argument (learned or
// passed in), not computed from constants.
// CHECK-LABEL: func.func @slopes_argument(
// CHECK-NOT: posenc.alibi
// CHECK: linalg.generic
// CHECK: return
#head2 = affine_map<(d0, d1) -> (d0)>
#key2 = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @slopes_argument(%slopes: tensor<4xf32>) -> tensor<4x8xf32> {
  %pos = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
  %e = tensor.empty() : tensor<4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head2, #key2, #id2], iterator_types = ["parallel", "parallel"]} ins(%slopes, %pos : tensor<4xf32>, tensor<8xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %bias : tensor<4x8xf32>
}

// -----

// Near miss of @table_six_heads: the body adds a constant after the
// product (not an ALiBi bias alone).
// CHECK-LABEL: func.func @extra_body_op(
// CHECK-NOT: posenc.alibi
// CHECK: linalg.generic
// CHECK: return
#head2 = affine_map<(d0, d1) -> (d0)>
#key2 = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @extra_body_op() -> tensor<4x8xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %pos = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
  %e = tensor.empty() : tensor<4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head2, #key2, #id2], iterator_types = ["parallel", "parallel"]} ins(%slopes, %pos : tensor<4xf32>, tensor<8xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    %z = arith.addf %y, %one : f32
    linalg.yield %z : f32
  } -> tensor<4x8xf32>
  return %bias : tensor<4x8xf32>
}

// -----

// Near miss of @bloom_cumsum's scan erasure: the cumsum is also returned,
// so it stays (the bias is raised all the same).
// CHECK-LABEL: func.func @live_cumsum(
// CHECK: "tm_tensor.scan"
// CHECK: posenc.alibi key_linear slopes(<num_heads = 4>) : tensor<4x1x8xf32>
// CHECK: return
#head2 = affine_map<(d0, d1) -> (d0)>
#key2 = affine_map<(d0, d1) -> (0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @live_cumsum() -> (tensor<4x8xf32>, tensor<1x8xi64>) {
  %c0_i64 = arith.constant 0 : i64
  %mask = arith.constant dense<1> : tensor<1x8xi64>
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %e2 = tensor.empty() : tensor<1x8xi64>
  %f2 = linalg.fill ins(%c0_i64 : i64) outs(%e2 : tensor<1x8xi64>) -> tensor<1x8xi64>
  %e3 = tensor.empty() : tensor<1xi64>
  %f3 = linalg.fill ins(%c0_i64 : i64) outs(%e3 : tensor<1xi64>) -> tensor<1xi64>
  // exclusive: 0, 1, ..., 7
  %cumsum:2 = "tm_tensor.scan"(%mask, %f2, %f3) <{dimension = 1 : i64, inclusive = false, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    "tm_tensor.yield"(%s) : (i64) -> ()
  }) : (tensor<1x8xi64>, tensor<1x8xi64>, tensor<1xi64>) -> (tensor<1x8xi64>, tensor<1xi64>)
  %e = tensor.empty() : tensor<4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head2, #key2, #id2], iterator_types = ["parallel", "parallel"]} ins(%slopes, %cumsum#0 : tensor<4xf32>, tensor<1x8xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %bias, %cumsum#0 : tensor<4x8xf32>, tensor<1x8xi64>
}

// -----

// Near miss of @bloom_cumsum: a scan whose region multiplies is no cumsum:
// not evaluated (the bias stays) and, unused, not erased either.
// CHECK-LABEL: func.func @scan_not_cumsum(
// CHECK: "tm_tensor.scan"
// CHECK: "tm_tensor.scan"
// CHECK-NOT: posenc.alibi
// CHECK: return
#head2 = affine_map<(d0, d1) -> (d0)>
#key2 = affine_map<(d0, d1) -> (0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scan_not_cumsum() -> tensor<4x8xf32> {
  %c0_i64 = arith.constant 0 : i64
  %mask = arith.constant dense<1> : tensor<1x8xi64>
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %e2 = tensor.empty() : tensor<1x8xi64>
  %f2 = linalg.fill ins(%c0_i64 : i64) outs(%e2 : tensor<1x8xi64>) -> tensor<1x8xi64>
  %e3 = tensor.empty() : tensor<1xi64>
  %f3 = linalg.fill ins(%c0_i64 : i64) outs(%e3 : tensor<1xi64>) -> tensor<1xi64>
  %prod:2 = "tm_tensor.scan"(%mask, %f2, %f3) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%a: i64, %b: i64):
    %s = arith.muli %a, %b : i64
    "tm_tensor.yield"(%s) : (i64) -> ()
  }) : (tensor<1x8xi64>, tensor<1x8xi64>, tensor<1xi64>) -> (tensor<1x8xi64>, tensor<1xi64>)
  %dead:2 = "tm_tensor.scan"(%mask, %f2, %f3) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%a: i64, %b: i64):
    %s = arith.muli %a, %b : i64
    "tm_tensor.yield"(%s) : (i64) -> ()
  }) : (tensor<1x8xi64>, tensor<1x8xi64>, tensor<1xi64>) -> (tensor<1x8xi64>, tensor<1xi64>)
  %e = tensor.empty() : tensor<4x8xf32>
  %bias = linalg.generic {indexing_maps = [#head2, #key2, #id2], iterator_types = ["parallel", "parallel"]} ins(%slopes, %prod#0 : tensor<4xf32>, tensor<1x8xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %bias : tensor<4x8xf32>
}

// -----

// Near miss of @mpt_slice's cleanup: a generic without users is erased
// with its cf.assert only if the guard holds everywhere; here one divisor
// is 0, so the assert would fail at run time and the generic stays.
// CHECK-LABEL: func.func @dead_failing_guard(
// CHECK: cf.assert
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
func.func @dead_failing_guard() {
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %d = arith.constant dense<[1.000000e+00, 0.000000e+00, 2.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%d : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %nz = arith.cmpf one, %in, %zero : f32
    cf.assert %nz, "unimplemented: tensor with zero element"
    %y = arith.divf %one, %in : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return
}

// -----

// Fuzzer finding R1 (docs/testing.md): @symmetric_square with no queries
// and keys. An empty bias is left alone (pos.front() on an empty list
// asserted).
// CHECK-LABEL: func.func @symmetric_empty(
// CHECK-NOT: posenc.alibi
// CHECK: return
#head3 = affine_map<(d0, d1, d2) -> (d0)>
#qk3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @symmetric_empty() -> tensor<4x0x0xf32> {
  %c0_i64 = arith.constant 0 : i64
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %e0 = tensor.empty() : tensor<0x0xi64>
  %dist = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<0x0xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %j64, %i64 : i64
    %a = math.absi %d : i64
    %n = arith.subi %c0_i64, %a : i64
    linalg.yield %n : i64
  } -> tensor<0x0xi64>
  %e1 = tensor.empty() : tensor<4x0x0xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #qk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes, %dist : tensor<4xf32>, tensor<0x0xi64>) outs(%e1 : tensor<4x0x0xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x0x0xf32>
  return %bias : tensor<4x0x0xf32>
}

// -----

// Fuzzer finding R2 (docs/testing.md): @symmetric_square over 2^32 x 2^32
// positions, whose element count wraps to 0 in int64_t: the evaluator took
// the positions for an empty tensor and the pass sized a 2^32-row table
// ("SmallVector unable to grow"). Beyond 2^24 points the bias is left alone.
// CHECK-LABEL: func.func @symmetric_huge(
// CHECK-NOT: posenc.alibi
// CHECK: return
#head3 = affine_map<(d0, d1, d2) -> (d0)>
#qk3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @symmetric_huge() -> tensor<4x4294967296x4294967296xf32> {
  %c0_i64 = arith.constant 0 : i64
  %slopes = arith.constant dense<[2.500000e-01, 6.250000e-02, 1.562500e-02, 3.906250e-03]> : tensor<4xf32>
  %e0 = tensor.empty() : tensor<4294967296x4294967296xi64>
  %dist = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<4294967296x4294967296xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %j64, %i64 : i64
    %a = math.absi %d : i64
    %n = arith.subi %c0_i64, %a : i64
    linalg.yield %n : i64
  } -> tensor<4294967296x4294967296xi64>
  %e1 = tensor.empty() : tensor<4x4294967296x4294967296xf32>
  %bias = linalg.generic {indexing_maps = [#head3, #qk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes, %dist : tensor<4xf32>, tensor<4294967296x4294967296xi64>) outs(%e1 : tensor<4x4294967296x4294967296xf32>) {
  ^bb0(%in: f32, %in_0: i64, %out: f32):
    %p = arith.sitofp %in_0 : i64 to f32
    %y = arith.mulf %in, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x4294967296x4294967296xf32>
  return %bias : tensor<4x4294967296x4294967296xf32>
}
