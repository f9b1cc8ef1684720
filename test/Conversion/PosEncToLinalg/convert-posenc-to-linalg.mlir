// RUN: posenc-opt %s --split-input-file --convert-posenc-to-linalg | FileCheck %s

// Static schemes lower to constants computed in fp64 (values are checked by
// the execution and fold tests; here only the shape of the IR).
// CHECK-LABEL: func.func @static_frequencies
// CHECK-DAG: %[[INV:.+]] = arith.constant dense<{{.*}}> : tensor<32xf32>
// CHECK-DAG: %[[AF:.+]] = arith.constant 1.13862944 : f32
// CHECK-NOT: posenc.
// CHECK: return %[[INV]], %[[AF]]
func.func @static_frequencies() -> (tensor<32xf32>, f32) {
  %inv, %af = posenc.rope_frequencies dim 64 base 1000000.0 scaling(#posenc.yarn<factor = 4.0, original_max_position_embeddings = 32768>) : tensor<32xf32>, f32
  return %inv, %af : tensor<32xf32>, f32
}

// -----

// HF dynamic NTK: base' = base * (s * L / M - (s - 1))^(d/(d-2)) with
// L = max(seq_len, M), the fold's formula and order of operations on the
// runtime length, then 1 / base'^(2i/d).
// CHECK-LABEL: func.func @dynamic_ntk
// CHECK-SAME: %[[N:.+]]: index
// CHECK: %[[LEN:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[LF:.+]] = arith.sitofp %[[LEN]] : i64 to f64
// CHECK: %[[L:.+]] = arith.maxnumf %[[LF]], %{{.+}} : f64
// CHECK: %[[SL:.+]] = arith.mulf %{{.+}}, %[[L]] : f64
// CHECK: %[[SCALED:.+]] = arith.divf %[[SL]], %{{.+}} : f64
// CHECK: %[[RATIO:.+]] = arith.subf %[[SCALED]], %{{.+}} : f64
// CHECK: %[[POW:.+]] = math.powf %[[RATIO]], %{{.+}} : f64
// CHECK: %[[BASE:.+]] = arith.mulf %{{.+}}, %[[POW]] : f64
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: math.powf %[[BASE]]
// CHECK: arith.truncf %{{.+}} : f64 to f32
func.func @dynamic_ntk(%n: index) -> tensor<32xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 scaling(#posenc.dynamic_ntk<factor = 2.0, max_position_embeddings = 4096>) seq_len(%n : index) : tensor<32xf32>, f32
  return %inv : tensor<32xf32>
}

// -----

// HF LongRoPE: both tables are constants, the runtime length selects.
// CHECK-LABEL: func.func @longrope_switch
// CHECK: %[[ORIG:.+]] = arith.constant 4096 : i64
// CHECK: %[[IS_LONG:.+]] = arith.cmpi sgt, %{{.+}}, %[[ORIG]] : i64
// CHECK-DAG: %[[LONG:.+]] = arith.constant dense<[0.333333343, 2.500000e-03]> : tensor<2xf32>
// CHECK-DAG: %[[SHORT:.+]] = arith.constant dense<[1.000000e+00, 5.000000e-03]> : tensor<2xf32>
// CHECK: arith.select %[[IS_LONG]], %[[LONG]], %[[SHORT]] : tensor<2xf32>
func.func @longrope_switch(%n: i64) -> tensor<2xf32> {
  %inv, %af = posenc.rope_frequencies dim 4 base 10000.0 scaling(#posenc.longrope<short_factor = [1.0, 2.0], long_factor = [3.0, 4.0], original_max_position_embeddings = 4096, max_position_embeddings = 131072>) seq_len(%n : i64) : tensor<2xf32>, f32
  return %inv : tensor<2xf32>
}

// -----

// Half-split RoPE with partial rotary: cos/sin rows per (token, pair) are
// built once (no head dimension); the pairs (i, i + 16) are read as two
// slices of x; one generic writes the rotated channels of the result viewed
// as [..., 2, 16] (c = 0: x1*cos - x2*sin, c = 1: x2*cos + x1*sin);
// channels [32, 64) are copied.
// CHECK-DAG: #[[$INV:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$POS:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$PAIR:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[$TAB:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d4)>
// CHECK-DAG: #[[$ID5:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @rotary_half_split
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x?x64xf16>, %[[F:[^:]+]]: tensor<16xf64>, %[[P:[^:]+]]: tensor<?xi32>
// CHECK: %[[TABLES:.+]]:2 = linalg.generic {indexing_maps = [#[[$INV]], #[[$POS]], #[[$ID2]], #[[$ID2]]]
// CHECK-SAME: ins(%[[F]], %[[P]] : tensor<16xf64>, tensor<?xi32>)
// CHECK: arith.extsi %{{.+}} : i32 to i64
// CHECK: arith.sitofp %{{.+}} : i64 to f64
// CHECK: math.roundeven %{{.+}} : f64
// CHECK: math.cos %{{.+}} {posenc.reduced_angle} : f32
// CHECK: math.sin %{{.+}} {posenc.reduced_angle} : f32
// CHECK: %[[X1:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [2, 4, %{{.+}}, 16] [1, 1, 1, 1]
// CHECK: %[[X2:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 16] [2, 4, %{{.+}}, 16] [1, 1, 1, 1]
// The rotated channels are computed in their own [..., 2, 16] tensor (no
// reshape of a destination: eliminate-empty-tensors can place it).
// CHECK: %[[ROT_DEST:.+]] = tensor.empty(%{{.+}}) : tensor<2x4x?x2x16xf16>
// CHECK: %[[ROT:.+]] = linalg.generic {indexing_maps = [#[[$PAIR]], #[[$PAIR]], #[[$TAB]], #[[$TAB]], #[[$ID5]]]
// CHECK-SAME: ins(%[[X1]], %[[X2]], %[[TABLES]]#0, %[[TABLES]]#1 :
// CHECK-SAME: outs(%[[ROT_DEST]] : tensor<2x4x?x2x16xf16>)
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: %[[C:.+]] = linalg.index 3 : index
// CHECK: arith.cmpi eq, %[[C]]
// CHECK: arith.select
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[ROT]] {{\[}}[0], [1], [2], [3, 4]]
// CHECK: %[[DEST:.+]] = tensor.empty(%{{.+}}) : tensor<2x4x?x64xf16>
// CHECK: %[[R1:.+]] = tensor.insert_slice %[[FLAT]] into %[[DEST]][0, 0, 0, 0] [2, 4, %{{.+}}, 32] [1, 1, 1, 1]
// CHECK: %[[PASS:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 32] [2, 4, %{{.+}}, 32] [1, 1, 1, 1]
// CHECK: %[[PASS_DEST:.+]] = tensor.extract_slice %[[R1]][0, 0, 0, 32] [2, 4, %{{.+}}, 32] [1, 1, 1, 1]
// CHECK: %[[COPIED:.+]] = linalg.copy ins(%[[PASS]] : {{.+}}) outs(%[[PASS_DEST]] : {{.+}})
// CHECK: tensor.insert_slice %[[COPIED]] into %[[R1]][0, 0, 0, 32] [2, 4, %{{.+}}, 32] [1, 1, 1, 1]
func.func @rotary_half_split(%x: tensor<2x4x?x64xf16>, %f: tensor<16xf64>, %p: tensor<?xi32>) -> tensor<2x4x?x64xf16> {
  %y = posenc.rotary %x half_split dim 32 inv_freq(%f : tensor<16xf64>) positions(%p : tensor<?xi32>) : tensor<2x4x?x64xf16>
  return %y : tensor<2x4x?x64xf16>
}

// -----

// Interleaved pairs (2i, 2i+1) are read as stride-2 slices and written
// as [..., 4, 2] and collapsed; per-batch positions give per-batch cos/sin rows;
// an attention factor scales them.
// CHECK-DAG: #[[$PAIR:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$TAB:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @rotary_interleaved
// CHECK-SAME: %[[AF:[^:]+]]: f32
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.+}}, %{{.+}} : tensor<2x8x4xf32>, tensor<2x8x4xf32>)
// CHECK: %[[C:.+]] = math.cos
// CHECK: %[[S:.+]] = math.sin
// CHECK: arith.mulf %[[C]], %[[AF]] : f32
// CHECK: arith.mulf %[[S]], %[[AF]] : f32
// CHECK: %[[X1:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 0] [2, 4, 8, 4] [1, 1, 1, 2]
// CHECK: %[[X2:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 1] [2, 4, 8, 4] [1, 1, 1, 2]
// CHECK: %[[VIEW:.+]] = tensor.empty() : tensor<2x4x8x4x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$PAIR]], #[[$PAIR]], #[[$TAB]], #[[$TAB]], {{.+}}]
// CHECK-SAME: ins(%[[X1]], %[[X2]],
// CHECK-SAME: outs(%[[VIEW]] :
// CHECK: linalg.index 4 : index
// CHECK: tensor.collapse_shape
// CHECK-NOT: linalg.copy
func.func @rotary_interleaved(%x: tensor<2x4x8x8xf32>, %f: tensor<4xf32>, %p: tensor<2x8xi64>, %af: f32) -> tensor<2x4x8x8xf32> {
  %y = posenc.rotary %x interleaved dim 8 inv_freq(%f : tensor<4xf32>) positions(%p : tensor<2x8xi64>) attention_factor(%af) : tensor<2x4x8x8xf32>
  return %y : tensor<2x4x8x8xf32>
}

// -----

// Precomputed tables are gathered by position (plus the KV-cache offset).
// CHECK-LABEL: func.func @rotary_tables
// CHECK-SAME: %[[COS:[^:]+]]: tensor<4096x8xbf16>, %[[SIN:[^:]+]]: tensor<4096x8xbf16>, %[[OFF:[^:]+]]: index
// CHECK: %[[OFF64:.+]] = arith.index_cast %[[OFF]] : index to i64
// CHECK: linalg.generic
// CHECK: %[[PAIR:.+]] = linalg.index 1 : index
// CHECK: %[[TOK:.+]] = linalg.index 0 : index
// CHECK: %[[T64:.+]] = arith.index_cast %[[TOK]] : index to i64
// CHECK: %[[POS:.+]] = arith.addi %[[T64]], %[[OFF64]] : i64
// CHECK: %[[ROW:.+]] = arith.index_cast %[[POS]] : i64 to index
// CHECK: tensor.extract %[[COS]][%[[ROW]], %[[PAIR]]] : tensor<4096x8xbf16>
// CHECK: tensor.extract %[[SIN]][%[[ROW]], %[[PAIR]]] : tensor<4096x8xbf16>
func.func @rotary_tables(%x: tensor<1x?x16xf32>, %c: tensor<4096x8xbf16>, %s: tensor<4096x8xbf16>, %off: index) -> tensor<1x?x16xf32> {
  %y = posenc.rotary %x half_split dim 16 cos_sin(%c, %s : tensor<4096x8xbf16>, tensor<4096x8xbf16>) offset(%off : index) : tensor<1x?x16xf32>
  return %y : tensor<1x?x16xf32>
}

// -----

// f32 tables read at offset + token (no positions): the rows are a slice of
// each table from the offset, read in place by the rotation (no gather).
// CHECK-LABEL: func.func @rotary_tables_f32_offset
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x?x16xf32>, %[[COS:[^:]+]]: tensor<4096x8xf32>, %[[SIN:[^:]+]]: tensor<4096x8xf32>, %[[OFF:[^:]+]]: index
// CHECK: %[[S:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<1x?x16xf32>
// CHECK: cf.assert
// CHECK: %[[CR:.+]] = tensor.extract_slice %[[COS]][%{{.+}}, 0] [%[[S]], 8] [1, 1] : tensor<4096x8xf32> to tensor<?x8xf32>
// CHECK: %[[SR:.+]] = tensor.extract_slice %[[SIN]][%{{.+}}, 0] [%[[S]], 8] [1, 1] : tensor<4096x8xf32> to tensor<?x8xf32>
// CHECK-NOT: tensor.extract %
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %{{.+}}, %[[CR]], %[[SR]] :
// CHECK-NOT: tensor.extract %
func.func @rotary_tables_f32_offset(%x: tensor<1x?x16xf32>, %c: tensor<4096x8xf32>, %s: tensor<4096x8xf32>, %off: index) -> tensor<1x?x16xf32> {
  %y = posenc.rotary %x half_split dim 16 cos_sin(%c, %s : tensor<4096x8xf32>, tensor<4096x8xf32>) offset(%off : index) : tensor<1x?x16xf32>
  return %y : tensor<1x?x16xf32>
}

// -----

// M-RoPE (chunked): pair blocks [0,2), [2,5), [5,8) read position axes 0, 1, 2.
// CHECK-LABEL: func.func @mrope_chunked
// CHECK-SAME: %[[P:[^:]+]]: tensor<3x5xi64>
// CHECK: linalg.generic
// CHECK: %[[PAIR:.+]] = linalg.index 1 : index
// CHECK: %[[TOK:.+]] = linalg.index 0 : index
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[GE2:.+]] = arith.cmpi sge, %[[PAIR]], %[[C2]]
// CHECK: %[[A1:.+]] = arith.select %[[GE2]]
// CHECK: %[[C5:.+]] = arith.constant 5 : index
// CHECK: %[[GE5:.+]] = arith.cmpi sge, %[[PAIR]], %[[C5]]
// CHECK: %[[AXIS:.+]] = arith.select %[[GE5]], %{{.+}}, %[[A1]]
// CHECK: tensor.extract %[[P]][%[[AXIS]], %[[TOK]]] : tensor<3x5xi64>
func.func @mrope_chunked(%x: tensor<4x5x16xf32>, %f: tensor<8xf32>, %p: tensor<3x5xi64>) -> tensor<4x5x16xf32> {
  %y = posenc.rotary %x half_split dim 16 inv_freq(%f : tensor<8xf32>) positions(%p : tensor<3x5xi64>) {mrope_sections = array<i64: 2, 3, 3>} : tensor<4x5x16xf32>
  return %y : tensor<4x5x16xf32>
}

// -----

// M-RoPE (interleaved, Qwen3-VL): lane c%3 picks the axis within 3*section.
// CHECK-LABEL: func.func @mrope_interleaved
// CHECK: %[[PAIR:.+]] = linalg.index 1 : index
// CHECK: %[[MOD:.+]] = arith.remui %[[PAIR]], %{{.+}} : index
// CHECK: arith.cmpi eq, %[[MOD]]
// CHECK: arith.cmpi slt, %[[PAIR]]
// CHECK: arith.andi
// CHECK: arith.cmpi eq, %[[MOD]]
// CHECK: arith.cmpi slt, %[[PAIR]]
// CHECK: arith.andi
// CHECK: tensor.extract
func.func @mrope_interleaved(%x: tensor<4x5x16xf32>, %f: tensor<8xf32>, %p: tensor<3x5xi64>) -> tensor<4x5x16xf32> {
  %y = posenc.rotary %x half_split dim 16 inv_freq(%f : tensor<8xf32>) positions(%p : tensor<3x5xi64>) {mrope_sections = array<i64: 2, 3, 3>, mrope_layout = #posenc<mrope_layout interleaved>} : tensor<4x5x16xf32>
  return %y : tensor<4x5x16xf32>
}

// -----

// ALiBi from indices: slopes are constants, bottom-right query positions
// are shifted by Sk - Sq, the symmetric form takes |q - k| in integers, as
// an unsigned value (q >= k ? q - k : k - q) converted unsigned: exact for
// every pair of i64 positions.
// CHECK-LABEL: func.func @alibi_symmetric
// CHECK-DAG: %[[SLOPES:.+]] = arith.constant dense<[6.250000e-02, 1.562500e-02]> : tensor<2xf32>
// CHECK-DAG: %[[SHIFT:.+]] = arith.constant 4 : i64
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[SLOPES]] : tensor<2xf32>)
// CHECK: ^bb0(%[[M:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[I:.+]] = linalg.index 1 : index
// CHECK: %[[I64:.+]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[Q:.+]] = arith.addi %[[I64]], %[[SHIFT]] : i64
// CHECK: %[[J:.+]] = linalg.index 2 : index
// CHECK: %[[K:.+]] = arith.index_cast %[[J]] : index to i64
// CHECK: %[[GE:.+]] = arith.cmpi sge, %[[Q]], %[[K]] : i64
// CHECK: %[[D:.+]] = arith.subi %[[Q]], %[[K]] : i64
// CHECK: %[[ND:.+]] = arith.subi %[[K]], %[[Q]] : i64
// CHECK: %[[A:.+]] = arith.select %[[GE]], %[[D]], %[[ND]] : i64
// CHECK: %[[AF:.+]] = arith.uitofp %[[A]] : i64 to f32
// CHECK: %[[MUL:.+]] = arith.mulf %[[M]], %[[AF]] : f32
// CHECK: arith.negf %[[MUL]] : f32
func.func @alibi_symmetric() -> tensor<2x4x8xf32> {
  %b = posenc.alibi symmetric slopes(<num_heads = 4, head_offset = 1>) : tensor<2x4x8xf32>
  return %b : tensor<2x4x8xf32>
}

// -----

// Key-linear form with padding-aware key positions per batch.
// CHECK-LABEL: func.func @alibi_key_linear
// CHECK-SAME: %[[KP:[^:]+]]: tensor<2x8xi64>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[KP]] : tensor<4xf32>, tensor<2x8xi64>)
// CHECK: ^bb0(%[[M:.+]]: f32, %[[K:.+]]: i64, %{{.+}}: bf16):
// CHECK: %[[KF:.+]] = arith.sitofp %[[K]] : i64 to f32
// CHECK: %[[B:.+]] = arith.mulf %[[M]], %[[KF]] : f32
// CHECK: arith.truncf %[[B]] : f32 to bf16
func.func @alibi_key_linear(%kp: tensor<2x8xi64>) -> tensor<2x4x8x8xbf16> {
  %b = posenc.alibi key_linear slopes(<num_heads = 4>) k_positions(%kp : tensor<2x8xi64>) : tensor<2x4x8x8xbf16>
  return %b : tensor<2x4x8x8xbf16>
}

// -----

// Sinusoidal: per-column fp64 frequency and kind (0 sin, 1 cos, 2 zero).
// CHECK-LABEL: func.func @sinusoidal_concatenated
// CHECK-DAG: arith.constant dense<[1.000000e+00, 0.0099{{[0-9]+}}, 9.99{{[0-9]+}}E-5, 1.000000e+00, 0.0099{{[0-9]+}}, 9.99{{[0-9]+}}E-5, 0.000000e+00]> : tensor<7xf64>
// CHECK-DAG: arith.constant dense<[0, 0, 0, 1, 1, 1, 2]> : tensor<7xi32>
// CHECK: linalg.generic
// CHECK: math.sin
// CHECK: math.cos
// CHECK: arith.select
// CHECK: arith.select
func.func @sinusoidal_concatenated() -> tensor<16x7xf32> {
  %t = posenc.sinusoidal concatenated : tensor<16x7xf32>
  return %t : tensor<16x7xf32>
}

// -----

// Learned absolute: explicit positions are range-checked at run time before
// the gather.
// CHECK-LABEL: func.func @learned_absolute
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x8xbf16>, %[[T:[^:]+]]: tensor<?x8xbf16>, %[[P:[^:]+]]: tensor<2x4xi64>
// CHECK: %[[ROWS:.+]] = tensor.dim %[[T]], %{{.+}} : tensor<?x8xbf16>
// CHECK: %[[OK:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%[[P]] : tensor<2x4xi64>)
// CHECK: %[[FLAG:.+]] = tensor.extract %[[OK]][] : tensor<i1>
// CHECK: cf.assert %[[FLAG]], "posenc.learned_absolute: position outside the learned table
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]], %[[P]] : tensor<2x4x8xbf16>, tensor<2x4xi64>)
// CHECK: tensor.extract %[[T]]
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
func.func @learned_absolute(%x: tensor<2x4x8xbf16>, %t: tensor<?x8xbf16>, %p: tensor<2x4xi64>) -> tensor<2x4x8xbf16> {
  %y = posenc.learned_absolute %x, %t positions(%p : tensor<2x4xi64>) : tensor<2x4x8xbf16>, tensor<?x8xbf16>
  return %y : tensor<2x4x8xbf16>
}

// -----

// Without positions the check is scalar: offset >= 0 and offset + S <= P.
// CHECK-LABEL: func.func @learned_absolute_offset
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sle
// CHECK: cf.assert
func.func @learned_absolute_offset(%x: tensor<1x?x8xf32>, %t: tensor<64x8xf32>, %o: index) -> tensor<1x?x8xf32> {
  %y = posenc.learned_absolute %x, %t offset(%o : index) : tensor<1x?x8xf32>, tensor<64x8xf32>
  return %y : tensor<1x?x8xf32>
}

// -----

// Attention: GQA as a [B, Hkv, G, S, D] view of q and the result, so every
// indexing map is a projected permutation (no floordiv: tiling and hosts can
// split any dim); causal mask and ALiBi from positions, softmax, PV; RoPE is
// applied to q and k first.
// CHECK-DAG: #[[$QMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>
// CHECK-DAG: #[[$KMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-DAG: #[[$SMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[$VMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d4)>
// CHECK-DAG: #[[$SLOPES:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>
// CHECK-LABEL: func.func @attention
// CHECK-NOT: posenc.
// CHECK: math.cos
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 4, 4, 16] : tensor<1x8x4x16xf32> into tensor<1x2x4x4x16xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$QMAP]], #[[$KMAP]], #[[$SMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[$SLOPES]], #{{.+}}]
// CHECK: arith.cmpi sgt
// CHECK: arith.select
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: linalg.generic {indexing_maps = [#[[$QMAP]], #[[$VMAP]], #[[$SMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK: %[[OUT:.+]] = linalg.generic
// CHECK: tensor.collapse_shape %[[OUT]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x4x4x8xf32> into tensor<1x8x4x8xf32>
func.func @attention(%q: tensor<1x8x4x16xf32>, %k: tensor<1x2x6x16xf32>, %v: tensor<1x2x6x8xf32>, %f: tensor<8xf32>) -> tensor<1x8x4x8xf32> {
  %o = posenc.attention %q, %k, %v causal rope(<layout = half_split, rotary_dim = 16>, %f : tensor<8xf32>) alibi(<num_heads = 8>) : tensor<1x8x4x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x8xf32> -> tensor<1x8x4x8xf32>
  return %o : tensor<1x8x4x8xf32>
}

// -----

// Attention sinks (gpt-oss): [Hq] viewed as [Hkv, G] like the heads; the row
// max starts from the sinks broadcast to the rows and the row sum from
// exp(sink - max) (0 where max = -inf); the sink column has no value row, so
// the scores and PV do not change.
// CHECK-DAG: #[[$SINKS:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @attention_sinks
// CHECK-SAME: %[[S:[^:]+]]: tensor<8xf32>)
// CHECK: %[[GS:.+]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x4x3x5xf32>)
// CHECK: %[[LOGITS:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x4x3x5xf32>)
// CHECK: %[[SR:.+]] = linalg.generic {indexing_maps = [#[[$SINKS]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[GS]] : tensor<2x4xf32>) outs(%{{.+}} : tensor<1x2x4x3xf32>)
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} ins(%[[LOGITS]] : tensor<1x2x4x3x5xf32>) outs(%[[SR]] : tensor<1x2x4x3xf32>)
// CHECK: arith.maximumf
// CHECK: %[[EXPS:.+]] = linalg.generic {{.*}} ins(%[[LOGITS]], %[[MAX]] : tensor<1x2x4x3x5xf32>, tensor<1x2x4x3xf32>)
// CHECK: %[[E:.+]] = linalg.generic {indexing_maps = [#[[$SINKS]], #{{.+}}, #{{.+}}], {{.*}} ins(%[[GS]], %[[MAX]] : tensor<2x4xf32>, tensor<1x2x4x3xf32>) outs(%{{.+}} : tensor<1x2x4x3xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[EXPS]] : tensor<1x2x4x3x5xf32>) outs(%[[E]] : tensor<1x2x4x3xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[EXPS]], %[[SUM]] : tensor<1x2x4x3x5xf32>, tensor<1x2x4x3xf32>)
// CHECK: arith.divf
func.func @attention_sinks(%q: tensor<1x8x3x16xf32>, %k: tensor<1x2x5x16xf32>, %v: tensor<1x2x5x8xf32>, %s: tensor<8xf32>) -> tensor<1x8x3x8xf32> {
  %o = posenc.attention %q, %k, %v causal sinks(%s : tensor<8xf32>) : tensor<1x8x3x16xf32>, tensor<1x2x5x16xf32>, tensor<1x2x5x8xf32> -> tensor<1x8x3x8xf32>
  return %o : tensor<1x8x3x8xf32>
}

// -----

// key_lengths (issue 24): the logits read each sequence's length (a batch
// map), clamp it to [0, Sk] and mask keys whose index is at or past it.
// CHECK-LABEL: func.func @attention_key_lengths
// CHECK-SAME: %[[LEN:[^:]+]]: tensor<2xi64>)
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %[[LEN]] : tensor<2x2x2x3x5xf32>, tensor<2xi64>)
// CHECK-NEXT: ^bb0(%[[S:[^:]+]]: f32, %[[L:[^:]+]]: i64,
// CHECK: %[[LI:.+]] = arith.index_cast %[[L]] : i64 to index
// CHECK: %[[HI:.+]] = arith.minsi %[[LI]], %{{.+}} : index
// CHECK: %[[LIMIT:.+]] = arith.maxsi %[[HI]], %{{.+}} : index
// CHECK: %[[PAST:.+]] = arith.cmpi sge, %{{.+}}, %[[LIMIT]] : index
// CHECK: %[[SCALED:.+]] = arith.mulf %[[S]], %{{.+}} : f32
// CHECK: arith.select %[[PAST]], %{{.+}}, %[[SCALED]] : f32
func.func @attention_key_lengths(%q: tensor<2x4x3x8xf32>, %k: tensor<2x2x5x8xf32>, %v: tensor<2x2x5x8xf32>, %len: tensor<2xi64>) -> tensor<2x4x3x8xf32> {
  %o = posenc.attention %q, %k, %v key_lengths(%len : tensor<2xi64>) : tensor<2x4x3x8xf32>, tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32> -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}
