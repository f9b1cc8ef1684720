// The CUDA toolkit's stub libcuda (what machines with the toolkit but no
// driver have): cuInit answers CUDA_ERROR_STUB_LIBRARY, which posenc-run
// reports as no driver, exit status 77.
// REQUIRES: cuda-stub-libcuda

// RUN: env POSENC_LIBCUDA=%cuda_stub_libcuda sh -c 'posenc-run --gpu %s 2>&1; echo rc=$?' \
// RUN:   | FileCheck %s --match-full-lines
// CHECK:      posenc-run: no CUDA driver/GPU: {{.*}}libcuda.so is the CUDA toolkit's stub library, not a driver (cuInit: CUDA_ERROR_STUB_LIBRARY{{.*}})
// CHECK-NEXT: rc=77

func.func @scale(%x: tensor<16xf32>) -> tensor<16xf32> {
  %y = arith.addf %x, %x : tensor<16xf32>
  return %y : tensor<16xf32>
}
