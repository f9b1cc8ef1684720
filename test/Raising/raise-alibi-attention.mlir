// RUN: posenc-opt %s --split-input-file --posenc-raise-alibi --posenc-raise-attention | FileCheck %s

// posenc-raise-alibi then posenc-raise-attention on eager attention chains
// ([B, H, S, D] = [1, 2, Sq, 8] queries, Sk keys) whose logits add an
// ALiBi bias before the causal mask: which raised biases the attention takes
// as its alibi. Each near miss differs from the positive case it names in
// the one detail it breaks.

// MPT's ALiBi (PATTERNS.md C.2) as importers emit it: slope * (j - 3),
// raised to a key-linear posenc.alibi with constant key positions
// [-3, 0], which the attention takes as its implicit j: the difference,
// slope * -3 on every logit of a row, is what softmax cancels.
// CHECK-LABEL: func.func @mpt_shifted_keys(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.alibi
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal alibi(<num_heads = 2>) {alibi_form = #posenc<alibi_form key_linear>} : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.alibi
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#bias4 = affine_map<(d0, d1, d2, d3) -> (d1, 0, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#id1 = affine_map<(d0) -> (d0)>
#key4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#head4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @mpt_shifted_keys(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // MPT: slopes 1 / 2^(k * 8 / 2), positions arange(-7, 1) sliced to the
  // last 4 keys
  %c-7_i32 = arith.constant -7 : i32
  %c1_i64 = arith.constant 1 : i64
  %one = arith.constant 1.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %a_init = tensor.empty() : tensor<8xi32>
  %arange = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%a_init : tensor<8xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %i32 = arith.trunci %i64 : i64 to i32
    %p = arith.addi %i32, %c-7_i32 : i32
    linalg.yield %p : i32
  } -> tensor<8xi32>
  %arange4 = tensor.expand_shape %arange [[0, 1, 2, 3]] output_shape [1, 1, 1, 8] : tensor<8xi32> into tensor<1x1x1x8xi32>
  %h_init = tensor.empty() : tensor<2xf32>
  %slopes = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%h_init : tensor<2xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %kk = arith.addi %i64, %c1_i64 : i64
    %kf = arith.sitofp %kk : i64 to f32
    %e = arith.mulf %kf, %four : f32
    %p = math.powf %two, %e : f32
    %s = arith.divf %one, %p : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %slopes4 = tensor.expand_shape %slopes [[0, 1, 2, 3]] output_shape [1, 2, 1, 1] : tensor<2xf32> into tensor<1x2x1x1xf32>
  %b_init = tensor.empty() : tensor<1x2x1x8xf32>
  %bias_full = linalg.generic {indexing_maps = [#key4, #head4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arange4, %slopes4 : tensor<1x1x1x8xi32>, tensor<1x2x1x1xf32>) outs(%b_init : tensor<1x2x1x8xf32>) {
  ^bb0(%in: i32, %in_0: f32, %out: f32):
    %p = arith.sitofp %in : i32 to f32
    %y = arith.mulf %p, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1x8xf32>
  %bias_c = tensor.collapse_shape %bias_full [[0, 1], [2], [3]] : tensor<1x2x1x8xf32> into tensor<2x1x8xf32>
  %bias = tensor.extract_slice %bias_c[0, 0, 4] [2, 1, 4] [1, 1, 1] : tensor<2x1x8xf32> to tensor<2x1x4xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %biased = linalg.generic {indexing_maps = [#map4, #bias4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %bias : tensor<1x2x4x4xf32>, tensor<2x1x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%biased, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
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
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @mpt_shifted_keys: key positions with a gap (not c + j)
// change the bias within a row; the attention stays decomposed.
// CHECK-LABEL: func.func @keys_not_arange(
// CHECK: posenc.alibi key_linear
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#bias4 = affine_map<(d0, d1, d2, d3) -> (d1, 0, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#id1 = affine_map<(d0) -> (d0)>
#key4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#head4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @keys_not_arange(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  %kpos = arith.constant dense<[0, 1, 2, 4]> : tensor<4xi64>
  %bias = posenc.alibi key_linear slopes(<num_heads = 2>) k_positions(%kpos : tensor<4xi64>) : tensor<2x1x4xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %biased = linalg.generic {indexing_maps = [#map4, #bias4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %bias : tensor<1x2x4x4xf32>, tensor<2x1x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%biased, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
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
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x4x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @bottom_right_short_queries: 2 queries, 4 keys and a
// top-left symmetric bias under a bottom-right causal mask: one alignment
// cannot serve both.
// CHECK-LABEL: func.func @top_left_short_queries(
// CHECK: posenc.alibi symmetric
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#bias4 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#id1 = affine_map<(d0) -> (d0)>
#key4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#head4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @top_left_short_queries(%q: tensor<1x2x2x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x2x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<2x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 2, 4] : tensor<2x4xf32> into tensor<1x1x2x4xf32>
  %bias = posenc.alibi symmetric slopes(<num_heads = 2>) {alignment = #posenc<alignment top_left>} : tensor<2x2x4xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x2x8xf32> into tensor<2x2x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x2x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x2x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 2, 4] : tensor<2x2x4xf32> into tensor<1x2x2x4xf32>
  %l_init = tensor.empty() : tensor<1x2x2x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x2x4xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %biased = linalg.generic {indexing_maps = [#map4, #bias4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %bias : tensor<1x2x2x4xf32>, tensor<2x2x4xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%biased, %mask4 : tensor<1x2x2x4xf32>, tensor<1x1x2x4xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %m_init = tensor.empty() : tensor<1x2x2xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x2x4xf32>) outs(%m_fill : tensor<1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 2, 1] : tensor<1x2x2xf32> into tensor<1x2x2x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x2x4xf32>, tensor<1x2x2x1xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x2x4xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x2x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x2x4xf32>) outs(%sum_fill : tensor<1x2x2x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x2x4xf32>, tensor<1x2x2x1xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x2x4xf32> into tensor<2x2x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x2x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x2x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 2, 8] : tensor<2x2x8xf32> into tensor<1x2x2x8xf32>
  return %o4 : tensor<1x2x2x8xf32>
}

// -----

// 2 queries, 4 keys, a symmetric bias with the mask's (bottom-right)
// alignment: the attention's alibi.
// CHECK-LABEL: func.func @bottom_right_short_queries(
// CHECK-NOT: posenc.alibi
// CHECK: posenc.attention {{.*}} causal alibi(<num_heads = 2>) : tensor<1x2x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x2x8xf32>
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#bias4 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#id1 = affine_map<(d0) -> (d0)>
#key4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#head4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @bottom_right_short_queries(%q: tensor<1x2x2x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x2x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %mask = arith.constant dense<[[0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<2x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 2, 4] : tensor<2x4xf32> into tensor<1x1x2x4xf32>
  %bias = posenc.alibi symmetric slopes(<num_heads = 2>) : tensor<2x2x4xf32>
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x2x8xf32> into tensor<2x2x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x2x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<2x2x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 2, 4] : tensor<2x2x4xf32> into tensor<1x2x2x4xf32>
  %l_init = tensor.empty() : tensor<1x2x2x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x2x4xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %biased = linalg.generic {indexing_maps = [#map4, #bias4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %bias : tensor<1x2x2x4xf32>, tensor<2x2x4xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %logits = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%biased, %mask4 : tensor<1x2x2x4xf32>, tensor<1x1x2x4xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %m_init = tensor.empty() : tensor<1x2x2xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x2x4xf32>) outs(%m_fill : tensor<1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 2, 1] : tensor<1x2x2xf32> into tensor<1x2x2x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %max4 : tensor<1x2x2x4xf32>, tensor<1x2x2x1xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<1x2x2x4xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %sum_init = tensor.empty() : tensor<1x2x2x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x2x4xf32>) outs(%sum_fill : tensor<1x2x2x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x2x4xf32>, tensor<1x2x2x1xf32>) outs(%l_init : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x2x4xf32>
  %pc = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<1x2x2x4xf32> into tensor<2x2x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %o_init = tensor.empty() : tensor<2x2x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x2x4xf32>, tensor<2x4x8xf32>) outs(%o_zero : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 2, 8] : tensor<2x2x8xf32> into tensor<1x2x2x8xf32>
  return %o4 : tensor<1x2x2x8xf32>
}
