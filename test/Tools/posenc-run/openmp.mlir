// Code lowered through the omp dialect runs on libomp, which the runner
// loads on its own when the lowered module contains omp ops; --threads sets
// OMP_NUM_THREADS.
// REQUIRES: numpy, libomp

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(2); [np.save('%t/' + n + '.npy', r.standard_normal((64, 32)).astype(np.float32)) for n in 'ab']"
// RUN: posenc-run %s --threads=2 --inputs=%t/a.npy,%t/b.npy --output=0=%t/r.npy --iterations=3 --dump-ir \
// RUN:   --pipeline='inline, eliminate-empty-tensors, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, canonicalize, buffer-deallocation-pipeline, func.func(convert-linalg-to-parallel-loops), convert-scf-to-openmp, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, convert-openmp-to-llvm, reconcile-unrealized-casts' \
// RUN:   2>&1 | FileCheck %s
// RUN: %python %S/Inputs/check_npy.py %t/r.npy a=%t/a.npy b=%t/b.npy --dtype='<f4' --expect='np.maximum(a, b)'

// CHECK-LABEL: posenc-run: lowered module
// CHECK: omp.parallel
// CHECK: RESULT entry=max

func.func @max(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.maximumf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
