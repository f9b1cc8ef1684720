// Positions index rows of tables at run time: a position outside the table
// is a runtime error (cf.assert), never an out-of-bounds read. posenc.rotary
// with cos/sin tables had no check at all; posenc.learned_absolute's check
// formed offset + tokens, which wraps for an offset near 2^63 and passed.
// REQUIRES: numpy

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.ones((1, 2, 4, 8), np.float32)); np.save('%t/t.npy', np.ones((4, 4), np.float32)); np.save('%t/ok.npy', np.array([0, 1, 2, 3], np.int64)); np.save('%t/bad.npy', np.array([0, 1, 2, 4], np.int64))"
// RUN: posenc-run %s --entry=rotary_tables --inputs=%t/x.npy,%t/t.npy,%t/t.npy,%t/ok.npy --iterations=1 --warmup=0 > /dev/null
// RUN: not posenc-run %s --entry=rotary_tables --inputs=%t/x.npy,%t/t.npy,%t/t.npy,%t/bad.npy --iterations=1 --warmup=0 2>&1 | FileCheck %s --check-prefix=ROTARY
// ROTARY: posenc.rotary: position outside the cos/sin tables
func.func @rotary_tables(%x: tensor<1x2x4x8xf32>, %cos: tensor<4x4xf32>, %sin: tensor<4x4xf32>, %p: tensor<4xi64>) -> tensor<1x2x4x8xf32> {
  %y = posenc.rotary %x half_split dim 8 cos_sin(%cos, %sin : tensor<4x4xf32>, tensor<4x4xf32>) positions(%p : tensor<4xi64>) : tensor<1x2x4x8xf32>
  return %y : tensor<1x2x4x8xf32>
}

// RUN: %python -c "import numpy as np; np.save('%t/y.npy', np.ones((1, 4, 8), np.float32)); np.save('%t/w.npy', np.ones((16, 8), np.float32)); np.save('%t/o0.npy', np.array(12, np.int64)); np.save('%t/o1.npy', np.array(13, np.int64)); np.save('%t/huge.npy', np.array(2**63 - 2, np.int64))"
// RUN: posenc-run %s --entry=learned_offset --inputs=%t/y.npy,%t/w.npy,%t/o0.npy --iterations=1 --warmup=0 > /dev/null
// RUN: not posenc-run %s --entry=learned_offset --inputs=%t/y.npy,%t/w.npy,%t/o1.npy --iterations=1 --warmup=0 2>&1 | FileCheck %s --check-prefix=LEARNED
// RUN: not posenc-run %s --entry=learned_offset --inputs=%t/y.npy,%t/w.npy,%t/huge.npy --iterations=1 --warmup=0 2>&1 | FileCheck %s --check-prefix=LEARNED
// LEARNED: posenc.learned_absolute: position outside the learned table
func.func @learned_offset(%y: tensor<1x4x8xf32>, %w: tensor<16x8xf32>, %o: tensor<i64>) -> tensor<1x4x8xf32> {
  %off = tensor.extract %o[] : tensor<i64>
  %r = posenc.learned_absolute %y, %w offset(%off : i64) : tensor<1x4x8xf32>, tensor<16x8xf32>
  return %r : tensor<1x4x8xf32>
}
