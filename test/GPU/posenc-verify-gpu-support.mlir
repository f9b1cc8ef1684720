// RUN: posenc-opt %s --split-input-file --verify-diagnostics --posenc-verify-gpu-support | FileCheck %s
// The whole pipeline takes the first two and rejects the others alike.
// RUN: posenc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(posenc-gpu-pipeline{stop-before-outlining=true})" -o /dev/null
// Without tensor cores, the f16 attention takes 1-key tiles.
// RUN: not posenc-opt %s --split-input-file --posenc-verify-gpu-support=tensor-cores=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALAR
// The pipeline passes its attention options: with 256 threads aimed at,
// 128 rows of the f16 attention exceed the workgroup memory without tensor
// cores too.
// RUN: not posenc-opt %s --split-input-file \
// RUN:   --pass-pipeline="builtin.module(posenc-gpu-pipeline{attention-threads=256 tensor-cores=false})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// Bad options are an error, not a crash.
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(posenc-verify-gpu-support{threads=2048})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(posenc-verify-gpu-support{shared-memory=0})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: posenc-verify-gpu-support: threads must be in [1, 1024] and shared-memory positive
// SCALAR: needs 133764 bytes of GPU workgroup memory (Q tile 64 x 1024, key tile 1)
// PIPELINE: needs 265348 bytes of GPU workgroup memory (Q tile 128 x 1024, key tile 1)

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

// -----

// Attentions the kernel cannot build are rejected at the op, with the
// figures, before anything is lowered (the pipeline runs this pass first
// with its attention options).
// A block needs a row per query head of the kv head and at least
// ceil(Dv / 32) lanes per row: 64 rows x 32 lanes.
func.func @too_many_threads(%q: tensor<1x64x1x8xf32>, %k: tensor<1x1x?x8xf32>,
                            %v: tensor<1x1x?x1024xf32>) -> tensor<1x64x1x1024xf32> {
  // expected-error @+1 {{'posenc.attention' op needs 2048 threads per block on the GPU (64 rows: G = 64 query heads per kv head, 32 lanes per row for Dv = 1024), over the limit of 1024}}
  %o = posenc.attention %q, %k, %v causal
      : tensor<1x64x1x8xf32>, tensor<1x1x?x8xf32>, tensor<1x1x?x1024xf32> -> tensor<1x64x1x1024xf32>
  return %o : tensor<1x64x1x1024xf32>
}

// -----

// One query row and one key of D = 8192 in f32 (with the K row's pad word
// and the logits) exceed 48 KiB.
func.func @too_wide_for_workgroup_memory(%q: tensor<1x1x1x8192xf32>, %k: tensor<1x1x?x8192xf32>,
                                         %v: tensor<1x1x?x8xf32>) -> tensor<1x1x1x8xf32> {
  // expected-error @+1 {{'posenc.attention' op needs 65580 bytes of GPU workgroup memory (Q tile 1 x 8192, key tile 1), over the 49152 of shared-memory}}
  %o = posenc.attention %q, %k, %v
      : tensor<1x1x1x8192xf32>, tensor<1x1x?x8192xf32>, tensor<1x1x?x8xf32> -> tensor<1x1x1x8xf32>
  return %o : tensor<1x1x1x8xf32>
}

// -----

// With tensor cores, key tiles are whole 16-key mma tiles: 64 query rows of
// D = 1024 in f16 with 16 keys exceed 48 KiB.
func.func @mma_tiles_over_workgroup_memory(%q: tensor<1x8x?x1024xf16>, %k: tensor<1x8x?x1024xf16>,
                                           %v: tensor<1x8x?x64xf16>) -> tensor<1x8x?x64xf16> {
  // expected-error @+1 {{needs 191232 bytes of GPU workgroup memory (Q tile 64 x 1024, key tile 16)}}
  %o = posenc.attention %q, %k, %v causal
      : tensor<1x8x?x1024xf16>, tensor<1x8x?x1024xf16>, tensor<1x8x?x64xf16> -> tensor<1x8x?x64xf16>
  return %o : tensor<1x8x?x64xf16>
}
