// RUN: posenc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(func.func(posenc-forall-to-workgroups))" | FileCheck %s

// The forall that writes the output becomes a loop over its 3 x 4
// iterations; the forall that fills a private buffer runs whole in every
// workgroup. When the count divides the 3 rows (the leading dimension),
// each workgroup takes a contiguous range of whole rows, last dimension
// fastest; otherwise the iterations id, id + count, ... of the linearized
// forall, first dimension fastest.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%[[OUT:.+]]: memref<6x8xf32>, %[[ID:.+]]: index {posenc.workgroup_id}, %[[COUNT:.+]]: index {posenc.workgroup_count})
// CHECK-SAME: attributes {posenc.workgroup_units = 12 : i64}
// CHECK-NOT: scf.forall
// CHECK: %[[TMP:.+]] = memref.alloc() : memref<4xf32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:   memref.store %{{.+}}, %[[TMP]][%[[I]]]
// CHECK: %[[C12:.+]] = arith.constant 12 : index
// CHECK: %[[REM:.+]] = arith.remui %c3{{[_0-9]*}}, %[[COUNT]] : index
// CHECK: %[[BLOCKED:.+]] = arith.cmpi eq, %[[REM]], %{{.+}} : index
// CHECK: %[[PER:.+]] = arith.divui %[[C12]], %[[COUNT]] : index
// CHECK: %[[BEGIN:.+]] = arith.muli %[[ID]], %[[PER]] : index
// CHECK: %[[LB:.+]] = arith.select %[[BLOCKED]], %[[BEGIN]], %[[ID]] : index
// CHECK: %[[END:.+]] = arith.addi %[[BEGIN]], %[[PER]] : index
// CHECK: %[[UB:.+]] = arith.select %[[BLOCKED]], %[[END]], %[[C12]] : index
// CHECK: %[[STEP:.+]] = arith.select %[[BLOCKED]], %{{.+}}, %[[COUNT]] : index
// CHECK: scf.for %[[U:.+]] = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK:   %[[IJ:.+]]:2 = affine.delinearize_index %[[U]] into (3, 4) : index, index
// CHECK:   %[[JI:.+]]:2 = affine.delinearize_index %[[U]] into (4, 3) : index, index
// CHECK:   %[[R:.+]] = arith.select %[[BLOCKED]], %[[IJ]]#0, %[[JI]]#1 : index
// CHECK:   %[[C:.+]] = arith.select %[[BLOCKED]], %[[IJ]]#1, %[[JI]]#0 : index
// CHECK:   %[[ROW:.+]] = arith.muli %[[R]], %{{.+}} : index
// CHECK:   %[[COL:.+]] = arith.muli %[[C]], %{{.+}} : index
// CHECK:   memref.subview %[[OUT]][%[[ROW]], %[[COL]]] [2, 2] [1, 1]
func.func @kernel(%out: memref<6x8xf32>, %id: index {posenc.workgroup_id},
                  %count: index {posenc.workgroup_count}) {
  %tmp = memref.alloc() : memref<4xf32>
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    memref.store %one, %tmp[%i] : memref<4xf32>
  }
  scf.forall (%r, %c) = (0, 0) to (6, 8) step (2, 2) {
    %tile = memref.subview %out[%r, %c] [2, 2] [1, 1]
        : memref<6x8xf32> to memref<2x2xf32, strided<[8, 1], offset: ?>>
    linalg.fill ins(%one : f32) outs(%tile : memref<2x2xf32, strided<[8, 1], offset: ?>>)
  }
  memref.dealloc %tmp : memref<4xf32>
  return
}

// -----

// A dynamic iteration count: the loop bound is computed, and no
// posenc.workgroup_units is recorded.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: posenc.workgroup_units
// CHECK: %[[N:.+]] = memref.dim
// CHECK: %[[UNITS:.+]] = arith.maxsi %[[N]], %{{.+}} : index
// CHECK: %[[UB:.+]] = arith.select %{{.+}}, %{{.+}}, %[[UNITS]] : index
// CHECK: scf.for %[[U:.+]] = %{{.+}} to %[[UB]] step
// CHECK:   affine.delinearize_index %[[U]] into (%[[UNITS]]) : index
func.func @dynamic(%out: memref<?xf32>, %id: index {posenc.workgroup_id},
                   %count: index {posenc.workgroup_count}) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %out, %c0 : memref<?xf32>
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (%n) {
    memref.store %one, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// The flash nest's shape (batch, kv head, query block): when the count
// divides the 2 x 3 leading slices, each workgroup takes a contiguous range
// of 24 / count iterations, last dimension fastest.
// CHECK-LABEL: func.func @nest
// CHECK-SAME: %[[ID:[^:]+]]: index {posenc.workgroup_id}, %[[COUNT:[^:]+]]: index {posenc.workgroup_count}
// CHECK-SAME: attributes {posenc.workgroup_units = 24 : i64}
// CHECK: %[[C24:.+]] = arith.constant 24 : index
// CHECK: %[[SIX:.+]] = arith.constant 6 : index
// CHECK: %[[REM:.+]] = arith.remui %[[SIX]], %[[COUNT]] : index
// CHECK: %[[BLOCKED:.+]] = arith.cmpi eq, %[[REM]], %{{.+}} : index
// CHECK: %[[PER:.+]] = arith.divui %[[C24]], %[[COUNT]] : index
// CHECK: scf.for %[[U:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:   %[[ROW_MAJOR:.+]]:3 = affine.delinearize_index %[[U]] into (2, 3, 4)
// CHECK:   %[[COL_MAJOR:.+]]:3 = affine.delinearize_index %[[U]] into (4, 3, 2)
// CHECK:   %[[B:.+]] = arith.select %[[BLOCKED]], %[[ROW_MAJOR]]#0, %[[COL_MAJOR]]#2 : index
// CHECK:   %[[H:.+]] = arith.select %[[BLOCKED]], %[[ROW_MAJOR]]#1, %[[COL_MAJOR]]#1 : index
// CHECK:   %[[Q:.+]] = arith.select %[[BLOCKED]], %[[ROW_MAJOR]]#2, %[[COL_MAJOR]]#0 : index
// CHECK:   memref.store %{{.+}}, %{{.+}}[%[[B]], %[[H]], %[[Q]]]
func.func @nest(%out: memref<2x3x4xf32>, %id: index {posenc.workgroup_id},
                %count: index {posenc.workgroup_count}) {
  %one = arith.constant 1.0 : f32
  scf.forall (%b, %h, %q) in (2, 3, 4) {
    memref.store %one, %out[%b, %h, %q] : memref<2x3x4xf32>
  }
  return
}

// -----

// Functions without the markers are left alone.
// CHECK-LABEL: func.func @unmarked
// CHECK: scf.forall
func.func @unmarked(%out: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    memref.store %one, %out[%i] : memref<4xf32>
  }
  return
}

// -----

// expected-error @below {{needs an index argument marked `posenc.workgroup_id` and one marked `posenc.workgroup_count`}}
func.func @no_count(%out: memref<4xf32>, %id: index {posenc.workgroup_id}) {
  return
}

// -----

// No parallel loop (a kernel smaller than one block): workgroup 0 runs it.
// CHECK-LABEL: func.func @no_forall
// CHECK-SAME: attributes {posenc.workgroup_units = 1 : i64}
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %{{.+}}, %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK:   memref.store
// CHECK: }
// CHECK-NEXT: return
func.func @no_forall(%out: memref<4xf32>, %id: index {posenc.workgroup_id},
                     %count: index {posenc.workgroup_count}) {
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  memref.store %one, %out[%c0] : memref<4xf32>
  return
}

// -----

// expected-error @below {{returns values: a kernel without a parallel loop can run as workgroup 0 only if it returns nothing}}
func.func @no_forall_result(%out: memref<4xf32>, %id: index {posenc.workgroup_id},
                            %count: index {posenc.workgroup_count}) -> f32 {
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  memref.store %one, %out[%c0] : memref<4xf32>
  return %one : f32
}

// -----

// Two foralls writing the output: the second would read the first's
// results across workgroups.
// expected-error @below {{needs exactly one top-level scf.forall that writes the kernel's arguments, found 2}}
func.func @two_shared(%out: memref<4xf32>, %id: index {posenc.workgroup_id},
                      %count: index {posenc.workgroup_count}) {
  %one = arith.constant 1.0 : f32
  // expected-note @below {{this one}}
  scf.forall (%i) in (4) {
    memref.store %one, %out[%i] : memref<4xf32>
  }
  // expected-note @below {{this one}}
  scf.forall (%i) in (4) {
    memref.store %one, %out[%i] : memref<4xf32>
  }
  return
}

// -----

// A combine after the parallel loop (a decode split) writes the output in
// every workgroup.
func.func @write_after(%out: memref<4xf32>, %id: index {posenc.workgroup_id},
                       %count: index {posenc.workgroup_count}) {
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (4) {
    memref.store %one, %out[%i] : memref<4xf32>
  }
  // expected-error @below {{writes the kernel's arguments (or memory it does not allocate) outside the scf.forall that becomes the workgroups}}
  memref.store %one, %out[%c0] : memref<4xf32>
  return
}

// -----

func.func @nested(%out: memref<4xf32>, %id: index {posenc.workgroup_id},
                  %count: index {posenc.workgroup_count}) {
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %c2 step %c1 {
    // expected-error @below {{must be in the kernel's entry block to run as workgroups}}
    scf.forall (%i) in (4) {
      memref.store %one, %out[%i] : memref<4xf32>
    }
  }
  return
}

// -----

func.func @tensors(%out: tensor<4xf32>, %id: index {posenc.workgroup_id},
                   %count: index {posenc.workgroup_count}) -> tensor<4xf32> {
  // expected-error @below {{on tensors: posenc-forall-to-workgroups runs after bufferization}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %out) -> tensor<4xf32> {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}

// -----

// Two phases (split decode keys): the loop writes partial results to the
// shared scratch, the ops after it combine them into the output. Phase 0
// runs the loop over the workgroups, phase 1 the combine on workgroup 0;
// what precedes the loop (private work) runs in both. A prefetch is no
// write.
// CHECK-LABEL: func.func @two_phases
// CHECK-SAME: %[[PHASE:[^:]+]]: index {posenc.workgroup_phase}, %[[ID:[^:]+]]: index {posenc.workgroup_id}
// CHECK-SAME: attributes {posenc.workgroup_phases = 2 : i64, posenc.workgroup_units = 2 : i64}
// CHECK: linalg.fill {{.*}} outs(%[[TMP:.+]] : memref<4xf32>)
// CHECK: %[[P0:.+]] = arith.cmpi eq, %[[PHASE]], %c0{{.*}} : index
// CHECK: scf.if %[[P0]] {
// CHECK:   scf.for
// CHECK:     memref.prefetch
// CHECK:     memref.copy %[[TMP]], %{{.+}} : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
// CHECK: }
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[ID]], %c0{{.*}} : index
// CHECK: %[[P1:.+]] = arith.cmpi eq, %[[PHASE]], %c1{{.*}} : index
// CHECK: %[[COMBINE:.+]] = arith.andi %[[P1]], %[[FIRST]] : i1
// CHECK: scf.if %[[COMBINE]] {
// CHECK:   memref.copy %{{.+}}, %{{.+}} : memref<4xf32, strided<[1]>> to memref<4xf32>
// CHECK: }
// CHECK-NEXT: return
func.func @two_phases(%out: memref<4xf32>, %scratch: memref<?xi8> {posenc.scratch},
                      %shared: memref<?xi8> {posenc.shared_scratch},
                      %phase: index {posenc.workgroup_phase},
                      %id: index {posenc.workgroup_id}, %count: index {posenc.workgroup_count}) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %tmp = memref.view %scratch[%c0][] : memref<?xi8> to memref<4xf32>
  linalg.fill ins(%one : f32) outs(%tmp : memref<4xf32>)
  %partial = memref.view %shared[%c0][] : memref<?xi8> to memref<2x4xf32>
  scf.forall (%chunk) in (2) {
    memref.prefetch %out[%c0], write, locality<3>, data : memref<4xf32>
    %row = memref.subview %partial[%chunk, 0] [1, 4] [1, 1]
        : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %tmp, %row : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
  }
  %first = memref.subview %partial[0, 0] [1, 4] [1, 1]
      : memref<2x4xf32> to memref<4xf32, strided<[1]>>
  memref.copy %first, %out : memref<4xf32, strided<[1]>> to memref<4xf32>
  return
}

// -----

// Writes after the loop without a phase argument: every workgroup would run
// them; the error says what makes them a second phase.
func.func @after_without_phase(%out: memref<4xf32>, %shared: memref<?xi8> {posenc.shared_scratch},
                               %id: index {posenc.workgroup_id}, %count: index {posenc.workgroup_count}) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %partial = memref.view %shared[%c0][] : memref<?xi8> to memref<2x4xf32>
  scf.forall (%chunk) in (2) {
    %row = memref.subview %partial[%chunk, 0] [1, 4] [1, 1]
        : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.fill ins(%one : f32) outs(%row : memref<4xf32, strided<[1], offset: ?>>)
  }
  // expected-error @below {{writes the kernel's arguments (or memory it does not allocate) outside the scf.forall that becomes the workgroups: every workgroup would run it (after it: an index argument marked `posenc.workgroup_phase` runs it as a second phase)}}
  linalg.fill ins(%one : f32) outs(%out : memref<4xf32>)
  return
}

// -----

// Writes before the loop cannot be a phase: refused with a phase argument.
func.func @before_with_phase(%out: memref<4xf32>, %shared: memref<?xi8> {posenc.shared_scratch},
                             %phase: index {posenc.workgroup_phase},
                             %id: index {posenc.workgroup_id}, %count: index {posenc.workgroup_count}) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  // expected-error @below {{writes the kernel's arguments (or memory it does not allocate) outside the scf.forall that becomes the workgroups: every workgroup would run it}}
  linalg.fill ins(%one : f32) outs(%out : memref<4xf32>)
  %partial = memref.view %shared[%c0][] : memref<?xi8> to memref<2x4xf32>
  scf.forall (%chunk) in (2) {
    %row = memref.subview %partial[%chunk, 0] [1, 4] [1, 1]
        : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.fill ins(%one : f32) outs(%row : memref<4xf32, strided<[1], offset: ?>>)
  }
  linalg.fill ins(%one : f32) outs(%out : memref<4xf32>)
  return
}

// -----

// expected-error @below {{returns values: a kernel in two phases must return nothing}}
func.func @two_phases_returning(%out: memref<4xf32>, %shared: memref<?xi8> {posenc.shared_scratch},
                                %phase: index {posenc.workgroup_phase},
                                %id: index {posenc.workgroup_id}, %count: index {posenc.workgroup_count}) -> index {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %partial = memref.view %shared[%c0][] : memref<?xi8> to memref<2x4xf32>
  scf.forall (%chunk) in (2) {
    %row = memref.subview %partial[%chunk, 0] [1, 4] [1, 1]
        : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.fill ins(%one : f32) outs(%row : memref<4xf32, strided<[1], offset: ?>>)
  }
  linalg.fill ins(%one : f32) outs(%out : memref<4xf32>)
  return %c0 : index
}
