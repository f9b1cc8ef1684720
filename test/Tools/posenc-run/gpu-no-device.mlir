// posenc-run --gpu on a machine without a usable CUDA driver or device: one
// line on stderr, nothing on stdout, exit status 77 (automake's "skipped"),
// before the module is even compiled. The driver library is named through
// POSENC_LIBCUDA so that the test means the same on a GPU machine.

// RUN: env POSENC_LIBCUDA=%t.missing/libcuda.so.1 sh -c 'posenc-run --gpu %s 2>&1; echo rc=$?' \
// RUN:   | FileCheck %s --check-prefix=MISSING --match-full-lines
// RUN: env POSENC_LIBCUDA=%t.missing/libcuda.so.1 sh -c 'posenc-run --gpu-info 2>&1; echo rc=$?' \
// RUN:   | FileCheck %s --check-prefix=MISSING --match-full-lines
// MISSING:      posenc-run: no CUDA driver/GPU: cannot load the CUDA driver library {{.*}}missing/libcuda.so.1 ({{.*}})
// MISSING-NEXT: rc=77

// Without a device, a dry run still compiles and links (no driver needed).
// RUN: env POSENC_LIBCUDA=%t.missing/libcuda.so.1 posenc-run --gpu --dry-run %s | FileCheck %s --check-prefix=DRY
// DRY: dry run: @rope compiled and linked, not run

// A driver that reports no device (the fake one, told to): the same.
// RUN: env POSENC_LIBCUDA=%fake_libcuda FAKE_CUDA_INIT_ERROR=100 sh -c 'posenc-run --gpu %s 2>&1; echo rc=$?' \
// RUN:   | FileCheck %s --check-prefix=NODEV --match-full-lines
// NODEV:      posenc-run: no CUDA driver/GPU: the CUDA driver found no device (cuInit: CUDA_ERROR_NO_DEVICE (fake))
// NODEV-NEXT: rc=77

// Any other failure of the driver is an error (exit status 1), not a skip.
// RUN: env POSENC_LIBCUDA=%fake_libcuda FAKE_CUDA_INIT_ERROR=999 sh -c 'posenc-run --gpu %s 2>&1; echo rc=$?' \
// RUN:   | FileCheck %s --check-prefix=FAILED --match-full-lines
// FAILED:      posenc-run: error: cannot use the CUDA driver: cuInit failed: CUDA error 999 (fake)
// FAILED-NEXT: rc=1

// A library that is not a driver at all.
// RUN: env POSENC_LIBCUDA=%gpu_runtime_lib sh -c 'posenc-run --gpu %s 2>&1; echo rc=$?' \
// RUN:   | FileCheck %s --check-prefix=NOTDRIVER --match-full-lines
// NOTDRIVER:      posenc-run: no CUDA driver/GPU: {{.*}}libPosEncGPURuntime.so is not a usable CUDA driver library (it lacks cuInit)
// NOTDRIVER-NEXT: rc=77

func.func @rope(%x: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %inv, %af = posenc.rope_frequencies dim 16 base 10000.0 : tensor<8xf32>, f32
  %y = posenc.rotary %x half_split dim 16 inv_freq(%inv : tensor<8xf32>) : tensor<1x2x8x16xf32>
  return %y : tensor<1x2x8x16xf32>
}
