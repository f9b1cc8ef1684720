// A function with two results of different element types: the row sums of
// x (f64, through a temporary buffer) and x > 0 counted per row (i32).
// REQUIRES: numpy

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.random.default_rng(3).standard_normal((6, 5)))"
// RUN: posenc-run %s --inputs=%t/x.npy --output=0=%t/sum.npy --output=1=%t/pos.npy --iterations=1
// RUN: %python %S/Inputs/check_npy.py %t/sum.npy x=%t/x.npy --dtype='<f8' --expect='(2 * x).sum(axis=1)' --rtol=1e-12 --atol=1e-12
// RUN: %python %S/Inputs/check_npy.py %t/pos.npy x=%t/x.npy --dtype='<i4' --expect='(x > 0).sum(axis=1)'

func.func @two(%x: tensor<6x5xf64>) -> (tensor<6xf64>, tensor<6xi32>) {
  %e = tensor.empty() : tensor<6x5xf64>
  // A temporary the runner does not own: bufferization allocates and frees it.
  %twice = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x5xf64>) outs(%e : tensor<6x5xf64>) {
  ^bb0(%v: f64, %o: f64):
    %d = arith.addf %v, %v : f64
    linalg.yield %d : f64
  } -> tensor<6x5xf64>
  %zf = arith.constant 0.0 : f64
  %zi = arith.constant 0 : i32
  %sum0 = tensor.empty() : tensor<6xf64>
  %cnt0 = tensor.empty() : tensor<6xi32>
  %sumi = linalg.fill ins(%zf : f64) outs(%sum0 : tensor<6xf64>) -> tensor<6xf64>
  %cnti = linalg.fill ins(%zi : i32) outs(%cnt0 : tensor<6xi32>) -> tensor<6xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%twice, %x : tensor<6x5xf64>, tensor<6x5xf64>) outs(%sumi, %cnti : tensor<6xf64>, tensor<6xi32>) {
  ^bb0(%t: f64, %v: f64, %s: f64, %c: i32):
    %ns = arith.addf %s, %t : f64
    %pos = arith.cmpf ogt, %v, %zf : f64
    %one = arith.extui %pos : i1 to i32
    %nc = arith.addi %c, %one : i32
    linalg.yield %ns, %nc : f64, i32
  } -> (tensor<6xf64>, tensor<6xi32>)
  return %r#0, %r#1 : tensor<6xf64>, tensor<6xi32>
}
