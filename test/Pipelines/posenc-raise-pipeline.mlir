// RUN: posenc-opt %s --posenc-raise-pipeline | FileCheck %s
// RUN: posenc-opt %s --pass-pipeline="builtin.module(func.func(posenc-raise-pipeline))" | FileCheck %s
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-raise-pipeline{anchor=})" | FileCheck %s
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-raise-pipeline{fuse=false})" | FileCheck %s --check-prefix=NOFUSE
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-raise-pipeline{print-stats})" -o /dev/null 2>&1 | grep "^posenc-" | FileCheck %s --check-prefix=STATS
// RUN: posenc-opt %s --posenc-raise-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-raise-pipeline{anchor= fuse=false})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANY

// posenc-raise-pipeline, the whole raising sequence, on importer-style IR
// (one linalg.generic per elementwise op, as torch-mlir emits): HF
// half-split RoPE on Q and K from shared cos/sin tables (implicit positions
// 0..3), then eager causal attention over the rotated Q and K
// ([B, H, S, D] = [1, 2, 4, 8]: batch_matmul(Q, K^T), * 1/sqrt(8), + HF's
// constant causal mask, softmax, batch_matmul with V). The rotaries are
// raised, the chain becomes one posenc.attention, and the rotaries are fused
// into it: nothing of the decomposed form is left. Run on the module (the
// default anchor func.func, or any op with anchor=) or nested in a function,
// the result is the same.

// CHECK-LABEL: func.func @rope_attention(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.
// CHECK-NOT: math.
// CHECK-NOT: posenc.rotary
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NEXT: %[[O:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal rope(<layout = half_split, rotary_dim = 8>, %[[INV]] : tensor<4xf32>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NEXT: return %[[O]]

// fuse=false stops before posenc-fuse-attention: two raised rotaries, and
// the raised attention reads them.
// NOFUSE-LABEL: func.func @rope_attention(
// NOFUSE-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// NOFUSE-NOT: linalg.
// NOFUSE: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// NOFUSE-NEXT: %[[QR:.+]] = posenc.rotary %[[Q]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) : tensor<1x2x4x8xf32>
// NOFUSE-NEXT: %[[KR:.+]] = posenc.rotary %[[K]] half_split dim 8 inv_freq(%[[INV]] : tensor<4xf32>) : tensor<1x2x4x8xf32>
// NOFUSE-NEXT: %[[O:.+]] = posenc.attention %[[QR]], %[[KR]], %[[V]] causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// NOFUSE-NEXT: return %[[O]]

// print-stats: one count line per raising pass, in pipeline order.
// STATS: posenc-raise-rotary: 2 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-alibi: 0 raised-alibi, 0 raised-slope-configs, 0 folded-key-slices, 0 erased-scans
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 0 raised-repeat-kv
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NOT: posenc-

// The pass list (RaisePipeline.h): nested on func.func by default.
// DEFAULT: builtin.module(
// DEFAULT-NEXT: func.func(
// DEFAULT-NEXT: posenc-unify-dynamic-dims,
// DEFAULT-NEXT: cse,
// DEFAULT-NEXT: posenc-raise-rotary{print-stats=false},
// DEFAULT-NEXT: posenc-raise-alibi{print-stats=false},
// DEFAULT-NEXT: posenc-raise-absolute{print-stats=false},
// DEFAULT-NEXT: cse,
// DEFAULT-NEXT: posenc-raise-attention{print-stats=false zero-padding-rows=false},
// DEFAULT-NEXT: posenc-fuse-attention{print-stats=false},
// DEFAULT-NEXT: canonicalize{
// DEFAULT-NEXT: cse
// DEFAULT-NEXT: )
// DEFAULT-NEXT: )

// anchor= nests on any op; fuse=false drops posenc-fuse-attention.
// ANY: builtin.module(
// ANY-NEXT: any(
// ANY-NEXT: posenc-unify-dynamic-dims,
// ANY-NEXT: cse,
// ANY-NEXT: posenc-raise-rotary{print-stats=false},
// ANY-NEXT: posenc-raise-alibi{print-stats=false},
// ANY-NEXT: posenc-raise-absolute{print-stats=false},
// ANY-NEXT: cse,
// ANY-NEXT: posenc-raise-attention{print-stats=false zero-padding-rows=false},
// ANY-NEXT: canonicalize{
// ANY-NEXT: cse
// ANY-NEXT: )
// ANY-NEXT: )

#map1 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#table4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @rope_attention(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  // cos/sin tables: positions = arange(4), f = float(positions) * inv_freq,
  // emb = concat(f, f)
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
  %o_init = tensor.empty() : tensor<1x2x4x8xf32>
  %h_init = tensor.empty() : tensor<1x2x4x4xf32>
  // q * cos + rotate_half(q) * sin, rotate_half(q) = concat(-q2, q1)
  %qc0 = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q, %cos4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %q1 = tensor.extract_slice %q[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %q2 = tensor.extract_slice %q[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %qneg = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q2 : tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %qrot = tensor.concat dim(3) %qneg, %q1 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x8xf32>
  %qs = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qrot, %sin4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %qr = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qc0, %qs : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  // the same for k
  %kc0 = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k, %cos4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %k1 = tensor.extract_slice %k[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %k2 = tensor.extract_slice %k[0, 0, 0, 4] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
  %kneg = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k2 : tensor<1x2x4x4xf32>) outs(%h_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %krot = tensor.concat dim(3) %kneg, %k1 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x8xf32>
  %ks = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%krot, %sin4 : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.mulf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %kr = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kc0, %ks : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%o_init : tensor<1x2x4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  // causal mask, HF style: 0 on and below the diagonal, finfo(f32).min above
  %mask = arith.constant dense<[[0.000000e+00, -3.40282347E+38, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, -3.40282347E+38, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, -3.40282347E+38], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x4xf32>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
  // scores = rotated Q times rotated K^T
  %kt_init = tensor.empty() : tensor<1x2x8x4xf32>
  %kt = linalg.transpose ins(%kr : tensor<1x2x4x8xf32>) outs(%kt_init : tensor<1x2x8x4xf32>) permutation = [0, 1, 3, 2]
  %qcl = tensor.collapse_shape %qr [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %s_init = tensor.empty() : tensor<2x4x4xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%qcl, %ktc : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%s_zero : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  // * 1/sqrt(8), + mask
  %l_init = tensor.empty() : tensor<1x2x4x4xf32>
  %scaled = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  %logits = linalg.generic {indexing_maps = [#map4, #table4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask4 : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%l_init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %y = arith.addf %in, %in_0 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x4xf32>
  // softmax over the keys: max, subtract, exp, sum, divide
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
  %out_init = tensor.empty() : tensor<2x4x8xf32>
  %out_zero = linalg.fill ins(%zero : f32) outs(%out_init : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%out_zero : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}
