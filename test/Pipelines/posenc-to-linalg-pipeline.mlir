// RUN: posenc-opt %s --posenc-to-linalg-pipeline | FileCheck %s
// RUN: posenc-opt %s --posenc-to-linalg-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{anchor= fold-frequencies=false cleanup=false})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{anchor=})" | FileCheck %s
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{flash-attention=true})" | FileCheck %s --check-prefix=FLASH
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{flash-attention=true attention-query-tile=5 attention-key-tile=3 attention-prerotate-keys=true})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLASH-PIPELINE

// The documented stopping point: linalg on tensors, no posenc op, nothing
// bufferized or lowered past linalg.
// DEFAULT: builtin.module(
// DEFAULT-NEXT: func.func(
// DEFAULT-NEXT: posenc-fold-frequencies,
// DEFAULT-NEXT: convert-posenc-to-linalg,
// DEFAULT-NEXT: canonicalize{
// DEFAULT-NEXT: cse
// DEFAULT-NEXT: )
// flash-attention=true: posenc-tile-attention (with the attention-* options)
// runs before the conversion, which lowers the posenc.rotary ops it emits.
// FLASH-PIPELINE: builtin.module(
// FLASH-PIPELINE-NEXT: func.func(
// FLASH-PIPELINE-NEXT: posenc-fold-frequencies,
// FLASH-PIPELINE-NEXT: posenc-tile-attention{{[{]}}decode-chunk={{[0-9]+}} decode-rows={{[0-9]+}} key-tile=3 prerotate-keys=true query-tile=5 vector-width=0},
// FLASH-PIPELINE-NEXT: convert-posenc-to-linalg,
// FLASH-PIPELINE-NEXT: canonicalize{
// FLASH-PIPELINE-NEXT: cse
// FLASH-PIPELINE-NEXT: )
// An empty anchor nests on every isolated-from-above op (IREE's util.func).
// ANY: builtin.module(
// ANY-NEXT: any(
// ANY-NEXT: convert-posenc-to-linalg
// ANY-NEXT: )

// CHECK-LABEL: func.func @block
// CHECK-NOT: posenc.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// CHECK: linalg.generic
// The default stays the reference decomposition: no loop nest.
// CHECK-NOT: scf.forall
// CHECK: return %{{.+}} : tensor<1x4x16x8xf32>
// flash-attention=true: the attention is one scf.forall over blocks of
// G = 2 query heads x a query tile, with the causal mask and the online
// softmax inside (one key tile here: the key loop folds away); every posenc
// op is lowered.
// FLASH-LABEL: func.func @block
// FLASH-NOT: = posenc.
// FLASH: %[[OUT:.+]] = scf.forall ({{.+}}) in ({{.+}}) shared_outs({{.+}}) -> (tensor<1x2x2x16x8xf32>)
// FLASH-NOT: = posenc.
// FLASH: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]}
// FLASH: arith.cmpi sgt
// FLASH: math.exp
// FLASH: arith.divf
// FLASH: tensor.parallel_insert_slice
// FLASH-NOT: = posenc.
// FLASH: %[[RES:.+]] = tensor.collapse_shape %[[OUT]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
// FLASH-NOT: = posenc.
// FLASH-NOT: memref.
// FLASH: return %[[RES]] : tensor<1x4x16x8xf32>
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
