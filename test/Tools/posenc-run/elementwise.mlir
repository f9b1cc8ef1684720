// An elementwise a * b + c on tensors: inputs from .npy files, the result
// checked against numpy, and the lowered code free of copies and
// allocations (the result is computed in the runner's output buffer).
// REQUIRES: numpy

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(7); [np.save('%t/' + n + '.npy', r.standard_normal((4, 8)).astype(np.float32)) for n in 'abc']"
// RUN: posenc-run %s --inputs=%t/a.npy,%t/b.npy,%t/c.npy --output=0=%t/r.npy --iterations=3 | FileCheck %s --check-prefix=TIME
// RUN: %python %S/Inputs/check_npy.py %t/r.npy a=%t/a.npy b=%t/b.npy c=%t/c.npy --dtype='<f4' --expect='a.astype(np.float64) * b + c' --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=PASS
// The checker fails on a wrong reference, so the check above can fail.
// RUN: not %python %S/Inputs/check_npy.py %t/r.npy a=%t/a.npy b=%t/b.npy c=%t/c.npy --dtype='<f4' --expect='a.astype(np.float64) * b - c' --rtol=1e-6 --atol=1e-6 2>&1 | FileCheck %s --check-prefix=FAIL

// RUN: posenc-run %s --dump-ir --iterations=1 2>&1 >/dev/null | FileCheck %s --check-prefix=IR

// TIME: RESULT entry=f median_ms=
// PASS: PASS 32 elements
// FAIL: FAIL: 32 of 32 elements differ

// IR-LABEL: posenc-run: module with entry wrapper
// IR: func.func private @f(
// IR: func.func @__posenc_run_entry(%[[A:[a-z0-9_]+]]: memref<4x8xf32>, %[[B:[a-z0-9_]+]]: memref<4x8xf32>, %[[C:[a-z0-9_]+]]: memref<4x8xf32>, %[[DEST:[a-z0-9_]+]]: memref<4x8xf32>) attributes {llvm.emit_c_interface}
// IR-NEXT: %[[AA:.+]] = memref.assume_alignment %[[A]], 64 : memref<4x8xf32>
// IR-NEXT: %[[AB:.+]] = memref.assume_alignment %[[B]], 64
// IR-NEXT: %[[AC:.+]] = memref.assume_alignment %[[C]], 64
// IR-NEXT: %[[AD:.+]] = memref.assume_alignment %[[DEST]], 64
// IR-NEXT: %[[TA:.+]] = bufferization.to_tensor %[[AA]] restrict : memref<4x8xf32> to tensor<4x8xf32>
// IR-NEXT: %[[TB:.+]] = bufferization.to_tensor %[[AB]] restrict
// IR-NEXT: %[[TC:.+]] = bufferization.to_tensor %[[AC]] restrict
// IR-NEXT: %[[R:.+]] = call @f(%[[TA]], %[[TB]], %[[TC]])
// IR-NEXT: bufferization.materialize_in_destination %[[R]] in restrict writable %[[AD]]
// IR-LABEL: posenc-run pipeline: posenc-cpu-pipeline
// IR-LABEL: posenc-run: lowered module
// IR-NOT: malloc
// IR-NOT: memcpy
// IR-NOT: memrefCopy
// IR: llvm.func @_mlir_ciface___posenc_run_entry(
// IR-NOT: malloc

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %z : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
