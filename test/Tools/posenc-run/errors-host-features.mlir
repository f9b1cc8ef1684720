// UNSUPPORTED: avx512bf16
// Code built for AVX-512 BF16 (attention-bf16-dot-products=true) on a CPU
// without it: an error naming the option, not a failure in LLVM's
// instruction selection. (On CPUs with avx512bf16 this test does not apply:
// exec-attention-bf16-dot.test runs such code there.)
// RUN: not posenc-run %s --iterations=1 --pipeline="posenc-cpu-pipeline{attention-bf16-dot-products=true}" 2>&1 | FileCheck %s
// CHECK: posenc-run: error: the lowered code calls llvm.x86.avx512bf16.dpbf16ps.512 (attention-bf16-dot-products=true), but this CPU has no avx512bf16
func.func @decode_bf16(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x2x640x64xbf16>, %v: tensor<1x2x640x64xbf16>) -> tensor<1x8x1x64xbf16> {
  %o = posenc.attention %q, %k, %v causal : tensor<1x8x1x64xbf16>, tensor<1x2x640x64xbf16>, tensor<1x2x640x64xbf16> -> tensor<1x8x1x64xbf16>
  return %o : tensor<1x8x1x64xbf16>
}
