// Arguments without a .npy file get seeded random data: floats uniform in
// [-1, 1), integers uniform in [0, --int-max). The same seed gives the same
// data; another seed gives other data.
// REQUIRES: numpy

// RUN: rm -rf %t && mkdir -p %t
// RUN: posenc-run %s --seed=11 --outputs-dir=%t/a --iterations=1
// RUN: posenc-run %s --seed=11 --outputs-dir=%t/b --iterations=1
// RUN: posenc-run %s --seed=12 --outputs-dir=%t/c --iterations=1
// RUN: posenc-run %s --seed=11 --int-max=3 --outputs-dir=%t/d --iterations=1
// RUN: %python %S/Inputs/check_random_inputs.py %t

func.func @identity(%f32: tensor<64x64xf32>, %f64: tensor<4096xf64>, %f16: tensor<4096xf16>,
                    %bf16: tensor<4096xbf16>, %i32: tensor<4096xi32>, %i64: tensor<4096xi64>)
    -> (tensor<64x64xf32>, tensor<4096xf64>, tensor<4096xf16>, tensor<4096xbf16>, tensor<4096xi32>, tensor<4096xi64>) {
  return %f32, %f64, %f16, %bf16, %i32, %i64
      : tensor<64x64xf32>, tensor<4096xf64>, tensor<4096xf16>, tensor<4096xbf16>, tensor<4096xi32>, tensor<4096xi64>
}
