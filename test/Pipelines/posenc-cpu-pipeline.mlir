// RUN: posenc-opt %s --posenc-cpu-pipeline="block-elements=1024" | FileCheck %s
// RUN: posenc-opt %s --posenc-cpu-pipeline="vector-width=8 openmp=false" | FileCheck %s --check-prefix=NOOMP

// The whole way down: posenc -> linalg -> tiles -> vectors -> buffers ->
// OpenMP -> LLVM dialect. The rotation is AVX-512-wide vector arithmetic
// inside an OpenMP worksharing loop over blocks (block-elements=1024 makes
// 4 blocks of the 4096 rotations; the default would make one block and no
// threads).
// CHECK-LABEL: llvm.func @rope
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: llvm.load %{{.+}} : !llvm.ptr -> vector<16xf32>
// CHECK: llvm.fmul %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: llvm.fsub %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: llvm.store %{{.+}}, %{{.+}} : vector<16xf32>, !llvm.ptr
// CHECK-NOT: posenc.
// CHECK-NOT: linalg.

// NOOMP-LABEL: llvm.func @rope
// NOOMP-NOT: omp.
// NOOMP: llvm.fmul %{{.+}}, %{{.+}} : vector<8xf32>
func.func @rope(%x: tensor<2x4x8x64xf32>, %p: tensor<8xi64>) -> tensor<2x4x8x64xf32> {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf64>, f32
  %y = posenc.rotary %x half_split dim 64 inv_freq(%inv : tensor<32xf64>) positions(%p : tensor<8xi64>) : tensor<2x4x8x64xf32>
  return %y : tensor<2x4x8x64xf32>
}
