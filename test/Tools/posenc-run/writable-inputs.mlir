// A function that updates its argument in place (outs(%x)). By default the
// runner's inputs are read-only, so bufferization copies %x to a temporary;
// with --writable-inputs it computes in the input buffer itself (no
// allocation) and the runner restores the input before every call, so every
// iteration sees the same data and the result is x + x, not x * 2^calls.
// REQUIRES: numpy

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(1024, dtype=np.float32) - 512)"
// RUN: posenc-run %s --inputs=%t/x.npy --output=0=%t/ro.npy --iterations=4 --warmup=2 --dump-ir 2>&1 | FileCheck %s --check-prefix=READONLY
// RUN: %python %S/Inputs/check_npy.py %t/ro.npy x=%t/x.npy --dtype='<f4' --expect='x + x'
// RUN: posenc-run %s --inputs=%t/x.npy --output=0=%t/rw.npy --iterations=4 --warmup=2 --writable-inputs --dump-ir 2>&1 | FileCheck %s --check-prefix=WRITABLE
// RUN: %python %S/Inputs/check_npy.py %t/rw.npy x=%t/x.npy --dtype='<f4' --expect='x + x'

// READONLY: bufferization.to_tensor %{{.*}} restrict : memref<1024xf32>
// READONLY-LABEL: posenc-run: lowered module
// READONLY: llvm.call @malloc

// WRITABLE: bufferization.to_tensor %{{.*}} restrict writable : memref<1024xf32>
// WRITABLE-LABEL: posenc-run: lowered module
// WRITABLE-NOT: malloc
// WRITABLE: RESULT entry=double

func.func @double(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%x : tensor<1024xf32>) {
  ^bb0(%v: f32):
    %d = arith.addf %v, %v : f32
    linalg.yield %d : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
