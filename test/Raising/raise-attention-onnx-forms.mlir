// RUN: posenc-opt %s --split-input-file --posenc-raise-attention | FileCheck %s

// SDPA as ONNX exports it and IREE imports it (issue 24): sqrt(scale) as
// rank-0 tensor constants multiplying Q and the key operand, the key
// collapsed, transposed [0, 2, 1] and expanded back, scalars of the mask's
// select as rank-0 tensors, and fully masked rows guarded by
// `select(isnan(p), 0, p)`: one posenc.attention (the two square roots of
// 0.5 multiply to the scale below), no batch matmul left.
// CHECK-LABEL: func.func @onnx_sdpa
// CHECK: posenc.attention %arg0, %arg1, %arg2 scale(0.49999998288572911) causal
// CHECK-NOT: linalg.batch_matmul
// CHECK: return

// The near miss below guards with isnan of another tensor: not a guard of
// fully masked rows, the attention stays.
// CHECK-LABEL: func.func @guard_on_other_tensor
// CHECK-NOT: posenc.attention
// CHECK-COUNT-2: linalg.batch_matmul
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
#bcast = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#col = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>

func.func @onnx_sdpa(%q: tensor<1x2x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>, %other: tensor<1x2x4x4xf32>) -> tensor<2x4x4xf32> {
  %s = arith.constant dense<0.707106769> : tensor<f32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %fill = arith.constant dense<-3.40282347E+38> : tensor<f32>
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %keep = arith.constant dense<[[[[true, false, false, false], [true, true, false, false], [true, true, true, false], [true, true, true, true]]]]> : tensor<1x1x4x4xi1>
  %e11 = tensor.empty() : tensor<1x1x4x4xf32>
  %bias = linalg.generic {indexing_maps = [#id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep, %zero, %fill : tensor<1x1x4x4xi1>, tensor<f32>, tensor<f32>) outs(%e11 : tensor<1x1x4x4xf32>) {
  ^bb0(%m: i1, %a: f32, %b: f32, %o: f32):
    %r = arith.select %m, %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x1x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %qs = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q, %s : tensor<1x2x4x4xf32>, tensor<f32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%kc : tensor<2x4x4xf32>) outs(%e3 : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %ke = tensor.expand_shape %kt [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %ks = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ke, %s : tensor<1x2x4x4xf32>, tensor<f32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %qc = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %ksc = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%c0 : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %scores = linalg.batch_matmul ins(%qc, %ksc : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %se = tensor.expand_shape %scores [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %logits = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%se, %bias : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %e2 = tensor.empty() : tensor<1x2x4xf32>
  %minf = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%minf : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %maxe = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %sub = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %maxe : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %e1 = tensor.empty() : tensor<1x2x4x1xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%z1 : tensor<1x2x4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %eb = tensor.empty() : tensor<1x2x4x4xi1>
  %nan = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p, %p : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%eb : tensor<1x2x4x4xi1>) {
  ^bb0(%a: f32, %b: f32, %o: i1):
    %r = arith.cmpf une, %a, %b : f32
    linalg.yield %r : i1
  } -> tensor<1x2x4x4xi1>
  %g = linalg.generic {indexing_maps = [#id, #scalar, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%nan, %zero, %p : tensor<1x2x4x4xi1>, tensor<f32>, tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%c: i1, %a: f32, %b: f32, %o: f32):
    %r = arith.select %c, %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %gc = tensor.collapse_shape %g [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %out = linalg.batch_matmul ins(%gc, %vc : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %out : tensor<2x4x4xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
#bcast = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#col = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>

func.func @guard_on_other_tensor(%q: tensor<1x2x4x4xf32>, %k: tensor<1x2x4x4xf32>, %v: tensor<1x2x4x4xf32>, %other: tensor<1x2x4x4xf32>) -> tensor<2x4x4xf32> {
  %s = arith.constant dense<0.707106769> : tensor<f32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %fill = arith.constant dense<-3.40282347E+38> : tensor<f32>
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %keep = arith.constant dense<[[[[true, false, false, false], [true, true, false, false], [true, true, true, false], [true, true, true, true]]]]> : tensor<1x1x4x4xi1>
  %e11 = tensor.empty() : tensor<1x1x4x4xf32>
  %bias = linalg.generic {indexing_maps = [#id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep, %zero, %fill : tensor<1x1x4x4xi1>, tensor<f32>, tensor<f32>) outs(%e11 : tensor<1x1x4x4xf32>) {
  ^bb0(%m: i1, %a: f32, %b: f32, %o: f32):
    %r = arith.select %m, %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x1x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %qs = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q, %s : tensor<1x2x4x4xf32>, tensor<f32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%kc : tensor<2x4x4xf32>) outs(%e3 : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %ke = tensor.expand_shape %kt [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %ks = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ke, %s : tensor<1x2x4x4xf32>, tensor<f32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %qc = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %ksc = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %z3 = linalg.fill ins(%c0 : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %scores = linalg.batch_matmul ins(%qc, %ksc : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %se = tensor.expand_shape %scores [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %logits = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%se, %bias : tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %e2 = tensor.empty() : tensor<1x2x4xf32>
  %minf = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%logits : tensor<1x2x4x4xf32>) outs(%minf : tensor<1x2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %maxe = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : tensor<1x2x4xf32> into tensor<1x2x4x1xf32>
  %sub = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits, %maxe : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %e1 = tensor.empty() : tensor<1x2x4x1xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x4x4xf32>) outs(%z1 : tensor<1x2x4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %eb = tensor.empty() : tensor<1x2x4x4xi1>
  %nan = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%other, %other : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%eb : tensor<1x2x4x4xi1>) {
  ^bb0(%a: f32, %b: f32, %o: i1):
    %r = arith.cmpf une, %a, %b : f32
    linalg.yield %r : i1
  } -> tensor<1x2x4x4xi1>
  %g = linalg.generic {indexing_maps = [#id, #scalar, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%nan, %zero, %p : tensor<1x2x4x4xi1>, tensor<f32>, tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%c: i1, %a: f32, %b: f32, %o: f32):
    %r = arith.select %c, %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %gc = tensor.collapse_shape %g [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %out = linalg.batch_matmul ins(%gc, %vc : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %out : tensor<2x4x4xf32>
}

