// RUN: posenc-opt %S/Inputs/llama-tiny.mlir --posenc-raise-rotary --cse --posenc-raise-attention --posenc-fuse-attention --canonicalize --cse | FileCheck %s
// RUN: posenc-opt %S/Inputs/llama-tiny.mlir --posenc-raise-rotary=print-stats --cse --posenc-raise-attention=print-stats --posenc-fuse-attention=print-stats -o /dev/null 2>&1 | grep "^posenc-" | FileCheck %s --check-prefix=STATS

// The whole raising sequence on a real importer export: torch-mlir's
// linalg-on-tensors IR of one eager Hugging Face LlamaAttention (4 query
// heads, 2 KV heads, head_dim 16, llama3-scaled RoPE, S = 8, explicit
// triu(-inf) causal mask; see Inputs/llama-tiny.mlir). Q, K, V come from the
// three projections; the RoPE tables, the rotate_half's of Q and K, the causal
// mask, the softmax and the repeat_kv of K and V all become one
// posenc.attention with causal and rope over the unrepeated 2-head K and V.

// CHECK-LABEL: func.func @attn(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x8x64xf32>
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 0.244384587, 0.0130422562, 0.00395284733, 1.250000e-03, 3.95284733E-4, 1.250000e-04, 3.95284733E-5]> : tensor<8xf32>
// CHECK-NOT: posenc.rotary
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: %[[Q:.+]] = linalg.transpose ins(%{{.+}} : tensor<1x8x4x16xf32>) outs(%{{.+}} : tensor<1x4x8x16xf32>) permutation = [0, 2, 1, 3]
// CHECK-NOT: posenc.rotary
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: %[[K:.+]] = linalg.transpose ins(%{{.+}} : tensor<1x8x2x16xf32>) outs(%{{.+}} : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3]
// CHECK-NOT: posenc.rotary
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: %[[V:.+]] = linalg.transpose ins(%{{.+}} : tensor<1x8x2x16xf32>) outs(%{{.+}} : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3]
// CHECK-NOT: posenc.rotary
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: %[[A:.+]] = posenc.attention %[[Q]], %[[K]], %[[V]] causal rope(<layout = half_split, rotary_dim = 16>, %[[INV]] : tensor<8xf32>) : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x4x8x16xf32>
// CHECK-NOT: posenc.rotary
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK-NOT: linalg.generic
// CHECK: linalg.transpose ins(%[[A]] : tensor<1x4x8x16xf32>)
// CHECK-NOT: posenc.rotary
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: posenc.attention
// CHECK: return

// One count line per pass: both rotaries (Q and K), one causal GQA attention,
// one fused pair.
// STATS: posenc-raise-rotary: 2 raised-rotary, 0 raised-partial-rotary
// STATS-NEXT: posenc-raise-attention: 1 raised-attention, 1 raised-causal-masks, 1 raised-repeat-kv
// STATS-NEXT: posenc-fuse-attention: 1 fused-rotary
// STATS-NOT: posenc-
