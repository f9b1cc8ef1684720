// RUN: posenc-opt %s --posenc-to-linalg-pipeline | FileCheck %s
// RUN: posenc-opt %s --posenc-to-linalg-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{anchor= fold-frequencies=false cleanup=false})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: posenc-opt %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{anchor=})" | FileCheck %s

// The documented stopping point: linalg on tensors, no posenc op, nothing
// bufferized or lowered past linalg.
// DEFAULT: builtin.module(
// DEFAULT-NEXT: func.func(
// DEFAULT-NEXT: posenc-fold-frequencies,
// DEFAULT-NEXT: convert-posenc-to-linalg,
// DEFAULT-NEXT: canonicalize{
// DEFAULT-NEXT: cse
// DEFAULT-NEXT: )
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
// CHECK: return %{{.+}} : tensor<1x4x16x8xf32>
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
