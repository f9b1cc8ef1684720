// i64 positions in, RoPE-style angles out: out[s, j] = sin(pos[s] * f[j])
// with math.sin. Positions are random integers from the runner
// (--int-max) and are written back out for the check.
// REQUIRES: numpy

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/f.npy', (10000.0 ** -(np.arange(8) / 8)).astype(np.float32))"
// RUN: posenc-run %s --input=1=%t/f.npy --int-max=2048 --seed=5 --outputs-dir=%t --iterations=1
// RUN: %python %S/Inputs/check_npy.py %t/out0.npy p=%t/out1.npy f=%t/f.npy --dtype='<f4' --expect='np.sin((p[:, None].astype(np.float32) * f).astype(np.float64))' --rtol=0 --atol=2e-6

func.func @angles(%pos: tensor<16xi64>, %f: tensor<8xf32>) -> (tensor<16x8xf32>, tensor<16xi64>) {
  %e = tensor.empty() : tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(s, j) -> (s)>, affine_map<(s, j) -> (j)>, affine_map<(s, j) -> (s, j)>],
      iterator_types = ["parallel", "parallel"]} ins(%pos, %f : tensor<16xi64>, tensor<8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%p: i64, %fj: f32, %o: f32):
    %pf = arith.sitofp %p : i64 to f32
    %a = arith.mulf %pf, %fj : f32
    %s = math.sin %a : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %r, %pos : tensor<16x8xf32>, tensor<16xi64>
}
