// bench/rope: RoPE on q and k of one Llama-3-8B-sized attention layer
// (f32, [batch 1, 32 heads, 4096 tokens, head_dim 128], half-split, all 128
// channels rotated, positions 0..4095, rope_theta 500000).
func.func @rope(%q: tensor<1x32x4096x128xf32>, %k: tensor<1x32x4096x128xf32>)
    -> (tensor<1x32x4096x128xf32>, tensor<1x32x4096x128xf32>) {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf32>, f32
  %qr = posenc.rotary %q half_split dim 128 inv_freq(%inv : tensor<64xf32>)
      : tensor<1x32x4096x128xf32>
  %kr = posenc.rotary %k half_split dim 128 inv_freq(%inv : tensor<64xf32>)
      : tensor<1x32x4096x128xf32>
  return %qr, %kr : tensor<1x32x4096x128xf32>, tensor<1x32x4096x128xf32>
}
