// RUN: posenc-opt %s --posenc-cpu-pipeline | FileCheck %s
// RUN: posenc-opt %s --posenc-cpu-pipeline="nontemporal-stores=false approximate-trig=false" | FileCheck %s --check-prefix=PLAIN

// RoPE written into a caller's buffer (as posenc-run's wrapper does): the
// result is computed in place (posenc-expand-destinations +
// eliminate-empty-tensors: the only allocations are the per-block cos/sin
// rows, no copy), its 8 MiB output is streamed with aligned non-temporal
// stores and fenced, and cos/sin are polynomials (no libm, no intrinsic).
// CHECK-LABEL: llvm.func @rope_into
// CHECK-NOT: memcpy
// CHECK-NOT: llvm.intr.sin
// CHECK-NOT: llvm.intr.cos
// CHECK: omp.parallel
// CHECK: llvm.call @malloc
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.fence seq_cst
// CHECK-NEXT: omp.terminator
// CHECK: llvm.fence seq_cst
// CHECK-NEXT: llvm.return
// CHECK-NOT: memcpy

// PLAIN-LABEL: llvm.func @rope_into
// PLAIN-NOT: nontemporal
// PLAIN-NOT: llvm.fence
// PLAIN: llvm.intr.cos
// PLAIN-NOT: nontemporal
// PLAIN-NOT: llvm.fence
func.func @rope_into(%x: tensor<1x32x512x128xf32>, %out: memref<1x32x512x128xf32>) {
  %o = memref.assume_alignment %out, 64 : memref<1x32x512x128xf32>
  %inv, %af = posenc.rope_frequencies dim 128 base 500000.0 : tensor<64xf32>, f32
  %y = posenc.rotary %x half_split dim 128 inv_freq(%inv : tensor<64xf32>) : tensor<1x32x512x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %o : (tensor<1x32x512x128xf32>, memref<1x32x512x128xf32>) -> ()
  return
}
