// RUN: posenc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(func.func(posenc-gpu-launch-to-loops))" | FileCheck %s

// A launch becomes loops over blocks (z, y, x) and threads (z, y, x); ids
// and sizes become the loops' induction variables and the launch operands.
// CHECK-LABEL: func.func @launch
// CHECK-SAME: (%[[OUT:.+]]: memref<6x35xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG: %[[C35:.+]] = arith.constant 35 : index
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK: scf.for %[[BX:.+]] = %[[C0]] to %[[C6]] step %[[C1]]
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK: scf.for %[[TX:.+]] = %[[C0]] to %[[C35]] step %[[C1]]
// CHECK: %[[V:.+]] = arith.index_cast %[[C35]] : index to i32
// CHECK: %[[F:.+]] = arith.sitofp %[[V]] : i32 to f32
// CHECK: memref.store %[[F]], %[[OUT]][%[[BX]], %[[TX]]]
// CHECK-NOT: gpu.
func.func @launch(%out: memref<6x35xf32>) {
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c35 = arith.constant 35 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c6, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c35, %sy = %c1, %sz = %c1) {
    %n = arith.index_cast %sx : index to i32
    %v = arith.sitofp %n : i32 to f32
    memref.store %v, %out[%bx, %tx] : memref<6x35xf32>
    gpu.terminator
  }
  return
}

// -----

// Threads that synchronize: per block, one loop over the threads per
// stretch between barriers. The loop with barriers keeps its (same in every
// thread) bounds and carries its state in per-thread buffers; a value
// defined before a barrier and used after (the state as loaded) goes
// through one too; workgroup
// memory is a host buffer; the thread-invariant index math stays outside
// the thread loops.
// CHECK-LABEL: func.func @barrier
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[BX:.+]] =
// CHECK: %[[TILE:.+]] = memref.alloc() : memref<4xf32>
// CHECK: %[[LOADED:.+]] = memref.alloc(%{{.+}}, %{{.+}}, %{{.+}}) : memref<?x?x?xf32>
// CHECK: %[[CARRY:.+]] = memref.alloc(%{{.+}}, %{{.+}}, %{{.+}}) : memref<?x?x?xf32>
// CHECK: %[[N:.+]] = arith.muli %[[BX]], %{{.+}} : index
// CHECK: scf.for %[[Z0:.+]] =
// CHECK: scf.for %[[Y0:.+]] =
// CHECK: scf.for %[[T0:.+]] =
// CHECK: memref.store %{{.+}}, %[[TILE]][%[[T0]]]
// CHECK: memref.store %{{.+}}, %[[CARRY]][%[[Z0]], %[[Y0]], %[[T0]]]
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[N]] step
// CHECK-NOT: iter_args
// CHECK: memref.load %[[CARRY]]
// CHECK: memref.store %{{.+}}, %[[LOADED]]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[T1:.+]] =
// CHECK: %[[OTHER:.+]] = arith.subi %{{.+}}, %[[T1]]
// CHECK: memref.load %[[TILE]][%[[OTHER]]]
// CHECK: memref.load %[[LOADED]]
// CHECK: memref.store %{{.+}}, %[[CARRY]]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[T2:.+]] =
// CHECK: memref.load %[[CARRY]]
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[T2]]] : memref<4xf32>
// CHECK-DAG: memref.dealloc %[[TILE]]
// CHECK-DAG: memref.dealloc %[[CARRY]]
// CHECK-DAG: memref.dealloc %[[LOADED]]
// CHECK-NOT: gpu.
func.func @barrier(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<4xf32, #gpu.address_space<workgroup>>) {
    %n = arith.muli %bx, %c3 : index
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    memref.store %f, %tile[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    %sum = scf.for %it = %c1 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      gpu.barrier
      %other = arith.subi %c3, %tx : index
      %x = memref.load %tile[%other] : memref<4xf32, #gpu.address_space<workgroup>>
      %next = arith.addf %acc, %x : f32
      scf.yield %next : f32
    }
    memref.store %sum, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A loop bound loaded from a buffer the kernel only reads, at the block's
// index (posenc.attention's key_lengths entry), is the same in every thread:
// the load stays outside the thread loops and bounds the barrier loop.
// CHECK-LABEL: func.func @loaded_bound
// CHECK-SAME: %[[N:[^:]+]]: memref<2xindex>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[BX:[^ ]+]] =
// CHECK: %[[BOUND:.+]] = memref.load %[[N]][%[[BX]]] : memref<2xindex>
// CHECK-NOT: memref.load %[[N]]
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[BOUND]]
func.func @loaded_bound(%out: memref<2x4xf32>, %n: memref<2xindex>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %bound = memref.load %n[%bx] : memref<2xindex>
    %sum = scf.for %it = %c1 to %bound step %c1 iter_args(%acc = %zero) -> (f32) {
      gpu.barrier
      %i = arith.index_cast %it : index to i32
      %f = arith.sitofp %i : i32 to f32
      %next = arith.addf %acc, %f : f32
      scf.yield %next : f32
    }
    memref.store %sum, %out[%bx, %tx] : memref<2x4xf32>
    gpu.terminator
  }
  return
}

// -----

// The same load from a buffer the kernel writes: not uniform (a thread may
// have changed it before another reads it).
func.func @written_bound(%out: memref<2x4xf32>, %n: memref<2xindex>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %tx, %n[%bx] : memref<2xindex>
    %bound = memref.load %n[%bx] : memref<2xindex>
    // expected-error @+1 {{cannot run threads that synchronize as host loops: a barrier must be at the top level of the kernel or of an scf.for whose bounds are the same in every thread}}
    scf.for %it = %c1 to %bound step %c1 {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// A barrier under a condition (not every thread may reach it) cannot run
// as host loops.
func.func @conditional_barrier(%out: memref<4xf32>, %c: i1) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{cannot run threads that synchronize as host loops: a barrier must be at the top level of the kernel or of an scf.for whose bounds are the same in every thread}}
    scf.if %c {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

func.func @async(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = gpu.wait async
  // expected-error @+1 {{cannot run an async gpu.launch as host loops}}
  %done = gpu.launch async [%t] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
