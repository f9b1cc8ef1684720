// RUN: posenc-opt %s --split-input-file --posenc-raise-attention | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-raise-attention=print-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// posenc-raise-attention on local masks, soft-capped logits and Llama 4's
// query temperature (issue 23),
// [B, H, S, D] = [1, 2, 6, 8] in the form of posenc-raise-attention.mlir's
// causal_constant_mask. Each near miss differs from the positive case it
// names in the one detail it breaks, and stays decomposed.

// STATS: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 1 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 1 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 1 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 1 raised-window-masks, 0 raised-chunk-masks, 1 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 1 raised-query-temperatures
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures
// STATS-NOT: posenc-raise-attention

// HF's sliding-window mask (sliding_window 3: a query sees itself and the
// two keys before it) as an additive constant: window(<left = 2>).
// CHECK-LABEL: func.func @window_add(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x6x8xf32>, %[[K:[^:]+]]: tensor<1x2x6x8xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal window(<left = 2>) : 
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @window_add(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// The same as a masked_fill of a boolean mask (window 4).
// CHECK-LABEL: func.func @window_select(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x6x8xf32>, %[[K:[^:]+]]: tensor<1x2x6x8xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal window(<left = 3>) : 
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @window_select(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[false, true, true, true, true, true], [false, false, true, true, true, true], [false, false, false, true, true, true], [false, false, false, false, true, true], [true, false, false, false, false, true], [true, true, false, false, false, false]]> : tensor<6x6xi1>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xi1> into tensor<1x1x6x6xi1>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // masked_fill(mask, finfo.min)
  %t2 = linalg.generic {indexing_maps = [#mask4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mask4, %t1 : tensor<1x1x6x6xi1>, tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %y = arith.select %in, %big, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// Llama 4's chunked mask (attention_chunk_size 4): rows 4 and 5 start at
// key 4, rows 0-3 at key 0: chunk_size(4).
// CHECK-LABEL: func.func @chunk_add(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x6x8xf32>, %[[K:[^:]+]]: tensor<1x2x6x8xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal chunk_size(4) : 
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @chunk_add(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// A window wider than the sequence is a causal mask: no window term.
// CHECK-LABEL: func.func @window_covering(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x6x8xf32>, %[[K:[^:]+]]: tensor<1x2x6x8xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal : 
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @window_covering(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// Gemma 2: scaled scores soft-capped (/ 2, tanh, * 2), then the window mask.
// CHECK-LABEL: func.func @softcap_window(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x6x8xf32>, %[[K:[^:]+]]: tensor<1x2x6x8xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal window(<left = 2>) softcap(2.000000e+00) : 
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @softcap_window(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %cap = arith.constant 2.000000e+00 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // / cap
  %t2 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.divf %in, %cap : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // tanh
  %t3 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // * cap
  %t4 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t3 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %cap : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t5 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t4, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t5 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t5, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// Near miss of window_add: row 4 sees one key more than the others' window.
// CHECK-LABEL: func.func @near_miss_window_off_by_one(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @near_miss_window_off_by_one(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// Near miss of chunk_add: chunk starts at keys 2 and 5 (not multiples of a
// chunk size).
// CHECK-LABEL: func.func @near_miss_chunk_shifted(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @near_miss_chunk_shifted(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// Near miss of softcap_window: the cap applied after the mask (masked
// logits become -2, not -inf).
// CHECK-LABEL: func.func @near_miss_cap_after_mask(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @near_miss_cap_after_mask(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %cap = arith.constant 2.000000e+00 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // / cap
  %t3 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.divf %in, %cap : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // tanh
  %t4 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t3 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // * cap
  %t5 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %cap : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t5 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t5, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// Near miss of softcap_window: the scale applied after the cap.
// CHECK-LABEL: func.func @near_miss_scale_outside_cap(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @near_miss_scale_outside_cap(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %cap = arith.constant 2.000000e+00 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [-3.40282347E+38, -3.40282347E+38, -3.40282347E+38, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // / cap
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.divf %in, %cap : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // tanh
  %t2 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // * cap
  %t3 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %cap : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t4 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t3 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t5 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t4, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t5 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t5, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// Llama 4's temperature tuning (floor_scale 2, attn_scale 0.5) on q before
// the head transpose: query_temperature, q read unscaled.
// CHECK-LABEL: func.func @temperature(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x6x2x8xf32>, %[[K:[^:]+]]: tensor<1x2x6x8xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK: %[[QT:.+]] = linalg.transpose ins(%[[Q]] : tensor<1x6x2x8xf32>)
// CHECK: posenc.attention %[[QT]], %[[K]], %[[V]] causal query_temperature(<floor_scale = 2.000000e+00, attn_scale = 5.000000e-01>) : 
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @temperature(%qt: tensor<1x6x2x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  // Llama 4's temperature: q [B, S, H, D] * t[s], then the head transpose
  %table = arith.constant dense<[1.000000000e+00, 1.346573591e+00, 1.346573591e+00, 1.549306154e+00, 1.549306154e+00, 1.693147182e+00]> : tensor<6xf32>
  %table4 = tensor.expand_shape %table [[0, 1, 2, 3]] output_shape [1, 6, 1, 1] : tensor<6xf32> into tensor<1x6x1x1xf32>
  %qs_init = tensor.empty() : tensor<1x6x2x8xf32>
  %qs = linalg.generic {indexing_maps = [#map4, #tok4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qt, %table4 : tensor<1x6x2x8xf32>, tensor<1x6x1x1xf32>) outs(%qs_init : tensor<1x6x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x6x2x8xf32>
  %q_init = tensor.empty() : tensor<1x2x6x8xf32>
  %q = linalg.transpose ins(%qs : tensor<1x6x2x8xf32>) outs(%q_init : tensor<1x2x6x8xf32>) permutation = [0, 2, 1, 3]
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}

// -----

// Near miss of temperature: the last entry is off by 0.01. The attention is
// raised on the scaled q; the table stays.
// CHECK-LABEL: func.func @near_miss_temperature_entry(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x6x2x8xf32>, %[[K:[^:]+]]: tensor<1x2x6x8xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK: arith.mulf
// CHECK-NOT: query_temperature
// CHECK: posenc.attention {{.*}} causal : 
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @near_miss_temperature_entry(%qt: tensor<1x6x2x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  // Llama 4's temperature: q [B, S, H, D] * t[s], then the head transpose
  %table = arith.constant dense<[1.000000000e+00, 1.346573591e+00, 1.346573591e+00, 1.549306154e+00, 1.549306154e+00, 1.703147173e+00]> : tensor<6xf32>
  %table4 = tensor.expand_shape %table [[0, 1, 2, 3]] output_shape [1, 6, 1, 1] : tensor<6xf32> into tensor<1x6x1x1xf32>
  %qs_init = tensor.empty() : tensor<1x6x2x8xf32>
  %qs = linalg.generic {indexing_maps = [#map4, #tok4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qt, %table4 : tensor<1x6x2x8xf32>, tensor<1x6x1x1xf32>) outs(%qs_init : tensor<1x6x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x6x2x8xf32>
  %q_init = tensor.empty() : tensor<1x2x6x8xf32>
  %q = linalg.transpose ins(%qs : tensor<1x6x2x8xf32>) outs(%q_init : tensor<1x2x6x8xf32>) permutation = [0, 2, 1, 3]
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<6x6xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x8xf32>) outs(%kt_init : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x6xf32> into tensor<2x8x6xf32>
  %s_init = tensor.empty() : tensor<2x6x6xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x6x8xf32>, tensor<2x8x6xf32>) outs(%s_zero : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %l_init = tensor.empty() : tensor<1x2x6x6xf32>
  // * 1/sqrt(8)
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // + mask
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask4 : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  // softmax over the keys
  %m_init = tensor.empty() : tensor<1x2x6xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<1x2x6x6xf32>) outs(%m_fill : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %sum_init = tensor.empty() : tensor<1x2x6x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x6x6xf32>) outs(%sum_fill : tensor<1x2x6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x6x6xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x8xf32> into tensor<2x6x8xf32>
  %o_init = tensor.empty() : tensor<2x6x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x8xf32>) outs(%o_zero : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 6, 8] : tensor<2x6x8xf32> into tensor<1x2x6x8xf32>
  return %o4 : tensor<1x2x6x8xf32>
}
