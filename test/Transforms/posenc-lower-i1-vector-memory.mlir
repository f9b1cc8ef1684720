// RUN: posenc-opt %s --split-input-file --posenc-lower-i1-vector-memory --verify-diagnostics | FileCheck %s

// A vector load of an i1 memref reads one byte per lane and truncates; the
// element address is the memref's (GEP over i1, one byte per element).
// CHECK-LABEL: func.func @load
// CHECK: %[[P:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, i1
// CHECK: %[[B:.+]] = llvm.load %[[P]] {alignment = 1 : i64} : !llvm.ptr -> vector<16xi8>
// CHECK: %[[V:.+]] = llvm.trunc %[[B]] : vector<16xi8> to vector<16xi1>
// CHECK-NOT: vector.load
// CHECK: return %[[V]]
func.func @load(%m: memref<4x16xi1>, %i: index) -> vector<16xi1> {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%i, %c0] : memref<4x16xi1>, vector<16xi1>
  return %v : vector<16xi1>
}

// -----

// Stores widen to bytes first; nontemporal and alignment are kept.
// CHECK-LABEL: func.func @store
// CHECK: %[[B:.+]] = llvm.zext %{{.+}} : vector<8xi1> to vector<8xi8>
// CHECK: llvm.store %[[B]], %{{.+}} {alignment = 8 : i64, nontemporal} : vector<8xi8>, !llvm.ptr
// CHECK-NOT: vector.store
func.func @store(%m: memref<?xi1>, %v: vector<8xi1>, %i: index) {
  vector.store %v, %m[%i] {alignment = 8, nontemporal = true} : memref<?xi1>, vector<8xi1>
  return
}

// -----

// Masked loads widen the pass-through; masked stores the value. The mask
// stays a vector of i1 (a register, not memory).
// CHECK-LABEL: func.func @masked
// CHECK: %[[PT:.+]] = llvm.zext %{{.+}} : vector<4xi1> to vector<4xi8>
// CHECK: %[[L:.+]] = llvm.intr.masked.load %{{.+}}, %{{.+}}, %[[PT]] {alignment = 1 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xi8>) -> vector<4xi8>
// CHECK: %[[T:.+]] = llvm.trunc %[[L]] : vector<4xi8> to vector<4xi1>
// CHECK: %[[S:.+]] = llvm.zext %[[T]] : vector<4xi1> to vector<4xi8>
// CHECK: llvm.intr.masked.store %[[S]], %{{.+}}, %{{.+}} {alignment = 1 : i32} : vector<4xi8>, vector<4xi1> into !llvm.ptr
func.func @masked(%m: memref<?xi1, strided<[1], offset: ?>>, %mask: vector<4xi1>, %pass: vector<4xi1>, %i: index) {
  %v = vector.maskedload %m[%i], %mask, %pass : memref<?xi1, strided<[1], offset: ?>>, vector<4xi1>, vector<4xi1> into vector<4xi1>
  vector.maskedstore %m[%i], %mask, %v : memref<?xi1, strided<[1], offset: ?>>, vector<4xi1>, vector<4xi1>
  return
}

// -----

// Rank-1 transfers of i1 memrefs are lowered first: in-bounds ones to byte
// loads and stores, out-of-bounds ones through a computed mask.
// CHECK-LABEL: func.func @transfers
// CHECK-NOT: vector.transfer
// CHECK: llvm.intr.masked.load %{{.+}} -> vector<16xi8>
// CHECK: llvm.trunc %{{.+}} : vector<16xi8> to vector<16xi1>
// CHECK: llvm.zext %{{.+}} : vector<16xi1> to vector<16xi8>
// CHECK: llvm.store %{{.+}} : vector<16xi8>, !llvm.ptr
func.func @transfers(%in: memref<?xi1>, %out: memref<32xi1>, %i: index) {
  %false = arith.constant false
  %v = vector.transfer_read %in[%i], %false : memref<?xi1>, vector<16xi1>
  vector.transfer_write %v, %out[%i] {in_bounds = [true]} : vector<16xi1>, memref<32xi1>
  return
}

// -----

// Other element types are left to convert-vector-to-llvm, including i8.
// CHECK-LABEL: func.func @others
// CHECK: vector.load %{{.+}} : memref<16xi8>, vector<16xi8>
// CHECK: vector.store %{{.+}} : memref<16xf32>, vector<16xf32>
// CHECK: vector.transfer_read
func.func @others(%a: memref<16xi8>, %b: memref<16xf32>, %c: memref<16xi1, strided<[2]>>, %v: vector<16xf32>) -> (vector<16xi8>, vector<16xi1>) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %x = vector.load %a[%c0] : memref<16xi8>, vector<16xi8>
  vector.store %v, %b[%c0] : memref<16xf32>, vector<16xf32>
  // A strided transfer is not a contiguous access: upstream never lowers it
  // to a vector load (convert-vector-to-scf scalarizes it), so it stays.
  %y = vector.transfer_read %c[%c0], %false {in_bounds = [true]} : memref<16xi1, strided<[2]>>, vector<16xi1>
  return %x, %y : vector<16xi8>, vector<16xi1>
}

// -----

func.func @two_d(%m: memref<4x16xi1>) -> vector<4x16xi1> {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'vector.load' op on an i1 memref (one byte per element) is not supported}}
  %v = vector.load %m[%c0, %c0] : memref<4x16xi1>, vector<4x16xi1>
  return %v : vector<4x16xi1>
}

// -----

func.func @expand(%m: memref<?xi1>, %mask: vector<8xi1>, %pass: vector<8xi1>) -> vector<8xi1> {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'vector.expandload' op on an i1 memref (one byte per element) is not supported}}
  %v = vector.expandload %m[%c0], %mask, %pass : memref<?xi1>, vector<8xi1>, vector<8xi1> into vector<8xi1>
  return %v : vector<8xi1>
}

// -----

func.func @compress(%m: memref<?xi1>, %mask: vector<8xi1>, %v: vector<8xi1>) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'vector.compressstore' op on an i1 memref (one byte per element) is not supported}}
  vector.compressstore %m[%c0], %mask, %v : memref<?xi1>, vector<8xi1>, vector<8xi1>
  return
}

// -----

func.func @scalable(%m: memref<?xi1>) -> vector<[4]xi1> {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'vector.load' op on an i1 memref (one byte per element) is not supported}}
  %v = vector.load %m[%c0] : memref<?xi1>, vector<[4]xi1>
  return %v : vector<[4]xi1>
}
