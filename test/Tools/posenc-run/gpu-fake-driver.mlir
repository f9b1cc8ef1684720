// posenc-run --gpu's device path with a stand-in driver (test/lib/
// fake_libcuda.cpp: device memory is host memory, kernels run nothing):
// driver and context, the kernels' module loaded from PTX by the host
// code's constructor, device buffers, launches (grid and block as the
// pipeline chose them), CUDA-event timing, the copy baseline, the copy back,
// --compare-cpu, and the report. The fake kernels leave the outputs at the
// runner's zeros, so the comparison reports the CPU results' magnitude.

// RUN: env POSENC_LIBCUDA=%fake_libcuda FAKE_CUDA_TRACE=1 posenc-run --gpu %s --iterations=3 --warmup=1 \
// RUN:   --copy-baseline --compare-cpu --output=1=%t.k.npy 2>%t.trace | FileCheck %s
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
// CHECK:      gpu: Fake CUDA device, sm_90, 132 SMs, 16.0 GiB, CUDA driver 13.0
// CHECK-NEXT: compiled @rope in {{[0-9.]+}} ms (pipeline {{[0-9.]+}} ms, JIT {{[0-9.]+}} ms)
// CHECK-NEXT: compiled @rope for the CPU in {{[0-9.]+}} ms (pipeline {{[0-9.]+}} ms, JIT {{[0-9.]+}} ms)
// CHECK-NEXT: @rope: 3 iterations after 1 warmup, 2097152 bytes moved per call
// CHECK-NEXT:   median {{[0-9.e+-]+}} ms  min {{[0-9.e+-]+}} ms  max {{[0-9.e+-]+}} ms  {{[0-9.e+-]+}} GB/s
// CHECK-NEXT:   kernels: 3 launches per call, median {{[0-9.e+-]+}} ms  min {{[0-9.e+-]+}} ms  max {{[0-9.e+-]+}} ms  {{[0-9.e+-]+}} GB/s
// CHECK-NEXT:   device copy of 1048576 bytes (cuMemcpyDtoD): median {{[0-9.e+-]+}} ms  {{[0-9.e+-]+}} GB/s
// CHECK-NEXT:   compare-cpu: output 0: max abs error [[E0:[0-9.e+-]+]] (max |cpu| [[E0]])
// CHECK-NEXT:   compare-cpu: output 1: max abs error [[E1:[0-9.e+-]+]] (max |cpu| [[E1]])
// The RESULT keys of the CPU path, in their order, then --gpu's.
// CHECK-NEXT: RESULT entry=rope median_ms={{[0-9.e+-]+}} min_ms={{[0-9.e+-]+}} max_ms={{[0-9.e+-]+}} gbps={{[0-9.e+-]+}} chip=sm_90 kernel_ms={{[0-9.e+-]+}} kernel_gbps={{[0-9.e+-]+}} launches=3 copy_ms={{[0-9.e+-]+}} copy_gbps={{[0-9.e+-]+}} max_abs_err={{[0-9.e+-]+}}{{$}}
// The cos/sin table the two rotaries share (64 tokens x 32 pairs, 8 blocks
// of 256 threads), then each rotation [1, 32, 64, 2, 32]: blocks of 4 tokens
// x 2 halves x 32 pairs, 32 heads x 16 token blocks.
// TRACE:      fake-cuda: load module (PTX)
// TRACE:      fake-cuda: launch {{.+}} grid 8x1x1 block 256x1x1 shared 0
// TRACE-NEXT: fake-cuda: launch {{.+}} grid 512x1x1 block 256x1x1 shared 0
// TRACE-NEXT: fake-cuda: launch {{.+}} grid 512x1x1 block 256x1x1 shared 0
// RUN: %python -c "import numpy as np; k = np.load('%t.k.npy'); print(k.dtype, k.shape, abs(k).max())" \
// RUN:   | FileCheck %s --check-prefix=NPY
// NPY: float32 (1, 32, 64, 64) 0.0

// --chip and the default pipeline: the device's chip unless given.
// RUN: env POSENC_LIBCUDA=%fake_libcuda posenc-run --gpu --print-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: env POSENC_LIBCUDA=%fake_libcuda posenc-run --gpu --chip=sm_80 --print-pipeline | FileCheck %s --check-prefix=PIPE80
// PIPE: pipeline: posenc-gpu-pipeline{chip=sm_90}
// PIPE80: pipeline: posenc-gpu-pipeline{chip=sm_80}

// --tolerance turns the comparison into a check (exit status 1).
// RUN: env POSENC_LIBCUDA=%fake_libcuda sh -c 'posenc-run --gpu %s --iterations=1 --compare-cpu --tolerance=1e-5 2>&1; echo rc=$?' \
// RUN:   | FileCheck %s --check-prefix=TOL
// TOL: RESULT entry=rope
// TOL-NEXT: posenc-run: error: --compare-cpu: output {{[01]}} differs from the CPU's by {{[0-9.e+-]+}} at element {{[0-9]+}}, more than --tolerance=1e-05
// TOL-NEXT: rc=1

// --writable-inputs: the device inputs are restored from device copies
// before every call.
// RUN: env POSENC_LIBCUDA=%fake_libcuda posenc-run --gpu %s --iterations=2 --writable-inputs | FileCheck %s --check-prefix=WRITABLE
// WRITABLE: RESULT entry=rope {{.*}} launches=3{{$}}

// A kernel's failed runtime check (a device-side assertion) ends the run
// like the CPU path's failed check.
// RUN: env POSENC_LIBCUDA=%fake_libcuda FAKE_CUDA_ASSERT=1 sh -c 'posenc-run --gpu %s 2>&1; echo rc=$?' \
// RUN:   | FileCheck %s --check-prefix=ASSERT
// ASSERT: posenc-run: error: a runtime check of the kernel failed on the GPU (device-side assertion; cuStreamSynchronize: CUDA_ERROR_ASSERT (fake))
// ASSERT-NEXT: rc=1

// Flags that need --gpu or --compare-cpu, and --chip with --pipeline.
// RUN: not posenc-run %s --compare-cpu 2>&1 | FileCheck %s --check-prefix=FLAGS1
// RUN: not posenc-run %s --copy-baseline 2>&1 | FileCheck %s --check-prefix=FLAGS2
// RUN: not posenc-run %s --gpu --tolerance=1 2>&1 | FileCheck %s --check-prefix=FLAGS3
// RUN: not posenc-run %s --gpu --chip=sm_80 --pipeline=canonicalize 2>&1 | FileCheck %s --check-prefix=FLAGS4
// FLAGS1: posenc-run: error: --compare-cpu needs --gpu
// FLAGS2: posenc-run: error: --copy-baseline needs --gpu
// FLAGS3: posenc-run: error: --tolerance needs --compare-cpu
// FLAGS4: posenc-run: error: --chip sets the target of the default GPU pipeline; with --pipeline, give chip= in the pipeline

func.func @rope(%q: tensor<1x32x64x64xf32>, %k: tensor<1x32x64x64xf32>)
    -> (tensor<1x32x64x64xf32>, tensor<1x32x64x64xf32>) {
  %inv, %af = posenc.rope_frequencies dim 64 base 500000.0 : tensor<32xf32>, f32
  %qr = posenc.rotary %q half_split dim 64 inv_freq(%inv : tensor<32xf32>) : tensor<1x32x64x64xf32>
  %kr = posenc.rotary %k half_split dim 64 inv_freq(%inv : tensor<32xf32>) : tensor<1x32x64x64xf32>
  return %qr, %kr : tensor<1x32x64x64xf32>, tensor<1x32x64x64xf32>
}
