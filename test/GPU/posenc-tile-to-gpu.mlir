// RUN: posenc-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(posenc-to-linalg-pipeline, \
// RUN:   func.func(posenc-tile-to-gpu{threads=64}))" | FileCheck %s
// RUN: posenc-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(posenc-to-linalg-pipeline, \
// RUN:   func.func(posenc-tile-to-gpu{threads=64 thread-tile=4}))" | FileCheck %s --check-prefix=TILE4
// RUN: posenc-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(posenc-to-linalg-pipeline, \
// RUN:   eliminate-empty-tensors, func.func(posenc-tile-to-gpu{threads=64}))" | FileCheck %s --check-prefix=CALLER
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(func.func(posenc-tile-to-gpu{threads=2048}))" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(func.func(posenc-tile-to-gpu{thread-tile=0}))" 2>&1 | FileCheck %s --check-prefix=BAD-TILE

// BAD: error: threads must be in [1, 1024]
// BAD-TILE: error: thread-tile must be positive

// RoPE [1, 2, 8, 64] (rotation [b, h, s, half, pair] = [1, 2, 8, 2, 32]):
// the cos/sin generic is fused into the rotation (one kernel), a block of
// 64 threads covers one token's 2 x 32 outputs (whole inner dims, threads
// walk the memory order: pair fastest), blocks go over (head, token).
// CHECK-LABEL: func.func @rope
// CHECK: scf.forall (%{{.+}}, %{{.+}}) in (2, 8) shared_outs
// CHECK: scf.forall (%{{.+}}, %{{.+}}) in (2, 32) shared_outs
// CHECK: linalg.generic
// CHECK-SAME: ins({{.*}} : tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf64>, tensor<1xi64>)
// CHECK-SAME: outs({{.*}} : tensor<1x1x1x1x1xf32>)
// CHECK-DAG: math.cos %{{.+}} {posenc.reduced_angle} : f32
// CHECK-DAG: math.sin %{{.+}} {posenc.reduced_angle} : f32
// CHECK: } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK: } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
// CHECK-NOT: linalg.generic
// CHECK: tensor.collapse_shape
// With 4 consecutive pairs per thread, 64 threads cover 4 tokens.
// TILE4-LABEL: func.func @rope
// TILE4: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (2, 8) step (1, 4)
// TILE4: scf.forall (%{{.+}}, %{{.+}}, %{{.+}}) = (0, 0, 0) to (4, 2, 32) step (1, 1, 4)
// TILE4: outs({{.*}} : tensor<1x1x1x1x4xf32>)
func.func @rope(%x: tensor<1x2x8x64xf32>, %p: tensor<8xi64>) -> tensor<1x2x8x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>) positions(%p : tensor<8xi64>) : tensor<1x2x8x64xf32>
  return %y : tensor<1x2x8x64xf32>
}

// -----

// ALiBi [3, 5, 7] with 64 threads: 5 x 7 = 35 threads per head, blocks over
// heads; the constant slopes are read inside the kernel.
// CHECK-LABEL: func.func @alibi
// CHECK: scf.forall (%{{.+}}) in (3) shared_outs
// CHECK-NEXT: arith.constant dense<{{.+}}> : tensor<3xf32>
// CHECK: scf.forall (%{{.+}}, %{{.+}}) in (5, 7) shared_outs
func.func @alibi() -> tensor<3x5x7xf32> {
  %b = posenc.alibi symmetric slopes(<num_heads = 3>) : tensor<3x5x7xf32>
  return %b : tensor<3x5x7xf32>
}

// -----

// 100 columns do not fill a whole number of 64-thread blocks: two blocks
// per row, the second one partial (36 threads busy).
// CHECK-LABEL: func.func @partial_blocks
// CHECK: scf.forall (%[[R:.+]], %[[C:.+]]) = (0, 0) to (3, 100) step (1, 64)
// CHECK: %[[N:.+]] = affine.min #{{.+}}(%[[C]])
// CHECK: scf.forall (%{{.+}}) in (%[[N]])
// CHECK: {mapping = [#gpu.thread<linear_dim_0>]}
// CHECK: {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
func.func @partial_blocks(%o: tensor<1xi64>) -> tensor<3x100xf32> {
  %c0 = arith.constant 0 : index
  %off = tensor.extract %o[%c0] : tensor<1xi64>
  %t = posenc.sinusoidal interleaved offset(%off : i64) : tensor<3x100xf32>
  return %t : tensor<3x100xf32>
}

// -----

// The offset is read from its tensor inside the kernel, not on the host.
// CHECK-LABEL: func.func @offset
// CHECK-SAME: (%[[O:.+]]: tensor<1xi64>)
// CHECK-NOT: tensor.extract
// CHECK: scf.forall
// CHECK: tensor.extract %[[O]]
// CHECK: scf.forall
func.func @offset(%o: tensor<1xi64>) -> tensor<4x16xf32> {
  %c0 = arith.constant 0 : index
  %off = tensor.extract %o[%c0] : tensor<1xi64>
  %t = posenc.sinusoidal concatenated offset(%off : i64) : tensor<4x16xf32>
  return %t : tensor<4x16xf32>
}

// -----

// The bounds check of the positions runs in a kernel of one thread (its
// reduction, the flag and the assertion); the gather is a second kernel.
// CHECK-LABEL: func.func @learned
// CHECK: scf.forall (%{{.+}}) in (1) {
// CHECK-NEXT: scf.forall (%{{.+}}) in (1) {
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK: %[[OK:.+]] = tensor.extract
// CHECK: cf.assert %[[OK]], "posenc.learned_absolute: position outside the learned table
// CHECK: } {mapping = [#gpu.thread<linear_dim_0>]}
// CHECK: } {mapping = [#gpu.block<linear_dim_0>]}
// CHECK-NOT: cf.assert
// CHECK: scf.forall
// CHECK: tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<40x16xf32>
func.func @learned(%x: tensor<2x6x16xf32>, %t: tensor<40x16xf32>, %p: tensor<2x6xi64>) -> tensor<2x6x16xf32> {
  %y = posenc.learned_absolute %x, %t positions(%p : tensor<2x6xi64>) : tensor<2x6x16xf32>, tensor<40x16xf32>
  return %y : tensor<2x6x16xf32>
}

// -----

// Partial RoPE: the rotated channels are computed into their slice of the
// result (expand_shape of an extract_slice of the destination), the
// pass-through channels are a second kernel (a copy).
// CHECK-LABEL: func.func @partial_rotary
// CHECK: %[[DEST:.+]] = tensor.empty() : tensor<1x2x4x64xf32>
// CHECK: %[[SLICE:.+]] = tensor.extract_slice %[[DEST]][0, 0, 0, 0] [1, 2, 4, 32]
// CHECK: %[[INIT:.+]] = tensor.expand_shape %[[SLICE]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 2, 4, 2, 16]
// CHECK: %[[ROT:.+]] = scf.forall {{.+}} shared_outs(%{{.+}} = %[[INIT]])
// CHECK: %[[COLLAPSED:.+]] = tensor.collapse_shape %[[ROT]]
// CHECK: tensor.insert_slice %[[COLLAPSED]] into %[[DEST]][0, 0, 0, 0] [1, 2, 4, 32]
// CHECK: scf.forall
// CHECK: linalg.copy
func.func @partial_rotary(%x: tensor<1x2x4x64xf32>) -> tensor<1x2x4x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 32 base 10000.0 : tensor<16xf64>, f32
  %y = posenc.rotary %x half_split dim 32 inv_freq(%inv : tensor<16xf64>) : tensor<1x2x4x64xf32>
  return %y : tensor<1x2x4x64xf32>
}

// -----

// linalg input with a reduction: threads own the parallel iterations and
// reduce the whole row.
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.forall (%{{.+}}) = (0) to (8) step (8)
// CHECK: scf.forall (%{{.+}}) in (8)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%{{.+}} : tensor<1x32xf32>)
#row = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
func.func @row_sum(%x: tensor<8x32xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %s = linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// Kernels need static shapes.
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  // expected-error @+1 {{posenc-tile-to-gpu: cannot map this op to GPU threads (it needs static shapes on tensors and a parallel loop)}}
  %y = linalg.copy ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// The caller's buffer as the destination (posenc-run's wrapper, after
// eliminate-empty-tensors): the fused rotation still computes into it.
// Upstream's fusion pattern set replaced an init the payload does not read
// with tensor.empty, so the result went to a temporary copied on the host.
// CHECK-LABEL: func.func @rope_into_caller_buffer
// CALLER-LABEL: func.func @rope_into_caller_buffer
// CALLER: %[[DEST:.+]] = bufferization.to_tensor %{{.+}} restrict writable
// CALLER-NOT: tensor.empty
// CALLER: scf.forall {{.*}} shared_outs(%{{.+}} = %[[DEST]])
// CALLER-NOT: tensor.empty
// CALLER: bufferization.materialize_in_destination
func.func @rope_into_caller_buffer(%x: tensor<1x2x8x64xf32>, %out: memref<1x2x8x2x32xf32>) {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>) : tensor<1x2x8x64xf32>
  %e = tensor.expand_shape %y [[0], [1], [2], [3, 4]] output_shape [1, 2, 8, 2, 32] : tensor<1x2x8x64xf32> into tensor<1x2x8x2x32xf32>
  bufferization.materialize_in_destination %e in restrict writable %out : (tensor<1x2x8x2x32xf32>, memref<1x2x8x2x32xf32>) -> ()
  return
}
