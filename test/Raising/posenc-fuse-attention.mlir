// RUN: posenc-opt %s --split-input-file --posenc-fuse-attention | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-fuse-attention=print-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// posenc-fuse-attention: attention(rotary(q), rotary(k), v) -> attention with
// rope(...). Each near miss differs from the positive case it names in the
// one detail it breaks; near misses keep both rotaries and the attention
// reads them.

// The STATS run: one count line per split, in order.
// STATS: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 0 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 0 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 0 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 0 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 0 fused-rotary
// STATS-NOT: posenc-fuse-attention

// attention(rotary(q), rotary(k), v), causal, implicit positions 0..3 for
// both: the rotation moves into the attention.
// CHECK-LABEL: func.func @fuse_causal(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal rope(<layout = half_split, rotary_dim = 8>, %[[INV]] : tensor<4xf32>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @fuse_causal(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// The same attention factor on Q and K moves along.
// CHECK-LABEL: func.func @fuse_attention_factor(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[AF:.+]] = arith.constant 1.250000e+00 : f32
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal rope(<layout = half_split, rotary_dim = 8>, %[[INV]] : tensor<4xf32>, %[[AF]]) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @fuse_attention_factor(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %af = arith.constant 1.250000e+00 : f32
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) attention_factor(%af) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) attention_factor(%af) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @fuse_attention_factor: only Q carries the attention factor.
// Not fused.
// CHECK-LABEL: func.func @attention_factor_only_q(
// CHECK: %[[QR:.+]] = posenc.rotary %{{[^ ]+}} half_split dim 8 inv_freq(%{{.+}} : tensor<4xf32>) attention_factor(
// CHECK: %[[KR:.+]] = posenc.rotary %{{[^ ]+}} half_split dim 8 inv_freq(%{{.+}} : tensor<4xf32>) : tensor<1x2x4x8xf32>
// CHECK: posenc.attention %[[QR]], %[[KR]], %{{[^ ]+}} causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
func.func @attention_factor_only_q(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %af = arith.constant 1.250000e+00 : f32
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) attention_factor(%af) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Partial rotary: dim 4 of D = 8, inv_freq of 2 entries.
// CHECK-LABEL: func.func @fuse_partial(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 0.00999999977]> : tensor<2xf32>
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal rope(<layout = half_split, rotary_dim = 4>, %[[INV]] : tensor<2xf32>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @fuse_partial(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 0.00999999977]> : tensor<2xf32>
  %qr = posenc.rotary %q half_split dim 4 inv_freq(%inv : tensor<2xf32>) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 4 inv_freq(%inv : tensor<2xf32>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// GQA: K and V with 1 head for 2 query heads.
// CHECK-LABEL: func.func @fuse_gqa(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x1x4x8xf32>, %[[V:[^:]+]]: tensor<1x1x4x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal rope(<layout = half_split, rotary_dim = 8>, %[[INV]] : tensor<4xf32>) : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @fuse_gqa(%q: tensor<1x2x4x8xf32>, %k: tensor<1x1x4x8xf32>, %v: tensor<1x1x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x1x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Decode: one query at position 3 (offset 3) against 4 keys at 0..3; the
// attention's bottom-right alignment puts the query at 3 too: fused.
// CHECK-LABEL: func.func @fuse_decode_offset(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x1x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal rope(<layout = half_split, rotary_dim = 8>, %[[INV]] : tensor<4xf32>) : tensor<1x2x1x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x1x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @fuse_decode_offset(%q: tensor<1x2x1x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x1x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %off = arith.constant 3 : index
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) offset(%off : index) : tensor<1x2x1x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x1x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x1x8xf32>
  return %o : tensor<1x2x1x8xf32>
}

// -----

// Near miss of @fuse_decode_offset: Q rotated at position 2 while the mask
// puts it at 3. Not fused.
// CHECK-LABEL: func.func @decode_offset_mismatch(
// CHECK: %[[QR:.+]] = posenc.rotary %{{[^ ]+}} half_split dim 8 {{.+}} offset(%{{.+}} : index)
// CHECK: %[[KR:.+]] = posenc.rotary %{{[^ ]+}} half_split dim 8
// CHECK: posenc.attention %[[QR]], %[[KR]], %{{[^ ]+}} causal : tensor<1x2x1x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x1x8xf32>
func.func @decode_offset_mismatch(%q: tensor<1x2x1x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x1x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %off = arith.constant 2 : index
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) offset(%off : index) : tensor<1x2x1x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x1x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x1x8xf32>
  return %o : tensor<1x2x1x8xf32>
}

// -----

// Near miss of @fuse_causal: K rotated with other frequencies than Q. Not
// fused.
// CHECK-LABEL: func.func @different_frequencies(
// CHECK-DAG: %[[INV1:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[INV2:.+]] = arith.constant dense<[1.000000e+00, 5.000000e-02, 2.500000e-03, 1.250000e-04]> : tensor<4xf32>
// CHECK: %[[QR:.+]] = posenc.rotary %{{.+}} inv_freq(%[[INV1]] : tensor<4xf32>)
// CHECK: %[[KR:.+]] = posenc.rotary %{{.+}} inv_freq(%[[INV2]] : tensor<4xf32>)
// CHECK: posenc.attention %[[QR]], %[[KR]], %{{[^ ]+}} causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
func.func @different_frequencies(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %inv2 = arith.constant dense<[1.000000e+00, 5.000000e-02, 2.500000e-03, 1.250000e-04]> : tensor<4xf32>
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv2 : tensor<4xf32>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Both rotaries at one positions tensor, no mask and no bias: the positions
// only feed RoPE and become the attention's q/k positions.
// CHECK-LABEL: func.func @fuse_explicit_positions(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>, %[[POS:[^:]+]]: tensor<4xi64>
// CHECK: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] rope(<layout = half_split, rotary_dim = 8>, %[[INV]] : tensor<4xf32>) q_positions(%[[POS]] : tensor<4xi64>) k_positions(%[[POS]] : tensor<4xi64>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @fuse_explicit_positions(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %pos: tensor<4xi64>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<4xi64>) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<4xi64>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// @fuse_explicit_positions with a causal mask (and ALiBi below): as plain
// q/k positions they would also move the mask off the token indices it was
// built from, so they become RoPE's alone (rope_only_positions; HF's
// position_ids after left padding).
// CHECK-LABEL: func.func @explicit_positions_causal(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>, %[[POS:[^:]+]]: tensor<4xi64>
// CHECK-NOT: posenc.rotary
// CHECK: posenc.attention %[[Q]], %[[K]], %[[V]] causal rope(<layout = half_split, rotary_dim = 8>, %{{.+}} : tensor<4xf32>) q_positions(%[[POS]] : tensor<4xi64>) k_positions(%[[POS]] : tensor<4xi64>) rope_only_positions :
// CHECK-NOT: posenc.rotary
func.func @explicit_positions_causal(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %pos: tensor<4xi64>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<4xi64>) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<4xi64>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @explicit_positions_alibi(
// CHECK-NOT: posenc.rotary
// CHECK: posenc.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} rope(<layout = half_split, rotary_dim = 8>, %{{.+}} : tensor<4xf32>) alibi(<num_heads = 2>) q_positions(%{{[^ ]+}} : tensor<1x4xi64>) k_positions(%{{[^ ]+}} : tensor<1x4xi64>) rope_only_positions :
func.func @explicit_positions_alibi(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %pos: tensor<1x4xi64>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<1x4xi64>) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<1x4xi64>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v alibi(<num_heads = 2>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @explicit_positions_causal: the rotaries' positions differ
// from each other's offsets (a runtime offset on q). Not fused.
// CHECK-LABEL: func.func @explicit_positions_offset(
// CHECK: posenc.rotary
// CHECK: posenc.rotary
// CHECK: posenc.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} causal :
func.func @explicit_positions_offset(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %pos: tensor<4xi64>, %off: index) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<4xi64>) offset(%off : index) : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<4xi64>) : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Near miss of @fuse_causal: the rotaries take positions along axis 1 (the
// heads of [B, H, S, D]), not the attention's token axis. Not fused.
// CHECK-LABEL: func.func @rotary_on_other_axis(
// CHECK: %[[QR:.+]] = posenc.rotary %{{[^ ]+}} half_split dim 8 {{.+}} {token_dim = 1 : i64}
// CHECK: %[[KR:.+]] = posenc.rotary %{{[^ ]+}} half_split dim 8 {{.+}} {token_dim = 1 : i64}
// CHECK: posenc.attention %[[QR]], %[[KR]], %{{[^ ]+}} causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
func.func @rotary_on_other_axis(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x2x4x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x2x4x8xf32>
  %o = posenc.attention %qr, %kr, %v causal : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}
