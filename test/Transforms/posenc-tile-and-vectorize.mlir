// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(convert-posenc-to-linalg, \
// RUN:   canonicalize, cse, func.func(posenc-tile-and-vectorize{vector-width=16 block-elements=65536}))" | FileCheck %s
// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(convert-posenc-to-linalg, \
// RUN:   canonicalize, cse, func.func(posenc-tile-and-vectorize{block-elements=1024}))" | FileCheck %s --check-prefix=SMALL
// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(convert-posenc-to-linalg, \
// RUN:   canonicalize, cse, func.func(posenc-tile-and-vectorize{vector-width=8 block-elements=65536}))" | FileCheck %s --check-prefix=AVX2
// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(posenc-tile-and-vectorize{vector-width=16 block-elements=524288}))" | FileCheck %s --check-prefix=BIG
// RUN: not posenc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(posenc-tile-and-vectorize{block-elements=0}))" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: block-elements must be positive

// RoPE on [B, H, S, D] f32: blocks of 64 tokens (8 heads x 64 tokens x 128
// channels = 65536 rotations, block-elements=65536) on an scf.forall.
// Each block computes the cos/sin rows of its tokens once (the table
// generic, fused into the block), then rotates every head's rows with them:
// loops over (head, token, channel half, 16-pair chunk) whose body is
// straight-line vector<16xf32> code (no inner scalar loop).
// CHECK-LABEL: func.func @rope_f32
// CHECK: scf.forall ({{.*}}) = (0) to (128) step (64)
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c16
// CHECK: math.cos %{{.+}} {posenc.reduced_angle} : vector<16xf32>
// CHECK: math.sin %{{.+}} {posenc.reduced_angle} : vector<16xf32>
// The table is computed once per block (one copy for cos and sin).
// CHECK-NOT: math.cos
// CHECK: scf.for %{{.+}} = %c0 to %c8 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c16
// CHECK-NOT: scf.for
// CHECK: arith.mulf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: arith.subf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<16xi1>, vector<16xf32>
// CHECK-NOT: scf.for
// CHECK: scf.forall.in_parallel
// CHECK-NOT: math.cos
func.func @rope_f32(%x: tensor<1x8x128x128xf32>, %p: tensor<128xi64>) -> tensor<1x8x128x128xf32> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf32>, f32
  %y = posenc.rotary %x half_split dim 128 inv_freq(%inv : tensor<64xf32>) positions(%p : tensor<128xi64>) : tensor<1x8x128x128xf32>
  return %y : tensor<1x8x128x128xf32>
}

// -----

// bf16 inputs are widened to f32 in registers and narrowed once. The op
// is smaller than one block: no scf.forall.
// CHECK-LABEL: func.func @rope_bf16
// CHECK-NOT: scf.forall
// CHECK: scf.for %{{.+}} = %c0 to %c32 step %c16
// With block-elements=1024: blocks of 2 tokens x 2 batches x 4 heads x 64
// channels; batch and heads stay whole (the cos/sin rows do not depend on
// them).
// SMALL-LABEL: func.func @rope_bf16
// SMALL: scf.forall ({{.*}}) = (0) to (16) step (2)
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

// -----

// GQA as `h floordiv 3` (linalg from an importer). Upstream tiling slices k
// at `h0 floordiv 3` and keeps the map for the tile's local heads, which is
// exact only when h0 is a multiple of 3: blocks of 2 heads (what 1024
// elements / 512 per head would give) would read the wrong kv head. A
// semi-affine dim is tiled by 1 or not at all.
// SMALL-LABEL: func.func @semi_affine_root
// SMALL: scf.forall (%{{.+}}, %[[H:.+]]) in (1, 12)
// SMALL: %[[KV:.+]] = affine.apply #{{.+}}(%[[H]])
// SMALL: tensor.extract_slice %{{.+}}[%{{.+}}, %[[KV]], 0, 0] [1, 1, 16, 32]
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#kv4 = affine_map<(b, h, i, j) -> (b, h floordiv 3, i, j)>
func.func @semi_affine_root(%q: tensor<1x12x16x32xf32>, %k: tensor<1x4x16x32xf32>) -> tensor<1x12x16x32xf32> {
  %e = tensor.empty() : tensor<1x12x16x32xf32>
  %o = linalg.generic {indexing_maps = [#id4, #kv4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q, %k : tensor<1x12x16x32xf32>, tensor<1x4x16x32xf32>) outs(%e : tensor<1x12x16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x12x16x32xf32>
  return %o : tensor<1x12x16x32xf32>
}

// -----

// The same op as the producer of an elementwise root: fusing it would tile
// it by the root's blocks (2 heads), so it is computed before the blocks.
// SMALL-LABEL: func.func @semi_affine_producer
// SMALL: linalg.generic {{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x1x1x16xf32>, tensor<1x1x1x16xf32>)
// SMALL: scf.forall ({{.*}}) = (0, 0) to (1, 12) step (1, 2)
// SMALL-NOT: arith.addf
// SMALL: arith.negf %{{.+}} : vector<16xf32>
// SMALL: scf.forall.in_parallel
#id4p = affine_map<(b, h, i, j) -> (b, h, i, j)>
#kv4p = affine_map<(b, h, i, j) -> (b, h floordiv 3, i, j)>
func.func @semi_affine_producer(%q: tensor<1x12x16x32xf32>, %k: tensor<1x4x16x32xf32>) -> tensor<1x12x16x32xf32> {
  %e = tensor.empty() : tensor<1x12x16x32xf32>
  %s = linalg.generic {indexing_maps = [#id4p, #kv4p, #id4p], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q, %k : tensor<1x12x16x32xf32>, tensor<1x4x16x32xf32>) outs(%e : tensor<1x12x16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x12x16x32xf32>
  %e2 = tensor.empty() : tensor<1x12x16x32xf32>
  %o = linalg.generic {indexing_maps = [#id4p, #id4p], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x12x16x32xf32>) outs(%e2 : tensor<1x12x16x32xf32>) {
  ^bb0(%a: f32, %c: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x12x16x32xf32>
  return %o : tensor<1x12x16x32xf32>
}

// -----

// Contraction register tiles (the flash-attention QK^T form: scores[g, i, n]
// = sum_r q[g, i, r] * kt[r, n]): 8 rows of the innermost M dim x lanes on
// N. With 16 lanes (AVX-512: 32 registers) a full tile takes 2 vectors of
// lanes, 16 accumulators: vector<1x8x32> (AVX2's 8 lanes keep one vector:
// AVX2 prefix). A reduction of 256 steps would make that tile 2^16
// elements, over the contraction limit: it keeps one vector (@qk_d256, in
// blocks of 32 rows: BIG prefix; the 64 Ki-iteration blocks above hold 4).
// CHECK-LABEL: func.func @qk_d128
// CHECK: vector.contract {{.+}} : vector<1x8x128xf32>, vector<128x32xf32> into vector<1x8x32xf32>
// AVX2-LABEL: func.func @qk_d128
// AVX2: vector.contract {{.+}} : vector<1x8x128xf32>, vector<128x8xf32> into vector<1x8x8xf32>
func.func @qk_d128(%q: tensor<4x64x128xf32>, %kt: tensor<128x64xf32>, %init: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(g, i, n, r) -> (g, i, r)>, affine_map<(g, i, n, r) -> (r, n)>, affine_map<(g, i, n, r) -> (g, i, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<4x64x128xf32>, tensor<128x64xf32>) outs(%init : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x64x64xf32>
  return %s : tensor<4x64x64xf32>
}

// BIG-LABEL: func.func @qk_d128
// BIG: vector.contract {{.+}} : vector<1x8x128xf32>, vector<128x32xf32> into vector<1x8x32xf32>
// BIG-LABEL: func.func @qk_d256
// BIG: vector.contract {{.+}} : vector<1x8x256xf32>, vector<256x16xf32> into vector<1x8x16xf32>
func.func @qk_d256(%q: tensor<4x64x256xf32>, %kt: tensor<256x64xf32>, %init: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(g, i, n, r) -> (g, i, r)>, affine_map<(g, i, n, r) -> (r, n)>, affine_map<(g, i, n, r) -> (g, i, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<4x64x256xf32>, tensor<256x64xf32>) outs(%init : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x64x64xf32>
  return %s : tensor<4x64x64xf32>
}
