// RUN: posenc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(func.func(posenc-map-forall-to-gpu))" | FileCheck %s

// Blocks over (3 heads x 2 halves), 5 x 7 threads per block: a 1-D grid
// of 6 blocks of 35 threads; ids are delinearized with linear_dim_0
// fastest. Every thread has an iteration: no predicate. The view of the
// argument is made inside the kernel, so that the kernel takes the buffer.
// CHECK-LABEL: func.func @exact
// CHECK-SAME: (%[[OUT:.+]]: memref<3x10x7xf32>)
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG: %[[C35:.+]] = arith.constant 35 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-NOT: memref.subview
// CHECK: gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C6]], %{{.+}} = %[[C1]], %{{.+}} = %[[C1]]) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C35]], %{{.+}} = %[[C1]], %{{.+}} = %[[C1]])
// CHECK: %[[VIEW:.+]] = memref.subview %[[OUT]][0, 0, 0] [3, 10, 7]
// CHECK: %[[HALF:.+]] = arith.remui %[[BX]], %{{.+}} : index
// CHECK: %[[HEAD:.+]] = arith.divui %[[BX]], %{{.+}} : index
// CHECK: %[[COL:.+]] = arith.remui %[[TX]], %{{.+}} : index
// CHECK: %[[ROW:.+]] = arith.divui %[[TX]], %{{.+}} : index
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.+}}, %[[VIEW]]
// CHECK: gpu.terminator
// CHECK-NOT: scf.forall
func.func @exact(%out: memref<3x10x7xf32>) {
  %cst = arith.constant 1.0 : f32
  %view = memref.subview %out[0, 0, 0] [3, 10, 7] [1, 1, 1] : memref<3x10x7xf32> to memref<3x10x7xf32, strided<[70, 7, 1]>>
  scf.forall (%h, %half) in (3, 2) {
    scf.forall (%r, %c) in (5, 7) {
      %row = affine.apply affine_map<(d0, d1) -> (d0 * 5 + d1)>(%half, %r)
      memref.store %cst, %view[%h, %row, %c] : memref<3x10x7xf32, strided<[70, 7, 1]>>
    } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
  } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
  return
}

// -----

// The last block of 100 columns has 36 of its 64 iterations: the block size
// is the static bound (64) and threads beyond the block's trip count skip
// the body.
// CHECK-LABEL: func.func @partial
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C2]], {{.+}} threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C64]],
// CHECK: %[[COL0:.+]] = arith.muli %[[BX]], %{{.+}} : index
// CHECK: %[[N:.+]] = affine.min #{{.+}}(%[[COL0]])
// CHECK: %[[IN:.+]] = arith.cmpi slt, %[[TX]], %[[N]] : index
// CHECK: scf.if %[[IN]] {
// CHECK: memref.store
func.func @partial(%out: memref<100xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%c0) = (0) to (100) step (64) {
    %n = affine.min affine_map<(d0) -> (-d0 + 100, 64)>(%c0)
    scf.forall (%i) in (%n) {
      %c = arith.addi %c0, %i : index
      memref.store %cst, %out[%c] : memref<100xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// Two thread loops in a block: the block has the larger one's threads, the
// smaller loop is predicated, and a barrier orders them.
// CHECK-LABEL: func.func @two_loops
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: gpu.launch {{.+}} threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C32]],
// CHECK: %[[IN:.+]] = arith.cmpi slt, %[[TX]], %{{.+}} : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK: memref.load
// CHECK: memref.store
// CHECK: gpu.terminator
func.func @two_loops(%tmp: memref<16xf32>, %out: memref<32xf32>) {
  %cst = arith.constant 1.0 : f32
  %c16 = arith.constant 16 : index
  scf.forall (%b) in (1) {
    scf.forall (%i) in (16) {
      memref.store %cst, %tmp[%i] : memref<16xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    scf.forall (%i) in (32) {
      %j = arith.remui %i, %c16 : index
      %v = memref.load %tmp[%j] : memref<16xf32>
      memref.store %v, %out[%i] : memref<32xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// Loops without a block mapping are left alone.
// CHECK-LABEL: func.func @unmapped
// CHECK-NOT: gpu.launch
// CHECK: scf.forall
func.func @unmapped(%out: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    memref.store %cst, %out[%i] : memref<4xf32>
  }
  return
}

// -----

func.func @grid_mapping(%out: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  // expected-error @+1 {{expected linear GPU mappings and constant lower bounds and steps}}
  scf.forall (%i) in (4) {
    memref.store %cst, %out[%i] : memref<4xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @tensors(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{map scf.forall to GPU after bufferization}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
  } {mapping = [#gpu.block<linear_dim_0>]}
  return %r : tensor<4xf32>
}

// -----

// A write in the block body outside the thread loops would be done by every
// thread of the block.
func.func @block_write(%out: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    // expected-error @+1 {{only thread-mapped scf.forall and ops that write nothing may run in a block outside its threads}}
    memref.store %cst, %out[%i] : memref<4xf32>
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

func.func @too_many_threads(%out: memref<2048xf32>) {
  %cst = arith.constant 1.0 : f32
  // expected-error @+1 {{more threads than a block holds}}
  scf.forall (%b) in (1) {
    scf.forall (%i) in (2048) {
      memref.store %cst, %out[%i] : memref<2048xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}
