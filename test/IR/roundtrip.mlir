// RUN: posenc-opt %s | posenc-opt | FileCheck %s
// RUN: posenc-opt %s --mlir-print-op-generic | posenc-opt | FileCheck %s

// Every op, attribute and option of the posenc dialect survives printing and
// re-parsing, in the custom and the generic form.

// CHECK-LABEL: func.func @frequencies
func.func @frequencies(%n: index, %m: i64) {
  // CHECK: posenc.rope_frequencies dim 128 base 1.000000e+04 : tensor<64xf32>, f32
  %0:2 = posenc.rope_frequencies dim 128 base 10000.0 : tensor<64xf32>, f32
  // CHECK: posenc.rope_frequencies dim 64 base 1.000000e+04 scaling(#posenc.linear<factor = 4.000000e+00>) : tensor<32xf64>, f32
  %1:2 = posenc.rope_frequencies dim 64 base 10000.0 scaling(#posenc.linear<factor = 4.0>) : tensor<32xf64>, f32
  // A table finite in f64 only is fine as f64 (invalid.mlir: not as f32).
  // CHECK: scaling(#posenc.linear<factor = 9.9999999999999992E-41>) : tensor<64xf64>, f32
  %lin64:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.linear<factor = 1.0e-40>) : tensor<64xf64>, f32
  // CHECK: scaling(#posenc.ntk<factor = 4.000000e+00>)
  %2:2 = posenc.rope_frequencies dim 64 base 10000.0 scaling(#posenc.ntk<factor = 4.0, form = hf>) : tensor<32xf32>, f32
  // CHECK: scaling(#posenc.ntk<factor = 4.000000e+00, form = vllm>)
  %3:2 = posenc.rope_frequencies dim 64 base 10000.0 scaling(#posenc.ntk<factor = 4.0, form = vllm>) : tensor<32xf32>, f32
  // CHECK: scaling(#posenc.dynamic_ntk<factor = 2.000000e+00, max_position_embeddings = 4096>) seq_len(%{{.*}} : index)
  %4:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 4096>) seq_len(%n : index) : tensor<64xf32>, f32
  // CHECK: scaling(#posenc.dynamic_ntk<factor = 2.000000e+00, max_position_embeddings = 4096, rule = vllm_legacy>) :
  %5:2 = posenc.rope_frequencies dim 128 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 4096, rule = vllm_legacy>) : tensor<64xf32>, f32
  // CHECK: scaling(#posenc.yarn<factor = 4.000000e+00, original_max_position_embeddings = 32768>)
  %6:2 = posenc.rope_frequencies dim 128 base 1000000.0 scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 32768, beta_fast = 32.0, beta_slow = 1.0, truncate = true>) : tensor<64xf32>, f32
  // CHECK: scaling(#posenc.yarn<factor = 4.000000e+01, original_max_position_embeddings = 4096, beta_fast = 1.600000e+01, beta_slow = 2.000000e+00, truncate = false, mscale = 1.000000e+00, mscale_all_dim = 7.070000e-01, attention_factor = 1.250000e+00>)
  %7:2 = posenc.rope_frequencies dim 64 base 10000.0 scaling(#posenc.yarn<factor = 40.0, original_max_position_embeddings = 4096, beta_fast = 16.0, beta_slow = 2.0, truncate = false, mscale = 1.0, mscale_all_dim = 0.707, attention_factor = 1.25>) : tensor<32xf32>, f32
  // CHECK: scaling(#posenc.yarn<factor = 4.000000e+00, original_max_position_embeddings = 32768, factor_rule = context_ratio, max_position_embeddings = 32768>)
  %70:2 = posenc.rope_frequencies dim 64 base 10000.0 scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 32768, factor_rule = context_ratio, max_position_embeddings = 32768>) : tensor<32xf32>, f32
  // CHECK: scaling(#posenc.llama3<factor = 8.000000e+00, original_max_position_embeddings = 8192>)
  %8:2 = posenc.rope_frequencies dim 128 base 500000.0 scaling(#posenc.llama3<factor = 8.0, low_freq_factor = 1.0, high_freq_factor = 4.0, original_max_position_embeddings = 8192>) : tensor<64xf32>, f32
  // CHECK: scaling(#posenc.llama3<factor = 3.200000e+01, low_freq_factor = 2.000000e+00, high_freq_factor = 2.000000e+00, original_max_position_embeddings = 8192>)
  %9:2 = posenc.rope_frequencies dim 64 base 500000.0 scaling(#posenc.llama3<factor = 32.0, low_freq_factor = 2.0, high_freq_factor = 2.0, original_max_position_embeddings = 8192>) : tensor<32xf32>, f32
  // CHECK: scaling(#posenc.longrope<short_factor = [1.000000e+00, 1.500000e+00], long_factor = [2.000000e+00, 4.000000e+00], original_max_position_embeddings = 4096, max_position_embeddings = 131072>) seq_len(%{{.*}} : i64)
  %10:2 = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0, 1.5], long_factor = [2.0, 4.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072>) seq_len(%m : i64) : tensor<2xf32>, f32
  // CHECK: scaling(#posenc.longrope<short_factor = [1.000000e+00, 1.500000e+00], long_factor = [2.000000e+00, 4.000000e+00], original_max_position_embeddings = 4096, max_position_embeddings = 131072, attention_factor = 1.190000e+00, select = long>) :
  %11:2 = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0, 1.5], long_factor = [2.0, 4.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072, attention_factor = 1.19, select = long>) : tensor<2xf32>, f32
  // CHECK: select = short>
  %12:2 = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0, 1.5], long_factor = [2.0, 4.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072, select = short>) : tensor<2xf32>, f32
  return
}

// CHECK-LABEL: func.func @rotary
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x32x?x128xbf16>
func.func @rotary(%x: tensor<2x32x?x128xbf16>, %pos: tensor<?xi64>,
                  %bpos: tensor<2x?xi32>, %off: index, %inv: tensor<64xf32>,
                  %inv64: tensor<32xf64>, %af: f32, %cos: tensor<4096x64xf32>,
                  %sin: tensor<4096x64xf32>, %v: tensor<?x8x64xf16>,
                  %mpos: tensor<3x?xi64>, %vpos: tensor<?xindex>) {
  // CHECK: posenc.rotary %[[X]] half_split dim 128 inv_freq(%{{.*}} : tensor<64xf32>) : tensor<2x32x?x128xbf16>
  %0 = posenc.rotary %x half_split dim 128 inv_freq(%inv : tensor<64xf32>) : tensor<2x32x?x128xbf16>
  // CHECK: posenc.rotary %[[X]] interleaved dim 64 inv_freq(%{{.*}} : tensor<32xf64>) positions(%{{.*}} : tensor<?xi64>) offset(%{{.*}} : index) attention_factor(%{{.*}}) : tensor<2x32x?x128xbf16>
  %1 = posenc.rotary %x interleaved dim 64 inv_freq(%inv64 : tensor<32xf64>) positions(%pos : tensor<?xi64>) offset(%off : index) attention_factor(%af) : tensor<2x32x?x128xbf16>
  // CHECK: posenc.rotary %[[X]] half_split dim 128 cos_sin(%{{.*}}, %{{.*}} : tensor<4096x64xf32>, tensor<4096x64xf32>) positions(%{{.*}} : tensor<2x?xi32>) : tensor<2x32x?x128xbf16>
  %2 = posenc.rotary %x half_split dim 128 cos_sin(%cos, %sin : tensor<4096x64xf32>, tensor<4096x64xf32>) positions(%bpos : tensor<2x?xi32>) : tensor<2x32x?x128xbf16>
  // vLLM layout [T, H, D]: tokens on axis 0.
  // CHECK: posenc.rotary %{{.*}} half_split dim 32 inv_freq(%{{.*}} : tensor<16xf32>) positions(%{{.*}} : tensor<?xindex>) {token_dim = 0 : i64} : tensor<?x8x64xf16>
  %inv16 = tensor.empty() : tensor<16xf32>
  %3 = posenc.rotary %v half_split dim 32 inv_freq(%inv16 : tensor<16xf32>) positions(%vpos : tensor<?xindex>) {token_dim = 0 : i64} : tensor<?x8x64xf16>
  // CHECK: posenc.rotary %[[X]] half_split dim 128 inv_freq(%{{.*}} : tensor<64xf32>) positions(%{{.*}} : tensor<3x?xi64>) {mrope_layout = #posenc<mrope_layout interleaved>, mrope_sections = array<i64: 16, 24, 24>} : tensor<2x32x?x128xbf16>
  %4 = posenc.rotary %x half_split dim 128 inv_freq(%inv : tensor<64xf32>) positions(%mpos : tensor<3x?xi64>) {mrope_sections = array<i64: 16, 24, 24>, mrope_layout = #posenc<mrope_layout interleaved>} : tensor<2x32x?x128xbf16>
  // CHECK: posenc.rotary %[[X]] half_split dim 128 inv_freq(%{{.*}} : tensor<64xf32>) positions(%{{.*}} : tensor<3x?xi64>) {mrope_sections = array<i64: 16, 24, 24>} : tensor<2x32x?x128xbf16>
  %5 = posenc.rotary %x half_split dim 128 inv_freq(%inv : tensor<64xf32>) positions(%mpos : tensor<3x?xi64>) {mrope_sections = array<i64: 16, 24, 24>} : tensor<2x32x?x128xbf16>
  return
}

// CHECK-LABEL: func.func @alibi
func.func @alibi(%slopes: tensor<12xf32>, %qp: tensor<4x16xi64>, %kp: tensor<64xi64>) {
  // CHECK: posenc.alibi symmetric slopes(<num_heads = 12>) : tensor<12x16x64xf32>
  %0 = posenc.alibi symmetric slopes(<num_heads = 12>) : tensor<12x16x64xf32>
  // CHECK: posenc.alibi key_linear slopes(<num_heads = 112, head_offset = 56, max_bias = 1.600000e+01>) {alignment = #posenc<alignment top_left>} : tensor<56x16x64xbf16>
  %1 = posenc.alibi key_linear slopes(#posenc.alibi_slopes<num_heads = 112, head_offset = 56, max_bias = 16.0>) {alignment = #posenc<alignment top_left>} : tensor<56x16x64xbf16>
  // CHECK: posenc.alibi symmetric slopes(%{{.*}} : tensor<12xf32>) q_positions(%{{.*}} : tensor<4x16xi64>) k_positions(%{{.*}} : tensor<64xi64>) : tensor<4x12x16x64xf16>
  %2 = posenc.alibi symmetric slopes(%slopes : tensor<12xf32>) q_positions(%qp : tensor<4x16xi64>) k_positions(%kp : tensor<64xi64>) : tensor<4x12x16x64xf16>
  return
}

// CHECK-LABEL: func.func @sinusoidal
func.func @sinusoidal(%pos: tensor<2x?xi64>, %off: i32) {
  // CHECK: posenc.sinusoidal interleaved : tensor<1024x512xf32>
  %0 = posenc.sinusoidal interleaved : tensor<1024x512xf32>
  // CHECK: posenc.sinusoidal concatenated offset(%{{.*}} : i32) {base = 5.000000e+03 : f64} : tensor<12x7xbf16>
  %1 = posenc.sinusoidal concatenated offset(%off : i32) {base = 5000.0 : f64} : tensor<12x7xbf16>
  // CHECK: posenc.sinusoidal interleaved positions(%{{.*}} : tensor<2x?xi64>) : tensor<2x?x64xf16>
  %2 = posenc.sinusoidal interleaved positions(%pos : tensor<2x?xi64>) : tensor<2x?x64xf16>
  return
}

// CHECK-LABEL: func.func @learned_absolute
func.func @learned_absolute(%x: tensor<2x128x768xf32>, %wpe: tensor<1024x768xf32>,
                            %y: tensor<?x768xbf16>, %wpe16: tensor<?x768xbf16>,
                            %pos: tensor<2x128xi64>, %off: index) {
  // CHECK: posenc.learned_absolute %{{.*}}, %{{.*}} : tensor<2x128x768xf32>, tensor<1024x768xf32>
  %0 = posenc.learned_absolute %x, %wpe : tensor<2x128x768xf32>, tensor<1024x768xf32>
  // CHECK: posenc.learned_absolute %{{.*}}, %{{.*}} positions(%{{.*}} : tensor<2x128xi64>) offset(%{{.*}} : index) : tensor<2x128x768xf32>, tensor<1024x768xf32>
  %1 = posenc.learned_absolute %x, %wpe positions(%pos : tensor<2x128xi64>) offset(%off : index) : tensor<2x128x768xf32>, tensor<1024x768xf32>
  // CHECK: posenc.learned_absolute %{{.*}}, %{{.*}} offset(%{{.*}} : index) : tensor<?x768xbf16>, tensor<?x768xbf16>
  %2 = posenc.learned_absolute %y, %wpe16 offset(%off : index) : tensor<?x768xbf16>, tensor<?x768xbf16>
  return
}

// CHECK-LABEL: func.func @attention
func.func @attention(%q: tensor<1x32x?x128xf32>, %k: tensor<1x8x?x128xf32>,
                     %v: tensor<1x8x?x128xf32>, %inv: tensor<64xf32>, %af: f32,
                     %slopes: tensor<32xf32>, %qp: tensor<?xi64>,
                     %kp: tensor<1x?xi64>, %qd: tensor<2x128x1x192xbf16>,
                     %kd: tensor<2x128x?x192xbf16>, %vd: tensor<2x128x?x128xbf16>,
                     %invd: tensor<32xf64>, %sinks: tensor<32xf32>) {
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  %0 = posenc.attention %q, %k, %v : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} causal rope(<layout = half_split, rotary_dim = 128>, %{{.*}} : tensor<64xf32>, %{{.*}}) q_positions(%{{.*}} : tensor<?xi64>) k_positions(%{{.*}} : tensor<1x?xi64>) :
  %1 = posenc.attention %q, %k, %v causal rope(<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf32>, %af) q_positions(%qp : tensor<?xi64>) k_positions(%kp : tensor<1x?xi64>) : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} causal alibi(<num_heads = 32>) {alibi_form = #posenc<alibi_form key_linear>} :
  %2 = posenc.attention %q, %k, %v causal alibi(<num_heads = 32>) {alibi_form = #posenc<alibi_form key_linear>} : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} scale(1.250000e-01) alibi(%{{.*}} : tensor<32xf32>) {alignment = #posenc<alignment top_left>} :
  %3 = posenc.attention %q, %k, %v scale(0.125) alibi(%slopes : tensor<32xf32>) {alignment = #posenc<alignment top_left>} : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // DeepSeek MLA shape: qk head dim 192, v head dim 128, partial interleaved RoPE.
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} scale(1.352340e-01) causal rope(<layout = interleaved, rotary_dim = 64>, %{{.*}} : tensor<32xf64>) : tensor<2x128x1x192xbf16>, tensor<2x128x?x192xbf16>, tensor<2x128x?x128xbf16> -> tensor<2x128x1x128xbf16>
  %4 = posenc.attention %qd, %kd, %vd scale(0.135234) causal rope(<layout = interleaved, rotary_dim = 64>, %invd : tensor<32xf64>) : tensor<2x128x1x192xbf16>, tensor<2x128x?x192xbf16>, tensor<2x128x?x128xbf16> -> tensor<2x128x1x128xbf16>
  // gpt-oss: attention sinks, one logit per query head.
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} causal rope(<layout = half_split, rotary_dim = 128>, %{{.*}} : tensor<64xf32>) sinks(%{{.*}} : tensor<32xf32>) : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  %5 = posenc.attention %q, %k, %v sinks(%sinks : tensor<32xf32>) causal rope(<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf32>) : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // Gemma 2's local layers: a 4096-key causal window, logits capped at 50.
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} causal window(<left = 4095>) softcap(5.000000e+01) :
  %6 = posenc.attention %q, %k, %v softcap(50.0) window(<left = 4095>) causal : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // A bidirectional local window, the attribute written in full.
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} window(<left = 64, right = 64>) :
  %7 = posenc.attention %q, %k, %v window(#posenc.window<left = 64, right = 64>) : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // Llama 4: a chunked RoPE layer and a NoPE layer with temperature tuning.
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} causal chunk_size(8192) rope(<layout = half_split, rotary_dim = 128>, %{{.*}} : tensor<64xf32>) :
  %8 = posenc.attention %q, %k, %v causal chunk_size(8192) rope(<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf32>) : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} causal query_temperature(<floor_scale = 8.192000e+03, attn_scale = 1.000000e-01>) :
  %9 = posenc.attention %q, %k, %v causal query_temperature(<floor_scale = 8192.0, attn_scale = 0.1>) : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // A right-padded batch: each sequence's number of valid keys.
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} causal key_lengths(%{{.*}} : tensor<1xi32>) :
  %lens = arith.constant dense<[5]> : tensor<1xi32>
  %10 = posenc.attention %q, %k, %v key_lengths(%lens : tensor<1xi32>) causal : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  // HF's attention_mask as a key mask, and positions that drive RoPE alone.
  // CHECK: posenc.attention %{{.*}}, %{{.*}}, %{{.*}} causal rope(<layout = half_split, rotary_dim = 128>, %{{.*}} : tensor<64xf32>) q_positions(%{{.*}} : tensor<1x?xi64>) k_positions(%{{.*}} : tensor<1x?xi64>) rope_only_positions key_mask(%{{.*}} : tensor<1x?xi64>) :
  %c2 = arith.constant 2 : index
  %n = tensor.dim %k, %c2 : tensor<1x8x?x128xf32>
  %mask = tensor.empty(%n) : tensor<1x?xi64>
  %pos = tensor.empty(%n) : tensor<1x?xi64>
  %11 = posenc.attention %q, %k, %v key_mask(%mask : tensor<1x?xi64>) rope_only_positions causal rope(<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf32>) q_positions(%pos : tensor<1x?xi64>) k_positions(%pos : tensor<1x?xi64>) : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32> -> tensor<1x32x?x128xf32>
  return
}
