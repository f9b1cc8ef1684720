// RUN: posenc-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// posenc.rope_frequencies
//===----------------------------------------------------------------------===//

// Frequencies come in pairs.
// expected-error @+1 {{'rotary_dim' must be positive and even, got 63}}
%0:2 = posenc.rope_frequencies dim 63 base 10000.0 : tensor<31xf32>, f32

// -----

// expected-error @+1 {{attribute 'rotary_dim' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
%0:2 = posenc.rope_frequencies dim 0 base 10000.0 : tensor<0xf32>, f32

// -----

// base^(-2i/d) is a decreasing ladder only for base > 1.
// expected-error @+1 {{base must be finite and > 1, got 1.000000e+00}}
%0:2 = posenc.rope_frequencies dim 64 base 1.0 : tensor<32xf32>, f32

// -----

// expected-error @+1 {{result must have static size rotary_dim/2 = 32, got 'tensor<64xf32>'}}
%0:2 = posenc.rope_frequencies dim 64 base 10000.0 : tensor<64xf32>, f32

// -----

// expected-error @+1 {{result must have static size rotary_dim/2 = 32, got 'tensor<?xf32>'}}
%0:2 = posenc.rope_frequencies dim 64 base 10000.0 : tensor<?xf32>, f32

// -----

// expected-error @+1 {{ntk scaling needs rotary_dim > 2 (exponent d/(d-2)), got 2}}
%0:2 = posenc.rope_frequencies dim 2 base 10000.0 scaling(#posenc.ntk<factor = 2.0>) : tensor<1xf32>, f32

// -----

// expected-error @+1 {{dynamic_ntk scaling needs rotary_dim > 2 (exponent d/(d-2)), got 2}}
%0:2 = posenc.rope_frequencies dim 2 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 4096, rule = vllm_legacy>) : tensor<1xf32>, f32

// -----

// LongRoPE has one factor per frequency pair.
// expected-error @+1 {{longrope factor lists must have rotary_dim/2 = 3 entries, got 2}}
%0:2 = posenc.rope_frequencies dim 6 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0, 1.0], long_factor = [1.0, 2.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072, select = long>) : tensor<3xf32>, f32

// -----

// HF dynamic NTK recomputes the base from the runtime length.
// expected-error @+1 {{depends on the runtime sequence length: seq_len is required}}
%0:2 = posenc.rope_frequencies dim 64 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 4096>) : tensor<32xf32>, f32

// -----

func.func @unused_seq_len(%n: index) {
  // expected-error @+1 {{seq_len is only meaningful for runtime scaling rules}}
  %0:2 = posenc.rope_frequencies dim 64 base 10000.0 scaling(#posenc.linear<factor = 2.0>) seq_len(%n : index) : tensor<32xf32>, f32
  return
}

// -----

func.func @seq_len_without_scaling(%n: index) {
  // expected-error @+1 {{seq_len is only meaningful for runtime scaling rules}}
  %0:2 = posenc.rope_frequencies dim 64 base 10000.0 seq_len(%n : index) : tensor<32xf32>, f32
  return
}

// -----

// A configuration attribute is not a scaling scheme.
// expected-error @+1 {{Invalid attribute `scaling` in property conversion: #posenc.rope<layout = half_split, rotary_dim = 64>}}
%0:2 = "posenc.rope_frequencies"() <{rotary_dim = 64 : i64, base = 10000.0 : f64, scaling = #posenc.rope<layout = half_split, rotary_dim = 64>}> : () -> (tensor<32xf32>, f32)

// -----

// Parameters that are valid on their own but overflow the table (it used to
// fold to inf): the fp64 table is checked in the result's element type.
// inv_freq[0] = 1 / factor.
// expected-error @+1 {{scaling parameter 'factor' (9.999889e-321) makes the RoPE frequency table non-finite: inv_freq[0] = inf}}
%0:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.linear<factor = 1.0e-320>) : tensor<64xf32>, f32

// -----

// 1e40 is finite in f64 (see roundtrip.mlir) but not in f32.
// expected-error @+1 {{scaling parameter 'factor' (1.000000e-40) makes the RoPE frequency table non-finite: inv_freq[0] = 1e+40, beyond the range of f32}}
%0:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.linear<factor = 1.0e-40>) : tensor<64xf32>, f32

// -----

// base * s^(d/(d-2)) underflows: the ladder climbs instead of falling.
// expected-error @+1 {{scaling parameter 'factor' (1.000000e-300) makes the RoPE frequency table non-finite: inv_freq[9] = 1.9708e+42, beyond the range of f32}}
%0:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.ntk<factor = 1.0e-300>) : tensor<64xf32>, f32

// -----

// expected-error @+1 {{scaling parameter 'factor' (1.000000e-300) makes the RoPE frequency table non-finite: inv_freq[8] = 4.86968e+41, beyond the range of f32}}
%0:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.ntk<factor = 1.0e-300, form = vllm>) : tensor<64xf32>, f32

// -----

// s*L/M - (s-1) cancels to 0 at L = M: base' = 0.
func.func @dynamic_ntk_huge_factor(%n: index) {
  // expected-error @+1 {{scaling parameter 'factor' (1.000000e+17) makes the RoPE frequency table non-finite: inv_freq[1] = inf at seq_len 4096}}
  %0:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 1.0e17, max_position_embeddings = 4096>) seq_len(%n : index) : tensor<64xf32>, f32
  return
}

// -----

// inf * ramp with ramp = 0.
// expected-error @+1 {{scaling parameter 'factor' (9.999889e-321) makes the RoPE frequency table non-finite: inv_freq[0] = nan}}
%0:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.yarn<factor = 1.0e-320, original_max_position_embeddings = 4096>) : tensor<64xf32>, f32

// -----

// Only the low-frequency band is divided by the factor.
// expected-error @+1 {{scaling parameter 'factor' (9.999889e-321) makes the RoPE frequency table non-finite: inv_freq[29] = inf}}
%0:2 = posenc.rope_frequencies dim 128 base 500000.0 scaling(#posenc.llama3<factor = 1.0e-320, original_max_position_embeddings = 8192>) : tensor<64xf32>, f32

// -----

// The runtime rule selects either list: both are checked.
func.func @longrope_tiny_long_factor(%n: index) {
  // expected-error @+1 {{scaling parameter 'long_factor[1]' (9.999889e-321) makes the RoPE frequency table non-finite: inv_freq[1] = inf at seq_len 4097}}
  %0:2 = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0, 1.0], long_factor = [1.0, 1.0e-320], original_max_position_embeddings = 4096, max_position_embeddings = 131072>) seq_len(%n : index) : tensor<2xf32>, f32
  return
}

// -----

// expected-error @+1 {{scaling parameter 'short_factor[0]' (1.000000e-39) makes the RoPE frequency table non-finite: inv_freq[0] = 1e+39, beyond the range of f32}}
%0:2 = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0e-39, 1.0], long_factor = [1.0, 1.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072, select = short>) : tensor<2xf32>, f32

//===----------------------------------------------------------------------===//
// posenc.rotary
//===----------------------------------------------------------------------===//

// -----

func.func @rotary_rank1(%x: tensor<128xf32>, %f: tensor<64xf32>) {
  // expected-error @+1 {{input must have rank >= 2 ([..., S, D]), got 1}}
  %0 = posenc.rotary %x half_split dim 128 inv_freq(%f : tensor<64xf32>) : tensor<128xf32>
  return
}

// -----

func.func @rotary_token_dim_is_head_dim(%x: tensor<4x16x128xf32>, %f: tensor<64xf32>) {
  // expected-error @+1 {{token_dim (2) must name a dimension before head_dim (rank 3)}}
  %0 = posenc.rotary %x half_split dim 128 inv_freq(%f : tensor<64xf32>) {token_dim = 2 : i64} : tensor<4x16x128xf32>
  return
}

// -----

func.func @rotary_dynamic_head_dim(%x: tensor<16x?xf32>, %f: tensor<32xf32>) {
  // expected-error @+1 {{head_dim (the last dimension) must be static}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) : tensor<16x?xf32>
  return
}

// -----

func.func @rotary_odd_dim(%x: tensor<16x128xf32>, %f: tensor<32xf32>) {
  // expected-error @+1 {{'rotary_dim' must be positive and even, got 65}}
  %0 = posenc.rotary %x half_split dim 65 inv_freq(%f : tensor<32xf32>) : tensor<16x128xf32>
  return
}

// -----

// The pass-through part cannot be negative.
func.func @rotary_dim_exceeds_head_dim(%x: tensor<16x64xf32>, %f: tensor<64xf32>) {
  // expected-error @+1 {{rotary_dim (128) exceeds head_dim (64)}}
  %0 = posenc.rotary %x half_split dim 128 inv_freq(%f : tensor<64xf32>) : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_no_source(%x: tensor<16x64xf32>) {
  // expected-error @+1 {{needs exactly one frequency source: inv_freq or cos_sin tables}}
  %0 = posenc.rotary %x half_split dim 64 : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_two_sources(%x: tensor<16x64xf32>, %f: tensor<32xf32>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{needs exactly one frequency source: inv_freq or cos_sin tables}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) cos_sin(%c, %c : tensor<16x32xf32>, tensor<16x32xf32>) : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_inv_freq_size(%x: tensor<16x64xf32>, %f: tensor<16xf32>) {
  // expected-error @+1 {{inv_freq must have rotary_dim/2 = 32 entries, got 16}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<16xf32>) : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_cos_only(%x: tensor<16x64xf32>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{cos and sin tables must be given together}}
  %0 = "posenc.rotary"(%x, %c) <{layout = #posenc<layout half_split>, rotary_dim = 64 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 0, 0>}> : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<16x64xf32>
  return
}

// -----

func.func @rotary_table_types(%x: tensor<16x64xf32>, %c: tensor<16x32xf32>, %s: tensor<16x32xbf16>) {
  // expected-error @+1 {{cos and sin tables must have the same type}}
  %0 = posenc.rotary %x half_split dim 64 cos_sin(%c, %s : tensor<16x32xf32>, tensor<16x32xbf16>) : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_table_rank(%x: tensor<16x64xf32>, %c: tensor<1x16x32xf32>) {
  // expected-error @+1 {{cos/sin tables must have shape [T, rotary_dim/2], got 'tensor<1x16x32xf32>'}}
  %0 = posenc.rotary %x half_split dim 64 cos_sin(%c, %c : tensor<1x16x32xf32>, tensor<1x16x32xf32>) : tensor<16x64xf32>
  return
}

// -----

// Tables are half width: HF's full-width cat(freqs, freqs) must be sliced.
func.func @rotary_table_width(%x: tensor<16x64xf32>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{cos/sin tables must have rotary_dim/2 = 32 columns, got 64}}
  %0 = posenc.rotary %x half_split dim 64 cos_sin(%c, %c : tensor<16x64xf32>, tensor<16x64xf32>) : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_table_attention_factor(%x: tensor<16x64xf32>, %c: tensor<16x32xf32>, %af: f32) {
  // expected-error @+1 {{attention_factor is only valid with inv_freq (cos/sin tables already include it)}}
  %0 = posenc.rotary %x half_split dim 64 cos_sin(%c, %c : tensor<16x32xf32>, tensor<16x32xf32>) attention_factor(%af) : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_bad_element(%x: tensor<16x64xi8>, %f: tensor<32xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) : tensor<16x64xi8>
  return
}

// -----

func.func @rotary_mrope_one_axis(%x: tensor<16x64xf32>, %f: tensor<32xf32>, %p: tensor<1x16xi64>) {
  // expected-error @+1 {{mrope_sections needs at least 2 axes, got 1}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<1x16xi64>) {mrope_sections = array<i64: 32>} : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_mrope_zero_section(%x: tensor<16x64xf32>, %f: tensor<32xf32>, %p: tensor<3x16xi64>) {
  // expected-error @+1 {{mrope_sections entries must be > 0}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<3x16xi64>) {mrope_sections = array<i64: 16, 0, 16>} : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_mrope_sum(%x: tensor<16x64xf32>, %f: tensor<32xf32>, %p: tensor<3x16xi64>) {
  // expected-error @+1 {{mrope_sections must sum to rotary_dim/2 = 32, got 30}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<3x16xi64>) {mrope_sections = array<i64: 10, 10, 10>} : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_mrope_interleaved_axes(%x: tensor<16x64xf32>, %f: tensor<32xf32>, %p: tensor<2x16xi64>) {
  // expected-error @+1 {{interleaved M-RoPE is defined for 3 axes (t, h, w), got 2}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<2x16xi64>) {mrope_sections = array<i64: 16, 16>, mrope_layout = #posenc<mrope_layout interleaved>} : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_mrope_no_positions(%x: tensor<16x64xf32>, %f: tensor<32xf32>) {
  // expected-error @+1 {{M-RoPE requires positions of shape [axes, ..., S]}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) {mrope_sections = array<i64: 8, 12, 12>} : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_mrope_axis_count(%x: tensor<16x64xf32>, %f: tensor<32xf32>, %p: tensor<2x16xi64>) {
  // expected-error @+1 {{positions dimension 0 must be 3, got 2}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<2x16xi64>) {mrope_sections = array<i64: 8, 12, 12>} : tensor<16x64xf32>
  return
}

// -----

func.func @rotary_mrope_layout_alone(%x: tensor<16x64xf32>, %f: tensor<32xf32>) {
  // expected-error @+1 {{mrope_layout requires mrope_sections}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) {mrope_layout = #posenc<mrope_layout chunked>} : tensor<16x64xf32>
  return
}

// -----

// With tokens on axis 0 there is no batch axis for [B, S] positions.
func.func @rotary_positions_rank(%x: tensor<16x8x64xf32>, %f: tensor<32xf32>, %p: tensor<1x16xi64>) {
  // expected-error @+1 {{positions must have rank 1, got rank 2}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<1x16xi64>) {token_dim = 0 : i64} : tensor<16x8x64xf32>
  return
}

// -----

func.func @rotary_positions_rank3(%x: tensor<2x8x16x64xf32>, %f: tensor<32xf32>, %p: tensor<2x1x16xi64>) {
  // expected-error @+1 {{positions must have rank 1 ([S]) or 2 ([B, S]), got rank 3}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<2x1x16xi64>) : tensor<2x8x16x64xf32>
  return
}

// -----

func.func @rotary_positions_batch(%x: tensor<2x8x16x64xf32>, %f: tensor<32xf32>, %p: tensor<3x16xi64>) {
  // expected-error @+1 {{positions batch extent (3) does not match the batch (2)}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<3x16xi64>) : tensor<2x8x16x64xf32>
  return
}

// -----

func.func @rotary_positions_tokens(%x: tensor<2x8x16x64xf32>, %f: tensor<32xf32>, %p: tensor<17xi64>) {
  // expected-error @+1 {{positions token extent (17) does not match the sequence length (16)}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<17xi64>) : tensor<2x8x16x64xf32>
  return
}

// -----

func.func @rotary_positions_float(%x: tensor<16x64xf32>, %f: tensor<32xf32>, %p: tensor<16xf32>) {
  // expected-error @+1 {{operand #2 must be ranked tensor of 32-bit signless integer or 64-bit signless integer or index values}}
  %0 = posenc.rotary %x half_split dim 64 inv_freq(%f : tensor<32xf32>) positions(%p : tensor<16xf32>) : tensor<16x64xf32>
  return
}

//===----------------------------------------------------------------------===//
// posenc.alibi
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{result must be [H, Sq, Sk] or [B, H, Sq, Sk], got 'tensor<16x16xf32>'}}
%0 = posenc.alibi symmetric slopes(<num_heads = 8>) : tensor<16x16xf32>

// -----

// expected-error @+1 {{needs at least one head}}
%0 = posenc.alibi symmetric slopes(<num_heads = 8>) : tensor<0x16x16xf32>

// -----

// expected-error @+1 {{needs exactly one slope source: #posenc.alibi_slopes or a slopes tensor}}
%0 = "posenc.alibi"() <{form = #posenc<alibi_form symmetric>, alignment = #posenc<alignment bottom_right>, operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> tensor<8x16x16xf32>

// -----

func.func @alibi_two_sources(%s: tensor<8xf32>) {
  // expected-error @+1 {{needs exactly one slope source: #posenc.alibi_slopes or a slopes tensor}}
  %0 = "posenc.alibi"(%s) <{config = #posenc.alibi_slopes<num_heads = 8>, form = #posenc<alibi_form symmetric>, alignment = #posenc<alignment bottom_right>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<8xf32>) -> tensor<8x16x16xf32>
  return
}

// -----

// A shard must not read slopes past the global head count.
// expected-error @+1 {{heads [4, 12) exceed num_heads = 8}}
%0 = posenc.alibi symmetric slopes(<num_heads = 8, head_offset = 4>) : tensor<8x16x16xf32>

// -----

func.func @alibi_slopes_size(%s: tensor<4xf32>) {
  // expected-error @+1 {{slopes must have one entry per head (8), got 'tensor<4xf32>'}}
  %0 = posenc.alibi symmetric slopes(%s : tensor<4xf32>) : tensor<8x16x16xf32>
  return
}

// -----

func.func @alibi_q_positions(%p: tensor<15xi64>) {
  // expected-error @+1 {{q_positions token extent (15) does not match the sequence length (16)}}
  %0 = posenc.alibi symmetric slopes(<num_heads = 8>) q_positions(%p : tensor<15xi64>) : tensor<8x16x32xf32>
  return
}

// -----

// Without a batch axis in the result there is no per-sequence position.
func.func @alibi_k_positions_batch(%p: tensor<2x32xi64>) {
  // expected-error @+1 {{k_positions must have rank 1, got rank 2}}
  %0 = posenc.alibi symmetric slopes(<num_heads = 8>) k_positions(%p : tensor<2x32xi64>) : tensor<8x16x32xf32>
  return
}

// -----

func.func @alibi_k_positions_batch_mismatch(%p: tensor<3x32xi64>) {
  // expected-error @+1 {{k_positions batch extent (3) does not match the batch (2)}}
  %0 = posenc.alibi key_linear slopes(<num_heads = 8>) k_positions(%p : tensor<3x32xi64>) : tensor<2x8x16x32xf32>
  return
}

// -----

// expected-error @+1 {{a dynamic query length needs q_positions}}
%0 = posenc.alibi symmetric slopes(<num_heads = 8>) : tensor<8x?x16xf32>

// -----

// expected-error @+1 {{a dynamic key length needs k_positions}}
%0 = posenc.alibi symmetric slopes(<num_heads = 8>) : tensor<8x16x?xf32>

// -----

// expected-error @+1 {{a dynamic head count needs a slopes tensor}}
%0 = posenc.alibi symmetric slopes(<num_heads = 8>) : tensor<?x16x16xf32>

// -----

// expected-error @+1 {{a dynamic batch needs [B, S] q_positions or k_positions}}
%0 = posenc.alibi symmetric slopes(<num_heads = 8>) : tensor<?x8x16x16xf32>

//===----------------------------------------------------------------------===//
// posenc.sinusoidal
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{base must be finite and > 1, got 5.000000e-01}}
%0 = posenc.sinusoidal interleaved {base = 0.5 : f64} : tensor<16x8xf32>

// -----

// expected-error @+1 {{result must have rank 2 ([rows..., d]), got 'tensor<16xf32>'}}
%0 = posenc.sinusoidal interleaved : tensor<16xf32>

// -----

// expected-error @+1 {{encoding dimension must be >= 2, got 1}}
%0 = posenc.sinusoidal concatenated : tensor<16x1xf32>

// -----

// expected-error @+1 {{encoding dimension must be static}}
%0 = posenc.sinusoidal concatenated : tensor<16x?xf32>

// -----

// expected-error @+1 {{a dynamic row count needs positions}}
%0 = posenc.sinusoidal concatenated : tensor<?x8xf32>

// -----

func.func @sinusoidal_positions_rank(%p: tensor<1x2x3xi64>) {
  // expected-error @+1 {{positions must be [S] or [B, S], got 'tensor<1x2x3xi64>'}}
  %0 = posenc.sinusoidal interleaved positions(%p : tensor<1x2x3xi64>) : tensor<1x2x3x8xf32>
  return
}

// -----

func.func @sinusoidal_rows(%p: tensor<12xi64>) {
  // expected-error @+1 {{result rows 'tensor<16x8xf32>' do not match positions 'tensor<12xi64>'}}
  %0 = posenc.sinusoidal interleaved positions(%p : tensor<12xi64>) : tensor<16x8xf32>
  return
}

// -----

func.func @sinusoidal_batched_rank(%p: tensor<2x16xi64>) {
  // expected-error @+1 {{result must have rank 3 ([rows..., d]), got 'tensor<16x8xf32>'}}
  %0 = posenc.sinusoidal interleaved positions(%p : tensor<2x16xi64>) : tensor<16x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// posenc.learned_absolute
//===----------------------------------------------------------------------===//

// -----

func.func @learned_rank(%x: tensor<768xf32>, %t: tensor<1024x768xf32>) {
  // expected-error @+1 {{input must have rank >= 2 ([..., S, D]), got 1}}
  %0 = posenc.learned_absolute %x, %t : tensor<768xf32>, tensor<1024x768xf32>
  return
}

// -----

func.func @learned_table_rank(%x: tensor<16x768xf32>, %t: tensor<768xf32>) {
  // expected-error @+1 {{table must have shape [P, D], got 'tensor<768xf32>'}}
  %0 = posenc.learned_absolute %x, %t : tensor<16x768xf32>, tensor<768xf32>
  return
}

// -----

func.func @learned_element_type(%x: tensor<16x768xf32>, %t: tensor<1024x768xbf16>) {
  // expected-error @+1 {{table element type 'bf16' differs from input element type 'f32'}}
  %0 = posenc.learned_absolute %x, %t : tensor<16x768xf32>, tensor<1024x768xbf16>
  return
}

// -----

func.func @learned_width(%x: tensor<16x768xf32>, %t: tensor<1024x512xf32>) {
  // expected-error @+1 {{table width (512) does not match the embedding size (768)}}
  %0 = posenc.learned_absolute %x, %t : tensor<16x768xf32>, tensor<1024x512xf32>
  return
}

// -----

// Absolute embeddings have no row for a position past the table.
func.func @learned_too_long(%x: tensor<2x2048x768xf32>, %t: tensor<1024x768xf32>) {
  // expected-error @+1 {{positions [0, 2048) exceed the learned table of 1024 rows: absolute embeddings cannot extrapolate}}
  %0 = posenc.learned_absolute %x, %t : tensor<2x2048x768xf32>, tensor<1024x768xf32>
  return
}

// -----

func.func @learned_offset_too_far(%x: tensor<2x16x768xf32>, %t: tensor<1024x768xf32>) {
  %off = arith.constant 1010 : index
  // expected-error @+1 {{positions [1010, 1026) exceed the learned table of 1024 rows}}
  %0 = posenc.learned_absolute %x, %t offset(%off : index) : tensor<2x16x768xf32>, tensor<1024x768xf32>
  return
}

// -----

func.func @learned_negative_offset(%x: tensor<2x16x768xf32>, %t: tensor<1024x768xf32>) {
  %off = arith.constant -1 : i64
  // expected-error @+1 {{offset must be >= 0, got -1}}
  %0 = posenc.learned_absolute %x, %t offset(%off : i64) : tensor<2x16x768xf32>, tensor<1024x768xf32>
  return
}

// -----

func.func @learned_constant_position(%x: tensor<2x4x768xf32>, %t: tensor<1024x768xf32>) {
  %p = arith.constant dense<[0, 1, 1024, 3]> : tensor<4xi64>
  // expected-error @+1 {{position 1024 is outside the learned table [0, 1024): absolute embeddings cannot extrapolate}}
  %0 = posenc.learned_absolute %x, %t positions(%p : tensor<4xi64>) : tensor<2x4x768xf32>, tensor<1024x768xf32>
  return
}

// -----

func.func @learned_negative_position(%x: tensor<2x4x768xf32>, %t: tensor<1024x768xf32>) {
  %p = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
  %off = arith.constant -2 : index
  // expected-error @+1 {{position -2 is outside the learned table [0, 1024)}}
  %0 = posenc.learned_absolute %x, %t positions(%p : tensor<4xi64>) offset(%off : index) : tensor<2x4x768xf32>, tensor<1024x768xf32>
  return
}

// -----

func.func @learned_positions_shape(%x: tensor<2x4x768xf32>, %t: tensor<1024x768xf32>, %p: tensor<5xi64>) {
  // expected-error @+1 {{positions token extent (5) does not match the sequence length (4)}}
  %0 = posenc.learned_absolute %x, %t positions(%p : tensor<5xi64>) : tensor<2x4x768xf32>, tensor<1024x768xf32>
  return
}

//===----------------------------------------------------------------------===//
// posenc.attention
//===----------------------------------------------------------------------===//

// -----

func.func @attention_rank(%q: tensor<32x16x128xf32>, %k: tensor<1x8x16x128xf32>) {
  // expected-error @+1 {{query must have shape [B, H, S, D], got 'tensor<32x16x128xf32>'}}
  %0 = posenc.attention %q, %k, %k : tensor<32x16x128xf32>, tensor<1x8x16x128xf32>, tensor<1x8x16x128xf32> -> tensor<1x32x16x128xf32>
  return
}

// -----

func.func @attention_element_types(%q: tensor<1x8x16x128xf32>, %k: tensor<1x8x16x128xbf16>) {
  // expected-error @+1 {{query, key, value and result must share one element type}}
  %0 = posenc.attention %q, %k, %k : tensor<1x8x16x128xf32>, tensor<1x8x16x128xbf16>, tensor<1x8x16x128xbf16> -> tensor<1x8x16x128xf32>
  return
}

// -----

func.func @attention_batch(%q: tensor<2x8x16x128xf32>, %k: tensor<1x8x16x128xf32>) {
  // expected-error @+1 {{batch sizes differ}}
  %0 = posenc.attention %q, %k, %k : tensor<2x8x16x128xf32>, tensor<1x8x16x128xf32>, tensor<1x8x16x128xf32> -> tensor<2x8x16x128xf32>
  return
}

// -----

func.func @attention_dynamic_head_dim(%q: tensor<1x8x16x?xf32>, %k: tensor<1x8x16x?xf32>) {
  // expected-error @+1 {{head dims must be static}}
  %0 = posenc.attention %q, %k, %k : tensor<1x8x16x?xf32>, tensor<1x8x16x?xf32>, tensor<1x8x16x?xf32> -> tensor<1x8x16x?xf32>
  return
}

// -----

// A zero head dim has no meaning a model uses (every logit 0); the tiled
// lowerings divide by it (issue 22 item 3: SIGFPE before this check).
func.func @attention_zero_head_dim(%q: tensor<1x2x8x0xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{head dims must be > 0, got query/key head_dim 0 and value head_dim 16}}
  %0 = posenc.attention %q, %q, %v : tensor<1x2x8x0xf32>, tensor<1x2x8x0xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @attention_zero_value_head_dim(%q: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x0xf32>) {
  // expected-error @+1 {{head dims must be > 0, got query/key head_dim 16 and value head_dim 0}}
  %0 = posenc.attention %q, %q, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x0xf32> -> tensor<1x2x8x0xf32>
  return
}

// -----

func.func @attention_head_dim(%q: tensor<1x8x16x128xf32>, %k: tensor<1x8x16x64xf32>) {
  // expected-error @+1 {{query head_dim (128) differs from key head_dim (64)}}
  %0 = posenc.attention %q, %k, %k : tensor<1x8x16x128xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_kv(%q: tensor<1x8x16x64xf32>, %k: tensor<1x8x16x64xf32>, %v: tensor<1x8x32x64xf32>) {
  // expected-error @+1 {{key and value must have the same heads and sequence length}}
  %0 = posenc.attention %q, %k, %v : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x32x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_zero_heads(%q: tensor<1x0x16x64xf32>, %k: tensor<1x0x16x64xf32>) {
  // expected-error @+1 {{needs at least one query and one key/value head}}
  %0 = posenc.attention %q, %k, %k : tensor<1x0x16x64xf32>, tensor<1x0x16x64xf32>, tensor<1x0x16x64xf32> -> tensor<1x0x16x64xf32>
  return
}

// -----

// GQA maps query head h to kv head h / (Hq / Hkv).
func.func @attention_gqa(%q: tensor<1x12x16x64xf32>, %k: tensor<1x8x16x64xf32>) {
  // expected-error @+1 {{query heads (12) must be a multiple of key/value heads (8) for GQA}}
  %0 = posenc.attention %q, %k, %k : tensor<1x12x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x12x16x64xf32>
  return
}

// -----

func.func @attention_result(%q: tensor<1x8x16x64xf32>, %k: tensor<1x8x32x64xf32>, %v: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{result must be [B, Hq, Sq, Dv] = [1, 8, 16, 32], got 'tensor<1x8x16x64xf32>'}}
  %0 = posenc.attention %q, %k, %v : tensor<1x8x16x64xf32>, tensor<1x8x32x64xf32>, tensor<1x8x32x32xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_scale(%q: tensor<1x8x16x64xf32>) {
  // expected-error @+1 {{scale must be finite and > 0, got -1.250000e-01}}
  %0 = posenc.attention %q, %q, %q scale(-0.125) : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_rope_without_freqs(%q: tensor<1x8x16x64xf32>) {
  // expected-error @+1 {{rope configuration needs an inv_freq operand}}
  %0 = "posenc.attention"(%q, %q, %q) <{rope = #posenc.rope<layout = half_split, rotary_dim = 64>, alibi_form = #posenc<alibi_form symmetric>, alignment = #posenc<alignment bottom_right>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0>}> : (tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>) -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_freqs_without_rope(%q: tensor<1x8x16x64xf32>, %f: tensor<32xf32>) {
  // expected-error @+1 {{inv_freq and attention_factor need a rope configuration}}
  %0 = "posenc.attention"(%q, %q, %q, %f) <{alibi_form = #posenc<alibi_form symmetric>, alignment = #posenc<alignment bottom_right>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>}> : (tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<32xf32>) -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_rotary_dim(%q: tensor<1x8x16x64xf32>, %f: tensor<64xf32>) {
  // expected-error @+1 {{rotary_dim (128) exceeds head_dim (64)}}
  %0 = posenc.attention %q, %q, %q rope(<layout = half_split, rotary_dim = 128>, %f : tensor<64xf32>) : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_inv_freq_size(%q: tensor<1x8x16x64xf32>, %f: tensor<16xf32>) {
  // expected-error @+1 {{inv_freq must have rotary_dim/2 = 32 entries, got 16}}
  %0 = posenc.attention %q, %q, %q rope(<layout = half_split, rotary_dim = 64>, %f : tensor<16xf32>) : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_alibi_heads(%q: tensor<1x8x16x64xf32>) {
  // expected-error @+1 {{heads [0, 8) exceed num_heads = 4}}
  %0 = posenc.attention %q, %q, %q alibi(<num_heads = 4>) : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_alibi_slopes(%q: tensor<1x8x16x64xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{slopes must have one entry per head (8), got 'tensor<4xf32>'}}
  %0 = posenc.attention %q, %q, %q alibi(%s : tensor<4xf32>) : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_alibi_two_sources(%q: tensor<1x8x16x64xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{needs exactly one slope source}}
  %0 = "posenc.attention"(%q, %q, %q, %s) <{alibi = #posenc.alibi_slopes<num_heads = 8>, alibi_form = #posenc<alibi_form symmetric>, alignment = #posenc<alignment bottom_right>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0>}> : (tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<8xf32>) -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_q_positions(%q: tensor<1x8x16x64xf32>, %k: tensor<1x8x32x64xf32>, %p: tensor<32xi64>) {
  // expected-error @+1 {{q_positions token extent (32) does not match the sequence length (16)}}
  %0 = posenc.attention %q, %k, %k q_positions(%p : tensor<32xi64>) : tensor<1x8x16x64xf32>, tensor<1x8x32x64xf32>, tensor<1x8x32x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_k_positions(%q: tensor<2x8x16x64xf32>, %p: tensor<3x16xi64>) {
  // expected-error @+1 {{k_positions batch extent (3) does not match the batch (2)}}
  %0 = posenc.attention %q, %q, %q k_positions(%p : tensor<3x16xi64>) : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32> -> tensor<2x8x16x64xf32>
  return
}

// -----

// The lowering resolves the GQA group size Hq/Hkv when it is built: a
// dynamic head count used to verify and then fail to legalize.
func.func @attention_dynamic_query_heads(%q: tensor<1x?x16x64xf32>, %k: tensor<1x8x16x64xf32>) {
  // expected-error @+1 {{requires static head counts (the GQA group size Hq/Hkv is resolved at compile time), but the query has a dynamic head count: 'tensor<1x?x16x64xf32>'}}
  %0 = posenc.attention %q, %k, %k : tensor<1x?x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x?x16x64xf32>
  return
}

// -----

func.func @attention_dynamic_key_heads(%q: tensor<1x8x16x64xf32>, %k: tensor<1x?x16x64xf32>, %v: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{but the key has a dynamic head count: 'tensor<1x?x16x64xf32>'}}
  %0 = posenc.attention %q, %k, %v : tensor<1x8x16x64xf32>, tensor<1x?x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_dynamic_value_heads(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>, %v: tensor<1x?x16x64xf32>) {
  // expected-error @+1 {{but the value has a dynamic head count: 'tensor<1x?x16x64xf32>'}}
  %0 = posenc.attention %q, %k, %v : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x?x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_dynamic_result_heads(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{but the result has a dynamic head count: 'tensor<1x?x16x64xf32>'}}
  %0 = posenc.attention %q, %k, %k : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x?x16x64xf32>
  return
}

// -----

func.func @attention_sinks_heads(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{'posenc.attention' op sinks must have one entry per query head (8), got 'tensor<2xf32>'}}
  %0 = posenc.attention %q, %k, %k sinks(%s : tensor<2xf32>) : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_sinks_dynamic(%q: tensor<1x8x16x64xf32>, %s: tensor<?xf32>) {
  // expected-error @+1 {{sinks must have one entry per query head (8), got 'tensor<?xf32>'}}
  %0 = posenc.attention %q, %q, %q sinks(%s : tensor<?xf32>) : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_sinks_type(%q: tensor<1x8x16x64xbf16>, %s: tensor<8xbf16>) {
  // expected-error @+1 {{'posenc.attention' op operand #3 must be 1D tensor of 32-bit float values, but got 'tensor<8xbf16>'}}
  %0 = posenc.attention %q, %q, %q sinks(%s : tensor<8xbf16>) : tensor<1x8x16x64xbf16>, tensor<1x8x16x64xbf16>, tensor<1x8x16x64xbf16> -> tensor<1x8x16x64xbf16>
  return
}

// -----

func.func @attention_key_lengths_batch(%q: tensor<2x8x16x64xf32>, %l: tensor<3xi64>) {
  // expected-error @+1 {{'posenc.attention' op key_lengths must have one entry per sequence (2), got 'tensor<3xi64>'}}
  %0 = posenc.attention %q, %q, %q key_lengths(%l : tensor<3xi64>) : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32> -> tensor<2x8x16x64xf32>
  return
}

// -----

func.func @attention_key_lengths_type(%q: tensor<2x8x16x64xf32>, %l: tensor<2xi1>) {
  // expected-error @+1 {{'posenc.attention' op operand #3 must be 1D tensor of 32-bit signless integer or 64-bit signless integer or index values, but got 'tensor<2xi1>'}}
  %0 = posenc.attention %q, %q, %q key_lengths(%l : tensor<2xi1>) : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32> -> tensor<2x8x16x64xf32>
  return
}

// -----

func.func @attention_key_mask_batch(%q: tensor<2x8x16x64xf32>, %m: tensor<3x16xi64>) {
  // expected-error @+1 {{'posenc.attention' op key_mask must be [batch, keys] ([2, 16]), got 'tensor<3x16xi64>'}}
  %0 = posenc.attention %q, %q, %q key_mask(%m : tensor<3x16xi64>) : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32> -> tensor<2x8x16x64xf32>
  return
}

// -----

func.func @attention_key_mask_keys(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x?x64xf32>, %m: tensor<2x15xi1>) {
  // A dynamic key extent is checked at run time; a static one here.
  %0 = posenc.attention %q, %k, %k key_mask(%m : tensor<2x15xi1>) : tensor<2x8x16x64xf32>, tensor<2x8x?x64xf32>, tensor<2x8x?x64xf32> -> tensor<2x8x16x64xf32>
  // expected-error @+1 {{'posenc.attention' op key_mask must be [batch, keys] ([2, 16]), got 'tensor<2x15xi1>'}}
  %1 = posenc.attention %q, %q, %q key_mask(%m : tensor<2x15xi1>) : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32> -> tensor<2x8x16x64xf32>
  return
}

// -----

func.func @attention_key_mask_type(%q: tensor<2x8x16x64xf32>, %m: tensor<2x16xf32>) {
  // expected-error @+1 {{'posenc.attention' op operand #3 must be 2D tensor of 1-bit signless integer or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2x16xf32>'}}
  %0 = posenc.attention %q, %q, %q key_mask(%m : tensor<2x16xf32>) : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32> -> tensor<2x8x16x64xf32>
  return
}

// -----

func.func @attention_rope_only_positions_no_rope(%q: tensor<1x8x16x64xf32>, %p: tensor<16xi64>) {
  // expected-error @+1 {{'posenc.attention' op rope_only_positions needs rope and q_positions or k_positions}}
  %0 = posenc.attention %q, %q, %q causal q_positions(%p : tensor<16xi64>) rope_only_positions : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_rope_only_positions_none(%q: tensor<1x8x16x64xf32>, %inv: tensor<32xf32>) {
  // expected-error @+1 {{'posenc.attention' op rope_only_positions needs rope and q_positions or k_positions}}
  %0 = posenc.attention %q, %q, %q causal rope(<layout = half_split, rotary_dim = 64>, %inv : tensor<32xf32>) rope_only_positions : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_chunk_zero(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{'posenc.attention' op chunk_size must be > 0, got 0}}
  %0 = posenc.attention %q, %k, %k causal chunk_size(0) : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_chunk_negative(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{'posenc.attention' op chunk_size must be > 0, got -8192}}
  %0 = posenc.attention %q, %k, %k causal chunk_size(-8192) : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_softcap_zero(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{'posenc.attention' op softcap must be finite and > 0, got 0}}
  %0 = posenc.attention %q, %k, %k softcap(0.0) : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_softcap_negative(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{'posenc.attention' op softcap must be finite and > 0, got -5.000000e+01}}
  %0 = posenc.attention %q, %k, %k softcap(-50.0) : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_softcap_inf(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{'posenc.attention' op softcap must be finite and > 0, got INF}}
  %0 = posenc.attention %q, %k, %k softcap(0x7FF0000000000000) : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_softcap_nan(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{'posenc.attention' op softcap must be finite and > 0, got nan}}
  %0 = posenc.attention %q, %k, %k softcap(0x7FF8000000000000) : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @attention_window_negative(%q: tensor<1x8x16x64xf32>, %k: tensor<1x2x16x64xf32>) {
  // expected-error @+1 {{'left' must be >= 0, got -1}}
  %0 = posenc.attention %q, %k, %k causal window(<left = -1>) : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32> -> tensor<1x8x16x64xf32>
  return
}
