// One attention block of Llama-3.1-8B (head_dim 128, 32 query / 8 kv heads,
// rope_theta 500000, llama3 scaling x8 from 8192) written with posenc ops:
// frequencies from the HF config, RoPE on q and k at explicit positions,
// then causal GQA attention. (`posenc-translate --import-hf-config` builds
// this form from a config.json; raising decomposed importer IR into it is
// planned, not implemented.)
func.func @llama3_block(%q: tensor<1x32x?x128xbf16>, %k: tensor<1x8x?x128xbf16>,
                        %v: tensor<1x8x?x128xbf16>, %pos: tensor<1x?xi64>)
    -> tensor<1x32x?x128xbf16> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0
      scaling(#posenc.llama3<factor = 8.0, low_freq_factor = 1.0,
                             high_freq_factor = 4.0,
                             original_max_position_embeddings = 8192>)
      : tensor<64xf32>, f32
  %qr = posenc.rotary %q half_split dim 128 inv_freq(%inv : tensor<64xf32>)
      positions(%pos : tensor<1x?xi64>) attention_factor(%af)
      : tensor<1x32x?x128xbf16>
  %kr = posenc.rotary %k half_split dim 128 inv_freq(%inv : tensor<64xf32>)
      positions(%pos : tensor<1x?xi64>) attention_factor(%af)
      : tensor<1x8x?x128xbf16>
  %o = posenc.attention %qr, %kr, %v causal
      : tensor<1x32x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>
      -> tensor<1x32x?x128xbf16>
  return %o : tensor<1x32x?x128xbf16>
}

// BLOOM-style ALiBi: 112 global heads, this tensor-parallel shard holds 56.
func.func @bloom_shard_bias() -> tensor<56x128x128xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 112, head_offset = 56>)
      : tensor<56x128x128xf32>
  return %b : tensor<56x128x128xf32>
}
