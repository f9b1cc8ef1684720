// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(convert-posenc-to-linalg, \
// RUN:   canonicalize, cse, func.func(posenc-tile-and-vectorize{vector-width=16}))" | FileCheck %s

// RoPE on [B, H, S, D] f32: the rotation runs as one scf.forall over
// (b, h, s, half, 16-pair chunks) whose body is straight-line vector<16xf32>
// code: no scalar loop, no scalar arithmetic.
// CHECK-LABEL: func.func @rope_f32
// CHECK: scf.forall ({{.*}}) = (0, 0) to (128, 64) step (1, 16)
// CHECK: math.cos %{{.+}} : vector<16xf32>
// CHECK: math.sin %{{.+}} : vector<16xf32>
// CHECK: scf.forall ({{.*}}) = (0, 0, 0, 0, 0) to (1, 8, 128, 2, 64) step (1, 1, 1, 1, 16)
// CHECK-NOT: scf.for
// CHECK: arith.mulf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: arith.subf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<16xi1>, vector<16xf32>
// CHECK-NOT: scf.for
// CHECK: scf.forall.in_parallel
func.func @rope_f32(%x: tensor<1x8x128x128xf32>, %p: tensor<128xi64>) -> tensor<1x8x128x128xf32> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf32>, f32
  %y = posenc.rotary %x half_split dim 128 inv_freq(%inv : tensor<64xf32>) positions(%p : tensor<128xi64>) : tensor<1x8x128x128xf32>
  return %y : tensor<1x8x128x128xf32>
}

// -----

// bf16 inputs are widened to f32 in registers and narrowed once.
// CHECK-LABEL: func.func @rope_bf16
// CHECK: scf.forall ({{.*}}) = (0, 0, 0, 0, 0) to (2, 4, 16, 2, 32) step (1, 1, 1, 1, 16)
// CHECK: arith.extf %{{.+}} : vector<16xbf16> to vector<16xf32>
// CHECK: arith.truncf %{{.+}} : vector<16xf32> to vector<16xbf16>
func.func @rope_bf16(%x: tensor<2x4x16x64xbf16>) -> tensor<2x4x16x64xbf16> {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf32>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf32>) : tensor<2x4x16x64xbf16>
  return %y : tensor<2x4x16x64xbf16>
}

// -----

// A remainder tile (16 pairs do not divide 24) is vectorized with masked
// transfers (masks lowered into the transfer ops).
// CHECK-LABEL: func.func @rope_remainder
// CHECK: %[[MASK:.+]] = vector.create_mask %{{.+}}, %{{.+}} : vector<1x16xi1>
// CHECK: vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}], %[[MASK]]
// CHECK-NOT: vector.mask
func.func @rope_remainder(%x: tensor<4x48xf32>) -> tensor<4x48xf32> {
  %inv, %af = posenc.rope_frequencies dim 48 base 10000.0 : tensor<24xf32>, f32
  %y = posenc.rotary %x half_split dim 48 inv_freq(%inv : tensor<24xf32>) : tensor<4x48xf32>
  return %y : tensor<4x48xf32>
}
