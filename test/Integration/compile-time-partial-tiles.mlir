// Attention whose sequence lengths are not multiples of the 64-row tiles
// (Sq = Sk = 100, D = 128): the tile ops have dynamic extents, so their
// register tiles are masked. Contractions got 8-row tiles there too, whose
// masked broadcasting reads stayed 8 x 16 x 128-lane vectors: LLVM's JIT took
// 150-210 s (found by test/Differential). Masked contraction tiles now keep
// one row; the whole run takes a few seconds, and `timeout` fails the test
// when compilation regresses to minutes. Numerics of such shapes: the
// differential harness.
// RUN: timeout 120 posenc-run %s --iterations=1 --warmup=0 --threads=2 | FileCheck %s
// CHECK: RESULT entry=p median_ms=
func.func @p(%q: tensor<1x32x100x128xf32>, %k: tensor<1x8x100x128xf32>,
             %v: tensor<1x8x100x128xf32>) -> tensor<1x32x100x128xf32> {
  %o = posenc.attention %q, %k, %v causal
      : tensor<1x32x100x128xf32>, tensor<1x8x100x128xf32>, tensor<1x8x100x128xf32>
      -> tensor<1x32x100x128xf32>
  return %o : tensor<1x32x100x128xf32>
}
