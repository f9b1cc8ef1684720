// RUN: posenc-opt %s --split-input-file --posenc-raise-rotary | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-raise-rotary=print-stats -o /dev/null 2>&1 | grep -e "remark:" -e "^posenc-raise-rotary:" | FileCheck %s --check-prefix=STATS

// posenc-raise-rotary on GPT-J's interleaved RoPE (PATTERNS.md A.2, B.3) and
// its variants, in torch-mlir's style (one linalg.generic per elementwise
// op). Shapes: x = [B, S, H, D] = [1, 4, 2, 16] (token_dim = 1), rotary dim 8
// of 16 unless said. GPT-J's tables are rows of `embed_positions` ([P, 8] =
// [8, 8], row p = [sin(p w_0..3), cos(p w_0..3)] computed in f32, w_i =
// 10000^(-2i/8)) gathered by positions, halves sliced and
// repeat_interleave'd to [1, S, 1, 8]; rotate_every_two(x) = [-x1, x0, -x3,
// x2, ...] from stride-2 slices. Each near miss differs from the positive
// case it names in the one detail it breaks.

// The STATS run: print-stats writes one line per split, in order, after the
// remark of each raised rotary (which frequency source it got).
// STATS: remark: rotary raised; inv_freq equals the unscaled ladder of rope_theta = 1.000000e+04
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder of rope_theta = 1.000000e+04
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: remark: rotary raised with cos/sin tables sliced from the gathered table (not sin/cos of f32 frequencies)
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: remark: rotary raised with cos/sin tables sliced
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: remark: rotary raised with cos/sin tables sliced
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 1 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NOT: posenc-raise-rotary

// GPT-J as exported: arange(4) through the negative-index wrap
// `pos < 0 ? pos + 8 : pos`, rotary on x[..., :8], x[..., 8:] passed
// through. The table is sin/cos of f32 frequencies: inv_freq is recovered by
// value (atan2 of row 1, then every row within 4 ulps), the partial rotary
// folds, and nothing of the gather stays.
// CHECK-LABEL: func.func @gptj(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x16xf32>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: tensor.extract
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @gptj(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// gptj with positions arange(4) + 3 (rows 3..6 of the table), no wrap,
// rotary over the whole head (D = 8): the start becomes the offset.
// CHECK-LABEL: func.func @arange_offset_no_wrap(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[OFF:.+]] = arith.constant 3 : index
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) offset(%[[OFF]] : index) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @arange_offset_no_wrap(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    %o = arith.constant 3 : i64
    %vo = arith.addi %v, %o : i64
    linalg.yield %vo : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %x[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  return %sum : tensor<1x4x2x8xf32>
}

// -----

// gptj with runtime positions and no wrap: they become the positions operand
// (rows outside [0, 8) are undefined in the gather too).
// CHECK-LABEL: func.func @runtime_positions(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x16xf32>, %[[POS:[^:]+]]: tensor<1x4xi64>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[P:.+]] = tensor.collapse_shape %[[POS]] {{\[\[}}0, 1]] : tensor<1x4xi64> into tensor<4xi64>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) positions(%[[P]] : tensor<4xi64>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @runtime_positions(%x: tensor<1x4x2x16xf32>, %pos: tensor<1x4xi64>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// Tables computed in the IR instead of gathered:
// repeat_interleave(cos(f), 2) and repeat_interleave(sin(f), 2) with
// f = float(arange(4)) * inv_freq; inv_freq stays the operand.
// CHECK-LABEL: func.func @repeat_of_computed_tables(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x16xf32>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @repeat_of_computed_tables(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %p3 = tensor.expand_shape %ar [[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xi64> into tensor<1x4x1xi64>
  %e5 = tensor.empty() : tensor<1x4x1xf32>
  %pf = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p3 : tensor<1x4x1xi64>) outs(%e5 : tensor<1x4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %v = arith.sitofp %in : i64 to f32
    linalg.yield %v : f32
  } -> tensor<1x4x1xf32>
  %e6 = tensor.empty() : tensor<1x4x4xf32>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%e6 : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4xf32>
  %sin_h_t = tensor.empty() : tensor<1x4x4xf32>
  %sin_h = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%f : tensor<1x4x4xf32>) outs(%sin_h_t : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin_c = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h_t = tensor.empty() : tensor<1x4x4xf32>
  %cos_h = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%f : tensor<1x4x4xf32>) outs(%cos_h_t : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos_c = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos_c : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin_c : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// Cohere's order: cos(repeat_interleave(f, 2)), sin(repeat_interleave(f, 2)).
// CHECK-LABEL: func.func @computed_from_repeated_angles(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x16xf32>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @computed_from_repeated_angles(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %p3 = tensor.expand_shape %ar [[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xi64> into tensor<1x4x1xi64>
  %e5 = tensor.empty() : tensor<1x4x1xf32>
  %pf = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p3 : tensor<1x4x1xi64>) outs(%e5 : tensor<1x4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %v = arith.sitofp %in : i64 to f32
    linalg.yield %v : f32
  } -> tensor<1x4x1xf32>
  %e6 = tensor.empty() : tensor<1x4x4xf32>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%e6 : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4xf32>
  %sin_f_e = tensor.expand_shape %f [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_f_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_f_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_f_e : tensor<1x4x1x4xf32>) outs(%sin_f_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin_f_c = tensor.collapse_shape %sin_f_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %sin_t = tensor.empty() : tensor<1x4x1x8xf32>
  %sin = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sin_f_c : tensor<1x4x1x8xf32>) outs(%sin_t : tensor<1x4x1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x8xf32>
  %cos_f_e = tensor.expand_shape %f [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_f_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_f_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_f_e : tensor<1x4x1x4xf32>) outs(%cos_f_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos_f_c = tensor.collapse_shape %cos_f_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_t = tensor.empty() : tensor<1x4x1x8xf32>
  %cos = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cos_f_c : tensor<1x4x1x8xf32>) outs(%cos_t : tensor<1x4x1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// gptj with one entry of the table off by 0.25 (row 5, sin column 1): no
// frequency reproduces it, so the rotary gets the cos/sin halves of the
// table as new constants (exact); row 5 of the sin table keeps the entry.
// CHECK-LABEL: func.func @table_not_sin_cos(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x16xf32>
// CHECK-DAG: %[[COS:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [0.540302277, 0.995004177, 0.999949991, 0.999999523],
// CHECK-DAG: %[[SIN:.+]] = arith.constant dense<{{\[\[}}0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.841470957, {{.*}}, [-0.958924293, 0.72942555, 0.0499791652, 0.0049999794],
// CHECK-NOT: inv_freq
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 cos_sin(%[[COS]], %[[SIN]] : tensor<8x4xf32>, tensor<8x4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @table_not_sin_cos(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 7.294255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// gptj with the halves swapped: x is multiplied by the sin columns and
// rotate_every_two(x) by the cos columns. That is not sin/cos of any angle
// in the roles the multiplies give them: cos_sin tables, cos = the sin
// columns (row 0 all 0), sin = the cos columns (row 0 all 1).
// CHECK-LABEL: func.func @table_columns_swapped(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x16xf32>
// CHECK-DAG: %[[COS:.+]] = arith.constant dense<{{\[\[}}0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.841470957,
// CHECK-DAG: %[[SIN:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [0.540302277,
// CHECK-NOT: inv_freq
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 cos_sin(%[[COS]], %[[SIN]] : tensor<8x4xf32>, tensor<8x4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @table_columns_swapped(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// gptj with the table a function argument: its halves are sliced and copied
// into cos/sin tables of their own (LLVM 22's CPU pipeline miscompiles
// gathers from a strided slice).
// CHECK-LABEL: func.func @table_argument(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x16xf32>, %[[T:[^:]+]]: tensor<8x8xf32>
// CHECK: %[[CS:.+]] = tensor.extract_slice %[[T]][0, 4] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
// CHECK: %[[C:.+]] = linalg.copy ins(%[[CS]] : tensor<8x4xf32>)
// CHECK: %[[SS:.+]] = tensor.extract_slice %[[T]][0, 0] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
// CHECK: %[[S:.+]] = linalg.copy ins(%[[SS]] : tensor<8x4xf32>)
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 cos_sin(%[[C]], %[[S]] : tensor<8x4xf32>, tensor<8x4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @table_argument(%x: tensor<1x4x2x16xf32>, %table: tensor<8x8xf32>) -> tensor<1x4x2x16xf32> {
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// runtime_positions through PyTorch's negative-index wrap (HF GPT-J's
// embed_positions[position_ids]): position -1 reads row 7, so the rotary
// reads the wrapped positions `p < 0 ? p + 8 : p`, computed before it.
// CHECK-LABEL: func.func @runtime_positions_wrapped(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x16xf32>, %[[POS:[^:]+]]: tensor<1x4xi64>
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i64
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK: %[[P:.+]] = tensor.collapse_shape %[[POS]] {{\[\[}}0, 1]] : tensor<1x4xi64> into tensor<4xi64>
// CHECK: %[[W:.+]] = linalg.generic {{.*}} ins(%[[P]] : tensor<4xi64>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: i64, %{{.+}}: i64):
// CHECK-NEXT: %[[NEG:.+]] = arith.cmpi slt, %[[IN]], %[[C0]] : i64
// CHECK-NEXT: %[[ADD:.+]] = arith.addi %[[IN]], %[[C8]] : i64
// CHECK-NEXT: %[[SEL:.+]] = arith.select %[[NEG]], %[[ADD]], %[[IN]] : i64
// CHECK-NEXT: linalg.yield %[[SEL]] : i64
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) positions(%[[W]] : tensor<4xi64>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK-NEXT: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @runtime_positions_wrapped(%x: tensor<1x4x2x16xf32>, %pos: tensor<1x4xi64>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// Near miss of gptj: positions 5..8 read past the 8 rows of the table.
// CHECK-LABEL: func.func @arange_past_table(
// CHECK-NOT: posenc.rotary
// CHECK: tensor.concat dim(4)
// CHECK-NOT: posenc.rotary
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @arange_past_table(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    %o = arith.constant 5 : i64
    %vo = arith.addi %v, %o : i64
    linalg.yield %vo : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// Near miss of gptj: the stride-2 slices swapped, [-x0, x1, -x2, x3, ...].
// CHECK-LABEL: func.func @even_odd_swapped(
// CHECK-NOT: posenc.rotary
// CHECK: tensor.concat dim(4)
// CHECK-NOT: posenc.rotary
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @even_odd_swapped(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// Near miss of gptj: the sign on the even lanes, [x1, -x0, x3, -x2, ...]
// (the rotation by -angle).
// CHECK-LABEL: func.func @sign_on_wrong_half(
// CHECK-NOT: posenc.rotary
// CHECK: tensor.concat dim(4)
// CHECK-NOT: posenc.rotary
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @sign_on_wrong_half(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf32>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf32>
    linalg.yield %t : f32
  } -> tensor<1x4x8xf32>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf32>) outs(%sin_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x4xf32>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf32> into tensor<1x4x1x4xf32>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf32>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf32>) outs(%cos_i : tensor<1x4x1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x1x4x2xf32>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%even : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %odd [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// Near miss of computed_from_repeated_angles: half-split tables
// cos(concat(f, f)) with rotate_every_two: channel pairs (2i, 2i+1) would
// read frequencies i and i+1... of the wrong layout.
// CHECK-LABEL: func.func @concat_tables(
// CHECK-NOT: posenc.rotary
// CHECK: tensor.concat dim(4)
// CHECK-NOT: posenc.rotary
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @concat_tables(%x: tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %p3 = tensor.expand_shape %ar [[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xi64> into tensor<1x4x1xi64>
  %e5 = tensor.empty() : tensor<1x4x1xf32>
  %pf = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p3 : tensor<1x4x1xi64>) outs(%e5 : tensor<1x4x1xf32>) {
  ^bb0(%in: i64, %out: f32):
    %v = arith.sitofp %in : i64 to f32
    linalg.yield %v : f32
  } -> tensor<1x4x1xf32>
  %e6 = tensor.empty() : tensor<1x4x4xf32>
  %f = linalg.generic {indexing_maps = [#pos3, #freq3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pf, %inv : tensor<1x4x1xf32>, tensor<4xf32>) outs(%e6 : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4xf32>
  %fcat = tensor.concat dim(2) %f, %f : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x8xf32>
  %sin_w_t = tensor.empty() : tensor<1x4x8xf32>
  %sin_w = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%fcat : tensor<1x4x8xf32>) outs(%sin_w_t : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.sin %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %sin = tensor.expand_shape %sin_w [[0], [1], [2, 3]] output_shape [1, 4, 1, 8] : tensor<1x4x8xf32> into tensor<1x4x1x8xf32>
  %cos_w_t = tensor.empty() : tensor<1x4x8xf32>
  %cos_w = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%fcat : tensor<1x4x8xf32>) outs(%cos_w_t : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.cos %in : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %cos = tensor.expand_shape %cos_w [[0], [1], [2, 3]] output_shape [1, 4, 1, 8] : tensor<1x4x8xf32> into tensor<1x4x1x8xf32>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf32> to tensor<1x4x2x8xf32>
  %e3 = tensor.empty() : tensor<1x4x2x8xf32>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf32> to tensor<1x4x2x4xf32>
  %e4 = tensor.empty() : tensor<1x4x2x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf32>) outs(%e4 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x2x4xf32>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf32> into tensor<1x4x2x4x1xf32>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf32>, tensor<1x4x2x4x1xf32>) -> tensor<1x4x2x4x2xf32>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) outs(%e3 : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x8xf32>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x16xf32>
  return %res : tensor<1x4x2x16xf32>
}

// -----

// @gptj in f64 (fuzz finding R6, docs/testing.md): posenc.rotary takes
// f32, f16 and bf16 only, so nothing is raised.
// CHECK-LABEL: func.func @gptj_f64(
// CHECK-NOT: posenc.rotary
// CHECK: return



#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowpos = affine_map<(d0, d1, d2) -> (0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#freq3 = affine_map<(d0, d1, d2) -> (d2)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#rep_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @gptj_f64(%x: tensor<1x4x2x16xf64>) -> tensor<1x4x2x16xf64> {
  %table = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 9.983342141e-02, 9.999833070e-03, 9.999999311e-04, 5.403022766e-01, 9.950041771e-01, 9.999499917e-01, 9.999995232e-01], [9.092974067e-01, 1.986693293e-01, 1.999866590e-02, 1.999998698e-03, -4.161468446e-01, 9.800665975e-01, 9.998000264e-01, 9.999979734e-01], [1.411200017e-01, 2.955202162e-01, 2.999549918e-02, 2.999995602e-03, -9.899924994e-01, 9.553365111e-01, 9.995500445e-01, 9.999955297e-01], [-7.568024993e-01, 3.894183338e-01, 3.998933360e-02, 3.999989480e-03, -6.536436081e-01, 9.210609794e-01, 9.992001057e-01, 9.999920130e-01], [-9.589242935e-01, 4.794255495e-01, 4.997916520e-02, 4.999979399e-03, 2.836622000e-01, 8.775825500e-01, 9.987502694e-01, 9.999874830e-01], [-2.794154882e-01, 5.646424890e-01, 5.996400490e-02, 5.999964196e-03, 9.601702690e-01, 8.253356218e-01, 9.982005358e-01, 9.999819994e-01], [6.569865942e-01, 6.442176700e-01, 6.994284689e-02, 6.999942940e-03, 7.539022565e-01, 7.648422122e-01, 9.975510240e-01, 9.999755025e-01]]> : tensor<8x8xf64>
  %c0_i64 = arith.constant 0 : i64
  %cP_i64 = arith.constant 8 : i64
  %e0 = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e0 : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<4xi64>
  %p = tensor.expand_shape %ar [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %e1 = tensor.empty() : tensor<1x4x8xf64>
  %rows = linalg.generic {indexing_maps = [#rowpos, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x4xi64>) outs(%e1 : tensor<1x4x8xf64>) {
  ^bb0(%in: i64, %out: f64):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %cP_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %c = linalg.index 2 : index
    %t = tensor.extract %table[%r, %c] : tensor<8x8xf64>
    linalg.yield %t : f64
  } -> tensor<1x4x8xf64>
  %sin_h = tensor.extract_slice %rows[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf64> to tensor<1x4x4xf64>
  %sin_e = tensor.expand_shape %sin_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf64> into tensor<1x4x1x4xf64>
  %sin_i = tensor.empty() : tensor<1x4x1x4x2xf64>
  %sin_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sin_e : tensor<1x4x1x4xf64>) outs(%sin_i : tensor<1x4x1x4x2xf64>) {
  ^bb0(%in: f64, %out: f64):
    linalg.yield %in : f64
  } -> tensor<1x4x1x4x2xf64>
  %sin = tensor.collapse_shape %sin_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf64> into tensor<1x4x1x8xf64>
  %cos_h = tensor.extract_slice %rows[0, 0, 4] [1, 4, 4] [1, 1, 1] : tensor<1x4x8xf64> to tensor<1x4x4xf64>
  %cos_e = tensor.expand_shape %cos_h [[0], [1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<1x4x4xf64> into tensor<1x4x1x4xf64>
  %cos_i = tensor.empty() : tensor<1x4x1x4x2xf64>
  %cos_r = linalg.generic {indexing_maps = [#rep_in, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%cos_e : tensor<1x4x1x4xf64>) outs(%cos_i : tensor<1x4x1x4x2xf64>) {
  ^bb0(%in: f64, %out: f64):
    linalg.yield %in : f64
  } -> tensor<1x4x1x4x2xf64>
  %cos = tensor.collapse_shape %cos_r [[0], [1], [2], [3, 4]] : tensor<1x4x1x4x2xf64> into tensor<1x4x1x8xf64>
  %xr = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf64> to tensor<1x4x2x8xf64>
  %xp = tensor.extract_slice %x[0, 0, 0, 8] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x16xf64> to tensor<1x4x2x8xf64>
  %e3 = tensor.empty() : tensor<1x4x2x8xf64>
  %xc = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xr, %cos : tensor<1x4x2x8xf64>, tensor<1x4x1x8xf64>) outs(%e3 : tensor<1x4x2x8xf64>) {
  ^bb0(%in: f64, %in_0: f64, %out: f64):
    %m = arith.mulf %in, %in_0 : f64
    linalg.yield %m : f64
  } -> tensor<1x4x2x8xf64>
  %even = tensor.extract_slice %xr[0, 0, 0, 0] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf64> to tensor<1x4x2x4xf64>
  %odd = tensor.extract_slice %xr[0, 0, 0, 1] [1, 4, 2, 4] [1, 1, 1, 2] : tensor<1x4x2x8xf64> to tensor<1x4x2x4xf64>
  %e4 = tensor.empty() : tensor<1x4x2x4xf64>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%odd : tensor<1x4x2x4xf64>) outs(%e4 : tensor<1x4x2x4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %n = arith.negf %in : f64
    linalg.yield %n : f64
  } -> tensor<1x4x2x4xf64>
  %a = tensor.expand_shape %neg [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf64> into tensor<1x4x2x4x1xf64>
  %b = tensor.expand_shape %even [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 1] : tensor<1x4x2x4xf64> into tensor<1x4x2x4x1xf64>
  %pair = tensor.concat dim(4) %a, %b : (tensor<1x4x2x4x1xf64>, tensor<1x4x2x4x1xf64>) -> tensor<1x4x2x4x2xf64>
  %rot = tensor.collapse_shape %pair [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf64> into tensor<1x4x2x8xf64>
  %rs = linalg.generic {indexing_maps = [#id4, #heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%rot, %sin : tensor<1x4x2x8xf64>, tensor<1x4x1x8xf64>) outs(%e3 : tensor<1x4x2x8xf64>) {
  ^bb0(%in: f64, %in_0: f64, %out: f64):
    %m = arith.mulf %in, %in_0 : f64
    linalg.yield %m : f64
  } -> tensor<1x4x2x8xf64>
  %sum = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %rs : tensor<1x4x2x8xf64>, tensor<1x4x2x8xf64>) outs(%e3 : tensor<1x4x2x8xf64>) {
  ^bb0(%in: f64, %in_0: f64, %out: f64):
    %s = arith.addf %in, %in_0 : f64
    linalg.yield %s : f64
  } -> tensor<1x4x2x8xf64>
  %res = tensor.concat dim(3) %sum, %xp : (tensor<1x4x2x8xf64>, tensor<1x4x2x8xf64>) -> tensor<1x4x2x16xf64>
  return %res : tensor<1x4x2x16xf64>
}
