// RUN: posenc-opt %s --split-input-file --posenc-verify-gpu-support | FileCheck %s
// The whole pipeline takes both.
// RUN: posenc-opt %s --split-input-file \
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

// Attention with static heads and head dims passes (posenc-attention-to-gpu
// makes its kernel).
// CHECK-LABEL: func.func @attention
// CHECK: posenc.attention
func.func @attention(%q: tensor<1x4x?x8xf32>, %k: tensor<1x2x?x8xf32>,
                     %v: tensor<1x2x?x8xf32>) -> tensor<1x4x?x8xf32> {
  %o = posenc.attention %q, %k, %v causal
      : tensor<1x4x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32> -> tensor<1x4x?x8xf32>
  return %o : tensor<1x4x?x8xf32>
}
