// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(convert-posenc-to-linalg, func.func(posenc-tile-and-vectorize))" | FileCheck %s
// RUN: posenc-opt %s --split-input-file --pass-pipeline="builtin.module(convert-posenc-to-linalg, func.func(posenc-tile-and-vectorize{vector-width=7}))" | FileCheck %s --check-prefix=W7
//
// posenc-tile-and-vectorize on inputs found by posenc-pass-fuzzer. posenc-opt
// verifies after the pass: each case failed that check (or crashed) before
// its fix.

// linalg::vectorize was called with an empty scalable-dims list, and read one
// flag per vector dimension from it: uninitialized memory, random scalable
// dims (`vector<[1]xf32>`), IR that failed to verify in most runs.
// CHECK-LABEL: func.func @sinusoidal_concatenated
// CHECK: scf.for
// CHECK-NOT: {{vector<[^>]*\[}}
// CHECK: vector.transfer_write
// W7-LABEL: func.func @sinusoidal_concatenated
// W7: vector.transfer_write
func.func @sinusoidal_concatenated() -> tensor<16x7xf32> {
  %t = posenc.sinusoidal concatenated : tensor<16x7xf32>
  return %t : tensor<16x7xf32>
}

// -----

// A remainder tile (8 = 7 + 1) needs masks, and MLIR 22 masks a vectorized
// tensor.extract with a mask of the wrong shape ('vector.mask' op expects a
// 'vector<1x7xi1>' mask). Such tiles stay scalar.
// W7-LABEL: func.func @learned_absolute_remainder_tile
// W7: scf.for
// W7-NOT: vector.mask
// W7: linalg.generic
// W7: tensor.extract
func.func @learned_absolute_remainder_tile(%x: tensor<1x?x8xf32>, %t: tensor<64x8xf32>, %o: index) -> tensor<1x?x8xf32> {
  %y = posenc.learned_absolute %x, %t offset(%o : index) : tensor<1x?x8xf32>, tensor<64x8xf32>
  return %y : tensor<1x?x8xf32>
}

// -----

// An empty iteration space (static extent 0): tiling it crashed in
// linalg::computeTileSizes. Nothing to compute, so the op is left alone.
// CHECK-LABEL: func.func @learned_absolute_empty
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @learned_absolute_empty(%x: tensor<1x?x0xf32>, %t: tensor<128x0xf32>, %o: index) -> tensor<1x?x0xf32> {
  %y = posenc.learned_absolute %x, %t offset(%o : index) : tensor<1x?x0xf32>, tensor<128x0xf32>
  return %y : tensor<1x?x0xf32>
}

// -----

// A static reduction of 2^17 elements would become one 2^17-lane vector
// (vectorization builds IR proportional to it): tiles beyond 2^12 elements
// stay scalar.
// CHECK-LABEL: func.func @long_reduction
// CHECK: scf.for
// CHECK-NOT: vector.
// CHECK: linalg.generic
func.func @long_reduction(%in: tensor<4x131072xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%in : tensor<4x131072xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Found by posenc-pass-fuzzer (posenc-cpu-pipeline, over the 20 s timeout):
// the positions bounds check is a reduction over every position, left whole,
// and became one vector<65536xi1>. The CPU pipeline unrolls a vectorized
// reduction into an op per element, which upstream's convert-vector-to-llvm
// handles in quadratic time: minutes for this function. Reductions whose
// tile exceeds 2^12 elements stay scalar.
// CHECK-LABEL: func.func @learned_absolute_many_positions
// CHECK-NOT: vector<65536x
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK: cf.assert
func.func @learned_absolute_many_positions(%x: tensor<65536x65536xf32>, %t: tensor<?x65536xf32>, %p: tensor<65536xindex>) -> tensor<65536x65536xf32> {
  %y = posenc.learned_absolute %x, %t positions(%p : tensor<65536xindex>) : tensor<65536x65536xf32>, tensor<?x65536xf32>
  return %y : tensor<65536x65536xf32>
}

// -----

// The same for 16 lanes x 4096 reduction elements (2^16), the shape of the
// softmax reductions of posenc.attention over 4096 keys (minutes in
// posenc-cpu-pipeline before); 16 x 256 (2^12) is still vectorized.
// CHECK-LABEL: func.func @lanes_times_reduction
// CHECK: scf.for
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK-LABEL: func.func @lanes_times_reduction_at_cap
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} vector<16x256xf32>
func.func @lanes_times_reduction(%in: tensor<64x4096xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%in : tensor<64x4096xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.maximumf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

func.func @lanes_times_reduction_at_cap(%in: tensor<64x256xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%in : tensor<64x256xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.maximumf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// One row high (blocks of a few elements, or a [1, N] op): 1 lane x 4096
// reduction elements is within the element cap, but would unroll into 4096
// dependent scalar ops in one block, which LLVM's JIT took over a minute to
// compile (found by fuzz/semantic_check.py through posenc-cpu-pipeline with
// block-elements=1000). Reductions unroll at most 256 steps.
// CHECK-LABEL: func.func @one_row_long_reduction
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK-LABEL: func.func @one_row_reduction_at_cap
// CHECK: vector.multi_reduction <maximumf>, %{{.+}}, %{{.+}} [1] : vector<1x256xf32> to vector<1xf32>
func.func @one_row_long_reduction(%in: tensor<1x4096xf32>, %init: tensor<1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%in : tensor<1x4096xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.maximumf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}

func.func @one_row_reduction_at_cap(%in: tensor<1x256xf32>, %init: tensor<1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%in : tensor<1x256xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.maximumf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}

// -----

// math.absi vectorized to a 2-D vector (symmetric ALiBi's |i - j|): MLIR 22's
// math-to-llvm lowers absi on scalars and 1-D vectors only, so the pass
// expands it to maxsi(x, 0 - x) (fuzz finding R7; executed in
// test/Integration/exec-vector-absi.test).
// CHECK-LABEL: func.func @absi_2d
// CHECK-NOT: math.absi
// CHECK: %[[D:.+]] = arith.subi %{{.+}}, %{{.+}} : vector<[[V:[0-9]+x8]]xi64>
// CHECK: %[[N:.+]] = arith.subi %{{.+}}, %[[D]] : vector<[[V]]xi64>
// CHECK: arith.maxsi %[[D]], %[[N]] : vector<[[V]]xi64>
// CHECK-NOT: math.absi
func.func @absi_2d(%init: tensor<4x8xi64>) -> tensor<4x8xi64> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%init : tensor<4x8xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %j64, %i64 : i64
    %a = math.absi %d : i64
    linalg.yield %a : i64
  } -> tensor<4x8xi64>
  return %r : tensor<4x8xi64>
}

// -----

// bf16 vector compares compare the operands widened to f32 by their bits:
// LLVM 22 aborts in x86 instruction selection on a 16-lane bf16 fcmp whose
// mask is extended to i16 on AVX-512 BF16 hosts, and InstCombine would fold
// an fpext back into the bf16 compare (D14; executed in
// test/Integration/exec-bf16-vector-compares.test).
// CHECK-LABEL: func.func @bf16_compare
// CHECK: %[[SHIFT:.+]] = arith.constant dense<16> : vector<16xi32>
// CHECK: %[[AI:.+]] = arith.bitcast %{{.+}} : vector<16xbf16> to vector<16xi16>
// CHECK: %[[AW:.+]] = arith.extui %[[AI]] : vector<16xi16> to vector<16xi32>
// CHECK: %[[AS:.+]] = arith.shli %[[AW]], %[[SHIFT]] : vector<16xi32>
// CHECK: %[[A:.+]] = arith.bitcast %[[AS]] : vector<16xi32> to vector<16xf32>
// CHECK: %[[B:.+]] = arith.bitcast %{{.+}} : vector<16xi32> to vector<16xf32>
// CHECK: %[[C:.+]] = arith.cmpf ole, %[[A]], %[[B]] : vector<16xf32>
// CHECK: arith.extsi %[[C]] : vector<16xi1> to vector<16xi16>
// CHECK-NOT: arith.cmpf {{.*}}bf16
// Scalar bf16 compares (7-lane bf16 tiles stay scalar, D3) are left as they
// are.
// W7-LABEL: func.func @bf16_compare
// W7-NOT: vector<
// W7: arith.cmpf ole, %{{.+}}, %{{.+}} : bf16
func.func @bf16_compare(%a: tensor<30x31xbf16>, %b: tensor<30x31xbf16>) -> tensor<30x31xi16> {
  %e = tensor.empty() : tensor<30x31xi16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<30x31xbf16>, tensor<30x31xbf16>) outs(%e : tensor<30x31xi16>) {
  ^bb0(%x: bf16, %y: bf16, %o: i16):
    %c = arith.cmpf ole, %x, %y : bf16
    %s = arith.extsi %c : i1 to i16
    linalg.yield %s : i16
  } -> tensor<30x31xi16>
  return %g : tensor<30x31xi16>
}
