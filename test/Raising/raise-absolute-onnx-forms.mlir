// RUN: posenc-opt %s --split-input-file --posenc-raise-absolute | FileCheck %s

// ONNX's Gather of learned position rows (GPT-2's wpe through
// iree-import-onnx): negative indices wrapped (`p < 0 ? p + 16 : p`, as ONNX
// defines them), flattened to [B*S], gathered, regrouped to [B, S, D], added.
// The gather over the flattened indices is the gather over [B, S]; the
// wrapped indices are the positions (exact for every index).
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @onnx_wpe(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x8xf32>, %[[T:[^:]+]]: tensor<16x8xf32>, %[[P:[^:]+]]: tensor<2x4xi64>
// CHECK: %[[W:.+]] = linalg.generic {{.*}} ins(%[[P]] : tensor<2x4xi64>)
// CHECK: arith.select
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[T]] positions(%[[W]] : tensor<2x4xi64>) : tensor<2x4x8xf32>, tensor<16x8xf32>
// CHECK: return %[[R]]
func.func @onnx_wpe(%x: tensor<2x4x8xf32>, %table: tensor<16x8xf32>, %p: tensor<2x4xi64>) -> tensor<2x4x8xf32> {
  %c0 = arith.constant 0 : i64
  %c16 = arith.constant 16 : i64
  %ei = tensor.empty() : tensor<2x4xi64>
  %w = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x4xi64>) outs(%ei : tensor<2x4xi64>) {
  ^bb0(%in: i64, %out: i64):
    %neg = arith.cmpi slt, %in, %c0 : i64
    %up = arith.addi %in, %c16 : i64
    %s = arith.select %neg, %up, %in : i64
    linalg.yield %s : i64
  } -> tensor<2x4xi64>
  %flat = tensor.collapse_shape %w [[0, 1]] : tensor<2x4xi64> into tensor<8xi64>
  %eg = tensor.empty() : tensor<8x8xf32>
  %g = linalg.generic {indexing_maps = [#row, #m2], iterator_types = ["parallel", "parallel"]} ins(%flat : tensor<8xi64>) outs(%eg : tensor<8x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %pe = tensor.expand_shape %g [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %sum = linalg.generic {indexing_maps = [#m3, #m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %pe : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4x8xf32>
  return %sum : tensor<2x4x8xf32>
}

// -----

// The GatherElements form: indices [B, S, 1] flattened, broadcast over the
// columns by a copy, then gathered elementwise; the same gather over [B, S]
// (the unit dimension read at 0).
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @onnx_wpe_elements(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x8xf32>, %[[T:[^:]+]]: tensor<16x8xf32>, %[[P:[^:]+]]: tensor<2x4x1xi64>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[P]] {{\[}}[0], [1, 2]] : tensor<2x4x1xi64> into tensor<2x4xi64>
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[T]] positions(%[[C]] : tensor<2x4xi64>) : tensor<2x4x8xf32>, tensor<16x8xf32>
// CHECK: return %[[R]]
func.func @onnx_wpe_elements(%x: tensor<2x4x8xf32>, %table: tensor<16x8xf32>, %p: tensor<2x4x1xi64>) -> tensor<2x4x8xf32> {
  %flat = tensor.collapse_shape %p [[0, 1, 2]] : tensor<2x4x1xi64> into tensor<8xi64>
  %ei = tensor.empty() : tensor<8x8xi64>
  %bc = linalg.generic {indexing_maps = [#row, #m2], iterator_types = ["parallel", "parallel"]} ins(%flat : tensor<8xi64>) outs(%ei : tensor<8x8xi64>) {
  ^bb0(%in: i64, %out: i64):
    linalg.yield %in : i64
  } -> tensor<8x8xi64>
  %eg = tensor.empty() : tensor<8x8xf32>
  %g = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%bc : tensor<8x8xi64>) outs(%eg : tensor<8x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %pe = tensor.expand_shape %g [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %sum = linalg.generic {indexing_maps = [#m3, #m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %pe : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4x8xf32>
  return %sum : tensor<2x4x8xf32>
}

// -----

// Near misses stay as imported: a gather whose body reads the flattened row
// index (row + its flat position), and a flattened gather that is not added
// (multiplied: no positional embedding to raise, so not regrouped either).
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @near_misses(
// CHECK-NOT: posenc.learned_absolute
// CHECK-COUNT-2: tensor.expand_shape {{.*}} : tensor<8x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: posenc.learned_absolute
func.func @near_misses(%x: tensor<2x4x8xf32>, %table: tensor<16x8xf32>, %p: tensor<2x4xi64>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  %flat = tensor.collapse_shape %p [[0, 1]] : tensor<2x4xi64> into tensor<8xi64>
  %eg = tensor.empty() : tensor<8x8xf32>
  %g = linalg.generic {indexing_maps = [#row, #m2], iterator_types = ["parallel", "parallel"]} ins(%flat : tensor<8xi64>) outs(%eg : tensor<8x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %f = linalg.index 0 : index
    %rf = arith.addi %r, %f : index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%rf, %c] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %pe = tensor.expand_shape %g [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %sum = linalg.generic {indexing_maps = [#m3, #m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %pe : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4x8xf32>
  %g2 = linalg.generic {indexing_maps = [#row, #m2], iterator_types = ["parallel", "parallel"]} ins(%flat : tensor<8xi64>) outs(%eg : tensor<8x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %pe2 = tensor.expand_shape %g2 [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %prod = linalg.generic {indexing_maps = [#m3, #m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %pe2 : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x4x8xf32>
  return %sum, %prod : tensor<2x4x8xf32>, tensor<2x4x8xf32>
}
