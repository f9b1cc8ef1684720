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

// Threads that wait for each other cannot run one after another.
func.func @barrier(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{cannot run threads that synchronize as host loops}}
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

func.func @shared(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{cannot run a gpu.launch with clusters or attributed memory as host loops}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<4xf32, #gpu.address_space<workgroup>>) {
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
