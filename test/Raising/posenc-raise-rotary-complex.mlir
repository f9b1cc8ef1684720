// RUN: posenc-opt %s --split-input-file --posenc-raise-rotary | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-raise-rotary=print-stats -o /dev/null 2>&1 | grep -e "remark:" -e "^posenc-raise-rotary:" | FileCheck %s --check-prefix=STATS

// posenc-raise-rotary on Meta's reference RoPE, the complex product
// `view_as_real(view_as_complex(x.reshape(..., D/2, 2)) * freqs_cis)
// .flatten(3)`, in torch-mlir's form: a generic building complex.create from
// two extracts of the pairs (lanes 0 and 1), a complex.mul with the table
// broadcast over heads, a generic selecting complex.re at lane 0 and
// complex.im at lane 1, and a collapse. It is `posenc.rotary interleaved`
// (pairs (2i, 2i+1)). Shapes: x = [B, S, H, D] = [1, 4, 2, 8] unless said;
// freqs_cis = [8, 4] = polar(1, outer(arange(8), w)) computed by torch in
// f32, w_i = 10000^(-2i/8). Each near miss differs from @meta in the one
// detail it breaks. The execution check is raise-rotary-complex-exec.test.

// The STATS run: print-stats writes one line per split, in order, after the
// remark of each raised rotary (which frequency source it got).
// STATS: remark: rotary raised; inv_freq equals the unscaled ladder of rope_theta = 1.000000e+04
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised; inv_freq equals the unscaled ladder
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised with cos/sin tables cut from the real and imaginary parts of the complex table (not cos/sin of f32 frequencies)
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: remark: rotary raised with cos/sin tables cut from the real
// STATS-NEXT: posenc-raise-rotary: 1 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-rotary: 0 raised-rotary, 0 raised-partial-rotary
// STATS-NOT: posenc-raise-rotary

// Meta's apply_rotary_emb as torch-mlir exports it (B = 1: the batch index of
// the view_as_complex extracts is the constant 0): freqs_cis rows [0, 4)
// broadcast over heads. The table holds cos + i sin of f32 angles p * w_i, so
// inv_freq is recovered by value; nothing complex stays.
// CHECK-LABEL: func.func @meta(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x8xf32>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: complex.
// CHECK-NOT: linalg.generic
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @meta(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.987502694e-01, 4.997916520e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %rows = tensor.extract_slice %table[0, 0] [4, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<4x4xcomplex<f32>> into tensor<1x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<1x4x2x8xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<1x4x2x4xcomplex<f32>>, tensor<1x4x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// Rows [3, 7) of a dense_resource table (how torch-mlir writes a complex64
// buffer) in a [B, H, S, D] layout with B = 2 (extracts at linalg.index 0);
// the table is the multiply's first operand and the lanes are selected by
// `1 == lane ? im : re`. The slice offset becomes the rotary's offset.
// CHECK-LABEL: func.func @bhsd_resource(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x2x4x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[OFF:.+]] = arith.constant 3 : index
// CHECK-NOT: complex.
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) offset(%[[OFF]] : index) : tensor<2x2x4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @bhsd_resource(%x: tensor<2x2x4x8xf32>) -> tensor<2x2x4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense_resource<freqs_cis_8_4> : tensor<8x4xcomplex<f32>>
  %rows = tensor.extract_slice %table[3, 0] [4, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xcomplex<f32>> into tensor<1x1x4x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [2, 2, 4, 4, 2] : tensor<2x2x4x8xf32> into tensor<2x2x4x4x2xf32>
  %e = tensor.empty() : tensor<2x2x4x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<2x2x4x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%i0, %i1, %i2, %i3, %c0] : tensor<2x2x4x4x2xf32>
    %im = tensor.extract %pairs[%i0, %i1, %i2, %i3, %c1] : tensor<2x2x4x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<2x2x4x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%fc, %xc : tensor<1x1x4x4xcomplex<f32>>, tensor<2x2x4x4xcomplex<f32>>) outs(%e : tensor<2x2x4x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<2x2x4x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<2x2x4x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<2x2x4x4xcomplex<f32>>) outs(%e5 : tensor<2x2x4x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %second = arith.cmpi eq, %c1, %lane : index
    %v = arith.select %second, %j, %r : f32
    linalg.yield %v : f32
  } -> tensor<2x2x4x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<2x2x4x4x2xf32> into tensor<2x2x4x8xf32>
  return %res : tensor<2x2x4x8xf32>
}

{-#
  dialect_resources: {
    builtin: {
      freqs_cis_8_4: "0x080000000000803F000000000000803F000000000000803F000000000000803F0000000040510A3FA46A573F98B87E3F7775CC3DB9FC7F3F57D6233CF8FF7F3F6E12833A3311D5BEB7C7683FA5E57A3FF96F4B3EE5F27F3F3ED4A33CDEFF7F3F6912033B26707DBFC381103EEF90743F6D4E973E83E27F3F1FB9F53CB5FF7F3F939B443B305527BFCFBD41BFA7CA6B3FD761C73E94CB7F3FDBCB233D7AFF7F3F5812833B2C3C913E107C75BF40A9603F4477F53E19AE7F3FF4B64C3D2EFF7F3FDED6A33BB8CD753F8C0F8FBE3249533F698C103F128A7F3FD19C753DD2FE7F3F599BC43BBDFF403F4630283FB3CC433F73EB243F815F7F3F323E8F3D65FE7F3FC75FE53B"
    }
  }
#-}

// -----

// The projection [S, H * D] expanded to [1, S, H, D/2, 2] in one step, as
// torch-mlir composes view(B, S, H, D) with reshape(..., D/2, 2): the
// rotary's input is the same expand without the pairs.
// CHECK-LABEL: func.func @expand_at_once(
// CHECK-SAME: %[[P:[^:]+]]: tensor<4x16xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[X:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 4, 2, 8] : tensor<4x16xf32> into tensor<1x4x2x8xf32>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @expand_at_once(%p: tensor<4x16xf32>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.987502694e-01, 4.997916520e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %rows = tensor.extract_slice %table[0, 0] [4, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<4x4xcomplex<f32>> into tensor<1x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %p [[0, 1], [2, 3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<4x16xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<1x4x2x4xcomplex<f32>>, tensor<1x4x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// freqs_cis[pos] gathered by the constant positions 2..5 through PyTorch's
// negative-index wrap (checked statically to stay in [0, 8)): offset 2.
// CHECK-LABEL: func.func @gather_arange(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[OFF:.+]] = arith.constant 2 : index
// CHECK-NOT: tensor.extract
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) offset(%[[OFF]] : index) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @gather_arange(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.987502694e-01, 4.997916520e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %pos = arith.constant dense<[2, 3, 4, 5]> : tensor<4xi64>
  %c0_i64 = arith.constant 0 : i64
  %c8_i64 = arith.constant 8 : i64
  %ge = tensor.empty() : tensor<4x4xcomplex<f32>>
  %rows = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%pos : tensor<4xi64>) outs(%ge : tensor<4x4xcomplex<f32>>) {
  ^bb0(%in: i64, %out: complex<f32>):
    %neg = arith.cmpi slt, %in, %c0_i64 : i64
    %wrapped = arith.addi %in, %c8_i64 : i64
    %sel = arith.select %neg, %wrapped, %in : i64
    %r = arith.index_cast %sel : i64 to index
    %col = linalg.index 1 : index
    %t = tensor.extract %table[%r, %col] : tensor<8x4xcomplex<f32>>
    linalg.yield %t : complex<f32>
  } -> tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<4x4xcomplex<f32>> into tensor<1x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<1x4x2x8xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<1x4x2x4xcomplex<f32>>, tensor<1x4x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// Per-sequence runtime positions [B, S] gathering rows without the wrap
// (positions outside [0, 8) are undefined in the gather): the positions
// operand.
// CHECK-LABEL: func.func @gather_positions(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x2x8xf32>, %[[POS:[^:]+]]: tensor<2x4xi64>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 inv_freq(%[[INV]] : tensor<4xf32>) positions(%[[POS]] : tensor<2x4xi64>) {token_dim = 1 : i64} : tensor<2x4x2x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @gather_positions(%x: tensor<2x4x2x8xf32>, %pos: tensor<2x4xi64>) -> tensor<2x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.987502694e-01, 4.997916520e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %c0_i64 = arith.constant 0 : i64
  %c8_i64 = arith.constant 8 : i64
  %ge = tensor.empty() : tensor<2x4x4xcomplex<f32>>
  %rows = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<2x4xi64>) outs(%ge : tensor<2x4x4xcomplex<f32>>) {
  ^bb0(%in: i64, %out: complex<f32>):
    %r = arith.index_cast %in : i64 to index
    %col = linalg.index 2 : index
    %t = tensor.extract %table[%r, %col] : tensor<8x4xcomplex<f32>>
    linalg.yield %t : complex<f32>
  } -> tensor<2x4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0], [1, 2], [3]] output_shape [2, 4, 1, 4] : tensor<2x4x4xcomplex<f32>> into tensor<2x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [2, 4, 2, 4, 2] : tensor<2x4x2x8xf32> into tensor<2x4x2x4x2xf32>
  %e = tensor.empty() : tensor<2x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<2x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%i0, %i1, %i2, %i3, %c0] : tensor<2x4x2x4x2xf32>
    %im = tensor.extract %pairs[%i0, %i1, %i2, %i3, %c1] : tensor<2x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<2x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<2x4x2x4xcomplex<f32>>, tensor<2x4x1x4xcomplex<f32>>) outs(%e : tensor<2x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<2x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<2x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<2x4x2x4xcomplex<f32>>) outs(%e5 : tensor<2x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<2x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<2x4x2x4x2xf32> into tensor<2x4x2x8xf32>
  return %res : tensor<2x4x2x8xf32>
}

// -----

// A table that is not cos + i sin of f32 frequencies (entry [5, 2] is the
// angle 0.06, not 0.05): exact cos_sin tables, the real and imaginary parts
// of the whole table, rows [1, 5) read through the offset.
// CHECK-LABEL: func.func @not_a_ladder(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x8xf32>
// CHECK-DAG: %[[COS:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [0.540302277, 0.995004177, {{.+}}]]> : tensor<8x4xf32>
// CHECK-DAG: %[[SIN:.+]] = arith.constant dense<{{\[\[}}0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.841470957, 0.0998334214, {{.+}}]]> : tensor<8x4xf32>
// CHECK-DAG: %[[OFF:.+]] = arith.constant 1 : index
// CHECK-NOT: complex.
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 cos_sin(%[[COS]], %[[SIN]] : tensor<8x4xf32>, tensor<8x4xf32>) offset(%[[OFF]] : index) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @not_a_ladder(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.982005358e-01, 5.996400490e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %rows = tensor.extract_slice %table[1, 0] [4, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<4x4xcomplex<f32>> into tensor<1x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<1x4x2x8xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<1x4x2x4xcomplex<f32>>, tensor<1x4x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// freqs_cis passed as an argument: its values are unknown, so cos_sin copies
// its real and imaginary parts out of it.
// CHECK-LABEL: func.func @runtime_table(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x2x8xf32>, %[[T:[^:]+]]: tensor<8x4xcomplex<f32>>
// CHECK-DAG: %[[OFF:.+]] = arith.constant 2 : index
// CHECK: %[[S0:.+]] = tensor.extract_slice %[[T]][0, 0] [8, 4] [1, 1]
// CHECK: %[[COS:.+]] = linalg.generic {{.+}} ins(%[[S0]] : tensor<8x4xcomplex<f32>>)
// CHECK: complex.re
// CHECK: %[[S1:.+]] = tensor.extract_slice %[[T]][0, 0] [8, 4] [1, 1]
// CHECK: %[[SIN:.+]] = linalg.generic {{.+}} ins(%[[S1]] : tensor<8x4xcomplex<f32>>)
// CHECK: complex.im
// CHECK: %[[R:.+]] = posenc.rotary %[[X]] interleaved dim 8 cos_sin(%[[COS]], %[[SIN]] : tensor<8x4xf32>, tensor<8x4xf32>) offset(%[[OFF]] : index) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @runtime_table(%x: tensor<1x4x2x8xf32>, %t: tensor<8x4xcomplex<f32>>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.extract_slice %t[2, 0] [4, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<4x4xcomplex<f32>> into tensor<1x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<1x4x2x8xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<1x4x2x4xcomplex<f32>>, tensor<1x4x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// Near miss: re and im swapped in view_as_real (lane 0 = im).
// CHECK-LABEL: func.func @re_im_swapped(
// CHECK: complex.mul
// CHECK-NOT: posenc.rotary
func.func @re_im_swapped(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.987502694e-01, 4.997916520e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %rows = tensor.extract_slice %table[0, 0] [4, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<4x4xcomplex<f32>> into tensor<1x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<1x4x2x8xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<1x4x2x4xcomplex<f32>>, tensor<1x4x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %j, %r : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// Near miss: view_as_complex from the odd lane (real part) and the even lane.
// CHECK-LABEL: func.func @odd_even_swapped(
// CHECK: complex.mul
// CHECK-NOT: posenc.rotary
func.func @odd_even_swapped(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.987502694e-01, 4.997916520e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %rows = tensor.extract_slice %table[0, 0] [4, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<4x4xcomplex<f32>> into tensor<1x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<1x4x2x8xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<1x4x2x4xcomplex<f32>>, tensor<1x4x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// Near miss: x times conj(freqs_cis) (a rotation by -angle; only tables read
// from a constant or an argument are taken).
// CHECK-LABEL: func.func @conj_table(
// CHECK: complex.mul
// CHECK-NOT: posenc.rotary
func.func @conj_table(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.987502694e-01, 4.997916520e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %rows = tensor.extract_slice %table[0, 0] [4, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<4x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 4, 1, 4] : tensor<4x4xcomplex<f32>> into tensor<1x4x1x4xcomplex<f32>>
  %ce = tensor.empty() : tensor<1x4x1x4xcomplex<f32>>
  %conj = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%fc : tensor<1x4x1x4xcomplex<f32>>) outs(%ce : tensor<1x4x1x4xcomplex<f32>>) {
  ^bb0(%in: complex<f32>, %out: complex<f32>):
    %cj = complex.conj %in : complex<f32>
    linalg.yield %cj : complex<f32>
  } -> tensor<1x4x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<1x4x2x8xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %conj : tensor<1x4x2x4xcomplex<f32>>, tensor<1x4x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}

// -----

// Near miss: one row of the table for every token (the map reads it at 0
// along S = 4): not a rotation by position.
// CHECK-LABEL: func.func @one_row_all_tokens(
// CHECK: complex.mul
// CHECK-NOT: posenc.rotary
func.func @one_row_all_tokens(%x: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = arith.constant dense<[[(1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00), (1.000000000e+00, 0.000000000e+00)], [(5.403022766e-01, 8.414709568e-01), (9.950041771e-01, 9.983342141e-02), (9.999499917e-01, 9.999833070e-03), (9.999995232e-01, 9.999999311e-04)], [(-4.161468446e-01, 9.092974067e-01), (9.800665975e-01, 1.986693293e-01), (9.998000264e-01, 1.999866590e-02), (9.999979734e-01, 1.999998698e-03)], [(-9.899924994e-01, 1.411200017e-01), (9.553365111e-01, 2.955202162e-01), (9.995500445e-01, 2.999549918e-02), (9.999955297e-01, 2.999995602e-03)], [(-6.536436081e-01, -7.568024993e-01), (9.210609794e-01, 3.894183338e-01), (9.992001057e-01, 3.998933360e-02), (9.999920130e-01, 3.999989480e-03)], [(2.836622000e-01, -9.589242935e-01), (8.775825500e-01, 4.794255495e-01), (9.987502694e-01, 4.997916520e-02), (9.999874830e-01, 4.999979399e-03)], [(9.601702690e-01, -2.794154882e-01), (8.253356218e-01, 5.646424890e-01), (9.982005358e-01, 5.996400490e-02), (9.999819994e-01, 5.999964196e-03)], [(7.539022565e-01, 6.569865942e-01), (7.648422122e-01, 6.442176700e-01), (9.975510240e-01, 6.994284689e-02), (9.999755025e-01, 6.999942940e-03)]]> : tensor<8x4xcomplex<f32>>
  %rows = tensor.extract_slice %table[1, 0] [1, 4] [1, 1] : tensor<8x4xcomplex<f32>> to tensor<1x4xcomplex<f32>>
  %fc = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 1, 1, 4] : tensor<1x4xcomplex<f32>> into tensor<1x1x1x4xcomplex<f32>>
  %pairs = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 4, 2] : tensor<1x4x2x8xf32> into tensor<1x4x2x4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x4xcomplex<f32>>
  %xc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%out: complex<f32>):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %re = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c0] : tensor<1x4x2x4x2xf32>
    %im = tensor.extract %pairs[%c0, %i1, %i2, %i3, %c1] : tensor<1x4x2x4x2xf32>
    %z = complex.create %re, %im : complex<f32>
    linalg.yield %z : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xc, %fc : tensor<1x4x2x4xcomplex<f32>>, tensor<1x1x1x4xcomplex<f32>>) outs(%e : tensor<1x4x2x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<1x4x2x4xcomplex<f32>>
  %e5 = tensor.empty() : tensor<1x4x2x4x2xf32>
  %real = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%prod : tensor<1x4x2x4xcomplex<f32>>) outs(%e5 : tensor<1x4x2x4x2xf32>) {
  ^bb0(%in: complex<f32>, %out: f32):
    %r = complex.re %in : complex<f32>
    %j = complex.im %in : complex<f32>
    %lane = linalg.index 4 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    %v = arith.select %first, %r, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x4x2x4x2xf32>
  %res = tensor.collapse_shape %real [[0], [1], [2], [3, 4]] : tensor<1x4x2x4x2xf32> into tensor<1x4x2x8xf32>
  return %res : tensor<1x4x2x8xf32>
}
