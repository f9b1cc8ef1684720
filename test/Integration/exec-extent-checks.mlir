// Operands whose length is known only at run time (issue 22 item 8): a
// positions, inv_freq or slopes slice `[%n]` of the wrong length was read
// past its end (the verifier compares static extents only). The lowerings
// now assert each such extent (cf.assert; posenc-run: "a runtime check of
// the kernel failed"), in the flash and the reference attention lowerings
// and in the elementwise ops. Exit statuses checked explicitly.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; [np.save('%t/n%%d.npy' %% n, np.array([n], np.int64)) for n in (3, 5, 6, 8)]"

// RUN: sh -c 'posenc-run %s --entry=kpos --iterations=1 --int-max=8 --input=4=%t/n5.npy; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=KPOS-BAD
// RUN: sh -c "posenc-run %s --entry=kpos --iterations=1 --int-max=8 --input=4=%t/n5.npy --pipeline='posenc-cpu-pipeline{flash-attention=false}'; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=KPOS-BAD
// KPOS-BAD: attention: k_positions has another length than the tokens it positions
// KPOS-BAD: posenc-run: error: a runtime check of the kernel failed
// KPOS-BAD: rc=1
// RUN: posenc-run %s --entry=kpos --iterations=1 --int-max=8 --input=4=%t/n6.npy | FileCheck %s --check-prefix=KPOS-OK
// KPOS-OK: RESULT entry=kpos
func.func @kpos(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>,
                %kp: tensor<9xi64>, %len: tensor<1xi64>) -> tensor<1x2x4x8xf32> {
  %c0 = arith.constant 0 : index
  %l = tensor.extract %len[%c0] : tensor<1xi64>
  %n = arith.index_cast %l : i64 to index
  %kps = tensor.extract_slice %kp[0] [%n] [1] : tensor<9xi64> to tensor<?xi64>
  %o = posenc.attention %q, %k, %v causal k_positions(%kps : tensor<?xi64>)
      : tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// Keys and values of dynamic lengths that differ.
// RUN: sh -c 'posenc-run %s --entry=kv --iterations=1 --input=2=%t/n5.npy; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=KV-BAD
// KV-BAD: attention: key and value sequence lengths differ
// KV-BAD: rc=1
// RUN: posenc-run %s --entry=kv --iterations=1 --input=2=%t/n6.npy | FileCheck %s --check-prefix=KV-OK
// KV-OK: RESULT entry=kv
func.func @kv(%q: tensor<1x2x4x8xf32>, %kv: tensor<1x2x8x8xf32>, %len: tensor<1xi64>)
    -> tensor<1x2x4x8xf32> {
  %c0 = arith.constant 0 : index
  %l = tensor.extract %len[%c0] : tensor<1xi64>
  %n = arith.index_cast %l : i64 to index
  %k6 = tensor.extract_slice %kv[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x6x8xf32>
  %k = tensor.cast %k6 : tensor<1x2x6x8xf32> to tensor<1x2x?x8xf32>
  %v = tensor.extract_slice %kv[0, 0, 0, 0] [1, 2, %n, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x?x8xf32>
  %o = posenc.attention %q, %k, %v
      : tensor<1x2x4x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// A rotary's runtime inv_freq slice and an ALiBi slopes slice.
// RUN: sh -c 'posenc-run %s --entry=inv --iterations=1 --input=2=%t/n3.npy; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=INV-BAD
// INV-BAD: rotary: inv_freq has another length than rotary_dim / 2
// INV-BAD: rc=1
// RUN: posenc-run %s --entry=inv --iterations=1 --input=2=%t/n8.npy | FileCheck %s --check-prefix=INV-OK
// INV-OK: RESULT entry=inv
func.func @inv(%x: tensor<1x4x5x16xf32>, %f: tensor<9xf32>, %len: tensor<1xi64>)
    -> tensor<1x4x5x16xf32> {
  %c0 = arith.constant 0 : index
  %l = tensor.extract %len[%c0] : tensor<1xi64>
  %n = arith.index_cast %l : i64 to index
  %inv = tensor.extract_slice %f[0] [%n] [1] : tensor<9xf32> to tensor<?xf32>
  %y = posenc.rotary %x half_split dim 16 inv_freq(%inv : tensor<?xf32>) : tensor<1x4x5x16xf32>
  return %y : tensor<1x4x5x16xf32>
}
// RUN: sh -c 'posenc-run %s --entry=slopes --iterations=1 --input=1=%t/n5.npy; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=SLOPES-BAD
// SLOPES-BAD: alibi: slopes has another length than the heads
// SLOPES-BAD: rc=1
// RUN: posenc-run %s --entry=slopes --iterations=1 --input=1=%t/n6.npy | FileCheck %s --check-prefix=SLOPES-OK
// SLOPES-OK: RESULT entry=slopes
func.func @slopes(%s: tensor<8xf32>, %len: tensor<1xi64>) -> tensor<6x3x7xf32> {
  %c0 = arith.constant 0 : index
  %l = tensor.extract %len[%c0] : tensor<1xi64>
  %n = arith.index_cast %l : i64 to index
  %m = tensor.extract_slice %s[0] [%n] [1] : tensor<8xf32> to tensor<?xf32>
  %b = posenc.alibi symmetric slopes(%m : tensor<?xf32>) : tensor<6x3x7xf32>
  return %b : tensor<6x3x7xf32>
}
