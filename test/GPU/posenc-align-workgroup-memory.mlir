// RUN: posenc-opt %s --pass-pipeline="builtin.module(gpu.module(gpu.func(posenc-align-workgroup-memory)))" | FileCheck %s
// RUN: posenc-opt %s --pass-pipeline="builtin.module(gpu.module(gpu.func(posenc-align-workgroup-memory{alignment=64})))" | FileCheck %s --check-prefix=A64
// RUN: not posenc-opt %s --pass-pipeline="builtin.module(gpu.module(gpu.func(posenc-align-workgroup-memory{alignment=12})))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// Every workgroup attribution gets llvm.align (bf16 tiles would otherwise be
// 2-byte aligned globals); one that has an alignment keeps it.
// CHECK-LABEL: gpu.func @tiles
// CHECK-SAME: workgroup(%{{.+}} : memref<64xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.+}} : memref<16x9xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.+}} : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
// A64: workgroup(%{{.+}} {llvm.align = 64 : i64}, %{{.+}} {llvm.align = 64 : i64}, %{{.+}} {llvm.align = 128 : i64})
// BAD: error: posenc-align-workgroup-memory: alignment must be a power of two
gpu.module @k {
  gpu.func @tiles(%o: memref<4xbf16>)
      workgroup(%a: memref<64xbf16, #gpu.address_space<workgroup>>,
                %b: memref<16x9xf32, #gpu.address_space<workgroup>>,
                %c: memref<8xf32, #gpu.address_space<workgroup>>) kernel
      attributes {workgroup_attrib_attrs = [{}, {}, {llvm.align = 128 : i64}]} {
    gpu.return
  }
}
