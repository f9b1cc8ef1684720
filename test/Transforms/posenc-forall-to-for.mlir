// RUN: posenc-opt %s --posenc-forall-to-for --split-input-file | FileCheck %s
// RUN: posenc-opt %s --posenc-forall-to-for --split-input-file --posenc-forall-to-for | FileCheck %s

// Two induction variables with bounds and steps, two shared outputs: one
// scf.for per variable, outermost first, both outputs carried by every loop
// and updated by insert_slice in the terminator's order. A read of a shared
// output inside the body reads the innermost iter_arg.
// CHECK-LABEL: func.func @two_dims
// CHECK-SAME: (%[[X:.+]]: tensor<8x16xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[E0:.+]] = tensor.empty() : tensor<8x16xf32>
// CHECK-DAG: %[[E1:.+]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[R:.+]]:2 = scf.for %[[I:.+]] = %[[C0]] to %[[C8]] step %[[C2]] iter_args(%[[A0:.+]] = %[[E0]], %[[A1:.+]] = %[[E1]])
// CHECK: %[[IN:.+]]:2 = scf.for %[[J:.+]] = %[[C1]] to %[[C16]] step %[[C4]] iter_args(%[[B0:.+]] = %[[A0]], %[[B1:.+]] = %[[A1]])
// CHECK-NOT: scf.forall
// CHECK: %[[OLD:.+]] = tensor.extract_slice %[[B0]][%[[I]], %[[J]]] [2, 4] [1, 1]
// CHECK: %[[T:.+]] = linalg.add ins(%{{.+}}, %[[OLD]] : {{.+}})
// CHECK: %[[V:.+]] = tensor.extract_slice %[[X]][%[[I]], 0] [2, 1] [1, 1]
// CHECK: %[[U0:.+]] = tensor.insert_slice %[[T]] into %[[B0]][%[[I]], %[[J]]] [2, 4] [1, 1]
// CHECK: %[[U1:.+]] = tensor.insert_slice %[[V]] into %[[B1]][%[[I]]] [2] [1]
// CHECK: scf.yield %[[U0]], %[[U1]] : tensor<8x16xf32>, tensor<8xf32>
// CHECK: }
// CHECK: scf.yield %[[IN]]#0, %[[IN]]#1 : tensor<8x16xf32>, tensor<8xf32>
// CHECK: }
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @two_dims(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8xf32>) {
  %e0 = tensor.empty() : tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %r:2 = scf.forall (%i, %j) = (0, 1) to (8, 16) step (2, 4)
      shared_outs(%o0 = %e0, %o1 = %e1) -> (tensor<8x16xf32>, tensor<8xf32>) {
    %s = tensor.extract_slice %x[%i, %j] [2, 4] [1, 1] : tensor<8x16xf32> to tensor<2x4xf32>
    %old = tensor.extract_slice %o0[%i, %j] [2, 4] [1, 1] : tensor<8x16xf32> to tensor<2x4xf32>
    %t = linalg.add ins(%s, %old : tensor<2x4xf32>, tensor<2x4xf32>) outs(%s : tensor<2x4xf32>) -> tensor<2x4xf32>
    %v = tensor.extract_slice %x[%i, 0] [2, 1] [1, 1] : tensor<8x16xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o0[%i, %j] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x16xf32>
      tensor.parallel_insert_slice %v into %o1[%i] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return %r#0, %r#1 : tensor<8x16xf32>, tensor<8xf32>
}

// -----

// Dynamic bounds; a nested forall becomes a nested scf.for nest too.
// CHECK-LABEL: func.func @nested_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x4xf32>, %[[N:.+]]: index)
// CHECK-NOT: scf.forall
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[N]] step %{{.+}} iter_args(%[[A:.+]] = %[[X]]) -> (tensor<?x4xf32>)
// CHECK: %[[ROW:.+]] = tensor.extract_slice %[[A]][%[[I]], 0] [1, 4] [1, 1]
// CHECK: %[[IN:.+]] = scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[B:.+]] = %[[ROW]]) -> (tensor<1x4xf32>)
// CHECK: tensor.insert_slice %{{.+}} into %[[B]][0, %[[J]]] [1, 1] [1, 1]
// CHECK: tensor.insert_slice %[[IN]] into %[[A]][%[[I]], 0] [1, 4] [1, 1]
func.func @nested_dynamic(%x: tensor<?x4xf32>, %n: index) -> tensor<?x4xf32> {
  %r = scf.forall (%i) in (%n) shared_outs(%o = %x) -> (tensor<?x4xf32>) {
    %row = tensor.extract_slice %o[%i, 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<1x4xf32>
    %inner = scf.forall (%j) in (4) shared_outs(%p = %row) -> (tensor<1x4xf32>) {
      %c = tensor.extract_slice %p[0, %j] [1, 1] [1, 1] : tensor<1x4xf32> to tensor<1x1xf32>
      %d = linalg.add ins(%c, %c : tensor<1x1xf32>, tensor<1x1xf32>) outs(%c : tensor<1x1xf32>) -> tensor<1x1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %d into %p[0, %j] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<1x4xf32>
      }
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %inner into %o[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<?x4xf32>
    }
  }
  return %r : tensor<?x4xf32>
}

// -----

// Without shared outputs (buffers): upstream's conversion.
// CHECK-LABEL: func.func @buffers
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store
func.func @buffers(%m: memref<4x4xf32>, %f: f32) {
  scf.forall (%i, %j) in (4, 4) {
    memref.store %f, %m[%i, %j] : memref<4x4xf32>
  }
  return
}

// -----

// A forall mapped to GPU blocks is left alone.
// CHECK-LABEL: func.func @mapped
// CHECK: scf.forall
// CHECK: mapping = [#gpu.block<x>]
func.func @mapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %x) -> (tensor<4xf32>) {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<4xf32>
}
