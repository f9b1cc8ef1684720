// The runtime functions lowered host code calls, against those posenc-run's
// GPU runtime (tools/posenc-run/GPURuntime.cpp) provides: --gpu --dry-run
// lowers each entry with posenc-gpu-pipeline, translates the host code to
// LLVM IR, lists what it imports (checking each mgpu* function's type) and
// JIT-links it, without a device. Then the same check independently of
// posenc-run: posenc-opt + mlir-translate on the whole module, and upstream's
// gpu dialect operations (allocation, copies, memset, events) lowered by
// gpu-to-llvm.

// RUN: posenc-run --list-runtime-symbols | FileCheck %s --check-prefix=LIST --match-full-lines
// LIST:      mgpuEventCreate: ptr ()
// LIST-NEXT: mgpuEventDestroy: void (ptr)
// LIST-NEXT: mgpuEventRecord: void (ptr, ptr)
// LIST-NEXT: mgpuEventSynchronize: void (ptr)
// LIST-NEXT: mgpuLaunchKernel: void (ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
// LIST-NEXT: mgpuMemAlloc: ptr (i64, ptr, i8)
// LIST-NEXT: mgpuMemFree: void (ptr, ptr)
// LIST-NEXT: mgpuMemcpy: void (ptr, ptr, i64, ptr)
// LIST-NEXT: mgpuMemset16: void (ptr, i16, i64, ptr)
// LIST-NEXT: mgpuMemset32: void (ptr, i32, i64, ptr)
// LIST-NEXT: mgpuModuleGetFunction: ptr (ptr, ptr)
// LIST-NEXT: mgpuModuleLoad: ptr (ptr, i64)
// LIST-NEXT: mgpuModuleLoadJIT: ptr (ptr, i32)
// LIST-NEXT: mgpuModuleUnload: void (ptr)
// LIST-NEXT: mgpuSetDefaultDevice: void (i32)
// LIST-NEXT: mgpuStreamCreate: ptr ()
// LIST-NEXT: mgpuStreamDestroy: void (ptr)
// LIST-NEXT: mgpuStreamSynchronize: void (ptr)
// LIST-NEXT: mgpuStreamWaitEvent: void (ptr, ptr)
// LIST-EMPTY:

// Every entry (PTX: format=isa; gpu-runtime-symbols-cubin.mlir has cubin).
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=rope_shared_table | FileCheck %s --check-prefixes=COMMON,TEMP
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=rope_positions | FileCheck %s --check-prefix=COMMON
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=rope_partial_interleaved | FileCheck %s --check-prefix=COMMON
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=alibi | FileCheck %s --check-prefix=COMMON
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=sinusoidal | FileCheck %s --check-prefix=COMMON
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=learned | FileCheck %s --check-prefix=COMMON
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=attention | FileCheck %s --check-prefix=COMMON
// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s --entry=decode | FileCheck %s --check-prefix=COMMON
// COMMON-NOT: NOT PROVIDED
// COMMON-DAG: import mgpuModuleLoadJIT: ptr (ptr, i32): provided by the GPU runtime
// COMMON-DAG: import mgpuModuleGetFunction: ptr (ptr, ptr): provided by the GPU runtime
// COMMON-DAG: import mgpuLaunchKernel: void (ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64): provided by the GPU runtime
// COMMON-DAG: import mgpuStreamCreate: ptr (): provided by the GPU runtime
// COMMON-DAG: import mgpuStreamSynchronize: void (ptr): provided by the GPU runtime
// COMMON-DAG: import mgpuStreamDestroy: void (ptr): provided by the GPU runtime
// COMMON-DAG: import mgpuModuleUnload: void (ptr): provided by the GPU runtime
// The cos/sin table two rotaries share is a temporary of the host code:
// device memory, through the runtime.
// TEMP-DAG: import mgpuMemAlloc: ptr (i64, ptr, i8): provided by the GPU runtime
// TEMP-DAG: import mgpuMemFree: void (ptr, ptr): provided by the GPU runtime
// COMMON-NOT: NOT PROVIDED
// COMMON: dry run: @{{.+}} compiled and linked, not run

// RUN: posenc-run --list-runtime-symbols > %t.provided
// RUN: posenc-opt %s --pass-pipeline='builtin.module(posenc-gpu-pipeline{chip=sm_90})' \
// RUN:   | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: %python %S/Inputs/check_runtime_imports.py %t.ll %t.provided | FileCheck %s --check-prefix=XCHECK
// RUN: mlir-opt %S/Inputs/gpu-runtime-ops.mlir --pass-pipeline='builtin.module(gpu-to-llvm, \
// RUN:   convert-to-llvm, reconcile-unrealized-casts)' | mlir-translate --mlir-to-llvmir -o %t.ops.ll
// RUN: %python %S/Inputs/check_runtime_imports.py %t.ops.ll %t.provided | FileCheck %s --check-prefix=OPS
// XCHECK: mgpuLaunchKernel: void (ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64): provided
// XCHECK: mgpu* functions declared, all provided
// OPS-DAG: mgpuEventCreate: ptr (): provided
// OPS-DAG: mgpuEventRecord: void (ptr, ptr): provided
// OPS-DAG: mgpuStreamWaitEvent: void (ptr, ptr): provided
// OPS-DAG: mgpuMemcpy: void (ptr, ptr, i64, ptr): provided
// OPS-DAG: mgpuMemset16: void (ptr, i16, i64, ptr): provided
// OPS-DAG: mgpuMemset32: void (ptr, i32, i64, ptr): provided
// OPS: mgpu* functions declared, all provided

func.func @rope_shared_table(%q: tensor<1x2x32x64xf32>, %k: tensor<1x2x32x64xf32>)
    -> (tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>) {
  %inv, %af = posenc.rope_frequencies dim 64 base 500000.0 : tensor<32xf32>, f32
  %qr = posenc.rotary %q half_split dim 64 inv_freq(%inv : tensor<32xf32>) : tensor<1x2x32x64xf32>
  %kr = posenc.rotary %k half_split dim 64 inv_freq(%inv : tensor<32xf32>) : tensor<1x2x32x64xf32>
  return %qr, %kr : tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>
}

func.func @rope_positions(%x: tensor<2x4x8x64xf32>, %p: tensor<8xi64>) -> tensor<2x4x8x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>) positions(%p : tensor<8xi64>) : tensor<2x4x8x64xf32>
  return %y : tensor<2x4x8x64xf32>
}

func.func @rope_partial_interleaved(%x: tensor<1x4x8x64xbf16>) -> tensor<1x4x8x64xbf16> {
  %inv, %af = posenc.rope_frequencies dim 32 base 10000.0 : tensor<16xf32>, f32
  %y = posenc.rotary %x interleaved dim 32 inv_freq(%inv : tensor<16xf32>) : tensor<1x4x8x64xbf16>
  return %y : tensor<1x4x8x64xbf16>
}

func.func @alibi() -> tensor<8x16x32xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 8>) : tensor<8x16x32xf32>
  return %b : tensor<8x16x32xf32>
}

func.func @sinusoidal(%p: tensor<2x16xi64>) -> tensor<2x16x64xbf16> {
  %t = posenc.sinusoidal interleaved positions(%p : tensor<2x16xi64>) : tensor<2x16x64xbf16>
  return %t : tensor<2x16x64xbf16>
}

// The position check is a kernel of its own (a device-side assertion).
func.func @learned(%x: tensor<2x6x16xf32>, %t: tensor<40x16xf32>, %p: tensor<2x6xi64>) -> tensor<2x6x16xf32> {
  %y = posenc.learned_absolute %x, %t positions(%p : tensor<2x6xi64>) : tensor<2x6x16xf32>, tensor<40x16xf32>
  return %y : tensor<2x6x16xf32>
}

func.func @attention(%q: tensor<1x8x64x128xbf16>, %k: tensor<1x2x64x128xbf16>, %v: tensor<1x2x64x128xbf16>)
    -> tensor<1x8x64x128xbf16> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf32>, f32
  %o = posenc.attention %q, %k, %v causal rope(#posenc.rope<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf32>, %af)
      : tensor<1x8x64x128xbf16>, tensor<1x2x64x128xbf16>, tensor<1x2x64x128xbf16> -> tensor<1x8x64x128xbf16>
  return %o : tensor<1x8x64x128xbf16>
}

func.func @decode(%q: tensor<1x8x1x128xbf16>, %k: tensor<1x8x512x128xbf16>, %v: tensor<1x8x512x128xbf16>)
    -> tensor<1x8x1x128xbf16> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf32>, f32
  %off = arith.constant 511 : index
  %qr = posenc.rotary %q half_split dim 128 inv_freq(%inv : tensor<64xf32>) offset(%off : index) attention_factor(%af) : tensor<1x8x1x128xbf16>
  %o = posenc.attention %qr, %k, %v causal : tensor<1x8x1x128xbf16>, tensor<1x8x512x128xbf16>, tensor<1x8x512x128xbf16> -> tensor<1x8x1x128xbf16>
  return %o : tensor<1x8x1x128xbf16>
}
