// Attention kernels for posenc-gpu-pipeline-attention.mlir and
// posenc-gpu-pipeline-ptxas.mlir.

// GQA 32/8, causal, RoPE, ALiBi, f32 (Sq x Sk = 256 x 512).
func.func @attention_f32(%q: tensor<1x32x256x128xf32>, %k: tensor<1x8x512x128xf32>,
                         %v: tensor<1x8x512x128xf32>) -> tensor<1x32x256x128xf32> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf64>, f32
  %o = posenc.attention %q, %k, %v causal
      rope(<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf64>)
      alibi(<num_heads = 32>)
      : tensor<1x32x256x128xf32>, tensor<1x8x512x128xf32>, tensor<1x8x512x128xf32> -> tensor<1x32x256x128xf32>
  return %o : tensor<1x32x256x128xf32>
}

// bf16 decode at explicit positions over a dynamic number of keys, sinks.
func.func @attention_bf16_decode(%q: tensor<2x32x1x128xbf16>, %k: tensor<2x8x?x128xbf16>,
                                 %v: tensor<2x8x?x128xbf16>, %p: tensor<2x1xi64>,
                                 %s: tensor<32xf32>) -> tensor<2x32x1x128xbf16> {
  %inv, %af = posenc.rope_frequencies dim 128 base 10000.0 : tensor<64xf32>, f32
  %o = posenc.attention %q, %k, %v causal
      rope(<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf32>)
      q_positions(%p : tensor<2x1xi64>) sinks(%s : tensor<32xf32>)
      : tensor<2x32x1x128xbf16>, tensor<2x8x?x128xbf16>, tensor<2x8x?x128xbf16> -> tensor<2x32x1x128xbf16>
  return %o : tensor<2x32x1x128xbf16>
}

// YaRN on half of the channels, interleaved, f16, G = 3.
func.func @attention_f16_yarn(%q: tensor<1x12x64x64xf16>, %k: tensor<1x4x64x64xf16>,
                              %v: tensor<1x4x64x64xf16>) -> tensor<1x12x64x64xf16> {
  %inv, %af = posenc.rope_frequencies dim 32 base 10000.0
      scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 64>) : tensor<16xf64>, f32
  %o = posenc.attention %q, %k, %v causal
      rope(<layout = interleaved, rotary_dim = 32>, %inv : tensor<16xf64>, %af)
      : tensor<1x12x64x64xf16>, tensor<1x4x64x64xf16>, tensor<1x4x64x64xf16> -> tensor<1x12x64x64xf16>
  return %o : tensor<1x12x64x64xf16>
}

// Issue 23: a Gemma 2 layer (bf16, tensor cores: 4096-key window, logits
// capped at 50) and a Llama 4 layer pair (f32: chunks of 8192; NoPE with the
// query temperature).
func.func @attention_bf16_local(%q: tensor<1x16x128x256xbf16>, %k: tensor<1x8x512x256xbf16>,
                                %v: tensor<1x8x512x256xbf16>) -> tensor<1x16x128x256xbf16> {
  %inv, %af = posenc.rope_frequencies dim 256 base 10000.0 : tensor<128xf32>, f32
  %o = posenc.attention %q, %k, %v causal window(<left = 4095>) softcap(50.0)
      rope(<layout = half_split, rotary_dim = 256>, %inv : tensor<128xf32>)
      : tensor<1x16x128x256xbf16>, tensor<1x8x512x256xbf16>, tensor<1x8x512x256xbf16> -> tensor<1x16x128x256xbf16>
  return %o : tensor<1x16x128x256xbf16>
}

func.func @attention_f32_chunked(%q: tensor<1x8x64x128xf32>, %k: tensor<1x2x64x128xf32>,
                                 %v: tensor<1x2x64x128xf32>) -> (tensor<1x8x64x128xf32>, tensor<1x8x64x128xf32>) {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf32>, f32
  %o = posenc.attention %q, %k, %v causal chunk_size(8192)
      rope(<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf32>)
      : tensor<1x8x64x128xf32>, tensor<1x2x64x128xf32>, tensor<1x2x64x128xf32> -> tensor<1x8x64x128xf32>
  %n = posenc.attention %q, %k, %v causal query_temperature(<floor_scale = 8192.0, attn_scale = 0.1>)
      : tensor<1x8x64x128xf32>, tensor<1x2x64x128xf32>, tensor<1x2x64x128xf32> -> tensor<1x8x64x128xf32>
  return %o, %n : tensor<1x8x64x128xf32>, tensor<1x8x64x128xf32>
}
