// MPT-7B-style ALiBi prefill attention, one layer, as run by
// examples/attention_demo.py (scripts/run-example.sh): 32 heads of 128
// (n_heads 32, d_model 4096), S = 2048 (max_seq_len), causal, f32. ALiBi
// slopes 2^(-8 (h+1) / 32) (alibi_bias_max 8, MPT's gen_slopes) in MPT's
// causal form, bias = m * k_pos (key_linear; under the causal mask it gives
// the same softmax as -m |q_pos - k_pos|). The bias and the mask are formed
// inside the flash-attention kernel: no [H, S, S] tensor.
func.func @mpt7b_alibi_attention(%q: tensor<1x32x2048x128xf32>,
                                 %k: tensor<1x32x2048x128xf32>,
                                 %v: tensor<1x32x2048x128xf32>)
    -> tensor<1x32x2048x128xf32> {
  %o = posenc.attention %q, %k, %v causal
      alibi(#posenc.alibi_slopes<num_heads = 32>)
      {alibi_form = #posenc<alibi_form key_linear>}
      : tensor<1x32x2048x128xf32>, tensor<1x32x2048x128xf32>,
        tensor<1x32x2048x128xf32> -> tensor<1x32x2048x128xf32>
  return %o : tensor<1x32x2048x128xf32>
}
