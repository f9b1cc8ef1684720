// Stock mlir-opt parses and prints posenc IR once the plugin registered the
// dialect; printing and reparsing gives the same IR.
// RUN: %mlir_opt_plugin %s | %mlir_opt_plugin | FileCheck %s

// CHECK-LABEL: func.func @llama3_rope
// CHECK: posenc.rope_frequencies dim 128 base 5.000000e+05 scaling(#posenc.llama3<factor = 8.000000e+00
// CHECK: posenc.rotary %{{.+}} half_split dim 128 inv_freq(%{{.+}} : tensor<64xf32>) positions(%{{.+}} : tensor<1x?xi64>) attention_factor(%{{.+}}) : tensor<1x32x?x128xbf16>
func.func @llama3_rope(%q: tensor<1x32x?x128xbf16>, %pos: tensor<1x?xi64>)
    -> tensor<1x32x?x128xbf16> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0
      scaling(#posenc.llama3<factor = 8.0, original_max_position_embeddings = 8192>)
      : tensor<64xf32>, f32
  %qr = posenc.rotary %q half_split dim 128 inv_freq(%inv : tensor<64xf32>)
      positions(%pos : tensor<1x?xi64>) attention_factor(%af)
      : tensor<1x32x?x128xbf16>
  return %qr : tensor<1x32x?x128xbf16>
}

// CHECK-LABEL: func.func @bloom_shard_bias
// CHECK: posenc.alibi key_linear slopes(<num_heads = 112, head_offset = 56>) : tensor<56x128x128xf32>
func.func @bloom_shard_bias() -> tensor<56x128x128xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 112, head_offset = 56>)
      : tensor<56x128x128xf32>
  return %b : tensor<56x128x128xf32>
}

// CHECK-LABEL: func.func @attention
// CHECK: posenc.attention %{{.+}}, %{{.+}}, %{{.+}} causal
func.func @attention(%q: tensor<1x4x?x16xf32>, %k: tensor<1x2x?x16xf32>,
                     %v: tensor<1x2x?x16xf32>) -> tensor<1x4x?x16xf32> {
  %o = posenc.attention %q, %k, %v causal
      : tensor<1x4x?x16xf32>, tensor<1x2x?x16xf32>, tensor<1x2x?x16xf32>
      -> tensor<1x4x?x16xf32>
  return %o : tensor<1x4x?x16xf32>
}
