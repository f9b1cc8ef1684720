// RUN: posenc-opt %s --allow-unregistered-dialect --split-input-file --posenc-raise-attention | FileCheck %s
// RUN: posenc-opt %s --allow-unregistered-dialect --split-input-file --posenc-raise-attention=print-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// posenc-raise-attention on masks that the constant evaluator computes the
// way HF's create_chunked_causal_mask builds them from an attention_mask
// (transformers v5, Llama 4; torch-mlir's form, see the llama4_chunked
// export): the left padding counted with a cumsum (tm_tensor.scan), an i1
// comparison and an integer sum reduction, gathered per batch index with
// tensor.extract, then (kv - left) // 2 == (q - left) // 2 and kv <= q.
// [B, H, S, D] = [1, 2, 6, 8] in the form of raise-attention-local.mlir's
// chunk_add. The scan is erased once the mask it fed is raised. Generated
// by a script (the chain is chunk_add's); each near miss changes one detail.

// STATS: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 1 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures, 1 erased-scans
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures, 0 erased-scans
// STATS-NEXT: posenc-raise-attention: 0 raised-attention, 0 raised-causal-masks, 0 raised-repeat-kv, 0 raised-window-masks, 0 raised-chunk-masks, 0 raised-softcaps, 0 raised-query-temperatures, 0 erased-scans
// STATS-NOT: posenc-raise-attention

// No padding: left = 0, chunks of 2 from key 0: chunk_size(2); the scan goes.
// CHECK-LABEL: func.func @chunk_padding_count(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x6x8xf32>, %[[K:[^:]+]]: tensor<1x2x6x8xf32>, %[[V:[^:]+]]: tensor<1x2x6x8xf32>
// CHECK-NOT: tm_tensor.scan
// CHECK-NOT: linalg.batch_matmul
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal chunk_size(2) : 
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: tm_tensor.scan
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0, d1) -> (d0)>
func.func @chunk_padding_count(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %c0_i64 = arith.constant 0 : i64
  %chunk = arith.constant 2 : i64
  %am = arith.constant dense<[[1, 1, 1, 1, 1, 1]]> : tensor<1x6xi64>
  %z_init = tensor.empty() : tensor<1x6xi64>
  %z = linalg.fill ins(%c0_i64 : i64) outs(%z_init : tensor<1x6xi64>) -> tensor<1x6xi64>
  %acc_init = tensor.empty() : tensor<1xi64>
  %acc0 = linalg.fill ins(%c0_i64 : i64) outs(%acc_init : tensor<1xi64>) -> tensor<1xi64>
  %cs:2 = "tm_tensor.scan"(%am, %z, %acc0) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    "tm_tensor.yield"(%s) : (i64) -> ()
  }) : (tensor<1x6xi64>, tensor<1x6xi64>, tensor<1xi64>) -> (tensor<1x6xi64>, tensor<1xi64>)
  %flag_init = tensor.empty() : tensor<1x6xi1>
  %flags = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%cs#0 : tensor<1x6xi64>) outs(%flag_init : tensor<1x6xi1>) {
  ^bb0(%in: i64, %out: i1):
    %y = arith.cmpi eq, %in, %c0_i64 : i64
    linalg.yield %y : i1
  } -> tensor<1x6xi1>
  %left = linalg.generic {indexing_maps = [#m2, #m1], iterator_types = ["parallel", "reduction"]} ins(%flags : tensor<1x6xi1>) outs(%acc0 : tensor<1xi64>) {
  ^bb0(%in: i1, %out: i64):
    %x = arith.extui %in : i1 to i64
    %y = arith.addi %x, %out : i64
    linalg.yield %y : i64
  } -> tensor<1xi64>
  // HF's left_padding[batch_idx]: a gather by the batch index
  %lp_init = tensor.empty() : tensor<1x1x1x1xi64>
  %lp = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%lp_init : tensor<1x1x1x1xi64>) {
  ^bb0(%out: i64):
    %b = linalg.index 0 : index
    %x = tensor.extract %left[%b] : tensor<1xi64>
    linalg.yield %x : i64
  } -> tensor<1x1x1x1xi64>
  // (kv - left) // chunk == (q - left) // chunk, and kv <= q
  %mb_init = tensor.empty() : tensor<1x1x6x6xi1>
  %both = linalg.generic {indexing_maps = [#tok4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%lp : tensor<1x1x1x1xi64>) outs(%mb_init : tensor<1x1x6x6xi1>) {
  ^bb0(%l: i64, %out: i1):
    %qi = linalg.index 2 : index
    %ki = linalg.index 3 : index
    %q64 = arith.index_cast %qi : index to i64
    %k64 = arith.index_cast %ki : index to i64
    %qs = arith.subi %q64, %l : i64
    %ks = arith.subi %k64, %l : i64
    %qf = arith.sitofp %qs : i64 to f64
    %kf = arith.sitofp %ks : i64 to f64
    %cf = arith.sitofp %chunk : i64 to f64
    %qd = arith.divf %qf, %cf : f64
    %kd = arith.divf %kf, %cf : f64
    %qfl = math.floor %qd : f64
    %kfl = math.floor %kd : f64
    %qc = arith.fptosi %qfl : f64 to i64
    %kc = arith.fptosi %kfl : f64 to i64
    %same = arith.cmpi eq, %kc, %qc : i64
    %causal = arith.cmpi sle, %k64, %q64 : i64
    %y = arith.andi %same, %causal : i1
    linalg.yield %y : i1
  } -> tensor<1x1x6x6xi1>
  %mf_init = tensor.empty() : tensor<1x1x6x6xf32>
  %mask = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%both : tensor<1x1x6x6xi1>) outs(%mf_init : tensor<1x1x6x6xf32>) {
  ^bb0(%in: i1, %out: f32):
    %y = arith.select %in, %zero, %big : f32
    linalg.yield %y : f32
  } -> tensor<1x1x6x6xf32>
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
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
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

// Near miss of chunk_padding_count: one left-padded token (left = 1) shifts
// every chunk by one key; not a chunk_size mask (positions start at 0 here).
// CHECK-LABEL: func.func @near_miss_chunk_left_padded(
// CHECK: tm_tensor.scan
// CHECK-COUNT-2: linalg.batch_matmul
// CHECK-NOT: posenc.attention
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0, d1) -> (d0)>
func.func @near_miss_chunk_left_padded(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %c0_i64 = arith.constant 0 : i64
  %chunk = arith.constant 2 : i64
  %am = arith.constant dense<[[0, 1, 1, 1, 1, 1]]> : tensor<1x6xi64>
  %z_init = tensor.empty() : tensor<1x6xi64>
  %z = linalg.fill ins(%c0_i64 : i64) outs(%z_init : tensor<1x6xi64>) -> tensor<1x6xi64>
  %acc_init = tensor.empty() : tensor<1xi64>
  %acc0 = linalg.fill ins(%c0_i64 : i64) outs(%acc_init : tensor<1xi64>) -> tensor<1xi64>
  %cs:2 = "tm_tensor.scan"(%am, %z, %acc0) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    "tm_tensor.yield"(%s) : (i64) -> ()
  }) : (tensor<1x6xi64>, tensor<1x6xi64>, tensor<1xi64>) -> (tensor<1x6xi64>, tensor<1xi64>)
  %flag_init = tensor.empty() : tensor<1x6xi1>
  %flags = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%cs#0 : tensor<1x6xi64>) outs(%flag_init : tensor<1x6xi1>) {
  ^bb0(%in: i64, %out: i1):
    %y = arith.cmpi eq, %in, %c0_i64 : i64
    linalg.yield %y : i1
  } -> tensor<1x6xi1>
  %left = linalg.generic {indexing_maps = [#m2, #m1], iterator_types = ["parallel", "reduction"]} ins(%flags : tensor<1x6xi1>) outs(%acc0 : tensor<1xi64>) {
  ^bb0(%in: i1, %out: i64):
    %x = arith.extui %in : i1 to i64
    %y = arith.addi %x, %out : i64
    linalg.yield %y : i64
  } -> tensor<1xi64>
  // HF's left_padding[batch_idx]: a gather by the batch index
  %lp_init = tensor.empty() : tensor<1x1x1x1xi64>
  %lp = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%lp_init : tensor<1x1x1x1xi64>) {
  ^bb0(%out: i64):
    %b = linalg.index 0 : index
    %x = tensor.extract %left[%b] : tensor<1xi64>
    linalg.yield %x : i64
  } -> tensor<1x1x1x1xi64>
  // (kv - left) // chunk == (q - left) // chunk, and kv <= q
  %mb_init = tensor.empty() : tensor<1x1x6x6xi1>
  %both = linalg.generic {indexing_maps = [#tok4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%lp : tensor<1x1x1x1xi64>) outs(%mb_init : tensor<1x1x6x6xi1>) {
  ^bb0(%l: i64, %out: i1):
    %qi = linalg.index 2 : index
    %ki = linalg.index 3 : index
    %q64 = arith.index_cast %qi : index to i64
    %k64 = arith.index_cast %ki : index to i64
    %qs = arith.subi %q64, %l : i64
    %ks = arith.subi %k64, %l : i64
    %qf = arith.sitofp %qs : i64 to f64
    %kf = arith.sitofp %ks : i64 to f64
    %cf = arith.sitofp %chunk : i64 to f64
    %qd = arith.divf %qf, %cf : f64
    %kd = arith.divf %kf, %cf : f64
    %qfl = math.floor %qd : f64
    %kfl = math.floor %kd : f64
    %qc = arith.fptosi %qfl : f64 to i64
    %kc = arith.fptosi %kfl : f64 to i64
    %same = arith.cmpi eq, %kc, %qc : i64
    %causal = arith.cmpi sle, %k64, %q64 : i64
    %y = arith.andi %same, %causal : i1
    linalg.yield %y : i1
  } -> tensor<1x1x6x6xi1>
  %mf_init = tensor.empty() : tensor<1x1x6x6xf32>
  %mask = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%both : tensor<1x1x6x6xi1>) outs(%mf_init : tensor<1x1x6x6xf32>) {
  ^bb0(%in: i1, %out: f32):
    %y = arith.select %in, %zero, %big : f32
    linalg.yield %y : f32
  } -> tensor<1x1x6x6xf32>
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
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
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

// Near miss of chunk_padding_count: the padding counted by an f32 sum
// reduction. A float reduction's order (and so its rounding) is the
// compiler's: the evaluator does not compute it, and the mask stays.
// CHECK-LABEL: func.func @near_miss_float_padding_count(
// CHECK: tm_tensor.scan
// CHECK-COUNT-2: linalg.batch_matmul
// CHECK-NOT: posenc.attention
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#tok4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0, d1) -> (d0)>
#v1 = affine_map<(d0) -> (d0)>
func.func @near_miss_float_padding_count(%q: tensor<1x2x6x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.353553385 : f32
  %c0_i64 = arith.constant 0 : i64
  %chunk = arith.constant 2 : i64
  %am = arith.constant dense<[[1, 1, 1, 1, 1, 1]]> : tensor<1x6xi64>
  %z_init = tensor.empty() : tensor<1x6xi64>
  %z = linalg.fill ins(%c0_i64 : i64) outs(%z_init : tensor<1x6xi64>) -> tensor<1x6xi64>
  %acc_init = tensor.empty() : tensor<1xi64>
  %acc0 = linalg.fill ins(%c0_i64 : i64) outs(%acc_init : tensor<1xi64>) -> tensor<1xi64>
  %cs:2 = "tm_tensor.scan"(%am, %z, %acc0) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    "tm_tensor.yield"(%s) : (i64) -> ()
  }) : (tensor<1x6xi64>, tensor<1x6xi64>, tensor<1xi64>) -> (tensor<1x6xi64>, tensor<1xi64>)
  %flag_init = tensor.empty() : tensor<1x6xf32>
  %flags = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%cs#0 : tensor<1x6xi64>) outs(%flag_init : tensor<1x6xf32>) {
  ^bb0(%in: i64, %out: f32):
    %c = arith.cmpi eq, %in, %c0_i64 : i64
    %y = arith.uitofp %c : i1 to f32
    linalg.yield %y : f32
  } -> tensor<1x6xf32>
  %accf_init = tensor.empty() : tensor<1xf32>
  %accf = linalg.fill ins(%zero : f32) outs(%accf_init : tensor<1xf32>) -> tensor<1xf32>
  %leftf = linalg.generic {indexing_maps = [#m2, #m1], iterator_types = ["parallel", "reduction"]} ins(%flags : tensor<1x6xf32>) outs(%accf : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1xf32>
  %left = linalg.generic {indexing_maps = [#v1, #v1], iterator_types = ["parallel"]} ins(%leftf : tensor<1xf32>) outs(%acc0 : tensor<1xi64>) {
  ^bb0(%in: f32, %out: i64):
    %y = arith.fptosi %in : f32 to i64
    linalg.yield %y : i64
  } -> tensor<1xi64>
  // HF's left_padding[batch_idx]: a gather by the batch index
  %lp_init = tensor.empty() : tensor<1x1x1x1xi64>
  %lp = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%lp_init : tensor<1x1x1x1xi64>) {
  ^bb0(%out: i64):
    %b = linalg.index 0 : index
    %x = tensor.extract %left[%b] : tensor<1xi64>
    linalg.yield %x : i64
  } -> tensor<1x1x1x1xi64>
  // (kv - left) // chunk == (q - left) // chunk, and kv <= q
  %mb_init = tensor.empty() : tensor<1x1x6x6xi1>
  %both = linalg.generic {indexing_maps = [#tok4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%lp : tensor<1x1x1x1xi64>) outs(%mb_init : tensor<1x1x6x6xi1>) {
  ^bb0(%l: i64, %out: i1):
    %qi = linalg.index 2 : index
    %ki = linalg.index 3 : index
    %q64 = arith.index_cast %qi : index to i64
    %k64 = arith.index_cast %ki : index to i64
    %qs = arith.subi %q64, %l : i64
    %ks = arith.subi %k64, %l : i64
    %qf = arith.sitofp %qs : i64 to f64
    %kf = arith.sitofp %ks : i64 to f64
    %cf = arith.sitofp %chunk : i64 to f64
    %qd = arith.divf %qf, %cf : f64
    %kd = arith.divf %kf, %cf : f64
    %qfl = math.floor %qd : f64
    %kfl = math.floor %kd : f64
    %qc = arith.fptosi %qfl : f64 to i64
    %kc = arith.fptosi %kfl : f64 to i64
    %same = arith.cmpi eq, %kc, %qc : i64
    %causal = arith.cmpi sle, %k64, %q64 : i64
    %y = arith.andi %same, %causal : i1
    linalg.yield %y : i1
  } -> tensor<1x1x6x6xi1>
  %mf_init = tensor.empty() : tensor<1x1x6x6xf32>
  %mask = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%both : tensor<1x1x6x6xi1>) outs(%mf_init : tensor<1x1x6x6xf32>) {
  ^bb0(%in: i1, %out: f32):
    %y = arith.select %in, %zero, %big : f32
    linalg.yield %y : f32
  } -> tensor<1x1x6x6xf32>
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
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask : tensor<1x2x6x6xf32>, tensor<1x1x6x6xf32>) outs(%l_init : tensor<1x2x6x6xf32>) {
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
