// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline)" \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o %t.mlir 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: FileCheck %s --check-prefix=PTX < %t.mlir
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline{chip=sm_90 features=+ptx80 threads=128})" \
// RUN:   | FileCheck %s --check-prefix=SM90
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline{stop-before-outlining=true})" \
// RUN:   | FileCheck %s --check-prefix=FORALL
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline{emulate-on-host=true})" \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline)" --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPELINE
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline{emulate-on-host=true})" --dump-pass-pipeline \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMULATE

// The pass order: the linalg lowering shared with the CPU, then the GPU
// tiling, then bufferization, gpu.launch, and upstream's NVVM lowering.
// PIPELINE: builtin.module(
// PIPELINE: posenc-verify-gpu-support{shared-memory=49152 tensor-cores=true threads=128},
// PIPELINE: posenc-fold-frequencies,
// PIPELINE-NEXT: convert-posenc-to-linalg,
// PIPELINE: posenc-tile-to-gpu{thread-tile=1 threads=256}
// PIPELINE: one-shot-bufferize
// PIPELINE: posenc-map-forall-to-gpu
// PIPELINE: posenc-bf16-mma-to-nvvm
// PIPELINE-NEXT: convert-nvgpu-to-nvvm
// PIPELINE-NEXT: gpu-kernel-outlining
// PIPELINE-NEXT: gpu.module(
// PIPELINE-NEXT: gpu.func(
// PIPELINE-NEXT: posenc-align-workgroup-memory{alignment=16}
// PIPELINE: nvvm-attach-target{{.*}}chip=sm_80 {{.*}}features= 
// PIPELINE: convert-gpu-to-nvvm
// PIPELINE: gpu-module-to-binary{{.*}}format=isa
// Emulation runs the same launches on the host, warp-level ops (tensor-core
// attention) as per-lane code.
// EMULATE: posenc-map-forall-to-gpu
// EMULATE: gpu-launch-sink-index-computations
// EMULATE-NEXT: )
// EMULATE-NEXT: func.func(
// EMULATE-NEXT: posenc-emulate-nvgpu,
// EMULATE-NEXT: posenc-gpu-launch-to-loops
// EMULATE-NOT: gpu-kernel-outlining
// EMULATE: convert-to-llvm

// One NVVM kernel per elementwise op, launched from the host function; the
// learned table's position check is a kernel of its own (one thread, a
// device-side assertion). Nothing of posenc, linalg or scf is left.
// NVVM: IR Dump Before GpuModuleToBinaryPass
// NVVM-NOT: posenc.
// NVVM-NOT: linalg.
// NVVM-LABEL: llvm.func @rope(
// NVVM: gpu.launch_func @rope_kernel::@rope_kernel blocks in
// NVVM-NOT: gpu.launch_func
// NVVM-LABEL: gpu.module @rope_kernel [#nvvm.target<O = 3, chip = "sm_80">]
// NVVM: llvm.func @rope_kernel(
// NVVM-SAME: gpu.kernel
// NVVM-SAME: nvvm.kernel
// NVVM-DAG: nvvm.read.ptx.sreg.ctaid.x
// NVVM-DAG: nvvm.read.ptx.sreg.tid.x
// NVVM: llvm.store
// NVVM-NOT: scf.
// NVVM-LABEL: llvm.func @alibi(
// NVVM: gpu.launch_func @alibi_kernel::@alibi_kernel
// NVVM-NOT: gpu.launch_func
// NVVM-LABEL: gpu.module @alibi_kernel
// NVVM: llvm.func @alibi_kernel(
// NVVM-SAME: nvvm.kernel
// NVVM-LABEL: llvm.func @sinusoidal(
// NVVM: gpu.launch_func @sinusoidal_kernel::@sinusoidal_kernel
// NVVM-NOT: gpu.launch_func
// NVVM-LABEL: gpu.module @sinusoidal_kernel
// NVVM: llvm.func @sinusoidal_kernel(
// NVVM-SAME: nvvm.kernel
// NVVM-LABEL: llvm.func @learned(
// NVVM: gpu.launch_func @learned_kernel::@learned_kernel blocks in (%[[ONE:.+]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])
// NVVM: gpu.launch_func @learned_kernel_0::@learned_kernel
// NVVM-NOT: gpu.launch_func
// NVVM-LABEL: gpu.module @learned_kernel
// NVVM: llvm.call @__assertfail
// NVVM-LABEL: gpu.module @learned_kernel_0
// NVVM: llvm.func @learned_kernel(
// NVVM-SAME: nvvm.kernel

// The kernels as PTX for sm_80, one binary per kernel.
// PTX-NOT: gpu.module
// PTX: gpu.binary @rope_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, {{.*}}assembly = "{{.*}}.version 7.0{{.*}}.target sm_80{{.*}}.visible .entry rope_kernel(
// PTX: gpu.binary @alibi_kernel
// PTX: gpu.binary @sinusoidal_kernel
// PTX: gpu.binary @learned_kernel
// PTX: gpu.binary @learned_kernel_0

// SM90: gpu.binary @rope_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.version 8.0{{.*}}.target sm_90{{.*}}.maxntid 128, 1, 1

// Before outlining: bufferized loop nests mapped to blocks and threads,
// computing into the function's buffers.
// FORALL-LABEL: func.func @rope(
// FORALL-NOT: gpu.launch
// FORALL: scf.forall
// FORALL: scf.forall
// FORALL: memref<1x1x1x1x1xf32
// FORALL: {mapping = [#gpu.thread<linear_dim_2>, #gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// FORALL: {mapping = [#gpu.block<linear_dim_2>, #gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
// FORALL-LABEL: func.func @alibi(
// FORALL-LABEL: func.func @sinusoidal(
// FORALL-LABEL: func.func @learned(

// The same nests as loops on the host CPU (posenc-run's numerics checks).
// HOST-LABEL: llvm.func @rope(
// HOST-NOT: gpu.
// HOST-NOT: scf.
// HOST: llvm.store
func.func @rope(%x: tensor<2x4x8x64xf32>, %p: tensor<8xi64>) -> tensor<2x4x8x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>) positions(%p : tensor<8xi64>) : tensor<2x4x8x64xf32>
  return %y : tensor<2x4x8x64xf32>
}

func.func @alibi() -> tensor<8x16x32xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 8>) : tensor<8x16x32xf32>
  return %b : tensor<8x16x32xf32>
}

func.func @sinusoidal(%p: tensor<2x16xi64>) -> tensor<2x16x64xbf16> {
  %t = posenc.sinusoidal interleaved positions(%p : tensor<2x16xi64>) : tensor<2x16x64xbf16>
  return %t : tensor<2x16x64xbf16>
}

func.func @learned(%x: tensor<2x6x16xf32>, %t: tensor<40x16xf32>, %p: tensor<2x6xi64>) -> tensor<2x6x16xf32> {
  %y = posenc.learned_absolute %x, %t positions(%p : tensor<2x6xi64>) : tensor<2x6x16xf32>, tensor<40x16xf32>
  return %y : tensor<2x6x16xf32>
}
