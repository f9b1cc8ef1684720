// RUN: posenc-opt %s --split-input-file --posenc-expand-destinations | FileCheck %s

// A memref destination: the collapse moves onto it as memref.expand_shape,
// with the sizes of the collapse's operand (dynamic ones through tensor.dim).
// CHECK-LABEL: func.func @memref_dest
// CHECK-SAME: %[[X:[^:]+]]: tensor<4x?x2x8xf32>, %[[OUT:[^:]+]]: memref<4x?x16xf32>
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<4x?x2x8xf32>
// CHECK: %[[VIEW:.+]] = memref.expand_shape %[[OUT]] {{\[}}[0], [1], [2, 3]] output_shape [4, %[[D]], 2, 8] : memref<4x?x16xf32> into memref<4x?x2x8xf32>
// CHECK: bufferization.materialize_in_destination %[[X]] in restrict writable %[[VIEW]] : (tensor<4x?x2x8xf32>, memref<4x?x2x8xf32>) -> ()
// CHECK-NOT: tensor.collapse_shape
func.func @memref_dest(%x: tensor<4x?x2x8xf32>, %out: memref<4x?x16xf32>) {
  %c = tensor.collapse_shape %x [[0], [1], [2, 3]] : tensor<4x?x2x8xf32> into tensor<4x?x16xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<4x?x16xf32>, memref<4x?x16xf32>) -> ()
  return
}

// -----

// A tensor destination: materialize in its expansion, collapse the result.
// CHECK-LABEL: func.func @tensor_dest
// CHECK-SAME: %[[X:[^:]+]]: tensor<4x2x8xf32>, %[[DEST:[^:]+]]: tensor<4x16xf32>
// CHECK: %[[VIEW:.+]] = tensor.expand_shape %[[DEST]] {{\[}}[0], [1, 2]] output_shape [4, 2, 8] : tensor<4x16xf32> into tensor<4x2x8xf32>
// CHECK: %[[M:.+]] = bufferization.materialize_in_destination %[[X]] in %[[VIEW]] : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[M]] {{\[}}[0], [1, 2]] : tensor<4x2x8xf32> into tensor<4x16xf32>
// CHECK: return %[[R]]
func.func @tensor_dest(%x: tensor<4x2x8xf32>, %dest: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x8xf32> into tensor<4x16xf32>
  %r = bufferization.materialize_in_destination %c in %dest : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A strided destination expands too (the view keeps its strides).
// CHECK-LABEL: func.func @strided_dest
// CHECK: memref.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [4, 2, 8] : memref<4x16xf32, strided<[32, 2]>> into memref<4x2x8xf32, strided<[32, 16, 2]>>
func.func @strided_dest(%x: tensor<4x2x8xf32>, %out: memref<4x16xf32, strided<[32, 2]>>) {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x8xf32> into tensor<4x16xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<4x16xf32>, memref<4x16xf32, strided<[32, 2]>>) -> ()
  return
}

// -----

// A destination whose layout is not strided cannot be expanded and is left
// alone, as is a source that is no collapse.
// CHECK-LABEL: func.func @not_expandable
// CHECK: tensor.collapse_shape
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %{{.+}} : (tensor<4x16xf32>, memref<4x16xf32, #{{.+}}>)
// CHECK-LABEL: func.func @no_collapse
// CHECK-NEXT: bufferization.materialize_in_destination %{{.+}} in restrict writable %{{.+}} : (tensor<4x16xf32>, memref<4x16xf32>)
func.func @not_expandable(%x: tensor<4x2x8xf32>, %out: memref<4x16xf32, affine_map<(d0, d1) -> (d1 mod 4, d0)>>) {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x8xf32> into tensor<4x16xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<4x16xf32>, memref<4x16xf32, affine_map<(d0, d1) -> (d1 mod 4, d0)>>) -> ()
  return
}
func.func @no_collapse(%x: tensor<4x16xf32>, %out: memref<4x16xf32>) {
  bufferization.materialize_in_destination %x in restrict writable %out : (tensor<4x16xf32>, memref<4x16xf32>) -> ()
  return
}

// -----

// Found by posenc-pass-fuzzer: tensor.collapse_shape's verifier (MLIR 22)
// accepts this non-contiguous reassociation; the pass copied it into a
// memref.expand_shape, which rejects it (invalid IR after the pass). Such
// collapses are left alone.
// CHECK-LABEL: func.func @odd_reassociation
// CHECK: tensor.collapse_shape
// CHECK-NOT: memref.expand_shape
func.func @odd_reassociation(%x: tensor<?x?x2x8xf32>, %out: memref<?x?x16xf32>) {
  %c = tensor.collapse_shape %x [[0x7FF0000000000000], [1], [2, 3]] : tensor<?x?x2x8xf32> into tensor<?x?x16xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<?x?x16xf32>, memref<?x?x16xf32>) -> ()
  return
}
