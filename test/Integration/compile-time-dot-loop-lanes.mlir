// A decode block on the dot-product key loop at 4 lanes (D = 60, which 8
// does not divide): 15 rows of 60 + 60 channels, under the 8-lane limit in
// channels, took 134 s in bufferization (harness run P, 9191:2769; D11 of
// docs/testing.md); the limit now counts vectors and such blocks take the
// tile ops. In a file of its own: as a fuzz seed together with
// compile-time-unrolled-stores.mlir's modules it ran past libFuzzer's
// slow-unit limit under ASan.
// RUN: timeout 60 posenc-run %s --entry=decode15 --iterations=1 --warmup=0 --pipeline='posenc-cpu-pipeline{attention-vector-width=16 attention-query-tile=3}' | FileCheck %s
// CHECK: RESULT entry=decode15 median_ms=

// 20/4 heads, Sq = 3 (15 rows per kv head), D = Dv = 60, interleaved RoPE.
func.func @decode15(%q: tensor<2x20x3x60xf32>, %k: tensor<2x4x7x60xf32>,
                    %v: tensor<2x4x7x60xf32>) -> tensor<2x20x3x60xf32> {
  %inv, %af = posenc.rope_frequencies dim 60 base 2.5e3 : tensor<30xf32>, f32
  %o = posenc.attention %q, %k, %v rope(<layout = interleaved, rotary_dim = 60>, %inv : tensor<30xf32>, %af) query_temperature(<floor_scale = 8.0, attn_scale = 0.162>) : tensor<2x20x3x60xf32>, tensor<2x4x7x60xf32>, tensor<2x4x7x60xf32> -> tensor<2x20x3x60xf32>
  return %o : tensor<2x20x3x60xf32>
}
