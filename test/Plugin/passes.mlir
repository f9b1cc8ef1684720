// posenc's passes and pipelines in stock mlir-opt, through --pass-pipeline
// (plugin passes are registered after the command line is parsed, so they
// have no --flag of their own).
// RUN: %mlir_opt_plugin %s --pass-pipeline="builtin.module(func.func(posenc-fold-frequencies))" | FileCheck %s --check-prefix=FOLD
// RUN: %mlir_opt_plugin %s --pass-pipeline="builtin.module(convert-posenc-to-linalg)" | FileCheck %s --check-prefix=LOWER
// RUN: %mlir_opt_plugin %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline)" | FileCheck %s --check-prefix=PIPE
// RUN: %mlir_opt_plugin %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline{fold-frequencies=false cleanup=false})" --mlir-print-ir-before-all 2>&1 >/dev/null | FileCheck %s --check-prefix=OPTS
// RUN: %mlir_opt_plugin %s --pass-pipeline="builtin.module(posenc-to-linalg-pipeline,func.func(posenc-tile-and-vectorize{vector-width=4 block-elements=8}))" | FileCheck %s --check-prefix=TILE
// RUN: %mlir_opt_plugin %s --pass-pipeline="builtin.module(posenc-cpu-pipeline{openmp=false})" | FileCheck %s --check-prefix=CPU

// FOLD-LABEL: func.func @rope
// FOLD: arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// FOLD-NOT: posenc.rope_frequencies
// FOLD: posenc.rotary

// LOWER-LABEL: func.func @rope
// LOWER-NOT: posenc.
// LOWER: linalg.generic
// LOWER: math.cos

// PIPE-LABEL: func.func @rope
// PIPE-DAG: arith.constant dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>
// PIPE-NOT: posenc.
// PIPE: linalg.generic
// PIPE: return

// The options reach the passes: no folding, no cleanup.
// OPTS: IR Dump Before ConvertPosEncToLinalg
// OPTS-NOT: IR Dump Before PosEncFoldFrequencies
// OPTS-NOT: IR Dump Before Canonicalizer

// TILE-LABEL: func.func @rope
// TILE: scf.forall
// TILE: scf.for

// The whole CPU pipeline runs in stock mlir-opt too.
// CPU: llvm.func @rope(
// CPU-NOT: posenc.
func.func @rope(%x: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0 : tensor<4xf32>, f32
  %y = posenc.rotary %x half_split dim 8 inv_freq(%inv : tensor<4xf32>)
      attention_factor(%af) : tensor<1x2x4x8xf32>
  return %y : tensor<1x2x4x8xf32>
}

// Nested under func.func, a lowering pipeline is an error naming the anchor
// (upstream's OpPassManager aborted the process; issue 22 item 4).
// RUN: sh -c "%mlir_opt_plugin %s --pass-pipeline='builtin.module(func.func(posenc-cpu-pipeline))'; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: 'posenc-cpu-pipeline' lowers whole modules and must be anchored on 'builtin.module', not on 'func.func'
// ANCHOR: rc=1
