// posenc.attention through posenc-gpu-pipeline: one flash kernel per
// attention (posenc-attention-to-gpu), its tiles in workgroup memory
// (addrspace 3 globals of the sizes chosen), three barriers per key tile,
// no Sq x Sk buffer anywhere (the f32 case is 256 x 512 per head).
// RUN: posenc-opt %S/Inputs/gpu-attention.mlir --pass-pipeline="builtin.module(posenc-gpu-pipeline)" \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o %t.mlir 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir
// RUN: posenc-opt %S/Inputs/gpu-attention.mlir --pass-pipeline="builtin.module(posenc-gpu-pipeline{stop-before-outlining=true})" \
// RUN:   | FileCheck %s --check-prefix=LAUNCH

// NVVM-NOT: 256x512
// NVVM-NOT: 131072
// NVVM-LABEL: gpu.module @attention_f32_kernel
// G = 4 heads x 8 rows, 4 lanes per row (128 threads), key tile 16.
// NVVM: llvm.mlir.global internal @__wg_attention_f32_kernel_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4096 x f32>
// NVVM: llvm.mlir.global internal @__wg_attention_f32_kernel_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2064 x f32>
// NVVM: llvm.mlir.global internal @__wg_attention_f32_kernel_2() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2048 x f32>
// NVVM: llvm.mlir.global internal @__wg_attention_f32_kernel_3() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<544 x f32>
// NVVM: llvm.func @attention_f32_kernel
// NVVM-SAME: gpu.kernel
// NVVM-COUNT-3: nvvm.barrier0
// NVVM-NOT: nvvm.barrier0
// NVVM-NOT: llvm.func @attention_f32_kernel
// NVVM-LABEL: gpu.module @attention_bf16_decode_kernel
// Decode on tensor cores: G = 4 rows (padded to one 16-row mma tile) x 32
// lanes; bf16 tiles of 64 keys: Q [16, 128 + 8], K and V [64, 128 + 8],
// logits [4, 65] f32, P [16, 64 + 8] bf16, P V [4, 128] f32; five barriers
// per key tile; Q K^T and P V as nvvm.mma.sync on ldmatrix fragments.
// NVVM: @__wg_attention_bf16_decode_kernel_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2176 x bf16>
// NVVM: @__wg_attention_bf16_decode_kernel_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8704 x bf16>
// NVVM: @__wg_attention_bf16_decode_kernel_2() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8704 x bf16>
// NVVM: @__wg_attention_bf16_decode_kernel_3() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<260 x f32>
// NVVM: @__wg_attention_bf16_decode_kernel_4() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1152 x bf16>
// NVVM: @__wg_attention_bf16_decode_kernel_5() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<512 x f32>
// NVVM: llvm.func @attention_bf16_decode_kernel
// NVVM: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32
// NVVM: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
// NVVM: nvvm.ldmatrix {{.*}} layout = #nvvm.mma_layout<col>, num = 2 : i32
// NVVM: nvvm.mma.sync
// NVVM-LABEL: gpu.module @attention_f16_yarn_kernel
// NVVM-NOT: 64x64xf32

// One launch per function, nothing else on the host but the result buffer.
// HOST-LABEL: llvm.func @attention_f32(
// HOST-COUNT-1: gpu.launch_func @attention_f32_kernel::@attention_f32_kernel blocks in
// HOST-NOT: gpu.launch_func
// HOST-LABEL: llvm.func @attention_bf16_decode(
// HOST-COUNT-1: gpu.launch_func @attention_bf16_decode_kernel::@attention_bf16_decode_kernel
// HOST-NOT: gpu.launch_func
// HOST-LABEL: llvm.func @attention_f16_yarn(
// HOST-COUNT-1: gpu.launch_func @attention_f16_yarn_kernel::@attention_f16_yarn_kernel
// HOST-NOT: gpu.launch_func
// HOST-LABEL: llvm.func @attention_bf16_local(
// HOST-COUNT-1: gpu.launch_func @attention_bf16_local_kernel::@attention_bf16_local_kernel
// HOST-NOT: gpu.launch_func
// HOST-LABEL: llvm.func @attention_f32_chunked(
// HOST-COUNT-2: gpu.launch_func @attention_f32_chunked_kernel
// HOST-NOT: gpu.launch_func

// Grid (query tiles, kv heads, batch); before outlining, the tiles are
// allocas of workgroup memory (attributions from posenc-map-forall-to-gpu).
// LAUNCH-LABEL: func.func @attention_f32
// LAUNCH: gpu.launch blocks({{.*}}) in ({{.*}} = %c32{{.*}}, {{.*}} = %c8{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128
// LAUNCH: memref.alloca() : memref<32x128xf32, #gpu.address_space<workgroup>>
// LAUNCH: memref.alloca() : memref<16x129xf32, #gpu.address_space<workgroup>>
// LAUNCH: memref.alloca() : memref<16x128xf32, #gpu.address_space<workgroup>>
// LAUNCH: memref.alloca() : memref<32x17xf32, #gpu.address_space<workgroup>>
// LAUNCH-NOT: gpu.launch
// LAUNCH-LABEL: func.func @attention_bf16_decode
