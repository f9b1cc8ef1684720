// RUN: posenc-opt %s --posenc-to-linalg-pipeline | FileCheck %s
// RUN: posenc-opt %s --posenc-to-linalg-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{anchor= fold-frequencies=false cleanup=false flash-attention=false})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{anchor=})" | FileCheck %s
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{flash-attention=false})" | FileCheck %s
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{attention-min-scores=0})" | FileCheck %s --check-prefix=FLASH
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{attention-min-scores=0 attention-forall-to-for=false})" | FileCheck %s --check-prefix=FORALL
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{attention-query-tile=5 attention-key-tile=3 attention-prerotate-keys=true attention-min-scores=7 cleanup=false})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLASH-PIPELINE
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{attention-forall-to-for=false})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FOR

// The documented stopping point: linalg on tensors, no posenc op, nothing
// bufferized or lowered past linalg. Attention is the flash loop nest
// (posenc-tile-attention with the host tiles, 512 x 512, and attentions of
// fewer than 2^22 scores left to the reference decomposition), its
// scf.forall rewritten into scf.for after the cleanup (which makes the
// forall's outputs static), then cleaned up again.
// DEFAULT: builtin.module(
// DEFAULT-NEXT: func.func(
// DEFAULT-NEXT: posenc-fold-frequencies,
// DEFAULT-NEXT: posenc-tile-attention{{[{]}}bf16-dot-products=false decode-chunk={{[0-9]+}} decode-rows={{[0-9]+}} key-tile=512 min-scores=4194304 prerotate-keys=false query-tile=512 vector-width=0},
// DEFAULT-NEXT: convert-posenc-to-linalg,
// DEFAULT-NEXT: canonicalize{
// DEFAULT-NEXT: cse,
// DEFAULT-NEXT: posenc-forall-to-for,
// DEFAULT-NEXT: canonicalize{
// DEFAULT-NEXT: cse
// DEFAULT-NEXT: )
// The attention-* options reach posenc-tile-attention; without cleanup the
// forall is still rewritten.
// FLASH-PIPELINE: builtin.module(
// FLASH-PIPELINE-NEXT: func.func(
// FLASH-PIPELINE-NEXT: posenc-fold-frequencies,
// FLASH-PIPELINE-NEXT: posenc-tile-attention{{[{]}}bf16-dot-products=false decode-chunk={{[0-9]+}} decode-rows={{[0-9]+}} key-tile=3 min-scores=7 prerotate-keys=true query-tile=5 vector-width=0},
// FLASH-PIPELINE-NEXT: convert-posenc-to-linalg,
// FLASH-PIPELINE-NEXT: posenc-forall-to-for
// FLASH-PIPELINE-NEXT: )
// attention-forall-to-for=false keeps the forall (posenc-cpu-pipeline's
// setting).
// NO-FOR: posenc-tile-attention
// NO-FOR-NOT: posenc-forall-to-for
// NO-FOR: cse
// NO-FOR-NEXT: )
// flash-attention=false (and an empty anchor) is the plain conversion.
// ANY: builtin.module(
// ANY-NEXT: any(
// ANY-NEXT: convert-posenc-to-linalg
// ANY-NEXT: )

// CHECK-LABEL: func.func @block
// CHECK-NOT: posenc.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// CHECK: linalg.generic
// 2 x 4 x 16 x 16 scores, below attention-min-scores (and with
// flash-attention=false): the reference decomposition, no loop nest.
// CHECK-NOT: scf.
// CHECK: return %{{.+}} : tensor<1x4x16x8xf32>
// attention-min-scores=0: the attention is the flash loop nest as scf.for
// over the kv heads (the unit batch loop folds away) with blocks of G = 2
// query heads x a query tile, the causal mask and the online softmax
// inside (one key tile here: the key loop folds away); each block is
// inserted into the loop-carried output. Every posenc op is lowered.
// FLASH-LABEL: func.func @block
// FLASH-NOT: = posenc.
// FLASH-NOT: scf.forall
// FLASH: %[[OUT:.+]] = scf.for %[[H:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<1x2x2x16x8xf32>)
// FLASH-NOT: = posenc.
// FLASH: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]}
// FLASH: arith.cmpi sgt
// FLASH: math.exp
// FLASH: arith.divf
// FLASH: %[[INS:.+]] = tensor.insert_slice %{{.+}} into %[[ACC]][0, %[[H]], 0, 0, 0] [1, 1, 2, 16, 8] [1, 1, 1, 1, 1]
// FLASH-NEXT: scf.yield %[[INS]] : tensor<1x2x2x16x8xf32>
// FLASH-NOT: scf.forall
// FLASH: %[[RES:.+]] = tensor.collapse_shape %[[OUT]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
// FLASH-NOT: = posenc.
// FLASH-NOT: memref.
// FLASH: return %[[RES]] : tensor<1x4x16x8xf32>
// attention-forall-to-for=false: the nest's scf.forall, as
// posenc-cpu-pipeline gets it.
// FORALL-LABEL: func.func @block
// FORALL-NOT: scf.for
// FORALL: %[[OUT:.+]] = scf.forall ({{.+}}) in ({{.+}}) shared_outs({{.+}}) -> (tensor<1x2x2x16x8xf32>)
// FORALL: math.exp
// FORALL: tensor.parallel_insert_slice
// FORALL: %[[RES:.+]] = tensor.collapse_shape %[[OUT]]
// FORALL: return %[[RES]] : tensor<1x4x16x8xf32>
func.func @block(%q: tensor<1x4x16x8xf32>, %k: tensor<1x2x16x8xf32>,
                 %v: tensor<1x2x16x8xf32>) -> tensor<1x4x16x8xf32> {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0
      scaling(#posenc.linear<factor = 2.0>) : tensor<4xf32>, f32
  %qr = posenc.rotary %q half_split dim 8 inv_freq(%inv : tensor<4xf32>)
      attention_factor(%af) : tensor<1x4x16x8xf32>
  %kr = posenc.rotary %k half_split dim 8 inv_freq(%inv : tensor<4xf32>)
      attention_factor(%af) : tensor<1x2x16x8xf32>
  %o = posenc.attention %qr, %kr, %v causal
      : tensor<1x4x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
      -> tensor<1x4x16x8xf32>
  return %o : tensor<1x4x16x8xf32>
}
