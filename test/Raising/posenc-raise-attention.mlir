// RUN: posenc-opt %s --split-input-file --posenc-raise-attention | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-raise-attention=print-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// posenc-raise-attention on importer-style IR (one linalg.generic per
// elementwise op, as torch-mlir emits). Each near miss differs from the
// positive case it names in the one detail it breaks.

// The STATS run: one count line per split, in order.
// STATS: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 1 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 1 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NOT: posenc-raise-attention

// Eager attention as torch-mlir emits it for [B, H, S, D] = [1, 2, 4, 8]:
// batch_matmul(Q, K^T) over B*H, * 1/sqrt(8), + a constant causal mask
// (HF's finfo.min above the diagonal), softmax over the keys, batch_matmul
// with V. The default scale is not written.
// CHECK-LABEL: func.func @causal_constant_mask(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]]
// CHECK: return %[[E]]
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @causal_constant_mask(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// The causal mask built in the IR from an arange (j - i >= 1 -> -inf), as
// the torch-mlir export of HF Llama does: evaluated, found causal.
// CHECK-LABEL: func.func @causal_index_mask(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]]
// CHECK: return %[[E]]
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (0, d1)>
#row2 = affine_map<(d0, d1) -> (d0, 0)>
#scalar2 = affine_map<(d0, d1) -> ()>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @causal_index_mask(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // causal mask from index arithmetic (torch-mlir's triu): -inf where j - i >= 1
  %c1_i64 = arith.constant 1 : i64
  %ninf_t = arith.constant dense<0xFF800000> : tensor<4x4xf32>
  %zero_t = arith.constant dense<0.000000e+00> : tensor<f32>
  %ar_init = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%ar_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %cols = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %rows = tensor.expand_shape %ar [[0, 1]] output_shape [4, 1] : tensor<4xi64> into tensor<4x1xi64>
  %d_init = tensor.empty() : tensor<4x4xi64>
  %diff = linalg.generic {indexing_maps = [#col2, #row2, #map2], iterator_types = ["parallel", "parallel"]} ins(%cols, %rows : tensor<1x4xi64>, tensor<4x1xi64>) outs(%d_init : tensor<4x4xi64>) {
  ^bb0(%in: i64, %in_0: i64, %out: i64):
    %y = arith.subi %in, %in_0 : i64
    linalg.yield %y : i64
  } -> tensor<4x4xi64>
  %b_init = tensor.empty() : tensor<4x4xi1>
  %above = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%diff : tensor<4x4xi64>) outs(%b_init : tensor<4x4xi1>) {
  ^bb0(%in: i64, %out: i1):
    %y = arith.cmpi sge, %in, %c1_i64 : i64
    linalg.yield %y : i1
  } -> tensor<4x4xi1>
  %mf_init = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [#map2, #map2, #scalar2, #map2], iterator_types = ["parallel", "parallel"]} ins(%above, %ninf_t, %zero_t : tensor<4x4xi1>, tensor<4x4xf32>, tensor<f32>) outs(%mf_init : tensor<4x4xf32>) {
  ^bb0(%in: i1, %in_0: f32, %in_1: f32, %out: f32):
    %y = arith.select %in, %in_0, %in_1 : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @causal_index_mask: i - j >= 1 masks below the diagonal (an
// upper-triangular mask, the wrong way round). Stays decomposed.
// CHECK-LABEL: func.func @mask_wrong_way(
// CHECK-NOT: posenc.attention
// CHECK: arith.subi
// CHECK: arith.cmpi sge
// CHECK: arith.select
// CHECK: linalg.batch_matmul
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: return
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (0, d1)>
#row2 = affine_map<(d0, d1) -> (d0, 0)>
#scalar2 = affine_map<(d0, d1) -> ()>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @mask_wrong_way(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // causal mask from index arithmetic (torch-mlir's triu): -inf where i - j >= 1 (wrong way)
  %c1_i64 = arith.constant 1 : i64
  %ninf_t = arith.constant dense<0xFF800000> : tensor<4x4xf32>
  %zero_t = arith.constant dense<0.000000e+00> : tensor<f32>
  %ar_init = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%ar_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %cols = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %rows = tensor.expand_shape %ar [[0, 1]] output_shape [4, 1] : tensor<4xi64> into tensor<4x1xi64>
  %d_init = tensor.empty() : tensor<4x4xi64>
  %diff = linalg.generic {indexing_maps = [#col2, #row2, #map2], iterator_types = ["parallel", "parallel"]} ins(%cols, %rows : tensor<1x4xi64>, tensor<4x1xi64>) outs(%d_init : tensor<4x4xi64>) {
  ^bb0(%in: i64, %in_0: i64, %out: i64):
    %y = arith.subi %in_0, %in : i64
    linalg.yield %y : i64
  } -> tensor<4x4xi64>
  %b_init = tensor.empty() : tensor<4x4xi1>
  %above = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%diff : tensor<4x4xi64>) outs(%b_init : tensor<4x4xi1>) {
  ^bb0(%in: i64, %out: i1):
    %y = arith.cmpi sge, %in, %c1_i64 : i64
    linalg.yield %y : i1
  } -> tensor<4x4xi1>
  %mf_init = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [#map2, #map2, #scalar2, #map2], iterator_types = ["parallel", "parallel"]} ins(%above, %ninf_t, %zero_t : tensor<4x4xi1>, tensor<4x4xf32>, tensor<f32>) outs(%mf_init : tensor<4x4xf32>) {
  ^bb0(%in: i1, %in_0: f32, %in_1: f32, %out: f32):
    %y = arith.select %in, %in_0, %in_1 : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// @causal_constant_mask with a sliding-window mask (HF sliding_window 2: keys
// more than one position back are masked too): a near miss before local
// masks were raised (issue 23), now `window(<left = 1>)`
// (raise-attention-local.mlir has the local masks and their near misses).
// CHECK-LABEL: func.func @sliding_window_mask(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal window(<left = 1>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: return
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @sliding_window_mask(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // sliding-window mask: 0 for i - 1 <= j <= i, finfo(f32).min elsewhere
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @causal_constant_mask: the mask is a function argument (a
// runtime padding mask): no posenc.attention term for it. Stays decomposed.
// CHECK-LABEL: func.func @runtime_mask(
// CHECK-SAME: %[[MASK:[^:]+]]: tensor<1x1x4x4xf32>
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %[[MASK]] : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>)
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: return
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @runtime_mask(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %mask4: tensor<1x1x4x4xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// No mask: not causal.
// CHECK-LABEL: func.func @no_mask(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]]
// CHECK: return %[[E]]
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @no_mask(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%scaled : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// The scale as a division by sqrt(8) (HF GPT-2 style): the default scale,
// not written.
// CHECK-LABEL: func.func @scale_divide(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]]
// CHECK: return %[[E]]
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @scale_divide(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sqrt_d = arith.constant 2.82842708 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // / sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.divf %in, %sqrt_d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @scale_divide: sqrt(8) / scores (the operands of the division
// swapped). Not a scale; stays decomposed.
// CHECK-LABEL: func.func @scale_divides_scalar(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: return
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @scale_divides_scalar(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sqrt_d = arith.constant 2.82842708 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // sqrt(8) / scores (wrong way)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.divf %sqrt_d, %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// A scale other than 1/sqrt(D) (0.25, e.g. a query_pre_attn_scalar) is
// written as the scale attribute.
// CHECK-LABEL: func.func @custom_scale(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] scale(2.500000e-01) causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]]
// CHECK: return %[[E]]
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @custom_scale(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 2.500000e-01 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 0.25
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// GQA: K and V have 1 head, repeat_kv broadcasts them to the 2 query heads
// (a broadcast over a group axis, collapsed into the head axis). The
// attention reads the unrepeated K and V.
// CHECK-LABEL: func.func @gqa_repeat_kv(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x1x4x8xf32>, %[[V:[^:]+]]: tensor<1x1x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]]
// CHECK: return %[[E]]
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rep5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @gqa_repeat_kv(%q: tensor<1x2x4x8xf32>, %k: tensor<1x1x4x8xf32>, %v: tensor<1x1x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // repeat_kv(K): [1, 1, 4, 8] -> [1, 1, 2, 4, 8] -> [1, 2, 4, 8]
  %kr_init = tensor.empty() : tensor<1x1x2x4x8xf32>
  %krep = linalg.generic {indexing_maps = [#rep5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x1x4x8xf32>) outs(%kr_init : tensor<1x1x2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x2x4x8xf32>
  %kfull = tensor.collapse_shape %krep [[0], [1, 2], [3], [4]] : tensor<1x1x2x4x8xf32> into tensor<1x2x4x8xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%kfull : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  // repeat_kv(V), collapsed straight to the [B*H, S, D] operand
  %vrep = linalg.generic {indexing_maps = [#rep5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x1x4x8xf32>) outs(%kr_init : tensor<1x1x2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x2x4x8xf32>
  %vc = tensor.collapse_shape %vrep [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @gqa_repeat_kv: K is repeated from 1 head, V has 2 heads of its
// own (K and V heads disagree). Stays decomposed.
// CHECK-LABEL: func.func @gqa_v_not_repeated(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: return
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rep5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @gqa_v_not_repeated(%q: tensor<1x2x4x8xf32>, %k: tensor<1x1x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // repeat_kv(K): [1, 1, 4, 8] -> [1, 1, 2, 4, 8] -> [1, 2, 4, 8]
  %kr_init = tensor.empty() : tensor<1x1x2x4x8xf32>
  %krep = linalg.generic {indexing_maps = [#rep5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x1x4x8xf32>) outs(%kr_init : tensor<1x1x2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x2x4x8xf32>
  %kfull = tensor.collapse_shape %krep [[0], [1, 2], [3], [4]] : tensor<1x1x2x4x8xf32> into tensor<1x2x4x8xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%kfull : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @causal_constant_mask: the softmax normalizes over the queries
// (axis 2) instead of the keys. Stays decomposed.
// CHECK-LABEL: func.func @softmax_wrong_dim(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: return
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
func.func @softmax_wrong_dim(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the queries (axis 2): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1, 2], [3]] output_shape [1, 2, 1, 4] : tensor<1x2x4xf32> into tensor<1x2x1x4xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x1x4xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x1x4xf32>) -> tensor<1x2x1x4xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x1x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1x4xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x1x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Scaled scores + ALiBi bias + causal mask (BLOOM/MPT order): the bias is
// posenc.alibi (from posenc-raise-alibi) and becomes the alibi config.
// CHECK-LABEL: func.func @alibi_causal(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal alibi(<num_heads = 2>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]]
// CHECK: return %[[E]]
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias4 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @alibi_causal(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  %bias = posenc.alibi symmetric slopes(<num_heads = 2>) : tensor<2x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + ALiBi bias (raised by posenc-raise-alibi)
  %biased = linalg.generic {indexing_maps = [#map4, #bias4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %bias : tensor<1x2x4x4xf32>, tensor<2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%biased, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// ALiBi on unscaled scores (no scale multiply, e.g. folded into Q): the
// scale attribute is 1.
// CHECK-LABEL: func.func @alibi_unscaled(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] scale(1.000000e+00) causal alibi(<num_heads = 2>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]]
// CHECK: return %[[E]]
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias4 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @alibi_unscaled(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  %bias = posenc.alibi symmetric slopes(<num_heads = 2>) : tensor<2x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  // + ALiBi bias (raised by posenc-raise-alibi)
  %biased = linalg.generic {indexing_maps = [#map4, #bias4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %bias : tensor<1x2x4x4xf32>, tensor<2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%biased, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @alibi_causal: the bias is added before the scale, so the scale
// multiplies it too; posenc.attention adds it unscaled. Stays decomposed.
// CHECK-LABEL: func.func @alibi_scaled(
// CHECK-NOT: posenc.attention
// CHECK: %[[B:.+]] = posenc.alibi symmetric slopes(<num_heads = 2>) : tensor<2x4x4xf32>
// CHECK: linalg.batch_matmul
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %[[B]] :
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: return
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias4 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @alibi_scaled(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  %bias = posenc.alibi symmetric slopes(<num_heads = 2>) : tensor<2x4x4xf32>
  // scores = Q K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  // + ALiBi bias, then the scale: the bias gets scaled too
  %biased = linalg.generic {indexing_maps = [#map4, #bias4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %bias : tensor<1x2x4x4xf32>, tensor<2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // * 1/sqrt(8)
  %scaled_biased = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%biased : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // + mask
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled_biased, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys (last axis): max, subtract, exp, sum, divide
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // out = P V
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}
