// RUN: posenc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(func.func(posenc-allocs-to-scratch))" | FileCheck %s

// Three buffers in 64-byte aligned slots of the workgroup's slice (16 +
// 4 x 8 bytes, the second slot at 64, the third at 128 bytes; 192 bytes per
// workgroup), whatever their alignment asks for up to 64; the one in a loop
// reuses its slot each iteration; deallocs go.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%[[S:.+]]: memref<?xi8> {posenc.scratch}, %[[ID:.+]]: index {posenc.workgroup_id})
// CHECK-SAME: attributes {posenc.scratch_bytes = 192 : i64}
// CHECK: %[[BASE:.+]] = arith.muli %[[ID]], %c192 : index
// CHECK: %[[O0:.+]] = arith.addi %[[BASE]], %c0 : index
// CHECK: memref.view %[[S]][%[[O0]]][] : memref<?xi8> to memref<4xf32>
// CHECK: %[[O1:.+]] = arith.addi %[[BASE]], %c64 : index
// CHECK: memref.view %[[S]][%[[O1]]][] : memref<?xi8> to memref<2x4xf32>
// CHECK: scf.for
// CHECK:   %[[O2:.+]] = arith.addi %[[BASE]], %c128 : index
// CHECK:   memref.view %[[S]][%[[O2]]][] : memref<?xi8> to memref<3xi8>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
func.func @kernel(%scratch: memref<?xi8> {posenc.scratch}, %id: index {posenc.workgroup_id}) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() {alignment = 32 : i64} : memref<2x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %c = memref.alloc() : memref<3xi8>
    memref.dealloc %c : memref<3xi8>
  }
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<2x4xf32>
  return
}

// -----

// Functions without a scratch argument are left alone.
// CHECK-LABEL: func.func @unmarked
// CHECK: memref.alloc
func.func @unmarked() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// expected-error @below {{needs a memref<?xi8> argument marked `posenc.scratch` and an index argument marked `posenc.workgroup_id`}}
func.func @scratch_type(%scratch: memref<64xi8> {posenc.scratch}, %id: index {posenc.workgroup_id}) {
  return
}

// -----

// expected-error @below {{needs a memref<?xi8> argument marked `posenc.scratch` and an index argument marked `posenc.workgroup_id`}}
func.func @no_id(%scratch: memref<?xi8> {posenc.scratch}) {
  return
}

// -----

// Partial tiles: a slot holds its largest size (4 x 16 f32 = 256 bytes and
// 4 x 8 f32 = 128 bytes), the view keeps the dynamic size.
// CHECK-LABEL: func.func @partial_tile
// CHECK-SAME: attributes {posenc.scratch_bytes = 384 : i64}
// CHECK: %[[N:.+]] = affine.min
// CHECK: memref.view %{{.+}}[%{{.+}}][%[[N]]] : memref<?xi8> to memref<4x?xf32>
// The flash nest's clamp, arith.minsi (the larger bound does not count).
// CHECK: arith.minsi
// CHECK: %[[M:.+]] = arith.minsi
// CHECK: memref.view %{{.+}}[%{{.+}}][%[[M]]] : memref<?xi8> to memref<4x?xf32>
func.func @partial_tile(%scratch: memref<?xi8> {posenc.scratch}, %id: index {posenc.workgroup_id}, %j: index, %n: index) {
  %m = affine.min affine_map<(d0)[s0] -> (16, s0 - d0)>(%j)[%n]
  %a = memref.alloc(%m) : memref<4x?xf32>
  %c8 = arith.constant 8 : index
  %c99 = arith.constant 99 : index
  %r = arith.minsi %n, %c8 : index
  %s = arith.minsi %r, %c99 : index
  %b = memref.alloc(%s) : memref<4x?xf32>
  return
}

// -----

func.func @unbounded(%scratch: memref<?xi8> {posenc.scratch}, %id: index {posenc.workgroup_id}, %n: index) {
  // expected-error @below {{has a size without a constant upper bound: its scratch slot cannot be sized}}
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

func.func @layout(%scratch: memref<?xi8> {posenc.scratch}, %id: index {posenc.workgroup_id}) {
  // expected-error @below {{needs the identity layout and the default memory space to live in scratch memory}}
  %a = memref.alloc() : memref<4xf32, strided<[2]>>
  return
}

// -----

// A buffer carried into the next iteration (double buffering) would be
// overwritten by the next run of its alloc.
func.func @carried(%scratch: memref<?xi8> {posenc.scratch}, %id: index {posenc.workgroup_id}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %init = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init) -> memref<4xf32> {
    // expected-error @below {{outlives the loop iteration that allocates it: its scratch slot would be reused while live}}
    %next = memref.alloc() : memref<4xf32>
    %view = memref.subview %next[0] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1]>>
    %cast = memref.cast %view : memref<4xf32, strided<[1]>> to memref<4xf32>
    // expected-note @below {{carried here}}
    scf.yield %cast : memref<4xf32>
  }
  return
}

// -----

// Split decode keys: the parallel loop writes partial results (%partial)
// that the ops after it read; they live in the shared scratch at offset 0
// (posenc.shared_scratch_bytes, the same for every workgroup). The loop's
// own buffer (%tmp) and the combine's (%sum) stay in the workgroup's slice;
// a prefetch of the output writes nothing.
// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[OUT:[^:]+]]: memref<4xf32>, %[[S:[^:]+]]: memref<?xi8> {posenc.scratch}, %[[SH:[^:]+]]: memref<?xi8> {posenc.shared_scratch}, %[[ID:[^:]+]]: index {posenc.workgroup_id})
// CHECK-SAME: attributes {posenc.scratch_bytes = 128 : i64, posenc.shared_scratch_bytes = 64 : i64}
// CHECK: %[[SHARED_BASE:.+]] = arith.constant 0 : index
// CHECK: %[[BASE:.+]] = arith.muli %[[ID]], %c128 : index
// CHECK: %[[O0:.+]] = arith.addi %[[SHARED_BASE]], %{{.+}} : index
// CHECK: %[[PARTIAL:.+]] = memref.view %[[SH]][%[[O0]]][] : memref<?xi8> to memref<2x4xf32>
// CHECK: scf.forall
// CHECK:   %[[O1:.+]] = arith.addi %[[BASE]], %{{.+}} : index
// CHECK:   memref.view %[[S]][%[[O1]]][] : memref<?xi8> to memref<4xf32>
// CHECK: %[[O2:.+]] = arith.addi %[[BASE]], %c64 : index
// CHECK: memref.view %[[S]][%[[O2]]][] : memref<?xi8> to memref<4xf32>
func.func @split(%out: memref<4xf32>, %scratch: memref<?xi8> {posenc.scratch},
                 %shared: memref<?xi8> {posenc.shared_scratch},
                 %id: index {posenc.workgroup_id}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %partial = memref.alloc() : memref<2x4xf32>
  scf.forall (%chunk) in (2) {
    %tmp = memref.alloc() : memref<4xf32>
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%tmp : memref<4xf32>)
    memref.prefetch %out[%c0], write, locality<3>, data : memref<4xf32>
    %row = memref.subview %partial[%chunk, 0] [1, 4] [1, 1]
        : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %tmp, %row : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
  }
  %sum = memref.alloc() : memref<4xf32>
  %first = memref.subview %partial[0, 0] [1, 4] [1, 1]
      : memref<2x4xf32> to memref<4xf32, strided<[1]>>
  memref.copy %first, %sum : memref<4xf32, strided<[1]>> to memref<4xf32>
  memref.copy %sum, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

func.func @split_without_shared(%out: memref<4xf32>, %scratch: memref<?xi8> {posenc.scratch},
                                %id: index {posenc.workgroup_id}) {
  %partial = memref.alloc() : memref<2x4xf32>
  // expected-error @below {{computes partial results that the ops after it combine: the kernel needs a memref<?xi8> argument marked `posenc.shared_scratch` for them}}
  scf.forall (%chunk) in (2) {
    %one = arith.constant 1.0 : f32
    %row = memref.subview %partial[%chunk, 0] [1, 4] [1, 1]
        : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.fill ins(%one : f32) outs(%row : memref<4xf32, strided<[1], offset: ?>>)
  }
  %first = memref.subview %partial[0, 0] [1, 4] [1, 1]
      : memref<2x4xf32> to memref<4xf32, strided<[1]>>
  memref.copy %first, %out : memref<4xf32, strided<[1]>> to memref<4xf32>
  return
}
