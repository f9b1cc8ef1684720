// Kernels as cubin (format=bin: the toolkit's ptxas assembles them) are
// loaded with mgpuModuleLoad, which the GPU runtime provides too.
// REQUIRES: ptxas

// RUN: env POSENC_LIBCUDA=%t.none posenc-run --gpu --dry-run %s \
// RUN:   --pipeline='posenc-gpu-pipeline{chip=sm_90 format=bin}' | FileCheck %s
// CHECK-NOT: NOT PROVIDED
// CHECK: import mgpuModuleLoad: ptr (ptr, i64): provided by the GPU runtime
// CHECK-NOT: NOT PROVIDED
// CHECK: dry run: @alibi compiled and linked, not run

func.func @alibi() -> tensor<8x16x32xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 8>) : tensor<8x16x32xf32>
  return %b : tensor<8x16x32xf32>
}
