// linalg.matmul on 16x32 and 32x8 f32 tensors, inputs given per index.
// REQUIRES: numpy

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(1); np.save('%t/a.npy', r.uniform(-1, 1, (16, 32)).astype(np.float32)); np.save('%t/b.npy', r.uniform(-1, 1, (32, 8)).astype(np.float32))"
// RUN: posenc-run %s --input=1=%t/b.npy --input=0=%t/a.npy --outputs-dir=%t/out --iterations=2 --flops=8192 | FileCheck %s
// RUN: %python %S/Inputs/check_npy.py %t/out/out0.npy a=%t/a.npy b=%t/b.npy --dtype='<f4' --expect='a.astype(np.float64) @ b' --rtol=1e-5 --atol=1e-5

// CHECK: RESULT entry=matmul median_ms={{.*}} gflops=

func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}
