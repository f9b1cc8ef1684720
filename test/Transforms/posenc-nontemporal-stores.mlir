// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(posenc-nontemporal-stores{min-bytes=4096}))" | FileCheck %s

// A large write-only argument: its 1-D transfers become non-temporal
// vector.stores (also through views), with one fence before the end of the
// omp.parallel region and one before the return.
// CHECK-LABEL: func.func @streamed
// CHECK: omp.parallel
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {nontemporal = true} : memref<64x16xf32, strided<[32, 1], offset: ?>>, vector<16xf32>
// CHECK: omp.yield
// CHECK: llvm.fence seq_cst
// CHECK-NEXT: omp.terminator
// CHECK: llvm.fence seq_cst
// CHECK-NEXT: return
func.func @streamed(%out: memref<64x32xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        %view = memref.subview %out[0, %c16] [64, 16] [1, 1] : memref<64x32xf32> to memref<64x16xf32, strided<[32, 1], offset: ?>>
        vector.transfer_write %v, %view[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32, strided<[32, 1], offset: ?>>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Not streamed: an argument below min-bytes, one that is also read, a
// temporary (no argument), an index memref; a masked write stays a
// (masked) ordinary store.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
// CHECK: return
func.func @kept(%small: memref<16xf32>, %rw: memref<64x32xf32>, %idx: memref<2048xindex>,
                %big: memref<64x32xf32>, %v: vector<16xf32>, %vi: vector<16xindex>, %n: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f32
  vector.transfer_write %v, %small[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  vector.transfer_write %v, %rw[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x32xf32>
  %r = vector.transfer_read %rw[%c0, %c0], %f0 {in_bounds = [true]} : memref<64x32xf32>, vector<16xf32>
  %tmp = memref.alloc() : memref<4096xf32>
  vector.transfer_write %v, %tmp[%c0] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
  memref.dealloc %tmp : memref<4096xf32>
  vector.transfer_write %vi, %idx[%c0] {in_bounds = [true]} : vector<16xindex>, memref<2048xindex>
  %mask = vector.create_mask %n : vector<16xi1>
  vector.transfer_write %v, %big[%c0, %c0], %mask {in_bounds = [true]} : vector<16xf32>, memref<64x32xf32>
  return %r : vector<16xf32>
}

// -----

// Alignment: from memref.assume_alignment through a subview (offset 16
// elements = 64 bytes) and the indices (an iv stepping by 16 from 0, a
// multiple of 32 rows of 32 elements): 64-byte aligned. Offset 1 proves 4
// bytes only; a dynamic index (no divisor known) leaves the element size.
// CHECK-LABEL: func.func @aligned
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 64 : i64, nontemporal = true}
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 4 : i64, nontemporal = true}
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 4 : i64, nontemporal = true}
func.func @aligned(%out: memref<64x32xf32>, %v: vector<16xf32>, %n: index) {
  %a = memref.assume_alignment %out, 64 : memref<64x32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %view = memref.subview %a[0, %c16] [64, 16] [1, 1] : memref<64x32xf32> to memref<64x16xf32, strided<[32, 1], offset: ?>>
  scf.for %i = %c0 to %c64 step %c16 {
    vector.transfer_write %v, %view[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32, strided<[32, 1], offset: ?>>
  }
  %view1 = memref.subview %a[0, %c1] [64, 16] [1, 1] : memref<64x32xf32> to memref<64x16xf32, strided<[32, 1], offset: ?>>
  vector.transfer_write %v, %view1[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32, strided<[32, 1], offset: ?>>
  vector.transfer_write %v, %a[%c0, %n] {in_bounds = [true]} : vector<16xf32>, memref<64x32xf32>
  return
}

// -----

// A dynamic row stride: streamed, but no alignment can be proven.
// CHECK-LABEL: func.func @dynamic_stride
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {nontemporal = true}
func.func @dynamic_stride(%out: memref<64x32xf32, strided<[?, 1]>>, %v: vector<16xf32>) {
  %a = memref.assume_alignment %out, 64 : memref<64x32xf32, strided<[?, 1]>>
  %c0 = arith.constant 0 : index
  vector.store %v, %a[%c0, %c0] : memref<64x32xf32, strided<[?, 1]>>, vector<16xf32>
  return
}

// -----

// Found by posenc-pass-fuzzer: the pass lowered every rank-1 transfer_write
// with upstream's transfer lowering, which aborted ("SmallVector unable to
// grow") on a 2^31-lane out-of-bounds write. Only in-bounds, unmasked,
// unit-stride writes become (streamed) stores; this one is left alone.
// CHECK-LABEL: func.func @huge_out_of_bounds
// CHECK: vector.transfer_write
// CHECK-NOT: vector.store
func.func @huge_out_of_bounds(%out: memref<1x2147483648xbf16>, %v: vector<2147483648xbf16>) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %out[%c0, %c0] {in_bounds = [false]} : vector<2147483648xbf16>, memref<1x2147483648xbf16>
  return
}
