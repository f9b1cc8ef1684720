// RUN: posenc-opt %s --split-input-file --posenc-raise-attention | FileCheck %s

// posenc-raise-attention at a dynamic length on ONNX's form of HF's padding
// mask (iree-import-onnx of torch.onnx.export): GatherND reads the [B, S]
// validity flattened, at `b * S + j`, then regroups [B*S] to [B, 1, 1, S].
// SymbolicMask.cpp splits a flat index `x * S + j` back into (x, j) when
// the loop j ranges over [0, S) (the key length, proven through the sizes).
// The chain is raise-attention-dynamic.mlir's @dynamic_padding_only with
// the key validity read that way and a causal term; the batch index comes
// from a constant table, as ONNX's GatherND index pairs do.

// CHECK-LABEL: func.func @onnx_gathernd(
// CHECK: posenc.attention %arg0, %arg1, %arg2 causal key_mask(%arg3 : tensor<2x?xi64>) :
// CHECK-NOT: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0) -> (d0)>
#bcol = affine_map<(d0, d1) -> (d0, 0)>
#keys4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @onnx_gathernd(%q: tensor<2x2x?x8xf32>, %k: tensor<2x2x?x8xf32>, %v: tensor<2x2x?x8xf32>, %am: tensor<2x?xi64>) -> tensor<2x2x?x8xf32> {
  %c2 = arith.constant 2 : index
  %n = tensor.dim %q, %c2 : tensor<2x2x?x8xf32>
  %n64 = arith.index_cast %n : index to i64
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %ninf64 = arith.constant 0xFFF0000000000000 : f64
  %scale = arith.constant 0.353553385 : f32
  %true = arith.constant true
  %c0_i64 = arith.constant 0 : i64
  %v_init = tensor.empty(%n) : tensor<2x?xi1>
  %valid = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%am : tensor<2x?xi64>) outs(%v_init : tensor<2x?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %y = arith.cmpi ne, %in, %c0_i64 : i64
    linalg.yield %y : i1
  } -> tensor<2x?xi1>
  %flatv = tensor.collapse_shape %valid [[0, 1]] : tensor<2x?xi1> into tensor<?xi1>
  %fi_init = tensor.empty(%n) : tensor<2x?xi64>
  %bidx = arith.constant dense<[[0], [1]]> : tensor<2x1xi64>
  %fi = linalg.generic {indexing_maps = [#bcol, #m2], iterator_types = ["parallel", "parallel"]} ins(%bidx : tensor<2x1xi64>) outs(%fi_init : tensor<2x?xi64>) {
  ^bb0(%b64: i64, %out: i64):
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %m = arith.muli %b64, %n64 : i64
    %f = arith.addi %m, %j64 : i64
    linalg.yield %f : i64
  } -> tensor<2x?xi64>
  %fic = tensor.collapse_shape %fi [[0, 1]] : tensor<2x?xi64> into tensor<?xi64>
  %n2 = arith.muli %n, %c2 : index
  %g_init = tensor.empty(%n2) : tensor<?xi1>
  %g = linalg.generic {indexing_maps = [#m1, #m1], iterator_types = ["parallel"]} ins(%fic : tensor<?xi64>) outs(%g_init : tensor<?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %r = arith.index_cast %in : i64 to index
    %x = tensor.extract %flatv[%r] : tensor<?xi1>
    linalg.yield %x : i1
  } -> tensor<?xi1>
  %gk = tensor.expand_shape %g [[0, 1, 2, 3]] output_shape [2, 1, 1, %n] : tensor<?xi1> into tensor<2x1x1x?xi1>
  %mb_init = tensor.empty(%n, %n) : tensor<2x1x?x?xi1>
  %both = linalg.generic {indexing_maps = [#keys4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%gk : tensor<2x1x1x?xi1>) outs(%mb_init : tensor<2x1x?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    %qi = linalg.index 2 : index
    %ki = linalg.index 3 : index
    %c = arith.cmpi sle, %ki, %qi : index
    %y = arith.andi %c, %in : i1
    linalg.yield %y : i1
  } -> tensor<2x1x?x?xi1>
  %mf_init = tensor.empty(%n, %n) : tensor<2x1x?x?xf32>
  %mask = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%both : tensor<2x1x?x?xi1>) outs(%mf_init : tensor<2x1x?x?xf32>) {
  ^bb0(%in: i1, %out: f32):
    %y = arith.select %in, %zero, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x1x?x?xf32>
  %kt_init = tensor.empty(%n) : tensor<2x2x8x?xf32>
  %kt = linalg.transpose ins(%k : tensor<2x2x?x8xf32>) outs(%kt_init : tensor<2x2x8x?xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x?x8xf32> into tensor<4x?x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x2x8x?xf32> into tensor<4x8x?xf32>
  %s_init = tensor.empty(%n, %n) : tensor<4x?x?xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<4x?x8xf32>, tensor<4x8x?xf32>) outs(%s_zero : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, %n, %n] : tensor<4x?x?xf32> into tensor<2x2x?x?xf32>
  %l_init = tensor.empty(%n, %n) : tensor<2x2x?x?xf32>
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask : tensor<2x2x?x?xf32>, tensor<2x1x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %m_init = tensor.empty(%n) : tensor<2x2x?xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<2x2x?xf32>) -> tensor<2x2x?xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<2x2x?x?xf32>) outs(%m_fill : tensor<2x2x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, %n, 1] : tensor<2x2x?xf32> into tensor<2x2x?x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<2x2x?x?xf32>, tensor<2x2x?x1xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %sum_init = tensor.empty(%n) : tensor<2x2x?x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<2x2x?x1xf32>) -> tensor<2x2x?x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<2x2x?x?xf32>) outs(%sum_fill : tensor<2x2x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<2x2x?x?xf32>, tensor<2x2x?x1xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %eq_init = tensor.empty(%n, %n) : tensor<2x2x?x?xi1>
  %eq = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2 : tensor<2x2x?x?xf32>) outs(%eq_init : tensor<2x2x?x?xi1>) {
  ^bb0(%in: f32, %out: i1):
    %x = arith.extf %in : f32 to f64
    %y = arith.cmpf oeq, %x, %ninf64 : f64
    linalg.yield %y : i1
  } -> tensor<2x2x?x?xi1>
  %all_init = tensor.empty(%n) : tensor<2x2x?x1xi1>
  %all_fill = linalg.fill ins(%true : i1) outs(%all_init : tensor<2x2x?x1xi1>) -> tensor<2x2x?x1xi1>
  %all = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%eq : tensor<2x2x?x?xi1>) outs(%all_fill : tensor<2x2x?x1xi1>) {
  ^bb0(%in: i1, %out: i1):
    %y = arith.andi %in, %out : i1
    linalg.yield %y : i1
  } -> tensor<2x2x?x1xi1>
  %guarded = linalg.generic {indexing_maps = [#row4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%all, %probs : tensor<2x2x?x1xi1>, tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %y = arith.select %in, %zero, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %pc = tensor.collapse_shape %guarded [[0, 1], [2], [3]] : tensor<2x2x?x?xf32> into tensor<4x?x?xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x?x8xf32> into tensor<4x?x8xf32>
  %o_init = tensor.empty(%n) : tensor<4x?x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<4x?x?xf32>, tensor<4x?x8xf32>) outs(%o_zero : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 2, %n, 8] : tensor<4x?x8xf32> into tensor<2x2x?x8xf32>
  return %o4 : tensor<2x2x?x8xf32>
}

// -----

// Near misses stay: the flat index of the next key (`b * S + j + 1`), and
// one linearized by another length (`b * M + j`, M an unrelated size).
// CHECK-LABEL: func.func @near_miss_next_key(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0) -> (d0)>
#keys4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @near_miss_next_key(%q: tensor<2x2x?x8xf32>, %k: tensor<2x2x?x8xf32>, %v: tensor<2x2x?x8xf32>, %am: tensor<2x?xi64>) -> tensor<2x2x?x8xf32> {
  %c2 = arith.constant 2 : index
  %n = tensor.dim %q, %c2 : tensor<2x2x?x8xf32>
  %n64 = arith.index_cast %n : index to i64
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %ninf64 = arith.constant 0xFFF0000000000000 : f64
  %scale = arith.constant 0.353553385 : f32
  %true = arith.constant true
  %c0_i64 = arith.constant 0 : i64
  %v_init = tensor.empty(%n) : tensor<2x?xi1>
  %valid = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%am : tensor<2x?xi64>) outs(%v_init : tensor<2x?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %y = arith.cmpi ne, %in, %c0_i64 : i64
    linalg.yield %y : i1
  } -> tensor<2x?xi1>
  %flatv = tensor.collapse_shape %valid [[0, 1]] : tensor<2x?xi1> into tensor<?xi1>
  %fi_init = tensor.empty(%n) : tensor<2x?xi64>
  %fi = linalg.generic {indexing_maps = [#m2], iterator_types = ["parallel", "parallel"]} outs(%fi_init : tensor<2x?xi64>) {
  ^bb0(%out: i64):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %b64 = arith.index_cast %b : index to i64
    %j64 = arith.index_cast %j : index to i64
    %m = arith.muli %b64, %n64 : i64
    %one = arith.constant 1 : i64
    %j1 = arith.addi %j64, %one : i64
    %f = arith.addi %m, %j1 : i64
    linalg.yield %f : i64
  } -> tensor<2x?xi64>
  %fic = tensor.collapse_shape %fi [[0, 1]] : tensor<2x?xi64> into tensor<?xi64>
  %n2 = arith.muli %n, %c2 : index
  %g_init = tensor.empty(%n2) : tensor<?xi1>
  %g = linalg.generic {indexing_maps = [#m1, #m1], iterator_types = ["parallel"]} ins(%fic : tensor<?xi64>) outs(%g_init : tensor<?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %r = arith.index_cast %in : i64 to index
    %x = tensor.extract %flatv[%r] : tensor<?xi1>
    linalg.yield %x : i1
  } -> tensor<?xi1>
  %gk = tensor.expand_shape %g [[0, 1, 2, 3]] output_shape [2, 1, 1, %n] : tensor<?xi1> into tensor<2x1x1x?xi1>
  %mb_init = tensor.empty(%n, %n) : tensor<2x1x?x?xi1>
  %both = linalg.generic {indexing_maps = [#keys4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%gk : tensor<2x1x1x?xi1>) outs(%mb_init : tensor<2x1x?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    %qi = linalg.index 2 : index
    %ki = linalg.index 3 : index
    %c = arith.cmpi sle, %ki, %qi : index
    %y = arith.andi %c, %in : i1
    linalg.yield %y : i1
  } -> tensor<2x1x?x?xi1>
  %mf_init = tensor.empty(%n, %n) : tensor<2x1x?x?xf32>
  %mask = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%both : tensor<2x1x?x?xi1>) outs(%mf_init : tensor<2x1x?x?xf32>) {
  ^bb0(%in: i1, %out: f32):
    %y = arith.select %in, %zero, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x1x?x?xf32>
  %kt_init = tensor.empty(%n) : tensor<2x2x8x?xf32>
  %kt = linalg.transpose ins(%k : tensor<2x2x?x8xf32>) outs(%kt_init : tensor<2x2x8x?xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x?x8xf32> into tensor<4x?x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x2x8x?xf32> into tensor<4x8x?xf32>
  %s_init = tensor.empty(%n, %n) : tensor<4x?x?xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<4x?x8xf32>, tensor<4x8x?xf32>) outs(%s_zero : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, %n, %n] : tensor<4x?x?xf32> into tensor<2x2x?x?xf32>
  %l_init = tensor.empty(%n, %n) : tensor<2x2x?x?xf32>
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask : tensor<2x2x?x?xf32>, tensor<2x1x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %m_init = tensor.empty(%n) : tensor<2x2x?xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<2x2x?xf32>) -> tensor<2x2x?xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<2x2x?x?xf32>) outs(%m_fill : tensor<2x2x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, %n, 1] : tensor<2x2x?xf32> into tensor<2x2x?x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<2x2x?x?xf32>, tensor<2x2x?x1xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %sum_init = tensor.empty(%n) : tensor<2x2x?x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<2x2x?x1xf32>) -> tensor<2x2x?x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<2x2x?x?xf32>) outs(%sum_fill : tensor<2x2x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<2x2x?x?xf32>, tensor<2x2x?x1xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %eq_init = tensor.empty(%n, %n) : tensor<2x2x?x?xi1>
  %eq = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2 : tensor<2x2x?x?xf32>) outs(%eq_init : tensor<2x2x?x?xi1>) {
  ^bb0(%in: f32, %out: i1):
    %x = arith.extf %in : f32 to f64
    %y = arith.cmpf oeq, %x, %ninf64 : f64
    linalg.yield %y : i1
  } -> tensor<2x2x?x?xi1>
  %all_init = tensor.empty(%n) : tensor<2x2x?x1xi1>
  %all_fill = linalg.fill ins(%true : i1) outs(%all_init : tensor<2x2x?x1xi1>) -> tensor<2x2x?x1xi1>
  %all = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%eq : tensor<2x2x?x?xi1>) outs(%all_fill : tensor<2x2x?x1xi1>) {
  ^bb0(%in: i1, %out: i1):
    %y = arith.andi %in, %out : i1
    linalg.yield %y : i1
  } -> tensor<2x2x?x1xi1>
  %guarded = linalg.generic {indexing_maps = [#row4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%all, %probs : tensor<2x2x?x1xi1>, tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %y = arith.select %in, %zero, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %pc = tensor.collapse_shape %guarded [[0, 1], [2], [3]] : tensor<2x2x?x?xf32> into tensor<4x?x?xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x?x8xf32> into tensor<4x?x8xf32>
  %o_init = tensor.empty(%n) : tensor<4x?x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<4x?x?xf32>, tensor<4x?x8xf32>) outs(%o_zero : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 2, %n, 8] : tensor<4x?x8xf32> into tensor<2x2x?x8xf32>
  return %o4 : tensor<2x2x?x8xf32>
}

// -----

// CHECK-LABEL: func.func @near_miss_other_stride(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0) -> (d0)>
#keys4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @near_miss_other_stride(%q: tensor<2x2x?x8xf32>, %k: tensor<2x2x?x8xf32>, %v: tensor<2x2x?x8xf32>, %am: tensor<2x?xi64>, %other: tensor<?xf32>) -> tensor<2x2x?x8xf32> {
  %c2 = arith.constant 2 : index
  %n = tensor.dim %q, %c2 : tensor<2x2x?x8xf32>
  %n64 = arith.index_cast %n : index to i64
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %ninf64 = arith.constant 0xFFF0000000000000 : f64
  %scale = arith.constant 0.353553385 : f32
  %true = arith.constant true
  %c0_i64 = arith.constant 0 : i64
  %v_init = tensor.empty(%n) : tensor<2x?xi1>
  %valid = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%am : tensor<2x?xi64>) outs(%v_init : tensor<2x?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %y = arith.cmpi ne, %in, %c0_i64 : i64
    linalg.yield %y : i1
  } -> tensor<2x?xi1>
  %flatv = tensor.collapse_shape %valid [[0, 1]] : tensor<2x?xi1> into tensor<?xi1>
  %fi_init = tensor.empty(%n) : tensor<2x?xi64>
  %fi = linalg.generic {indexing_maps = [#m2], iterator_types = ["parallel", "parallel"]} outs(%fi_init : tensor<2x?xi64>) {
  ^bb0(%out: i64):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %b64 = arith.index_cast %b : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c0 = arith.constant 0 : index
    %o = tensor.dim %other, %c0 : tensor<?xf32>
    %o64 = arith.index_cast %o : index to i64
    %m = arith.muli %b64, %o64 : i64
    %f = arith.addi %m, %j64 : i64
    linalg.yield %f : i64
  } -> tensor<2x?xi64>
  %fic = tensor.collapse_shape %fi [[0, 1]] : tensor<2x?xi64> into tensor<?xi64>
  %n2 = arith.muli %n, %c2 : index
  %g_init = tensor.empty(%n2) : tensor<?xi1>
  %g = linalg.generic {indexing_maps = [#m1, #m1], iterator_types = ["parallel"]} ins(%fic : tensor<?xi64>) outs(%g_init : tensor<?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %r = arith.index_cast %in : i64 to index
    %x = tensor.extract %flatv[%r] : tensor<?xi1>
    linalg.yield %x : i1
  } -> tensor<?xi1>
  %gk = tensor.expand_shape %g [[0, 1, 2, 3]] output_shape [2, 1, 1, %n] : tensor<?xi1> into tensor<2x1x1x?xi1>
  %mb_init = tensor.empty(%n, %n) : tensor<2x1x?x?xi1>
  %both = linalg.generic {indexing_maps = [#keys4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%gk : tensor<2x1x1x?xi1>) outs(%mb_init : tensor<2x1x?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    %qi = linalg.index 2 : index
    %ki = linalg.index 3 : index
    %c = arith.cmpi sle, %ki, %qi : index
    %y = arith.andi %c, %in : i1
    linalg.yield %y : i1
  } -> tensor<2x1x?x?xi1>
  %mf_init = tensor.empty(%n, %n) : tensor<2x1x?x?xf32>
  %mask = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%both : tensor<2x1x?x?xi1>) outs(%mf_init : tensor<2x1x?x?xf32>) {
  ^bb0(%in: i1, %out: f32):
    %y = arith.select %in, %zero, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x1x?x?xf32>
  %kt_init = tensor.empty(%n) : tensor<2x2x8x?xf32>
  %kt = linalg.transpose ins(%k : tensor<2x2x?x8xf32>) outs(%kt_init : tensor<2x2x8x?xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x?x8xf32> into tensor<4x?x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x2x8x?xf32> into tensor<4x8x?xf32>
  %s_init = tensor.empty(%n, %n) : tensor<4x?x?xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<4x?x8xf32>, tensor<4x8x?xf32>) outs(%s_zero : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, %n, %n] : tensor<4x?x?xf32> into tensor<2x2x?x?xf32>
  %l_init = tensor.empty(%n, %n) : tensor<2x2x?x?xf32>
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask : tensor<2x2x?x?xf32>, tensor<2x1x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %m_init = tensor.empty(%n) : tensor<2x2x?xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<2x2x?xf32>) -> tensor<2x2x?xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<2x2x?x?xf32>) outs(%m_fill : tensor<2x2x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, %n, 1] : tensor<2x2x?xf32> into tensor<2x2x?x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<2x2x?x?xf32>, tensor<2x2x?x1xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %sum_init = tensor.empty(%n) : tensor<2x2x?x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<2x2x?x1xf32>) -> tensor<2x2x?x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<2x2x?x?xf32>) outs(%sum_fill : tensor<2x2x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<2x2x?x?xf32>, tensor<2x2x?x1xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %eq_init = tensor.empty(%n, %n) : tensor<2x2x?x?xi1>
  %eq = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2 : tensor<2x2x?x?xf32>) outs(%eq_init : tensor<2x2x?x?xi1>) {
  ^bb0(%in: f32, %out: i1):
    %x = arith.extf %in : f32 to f64
    %y = arith.cmpf oeq, %x, %ninf64 : f64
    linalg.yield %y : i1
  } -> tensor<2x2x?x?xi1>
  %all_init = tensor.empty(%n) : tensor<2x2x?x1xi1>
  %all_fill = linalg.fill ins(%true : i1) outs(%all_init : tensor<2x2x?x1xi1>) -> tensor<2x2x?x1xi1>
  %all = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%eq : tensor<2x2x?x?xi1>) outs(%all_fill : tensor<2x2x?x1xi1>) {
  ^bb0(%in: i1, %out: i1):
    %y = arith.andi %in, %out : i1
    linalg.yield %y : i1
  } -> tensor<2x2x?x1xi1>
  %guarded = linalg.generic {indexing_maps = [#row4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%all, %probs : tensor<2x2x?x1xi1>, tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %y = arith.select %in, %zero, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %pc = tensor.collapse_shape %guarded [[0, 1], [2], [3]] : tensor<2x2x?x?xf32> into tensor<4x?x?xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x?x8xf32> into tensor<4x?x8xf32>
  %o_init = tensor.empty(%n) : tensor<4x?x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<4x?x?xf32>, tensor<4x?x8xf32>) outs(%o_zero : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 2, %n, 8] : tensor<4x?x8xf32> into tensor<2x2x?x8xf32>
  return %o4 : tensor<2x2x?x8xf32>
}

// -----

// The batch indices reversed: sequence b reads the other sequence's row.
// CHECK-LABEL: func.func @near_miss_other_row(
// CHECK-NOT: posenc.attention
// CHECK: linalg.batch_matmul
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0) -> (d0)>
#bcol = affine_map<(d0, d1) -> (d0, 0)>
#keys4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @near_miss_other_row(%q: tensor<2x2x?x8xf32>, %k: tensor<2x2x?x8xf32>, %v: tensor<2x2x?x8xf32>, %am: tensor<2x?xi64>) -> tensor<2x2x?x8xf32> {
  %c2 = arith.constant 2 : index
  %n = tensor.dim %q, %c2 : tensor<2x2x?x8xf32>
  %n64 = arith.index_cast %n : index to i64
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -3.40282347E+38 : f32
  %ninf64 = arith.constant 0xFFF0000000000000 : f64
  %scale = arith.constant 0.353553385 : f32
  %true = arith.constant true
  %c0_i64 = arith.constant 0 : i64
  %v_init = tensor.empty(%n) : tensor<2x?xi1>
  %valid = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%am : tensor<2x?xi64>) outs(%v_init : tensor<2x?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %y = arith.cmpi ne, %in, %c0_i64 : i64
    linalg.yield %y : i1
  } -> tensor<2x?xi1>
  %flatv = tensor.collapse_shape %valid [[0, 1]] : tensor<2x?xi1> into tensor<?xi1>
  %fi_init = tensor.empty(%n) : tensor<2x?xi64>
  %bidx = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %fi = linalg.generic {indexing_maps = [#bcol, #m2], iterator_types = ["parallel", "parallel"]} ins(%bidx : tensor<2x1xi64>) outs(%fi_init : tensor<2x?xi64>) {
  ^bb0(%b64: i64, %out: i64):
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %m = arith.muli %b64, %n64 : i64
    %f = arith.addi %m, %j64 : i64
    linalg.yield %f : i64
  } -> tensor<2x?xi64>
  %fic = tensor.collapse_shape %fi [[0, 1]] : tensor<2x?xi64> into tensor<?xi64>
  %n2 = arith.muli %n, %c2 : index
  %g_init = tensor.empty(%n2) : tensor<?xi1>
  %g = linalg.generic {indexing_maps = [#m1, #m1], iterator_types = ["parallel"]} ins(%fic : tensor<?xi64>) outs(%g_init : tensor<?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %r = arith.index_cast %in : i64 to index
    %x = tensor.extract %flatv[%r] : tensor<?xi1>
    linalg.yield %x : i1
  } -> tensor<?xi1>
  %gk = tensor.expand_shape %g [[0, 1, 2, 3]] output_shape [2, 1, 1, %n] : tensor<?xi1> into tensor<2x1x1x?xi1>
  %mb_init = tensor.empty(%n, %n) : tensor<2x1x?x?xi1>
  %both = linalg.generic {indexing_maps = [#keys4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%gk : tensor<2x1x1x?xi1>) outs(%mb_init : tensor<2x1x?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    %qi = linalg.index 2 : index
    %ki = linalg.index 3 : index
    %c = arith.cmpi sle, %ki, %qi : index
    %y = arith.andi %c, %in : i1
    linalg.yield %y : i1
  } -> tensor<2x1x?x?xi1>
  %mf_init = tensor.empty(%n, %n) : tensor<2x1x?x?xf32>
  %mask = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%both : tensor<2x1x?x?xi1>) outs(%mf_init : tensor<2x1x?x?xf32>) {
  ^bb0(%in: i1, %out: f32):
    %y = arith.select %in, %zero, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x1x?x?xf32>
  %kt_init = tensor.empty(%n) : tensor<2x2x8x?xf32>
  %kt = linalg.transpose ins(%k : tensor<2x2x?x8xf32>) outs(%kt_init : tensor<2x2x8x?xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x?x8xf32> into tensor<4x?x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x2x8x?xf32> into tensor<4x8x?xf32>
  %s_init = tensor.empty(%n, %n) : tensor<4x?x?xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<4x?x8xf32>, tensor<4x8x?xf32>) outs(%s_zero : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, %n, %n] : tensor<4x?x?xf32> into tensor<2x2x?x?xf32>
  %l_init = tensor.empty(%n, %n) : tensor<2x2x?x?xf32>
  %t1 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %t2 = linalg.generic {indexing_maps = [#map4, #mask4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mask : tensor<2x2x?x?xf32>, tensor<2x1x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %m_init = tensor.empty(%n) : tensor<2x2x?xf32>
  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : tensor<2x2x?xf32>) -> tensor<2x2x?xf32>
  %max = linalg.generic {indexing_maps = [#map4, #row3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t2 : tensor<2x2x?x?xf32>) outs(%m_fill : tensor<2x2x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?xf32>
  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, %n, 1] : tensor<2x2x?xf32> into tensor<2x2x?x1xf32>
  %shifted = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2, %max4 : tensor<2x2x?x?xf32>, tensor<2x2x?x1xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.subf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %exp = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%shifted : tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %sum_init = tensor.empty(%n) : tensor<2x2x?x1xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<2x2x?x1xf32>) -> tensor<2x2x?x1xf32>
  %sum = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<2x2x?x?xf32>) outs(%sum_fill : tensor<2x2x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x1xf32>
  %probs = linalg.generic {indexing_maps = [#map4, #row4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<2x2x?x?xf32>, tensor<2x2x?x1xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.divf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %eq_init = tensor.empty(%n, %n) : tensor<2x2x?x?xi1>
  %eq = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t2 : tensor<2x2x?x?xf32>) outs(%eq_init : tensor<2x2x?x?xi1>) {
  ^bb0(%in: f32, %out: i1):
    %x = arith.extf %in : f32 to f64
    %y = arith.cmpf oeq, %x, %ninf64 : f64
    linalg.yield %y : i1
  } -> tensor<2x2x?x?xi1>
  %all_init = tensor.empty(%n) : tensor<2x2x?x1xi1>
  %all_fill = linalg.fill ins(%true : i1) outs(%all_init : tensor<2x2x?x1xi1>) -> tensor<2x2x?x1xi1>
  %all = linalg.generic {indexing_maps = [#map4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%eq : tensor<2x2x?x?xi1>) outs(%all_fill : tensor<2x2x?x1xi1>) {
  ^bb0(%in: i1, %out: i1):
    %y = arith.andi %in, %out : i1
    linalg.yield %y : i1
  } -> tensor<2x2x?x1xi1>
  %guarded = linalg.generic {indexing_maps = [#row4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%all, %probs : tensor<2x2x?x1xi1>, tensor<2x2x?x?xf32>) outs(%l_init : tensor<2x2x?x?xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %y = arith.select %in, %zero, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x?x?xf32>
  %pc = tensor.collapse_shape %guarded [[0, 1], [2], [3]] : tensor<2x2x?x?xf32> into tensor<4x?x?xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x?x8xf32> into tensor<4x?x8xf32>
  %o_init = tensor.empty(%n) : tensor<4x?x8xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<4x?x?xf32>, tensor<4x?x8xf32>) outs(%o_zero : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 2, %n, 8] : tensor<4x?x8xf32> into tensor<2x2x?x8xf32>
  return %o4 : tensor<2x2x?x8xf32>
}

