// REQUIRES: ptxas
// The PTX of every elementwise op and form, for sm_80 and sm_90, assembled
// by CUDA's ptxas (with -v: it also reports each kernel's registers).
// RUN: rm -rf %t && mkdir -p %t
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline{chip=sm_80})" -o %t/sm80.mlir
// RUN: %python %posenc_src_root/test/lib/extract_ptx.py %t/sm80.mlir %t/sm80 --ptxas=%ptxas | FileCheck %s -DCHIP=sm_80
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline{chip=sm_90 features=+ptx80})" -o %t/sm90.mlir
// RUN: %python %posenc_src_root/test/lib/extract_ptx.py %t/sm90.mlir %t/sm90 --ptxas=%ptxas | FileCheck %s -DCHIP=sm_90
// Without the polynomial sin/cos, libdevice's are linked in.
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-gpu-pipeline{chip=sm_90 features=+ptx78 approximate-trig=false})" -o %t/libdevice.mlir
// RUN: %python %posenc_src_root/test/lib/extract_ptx.py %t/libdevice.mlir %t/libdevice --ptxas=%ptxas | FileCheck %s -DCHIP=sm_90
// Attention kernels, in their own file (checked in order below).
// RUN: posenc-opt %S/Inputs/gpu-attention.mlir --pass-pipeline="builtin.module(posenc-gpu-pipeline{chip=sm_80})" -o %t/attn80.mlir
// RUN: %python %posenc_src_root/test/lib/extract_ptx.py %t/attn80.mlir %t/attn80 --ptxas=%ptxas | FileCheck %s --check-prefix=ATTN -DCHIP=sm_80
// RUN: posenc-opt %S/Inputs/gpu-attention.mlir --pass-pipeline="builtin.module(posenc-gpu-pipeline{chip=sm_90 features=+ptx80})" -o %t/attn90.mlir
// RUN: %python %posenc_src_root/test/lib/extract_ptx.py %t/attn90.mlir %t/attn90 --ptxas=%ptxas | FileCheck %s --check-prefix=ATTN -DCHIP=sm_90
// 16-bit attention on tensor cores (posenc-attention-to-gpu): Q K^T and
// P V as mma.sync m16n8k16 with f32 accumulators, fragments from ldmatrix
// (V's transposed); f32 attention has none.
// RUN: FileCheck %s --check-prefix=MMA -DT=bf16 < %t/attn80/attention_bf16_decode_kernel.ptx
// RUN: FileCheck %s --check-prefix=MMA -DT=bf16 < %t/attn90/attention_bf16_decode_kernel.ptx
// RUN: FileCheck %s --check-prefix=MMA -DT=f16 < %t/attn80/attention_f16_yarn_kernel.ptx
// RUN: FileCheck %s --check-prefix=MMA -DT=bf16 < %t/attn90/attention_bf16_local_kernel.ptx
// RUN: FileCheck %s --check-prefix=NOMMA < %t/attn80/attention_f32_kernel.ptx

// CHECK-NOT: FAILED
// CHECK: ptxas ok rope_kernel [[CHIP]] rope_kernel
// CHECK: ptxas ok rope_bf16_partial_kernel [[CHIP]] rope_bf16_partial_kernel
// CHECK: ptxas ok rope_bf16_partial_kernel_{{[0-9]+}} [[CHIP]] rope_bf16_partial_kernel
// CHECK: ptxas ok rope_tables_kernel [[CHIP]] rope_tables_kernel
// CHECK: ptxas ok rope_tables_kernel_{{[0-9]+}} [[CHIP]] rope_tables_kernel
// CHECK: ptxas ok rope_offset_kernel [[CHIP]] rope_offset_kernel
// CHECK: ptxas ok mrope_kernel [[CHIP]] mrope_kernel
// CHECK: ptxas ok dynamic_ntk_kernel [[CHIP]] dynamic_ntk_kernel
// CHECK: ptxas ok alibi_kernel [[CHIP]] alibi_kernel
// CHECK: ptxas ok alibi_positions_kernel [[CHIP]] alibi_positions_kernel
// CHECK: ptxas ok sinusoidal_kernel [[CHIP]] sinusoidal_kernel
// CHECK: ptxas ok learned_kernel [[CHIP]] learned_kernel
// CHECK: ptxas ok learned_kernel_{{[0-9]+}} [[CHIP]] learned_kernel
// CHECK-NOT: ptxas

func.func @rope(%x: tensor<1x32x64x128xf32>, %p: tensor<64xi64>) -> tensor<1x32x64x128xf32> {
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0
      scaling(#posenc.llama3<factor = 8.0, original_max_position_embeddings = 8192>) : tensor<64xf64>, f32
  %y = posenc.rotary %x half_split dim 128 inv_freq(%inv : tensor<64xf64>) positions(%p : tensor<64xi64>)
      attention_factor(%af) : tensor<1x32x64x128xf32>
  return %y : tensor<1x32x64x128xf32>
}

// Partial (interleaved 32 of 80 channels), bf16, positions per sequence:
// the rotation and the pass-through copy.
func.func @rope_bf16_partial(%x: tensor<2x3x9x80xbf16>, %p: tensor<2x9xi64>) -> tensor<2x3x9x80xbf16> {
  %inv, %af = posenc.rope_frequencies dim 32 base 10000.0 : tensor<16xf32>, f32
  %y = posenc.rotary %x interleaved dim 32 inv_freq(%inv : tensor<16xf32>) positions(%p : tensor<2x9xi64>) : tensor<2x3x9x80xbf16>
  return %y : tensor<2x3x9x80xbf16>
}

// cos/sin tables: the position check and the rotation.
func.func @rope_tables(%x: tensor<1x2x4x8xf16>, %cos: tensor<16x4xf32>, %sin: tensor<16x4xf32>,
                       %p: tensor<4xi64>) -> tensor<1x2x4x8xf16> {
  %y = posenc.rotary %x half_split dim 8 cos_sin(%cos, %sin : tensor<16x4xf32>, tensor<16x4xf32>)
      positions(%p : tensor<4xi64>) : tensor<1x2x4x8xf16>
  return %y : tensor<1x2x4x8xf16>
}

// vLLM's [T, H, D] with a KV-cache offset read from a tensor.
func.func @rope_offset(%x: tensor<24x4x64xf32>, %o: tensor<1xi64>) -> tensor<24x4x64xf32> {
  %c0 = arith.constant 0 : index
  %off = tensor.extract %o[%c0] : tensor<1xi64>
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>) offset(%off : i64)
      {token_dim = 0 : i64} : tensor<24x4x64xf32>
  return %y : tensor<24x4x64xf32>
}

func.func @mrope(%x: tensor<1x2x10x128xf32>, %p: tensor<3x10xi64>) -> tensor<1x2x10x128xf32> {
  %inv, %af = posenc.rope_frequencies dim 128 base 1.0e6 : tensor<64xf64>, f32
  %y = posenc.rotary %x half_split dim 128 inv_freq(%inv : tensor<64xf64>) positions(%p : tensor<3x10xi64>)
      {mrope_sections = array<i64: 16, 24, 24>, mrope_layout = #posenc<mrope_layout interleaved>} : tensor<1x2x10x128xf32>
  return %y : tensor<1x2x10x128xf32>
}

// HF dynamic NTK: the frequencies depend on a runtime length, read from its
// tensor inside the kernel.
func.func @dynamic_ntk(%x: tensor<1x2x8x64xf32>, %n: tensor<1xi64>) -> tensor<1x2x8x64xf32> {
  %c0 = arith.constant 0 : index
  %len = tensor.extract %n[%c0] : tensor<1xi64>
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0
      scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 4096>) seq_len(%len : i64)
      : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>) attention_factor(%af) : tensor<1x2x8x64xf32>
  return %y : tensor<1x2x8x64xf32>
}

func.func @alibi() -> tensor<12x64x100xf32> {
  %b = posenc.alibi symmetric slopes(<num_heads = 24, head_offset = 12>) : tensor<12x64x100xf32>
  return %b : tensor<12x64x100xf32>
}

func.func @alibi_positions(%q: tensor<2x3xi64>, %k: tensor<2x7xi64>) -> tensor<2x12x3x7xf32> {
  %b = posenc.alibi key_linear slopes(<num_heads = 12>) q_positions(%q : tensor<2x3xi64>)
      k_positions(%k : tensor<2x7xi64>) : tensor<2x12x3x7xf32>
  return %b : tensor<2x12x3x7xf32>
}

func.func @sinusoidal(%o: tensor<1xi64>) -> tensor<50x513xf32> {
  %c0 = arith.constant 0 : index
  %off = tensor.extract %o[%c0] : tensor<1xi64>
  %t = posenc.sinusoidal concatenated offset(%off : i64) : tensor<50x513xf32>
  return %t : tensor<50x513xf32>
}

func.func @learned(%x: tensor<2x6x16xbf16>, %t: tensor<40x16xbf16>, %p: tensor<2x6xi64>) -> tensor<2x6x16xbf16> {
  %y = posenc.learned_absolute %x, %t positions(%p : tensor<2x6xi64>) : tensor<2x6x16xbf16>, tensor<40x16xbf16>
  return %y : tensor<2x6x16xbf16>
}

// Flash attention (posenc-attention-to-gpu): f32 with RoPE, ALiBi and GQA;
// bf16 decode with sinks and dynamic keys; YaRN partial interleaved f16.
// The tiles ldmatrix reads are 16-byte aligned (posenc-align-workgroup-memory).
// MMA-COUNT-6: .shared .align 16 .b8
// MMA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// MMA: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.[[T]].[[T]].f32
// MMA: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.[[T]].[[T]].f32
// NOMMA-NOT: mma.sync
// NOMMA-NOT: ldmatrix
// ATTN-NOT: FAILED
// ATTN: ptxas ok attention_f32_kernel [[CHIP]] attention_f32_kernel
// ATTN: ptxas ok attention_bf16_decode_kernel [[CHIP]] attention_bf16_decode_kernel
// ATTN: ptxas ok attention_f16_yarn_kernel [[CHIP]] attention_f16_yarn_kernel
// Issue 23's window, soft-cap, chunks and query temperature.
// ATTN: ptxas ok attention_bf16_local_kernel [[CHIP]] attention_bf16_local_kernel
// ATTN: ptxas ok attention_f32_chunked_kernel [[CHIP]] attention_f32_chunked_kernel
// ATTN: ptxas ok attention_f32_chunked_kernel_{{[0-9]+}} [[CHIP]] attention_f32_chunked_kernel
