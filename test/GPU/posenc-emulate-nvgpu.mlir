// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(posenc-emulate-nvgpu))" -verify-diagnostics | FileCheck %s

// Two warps: ldmatrix lanes publish their row indices in a [warps, 32, rank]
// index scratch, mma.sync lanes their fragments in a [warps, 512] f32 one
// (A 16x16, B 16x8, C 16x8), each between two barriers; every lane then
// loads or sums its own elements (16 products per D element). Executed
// against NumPy through the attention kernels in
// test/Integration/exec-gpu-emulation-attention.test.
// CHECK-LABEL: func.func @ldmatrix_mma
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[IDX:.+]] : memref<2x32x2xindex, #gpu.address_space<workgroup>>, %[[MMA:.+]] : memref<2x512xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: nvgpu.
// CHECK: memref.store %{{.+}}, %[[IDX]]
// CHECK: gpu.barrier
// CHECK-COUNT-8: memref.load %arg0
// CHECK: vector.from_elements {{.*}} : vector<4x2xbf16>
// CHECK: gpu.barrier
// CHECK: memref.store %{{.+}}, %[[IDX]]
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load %arg1
// CHECK: gpu.barrier
// CHECK-COUNT-16: memref.store %{{.+}}, %[[MMA]]
// CHECK: gpu.barrier
// CHECK-COUNT-64: arith.mulf
// CHECK: vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK: gpu.barrier
// CHECK-NOT: nvgpu.
func.func @ldmatrix_mma(%a: memref<16x16xbf16, #gpu.address_space<workgroup>>, %b: memref<16x16xbf16, #gpu.address_space<workgroup>>, %c: memref<16x8xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c64, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %row = arith.remui %tx, %c16 : index
    %fa = nvgpu.ldmatrix %a[%row, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
    %r8 = arith.remui %tx, %c8 : index
    %fb = nvgpu.ldmatrix %b[%r8, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x16xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
    %z0 = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync (%fa, %fb, %z0) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %e = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
    memref.store %e, %c[%row, %c0] : memref<16x8xf32>
    gpu.terminator
  }
  return
}

// -----

// A warp-level op under scf.if does not run in every thread.
func.func @divergent(%a: memref<16x16xf16, #gpu.address_space<workgroup>>, %flag: i1) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    scf.if %flag {
      // expected-error @+1 {{posenc-emulate-nvgpu: a warp-level op must run in every thread (at the top level of the kernel or in scf.for loops), not under 'scf.if'}}
      %fa = nvgpu.ldmatrix %a[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    }
    gpu.terminator
  }
  return
}

// -----

// 48 threads: not whole warps.
func.func @partial_warp(%a: memref<16x16xf16, #gpu.address_space<workgroup>>) {
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  // expected-error @+1 {{posenc-emulate-nvgpu: warp-level ops need a static x-only block of whole warps}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c48, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %fa = nvgpu.ldmatrix %a[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    gpu.terminator
  }
  return
}

// -----

// Only m16n8k16 with f32 accumulators is emulated.
func.func @other_shape(%a: vector<2x2xf16>, %b: vector<1x2xf16>, %c: vector<2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    // expected-error @+1 {{posenc-emulate-nvgpu: only m16n8k16 mma.sync on f16 or bf16 with f32 accumulators is emulated}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xf16>, vector<1x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.terminator
  }
  return
}

// -----

// ldmatrix of 32-bit elements (tf32 operands) is not emulated.
func.func @ldmatrix_b32(%a: memref<16x16xf32, #gpu.address_space<workgroup>>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{posenc-emulate-nvgpu: only ldmatrix of 16-bit 8x8 matrices (vector<Nx2x16-bit>) is emulated}}
    %fa = nvgpu.ldmatrix %a[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
    gpu.terminator
  }
  return
}
