// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(posenc-nontemporal-stores{min-bytes=1}))" | FileCheck %s --check-prefix=NT
// RUN: posenc-opt %s --split-input-file --posenc-expand-destinations | FileCheck %s --check-prefix=EXP
//
// Inputs found by posenc-pass-fuzzer on the passes of issue #4. posenc-opt
// verifies after each pass: each case crashed or left invalid IR before its
// fix.

// posenc-nontemporal-stores lowered every rank-1 transfer_write with
// upstream's transfer lowering, which aborted ("SmallVector unable to grow")
// on a 2^31-lane out-of-bounds write. Only in-bounds, unmasked, unit-stride
// writes become (streamed) stores; this one is left alone.
// NT-LABEL: func.func @huge_out_of_bounds
// NT: vector.transfer_write
// NT-NOT: vector.store
func.func @huge_out_of_bounds(%out: memref<1x2147483648xbf16>, %v: vector<2147483648xbf16>) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %out[%c0, %c0] {in_bounds = [false]} : vector<2147483648xbf16>, memref<1x2147483648xbf16>
  return
}

// -----

// tensor.collapse_shape's verifier (MLIR 22) accepts this non-contiguous
// reassociation; posenc-expand-destinations copied it into a
// memref.expand_shape, which rejects it. Such collapses are left alone.
// EXP-LABEL: func.func @odd_reassociation
// EXP: tensor.collapse_shape
// EXP-NOT: memref.expand_shape
func.func @odd_reassociation(%x: tensor<?x?x2x8xf32>, %out: memref<?x?x16xf32>) {
  %c = tensor.collapse_shape %x [[0x7FF0000000000000], [1], [2, 3]] : tensor<?x?x2x8xf32> into tensor<?x?x16xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<?x?x16xf32>, memref<?x?x16xf32>) -> ()
  return
}
