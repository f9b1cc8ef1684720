// RUN: posenc-opt %s --posenc-cpu-pipeline="attention-bf16-dot-products=true" | FileCheck %s
// RUN: posenc-opt %s --posenc-cpu-pipeline | FileCheck %s --check-prefix=OFF

// attention-bf16-dot-products: the bf16 decode block's scores are AVX-512
// BF16 dot products down to LLVM (x86vector.avx512.dot lowered by
// convert-vector-to-llvm's x86vector patterns to the vdpbf16ps intrinsic;
// 256-bit: the dot-product form takes at most 8 f32 lanes): D = 64 is four
// per query row and key (16 channels each), 4 query rows (G = 4). The
// pipeline's default (off) widens K to f32 FMAs; posenc-run turns the option
// on where the host has avx512bf16 (--print-pipeline).
// CHECK-LABEL: llvm.func @decode_bf16
// CHECK-COUNT-16: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.256"({{.+}}) : (vector<8xf32>, vector<16xbf16>, vector<16xbf16>) -> vector<8xf32>
// CHECK-NOT: dpbf16ps
// OFF-LABEL: llvm.func @decode_bf16
// OFF-NOT: dpbf16ps
// OFF: llvm.intr.fma
// OFF-NOT: dpbf16ps
func.func @decode_bf16(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x2x640x64xbf16>, %v: tensor<1x2x640x64xbf16>) -> tensor<1x8x1x64xbf16> {
  %o = posenc.attention %q, %k, %v causal : tensor<1x8x1x64xbf16>, tensor<1x2x640x64xbf16>, tensor<1x2x640x64xbf16> -> tensor<1x8x1x64xbf16>
  return %o : tensor<1x8x1x64xbf16>
}
