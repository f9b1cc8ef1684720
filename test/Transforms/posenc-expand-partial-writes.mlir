// RUN: posenc-opt %s --split-input-file --posenc-expand-partial-writes | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-expand-partial-writes --one-shot-bufferize | FileCheck %s --check-prefix=BUF

// One row of a 3x40 tensor: upstream pairs 3 with 8 and takes the write for
// a full overwrite. The full-rank form says what it writes.
// CHECK-LABEL: func.func @rank_reducing
// CHECK-SAME: %[[V:[^:]+]]: vector<8xf32>, %[[T:[^:]+]]: tensor<3x40xf32>
// CHECK: %[[C:.+]] = vector.shape_cast %[[V]] : vector<8xf32> to vector<1x8xf32>
// CHECK: vector.transfer_write %[[C]], %[[T]][%{{.+}}, %{{.+}}] {in_bounds = [true, true]} : vector<1x8xf32>, tensor<3x40xf32>
func.func @rank_reducing(%v: vector<8xf32>, %t: tensor<3x40xf32>) -> tensor<3x40xf32> {
  %c0 = arith.constant 0 : index
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<3x40xf32>
  return %w : tensor<3x40xf32>
}

// -----

// The issue-21 miscompile (D9) reduced: a zero fill shared by two users, the
// second written out of place. Without the pass, its new buffer is not a
// copy of the zeros (rows 1 and 2 are read uninitialized).
// BUF-LABEL: func.func @shared_fill
// BUF: %[[FILL:.+]] = memref.alloc() {{.*}} : memref<120xf32>
// BUF: linalg.fill ins(%{{.+}} : f32) outs(%[[FILL]] : memref<120xf32>)
// BUF: %[[VIEW:.+]] = memref.expand_shape %[[FILL]]
// BUF: %[[NEW:.+]] = memref.alloc() {{.*}} : memref<3x40xf32>
// BUF: memref.copy %[[VIEW]], %[[NEW]]
// BUF: vector.transfer_write %{{.+}}, %[[NEW]]
func.func @shared_fill(%v: vector<8xf32>) -> (tensor<3x40xf32>, tensor<120xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<120xf32>
  %t = linalg.fill ins(%z : f32) outs(%e : tensor<120xf32>) -> tensor<120xf32>
  %x = tensor.expand_shape %t [[0, 1]] output_shape [3, 40] : tensor<120xf32> into tensor<3x40xf32>
  %w = vector.transfer_write %v, %x[%c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<3x40xf32>
  %a = vector.transfer_write %v, %t[%c0] {in_bounds = [true]} : vector<8xf32>, tensor<120xf32>
  return %w, %a : tensor<3x40xf32>, tensor<120xf32>
}

// -----

// A permuted write that upstream misjudges (2 <= 4, 2 <= 2) though it leaves
// dimension 1 half unwritten: transposed to tensor order, then unit dims
// (in_bounds folds to true: 0 + 2 <= 2).
// CHECK-LABEL: func.func @permuted
// CHECK-SAME: %[[V:[^:]+]]: vector<4x2xf32>
// CHECK: %[[P:.+]] = vector.transpose %[[V]], [1, 0] : vector<4x2xf32> to vector<2x4xf32>
// CHECK: %[[C:.+]] = vector.shape_cast %[[P]] : vector<2x4xf32> to vector<2x1x4xf32>
// CHECK: vector.transfer_write %[[C]], %{{.+}} {in_bounds = [true, true, true]} : vector<2x1x4xf32>, tensor<2x2x4xf32>
func.func @permuted(%v: vector<4x2xf32>, %t: tensor<2x2x4xf32>) -> tensor<2x2x4xf32> {
  %c0 = arith.constant 0 : index
  %w = vector.transfer_write %v, %t[%c0, %c0, %c0] {in_bounds = [true, false], permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : vector<4x2xf32>, tensor<2x2x4xf32>
  return %w : tensor<2x2x4xf32>
}

// -----

// A 0-d vector writes one element.
// CHECK-LABEL: func.func @zero_d
// CHECK: %[[C:.+]] = vector.shape_cast %{{.+}} : vector<f32> to vector<1x1xf32>
// CHECK: vector.transfer_write %[[C]], %{{.+}} {in_bounds = [true, true]} : vector<1x1xf32>, tensor<3x40xf32>
func.func @zero_d(%v: vector<f32>, %t: tensor<3x40xf32>) -> tensor<3x40xf32> {
  %c0 = arith.constant 0 : index
  %w = vector.transfer_write %v, %t[%c0, %c0] : vector<f32>, tensor<3x40xf32>
  return %w : tensor<3x40xf32>
}

// -----

// Left alone: writes of the whole tensor (rank-reducing onto a unit dim,
// and permuted), writes upstream already takes for partial (a leading dim
// larger than the vector, a nonzero index, a mask, a dynamic shape), and
// memref writes.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: vector.shape_cast
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @left_alone(%v: vector<8xf32>, %p: vector<40x3xf32>, %t1: tensor<1x8xf32>,
                      %t3: tensor<3x40xf32>, %t16: tensor<16x40xf32>,
                      %d: tensor<?x40xf32>, %m: vector<8xi1>, %i: index,
                      %mem: memref<3x40xf32>)
    -> (tensor<1x8xf32>, tensor<3x40xf32>, tensor<16x40xf32>, tensor<3x40xf32>,
        tensor<3x40xf32>, tensor<?x40xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = vector.transfer_write %v, %t1[%c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<1x8xf32>
  %b = vector.transfer_write %p, %t3[%c0, %c0] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<40x3xf32>, tensor<3x40xf32>
  %c = vector.transfer_write %v, %t16[%c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<16x40xf32>
  %e = vector.transfer_write %v, %t3[%c1, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<3x40xf32>
  %f = vector.transfer_write %v, %t3[%c0, %c0], %m {in_bounds = [true]} : vector<8xf32>, tensor<3x40xf32>
  %g = vector.transfer_write %v, %d[%c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<?x40xf32>
  vector.transfer_write %v, %mem[%c0, %c0] {in_bounds = [true]} : vector<8xf32>, memref<3x40xf32>
  return %a, %b, %c, %e, %f, %g : tensor<1x8xf32>, tensor<3x40xf32>, tensor<16x40xf32>, tensor<3x40xf32>, tensor<3x40xf32>, tensor<?x40xf32>
}
