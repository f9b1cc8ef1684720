// RUN: posenc-opt %s --split-input-file --posenc-fuse-attention | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-fuse-attention=print-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// posenc-fuse-attention through head transposes: GPT-J rotates Q and K on
// [B, S, H, D] (token_dim = 1) and transposes them to [B, H, S, D] for the
// attention. transpose(rotary(x), perm) becomes rotary(transpose(x, perm))
// when perm keeps the channel axis last (and the batch axis first for [B, S]
// positions), then the rotaries fuse. Each near miss differs from the
// positive case it names in the one detail it breaks.

// The STATS run: one count line per split, in order.
// STATS: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 0 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 0 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 0 fused-rotary
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NOT: posenc-fuse-attention

// GPT-J: interleaved rotary dim 8 of D = 16 on [1, 4, 2, 16], implicit
// positions 0..3, Q and K transposed with [0, 2, 1, 3]; V already
// [B, H, S, D]. The transposes now read the unrotated Q and K and the
// attention rotates them.
// CHECK-LABEL: func.func @gptj_transposed(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x4x2x16xf32>, %[[K:[^:]+]]: tensor<1x4x2x16xf32>, %[[V:[^:]+]]: tensor<1x2x4x16xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[QT:.+]] = linalg.transpose ins(%[[Q]] : tensor<1x4x2x16xf32>) outs(%{{.+}} : tensor<1x2x4x16xf32>) permutation = [0, 2, 1, 3]
// CHECK-DAG: %[[KT:.+]] = linalg.transpose ins(%[[K]] : tensor<1x4x2x16xf32>) outs(%{{.+}} : tensor<1x2x4x16xf32>) permutation = [0, 2, 1, 3]
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[QT]], %[[KT]], %[[V]] causal rope(<layout = interleaved, rotary_dim = 8>, %[[INV]] : tensor<4xf32>) : tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32> -> tensor<1x2x4x16xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @gptj_transposed(%q: tensor<1x4x2x16xf32>, %k: tensor<1x4x2x16xf32>, %v: tensor<1x2x4x16xf32>) -> tensor<1x2x4x16xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q interleaved dim 8 inv_freq(%inv : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
  %kr = posenc.rotary %k interleaved dim 8 inv_freq(%inv : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
  %e = tensor.empty() : tensor<1x2x4x16xf32>
  %qt = linalg.transpose ins(%qr : tensor<1x4x2x16xf32>) outs(%e : tensor<1x2x4x16xf32>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%kr : tensor<1x4x2x16xf32>) outs(%e : tensor<1x2x4x16xf32>) permutation = [0, 2, 1, 3]
  %o = posenc.attention %qt, %kt, %v causal : tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32> -> tensor<1x2x4x16xf32>
  return %o : tensor<1x2x4x16xf32>
}

// -----

// Positions [S] (no mask, no bias) move along with the rotaries and become
// the attention's q_positions and k_positions.
// CHECK-LABEL: func.func @positions_transposed(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x4x2x8xf32>, %[[K:[^:]+]]: tensor<1x4x2x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>, %[[POS:[^:]+]]: tensor<4xi64>
// CHECK-DAG: %[[QT:.+]] = linalg.transpose ins(%[[Q]] : tensor<1x4x2x8xf32>) outs(%{{.+}} : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
// CHECK-DAG: %[[KT:.+]] = linalg.transpose ins(%[[K]] : tensor<1x4x2x8xf32>) outs(%{{.+}} : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[QT]], %[[KT]], %[[V]] rope(<layout = interleaved, rotary_dim = 8>, %{{.+}} : tensor<4xf32>) q_positions(%[[POS]] : tensor<4xi64>) k_positions(%[[POS]] : tensor<4xi64>) : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @positions_transposed(%q: tensor<1x4x2x8xf32>, %k: tensor<1x4x2x8xf32>, %v: tensor<1x2x4x8xf32>, %pos: tensor<4xi64>) -> tensor<1x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q interleaved dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<4xi64>) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
  %kr = posenc.rotary %k interleaved dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<4xi64>) {token_dim = 1 : i64} : tensor<1x4x2x8xf32>
  %e = tensor.empty() : tensor<1x2x4x8xf32>
  %qt = linalg.transpose ins(%qr : tensor<1x4x2x8xf32>) outs(%e : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%kr : tensor<1x4x2x8xf32>) outs(%e : tensor<1x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %o = posenc.attention %qt, %kt, %v : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Positions [B, S] with B = 2: [0, 2, 1, 3] keeps the batch axis first, so
// they stay valid after the move.
// CHECK-LABEL: func.func @batched_positions_transposed(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<2x4x2x8xf32>, %[[K:[^:]+]]: tensor<2x4x2x8xf32>, %[[V:[^:]+]]: tensor<2x2x4x8xf32>, %[[POS:[^:]+]]: tensor<2x4xi64>
// CHECK-DAG: %[[QT:.+]] = linalg.transpose ins(%[[Q]] : tensor<2x4x2x8xf32>) outs(%{{.+}} : tensor<2x2x4x8xf32>) permutation = [0, 2, 1, 3]
// CHECK-DAG: %[[KT:.+]] = linalg.transpose ins(%[[K]] : tensor<2x4x2x8xf32>) outs(%{{.+}} : tensor<2x2x4x8xf32>) permutation = [0, 2, 1, 3]
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %[[QT]], %[[KT]], %[[V]] rope(<layout = interleaved, rotary_dim = 8>, %{{.+}} : tensor<4xf32>) q_positions(%[[POS]] : tensor<2x4xi64>) k_positions(%[[POS]] : tensor<2x4xi64>) : tensor<2x2x4x8xf32>, tensor<2x2x4x8xf32>, tensor<2x2x4x8xf32> -> tensor<2x2x4x8xf32>
// CHECK-NOT: posenc.rotary
// CHECK: return %[[O]]
func.func @batched_positions_transposed(%q: tensor<2x4x2x8xf32>, %k: tensor<2x4x2x8xf32>, %v: tensor<2x2x4x8xf32>, %pos: tensor<2x4xi64>) -> tensor<2x2x4x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q interleaved dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<2x4xi64>) {token_dim = 1 : i64} : tensor<2x4x2x8xf32>
  %kr = posenc.rotary %k interleaved dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<2x4xi64>) {token_dim = 1 : i64} : tensor<2x4x2x8xf32>
  %e = tensor.empty() : tensor<2x2x4x8xf32>
  %qt = linalg.transpose ins(%qr : tensor<2x4x2x8xf32>) outs(%e : tensor<2x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%kr : tensor<2x4x2x8xf32>) outs(%e : tensor<2x2x4x8xf32>) permutation = [0, 2, 1, 3]
  %o = posenc.attention %qt, %kt, %v : tensor<2x2x4x8xf32>, tensor<2x2x4x8xf32>, tensor<2x2x4x8xf32> -> tensor<2x2x4x8xf32>
  return %o : tensor<2x2x4x8xf32>
}

// -----

// Near miss of @gptj_transposed: K is transposed with [0, 2, 3, 1] (K^T,
// the channel axis moves; S = D = 8 keeps the types valid). K's rotary stays
// above its transpose, so nothing fuses; Q's rotary still moves below its
// transpose (the same rotation, on [B, H, S, D]).
// CHECK-LABEL: func.func @key_channel_moves(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x8x2x8xf32>, %[[K:[^:]+]]: tensor<1x8x2x8xf32>
// CHECK-DAG: %[[QT:.+]] = linalg.transpose ins(%[[Q]] : tensor<1x8x2x8xf32>) outs(%{{.+}} : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3]
// CHECK-DAG: %[[QR:.+]] = posenc.rotary %[[QT]] interleaved dim 8 inv_freq(%{{.+}} : tensor<4xf32>) : tensor<1x2x8x8xf32>
// CHECK-DAG: %[[KR:.+]] = posenc.rotary %[[K]] interleaved dim 8 inv_freq(%{{.+}} : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x8x2x8xf32>
// CHECK-DAG: %[[KT:.+]] = linalg.transpose ins(%[[KR]] : tensor<1x8x2x8xf32>) outs(%{{.+}} : tensor<1x2x8x8xf32>) permutation = [0, 2, 3, 1]
// CHECK: posenc.attention %[[QR]], %[[KT]], %{{[^ ]+}} causal : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32> -> tensor<1x2x8x8xf32>
func.func @key_channel_moves(%q: tensor<1x8x2x8xf32>, %k: tensor<1x8x2x8xf32>, %v: tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q interleaved dim 8 inv_freq(%inv : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x8x2x8xf32>
  %kr = posenc.rotary %k interleaved dim 8 inv_freq(%inv : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x8x2x8xf32>
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %qt = linalg.transpose ins(%qr : tensor<1x8x2x8xf32>) outs(%e : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%kr : tensor<1x8x2x8xf32>) outs(%e : tensor<1x2x8x8xf32>) permutation = [0, 2, 3, 1]
  %o = posenc.attention %qt, %kt, %v causal : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32> -> tensor<1x2x8x8xf32>
  return %o : tensor<1x2x8x8xf32>
}

// -----

// Near miss of @batched_positions_transposed: [2, 1, 0, 3] moves the batch
// axis that the [B, S] positions index (B = H = 2 keeps the types valid).
// Nothing moves, nothing fuses.
// CHECK-LABEL: func.func @batched_positions_batch_moves(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<2x4x2x8xf32>, %[[K:[^:]+]]: tensor<2x4x2x8xf32>
// CHECK-DAG: %[[QR:.+]] = posenc.rotary %[[Q]] interleaved dim 8 inv_freq(%{{.+}} : tensor<4xf32>) positions(%{{.+}} : tensor<2x4xi64>) {token_dim = 1 : i64} : tensor<2x4x2x8xf32>
// CHECK-DAG: %[[KR:.+]] = posenc.rotary %[[K]] interleaved dim 8 inv_freq(%{{.+}} : tensor<4xf32>) positions(%{{.+}} : tensor<2x4xi64>) {token_dim = 1 : i64} : tensor<2x4x2x8xf32>
// CHECK-DAG: %[[QT:.+]] = linalg.transpose ins(%[[QR]] : tensor<2x4x2x8xf32>) outs(%{{.+}} : tensor<2x4x2x8xf32>) permutation = [2, 1, 0, 3]
// CHECK-DAG: %[[KT:.+]] = linalg.transpose ins(%[[KR]] : tensor<2x4x2x8xf32>) outs(%{{.+}} : tensor<2x4x2x8xf32>) permutation = [2, 1, 0, 3]
// CHECK: posenc.attention %[[QT]], %[[KT]], %{{[^ ]+}} : tensor<2x4x2x8xf32>, tensor<2x4x2x8xf32>, tensor<2x4x2x8xf32> -> tensor<2x4x2x8xf32>
func.func @batched_positions_batch_moves(%q: tensor<2x4x2x8xf32>, %k: tensor<2x4x2x8xf32>, %v: tensor<2x4x2x8xf32>, %pos: tensor<2x4xi64>) -> tensor<2x4x2x8xf32> {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q interleaved dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<2x4xi64>) {token_dim = 1 : i64} : tensor<2x4x2x8xf32>
  %kr = posenc.rotary %k interleaved dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<2x4xi64>) {token_dim = 1 : i64} : tensor<2x4x2x8xf32>
  %e = tensor.empty() : tensor<2x4x2x8xf32>
  %qt = linalg.transpose ins(%qr : tensor<2x4x2x8xf32>) outs(%e : tensor<2x4x2x8xf32>) permutation = [2, 1, 0, 3]
  %kt = linalg.transpose ins(%kr : tensor<2x4x2x8xf32>) outs(%e : tensor<2x4x2x8xf32>) permutation = [2, 1, 0, 3]
  %o = posenc.attention %qt, %kt, %v : tensor<2x4x2x8xf32>, tensor<2x4x2x8xf32>, tensor<2x4x2x8xf32> -> tensor<2x4x2x8xf32>
  return %o : tensor<2x4x2x8xf32>
}

// -----

// Near miss of @gptj_transposed: Q's rotary is also returned. Moving it would
// rotate Q twice (once for the result, once for the attention), so it stays,
// and without two rotary operands nothing fuses.
// CHECK-LABEL: func.func @rotary_other_use(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x4x2x16xf32>
// CHECK: %[[QR:.+]] = posenc.rotary %[[Q]] interleaved dim 8 inv_freq(%{{.+}} : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
// CHECK: %[[QT:.+]] = linalg.transpose ins(%[[QR]] : tensor<1x4x2x16xf32>)
// CHECK: %[[O:.+]] = posenc.attention %[[QT]], %{{[^ ]+}}, %{{[^ ]+}} causal : tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32> -> tensor<1x2x4x16xf32>
// CHECK: return %[[O]], %[[QR]]
func.func @rotary_other_use(%q: tensor<1x4x2x16xf32>, %k: tensor<1x4x2x16xf32>, %v: tensor<1x2x4x16xf32>) -> (tensor<1x2x4x16xf32>, tensor<1x4x2x16xf32>) {
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q interleaved dim 8 inv_freq(%inv : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
  %kr = posenc.rotary %k interleaved dim 8 inv_freq(%inv : tensor<4xf32>) {token_dim = 1 : i64} : tensor<1x4x2x16xf32>
  %e = tensor.empty() : tensor<1x2x4x16xf32>
  %qt = linalg.transpose ins(%qr : tensor<1x4x2x16xf32>) outs(%e : tensor<1x2x4x16xf32>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%kr : tensor<1x4x2x16xf32>) outs(%e : tensor<1x2x4x16xf32>) permutation = [0, 2, 1, 3]
  %o = posenc.attention %qt, %kt, %v causal : tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32> -> tensor<1x2x4x16xf32>
  return %o, %qr : tensor<1x2x4x16xf32>, tensor<1x4x2x16xf32>
}

// -----

// @batched_positions_transposed at a dynamic length: the transposes'
// destinations read the rotaries' lengths (tensor.dim), which their inputs
// have too; the rotaries still move (the sizes then read the inputs).
// CHECK-LABEL: func.func @dynamic_sizes_read(
// CHECK-SAME: %[[Q:[^:]+]]: tensor<2x?x2x8xf32>, %[[K:[^:]+]]: tensor<2x?x2x8xf32>, %[[V:[^:]+]]: tensor<2x2x?x8xf32>, %[[POS:[^:]+]]: tensor<2x?xi64>
// CHECK-DAG: tensor.dim %[[Q]], %c1
// CHECK-DAG: tensor.dim %[[K]], %c1
// CHECK-NOT: posenc.rotary
// CHECK: %[[O:.+]] = posenc.attention %{{.+}}, %{{.+}}, %[[V]] rope(<layout = interleaved, rotary_dim = 8>, %{{.+}} : tensor<4xf32>) q_positions(%[[POS]] : tensor<2x?xi64>) k_positions(%[[POS]] : tensor<2x?xi64>)
// CHECK: return %[[O]]
func.func @dynamic_sizes_read(%q: tensor<2x?x2x8xf32>, %k: tensor<2x?x2x8xf32>, %v: tensor<2x2x?x8xf32>, %pos: tensor<2x?xi64>) -> tensor<2x2x?x8xf32> {
  %c1 = arith.constant 1 : index
  %inv = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
  %qr = posenc.rotary %q interleaved dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<2x?xi64>) {token_dim = 1 : i64} : tensor<2x?x2x8xf32>
  %kr = posenc.rotary %k interleaved dim 8 inv_freq(%inv : tensor<4xf32>) positions(%pos : tensor<2x?xi64>) {token_dim = 1 : i64} : tensor<2x?x2x8xf32>
  %nq = tensor.dim %qr, %c1 : tensor<2x?x2x8xf32>
  %eq = tensor.empty(%nq) : tensor<2x2x?x8xf32>
  %qt = linalg.transpose ins(%qr : tensor<2x?x2x8xf32>) outs(%eq : tensor<2x2x?x8xf32>) permutation = [0, 2, 1, 3]
  %nk = tensor.dim %kr, %c1 : tensor<2x?x2x8xf32>
  %ek = tensor.empty(%nk) : tensor<2x2x?x8xf32>
  %kt = linalg.transpose ins(%kr : tensor<2x?x2x8xf32>) outs(%ek : tensor<2x2x?x8xf32>) permutation = [0, 2, 1, 3]
  %o = posenc.attention %qt, %kt, %v : tensor<2x2x?x8xf32>, tensor<2x2x?x8xf32>, tensor<2x2x?x8xf32> -> tensor<2x2x?x8xf32>
  return %o : tensor<2x2x?x8xf32>
}
