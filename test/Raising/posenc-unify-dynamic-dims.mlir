// RUN: posenc-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(posenc-unify-dynamic-dims))' | FileCheck %s

// Two arguments read by the same loop of a generic have the same length: every
// size of the class becomes one tensor.dim of the first argument (i64 copies an
// index_cast of it), at the function's entry.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tied_by_generic
// CHECK-SAME: (%[[A:.*]]: tensor<2x?xf32>, %[[B:.*]]: tensor<2x?xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NOT: tensor.dim
// CHECK: tensor.empty(%[[N]])
// CHECK: "test.use"(%[[N64]], %[[N]])
func.func @tied_by_generic(%a: tensor<2x?xf32>, %b: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %c1 = arith.constant 1 : index
  %nb = tensor.dim %b, %c1 : tensor<2x?xf32>
  %e = tensor.empty(%nb) : tensor<2x?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<2x?xf32>, tensor<2x?xf32>) outs(%e : tensor<2x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x?xf32>
  %nr = tensor.dim %r, %c1 : tensor<2x?xf32>
  %n64 = arith.index_cast %nr : index to i64
  "test.use"(%n64, %nb) : (i64, index) -> ()
  return %r : tensor<2x?xf32>
}

// -----

// Sizes that only an assert ties, and `S * 2 / 2` (a collapse's size divided
// back), are the argument's length; the assert keeps comparing the two.
// CHECK-LABEL: func.func @assert_and_rescale
// CHECK-SAME: (%[[A:.*]]: tensor<2x?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[NB:.*]] = tensor.dim %[[B]], %c0
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %{{.*}}, %[[NB]]
// CHECK: cf.assert %[[EQ]]
// CHECK: "test.use"(%[[N]], %[[N]])
func.func @assert_and_rescale(%a: tensor<2x?xf32>, %b: tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %na = tensor.dim %a, %c1 : tensor<2x?xf32>
  %nb = tensor.dim %b, %c0 : tensor<?xf32>
  %eq = arith.cmpi eq, %na, %nb : index
  cf.assert %eq, "mismatched size for broadcast"
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<2x?xf32> into tensor<?xf32>
  %twice = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%na]
  %back = arith.divsi %twice, %c2 : index
  "test.use"(%nb, %back) : (index, index) -> ()
  return
}

// -----

// torch's `view` shape: `n < 0` of a size is false, so the select takes the
// size; the reshape to [2, n, 4, 16] of [2, n, 64] is an expand_shape.
// CHECK-LABEL: func.func @view_reshape
// CHECK-SAME: (%[[A:.*]]: tensor<2x?x64xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %c1
// CHECK-NOT: tensor.reshape
// CHECK: tensor.expand_shape %[[A]] {{\[}}[0], [1], [2, 3]] output_shape [2, %[[N]], 4, 16] : tensor<2x?x64xf32> into tensor<2x?x4x16xf32>
func.func @view_reshape(%a: tensor<2x?x64xf32>) -> tensor<2x?x4x16xf32> {
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %c2_i64 = arith.constant 2 : i64
  %c4_i64 = arith.constant 4 : i64
  %c16_i64 = arith.constant 16 : i64
  %n = tensor.dim %a, %c1 : tensor<2x?x64xf32>
  %n64 = arith.index_cast %n : index to i64
  %neg = arith.cmpi slt, %n64, %c0_i64 : i64
  %s = arith.select %neg, %c4_i64, %n64 : i64
  %shape = tensor.from_elements %c2_i64, %s, %c4_i64, %c16_i64 : tensor<4xi64>
  %r = tensor.reshape %a(%shape) : (tensor<2x?x64xf32>, tensor<4xi64>) -> tensor<2x?x4x16xf32>
  return %r : tensor<2x?x4x16xf32>
}

// -----

// A reshape whose dynamic size is not provably the source's stays.
// CHECK-LABEL: func.func @unproven_reshape
// CHECK: tensor.reshape
func.func @unproven_reshape(%a: tensor<2x?x64xf32>, %m: i64) -> tensor<2x?x4x16xf32> {
  %c2_i64 = arith.constant 2 : i64
  %c4_i64 = arith.constant 4 : i64
  %c16_i64 = arith.constant 16 : i64
  %shape = tensor.from_elements %c2_i64, %m, %c4_i64, %c16_i64 : tensor<4xi64>
  %r = tensor.reshape %a(%shape) : (tensor<2x?x64xf32>, tensor<4xi64>) -> tensor<2x?x4x16xf32>
  return %r : tensor<2x?x4x16xf32>
}

// -----

// torch's broadcast of a dimension that may be 1: `n == 1 ? 0 : i` over a loop
// of size n is `i`; the generic, now reading %x at its loop indices, reads it
// as an input, and a copy of %x through identity maps is %x. Over a loop of
// another size the select stays.
#out3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @unit_broadcast
// CHECK: %[[G:.*]] = linalg.generic
// CHECK-NOT: ins(
// CHECK: arith.select
// CHECK: tensor.extract
// CHECK: return %arg0, %[[G]]
func.func @unit_broadcast(%x: tensor<2x?x8xf32>, %other: index) -> (tensor<2x?x8xf32>, tensor<2x?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<2x?x8xf32>
  %e = tensor.empty(%n) : tensor<2x?x8xf32>
  %r = linalg.generic {indexing_maps = [#out3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x?x8xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %one = arith.cmpi eq, %n, %c1 : index
    %ii = arith.select %one, %c0, %i : index
    %v = tensor.extract %x[%b, %ii, %j] : tensor<2x?x8xf32>
    linalg.yield %v : f32
  } -> tensor<2x?x8xf32>
  %s = linalg.generic {indexing_maps = [#out3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x?x8xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %one = arith.cmpi eq, %other, %c1 : index
    %ii = arith.select %one, %c0, %i : index
    %v = tensor.extract %x[%b, %ii, %j] : tensor<2x?x8xf32>
    linalg.yield %v : f32
  } -> tensor<2x?x8xf32>
  return %r, %s : tensor<2x?x8xf32>, tensor<2x?x8xf32>
}

// -----

// A transposing or broadcasting read becomes the input's indexing map (0 into
// a unit dimension) when each dimension read at a loop index is that loop's
// size (%y's, by an assert); a read at a computed index, or of a tensor whose
// size nothing ties to the loop's (%z: a longer one would be read in part),
// stays.
// CHECK: #map{{[0-9]*}} = affine_map<(d0, d1, d2) -> (d1, 0, d0)>
// CHECK-LABEL: func.func @extract_maps
// CHECK: cf.assert
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<?x1x2xf32>)
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK: tensor.extract
// CHECK: linalg.generic
// CHECK-NOT: ins(
// CHECK: tensor.extract %arg2
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @extract_maps(%x: tensor<2x?x3xf32>, %y: tensor<?x1x2xf32>, %z: tensor<?x1x2xf32>) -> (tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<2x?x3xf32>
  %ny = tensor.dim %y, %c0 : tensor<?x1x2xf32>
  %same = arith.cmpi eq, %n, %ny : index
  cf.assert %same, "mismatched size for broadcast"
  %e = tensor.empty(%n) : tensor<2x?x3xf32>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x?x3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %y[%j, %c0, %i] : tensor<?x1x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x?x3xf32>
  %s = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x?x3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %jk = arith.addi %j, %k : index
    %v = tensor.extract %x[%i, %jk, %k] : tensor<2x?x3xf32>
    linalg.yield %v : f32
  } -> tensor<2x?x3xf32>
  %t = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x?x3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %z[%j, %c0, %i] : tensor<?x1x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x?x3xf32>
  return %r, %s, %t : tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x3xf32>
}

// -----

// Sizes of two arguments nothing ties stay two sizes.
// CHECK-LABEL: func.func @independent
// CHECK-SAME: (%[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK-DAG: %[[NA:.*]] = tensor.dim %[[A]], %c0
// CHECK-DAG: %[[NB:.*]] = tensor.dim %[[B]], %c0
// CHECK: "test.use"(%[[NA]], %[[NB]])
func.func @independent(%a: tensor<?xf32>, %b: tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %na = tensor.dim %a, %c0 : tensor<?xf32>
  %nb = tensor.dim %b, %c0 : tensor<?xf32>
  "test.use"(%na, %nb) : (index, index) -> ()
  return
}

// -----

// A static function is not touched (not even `n < 0` of a constant size).
// CHECK-LABEL: func.func @static
// CHECK: tensor.dim
// CHECK: arith.cmpi slt
func.func @static(%a: tensor<2x8xf32>) -> i1 {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c1 : tensor<2x8xf32>
  %neg = arith.cmpi slt, %n, %c0 : index
  return %neg : i1
}

// -----

// IREE's input IR: the function takes buffer views, its tensors come from
// `hal.tensor.import` (an op posenc does not know: its results are inputs
// like arguments), and `flow.tensor.tie_shape` states that the imports share
// one length (`util.assume.int`'s result is its operand). Every size becomes
// one tensor.dim of the first import, after it; the size the import itself
// reads (defined before it) stays.
// CHECK-LABEL: func.func @iree_tie_shape
// CHECK: %[[BV:.*]] = "hal.buffer_view.dim"
// CHECK: %[[A:.*]] = "hal.tensor.import"(%arg0, %[[BV]])
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[B:.*]] = "hal.tensor.import"
// CHECK: "flow.tensor.tie_shape"(%[[A]], %[[N]])
// CHECK: "flow.tensor.tie_shape"(%[[B]], %[[N]])
// CHECK-NOT: tensor.dim
// CHECK: "test.use"(%[[N]], %[[N]])
func.func @iree_tie_shape(%va: !hal.buffer_view, %vb: !hal.buffer_view) {
  %c1 = arith.constant 1 : index
  %bv = "hal.buffer_view.dim"(%va) {index = 1 : index} : (!hal.buffer_view) -> index
  %a = "hal.tensor.import"(%va, %bv) : (!hal.buffer_view, index) -> tensor<2x?xi64>
  %bw = "hal.buffer_view.dim"(%vb) {index = 1 : index} : (!hal.buffer_view) -> index
  %b = "hal.tensor.import"(%vb, %bw) : (!hal.buffer_view, index) -> tensor<2x?xi64>
  %d = tensor.dim %a, %c1 : tensor<2x?xi64>
  %n = "util.assume.int"(%d) : (index) -> index
  %ta = "flow.tensor.tie_shape"(%a, %n) : (tensor<2x?xi64>, index) -> tensor<2x?xi64>
  %tb = "flow.tensor.tie_shape"(%b, %n) : (tensor<2x?xi64>, index) -> tensor<2x?xi64>
  %na = tensor.dim %ta, %c1 : tensor<2x?xi64>
  %nb = tensor.dim %tb, %c1 : tensor<2x?xi64>
  "test.use"(%na, %nb) : (index, index) -> ()
  return
}

// -----

// Without the tie_shape the two imports' lengths stay two sizes.
// CHECK-LABEL: func.func @iree_untied
// CHECK: %[[A:.*]] = "hal.tensor.import"
// CHECK: %[[NA:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[B:.*]] = "hal.tensor.import"
// CHECK: %[[NB:.*]] = tensor.dim %[[B]], %c1
// CHECK: "test.use"(%[[NA]], %[[NB]])
func.func @iree_untied(%va: !hal.buffer_view, %vb: !hal.buffer_view) {
  %c1 = arith.constant 1 : index
  %bv = "hal.buffer_view.dim"(%va) {index = 1 : index} : (!hal.buffer_view) -> index
  %a = "hal.tensor.import"(%va, %bv) : (!hal.buffer_view, index) -> tensor<2x?xi64>
  %bw = "hal.buffer_view.dim"(%vb) {index = 1 : index} : (!hal.buffer_view) -> index
  %b = "hal.tensor.import"(%vb, %bw) : (!hal.buffer_view, index) -> tensor<2x?xi64>
  %na = tensor.dim %a, %c1 : tensor<2x?xi64>
  %nb = tensor.dim %b, %c1 : tensor<2x?xi64>
  "test.use"(%na, %nb) : (index, index) -> ()
  return
}

// -----

// torch's slice normalization of `p[..., :-1]` on n + 1 columns (gpt-oss's
// sink column): start `min(0, n + 1)` is 0, end `min(select(n < 0, -1, n),
// n + 1)` is n, length `max(n - 0, 0)` is n. The slice then reads [0, n)
// and its size is n; a `min` the sizes do not decide (of two lengths) stays.
// CHECK-LABEL: func.func @slice_normalization
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>, %[[Y:.*]]: tensor<?xf32>)
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[Y]], %c0
// CHECK: %[[S:.*]] = arith.subi %{{.*}}, %c0{{.*}} : index
// CHECK: tensor.extract_slice %{{.*}}[0, %c0{{.*}}] [%[[N]], %[[S]]]
// CHECK: %[[U:.*]] = arith.minsi %[[N]], %[[M]]
// CHECK: "test.use"(%[[U]])
func.func @slice_normalization(%x: tensor<?x?xf32>, %y: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : index
  %c0_i64 = arith.constant 0 : i64
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %m = tensor.dim %y, %c0 : tensor<?xf32>
  %n1 = arith.addi %n, %c1 : index
  %e = tensor.empty(%n, %n1) : tensor<?x?xf32>
  %n1_64 = arith.index_cast %n1 : index to i64
  %start64 = arith.minsi %n1_64, %c0_i64 : i64
  %start = arith.index_cast %start64 : i64 to index
  %last = arith.addi %n1, %cm1 : index
  %neg = arith.cmpi slt, %last, %c0 : index
  %wrapped = arith.select %neg, %cm1, %last : index
  %end = arith.minsi %wrapped, %n1 : index
  %len = arith.subi %end, %start : index
  %size = arith.maxsi %len, %c0 : index
  %s = tensor.extract_slice %e[0, %start] [%n, %size] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %u = arith.minsi %n, %m : index
  "test.use"(%u) : (index) -> ()
  return %s : tensor<?x?xf32>
}
