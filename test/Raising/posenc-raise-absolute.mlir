// RUN: posenc-opt %s --split-input-file --posenc-raise-absolute | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-raise-absolute=print-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// posenc-raise-absolute on importer-style IR: torch-mlir's embedding gather
// (index_cast, linalg.index, bounds cf.asserts, tensor.extract) and one
// linalg.generic per elementwise op. Sinusoidal tables are torch's f32
// computations of them. Each near miss names the positive case it differs
// from in one detail.

// The STATS run: one line per split, in order.
// STATS: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 1 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 1 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 1 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 1 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 0 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NEXT: posenc-raise-absolute: 1 raised-learned-absolute, 0 raised-sinusoidal
// STATS-NOT: posenc-raise-absolute

// GPT-2 (PATTERNS.md D): x + wpe[arange(4)] through torch-mlir's embedding
// gather with its bounds asserts. The arange becomes the implicit positions;
// the gather and the arange go.
// CHECK-LABEL: func.func @gpt2_wpe(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x8xf32>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: cf.assert
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[WPE]] : tensor<1x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @gpt2_wpe(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// The same with the operands of the add swapped: gather + x.
// CHECK-LABEL: func.func @gather_first(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x8xf32>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[WPE]] : tensor<1x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @gather_first(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g, %x : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// GPT-2's embeddings as exported: wte[input_ids] + wpe[arange]. Both
// operands are gathers; the one indexed by the arange is the position
// embedding, the token gather is the input.
// CHECK-LABEL: func.func @wte_plus_wpe(
// CHECK-SAME: %[[IDS:[^:]+]]: tensor<1x4xi64>, %[[WTE:[^:]+]]: tensor<32x8xf32>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[TOK:.+]] = linalg.generic
// CHECK-SAME: ins(%[[IDS]] : tensor<1x4xi64>)
// CHECK: tensor.extract %[[WTE]]
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[TOK]], %[[WPE]] : tensor<1x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @wte_plus_wpe(%ids: tensor<1x4xi64>, %wte: tensor<32x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %tok_init = tensor.empty() : tensor<1x4x8xf32>
  %tok = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x4xi64>) outs(%tok_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c32 = arith.constant 32 : index
    %lt = arith.cmpi slt, %r, %c32 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wte[%r, %d] : tensor<32x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%tok, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// The same with explicit position_ids (an argument like the token ids):
// the second operand is the position embedding (HF's inputs_embeds +
// position_embeds), its ids the positions operand.
// CHECK-LABEL: func.func @wte_plus_wpe_position_ids(
// CHECK-SAME: %[[IDS:[^:]+]]: tensor<1x4xi64>, %[[PIDS:[^:]+]]: tensor<1x4xi64>, %[[WTE:[^:]+]]: tensor<32x8xf32>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[TOK:.+]] = linalg.generic
// CHECK-SAME: ins(%[[IDS]] : tensor<1x4xi64>)
// CHECK: tensor.extract %[[WTE]]
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[TOK]], %[[WPE]] positions(%[[PIDS]] : tensor<1x4xi64>) : tensor<1x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @wte_plus_wpe_position_ids(%ids: tensor<1x4xi64>, %pids: tensor<1x4xi64>, %wte: tensor<32x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %tok_init = tensor.empty() : tensor<1x4x8xf32>
  %tok = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x4xi64>) outs(%tok_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c32 = arith.constant 32 : index
    %lt = arith.cmpi slt, %r, %c32 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wte[%r, %d] : tensor<32x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pids : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%tok, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Per-sequence positions [B, S] = [2, 4] (an argument): the positions
// operand, batched.
// CHECK-LABEL: func.func @batched_positions(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x8xf32>, %[[POS:[^:]+]]: tensor<2x4xi64>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[WPE]] positions(%[[POS]] : tensor<2x4xi64>) : tensor<2x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @batched_positions(%x: tensor<2x4x8xf32>, %pos: tensor<2x4xi64>, %wpe: tensor<16x8xf32>) -> tensor<2x4x8xf32> {
  %g_init = tensor.empty() : tensor<2x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<2x4xi64>) outs(%g_init : tensor<2x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<2x4x8xf32>
  %y_init = tensor.empty() : tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%y_init : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Positions [S] of i32, the gather broadcast over a batch of 2: the
// positions operand stays [S].
// CHECK-LABEL: func.func @shared_positions_i32(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x8xf32>, %[[POS:[^:]+]]: tensor<4xi32>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[WPE]] positions(%[[POS]] : tensor<4xi32>) : tensor<2x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @shared_positions_i32(%x: tensor<2x4x8xf32>, %pos: tensor<4xi32>, %wpe: tensor<16x8xf32>) -> tensor<2x4x8xf32> {
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<4xi32>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i32, %out: f32):
    %r = arith.index_cast %in : i32 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i32
    %ge = arith.cmpi sge, %in, %c0_i64 : i32
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<2x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// position_ids of [1, S] added to a batch of 2 (HF's default position ids,
// broadcast): the arange still gives implicit positions, and the input keeps
// its batch.
// CHECK-LABEL: func.func @broadcast_arange(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x8xf32>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[WPE]] : tensor<2x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @broadcast_arange(%x: tensor<2x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<2x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<2x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// arange(4) + 3 (decoding after 3 cached tokens): the offset operand.
// CHECK-LABEL: func.func @arange_offset(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x8xf32>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[OFF:.+]] = arith.constant 3 : index
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[WPE]] offset(%[[OFF]] : index) : tensor<1x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @arange_offset(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    %c = arith.constant 3 : i64
    %q = arith.addi %p, %c : i64
    linalg.yield %q : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Constant positions [2, 3, 4, 5] (an arange from 2, as a literal) and a
// row read at pos + 2 (OPT's offset, in the body): implicit positions from
// 2 + 2 = 4. The bounds asserts check the shifted row.
// CHECK-LABEL: func.func @constant_arange_row_offset(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x8xf32>, %[[WPE:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[OFF:.+]] = arith.constant 4 : index
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[WPE]] offset(%[[OFF]] : index) : tensor<1x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @constant_arange_row_offset(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %pos = arith.constant dense<[[2, 3, 4, 5]]> : tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    %r2 = arith.addi %r, %c2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r2, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %ge = arith.cmpi sge, %r2, %c0 : index
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r2, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Positions computed at run time (arange + a cache length argument) with a
// constant row offset of 2: the positions operand and the offset.
// CHECK-LABEL: func.func @runtime_positions(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x8xf32>, %[[WPE:[^:]+]]: tensor<16x8xf32>, %[[PAST:[^:]+]]: i64
// CHECK: %[[OFF:.+]] = arith.constant 2 : index
// CHECK: %[[POS:.+]] = linalg.generic
// CHECK: arith.addi %{{.+}}, %[[PAST]] : i64
// CHECK: %[[POS2:.+]] = tensor.expand_shape %[[POS]]
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[WPE]] positions(%[[POS2]] : tensor<1x4xi64>) offset(%[[OFF]] : index) : tensor<1x4x8xf32>, tensor<16x8xf32>
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @runtime_positions(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>, %past: i64) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    %q = arith.addi %p, %past : i64
    linalg.yield %q : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c2 = arith.constant 2 : i64
    %in2 = arith.addi %in, %c2 : i64
    %r2 = arith.index_cast %in2 : i64 to index
    %e = tensor.extract %wpe[%r2, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// A sinusoidal buffer [1, P, d] = [1, 16, 8] (Vaswani's interleaved table,
// computed by torch in f32) sliced to the sequence, pe[:, :4], and added:
// posenc.sinusoidal of [4, 8] in place of the slice.
// CHECK-LABEL: func.func @sinusoidal_slice(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x8xf32>
// CHECK: %[[PE:.+]] = posenc.sinusoidal interleaved : tensor<4x8xf32>
// CHECK: %[[PE3:.+]] = tensor.expand_shape %[[PE]] {{\[\[}}0, 1], [2]] output_shape [1, 4, 8]
// CHECK: %[[R:.+]] = linalg.generic
// CHECK-SAME: ins(%[[X]], %[[PE3]] : tensor<1x4x8xf32>, tensor<1x4x8xf32>)
// CHECK: arith.addf
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @sinusoidal_slice(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %pe = arith.constant dense<[[[0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00], [8.414709568e-01, 5.403023362e-01, 9.983341396e-02, 9.950041771e-01, 9.999833070e-03, 9.999499917e-01, 9.999998147e-04, 9.999995232e-01], [9.092974067e-01, -4.161468446e-01, 1.986693144e-01, 9.800665975e-01, 1.999866590e-02, 9.998000264e-01, 1.999998465e-03, 9.999980330e-01], [1.411200017e-01, -9.899924994e-01, 2.955201864e-01, 9.553365111e-01, 2.999549918e-02, 9.995500445e-01, 2.999995369e-03, 9.999955297e-01], [-7.568024993e-01, -6.536436081e-01, 3.894183338e-01, 9.210609794e-01, 3.998933360e-02, 9.992001057e-01, 3.999989014e-03, 9.999920130e-01], [-9.589242935e-01, 2.836622000e-01, 4.794255197e-01, 8.775825500e-01, 4.997916520e-02, 9.987502694e-01, 4.999978933e-03, 9.999874830e-01], [-2.794154882e-01, 9.601702690e-01, 5.646424294e-01, 8.253356218e-01, 5.996400490e-02, 9.982005358e-01, 5.999963731e-03, 9.999819994e-01], [6.569865942e-01, 7.539022565e-01, 6.442176104e-01, 7.648422122e-01, 6.994284689e-02, 9.975510240e-01, 6.999942008e-03, 9.999755025e-01], [9.893582463e-01, -1.455000341e-01, 7.173560262e-01, 6.967067122e-01, 7.991468906e-02, 9.968016744e-01, 7.999913767e-03, 9.999679923e-01], [4.121184945e-01, -9.111302495e-01, 7.833268642e-01, 6.216099858e-01, 8.987854421e-02, 9.959527254e-01, 8.999878541e-03, 9.999595284e-01], [-5.440211296e-01, -8.390715122e-01, 8.414709568e-01, 5.403023362e-01, 9.983341396e-02, 9.950041771e-01, 9.999833070e-03, 9.999499917e-01], [-9.999902248e-01, 4.425697960e-03, 8.912073374e-01, 4.535962045e-01, 1.097782999e-01, 9.939560890e-01, 1.099977735e-02, 9.999395013e-01], [-5.365729332e-01, 8.438539505e-01, 9.320390821e-01, 3.623578250e-01, 1.197122037e-01, 9.928086400e-01, 1.199971139e-02, 9.999279976e-01], [4.201670289e-01, 9.074468017e-01, 9.635581970e-01, 2.674988806e-01, 1.296341419e-01, 9.915618896e-01, 1.299963333e-02, 9.999154806e-01], [9.906073809e-01, 1.367372125e-01, 9.854497313e-01, 1.699672788e-01, 1.395431161e-01, 9.902160168e-01, 1.399954129e-02, 9.999020100e-01], [6.502878666e-01, -7.596879005e-01, 9.974949956e-01, 7.073731720e-02, 1.494381279e-01, 9.887710810e-01, 1.499943621e-02, 9.998875260e-01]]]> : tensor<1x16x8xf32>
  %s = tensor.extract_slice %pe[0, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// The concatenated layout (fairseq's get_embedding) as a [P, d] constant,
// rows [3, 7) sliced (rank-reducing to [4, 8]) and broadcast over a batch
// of 2: posenc.sinusoidal with offset 3.
// CHECK-LABEL: func.func @sinusoidal_slice_offset(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x8xf32>
// CHECK: %[[OFF:.+]] = arith.constant 3 : index
// CHECK: %[[PE:.+]] = posenc.sinusoidal concatenated offset(%[[OFF]] : index) : tensor<4x8xf32>
// CHECK: %[[R:.+]] = linalg.generic
// CHECK-SAME: ins(%[[X]], %[[PE]] : tensor<2x4x8xf32>, tensor<4x8xf32>)
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @sinusoidal_slice_offset(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %pe = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 4.639922827e-02, 2.154433168e-03, 9.999999020e-05, 5.403023362e-01, 9.989229441e-01, 9.999976754e-01, 1.000000000e+00], [9.092974067e-01, 9.269850701e-02, 4.308856092e-03, 1.999999804e-04, -4.161468446e-01, 9.956942201e-01, 9.999907017e-01, 1.000000000e+00], [1.411200017e-01, 1.387981027e-01, 6.463258993e-03, 2.999999560e-04, -9.899924994e-01, 9.903206825e-01, 9.999791384e-01, 9.999999404e-01], [-7.568024993e-01, 1.845987290e-01, 8.617632091e-03, 3.999999608e-04, -6.536436081e-01, 9.828139544e-01, 9.999628663e-01, 9.999999404e-01], [-9.589242935e-01, 2.300017327e-01, 1.077196561e-02, 4.999999655e-04, 2.836622000e-01, 9.731902480e-01, 9.999420047e-01, 9.999998808e-01], [-2.794154882e-01, 2.749092877e-01, 1.292624790e-02, 5.999998539e-04, 9.601702690e-01, 9.614701867e-01, 9.999164343e-01, 9.999998212e-01], [6.569865942e-01, 3.192246556e-01, 1.508047152e-02, 6.999998586e-04, 7.539022565e-01, 9.476790428e-01, 9.998862743e-01, 9.999997616e-01], [9.893582463e-01, 3.628524244e-01, 1.723462529e-02, 7.999998634e-04, -1.455000341e-01, 9.318466187e-01, 9.998514652e-01, 9.999997020e-01], [4.121184945e-01, 4.056985974e-01, 1.938869804e-02, 8.999998099e-04, -9.111302495e-01, 9.140069485e-01, 9.998120070e-01, 9.999995828e-01], [-5.440211296e-01, 4.476708770e-01, 2.154268138e-02, 9.999998147e-04, -8.390715122e-01, 8.941984177e-01, 9.997678995e-01, 9.999995232e-01], [-9.999902248e-01, 4.886788428e-01, 2.369656414e-02, 1.099999645e-03, 4.425697960e-03, 8.724637628e-01, 9.997192025e-01, 9.999994040e-01], [-5.365729332e-01, 5.286341310e-01, 2.585033700e-02, 1.199999591e-03, 8.438539505e-01, 8.488497734e-01, 9.996657968e-01, 9.999992847e-01], [4.201670289e-01, 5.674507618e-01, 2.800399065e-02, 1.299999538e-03, 9.074468017e-01, 8.234072924e-01, 9.996078014e-01, 9.999991655e-01], [9.906073809e-01, 6.050450802e-01, 3.015751392e-02, 1.399999368e-03, 1.367372125e-01, 7.961912155e-01, 9.995451570e-01, 9.999990463e-01], [6.502878666e-01, 6.413360834e-01, 3.231089562e-02, 1.499999315e-03, -7.596879005e-01, 7.672600746e-01, 9.994778633e-01, 9.999988675e-01]]> : tensor<16x8xf32>
  %s = tensor.extract_slice %pe[3, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
  %y_init = tensor.empty() : tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d1, d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<2x4x8xf32>, tensor<4x8xf32>) outs(%y_init : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// A sinusoidal table gathered by position ids (M2M100-style
// index_select) and added: posenc.learned_absolute whose table is a
// posenc.sinusoidal of [P, d]; the gather keeps its bounds through the
// learned_absolute.
// CHECK-LABEL: func.func @sinusoidal_gather(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x4x8xf32>, %[[POS:[^:]+]]: tensor<1x4xi64>
// CHECK: %[[PE:.+]] = posenc.sinusoidal concatenated : tensor<16x8xf32>
// CHECK: %[[R:.+]] = posenc.learned_absolute %[[X]], %[[PE]] positions(%[[POS]] : tensor<1x4xi64>) : tensor<1x4x8xf32>, tensor<16x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @sinusoidal_gather(%x: tensor<1x4x8xf32>, %pos: tensor<1x4xi64>) -> tensor<1x4x8xf32> {
  %pe = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [8.414709568e-01, 4.639922827e-02, 2.154433168e-03, 9.999999020e-05, 5.403023362e-01, 9.989229441e-01, 9.999976754e-01, 1.000000000e+00], [9.092974067e-01, 9.269850701e-02, 4.308856092e-03, 1.999999804e-04, -4.161468446e-01, 9.956942201e-01, 9.999907017e-01, 1.000000000e+00], [1.411200017e-01, 1.387981027e-01, 6.463258993e-03, 2.999999560e-04, -9.899924994e-01, 9.903206825e-01, 9.999791384e-01, 9.999999404e-01], [-7.568024993e-01, 1.845987290e-01, 8.617632091e-03, 3.999999608e-04, -6.536436081e-01, 9.828139544e-01, 9.999628663e-01, 9.999999404e-01], [-9.589242935e-01, 2.300017327e-01, 1.077196561e-02, 4.999999655e-04, 2.836622000e-01, 9.731902480e-01, 9.999420047e-01, 9.999998808e-01], [-2.794154882e-01, 2.749092877e-01, 1.292624790e-02, 5.999998539e-04, 9.601702690e-01, 9.614701867e-01, 9.999164343e-01, 9.999998212e-01], [6.569865942e-01, 3.192246556e-01, 1.508047152e-02, 6.999998586e-04, 7.539022565e-01, 9.476790428e-01, 9.998862743e-01, 9.999997616e-01], [9.893582463e-01, 3.628524244e-01, 1.723462529e-02, 7.999998634e-04, -1.455000341e-01, 9.318466187e-01, 9.998514652e-01, 9.999997020e-01], [4.121184945e-01, 4.056985974e-01, 1.938869804e-02, 8.999998099e-04, -9.111302495e-01, 9.140069485e-01, 9.998120070e-01, 9.999995828e-01], [-5.440211296e-01, 4.476708770e-01, 2.154268138e-02, 9.999998147e-04, -8.390715122e-01, 8.941984177e-01, 9.997678995e-01, 9.999995232e-01], [-9.999902248e-01, 4.886788428e-01, 2.369656414e-02, 1.099999645e-03, 4.425697960e-03, 8.724637628e-01, 9.997192025e-01, 9.999994040e-01], [-5.365729332e-01, 5.286341310e-01, 2.585033700e-02, 1.199999591e-03, 8.438539505e-01, 8.488497734e-01, 9.996657968e-01, 9.999992847e-01], [4.201670289e-01, 5.674507618e-01, 2.800399065e-02, 1.299999538e-03, 9.074468017e-01, 8.234072924e-01, 9.996078014e-01, 9.999991655e-01], [9.906073809e-01, 6.050450802e-01, 3.015751392e-02, 1.399999368e-03, 1.367372125e-01, 7.961912155e-01, 9.995451570e-01, 9.999990463e-01], [6.502878666e-01, 6.413360834e-01, 3.231089562e-02, 1.499999315e-03, -7.596879005e-01, 7.672600746e-01, 9.994778633e-01, 9.999988675e-01]]> : tensor<16x8xf32>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %pe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// An interleaved table of base 100: the base comes from row 1.
// CHECK-LABEL: func.func @sinusoidal_base(
// CHECK: posenc.sinusoidal interleaved {base = 1.000000e+02 : f64} : tensor<4x8xf32>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @sinusoidal_base(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %pe = arith.constant dense<[[[0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00], [8.414709568e-01, 5.403023362e-01, 3.109835982e-01, 9.504153132e-01, 9.983341396e-02, 9.950041771e-01, 3.161750361e-02, 9.995000362e-01], [9.092974067e-01, -4.161468446e-01, 5.911270976e-01, 8.065783978e-01, 1.986693144e-01, 9.800665975e-01, 6.320339441e-02, 9.980006814e-01], [1.411200017e-01, -9.899924994e-01, 8.126488924e-01, 5.827536583e-01, 2.955201864e-01, 9.553365111e-01, 9.472608566e-02, 9.955033660e-01], [-7.568024993e-01, -6.536436081e-01, 9.535807371e-01, 3.011374772e-01, 3.894183338e-01, 9.210609794e-01, 1.261540651e-01, 9.920106530e-01], [-9.589242935e-01, 2.836622000e-01, 9.999465346e-01, -1.034233812e-02, 4.794255197e-01, 8.775825500e-01, 1.574558765e-01, 9.875259995e-01], [-2.794154882e-01, 9.601702690e-01, 9.471482038e-01, -3.207964003e-01, 5.646424294e-01, 8.253356218e-01, 1.886002719e-01, 9.820539355e-01], [6.569865942e-01, 7.539022565e-01, 8.004215956e-01, -5.994374752e-01, 6.442176104e-01, 7.648422122e-01, 2.195560932e-01, 9.755998850e-01], [9.893582463e-01, -1.455000341e-01, 5.743178129e-01, -8.186324239e-01, 7.173560262e-01, 6.967067122e-01, 2.502923310e-01, 9.681702852e-01], [4.121184945e-01, -9.111302495e-01, 2.912592292e-01, -9.566441774e-01, 7.833268642e-01, 6.216099858e-01, 2.807783186e-01, 9.597726464e-01], [-5.440211296e-01, -8.390715122e-01, -2.068356983e-02, -9.997860789e-01, 8.414709568e-01, 5.403023362e-01, 3.109835684e-01, 9.504153132e-01], [-9.999902248e-01, 4.425697960e-03, -3.305749595e-01, -9.437797666e-01, 8.912073374e-01, 4.535962045e-01, 3.408778608e-01, 9.401075840e-01], [-5.365729332e-01, 8.438539505e-01, -6.076834202e-01, -7.941793203e-01, 9.320390821e-01, 3.623578250e-01, 3.704313040e-01, 9.288598895e-01], [4.201670289e-01, 9.074468017e-01, -8.245284557e-01, -5.658205152e-01, 9.635581970e-01, 2.674988806e-01, 3.996143043e-01, 9.166833758e-01], [9.906073809e-01, 1.367372125e-01, -9.596053958e-01, -2.813494802e-01, 9.854497313e-01, 1.699672788e-01, 4.283977747e-01, 9.035902619e-01], [6.502878666e-01, -7.596879005e-01, -9.995186925e-01, 3.102235124e-02, 9.974949956e-01, 7.073731720e-02, 4.567528665e-01, 8.895936012e-01]]]> : tensor<1x16x8xf32>
  %s = tensor.extract_slice %pe[0, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @gpt2_wpe: the gather reads column 0 for every d (a
// different column), not row pos's column d.
// CHECK-LABEL: func.func @other_column(
// CHECK-NOT: posenc.learned_absolute
// CHECK: tensor.extract %{{.+}}[%{{.+}}, %c0] : tensor<16x8xf32>
// CHECK: arith.addf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @other_column(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %c0 = arith.constant 0 : index
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %c0] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @gpt2_wpe: the column is the token index (d1) of a table
// as wide as the sequence.
// CHECK-LABEL: func.func @token_column(
// CHECK-NOT: posenc.learned_absolute
// CHECK: linalg.index 1
// CHECK: arith.addf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @token_column(%x: tensor<1x4x4xf32>, %wpe: tensor<16x4xf32>) -> tensor<1x4x4xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x4xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %t = linalg.index 1 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %t] : tensor<16x4xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x4xf32>
  %y_init = tensor.empty() : tensor<1x4x4xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x4xf32>, tensor<1x4x4xf32>) outs(%y_init : tensor<1x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x4xf32>
  return %y : tensor<1x4x4xf32>
}

// -----

// Near miss of @gpt2_wpe: the table is read transposed, wpe[d, pos].
// CHECK-LABEL: func.func @transposed_table(
// CHECK-NOT: posenc.learned_absolute
// CHECK: %[[R:.+]] = arith.index_cast %in
// CHECK: %[[D:.+]] = linalg.index 2
// CHECK: tensor.extract %{{.+}}[%[[D]], %[[R]]] : tensor<8x16xf32>
// CHECK: arith.addf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @transposed_table(%x: tensor<1x4x8xf32>, %wpe: tensor<8x16xf32>) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%d, %r] : tensor<8x16xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @constant_arange_row_offset: the row is pos + s (linalg.index
// 1), an offset that is not a constant.
// CHECK-LABEL: func.func @row_plus_index(
// CHECK-NOT: posenc.learned_absolute
// CHECK: %[[S:.+]] = linalg.index 1
// CHECK: arith.addi %{{.+}}, %[[S]] : index
// CHECK: arith.addf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @row_plus_index(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %s = linalg.index 1 : index
    %r2 = arith.addi %r, %s : index
    %e = tensor.extract %wpe[%r2, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @gpt2_wpe: x - wpe[pos] (subtract instead of add).
// CHECK-LABEL: func.func @subtract(
// CHECK-NOT: posenc.learned_absolute
// CHECK: arith.subf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @subtract(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @gpt2_wpe: an assert that is not the table's bounds (pos < 8
// of a 16-row table) would be lost.
// CHECK-LABEL: func.func @other_assert(
// CHECK-NOT: posenc.learned_absolute
// CHECK: cf.assert
// CHECK: arith.addf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @other_assert(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c8 = arith.constant 8 : index
    %lt = arith.cmpi slt, %r, %c8 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @wte_plus_wpe_position_ids: a pre-norm residual, h +
// embed_tokens[input_ids], where the token embedding also feeds the norm
// (here: a multiply). Ids that are not an arange are positions only when the
// gather is only added.
// CHECK-LABEL: func.func @token_residual(
// CHECK-NOT: posenc.learned_absolute
// CHECK: arith.addf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @token_residual(%h: tensor<1x4x8xf32>, %ids: tensor<1x4xi64>, %wte: tensor<32x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %tok_init = tensor.empty() : tensor<1x4x8xf32>
  %tok = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x4xi64>) outs(%tok_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c32 = arith.constant 32 : index
    %lt = arith.cmpi slt, %r, %c32 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wte[%r, %d] : tensor<32x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %n_init = tensor.empty() : tensor<1x4x8xf32>
  %n = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%tok, %tok : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%n_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h, %tok : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %n, %y : tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// -----

// Near miss of @constant_arange_row_offset: every token reads row 0
// (token type ids, all zero), not positions.
// CHECK-LABEL: func.func @token_types(
// CHECK-NOT: posenc.learned_absolute
// CHECK: arith.addf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @token_types(%x: tensor<1x4x8xf32>, %tte: tensor<2x8xf32>) -> tensor<1x4x8xf32> {
  %tt = arith.constant dense<0> : tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%tt : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    %lt = arith.cmpi slt, %r, %c2 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %tte[%r, %d] : tensor<2x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @arange_offset: arange(4) + 14 runs past the 16-row table;
// the importer's asserts fail at run time, and posenc.learned_absolute
// would not verify.
// CHECK-LABEL: func.func @past_the_table(
// CHECK-NOT: posenc.learned_absolute
// CHECK: arith.addf
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @past_the_table(%x: tensor<1x4x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    %c = arith.constant 14 : i64
    %q = arith.addi %p, %c : i64
    linalg.yield %q : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @sinusoidal_slice: one entry (row 5, column 3) off by 1e-3,
// far beyond f32 rounding.
// CHECK-LABEL: func.func @sinusoidal_perturbed(
// CHECK-NOT: posenc.sinusoidal
// CHECK: tensor.extract_slice
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @sinusoidal_perturbed(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %pe = arith.constant dense<[[[0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00], [8.414709568e-01, 5.403023362e-01, 9.983341396e-02, 9.950041771e-01, 9.999833070e-03, 9.999499917e-01, 9.999998147e-04, 9.999995232e-01], [9.092974067e-01, -4.161468446e-01, 1.986693144e-01, 9.800665975e-01, 1.999866590e-02, 9.998000264e-01, 1.999998465e-03, 9.999980330e-01], [1.411200017e-01, -9.899924994e-01, 2.955201864e-01, 9.553365111e-01, 2.999549918e-02, 9.995500445e-01, 2.999995369e-03, 9.999955297e-01], [-7.568024993e-01, -6.536436081e-01, 3.894183338e-01, 9.210609794e-01, 3.998933360e-02, 9.992001057e-01, 3.999989014e-03, 9.999920130e-01], [-9.589242935e-01, 2.836622000e-01, 4.794255197e-01, 8.785825372e-01, 4.997916520e-02, 9.987502694e-01, 4.999978933e-03, 9.999874830e-01], [-2.794154882e-01, 9.601702690e-01, 5.646424294e-01, 8.253356218e-01, 5.996400490e-02, 9.982005358e-01, 5.999963731e-03, 9.999819994e-01], [6.569865942e-01, 7.539022565e-01, 6.442176104e-01, 7.648422122e-01, 6.994284689e-02, 9.975510240e-01, 6.999942008e-03, 9.999755025e-01], [9.893582463e-01, -1.455000341e-01, 7.173560262e-01, 6.967067122e-01, 7.991468906e-02, 9.968016744e-01, 7.999913767e-03, 9.999679923e-01], [4.121184945e-01, -9.111302495e-01, 7.833268642e-01, 6.216099858e-01, 8.987854421e-02, 9.959527254e-01, 8.999878541e-03, 9.999595284e-01], [-5.440211296e-01, -8.390715122e-01, 8.414709568e-01, 5.403023362e-01, 9.983341396e-02, 9.950041771e-01, 9.999833070e-03, 9.999499917e-01], [-9.999902248e-01, 4.425697960e-03, 8.912073374e-01, 4.535962045e-01, 1.097782999e-01, 9.939560890e-01, 1.099977735e-02, 9.999395013e-01], [-5.365729332e-01, 8.438539505e-01, 9.320390821e-01, 3.623578250e-01, 1.197122037e-01, 9.928086400e-01, 1.199971139e-02, 9.999279976e-01], [4.201670289e-01, 9.074468017e-01, 9.635581970e-01, 2.674988806e-01, 1.296341419e-01, 9.915618896e-01, 1.299963333e-02, 9.999154806e-01], [9.906073809e-01, 1.367372125e-01, 9.854497313e-01, 1.699672788e-01, 1.395431161e-01, 9.902160168e-01, 1.399954129e-02, 9.999020100e-01], [6.502878666e-01, -7.596879005e-01, 9.974949956e-01, 7.073731720e-02, 1.494381279e-01, 9.887710810e-01, 1.499943621e-02, 9.998875260e-01]]]> : tensor<1x16x8xf32>
  %s = tensor.extract_slice %pe[0, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @sinusoidal_gather: fairseq/M2M100 zero the padding row
// (padding_idx = 1), which posenc.sinusoidal does not.
// CHECK-LABEL: func.func @sinusoidal_padding_row(
// CHECK-NOT: posenc.sinusoidal
// CHECK: %[[PE:.+]] = arith.constant
// CHECK: posenc.learned_absolute %{{.+}}, %[[PE]] positions
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @sinusoidal_padding_row(%x: tensor<1x4x8xf32>, %pos: tensor<1x4xi64>) -> tensor<1x4x8xf32> {
  %pe = arith.constant dense<[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00], [9.092974067e-01, 9.269850701e-02, 4.308856092e-03, 1.999999804e-04, -4.161468446e-01, 9.956942201e-01, 9.999907017e-01, 1.000000000e+00], [1.411200017e-01, 1.387981027e-01, 6.463258993e-03, 2.999999560e-04, -9.899924994e-01, 9.903206825e-01, 9.999791384e-01, 9.999999404e-01], [-7.568024993e-01, 1.845987290e-01, 8.617632091e-03, 3.999999608e-04, -6.536436081e-01, 9.828139544e-01, 9.999628663e-01, 9.999999404e-01], [-9.589242935e-01, 2.300017327e-01, 1.077196561e-02, 4.999999655e-04, 2.836622000e-01, 9.731902480e-01, 9.999420047e-01, 9.999998808e-01], [-2.794154882e-01, 2.749092877e-01, 1.292624790e-02, 5.999998539e-04, 9.601702690e-01, 9.614701867e-01, 9.999164343e-01, 9.999998212e-01], [6.569865942e-01, 3.192246556e-01, 1.508047152e-02, 6.999998586e-04, 7.539022565e-01, 9.476790428e-01, 9.998862743e-01, 9.999997616e-01], [9.893582463e-01, 3.628524244e-01, 1.723462529e-02, 7.999998634e-04, -1.455000341e-01, 9.318466187e-01, 9.998514652e-01, 9.999997020e-01], [4.121184945e-01, 4.056985974e-01, 1.938869804e-02, 8.999998099e-04, -9.111302495e-01, 9.140069485e-01, 9.998120070e-01, 9.999995828e-01], [-5.440211296e-01, 4.476708770e-01, 2.154268138e-02, 9.999998147e-04, -8.390715122e-01, 8.941984177e-01, 9.997678995e-01, 9.999995232e-01], [-9.999902248e-01, 4.886788428e-01, 2.369656414e-02, 1.099999645e-03, 4.425697960e-03, 8.724637628e-01, 9.997192025e-01, 9.999994040e-01], [-5.365729332e-01, 5.286341310e-01, 2.585033700e-02, 1.199999591e-03, 8.438539505e-01, 8.488497734e-01, 9.996657968e-01, 9.999992847e-01], [4.201670289e-01, 5.674507618e-01, 2.800399065e-02, 1.299999538e-03, 9.074468017e-01, 8.234072924e-01, 9.996078014e-01, 9.999991655e-01], [9.906073809e-01, 6.050450802e-01, 3.015751392e-02, 1.399999368e-03, 1.367372125e-01, 7.961912155e-01, 9.995451570e-01, 9.999990463e-01], [6.502878666e-01, 6.413360834e-01, 3.231089562e-02, 1.499999315e-03, -7.596879005e-01, 7.672600746e-01, 9.994778633e-01, 9.999988675e-01]]> : tensor<16x8xf32>
  %g_init = tensor.empty() : tensor<1x4x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %pe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @sinusoidal_slice: the rows are subtracted, not added.
// CHECK-LABEL: func.func @sinusoidal_subtracted(
// CHECK-NOT: posenc.sinusoidal
// CHECK: tensor.extract_slice
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @sinusoidal_subtracted(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %pe = arith.constant dense<[[[0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00], [8.414709568e-01, 5.403023362e-01, 9.983341396e-02, 9.950041771e-01, 9.999833070e-03, 9.999499917e-01, 9.999998147e-04, 9.999995232e-01], [9.092974067e-01, -4.161468446e-01, 1.986693144e-01, 9.800665975e-01, 1.999866590e-02, 9.998000264e-01, 1.999998465e-03, 9.999980330e-01], [1.411200017e-01, -9.899924994e-01, 2.955201864e-01, 9.553365111e-01, 2.999549918e-02, 9.995500445e-01, 2.999995369e-03, 9.999955297e-01], [-7.568024993e-01, -6.536436081e-01, 3.894183338e-01, 9.210609794e-01, 3.998933360e-02, 9.992001057e-01, 3.999989014e-03, 9.999920130e-01], [-9.589242935e-01, 2.836622000e-01, 4.794255197e-01, 8.775825500e-01, 4.997916520e-02, 9.987502694e-01, 4.999978933e-03, 9.999874830e-01], [-2.794154882e-01, 9.601702690e-01, 5.646424294e-01, 8.253356218e-01, 5.996400490e-02, 9.982005358e-01, 5.999963731e-03, 9.999819994e-01], [6.569865942e-01, 7.539022565e-01, 6.442176104e-01, 7.648422122e-01, 6.994284689e-02, 9.975510240e-01, 6.999942008e-03, 9.999755025e-01], [9.893582463e-01, -1.455000341e-01, 7.173560262e-01, 6.967067122e-01, 7.991468906e-02, 9.968016744e-01, 7.999913767e-03, 9.999679923e-01], [4.121184945e-01, -9.111302495e-01, 7.833268642e-01, 6.216099858e-01, 8.987854421e-02, 9.959527254e-01, 8.999878541e-03, 9.999595284e-01], [-5.440211296e-01, -8.390715122e-01, 8.414709568e-01, 5.403023362e-01, 9.983341396e-02, 9.950041771e-01, 9.999833070e-03, 9.999499917e-01], [-9.999902248e-01, 4.425697960e-03, 8.912073374e-01, 4.535962045e-01, 1.097782999e-01, 9.939560890e-01, 1.099977735e-02, 9.999395013e-01], [-5.365729332e-01, 8.438539505e-01, 9.320390821e-01, 3.623578250e-01, 1.197122037e-01, 9.928086400e-01, 1.199971139e-02, 9.999279976e-01], [4.201670289e-01, 9.074468017e-01, 9.635581970e-01, 2.674988806e-01, 1.296341419e-01, 9.915618896e-01, 1.299963333e-02, 9.999154806e-01], [9.906073809e-01, 1.367372125e-01, 9.854497313e-01, 1.699672788e-01, 1.395431161e-01, 9.902160168e-01, 1.399954129e-02, 9.999020100e-01], [6.502878666e-01, -7.596879005e-01, 9.974949956e-01, 7.073731720e-02, 1.494381279e-01, 9.887710810e-01, 1.499943621e-02, 9.998875260e-01]]]> : tensor<1x16x8xf32>
  %s = tensor.extract_slice %pe[0, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x4x8xf32>
  %y_init = tensor.empty() : tensor<1x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x4x8xf32>, tensor<1x4x8xf32>) outs(%y_init : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}

// -----

// Near miss of @sinusoidal_slice: columns [0, 4) of the table, not whole
// rows.
// CHECK-LABEL: func.func @sinusoidal_columns(
// CHECK-NOT: posenc.sinusoidal
// CHECK: tensor.extract_slice
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @sinusoidal_columns(%x: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %pe = arith.constant dense<[[[0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00, 0.000000000e+00, 1.000000000e+00], [8.414709568e-01, 5.403023362e-01, 9.983341396e-02, 9.950041771e-01, 9.999833070e-03, 9.999499917e-01, 9.999998147e-04, 9.999995232e-01], [9.092974067e-01, -4.161468446e-01, 1.986693144e-01, 9.800665975e-01, 1.999866590e-02, 9.998000264e-01, 1.999998465e-03, 9.999980330e-01], [1.411200017e-01, -9.899924994e-01, 2.955201864e-01, 9.553365111e-01, 2.999549918e-02, 9.995500445e-01, 2.999995369e-03, 9.999955297e-01], [-7.568024993e-01, -6.536436081e-01, 3.894183338e-01, 9.210609794e-01, 3.998933360e-02, 9.992001057e-01, 3.999989014e-03, 9.999920130e-01], [-9.589242935e-01, 2.836622000e-01, 4.794255197e-01, 8.775825500e-01, 4.997916520e-02, 9.987502694e-01, 4.999978933e-03, 9.999874830e-01], [-2.794154882e-01, 9.601702690e-01, 5.646424294e-01, 8.253356218e-01, 5.996400490e-02, 9.982005358e-01, 5.999963731e-03, 9.999819994e-01], [6.569865942e-01, 7.539022565e-01, 6.442176104e-01, 7.648422122e-01, 6.994284689e-02, 9.975510240e-01, 6.999942008e-03, 9.999755025e-01], [9.893582463e-01, -1.455000341e-01, 7.173560262e-01, 6.967067122e-01, 7.991468906e-02, 9.968016744e-01, 7.999913767e-03, 9.999679923e-01], [4.121184945e-01, -9.111302495e-01, 7.833268642e-01, 6.216099858e-01, 8.987854421e-02, 9.959527254e-01, 8.999878541e-03, 9.999595284e-01], [-5.440211296e-01, -8.390715122e-01, 8.414709568e-01, 5.403023362e-01, 9.983341396e-02, 9.950041771e-01, 9.999833070e-03, 9.999499917e-01], [-9.999902248e-01, 4.425697960e-03, 8.912073374e-01, 4.535962045e-01, 1.097782999e-01, 9.939560890e-01, 1.099977735e-02, 9.999395013e-01], [-5.365729332e-01, 8.438539505e-01, 9.320390821e-01, 3.623578250e-01, 1.197122037e-01, 9.928086400e-01, 1.199971139e-02, 9.999279976e-01], [4.201670289e-01, 9.074468017e-01, 9.635581970e-01, 2.674988806e-01, 1.296341419e-01, 9.915618896e-01, 1.299963333e-02, 9.999154806e-01], [9.906073809e-01, 1.367372125e-01, 9.854497313e-01, 1.699672788e-01, 1.395431161e-01, 9.902160168e-01, 1.399954129e-02, 9.999020100e-01], [6.502878666e-01, -7.596879005e-01, 9.974949956e-01, 7.073731720e-02, 1.494381279e-01, 9.887710810e-01, 1.499943621e-02, 9.998875260e-01]]]> : tensor<1x16x8xf32>
  %s = tensor.extract_slice %pe[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x4x4xf32>
  %y_init = tensor.empty() : tensor<1x4x4xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x4x4xf32>, tensor<1x4x4xf32>) outs(%y_init : tensor<1x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x4xf32>
  return %y : tensor<1x4x4xf32>
}

// -----

// Fuzzer finding R3 (docs/testing.md): @gpt2_wpe in f64, which
// posenc.learned_absolute does not take (f32, f16, bf16): left alone (it
// was raised into an op that does not verify).
// CHECK-LABEL: func.func @gpt2_wpe_f64(
// CHECK-NOT: posenc.learned_absolute
// CHECK: tensor.extract
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @gpt2_wpe_f64(%x: tensor<1x4x8xf64>, %wpe: tensor<16x8xf64>) -> tensor<1x4x8xf64> {
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x8xf64>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x8xf64>) {
  ^bb0(%in: i64, %out: f64):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf64>
    linalg.yield %e : f64
  } -> tensor<1x4x8xf64>
  %y_init = tensor.empty() : tensor<1x4x8xf64>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x8xf64>, tensor<1x4x8xf64>) outs(%y_init : tensor<1x4x8xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %v = arith.addf %a, %b : f64
    linalg.yield %v : f64
  } -> tensor<1x4x8xf64>
  return %y : tensor<1x4x8xf64>
}


// -----

// Fuzzer finding R4 (docs/testing.md): @gpt2_wpe over 2^32 tokens. The
// arange was checked element by element (minutes); beyond 2^20 positions
// it is not taken for an arange, and the positions become the operand (the
// runtime check rejects rows past the table, as the gather's asserts did).
// CHECK-LABEL: func.func @gpt2_wpe_huge_arange(
// CHECK: posenc.learned_absolute %{{.+}}, %{{.+}} positions(%{{.+}} : tensor<1x4294967296xi64>) : tensor<1x4294967296x8xf32>, tensor<16x8xf32>
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @gpt2_wpe_huge_arange(%x: tensor<1x4294967296x8xf32>, %wpe: tensor<16x8xf32>) -> tensor<1x4294967296x8xf32> {
  %pos_init = tensor.empty() : tensor<4294967296xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4294967296xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4294967296xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4294967296] : tensor<4294967296xi64> into tensor<1x4294967296xi64>
  %g_init = tensor.empty() : tensor<1x4294967296x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4294967296xi64>) outs(%g_init : tensor<1x4294967296x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<16x8xf32>
    linalg.yield %e : f32
  } -> tensor<1x4294967296x8xf32>
  %y_init = tensor.empty() : tensor<1x4294967296x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4294967296x8xf32>, tensor<1x4294967296x8xf32>) outs(%y_init : tensor<1x4294967296x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4294967296x8xf32>
  return %y : tensor<1x4294967296x8xf32>
}


// -----

// Found reducing R4 (R5 in docs/testing.md): a 2^32 x 2^32 splat table,
// gathered as in @gpt2_wpe. The sinusoidal check's rows * columns
// overflowed int64_t (UBSan); the table is not sinusoidal and stays the
// table operand.
// CHECK-LABEL: func.func @huge_splat_table(
// CHECK: %[[T:.+]] = arith.constant dense<5.000000e-01> : tensor<4294967296x4294967296xf32>
// CHECK: posenc.learned_absolute %{{.+}}, %[[T]] : tensor<1x4x4294967296xf32>, tensor<4294967296x4294967296xf32>
// CHECK-NOT: posenc.sinusoidal
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @huge_splat_table(%x: tensor<1x4x4294967296xf32>) -> tensor<1x4x4294967296xf32> {
  %wpe = arith.constant dense<5.000000e-01> : tensor<4294967296x4294967296xf32>
  %pos_init = tensor.empty() : tensor<4xi64>
  %pos_1d = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%pos_init : tensor<4xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<4xi64>
  %pos = tensor.expand_shape %pos_1d [[0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
  %g_init = tensor.empty() : tensor<1x4x4294967296xf32>
  %g = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x4xi64>) outs(%g_init : tensor<1x4x4294967296xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %d = linalg.index 2 : index
    %c16 = arith.constant 4294967296 : index
    %lt = arith.cmpi slt, %r, %c16 : index
    cf.assert %lt, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %e = tensor.extract %wpe[%r, %d] : tensor<4294967296x4294967296xf32>
    linalg.yield %e : f32
  } -> tensor<1x4x4294967296xf32>
  %y_init = tensor.empty() : tensor<1x4x4294967296xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x4x4294967296xf32>, tensor<1x4x4294967296xf32>) outs(%y_init : tensor<1x4x4294967296xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x4x4294967296xf32>
  return %y : tensor<1x4x4294967296xf32>
}

