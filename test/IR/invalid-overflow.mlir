// RUN: posenc-opt %s --split-input-file --verify-diagnostics
//
// Verifier checks whose arithmetic overflowed int64_t (found by
// posenc-pass-fuzzer and the sanitizer build): extents, offsets and
// attribute values reach 2^63 - 1, so sums are formed without overflow and
// printed exactly. Before the fixes, the overflowing sums wrapped (signed
// overflow, undefined behavior) and some invalid ops verified.

// head_offset + heads = 2^63 + 1 wrapped negative and the shard verified.
func.func @alibi_shard_overflow() -> tensor<3x1x1xf32> {
  // expected-error @+1 {{heads [9223372036854775806, 9223372036854775809) exceed num_heads = 9223372036854775807}}
  %b = posenc.alibi symmetric slopes(<num_heads = 9223372036854775807, head_offset = 9223372036854775806>) : tensor<3x1x1xf32>
  return %b : tensor<3x1x1xf32>
}

// -----

// The section sum wrapped to -2.
func.func @mrope_sections_overflow(%x: tensor<1x1x4xf32>, %inv: tensor<2xf32>, %p: tensor<2x1xi64>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{mrope_sections must sum to rotary_dim/2 = 2, got 18446744073709551614}}
  %r = posenc.rotary %x half_split dim 4 inv_freq(%inv : tensor<2xf32>) positions(%p : tensor<2x1xi64>) {mrope_sections = array<i64: 9223372036854775807, 9223372036854775807>} : tensor<1x1x4xf32>
  return %r : tensor<1x1x4xf32>
}

// -----

// positions[0] + offset wrapped to -2^63 and passed the range check.
func.func @learned_position_overflow(%x: tensor<1x4x8xf32>, %t: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %o = arith.constant 9223372036854775807 : i64
  %p = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  // expected-error @+1 {{position 9223372036854775808 is outside the learned table [0, 16)}}
  %r = posenc.learned_absolute %x, %t positions(%p : tensor<4xi64>) offset(%o : i64) : tensor<1x4x8xf32>, tensor<16x8xf32>
  return %r : tensor<1x4x8xf32>
}

// -----

// offset + tokens wrapped negative and the op verified.
func.func @learned_offset_overflow(%x: tensor<1x4x8xf32>, %t: tensor<16x8xf32>) -> tensor<1x4x8xf32> {
  %o = arith.constant 9223372036854775807 : i64
  // expected-error @+1 {{positions [9223372036854775807, 9223372036854775811) exceed the learned table of 16 rows}}
  %r = posenc.learned_absolute %x, %t offset(%o : i64) : tensor<1x4x8xf32>, tensor<16x8xf32>
  return %r : tensor<1x4x8xf32>
}

// -----

// Positions, offsets and lengths are 64-bit: an i128 constant did not fit the
// getSExtValue() of the verifier and folder (an assertion, or garbage in a
// release build), and the lowering built ill-typed arith ops.
func.func @offset_i128(%x: tensor<1x4x8xf32>, %t: tensor<16x8xf32>, %o: i128) -> tensor<1x4x8xf32> {
  // expected-error @+1 {{operand #2 must be signless integer of 2 to 64 bits or index}}
  %r = posenc.learned_absolute %x, %t offset(%o : i128) : tensor<1x4x8xf32>, tensor<16x8xf32>
  return %r : tensor<1x4x8xf32>
}

// -----

func.func @seq_len_i128(%n: i128) -> tensor<2xf32> {
  // expected-error @+1 {{operand #0 must be signless integer of 2 to 64 bits or index}}
  %inv, %af = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 16>) seq_len(%n : i128) : tensor<2xf32>, f32
  return %inv : tensor<2xf32>
}

// -----

// A dynamic key head dim verified, and the lowering rotated k without knowing
// which channels to pass through (they came out uninitialized).
func.func @attention_dynamic_key_head_dim(%q: tensor<1x1x4x8xf32>, %k: tensor<1x1x4x?xf32>, %v: tensor<1x1x4x8xf32>, %inv: tensor<2xf32>) -> tensor<1x1x4x8xf32> {
  // expected-error @+1 {{head dims must be static}}
  %o = posenc.attention %q, %k, %v rope(<layout = half_split, rotary_dim = 4>, %inv : tensor<2xf32>) : tensor<1x1x4x8xf32>, tensor<1x1x4x?xf32>, tensor<1x1x4x8xf32> -> tensor<1x1x4x8xf32>
  return %o : tensor<1x1x4x8xf32>
}

// -----

// An i1 offset sign-extended `true` to -1 (a rotation by -1 position): i1 is
// not an offset type (issue 22 item 8).
func.func @offset_i1(%x: tensor<1x4x8xf32>, %t: tensor<16x8xf32>, %o: i1) -> tensor<1x4x8xf32> {
  // expected-error @+1 {{operand #2 must be signless integer of 2 to 64 bits or index}}
  %r = posenc.learned_absolute %x, %t offset(%o : i1) : tensor<1x4x8xf32>, tensor<16x8xf32>
  return %r : tensor<1x4x8xf32>
}
