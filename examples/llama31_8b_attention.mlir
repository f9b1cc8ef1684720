// Llama-3.1-8B prefill attention, one layer, as run by examples/attention_demo.py
// (scripts/run-example.sh): head_dim 128, 32 query / 8 kv heads (GQA),
// rope_theta 500000 with llama3 scaling (factor 8, low_freq_factor 1,
// high_freq_factor 4, from an 8192 context), S = 2048 tokens at positions
// 0..2047, causal, f32. posenc.attention rotates q and k inside its
// flash-attention kernel (posenc-tile-attention); the frequencies fold to
// constants (posenc-fold-frequencies).
func.func @llama31_8b_attention(%q: tensor<1x32x2048x128xf32>,
                                %k: tensor<1x8x2048x128xf32>,
                                %v: tensor<1x8x2048x128xf32>)
    -> tensor<1x32x2048x128xf32> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0
      scaling(#posenc.llama3<factor = 8.0, low_freq_factor = 1.0,
                             high_freq_factor = 4.0,
                             original_max_position_embeddings = 8192>)
      : tensor<64xf32>, f32
  %o = posenc.attention %q, %k, %v causal
      rope(#posenc.rope<layout = half_split, rotary_dim = 128>,
           %inv : tensor<64xf32>, %af)
      : tensor<1x32x2048x128xf32>, tensor<1x8x2048x128xf32>,
        tensor<1x8x2048x128xf32> -> tensor<1x32x2048x128xf32>
  return %o : tensor<1x32x2048x128xf32>
}
