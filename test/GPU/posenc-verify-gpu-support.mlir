// RUN: posenc-opt %s --split-input-file --verify-diagnostics --posenc-verify-gpu-support | FileCheck %s
// The pipeline rejects attention before lowering anything, at the op.
// RUN: posenc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(posenc-gpu-pipeline{stop-before-outlining=true})" -o /dev/null

// Elementwise ops go through unchanged.
// CHECK-LABEL: func.func @rotary
// CHECK: posenc.rotary
func.func @rotary(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 : tensor<4xf32>, f32
  %y = posenc.rotary %x half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x2x4x8xf32>
  return %y : tensor<1x2x4x8xf32>
}

// -----

// The GPU flash-attention kernel is a later step; the reference
// decomposition (an Sq x Sk score matrix per head) is not compiled for GPUs.
func.func @attention(%q: tensor<1x4x16x8xf32>, %k: tensor<1x2x16x8xf32>,
                     %v: tensor<1x2x16x8xf32>) -> tensor<1x4x16x8xf32> {
  // expected-error @+1 {{posenc.attention is not supported by the GPU pipeline yet (the elementwise posenc ops are); compile attention with posenc-cpu-pipeline}}
  %o = posenc.attention %q, %k, %v causal
      : tensor<1x4x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x16x8xf32>
  return %o : tensor<1x4x16x8xf32>
}
