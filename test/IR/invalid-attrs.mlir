// RUN: posenc-opt %s --split-input-file --verify-diagnostics

// A scaling factor is a ratio of context lengths: it must be positive.
// expected-error @+1 {{'factor' must be finite and > 0, got 0.000000e+00}}
func.func @linear_zero_factor() attributes {s = #posenc.linear<factor = 0.0>} { return }

// -----

// expected-error @+1 {{'factor' must be finite and > 0, got -2.000000e+00}}
func.func @ntk_negative_factor() attributes {s = #posenc.ntk<factor = -2.0, form = vllm>} { return }

// -----

// The NTK forms are parsed by name; an unknown one is a parse error.
// expected-error @+2 {{expected one of [hf, vllm] for static NTK-aware formula, got: llama}}
// expected-error @+1 {{failed to parse PosEnc_NtkAttr parameter 'form'}}
func.func @ntk_bad_form() attributes {s = #posenc.ntk<factor = 2.0, form = llama>} { return }

// -----

// expected-error @+1 {{'max_position_embeddings' must be > 0, got 0}}
func.func @dynamic_ntk_zero_max() attributes {s = #posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 0>} { return }

// -----

// expected-error @+1 {{'factor' must be finite and > 0, got 0.000000e+00}}
func.func @dynamic_ntk_zero_factor() attributes {s = #posenc.dynamic_ntk<factor = 0.0, max_position_embeddings = 4096>} { return }

// -----

// Swapped betas invert which pairs are interpolated.
// expected-error @+1 {{'beta_fast' (1.000000e+00) must be >= 'beta_slow' (3.200000e+01)}}
func.func @yarn_swapped_betas() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, beta_fast = 1.0, beta_slow = 32.0>} { return }

// -----

// expected-error @+1 {{'original_max_position_embeddings' must be > 0, got -1}}
func.func @yarn_bad_original() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = -1>} { return }

// -----

// corr_dim takes log(L / (beta * 2 pi)): beta must be positive.
// expected-error @+1 {{'beta_slow' must be finite and > 0, got 0.000000e+00}}
func.func @yarn_zero_beta_slow() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, beta_slow = 0.0>} { return }

// -----

// expected-error @+1 {{'beta_fast' must be finite and > 0, got -3.000000e+00}}
func.func @yarn_negative_beta_fast() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, beta_fast = -3.0>} { return }

// -----

// expected-error @+1 {{'attention_factor' must be finite and > 0, got 0.000000e+00}}
func.func @yarn_zero_attention_factor() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, attention_factor = 0.0>} { return }

// -----

// expected-error @+1 {{'mscale' must be finite}}
func.func @yarn_infinite_mscale() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, mscale = 0x7FF0000000000000>} { return }

// -----

// expected-error @+1 {{'mscale_all_dim' must be finite}}
func.func @yarn_nan_mscale_all_dim() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, mscale_all_dim = 0x7FF8000000000000>} { return }

// -----

// Finite parameters can still make the f32 attention factor non-finite:
// 0.1 * mscale_all_dim * ln(16) + 1 = 0 divides by zero.
// expected-error @+1 {{'mscale_all_dim' (-3.606738e+00) makes the YaRN attention factor non-finite: inf}}
func.func @yarn_zero_mscale_denominator() attributes {s = #posenc.yarn<factor = 16.0, original_max_position_embeddings = 4096, mscale = 1.0, mscale_all_dim = -3.6067376022224085>} { return }

// -----

// expected-error @+1 {{'mscale' (1.000000e+308) makes the YaRN attention factor non-finite: 1.217511e+307, beyond the range of f32}}
func.func @yarn_huge_mscale() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, mscale = 1.0e308, mscale_all_dim = 1.0>} { return }

// -----

// expected-error @+1 {{'attention_factor' (1.000000e+39) makes the YaRN attention factor non-finite: 1.000000e+39, beyond the range of f32}}
func.func @yarn_huge_attention_factor() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, attention_factor = 1.0e39>} { return }

// -----

// ln(original / (2 pi beta_fast)) is inf: the YaRN ramp becomes nan.
// expected-error @+1 {{'beta_fast' (9.999889e-321) makes the YaRN correction dimension non-finite}}
func.func @yarn_tiny_beta_fast() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, beta_fast = 1.0e-320, beta_slow = 1.0e-321>} { return }

// -----

// expected-error @+1 {{'beta_slow' (9.881313e-324) makes the YaRN correction dimension non-finite}}
func.func @yarn_tiny_beta_slow() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, beta_slow = 1.0e-323>} { return }

// -----

// expected-error @+2 {{expected 'true' or 'false'}}
// expected-error @+1 {{failed to parse PosEnc_YarnAttr parameter 'truncate'}}
func.func @yarn_bad_bool() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, truncate = 1>} { return }

// -----

// expected-error @+1 {{'low_freq_factor' (4.000000e+00) must be <= 'high_freq_factor' (1.000000e+00)}}
func.func @llama3_swapped_bands() attributes {s = #posenc.llama3<factor = 8.0, low_freq_factor = 4.0, high_freq_factor = 1.0, original_max_position_embeddings = 8192>} { return }

// -----

// expected-error @+1 {{'high_freq_factor' must be finite and > 0, got 0.000000e+00}}
func.func @llama3_zero_high() attributes {s = #posenc.llama3<factor = 8.0, high_freq_factor = 0.0, original_max_position_embeddings = 8192>} { return }

// -----

// expected-error @+1 {{'low_freq_factor' must be finite and > 0, got -1.000000e+00}}
func.func @llama3_negative_low() attributes {s = #posenc.llama3<factor = 8.0, low_freq_factor = -1.0, original_max_position_embeddings = 8192>} { return }

// -----

// expected-error @+1 {{'original_max_position_embeddings' must be > 0, got 0}}
func.func @llama3_zero_original() attributes {s = #posenc.llama3<factor = 8.0, original_max_position_embeddings = 0>} { return }

// -----

// LongRoPE factors divide the frequencies.
// expected-error @+1 {{'long_factor'[1] must be finite and > 0, got 0.000000e+00}}
func.func @longrope_zero_entry() attributes {s = #posenc.longrope<short_factor = [1.0, 1.0], long_factor = [1.0, 0.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072>} { return }

// -----

// expected-error @+1 {{'short_factor' must not be empty}}
func.func @longrope_empty() attributes {s = #posenc.longrope<short_factor = [], long_factor = [1.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072>} { return }

// -----

// expected-error @+1 {{'short_factor' and 'long_factor' must have the same length, got 2 and 3}}
func.func @longrope_lengths_differ() attributes {s = #posenc.longrope<short_factor = [1.0, 1.0], long_factor = [1.0, 2.0, 3.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072>} { return }

// -----

// expected-error @+1 {{'max_position_embeddings' must be > 0, got 0}}
func.func @longrope_zero_max() attributes {s = #posenc.longrope<short_factor = [1.0], long_factor = [1.0], original_max_position_embeddings = 4096, max_position_embeddings = 0>} { return }

// -----

// expected-error @+1 {{'attention_factor' must be finite and > 0, got -1.000000e+00}}
func.func @longrope_negative_attention_factor() attributes {s = #posenc.longrope<short_factor = [1.0], long_factor = [1.0], original_max_position_embeddings = 4096, max_position_embeddings = 8192, attention_factor = -1.0>} { return }


// -----

// expected-error @+1 {{'attention_factor' (1.000000e+39) makes the LongRoPE attention factor non-finite: 1.000000e+39, beyond the range of f32}}
func.func @longrope_huge_attention_factor() attributes {s = #posenc.longrope<short_factor = [1.0], long_factor = [1.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072, attention_factor = 1.0e39>} { return }

// -----

// The default attention factor divides by ln(original_max_position_embeddings).
// expected-error @+1 {{'original_max_position_embeddings' (1) makes the LongRoPE attention factor non-finite: inf}}
func.func @longrope_original_one() attributes {s = #posenc.longrope<short_factor = [1.0], long_factor = [1.0], original_max_position_embeddings = 1, max_position_embeddings = 131072>} { return }

// -----

// expected-error @+1 {{'num_heads' must be > 0, got 0}}
func.func @alibi_zero_heads() attributes {s = #posenc.alibi_slopes<num_heads = 0>} { return }

// -----

// A shard's first head must be one of the global heads.
// expected-error @+1 {{'head_offset' must be in [0, num_heads = 8), got 8}}
func.func @alibi_offset_past_end() attributes {s = #posenc.alibi_slopes<num_heads = 8, head_offset = 8>} { return }

// -----

// expected-error @+1 {{'head_offset' must be in [0, num_heads = 8), got -1}}
func.func @alibi_negative_offset() attributes {s = #posenc.alibi_slopes<num_heads = 8, head_offset = -1>} { return }

// -----

// expected-error @+1 {{'max_bias' must be finite and > 0, got 0.000000e+00}}
func.func @alibi_zero_bias() attributes {s = #posenc.alibi_slopes<num_heads = 8, max_bias = 0.0>} { return }

// -----

// expected-error @+1 {{'rotary_dim' must be positive and even, got 63}}
func.func @rope_odd_dim() attributes {s = #posenc.rope<layout = half_split, rotary_dim = 63>} { return }

// -----

// expected-error @+1 {{'rotary_dim' must be positive and even, got 0}}
func.func @rope_zero_dim() attributes {s = #posenc.rope<layout = interleaved, rotary_dim = 0>} { return }

// -----

// HF v4.5x's rule needs the context it divides.
// expected-error @+1 {{factor_rule = context_ratio needs 'max_position_embeddings'}}
func.func @yarn_context_ratio_without_max() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, factor_rule = context_ratio>} { return }

// -----

// expected-error @+1 {{'max_position_embeddings' must be > 0, got 0}}
func.func @yarn_zero_max() attributes {s = #posenc.yarn<factor = 4.0, original_max_position_embeddings = 4096, factor_rule = context_ratio, max_position_embeddings = 0>} { return }

// -----

// A window's extents are inclusive key counts around the query: >= 0.
// expected-error @+1 {{'left' must be >= 0, got -1}}
func.func @window_negative_left() attributes {w = #posenc.window<left = -1>} { return }

// -----

// expected-error @+1 {{'right' must be >= 0, got -3}}
func.func @window_negative_right() attributes {w = #posenc.window<left = 4, right = -3>} { return }

// -----

// expected-error @+1 {{'floor_scale' must be finite and > 0, got 0}}
func.func @temperature_zero_floor() attributes {t = #posenc.query_temperature<floor_scale = 0.0, attn_scale = 0.1>} { return }

// -----

// expected-error @+1 {{'floor_scale' must be finite and > 0, got INF}}
func.func @temperature_inf_floor() attributes {t = #posenc.query_temperature<floor_scale = 0x7FF0000000000000, attn_scale = 0.1>} { return }

// -----

// expected-error @+1 {{'attn_scale' must be finite}}
func.func @temperature_nan_scale() attributes {t = #posenc.query_temperature<floor_scale = 8192.0, attn_scale = 0x7FF8000000000000>} { return }
