// --dump-llvm writes the optimized LLVM IR the JIT compiles: the kernel's
// vectors (vector-width 16 -> <16 x float>) and the C-interface wrapper the
// runner calls, in a file llc and llvm-mca can read.
// RUN: posenc-run %s --iterations=1 --warmup=0 --dump-llvm=%t.ll | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.ll
// RUN: llc -O3 %t.ll -o /dev/null
// RUN: not posenc-run %s --dump-llvm=%t.missing/dir/x.ll 2>&1 | FileCheck %s --check-prefix=BAD

// OUT: RESULT entry=scale
// CHECK: define {{.*}}void @_mlir_ciface___posenc_run_entry
// CHECK: fmul <16 x float>
// BAD: cannot write '{{.+}}x.ll'

func.func @scale(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 3.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}
