// RUN: posenc-opt %s --split-input-file --posenc-tile-attention="query-tile=64 key-tile=64" | FileCheck %s
// RUN: posenc-opt %s --split-input-file --posenc-tile-attention="query-tile=64 key-tile=64" | FileCheck %s --check-prefix=NOFULL
// RUN: posenc-opt %s --split-input-file --posenc-tile-attention="query-tile=64 key-tile=64 prerotate-keys=true" | FileCheck %s --check-prefix=PREROT
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(posenc-tile-attention{query-tile=0})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(func.func(posenc-tile-attention{key-tile=-3}))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(posenc-tile-attention{decode-chunk=0})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(posenc-tile-attention{decode-rows=-1})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(posenc-tile-attention{vector-width=-16})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: posenc-opt %s --split-input-file --posenc-tile-attention="query-tile=64 key-tile=64 vector-width=16" | FileCheck %s --check-prefix=DOT
// RUN: posenc-opt %s --split-input-file --posenc-tile-attention="query-tile=64 key-tile=64 vector-width=2" | FileCheck %s --check-prefix=NARROW
// RUN: posenc-opt %s --split-input-file --posenc-tile-attention="query-tile=64 key-tile=64 vector-width=16 bf16-dot-products=true" | FileCheck %s --check-prefix=BFDOT
// RUN: posenc-opt %s --split-input-file --posenc-tile-attention="query-tile=64 key-tile=64 vector-width=16" | FileCheck %s --check-prefix=NOBFDOT

// posenc-tile-attention: posenc.attention -> one flash-attention loop nest on
// tensors. Only the structure of the IR is checked here; the numerics are
// checked by execution (test/Differential draws the tile sizes).

// Bad options: one error, and the pass fails.
// BADOPT: error: posenc-tile-attention: query-tile, key-tile and decode-chunk must be positive, decode-rows and vector-width non-negative

// DOT (vector-width=16): few-row blocks (G * Sq <= decode-rows) run the
// dot-product key loop, in vector ops of at most 8 lanes; other blocks keep
// the tile ops, K pack included. NARROW (vector-width=2): fewer than 4 lanes
// is no dot form.

// BFDOT (bf16-dot-products): bf16 decode scores are AVX-512 BF16 dot
// products of the rotated bf16 Q rows and the K rows, 2 x 8 channels per
// x86vector.avx512.dot (8 lanes); f32 blocks, and bf16 head dims that 16
// does not divide, keep f32 FMAs. Without the option (NOBFDOT) there are
// none.
// NOBFDOT-NOT: x86vector
// BFDOT-LABEL: func.func @decode_split_keys
// BFDOT-NOT: x86vector
// BFDOT-LABEL: func.func @decode_sinks_alibi_positions
// BFDOT: %[[QN:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<4x1x64xbf16> into tensor<4x64xbf16>
// BFDOT: %[[K0:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}, %[[KROW:[a-z0-9_]+]], %[[C0:[a-z0-9_]+]]], %{{.+}} {in_bounds = [true]} : tensor<1x1x?x64xbf16>, vector<16xbf16>
// BFDOT: %[[Q0:.+]] = vector.transfer_read %[[QN]][%{{.+}}, %[[C0]]], %{{.+}} {in_bounds = [true]} : tensor<4x64xbf16>, vector<16xbf16>
// BFDOT: %[[D0:.+]] = x86vector.avx512.dot %{{.+}}, %[[Q0]], %[[K0]] : vector<16xbf16> -> vector<8xf32>
// BFDOT: %[[K1:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}, %[[KROW]], %[[C16:[a-z0-9_]+]]], %{{.+}} {in_bounds = [true]} : tensor<1x1x?x64xbf16>, vector<16xbf16>
// BFDOT: %[[Q1:.+]] = vector.transfer_read %[[QN]][%{{.+}}, %[[C16]]], %{{.+}} {in_bounds = [true]} : tensor<4x64xbf16>, vector<16xbf16>
// BFDOT: x86vector.avx512.dot %[[D0]], %[[Q1]], %[[K1]] : vector<16xbf16> -> vector<8xf32>
// BFDOT: vector.shuffle
// BFDOT-LABEL: func.func @decode_bf16_d40
// BFDOT-NOT: x86vector
// BFDOT: vector.fma
// BFDOT-NOT: x86vector

// NOFULL (every function, from its label to the next): no tensor with both
// sequence extents (the scores are [G, query tile, key tile]) and no
// posenc.rotary of a whole Q or K (only of tiles).
// NOFULL-LABEL: func.func @causal_gqa_rope
// NOFULL-NOT: x256x256x
// NOFULL-NOT: posenc.rotary {{.*}}: tensor<1x8x256x64xf32>
// NOFULL-NOT: posenc.rotary {{.*}}: tensor<1x2x256x64xf32>
// NOFULL-LABEL: func.func @decode_split_keys
// NOFULL-NOT: x1x4096x
// NOFULL-NOT: posenc.rotary {{.*}}: tensor<1x8x1x64xf32>
// NOFULL-NOT: posenc.rotary {{.*}}: tensor<1x2x4096x64xf32>
// NOFULL-LABEL: func.func @non_causal
// NOFULL-NOT: x256x256x
// NOFULL-LABEL: func.func @q_positions
// NOFULL-NOT: x256x256x
// NOFULL-NOT: posenc.rotary {{.*}}: tensor<1x8x256x64xf32>
// NOFULL-NOT: posenc.rotary {{.*}}: tensor<1x2x256x64xf32>
// NOFULL-LABEL: func.func @dynamic_lengths
// NOFULL-NOT: tensor<1x{{[^>]*}}x?x?x
// NOFULL-NOT: posenc.rotary {{.*}}: tensor<1x8x?x64xf32>
// NOFULL-NOT: posenc.rotary {{.*}}: tensor<1x2x?x64xf32>
// NOFULL-NOT: posenc.attention

// Causal GQA prefill with RoPE: Hq = 8, Hkv = 2 (G = 4), S = 256, D = 64.
// - scf.forall over (batch, kv head, query tile, key chunk): 1 x 2 x 4 x 1;
// - Q is rotated once per [1, G, 64, 64] block, outside the key loop, at the
//   block's positions;
// - the key loop runs from 0 to min(Sk, last query position + 1): tiles above
//   the diagonal are not visited; the online-softmax state (running max, sum
//   and accumulator) is its three iter_args, updated in place;
// - each [1, 1, 64, 64] key tile is rotated at its positions inside the loop
//   (cos/sin rows read from tables of every key position, computed once)
//   and packed as [D, keys] (a transposing generic, widened to f32) for the [G, 64, 64] scores;
// - the causal mask comes from indices; the normalized block is inserted
//   into [B, Hkv, G, Sq, Dv], collapsed to [B, Hq, Sq, Dv].
// CHECK: #[[$TRANSPOSED:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @causal_gqa_rope
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x8x256x64xf32>, %[[K:[^:]+]]: tensor<1x2x256x64xf32>, %[[V:[^:]+]]: tensor<1x2x256x64xf32>, %[[F:[^:]+]]: tensor<32xf32>
// CHECK-NOT: posenc.rotary
// The cos/sin of every key position, once, before the forall (angles
// reduced as in posenc.rotary's lowering).
// CHECK: %[[TABLES:.+]]:2 = linalg.generic {{.*}} ins(%[[F]] : tensor<32xf32>) outs(%{{.+}}, %{{.+}} : tensor<256x32xf32>, tensor<256x32xf32>)
// CHECK: math.cos %{{.+}} {posenc.reduced_angle} : f32
// CHECK: math.sin %{{.+}} {posenc.reduced_angle} : f32
// CHECK-NOT: posenc.rotary
// CHECK: %[[OUT:.+]] = scf.forall (%[[B:[^,]+]], %[[H:[^,]+]], %[[T:[^,]+]], %{{[^)]+}}) in (1, 2, %{{[^,]+}}, 1) shared_outs(%[[SH:[^ ]+]] = %{{[^)]+}}) -> (tensor<1x2x4x256x64xf32>)
// CHECK: %[[QSTART:.+]] = arith.muli %[[T]], %{{.+}} : index
// CHECK: %[[QSLICE:.+]] = tensor.extract_slice %[[Q]][%[[B]], %{{.+}}, %[[QSTART]], 0] [1, 4, 64, 64] [1, 1, 1, 1] : tensor<1x8x256x64xf32> to tensor<1x4x64x64xf32>
// CHECK: %[[QPOS:.+]] = arith.addi %[[QSTART]], %{{.+}} : index
// CHECK: %[[QROT:.+]] = posenc.rotary %[[QSLICE]] half_split dim 64 inv_freq(%[[F]] : tensor<32xf32>) offset(%[[QPOS]] : index) : tensor<1x4x64x64xf32>
// CHECK: %[[QBLOCK:.+]] = tensor.collapse_shape %[[QROT]] {{\[\[}}0, 1], [2], [3]] : tensor<1x4x64x64xf32> into tensor<4x64x64xf32>
// CHECK-NOT: posenc.rotary
// CHECK: %[[VISIBLE:.+]] = arith.addi %[[QPOS]], %{{.+}} : index
// CHECK: %[[END:.+]] = arith.minsi %{{.+}}, %[[VISIBLE]] : index
// CHECK-NOT: posenc.rotary
// CHECK: %[[STATE:.+]]:3 = scf.for %[[KS:[^ ]+]] = %{{[^ ]+}} to %[[END]] step %{{[^ ]+}} iter_args(%[[MAX:[^ ]+]] = %{{[^,]+}}, %[[SUM:[^ ]+]] = %{{[^,]+}}, %[[ACC:[^ ]+]] = %{{[^)]+}}) -> (tensor<4x64xf32>, tensor<4x64x1xf32>, tensor<4x64x64xf32>)
// CHECK: %[[KSLICE:.+]] = tensor.extract_slice %[[K]][%[[B]], %[[H]], %[[KS]], 0] [1, 1, 64, 64] [1, 1, 1, 1] : tensor<1x2x256x64xf32> to tensor<1x1x64x64xf32>
// CHECK: %[[KROT:.+]] = posenc.rotary %[[KSLICE]] half_split dim 64 cos_sin(%[[TABLES]]#0, %[[TABLES]]#1 : tensor<256x32xf32>, tensor<256x32xf32>) offset(%[[KS]] : index) : tensor<1x1x64x64xf32>
// CHECK: tensor.extract_slice %[[V]][%[[B]], %[[H]], %[[KS]], 0] [1, 1, 64, 64]
// CHECK: %[[KTILE:.+]] = tensor.collapse_shape %[[KROT]] {{\[\[}}0, 1, 2], [3]] : tensor<1x1x64x64xf32> into tensor<64x64xf32>
// The K tile packed transposed ([D, n], f32): a 2-D generic whose input map
// is (d0, d1) -> (d1, d0).
// CHECK: %[[KT:.+]] = linalg.generic {indexing_maps = [#[[$TRANSPOSED]], #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%[[KTILE]] : tensor<64x64xf32>) outs(%{{.+}} : tensor<64x64xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[QBLOCK]], %[[KT]] : tensor<4x64x64xf32>, tensor<64x64xf32>) outs(%{{.+}} : tensor<4x64x64xf32>)
// CHECK: arith.cmpi sgt
// CHECK: arith.select
// CHECK: outs(%[[MAX]], %{{.+}} : tensor<4x64xf32>, tensor<4x64xf32>)
// CHECK: math.exp
// CHECK: outs(%[[SUM]] : tensor<4x64x1xf32>)
// CHECK: outs(%[[ACC]] : tensor<4x64x64xf32>)
// CHECK: scf.yield %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x64xf32>, tensor<4x64x1xf32>, tensor<4x64x64xf32>
// CHECK-NEXT: }
// The running sum's lanes (one without vector-width) summed once per block.
// CHECK: %[[ROWSUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[STATE]]#1 : tensor<4x64x1xf32>) outs(%{{.+}} : tensor<4x64xf32>)
// CHECK: %[[NORM:.+]] = linalg.generic {{.*}} ins(%[[STATE]]#2, %[[ROWSUM]] : tensor<4x64x64xf32>, tensor<4x64xf32>)
// CHECK: arith.divf
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[NORM]] into %[[SH]][%[[B]], %[[H]], 0, %[[QSTART]], 0] [1, 1, 4, 64, 64]
// CHECK: %[[RES:.+]] = tensor.collapse_shape %[[OUT]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x4x256x64xf32> into tensor<1x8x256x64xf32>
// CHECK: return %[[RES]] : tensor<1x8x256x64xf32>

// prerotate-keys: K is rotated once, whole, before the forall; the key loop
// reads tiles of the rotated K and rotates nothing; Q is still rotated per
// block.
// A prefill block (G * Sq = 1024 rows) keeps the tile ops with
// vector-width: the K tile is still packed transposed for the micro-kernel.
// Its softmax statistics take 16 lanes: the running sum is [G, rows, 16]
// (each lane's keys, summed across lanes after the key loop) and the tile
// max runs per lane over chunks of 16 keys, then across the lanes, so that
// no reduction runs along all keys with the rows in the vector lanes.
// DOT-LABEL: func.func @causal_gqa_rope
// DOT: %[[STATE:.+]]:3 = scf.for {{.*}} -> (tensor<4x64xf32>, tensor<4x64x16xf32>, tensor<4x64x64xf32>)
// DOT: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<64x64xf32>) outs(%{{.+}} : tensor<64x64xf32>)
// DOT-NOT: vector.
// DOT: %[[CHUNKS:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0], [1], [2, 3]] output_shape [4, 64, 4, 16] : tensor<4x64x64xf32> into tensor<4x64x4x16xf32>
// DOT: %[[LANEMAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%[[CHUNKS]] : tensor<4x64x4x16xf32>) outs(%{{.+}} : tensor<4x64x16xf32>)
// DOT: arith.maximumf
// DOT: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[LANEMAX]] : tensor<4x64x16xf32>) outs(%{{.+}} : tensor<4x64xf32>)
// DOT: math.exp
// DOT: %[[PCHUNKS:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0], [1], [2, 3]] output_shape [4, 64, 4, 16] : tensor<4x64x64xf32> into tensor<4x64x4x16xf32>
// DOT: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%[[PCHUNKS]] : tensor<4x64x4x16xf32>) outs(%{{.+}} : tensor<4x64x16xf32>)
// DOT: arith.addf
// DOT: scf.yield
// DOT: %[[ROWSUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[STATE]]#1 : tensor<4x64x16xf32>) outs(%{{.+}} : tensor<4x64xf32>)
// DOT: linalg.generic {{.*}} ins(%[[STATE]]#2, %[[ROWSUM]] : tensor<4x64x64xf32>, tensor<4x64xf32>)

// PREROT-LABEL: func.func @causal_gqa_rope
// PREROT-SAME: %[[Q:[^:]+]]: tensor<1x8x256x64xf32>, %[[K:[^:]+]]: tensor<1x2x256x64xf32>
// PREROT: %[[KROT:.+]] = posenc.rotary %[[K]] half_split dim 64 inv_freq(%{{.+}} : tensor<32xf32>) : tensor<1x2x256x64xf32>
// PREROT-NOT: posenc.rotary
// PREROT: scf.forall
// PREROT: posenc.rotary %{{.+}} offset(%{{.+}} : index) : tensor<1x4x64x64xf32>
// PREROT-NOT: posenc.rotary
// PREROT: scf.for
// PREROT-NOT: posenc.rotary
// PREROT: tensor.extract_slice %[[KROT]][{{.+}}] [1, 1, 64, 64] [1, 1, 1, 1] : tensor<1x2x256x64xf32> to tensor<1x1x64x64xf32>
// PREROT-NOT: posenc.rotary
// PREROT: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<64x64xf32>)
// PREROT-NOT: posenc.rotary
// PREROT: scf.yield
// PREROT-NOT: posenc.rotary
// PREROT: return
func.func @causal_gqa_rope(%q: tensor<1x8x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>, %f: tensor<32xf32>) -> tensor<1x8x256x64xf32> {
  %o = posenc.attention %q, %k, %v causal rope(<layout = half_split, rotary_dim = 64>, %f : tensor<32xf32>) : tensor<1x8x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x8x256x64xf32>
  return %o : tensor<1x8x256x64xf32>
}

// -----

// Decode (Sq = 1, G = 4: 4 query rows per kv head <= decode-rows 16, Sk = 4096
// > decode-chunk 512): the forall has a key-chunk dimension; each chunk's key
// loop runs over [512 c, min(512 c + 512, Sk)), clamped by the causal limit;
// the partial (max, sum, accumulator) of every chunk are results of the
// forall, combined after it by reductions over the chunk dimension.
// CHECK-LABEL: func.func @decode_split_keys
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x8x1x64xf32>, %[[K:[^:]+]]: tensor<1x2x4096x64xf32>
// CHECK: %[[R:.+]]:3 = scf.forall (%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[C:[^)]+]]) in (1, 2, %{{[^,]+}}, %{{[^)]+}}) shared_outs({{.+}}) -> (tensor<1x2x{{.+}}x4x1xf32>, tensor<1x2x{{.+}}x4x1xf32>, tensor<1x2x{{.+}}x4x1x64xf32>)
// CHECK: posenc.rotary %{{.+}} : tensor<1x4x1x64xf32>
// CHECK: %[[BEGIN:.+]] = arith.muli %[[C]], %{{.+}} : index
// CHECK: %[[CEND:.+]] = arith.addi %[[BEGIN]], %{{.+}} : index
// CHECK: %[[LIMIT:.+]] = arith.minsi %[[CEND]], %{{.+}} : index
// CHECK: %[[END:.+]] = arith.minsi %[[LIMIT]], %{{.+}} : index
// CHECK: %{{.+}}:3 = scf.for %{{[^ ]+}} = %[[BEGIN]] to %[[END]] step %{{[^ ]+}} iter_args({{.+}}) -> (tensor<4x1xf32>, tensor<4x1x1xf32>, tensor<4x1x64xf32>)
// CHECK: posenc.rotary %{{.+}} : tensor<1x1x64x64xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<64x64xf32>) outs(%{{.+}} : tensor<64x64xf32>)
// CHECK: scf.yield
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice
// CHECK-NEXT: tensor.parallel_insert_slice
// CHECK-NEXT: tensor.parallel_insert_slice
// CHECK: %[[M:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[R]]#0 : tensor<1x2x{{.+}}x4x1xf32>) outs(%{{.+}} : tensor<1x2x4x1xf32>)
// CHECK: arith.maximumf
// CHECK: %[[L:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[R]]#1, %[[R]]#0, %[[M]] :
// CHECK: math.exp
// CHECK: %[[A:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%[[R]]#2, %[[R]]#0, %[[M]] :
// CHECK: %[[O:.+]] = linalg.generic {{.*}} ins(%[[A]], %[[L]] : tensor<1x2x4x1x64xf32>, tensor<1x2x4x1xf32>)
// CHECK: arith.divf
// CHECK: %[[RES:.+]] = tensor.collapse_shape %[[O]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x4x1x64xf32> into tensor<1x8x1x64xf32>
// CHECK: return %[[RES]]
// The same decode block in the dot-product form (vector-width=16: 8 lanes,
// the dot form's most; 8 chunks of D = 64; key steps of one group of 8
// keys):
// - the key loop carries, per row, the running max (f32) and per-lane sums
//   (vector<8xf32>), and buffers: the accumulator [4, 64], the step's scores
//   then probabilities [4, 8] and a key group's lane partials [4, 8, 8];
// - no linalg op runs in the key loop: no transposed K pack, no [rows, keys]
//   tile generics;
// - scores: each row of the (rotated) key tile is read in place, 8 channels
//   at a time, each chunk feeding one FMA per query row of the block
//   ([4, 64], G x Sq rows); the lane partials of 8 keys are summed by a
//   transposing tree of shuffles (first level: the two 4-lane halves);
// - the softmax: a horizontal max per row and step, exp, the running sum
//   kept per lane; P.V reads V rows in place, a probability broadcast per
//   row; the per-lane sums are reduced once per block, reassociably;
// - K and V are also viewed as read-only buffers, from which each key
//   iteration of the scores loop prefetches the K and the V row 1 KiB ahead
//   (4 rows of 64 f32), so both streams are in flight while it runs; P.V
//   prefetches nothing (those prefetches cover its V rows).
// DOT-LABEL: func.func @decode_split_keys
// DOT-SAME: %[[Q:[^:]+]]: tensor<1x8x1x64xf32>, %[[K:[^:]+]]: tensor<1x2x4096x64xf32>, %[[V:[^:]+]]: tensor<1x2x4096x64xf32>
// DOT: scf.forall
// DOT: posenc.rotary %{{.+}} : tensor<1x4x1x64xf32>
// DOT: %[[KB:.+]] = bufferization.to_buffer %[[K]] read_only : tensor<1x2x4096x64xf32> to memref<1x2x4096x64xf32, strided<[?, ?, ?, ?], offset: ?>>
// DOT: %[[VB:.+]] = bufferization.to_buffer %[[V]] read_only
// DOT: %[[QB:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<4x1x64xf32> into tensor<4x64xf32>
// DOT: scf.for %[[KS:[^ ]+]] = %{{.+}} iter_args({{.+}}) -> (f32, f32, f32, f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, tensor<4x64xf32>, tensor<4x8xf32>, tensor<4x8x8xf32>)
// DOT-NOT: linalg.
// DOT: %[[KT:.+]] = posenc.rotary %{{.+}} offset(%[[KS]] : index) : tensor<1x1x8x64xf32>
// DOT-NOT: linalg.
// DOT: %[[VT:.+]] = tensor.extract_slice %[[V]][%{{.+}}, %{{.+}}, %[[KS]], 0] [1, 1, 8, 64]
// DOT-NOT: linalg.
// DOT: scf.for %[[J:[^ ]+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[PART:[^ ]+]] = %{{.+}}) -> (tensor<4x8x8xf32>)
// DOT-NOT: linalg.
// DOT: memref.prefetch %[[KB]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], read, locality<3>, data
// DOT-NOT: linalg.
// DOT: memref.prefetch %[[VB]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], read, locality<3>, data
// DOT-NOT: linalg.
// DOT: %[[K0:.+]] = vector.transfer_read %[[KT]][%{{.+}}, %{{.+}}, %[[J]], %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<1x1x8x64xf32>, vector<8xf32>
// DOT-NOT: linalg.
// DOT: %[[Q0:.+]] = vector.transfer_read %[[QB]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<4x64xf32>, vector<8xf32>
// DOT: %[[P0:.+]] = arith.mulf %[[Q0]], %[[K0]] : vector<8xf32>
// DOT: %[[K1:.+]] = vector.transfer_read %[[KT]][%{{.+}}, %{{.+}}, %[[J]], %{{.+}}]
// DOT: %[[Q1:.+]] = vector.transfer_read %[[QB]]
// DOT: vector.fma %[[Q1]], %[[K1]], %[[P0]] : vector<8xf32>
// DOT-NOT: linalg.
// DOT: vector.transfer_write %{{.+}}, %[[PART]][%{{.+}}, %[[J]], %{{.+}}] {in_bounds = [true]} : vector<8xf32>, tensor<4x8x8xf32>
// DOT-NOT: linalg.
// DOT: vector.shuffle %{{.+}}, %{{.+}} [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xf32>, vector<8xf32>
// DOT-NOT: linalg.
// DOT: arith.cmpi sgt, %{{.+}}, %{{.+}} : vector<8xi64>
// DOT-NOT: linalg.
// DOT: vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<8xf32>, tensor<4x8xf32>
// DOT-NOT: linalg.
// DOT: vector.reduction <maximumf>, %{{.+}} : vector<8xf32> into f32
// DOT-NOT: linalg.
// DOT: math.exp %{{.+}} : vector<8xf32>
// DOT-NOT: {{linalg\.|memref.prefetch}}
// DOT: vector.transfer_read %[[VT]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<1x1x8x64xf32>, vector<8xf32>
// DOT-NOT: linalg.
// DOT: %[[W:.+]] = vector.broadcast %{{.+}} : f32 to vector<8xf32>
// DOT: vector.fma %[[W]], %{{.+}}, %{{.+}} : vector<8xf32>
// DOT-NOT: linalg.
// DOT: vector.reduction <add>, %{{.+}} fastmath<reassoc> : vector<8xf32> into f32
// DOT-NOT: linalg.
// DOT: tensor.from_elements
// DOT-NOT: linalg.
// DOT: scf.forall.in_parallel
// NARROW-LABEL: func.func @decode_split_keys
// NARROW-NOT: vector.
// NARROW: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<64x64xf32>) outs(%{{.+}} : tensor<64x64xf32>)
// NARROW-NOT: vector.
// NARROW: return
func.func @decode_split_keys(%q: tensor<1x8x1x64xf32>, %k: tensor<1x2x4096x64xf32>, %v: tensor<1x2x4096x64xf32>, %f: tensor<32xf32>) -> tensor<1x8x1x64xf32> {
  %o = posenc.attention %q, %k, %v causal rope(<layout = half_split, rotary_dim = 64>, %f : tensor<32xf32>) : tensor<1x8x1x64xf32>, tensor<1x2x4096x64xf32>, tensor<1x2x4096x64xf32> -> tensor<1x8x1x64xf32>
  return %o : tensor<1x8x1x64xf32>
}

// -----

// Not causal: every key tile is visited (no clamp of the loop bound), no mask.
// CHECK-LABEL: func.func @non_causal
// CHECK-NOT: arith.minsi
// CHECK: scf.forall
// CHECK-NOT: arith.minsi
// CHECK: scf.for %{{[^ ]+}} = %{{[^ ]+}} to %{{[^ ]+}} step %{{[^ ]+}} iter_args({{.+}}) -> (tensor<4x64xf32>, tensor<4x64x1xf32>, tensor<4x64x64xf32>)
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.minsi
// CHECK: scf.yield
// CHECK-NOT: arith.minsi
// CHECK: return
func.func @non_causal(%q: tensor<1x8x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>) -> tensor<1x8x256x64xf32> {
  %o = posenc.attention %q, %k, %v : tensor<1x8x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x8x256x64xf32>
  return %o : tensor<1x8x256x64xf32>
}

// -----

// Causal with explicit query positions (arbitrary, not ordered): no tile can
// be skipped, the loop bound is not clamped; the mask compares the sliced
// positions with the key index; Q is rotated at its sliced positions.
// CHECK-LABEL: func.func @q_positions
// CHECK-SAME: %[[P:[^:]+]]: tensor<256xi64>
// CHECK-NOT: arith.minsi
// CHECK: scf.forall
// CHECK: %[[QP:.+]] = tensor.extract_slice %[[P]][%{{.+}}] [64] [1] : tensor<256xi64> to tensor<64xi64>
// CHECK: posenc.rotary %{{.+}} positions(%[[QP]] : tensor<64xi64>) : tensor<1x4x64x64xf32>
// CHECK-NOT: arith.minsi
// CHECK: scf.for %{{[^ ]+}} = %{{[^ ]+}} to %{{[^ ]+}} step %{{[^ ]+}} iter_args({{.+}}) -> (tensor<4x64xf32>, tensor<4x64x1xf32>, tensor<4x64x64xf32>)
// CHECK: posenc.rotary %{{.+}} offset(%{{.+}} : index) : tensor<1x1x64x64xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<4x64x64xf32>, tensor<64xi64>)
// CHECK: arith.cmpi sgt
// CHECK-NOT: arith.minsi
// CHECK: scf.yield
// CHECK-NOT: arith.minsi
// CHECK: return
func.func @q_positions(%q: tensor<1x8x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>, %f: tensor<32xf32>, %p: tensor<256xi64>) -> tensor<1x8x256x64xf32> {
  %o = posenc.attention %q, %k, %v causal rope(<layout = half_split, rotary_dim = 64>, %f : tensor<32xf32>) q_positions(%p : tensor<256xi64>) : tensor<1x8x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x8x256x64xf32>
  return %o : tensor<1x8x256x64xf32>
}

// -----

// Dynamic Sq and Sk: ceil(Sq / 64) query tiles; the last query and key tiles
// are smaller: their sizes are min(tile, extent - start); the causal clamp
// still applies (bottom_right: the shift Sk - Sq).
// CHECK-LABEL: func.func @dynamic_lengths
// CHECK-SAME: %[[Q:[^:]+]]: tensor<1x8x?x64xf32>, %[[K:[^:]+]]: tensor<1x2x?x64xf32>
// Keys and values of dynamic lengths must agree: checked when it runs.
// CHECK: cf.assert %{{.+}}, "attention: key and value sequence lengths differ"
// CHECK-DAG: %[[SQ:.+]] = tensor.dim %[[Q]], %{{.+}} : tensor<1x8x?x64xf32>
// CHECK-DAG: %[[SK:.+]] = tensor.dim %[[K]], %{{.+}} : tensor<1x2x?x64xf32>
// CHECK: %[[SHIFT:.+]] = arith.subi %[[SK]], %[[SQ]] : index
// CHECK: %[[NT:.+]] = arith.divui
// CHECK: scf.forall (%[[B:[^,]+]], %[[H:[^,]+]], %[[T:[^,]+]], %{{[^)]+}}) in (1, 2, %[[NT]], 1) shared_outs({{.+}}) -> (tensor<1x2x4x?x64xf32>)
// CHECK: %[[QSTART:.+]] = arith.muli %[[T]], %{{.+}} : index
// CHECK: %[[QLEFT:.+]] = arith.subi %[[SQ]], %[[QSTART]] : index
// CHECK: %[[QTILE:.+]] = arith.constant 64 : index
// CHECK: %[[QROWS:.+]] = arith.minsi %[[QTILE]], %[[QLEFT]] : index
// CHECK: tensor.extract_slice %[[Q]][%[[B]], %{{.+}}, %[[QSTART]], 0] [1, 4, %[[QROWS]], 64] [1, 1, 1, 1] : tensor<1x8x?x64xf32> to tensor<1x4x?x64xf32>
// CHECK: %[[QPOS:.+]] = arith.addi %[[QSTART]], %[[SHIFT]] : index
// CHECK: posenc.rotary %{{.+}} offset(%[[QPOS]] : index) : tensor<1x4x?x64xf32>
// CHECK: %[[VISIBLE:.+]] = arith.addi %[[QPOS]], %[[QROWS]] : index
// CHECK: %[[END:.+]] = arith.minsi %[[SK]], %[[VISIBLE]] : index
// The key tiles wholly before Sk take a loop of static [64, 64] tiles; the
// partial last one (at most one step) is sliced to the keys left, rotated,
// padded with zeros to 64 keys and masked from the first padded key on.
// CHECK: %[[WHOLE:.+]] = arith.divsi %{{.+}}, %{{.+}} : index
// CHECK: %[[STEPS:.+]] = arith.ceildivsi %{{.+}}, %{{.+}} : index
// CHECK: %[[NW:.+]] = arith.minsi %[[WHOLE]], %[[STEPS]] : index
// CHECK: %[[WEND:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[W:.+]]:3 = scf.for %[[KS:[^ ]+]] = %{{[^ ]+}} to %[[WEND]] step %{{[^ ]+}} iter_args({{.+}}) -> (tensor<4x?xf32>, tensor<4x?x1xf32>, tensor<4x?x64xf32>)
// CHECK: tensor.extract_slice %[[K]][%[[B]], %[[H]], %[[KS]], 0] [1, 1, 64, 64] [1, 1, 1, 1] : tensor<1x2x?x64xf32> to tensor<1x1x64x64xf32>
// CHECK: posenc.rotary %{{.+}} offset(%[[KS]] : index) : tensor<1x1x64x64xf32>
// CHECK: scf.yield
// CHECK: scf.for %[[TS:[^ ]+]] = %[[WEND]] to %[[END]] step %{{[^ ]+}} iter_args(%{{[^ ]+}} = %[[W]]#0, %{{[^ ]+}} = %[[W]]#1, %{{[^ ]+}} = %[[W]]#2)
// CHECK: %[[KLEFT:.+]] = arith.subi %[[SK]], %[[TS]] : index
// CHECK: %[[KTILE:.+]] = arith.constant 64 : index
// CHECK: %[[KROWS:.+]] = arith.minsi %[[KTILE]], %[[KLEFT]] : index
// CHECK: tensor.extract_slice %[[K]][%[[B]], %[[H]], %[[TS]], 0] [1, 1, %[[KROWS]], 64] [1, 1, 1, 1] : tensor<1x2x?x64xf32> to tensor<1x1x?x64xf32>
// CHECK: %[[ROT:.+]] = posenc.rotary %{{.+}} offset(%[[TS]] : index) : tensor<1x1x?x64xf32>
// CHECK: tensor.pad %[[ROT]] low[0, 0, 0, 0] high[0, 0, %{{.+}}, 0]
// CHECK: tensor<1x1x?x64xf32> to tensor<1x1x64x64xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<64x64xf32>) outs(%{{.+}} : tensor<64x64xf32>)
// CHECK: arith.cmpi sge, %{{.+}}, %[[KROWS]] : index
// CHECK: scf.yield
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x4x?x64xf32> into tensor<1x8x?x64xf32>
func.func @dynamic_lengths(%q: tensor<1x8x?x64xf32>, %k: tensor<1x2x?x64xf32>, %v: tensor<1x2x?x64xf32>, %f: tensor<32xf32>) -> tensor<1x8x?x64xf32> {
  %o = posenc.attention %q, %k, %v causal rope(<layout = half_split, rotary_dim = 64>, %f : tensor<32xf32>) : tensor<1x8x?x64xf32>, tensor<1x2x?x64xf32>, tensor<1x2x?x64xf32> -> tensor<1x8x?x64xf32>
  return %o : tensor<1x8x?x64xf32>
}

// -----

// Attention sinks (gpt-oss), one key loop per block: the block slices its G
// heads' sinks; the online softmax starts from the sink column, running max
// = sink and running sum = exp(sink - sink) (0 for a -inf sink), instead of
// -inf and 0.
// CHECK-LABEL: func.func @sinks_prefill
// CHECK-SAME: %[[S:[^:]+]]: tensor<8xf32>)
// CHECK: scf.forall
// CHECK: %[[BS:.+]] = tensor.extract_slice %[[S]][%{{.+}}] [4] [1] : tensor<8xf32> to tensor<4xf32>
// CHECK: %[[MAX0:.+]] = linalg.generic {{.*}} ins(%[[BS]] : tensor<4xf32>) outs(%{{.+}} : tensor<4x64xf32>)
// CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: f32,
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: %[[TERM:.+]] = linalg.generic {{.*}} ins(%[[BS]] : tensor<4xf32>) outs(%{{.+}} : tensor<4x64xf32>)
// CHECK-NEXT: ^bb0(%[[SINK:[^:]+]]: f32,
// CHECK: arith.cmpf oeq, %[[SINK]], %{{.+}} : f32
// CHECK: %[[ZERO:.+]] = arith.subf %[[SINK]], %[[SINK]] : f32
// CHECK: math.exp %[[ZERO]] : f32
// CHECK: arith.select
// The running sum's lane 0 (of one here) starts at the sink's term, given
// its lane dim first (a rank-reducing insert became an invalid cast once
// canonicalization made a dim static: issue 22 item 1).
// CHECK: %[[TERM1:.+]] = tensor.expand_shape %[[TERM]] {{\[}}[0], [1, 2]] output_shape [4, 64, 1] : tensor<4x64xf32> into tensor<4x64x1xf32>
// CHECK: %[[SUM0:.+]] = tensor.insert_slice %[[TERM1]] into %{{.+}}[0, 0, 0] [4, 64, 1] [1, 1, 1] : tensor<4x64x1xf32> into tensor<4x64x1xf32>
// CHECK-NOT: outs(%{{.+}} : tensor<4x64xf32>)
// CHECK: scf.for %{{.+}} iter_args(%{{[^ ]+}} = %[[MAX0]], %{{[^ ]+}} = %[[SUM0]], %{{[^ ]+}} = %{{[^)]+}}) -> (tensor<4x64xf32>, tensor<4x64x1xf32>, tensor<4x64x64xf32>)
// CHECK: scf.yield
// CHECK-NOT: %[[S]]
// CHECK: return
func.func @sinks_prefill(%q: tensor<1x8x128x64xf32>, %k: tensor<1x2x128x64xf32>, %v: tensor<1x2x128x64xf32>, %s: tensor<8xf32>) -> tensor<1x8x128x64xf32> {
  %o = posenc.attention %q, %k, %v causal sinks(%s : tensor<8xf32>) : tensor<1x8x128x64xf32>, tensor<1x2x128x64xf32>, tensor<1x2x128x64xf32> -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// Attention sinks with split keys: the chunks start empty (-inf, 0) and never
// read the sinks; the combine counts each sink once: the max over chunks
// starts from the sinks ([Hq] viewed as [Hkv, G], broadcast to the rows), the
// sum over chunks from exp(sink - max).
// CHECK-LABEL: func.func @sinks_decode_split_keys
// CHECK-SAME: %[[S:[^:]+]]: tensor<8xf32>)
// CHECK: %[[R:.+]]:3 = scf.forall
// CHECK-NOT: %[[S]]
// CHECK: scf.forall.in_parallel
// CHECK: %[[GS:.+]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK: %[[SR:.+]] = linalg.generic {{.*}} ins(%[[GS]] : tensor<2x4xf32>) outs(%{{.+}} : tensor<1x2x4x1xf32>)
// CHECK: %[[M:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[R]]#0 : tensor<1x2x{{.+}}x4x1xf32>) outs(%[[SR]] : tensor<1x2x4x1xf32>)
// CHECK: arith.maximumf
// CHECK: %[[E:.+]] = linalg.generic {{.*}} ins(%[[GS]], %[[M]] : tensor<2x4xf32>, tensor<1x2x4x1xf32>) outs(%{{.+}} : tensor<1x2x4x1xf32>)
// CHECK: math.exp
// CHECK: %[[L:.+]] = linalg.generic {{.*}} ins(%[[R]]#1, %[[R]]#0, %[[M]] : {{.+}}) outs(%[[E]] : tensor<1x2x4x1xf32>)
// CHECK: %[[A:.+]] = linalg.generic {{.*}} ins(%[[R]]#2, %[[R]]#0, %[[M]] :
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[L]] : tensor<1x2x4x1x64xf32>, tensor<1x2x4x1xf32>)
// CHECK: arith.divf
// DOT-LABEL: func.func @sinks_decode_split_keys
// DOT-SAME: %[[S:[^:]+]]: tensor<8xf32>)
// DOT: %[[R:.+]]:3 = scf.forall
// DOT-NOT: %[[S]]{{[^0-9]}}
// DOT: scf.for {{.+}} -> (f32, f32, f32, f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, tensor<4x64xf32>, tensor<4x8xf32>, tensor<4x8x8xf32>)
// DOT-NOT: %[[S]]{{[^0-9]}}
// DOT: scf.forall.in_parallel
// DOT: %[[GS:.+]] = tensor.expand_shape %[[S]]
func.func @sinks_decode_split_keys(%q: tensor<1x8x1x64xf32>, %k: tensor<1x2x4096x64xf32>, %v: tensor<1x2x4096x64xf32>, %s: tensor<8xf32>) -> tensor<1x8x1x64xf32> {
  %o = posenc.attention %q, %k, %v causal sinks(%s : tensor<8xf32>) : tensor<1x8x1x64xf32>, tensor<1x2x4096x64xf32>, tensor<1x2x4096x64xf32> -> tensor<1x8x1x64xf32>
  return %o : tensor<1x8x1x64xf32>
}

// -----

// Few rows, one key loop per block (Sk = 100 <= decode-chunk: no split), in
// the dot-product form with sinks, ALiBi, explicit key positions and bf16:
// - the loop starts from the sink: max = sink, sum = exp(sink - sink) in lane
//   0 of the per-lane sums;
// - the last 8-key step is partial (4 keys): it reads its last key row
//   again for the keys it lacks (row index min(j, rows - 1)) and masks those
//   lanes (lane >= rows) to -inf;
// - K rows are read as bf16 and widened; key positions are read 8 at a
//   time (not in bounds past the tile) and sign-extended; the ALiBi bias
//   -m |q - k| and the causal mask are formed on them per lane.
// DOT-LABEL: func.func @decode_sinks_alibi_positions
// DOT-SAME: %[[P:[^:]+]]: tensor<100xi32>, %[[S:[^:]+]]: tensor<8xf32>)
// DOT: scf.forall
// DOT: %[[BS:.+]] = tensor.extract_slice %[[S]][%{{.+}}] [4] [1] : tensor<8xf32> to tensor<4xf32>
// DOT: %[[S0:.+]] = tensor.extract %[[BS]][%{{.+}}] : tensor<4xf32>
// DOT: arith.cmpf oeq, %[[S0]], %{{.+}} : f32
// DOT: %[[E0:.+]] = arith.select
// DOT: %[[L0:.+]] = vector.insert %[[E0]], %{{.+}} [0] : f32 into vector<8xf32>
// DOT: scf.for %[[KS:[^ ]+]] = %{{.+}} iter_args(%{{[^ ]+}} = %[[S0]], {{.+}}, %{{[^ ]+}} = %[[L0]], {{.+}}) -> (f32, f32, f32, f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, tensor<4x64xf32>, tensor<4x8xf32>, tensor<4x8x8xf32>)
// DOT: %[[ROWS:.+]] = arith.minsi %{{.+}}, %{{.+}} : index
// DOT: %[[KP:.+]] = tensor.extract_slice %[[P]][%[[KS]]] [%[[ROWS]]] [1] : tensor<100xi32> to tensor<?xi32>
// DOT: %[[LAST:.+]] = arith.subi %[[ROWS]], %{{.+}} : index
// DOT: scf.for
// DOT: %[[ROW:.+]] = arith.minsi %{{.+}}, %[[LAST]] : index
// DOT: %[[KB:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}, %[[ROW]], %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<1x1x?x64xbf16>, vector<8xbf16>
// DOT: arith.extf %[[KB]] : vector<8xbf16> to vector<8xf32>
// DOT: %[[KPV:.+]] = vector.transfer_read %[[KP]][%{{.+}}], %{{.+}} : tensor<?xi32>, vector<8xi32>
// DOT: %[[KPOS:.+]] = arith.extsi %[[KPV]] : vector<8xi32> to vector<8xi64>
// DOT: %[[MISSING:.+]] = arith.cmpi sge, %{{.+}}, %{{.+}} : vector<8xi64>
// DOT: scf.for
// DOT: arith.subi %{{.+}}, %[[KPOS]] : vector<8xi64>
// DOT: arith.uitofp %{{.+}} : vector<8xi64> to vector<8xf32>
// DOT: arith.negf
// DOT: %[[FUTURE:.+]] = arith.cmpi sgt, %[[KPOS]], %{{.+}} : vector<8xi64>
// DOT: %[[MASKED:.+]] = arith.ori %[[MISSING]], %[[FUTURE]] : vector<8xi1>
// DOT: arith.select %[[MASKED]], %{{.+}}, %{{.+}} : vector<8xi1>, vector<8xf32>
// DOT: scf.yield
// DOT: tensor.from_elements
// DOT: arith.divf
// DOT: arith.truncf %{{.+}} : f32 to bf16
// DOT: scf.forall.in_parallel
func.func @decode_sinks_alibi_positions(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x2x100x64xbf16>, %v: tensor<1x2x100x64xbf16>, %p: tensor<100xi32>, %s: tensor<8xf32>) -> tensor<1x8x1x64xbf16> {
  %o = posenc.attention %q, %k, %v causal alibi(<num_heads = 8>) k_positions(%p : tensor<100xi32>) sinks(%s : tensor<8xf32>) : tensor<1x8x1x64xbf16>, tensor<1x2x100x64xbf16>, tensor<1x2x100x64xbf16> -> tensor<1x8x1x64xbf16>
  return %o : tensor<1x8x1x64xbf16>
}

// -----

// A bf16 decode whose head dim (48) takes 16 lanes but not chunks of 32
// channels: f32 FMAs (BFDOT checks above).
func.func @decode_bf16_d40(%q: tensor<1x8x1x40xbf16>, %k: tensor<1x2x640x40xbf16>, %v: tensor<1x2x640x40xbf16>) -> tensor<1x8x1x40xbf16> {
  %o = posenc.attention %q, %k, %v causal : tensor<1x8x1x40xbf16>, tensor<1x2x640x40xbf16>, tensor<1x2x640x40xbf16> -> tensor<1x8x1x40xbf16>
  return %o : tensor<1x8x1x40xbf16>
}

// -----

// A causal sliding window (issue 23): each query block's key loop starts at
// its first query's window edge, rounded down to a key tile (full tiles stay
// inside the keys) but not below the loop's own start, and ends at its
// causal bound; key tiles wholly outside
// the band are never entered. The band's edges are masked per logit.
// CHECK-LABEL: func.func @sliding_window
// CHECK: scf.forall
// CHECK: %[[QSTART:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: %[[QPOS:.+]] = arith.addi %[[QSTART]], %{{.+}} : index
// CHECK: %[[PAST:.+]] = arith.addi %[[QPOS]], %{{.+}} : index
// CHECK: %[[END:.+]] = arith.minsi %{{.+}}, %[[PAST]] : index
// CHECK: %[[EDGE:.+]] = arith.addi %[[QPOS]], %c-100 : index
// CHECK: %[[FIRST:.+]] = arith.maxsi %{{.+}}, %[[EDGE]] : index
// CHECK: %[[TILES:.+]] = arith.divsi %[[FIRST]], %[[T:.+]] : index
// CHECK: %[[ALIGNED:.+]] = arith.muli %[[TILES]], %{{.+}} : index
// CHECK: %[[BEGIN:.+]] = arith.maxsi %{{.+}}, %[[ALIGNED]] : index
// CHECK: scf.for %{{[^ ]+}} = %[[BEGIN]] to %[[END]] step
// The logit mask: future keys and keys left of the window.
// CHECK: arith.cmpi sgt
// CHECK: arith.cmpi slt
func.func @sliding_window(%q: tensor<1x8x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>) -> tensor<1x8x256x64xf32> {
  %o = posenc.attention %q, %k, %v causal window(<left = 100>) : tensor<1x8x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x8x256x64xf32>
  return %o : tensor<1x8x256x64xf32>
}

// -----

// Chunked attention (Llama 4): the key loop covers the chunks of the block's
// first and last queries, [floor(first / C) C, floor(last / C) C + C).
// CHECK-LABEL: func.func @chunked
// CHECK: scf.forall
// CHECK: %[[QPOS:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[PAST:.+]] = arith.addi %[[QPOS]], %{{.+}} : index
// CHECK: %[[LAST:.+]] = arith.subi %[[PAST]], %{{.+}} : index
// CHECK: %[[CAUSAL:.+]] = arith.minsi %{{.+}}, %[[PAST]] : index
// CHECK: arith.divsi
// CHECK: arith.remsi
// CHECK: %[[FIRSTCHUNK:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK: %[[BEGIN0:.+]] = arith.maxsi %{{.+}}, %[[FIRSTCHUNK]] : index
// CHECK: %[[LASTCHUNK:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK: %[[CHUNKEND:.+]] = arith.addi %[[LASTCHUNK]], %c32 : index
// CHECK: %[[END:.+]] = arith.minsi %[[CAUSAL]], %[[CHUNKEND]] : index
// CHECK: scf.for %{{[^ ]+}} = %{{[^ ]+}} to %[[END]] step
func.func @chunked(%q: tensor<1x8x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>) -> tensor<1x8x256x64xf32> {
  %o = posenc.attention %q, %k, %v causal chunk_size(32) : tensor<1x8x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x8x256x64xf32>
  return %o : tensor<1x8x256x64xf32>
}

// -----

// With explicit positions the band is not an index range: every key tile is
// visited and the logit rule masks.
// CHECK-LABEL: func.func @window_explicit_positions
// CHECK-NOT: arith.maxsi
// CHECK: scf.for
// CHECK: arith.cmpi slt
func.func @window_explicit_positions(%q: tensor<1x8x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>, %p: tensor<256xi64>) -> tensor<1x8x256x64xf32> {
  %o = posenc.attention %q, %k, %v window(<left = 100>) q_positions(%p : tensor<256xi64>) k_positions(%p : tensor<256xi64>) : tensor<1x8x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x8x256x64xf32>
  return %o : tensor<1x8x256x64xf32>
}

// -----

// Decode with a window over a long cache: the key chunks that run in
// parallel split only the keys the window lets through, from its left edge
// (4095 - 1000, rounded down to a key tile: 3072) to the causal end: 2
// chunks of 512, not 8. Each chunk's loop starts at that base.
// CHECK-LABEL: func.func @decode_window
// CHECK: %[[EDGE:.+]] = arith.maxsi %{{.+}}, %{{.+}} : index
// CHECK: %[[TILES:.+]] = arith.divsi %[[EDGE]], %{{.+}} : index
// CHECK: %[[ALIGNED:.+]] = arith.muli %[[TILES]], %{{.+}} : index
// CHECK: %[[BASE:.+]] = arith.maxsi %{{.+}}, %[[ALIGNED]] : index
// CHECK: %[[SPAN:.+]] = arith.subi %{{.+}}, %[[BASE]] : index
// CHECK: %[[UP:.+]] = arith.addi %[[SPAN]], %{{.+}} : index
// CHECK: %[[N:.+]] = arith.divui %[[UP]], %{{.+}} : index
// CHECK: %[[CHUNKS:.+]] = arith.maxsi %[[N]], %{{.+}} : index
// CHECK: scf.forall (%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[C:[^)]+]]) in (1, 2, %{{[^,]+}}, %[[CHUNKS]])
// CHECK: %[[OFF:.+]] = arith.muli %[[C]], %{{.+}} : index
// CHECK: %[[BEGIN:.+]] = arith.addi %[[BASE]], %[[OFF]] : index
func.func @decode_window(%q: tensor<1x8x1x64xf32>, %k: tensor<1x2x4096x64xf32>, %v: tensor<1x2x4096x64xf32>) -> tensor<1x8x1x64xf32> {
  %o = posenc.attention %q, %k, %v causal window(<left = 1000>) : tensor<1x8x1x64xf32>, tensor<1x2x4096x64xf32>, tensor<1x2x4096x64xf32> -> tensor<1x8x1x64xf32>
  return %o : tensor<1x8x1x64xf32>
}

// -----

// key_lengths (issue 24): each block reads its sequence's length, clamps it
// to [0, Sk] and ends its key loops there (with the causal bound): whole
// tiles before it, then a tail tile sliced to the keys before it (and padded),
// so no key past the length is read even though 64 divides Sk.
// CHECK-LABEL: func.func @key_lengths_prefill
// CHECK-SAME: %[[LEN:[^:]+]]: tensor<2xi32>)
// CHECK: scf.forall (%[[B:[^,]+]],
// CHECK: %[[L:.+]] = tensor.extract %[[LEN]][%[[B]]] : tensor<2xi32>
// CHECK: %[[LI:.+]] = arith.index_cast %[[L]] : i32 to index
// CHECK: %[[HI:.+]] = arith.minsi %[[LI]], %{{.+}} : index
// CHECK: %[[LIMIT:.+]] = arith.maxsi %[[HI]], %{{.+}} : index
// CHECK: %[[KEYS:.+]] = arith.minsi %{{.+}}, %[[LIMIT]] : index
// CHECK: %[[END:.+]] = arith.minsi %[[KEYS]], %{{.+}} : index
// CHECK: scf.for %[[J:[^ ]+]] = %{{.+}} to %[[END]] step
// CHECK: %[[LEFT:.+]] = arith.subi %[[KEYS]], %[[J]] : index
// CHECK: %[[N:.+]] = arith.minsi %{{.+}}, %[[LEFT]] : index
// CHECK: tensor.extract_slice %{{.+}}[%[[B]], %{{.+}}, %[[J]], 0] [1, 1, %[[N]], 64]
func.func @key_lengths_prefill(%q: tensor<2x8x256x64xf32>, %k: tensor<2x2x256x64xf32>, %v: tensor<2x2x256x64xf32>, %len: tensor<2xi32>) -> tensor<2x8x256x64xf32> {
  %o = posenc.attention %q, %k, %v causal key_lengths(%len : tensor<2xi32>) : tensor<2x8x256x64xf32>, tensor<2x2x256x64xf32>, tensor<2x2x256x64xf32> -> tensor<2x8x256x64xf32>
  return %o : tensor<2x8x256x64xf32>
}
