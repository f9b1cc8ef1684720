// Every elementwise posenc op (and an attention) on the CUDA device against
// the CPU pipeline's results on the same seeded inputs (--compare-cpu): both
// reduce angles in f64 and take the same polynomial sin/cos, so f32 results
// agree to a few ulps. UNSUPPORTED without a CUDA driver and device.
// REQUIRES: cuda-gpu

// RUN: posenc-run --gpu %s --entry=rope --compare-cpu --tolerance=1e-5 --copy-baseline | FileCheck %s
// RUN: posenc-run --gpu %s --entry=rope_partial_interleaved --compare-cpu --tolerance=1e-5 | FileCheck %s
// RUN: posenc-run --gpu %s --entry=rope_positions --int-max=4096 --compare-cpu --tolerance=1e-5 | FileCheck %s
// RUN: posenc-run --gpu %s --entry=alibi --compare-cpu --tolerance=1e-5 | FileCheck %s
// RUN: posenc-run --gpu %s --entry=sinusoidal --compare-cpu --tolerance=1e-5 | FileCheck %s
// RUN: posenc-run --gpu %s --entry=learned --int-max=40 --compare-cpu --tolerance=1e-6 | FileCheck %s
// RUN: posenc-run --gpu %s --entry=attention --compare-cpu --tolerance=1e-5 | FileCheck %s
// CHECK: gpu: {{.+}}, sm_{{[0-9]+}}, {{[0-9]+}} SMs
// CHECK: compare-cpu: output 0: max abs error
// CHECK: RESULT entry={{.+}} chip=sm_{{[0-9]+}} kernel_ms={{[0-9.e+-]+}} {{.*}}max_abs_err={{[0-9.e+-]+}}{{$}}

// A position outside the learned table: the kernel's device-side assertion.
// RUN: not posenc-run --gpu %s --entry=learned --int-max=1000 2>&1 | FileCheck %s --check-prefix=ASSERT
// ASSERT: posenc-run: error: a runtime check of the kernel failed on the GPU (device-side assertion

func.func @rope(%q: tensor<1x32x256x128xf32>, %k: tensor<1x8x256x128xf32>)
    -> (tensor<1x32x256x128xf32>, tensor<1x8x256x128xf32>) {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf32>, f32
  %qr = posenc.rotary %q half_split dim 128 inv_freq(%inv : tensor<64xf32>) : tensor<1x32x256x128xf32>
  %kr = posenc.rotary %k half_split dim 128 inv_freq(%inv : tensor<64xf32>) : tensor<1x8x256x128xf32>
  return %qr, %kr : tensor<1x32x256x128xf32>, tensor<1x8x256x128xf32>
}

func.func @rope_partial_interleaved(%x: tensor<2x4x33x80xf32>) -> tensor<2x4x33x80xf32> {
  %inv, %af = posenc.rope_frequencies dim 32 base 10000.0 : tensor<16xf64>, f32
  %y = posenc.rotary %x interleaved dim 32 inv_freq(%inv : tensor<16xf64>) : tensor<2x4x33x80xf32>
  return %y : tensor<2x4x33x80xf32>
}

func.func @rope_positions(%x: tensor<2x4x64x64xf32>, %p: tensor<2x64xi64>) -> tensor<2x4x64x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>) positions(%p : tensor<2x64xi64>) : tensor<2x4x64x64xf32>
  return %y : tensor<2x4x64x64xf32>
}

func.func @alibi() -> tensor<12x100x130xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 12>) : tensor<12x100x130xf32>
  return %b : tensor<12x100x130xf32>
}

func.func @sinusoidal(%p: tensor<2x100xi64>) -> tensor<2x100x96xf32> {
  %t = posenc.sinusoidal interleaved positions(%p : tensor<2x100xi64>) : tensor<2x100x96xf32>
  return %t : tensor<2x100x96xf32>
}

func.func @learned(%x: tensor<2x6x16xf32>, %t: tensor<40x16xf32>, %p: tensor<2x6xi64>) -> tensor<2x6x16xf32> {
  %y = posenc.learned_absolute %x, %t positions(%p : tensor<2x6xi64>) : tensor<2x6x16xf32>, tensor<40x16xf32>
  return %y : tensor<2x6x16xf32>
}

func.func @attention(%q: tensor<1x8x100x64xf32>, %k: tensor<1x2x100x64xf32>, %v: tensor<1x2x100x64xf32>)
    -> tensor<1x8x100x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf32>, f32
  %o = posenc.attention %q, %k, %v causal rope(#posenc.rope<layout = half_split, rotary_dim = 64>, %inv : tensor<32xf32>, %af)
      : tensor<1x8x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32> -> tensor<1x8x100x64xf32>
  return %o : tensor<1x8x100x64xf32>
}
