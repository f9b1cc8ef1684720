// RUN: posenc-opt %s --split-input-file --posenc-fold-frequencies | FileCheck %s

// Unscaled ladder base^(-2i/d) for d = 8, base = 10^4: 1, 0.1, 0.01, 0.001
// (each rounded once to f32), attention factor 1.
// CHECK-LABEL: func.func @default_ladder
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[AF:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NOT: posenc.rope_frequencies
// CHECK: return %[[INV]], %[[AF]]
func.func @default_ladder() -> (tensor<4xf32>, f32) {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 : tensor<4xf32>, f32
  return %inv, %af : tensor<4xf32>, f32
}

// -----

// Linear / PI divides every frequency by the factor; f64 results keep fp64.
// CHECK-LABEL: func.func @linear_f64
// CHECK: arith.constant dense<[2.500000e-01, 2.500000e-02, 2.500000e-03, 2.500000e-04]> : tensor<4xf64>
func.func @linear_f64() -> tensor<4xf64> {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 scaling(#posenc.linear<factor = 4.0>) : tensor<4xf64>, f32
  return %inv : tensor<4xf64>
}

// -----

// HF dynamic NTK at a constant length at or below max_position_embeddings is
// the unscaled ladder (L = max(seq_len, max) = max => base' = base).
// CHECK-LABEL: func.func @dynamic_ntk_constant_len
// CHECK: arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-NOT: posenc.rope_frequencies
func.func @dynamic_ntk_constant_len() -> tensor<4xf32> {
  %n = arith.constant 100 : index
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 4096>) seq_len(%n : index) : tensor<4xf32>, f32
  return %inv : tensor<4xf32>
}

// -----

// A runtime length stays for the lowering.
// CHECK-LABEL: func.func @dynamic_ntk_runtime_len
// CHECK: posenc.rope_frequencies dim 8 base 1.000000e+04 scaling(#posenc.dynamic_ntk
func.func @dynamic_ntk_runtime_len(%n: index) -> tensor<4xf32> {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 4096>) seq_len(%n : index) : tensor<4xf32>, f32
  return %inv : tensor<4xf32>
}

// -----

// LongRoPE at a constant length: short factors up to the original context,
// long ones beyond it. Factors divide the ladder [1, 0.01].
// CHECK-LABEL: func.func @longrope_constant_len
// CHECK-DAG: %[[SHORT:.+]] = arith.constant dense<[5.000000e-01, 2.500000e-03]> : tensor<2xf32>
// CHECK-DAG: %[[LONG:.+]] = arith.constant dense<[1.250000e-01, 1.250000e-03]> : tensor<2xf32>
// CHECK: return %[[SHORT]], %[[LONG]]
func.func @longrope_constant_len() -> (tensor<2xf32>, tensor<2xf32>) {
  %short_len = arith.constant 4096 : i64
  %long_len = arith.constant 4097 : i64
  %a:2 = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [2.0, 4.0], long_factor = [8.0, 8.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072>) seq_len(%short_len : i64) : tensor<2xf32>, f32
  %b:2 = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [2.0, 4.0], long_factor = [8.0, 8.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072>) seq_len(%long_len : i64) : tensor<2xf32>, f32
  return %a#0, %b#0 : tensor<2xf32>, tensor<2xf32>
}

// -----

// A folded unit attention factor is dropped from the consumers; a non-unit
// one (YaRN, 0.1 ln 4 + 1) is kept.
// CHECK-LABEL: func.func @drop_unit_factor
// CHECK-DAG: %[[AF:.+]] = arith.constant 1.13862944 : f32
// CHECK: posenc.rotary %{{.+}} half_split dim 8 inv_freq(%{{.+}} : tensor<4xf32>) : tensor<2x8xf32>
// CHECK: posenc.rotary %{{.+}} half_split dim 8 inv_freq(%{{.+}} : tensor<4xf32>) attention_factor(%[[AF]]) : tensor<2x8xf32>
func.func @drop_unit_factor(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 : tensor<4xf32>, f32
  %y = posenc.rotary %x half_split dim 8 inv_freq(%inv : tensor<4xf32>) attention_factor(%af) : tensor<2x8xf32>
  %inv2, %af2 = posenc.rope_frequencies dim 8 base 10000.0 scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 64>) : tensor<4xf32>, f32
  %z = posenc.rotary %x half_split dim 8 inv_freq(%inv2 : tensor<4xf32>) attention_factor(%af2) : tensor<2x8xf32>
  return %y, %z : tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// HF v4.5x YaRN (factor_rule = context_ratio): s = max / original overrides
// the factor. With Qwen2.5's recipe (max == original) that is s = 1, i.e. the
// unscaled ladder and attention factor 1 (reference §7.1).
// CHECK-LABEL: func.func @yarn_context_ratio_qwen_recipe
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// CHECK-DAG: %[[AF:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: return %[[INV]], %[[AF]]
func.func @yarn_context_ratio_qwen_recipe() -> (tensor<4xf32>, f32) {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 32768, factor_rule = context_ratio, max_position_embeddings = 32768>) : tensor<4xf32>, f32
  return %inv, %af : tensor<4xf32>, f32
}

// -----

// A context ratio of 4 folds to exactly the table of an explicit factor 4:
// the two folded constants are one (uniqued) constant.
// CHECK-LABEL: func.func @yarn_context_ratio_equals_factor
// CHECK: %[[T:.+]] = arith.constant dense<{{.+}}> : tensor<16xf32>
// CHECK-NOT: arith.constant dense
// CHECK: return %[[T]], %[[T]]
func.func @yarn_context_ratio_equals_factor() -> (tensor<16xf32>, tensor<16xf32>) {
  %a:2 = posenc.rope_frequencies dim 32 base 10000.0 scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 2048>) : tensor<16xf32>, f32
  %b:2 = posenc.rope_frequencies dim 32 base 10000.0 scaling(#posenc.yarn<factor = 1.0, original_max_position_embeddings = 2048, factor_rule = context_ratio, max_position_embeddings = 8192>) : tensor<16xf32>, f32
  return %a#0, %b#0 : tensor<16xf32>, tensor<16xf32>
}
