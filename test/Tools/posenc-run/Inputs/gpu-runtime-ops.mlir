// Upstream gpu dialect host operations whose lowering (gpu-to-llvm) calls
// runtime functions beyond posenc-gpu-pipeline's: allocation, copies, memset
// of 16- and 32-bit elements, and the events that join two streams. Input of
// gpu-runtime-symbols.mlir.
module attributes {gpu.container_module} {
  func.func @ops(%h: memref<16xf32>, %h16: memref<16xf16>) {
    %a = gpu.wait async
    %b = gpu.wait async
    %d, %t1 = gpu.alloc async [%a] () : memref<16xf32>
    %e, %t2 = gpu.alloc async [%b] () : memref<16xf16>
    %t3 = gpu.wait async [%t1, %t2]
    %t4 = gpu.memcpy async [%t3] %d, %h : memref<16xf32>, memref<16xf32>
    %one = arith.constant 1.0 : f32
    %t5 = gpu.memset async [%t4] %d, %one : memref<16xf32>, f32
    %half = arith.constant 1.0 : f16
    %t6 = gpu.memset async [%t5] %e, %half : memref<16xf16>, f16
    %t7 = gpu.memcpy async [%t6] %h16, %e : memref<16xf16>, memref<16xf16>
    %t8 = gpu.dealloc async [%t7] %d : memref<16xf32>
    %t9 = gpu.dealloc async [%t8] %e : memref<16xf16>
    gpu.wait [%t9]
    return
  }
}
