// RUN: posenc-opt %s --split-input-file --convert-posenc-to-linalg | FileCheck %s
//
// Lowering inputs at the edges (found by posenc-pass-fuzzer; the overflows
// show up as UBSan reports in the sanitizer build, scripts/test-sanitizers.sh).

// original_max_position_embeddings = 2^63 - 1: the long factor set was
// computed for length original + 1 (signed overflow). No i64 length exceeds
// it, so the select always takes the short set.
// CHECK-LABEL: func.func @longrope_max_original
// CHECK: %[[MAX:.+]] = arith.constant 9223372036854775807 : i64
// CHECK: arith.cmpi sgt, %{{.+}}, %[[MAX]] : i64
// CHECK: arith.select
func.func @longrope_max_original(%n: index) -> tensor<2xf32> {
  %inv, %af = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0, 1.0], long_factor = [2.0, 2.0], original_max_position_embeddings = 9223372036854775807, max_position_embeddings = 9223372036854775807>) seq_len(%n : index) : tensor<2xf32>, f32
  return %inv : tensor<2xf32>
}

// -----

// A static zero extent: nothing to rotate. The pair slices had offset 0 in an
// extent of 0, which tensor.extract_slice rejects (the pass claimed success
// and left IR that does not verify).
// CHECK-LABEL: func.func @rotary_empty_batch
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[E:.+]] = tensor.empty() : tensor<0x8x4x16xf32>
// CHECK: return %[[E]]
func.func @rotary_empty_batch(%x: tensor<0x8x4x16xf32>, %inv: tensor<8xf32>) -> tensor<0x8x4x16xf32> {
  %y = posenc.rotary %x half_split dim 16 inv_freq(%inv : tensor<8xf32>) : tensor<0x8x4x16xf32>
  return %y : tensor<0x8x4x16xf32>
}

// -----

// The same inside attention (which rotates q and k through posenc.rotary).
// CHECK-LABEL: func.func @attention_empty_batch
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @attention_empty_batch(%q: tensor<0x8x4x16xf32>, %k: tensor<0x2x6x16xf32>, %v: tensor<0x2x6x8xf32>, %f: tensor<8xf32>) -> tensor<0x8x4x8xf32> {
  %o = posenc.attention %q, %k, %v causal rope(<layout = half_split, rotary_dim = 16>, %f : tensor<8xf32>) alibi(<num_heads = 8>) : tensor<0x8x4x16xf32>, tensor<0x2x6x16xf32>, tensor<0x2x6x8xf32> -> tensor<0x8x4x8xf32>
  return %o : tensor<0x8x4x8xf32>
}

// -----

// Interleaved M-RoPE compares pair < 3 * sections[k]; with sections[1] =
// 3074457345618258603 that product overflowed. The bound is capped at the
// pair count (every pair is below it).
// CHECK-LABEL: func.func @mrope_interleaved_huge_section
// CHECK: arith.constant 3074457345618258605 : index
func.func @mrope_interleaved_huge_section(%x: tensor<1x1x6148914691236517210xf32>, %inv: tensor<3074457345618258605xf32>, %p: tensor<3x1xi64>) -> tensor<1x1x6148914691236517210xf32> {
  %r = posenc.rotary %x half_split dim 6148914691236517210 inv_freq(%inv : tensor<3074457345618258605xf32>) positions(%p : tensor<3x1xi64>) {mrope_sections = array<i64: 1, 3074457345618258603, 1>, mrope_layout = #posenc<mrope_layout interleaved>} : tensor<1x1x6148914691236517210xf32>
  return %r : tensor<1x1x6148914691236517210xf32>
}

// -----

// The result type may be less (or more) static than the operands: the last
// generic had the op's result type but an init of the operands' shape, which
// does not verify ('linalg.generic' op expected type of operand #1
// ('tensor<2x4x1x8xbf16>') to match type of corresponding result). Found by
// the long posenc-pass-fuzzer run.
// CHECK-LABEL: func.func @attention_dynamic_result_dim
// CHECK: %[[CAST:.+]] = tensor.cast %{{.+}} : tensor<2x4x1x8xbf16> to tensor<2x4x1x?xbf16>
// CHECK: return %[[CAST]]
func.func @attention_dynamic_result_dim(%q: tensor<2x4x1x16xbf16>, %k: tensor<2x4x?x16xbf16>, %v: tensor<2x4x?x8xbf16>) -> tensor<2x4x1x?xbf16> {
  %o = posenc.attention %q, %k, %v causal : tensor<2x4x1x16xbf16>, tensor<2x4x?x16xbf16>, tensor<2x4x?x8xbf16> -> tensor<2x4x1x?xbf16>
  return %o : tensor<2x4x1x?xbf16>
}

// -----

// CHECK-LABEL: func.func @attention_static_result_dim
// CHECK: tensor.cast %{{.+}} : tensor<1x4x?x8xf32> to tensor<1x4x3x8xf32>
func.func @attention_static_result_dim(%q: tensor<1x4x?x8xf32>, %k: tensor<1x4x?x8xf32>) -> tensor<1x4x3x8xf32> {
  %o = posenc.attention %q, %k, %k : tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32> -> tensor<1x4x3x8xf32>
  return %o : tensor<1x4x3x8xf32>
}

// -----

// Dynamic lengths that fold to constants (tensor.cast from static tensors,
// GQA 4/2): the grouped view of Q was typed from the folded sizes (static 6)
// while Q's type is dynamic, an expand_shape that does not verify (found by
// posenc-pass-fuzzer on test/GPU/posenc-attention-to-gpu.mlir's
// @cast_into_destination). Sizes are now static exactly where the types are.
// CHECK-LABEL: func.func @attention_lengths_from_casts
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, %{{.+}}, 32] : tensor<1x4x?x32xbf16> into tensor<1x2x2x?x32xbf16>
// CHECK: return
func.func @attention_lengths_from_casts(%q: tensor<1x4x6x32xbf16>, %k: tensor<1x2x6x32xbf16>,
                                        %v: tensor<1x2x6x32xbf16>) -> tensor<1x4x6x32xbf16> {
  %qd = tensor.cast %q : tensor<1x4x6x32xbf16> to tensor<1x4x?x32xbf16>
  %kd = tensor.cast %k : tensor<1x2x6x32xbf16> to tensor<1x2x?x32xbf16>
  %vd = tensor.cast %v : tensor<1x2x6x32xbf16> to tensor<1x2x?x32xbf16>
  %o = posenc.attention %qd, %kd, %vd causal
      : tensor<1x4x?x32xbf16>, tensor<1x2x?x32xbf16>, tensor<1x2x?x32xbf16> -> tensor<1x4x?x32xbf16>
  %os = tensor.cast %o : tensor<1x4x?x32xbf16> to tensor<1x4x6x32xbf16>
  return %os : tensor<1x4x6x32xbf16>
}
