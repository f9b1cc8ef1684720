// RUN: posenc-opt %s --split-input-file --posenc-raise-attention | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-raise-attention=print-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// gpt-oss's attention sinks as HF writes them: a per-head logit appended as
// an extra key column, a row max subtracted, softmax over Sk + 1 columns,
// the sink column dropped. Each near miss differs from the positive case in
// the one detail it breaks.
// STATS: posenc-raise-attention: 1 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv
// STATS-NOT: posenc-raise-attention

#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#head = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#query = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @sinks(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>, %[[S:[^:]+]]: tensor<2xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] sinks(%[[S]] : tensor<2xf32>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.batch_matmul
func.func @sinks(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %sinks: tensor<2xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %logits = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // The sink logit as a fifth column.
  %sk3 = tensor.expand_shape %sinks [[0, 1, 2]] output_shape [1, 2, 1] : tensor<2xf32> into tensor<1x2x1xf32>
  %col_init = tensor.empty() : tensor<1x2x4x1xf32>
  %col = linalg.generic {indexing_maps = [#head, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sk3 : tensor<1x2x1xf32>) outs(%col_init : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x4x1xf32>
  %comb = tensor.concat dim(3) %logits, %col : (tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) -> tensor<1x2x4x5xf32>
  %c_init = tensor.empty() : tensor<1x2x4x5xf32>
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%comb : tensor<1x2x4x5xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%comb, %max4 : tensor<1x2x4x5xf32>, tensor<1x2x4x1xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x5xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x5xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs5 = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x5xf32>, tensor<1x2x4x1xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  // Drop the sink column.
  %probs = tensor.extract_slice %probs5[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x5xf32> to tensor<1x2x4x4xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#head = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#query = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// The column varies with the query row, not the head: not a sink.
// CHECK-LABEL: func.func @per_query_column(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_matmul
func.func @per_query_column(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %sinks: tensor<4xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %logits = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // The sink logit as a fifth column.
  %sk3 = tensor.expand_shape %sinks [[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xf32> into tensor<1x4x1xf32>
  %col_init = tensor.empty() : tensor<1x2x4x1xf32>
  %col = linalg.generic {indexing_maps = [#query, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sk3 : tensor<1x4x1xf32>) outs(%col_init : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x4x1xf32>
  %comb = tensor.concat dim(3) %logits, %col : (tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) -> tensor<1x2x4x5xf32>
  %c_init = tensor.empty() : tensor<1x2x4x5xf32>
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%comb : tensor<1x2x4x5xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%comb, %max4 : tensor<1x2x4x5xf32>, tensor<1x2x4x1xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x5xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x5xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs5 = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x5xf32>, tensor<1x2x4x1xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  // Drop the sink column.
  %probs = tensor.extract_slice %probs5[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x5xf32> to tensor<1x2x4x4xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#head = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#query = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// The slice drops the first key instead of the sink column.
// CHECK-LABEL: func.func @drops_first_key(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_matmul
func.func @drops_first_key(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %sinks: tensor<2xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %logits = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // The sink logit as a fifth column.
  %sk3 = tensor.expand_shape %sinks [[0, 1, 2]] output_shape [1, 2, 1] : tensor<2xf32> into tensor<1x2x1xf32>
  %col_init = tensor.empty() : tensor<1x2x4x1xf32>
  %col = linalg.generic {indexing_maps = [#head, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sk3 : tensor<1x2x1xf32>) outs(%col_init : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x4x1xf32>
  %comb = tensor.concat dim(3) %logits, %col : (tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) -> tensor<1x2x4x5xf32>
  %c_init = tensor.empty() : tensor<1x2x4x5xf32>
  %m_init = tensor.empty() : tensor<1x2x4xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%comb : tensor<1x2x4x5xf32>) outs(%m_fill : tensor<1x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%comb, %max4 : tensor<1x2x4x5xf32>, tensor<1x2x4x1xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x4x5xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  %sum_init = tensor.empty() : tensor<1x2x4x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x5xf32>) outs(%sum_fill : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x1xf32>
  %probs5 = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x5xf32>, tensor<1x2x4x1xf32>) outs(%c_init : tensor<1x2x4x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x5xf32>
  // Drop the sink column.
  %probs = tensor.extract_slice %probs5[0, 0, 0, 1] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x5xf32> to tensor<1x2x4x4xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}
