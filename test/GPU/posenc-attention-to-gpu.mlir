// RUN: posenc-opt %s --split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(posenc-attention-to-gpu))" | FileCheck %s
// RUN: posenc-opt %s --split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(posenc-attention-to-gpu{tensor-cores=false}))" | FileCheck %s --check-prefix=SCALAR

// One launch per attention: grid (query tiles, kv heads, batch); a block
// holds the G = 2 query heads of a kv head x Tq = 5 rows (R = 10), 12 lanes
// per row (120 threads), 3 value channels per lane. Workgroup tiles (as
// allocas until bufferization is done): Q [R, D], K [Tk, D + 1], V [Tk, Dv],
// logits [R, Tk + 1]; no Sq x Sk buffer. The key loop carries (max, sum,
// 3 accumulators) and has three barriers; RoPE on Q and K tiles as staged.
// CHECK-LABEL: func.func @gqa
// CHECK-DAG: %[[Q:.+]] = bufferization.to_buffer %arg0 read_only : tensor<1x4x5x32xf32> to memref<1x4x5x32xf32>
// CHECK-DAG: %[[OUT:.+]] = memref.alloc() : memref<1x4x5x32xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %{{.+}}, {{.*}} = %c2{{.*}}, {{.*}} = %{{.+}}) threads({{.*}}) in ({{.*}} = %c120, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK-NOT: workgroup(
// CHECK: memref.alloca() : memref<10x32xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<64x33xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<64x32xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<10x65xf32, #gpu.address_space<workgroup>>
// CHECK: math.cos
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32)
// CHECK: gpu.barrier
// CHECK: math.cos
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: math.exp
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NOT: posenc.attention
// CHECK-NOT: tensor<1x4x5x9xf32>
func.func @gqa(%q: tensor<1x4x5x32xf32>, %k: tensor<1x2x9x32xf32>,
               %v: tensor<1x2x9x32xf32>) -> tensor<1x4x5x32xf32> {
  %inv, %af = posenc.rope_frequencies dim 32 base 1.0e4 : tensor<16xf64>, f32
  %o = posenc.attention %q, %k, %v causal
      rope(<layout = half_split, rotary_dim = 32>, %inv : tensor<16xf64>)
      : tensor<1x4x5x32xf32>, tensor<1x2x9x32xf32>, tensor<1x2x9x32xf32> -> tensor<1x4x5x32xf32>
  return %o : tensor<1x4x5x32xf32>
}

// -----

// A result materialized into a writable buffer (posenc-run's entry) is
// written there; dynamic lengths come from the buffers; sinks and ALiBi
// slopes are read per query head. bf16 on tensor cores: G = 4 heads x 16
// rows (R = 64, whole mma tiles), 2 lanes per row (128 threads, 4 warps),
// Tk = 32 (48 KiB); tiles Q [64, 64 + 8], K and V [32, 64 + 8] (rows of
// 16-byte multiples plus 16 bytes), logits [64, 33] f32, P [64, 32 + 8]
// bf16 and P V [64, 64] f32. Q K^T: ldmatrix x4 of Q and x2 of K rows, then
// mma.sync, 4 k-steps (D = 64); P V: ldmatrix x4 of P, transposed x2 of V
// rows, 2 k-steps (Tk = 32).
// CHECK-LABEL: func.func @into_destination
// CHECK-SAME: %[[DEST:[a-z0-9]+]]: memref<2x8x?x64xbf16>
// CHECK-NOT: memref.alloc(
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128,
// CHECK: %[[QT:.+]] = memref.alloca() : memref<64x72xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[KT:.+]] = memref.alloca() : memref<32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[VT:.+]] = memref.alloca() : memref<32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<64x33xf32, #gpu.address_space<workgroup>>
// CHECK: %[[PT:.+]] = memref.alloca() : memref<64x40xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: nvgpu.mma.sync(%{{.+}}, %{{.+}}, %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[PT]][{{.+}}] {numTiles = 4 : i32, transpose = false} : memref<64x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvgpu.ldmatrix %[[VT]][{{.+}}] {numTiles = 2 : i32, transpose = true} : memref<32x72xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
// CHECK: nvgpu.mma.sync
// CHECK: nvgpu.ldmatrix %[[PT]]
// CHECK: nvgpu.ldmatrix %[[VT]]
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK: memref.store {{.*}}, %[[DEST]]
// CHECK-NOT: bufferization.materialize_in_destination
// Without tensor cores, bf16 tiles stay bf16 for scalar f32 arithmetic (K
// rows padded by one 32-bit word).
// SCALAR-LABEL: func.func @into_destination
// SCALAR: memref.alloca() : memref<{{[0-9]+}}x64xbf16, #gpu.address_space<workgroup>>
// SCALAR: memref.alloca() : memref<{{[0-9]+}}x66xbf16, #gpu.address_space<workgroup>>
// SCALAR-NOT: nvgpu.
// SCALAR: gpu.terminator
func.func @into_destination(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                            %v: tensor<2x2x?x64xbf16>, %s: tensor<8xf32>,
                            %dest: memref<2x8x?x64xbf16>) {
  %o = posenc.attention %q, %k, %v alibi(<num_heads = 8>) sinks(%s : tensor<8xf32>)
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16> -> tensor<2x8x?x64xbf16>
  bufferization.materialize_in_destination %o in restrict writable %dest
      : (tensor<2x8x?x64xbf16>, memref<2x8x?x64xbf16>) -> ()
  return
}

// -----

// Decode: one query row per head, G = 4 rows x 32 lanes, 4 channels per lane.
// CHECK-LABEL: func.func @decode
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32)
func.func @decode(%q: tensor<1x32x1x128xbf16>, %k: tensor<1x8x?x128xbf16>,
                  %v: tensor<1x8x?x128xbf16>) -> tensor<1x32x1x128xbf16> {
  %o = posenc.attention %q, %k, %v causal
      : tensor<1x32x1x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16> -> tensor<1x32x1x128xbf16>
  return %o : tensor<1x32x1x128xbf16>
}

// -----

// Dynamic lengths inside a static entry: the result, cast back to the static
// type and materialized, is written straight into the destination (through
// a memref.cast), with no temporary for the host to copy.
// CHECK-LABEL: func.func @cast_into_destination
// CHECK-SAME: %[[DEST:[a-z0-9]+]]: memref<1x4x6x32xbf16>
// CHECK: %[[OUT:.+]] = memref.cast %[[DEST]] : memref<1x4x6x32xbf16> to memref<1x4x?x32xbf16>
// CHECK-NOT: memref.alloc(
// CHECK: gpu.launch
// CHECK: memref.store {{.*}}, %[[OUT]]
// CHECK-NOT: bufferization.materialize_in_destination
// CHECK-NOT: tensor.cast %{{.+}} : tensor<1x4x?x32xbf16> to tensor<1x4x6x32xbf16>
func.func @cast_into_destination(%q: tensor<1x4x6x32xbf16>, %k: tensor<1x2x6x32xbf16>,
                                 %v: tensor<1x2x6x32xbf16>, %dest: memref<1x4x6x32xbf16>) {
  %qd = tensor.cast %q : tensor<1x4x6x32xbf16> to tensor<1x4x?x32xbf16>
  %kd = tensor.cast %k : tensor<1x2x6x32xbf16> to tensor<1x2x?x32xbf16>
  %vd = tensor.cast %v : tensor<1x2x6x32xbf16> to tensor<1x2x?x32xbf16>
  %o = posenc.attention %qd, %kd, %vd causal
      : tensor<1x4x?x32xbf16>, tensor<1x2x?x32xbf16>, tensor<1x2x?x32xbf16> -> tensor<1x4x?x32xbf16>
  %os = tensor.cast %o : tensor<1x4x?x32xbf16> to tensor<1x4x6x32xbf16>
  bufferization.materialize_in_destination %os in restrict writable %dest
      : (tensor<1x4x6x32xbf16>, memref<1x4x6x32xbf16>) -> ()
  return
}

// -----

// key_lengths (issue 24): the block reads its sequence's length (block id z
// is the batch), clamps it to [0, Sk] and ends its key loop there; K and V
// rows at or past it are staged as zeros and their logits are -inf.
// CHECK-LABEL: func.func @key_lengths
// CHECK-SAME: %[[LEN:[^:]+]]: tensor<2xi32>)
// CHECK: %[[BUF:.+]] = bufferization.to_buffer %[[LEN]] read_only : tensor<2xi32> to memref<2xi32>
// CHECK: gpu.launch blocks(%{{[^,]+}}, %{{[^,]+}}, %[[B:[^)]+]])
// CHECK: %[[L:.+]] = memref.load %[[BUF]][%[[B]]] : memref<2xi32>
// CHECK: %[[LI:.+]] = arith.index_cast %[[L]] : i32 to index
// CHECK: %[[HI:.+]] = arith.minsi %[[LI]], %{{.+}} : index
// CHECK: %[[END:.+]] = arith.maxsi %[[HI]], %{{.+}} : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[END]] step %{{.+}} iter_args
// CHECK: arith.cmpi slt, %{{.+}}, %[[END]] : index
// CHECK: arith.cmpi slt, %{{.+}}, %[[END]] : index
// CHECK: arith.cmpi sge, %{{.+}}, %[[END]] : index
func.func @key_lengths(%q: tensor<2x8x64x32xf32>, %k: tensor<2x2x96x32xf32>, %v: tensor<2x2x96x32xf32>, %len: tensor<2xi32>) -> tensor<2x8x64x32xf32> {
  %o = posenc.attention %q, %k, %v key_lengths(%len : tensor<2xi32>) : tensor<2x8x64x32xf32>, tensor<2x2x96x32xf32>, tensor<2x2x96x32xf32> -> tensor<2x8x64x32xf32>
  return %o : tensor<2x8x64x32xf32>
}
