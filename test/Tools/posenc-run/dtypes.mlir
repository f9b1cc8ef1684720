// Every supported element type through .npy files and --print-output:
// f16 (<f2), bf16 (raw bits, <u2), f64 (<f8), i32 (<i4), index (<i8).
// REQUIRES: numpy

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; d = '%t/'; np.save(d + 'h.npy', np.array([0.5, -1.25, 1000, 3.1415], np.float16)); np.save(d + 'b.npy', (np.array([1.5, -2.0, 3.0, 0.1], np.float32).view(np.uint32) >> 16).astype(np.uint16)); np.save(d + 'd.npy', np.array([1, 2, -3, 1e-300])); np.save(d + 'i.npy', np.array([1, -2, 2**31 - 2, 7], np.int32)); np.save(d + 'x.npy', np.array([1, -2, 2**40, 7]))"
// RUN: posenc-run %s --inputs=%t/h.npy,%t/b.npy,%t/d.npy,%t/i.npy,%t/x.npy --print-output --outputs-dir=%t/out --iterations=1 | FileCheck %s
// RUN: %python %S/Inputs/check_npy.py %t/out/out0.npy h=%t/h.npy --dtype='<f2' --expect='h + h'
// RUN: %python %S/Inputs/check_npy.py %t/out/out1.npy --bf16 --dtype='<u2' --expect='[2.25, 4, 9, 0.00994873046875]'
// RUN: %python %S/Inputs/check_npy.py %t/out/out2.npy d=%t/d.npy --dtype='<f8' --expect='d / 3'
// RUN: %python %S/Inputs/check_npy.py %t/out/out3.npy i=%t/i.npy --dtype='<i4' --expect='i + 1'
// RUN: %python %S/Inputs/check_npy.py %t/out/out4.npy x=%t/x.npy --dtype='<i8' --expect='x * 2'

// CHECK:      output 0: tensor<4xf16>
// CHECK-NEXT: [1, -2.5, 2000, 6.28125]
// CHECK-NEXT: output 1: tensor<4xbf16>
// CHECK-NEXT: [2.25, 4, 9, 0.00994873047]
// CHECK-NEXT: output 2: tensor<4xf64>
// CHECK-NEXT: [0.33333333333333331, 0.66666666666666663, -1, 3.3333333333333334e-301]
// CHECK-NEXT: output 3: tensor<4xi32>
// CHECK-NEXT: [2, -1, 2147483647, 8]
// CHECK-NEXT: output 4: tensor<4xindex>
// CHECK-NEXT: [2, -4, 2199023255552, 14]

#id = affine_map<(d0) -> (d0)>
func.func @f(%h: tensor<4xf16>, %b: tensor<4xbf16>, %d: tensor<4xf64>, %i: tensor<4xi32>, %x: tensor<4xindex>)
    -> (tensor<4xf16>, tensor<4xbf16>, tensor<4xf64>, tensor<4xi32>, tensor<4xindex>) {
  %e0 = tensor.empty() : tensor<4xf16>
  %e1 = tensor.empty() : tensor<4xbf16>
  %e2 = tensor.empty() : tensor<4xf64>
  %e3 = tensor.empty() : tensor<4xi32>
  %e4 = tensor.empty() : tensor<4xindex>
  %r:5 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%h, %b, %d, %i, %x : tensor<4xf16>, tensor<4xbf16>, tensor<4xf64>, tensor<4xi32>, tensor<4xindex>)
      outs(%e0, %e1, %e2, %e3, %e4 : tensor<4xf16>, tensor<4xbf16>, tensor<4xf64>, tensor<4xi32>, tensor<4xindex>) {
  ^bb0(%a0: f16, %a1: bf16, %a2: f64, %a3: i32, %a4: index, %o0: f16, %o1: bf16, %o2: f64, %o3: i32, %o4: index):
    %r0 = arith.addf %a0, %a0 : f16
    %r1 = arith.mulf %a1, %a1 : bf16
    %c3 = arith.constant 3.0 : f64
    %r2 = arith.divf %a2, %c3 : f64
    %c1 = arith.constant 1 : i32
    %r3 = arith.addi %a3, %c1 : i32
    %c2 = arith.constant 2 : index
    %r4 = arith.muli %a4, %c2 : index
    linalg.yield %r0, %r1, %r2, %r3, %r4 : f16, bf16, f64, i32, index
  } -> (tensor<4xf16>, tensor<4xbf16>, tensor<4xf64>, tensor<4xi32>, tensor<4xindex>)
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<4xf16>, tensor<4xbf16>, tensor<4xf64>, tensor<4xi32>, tensor<4xindex>
}
