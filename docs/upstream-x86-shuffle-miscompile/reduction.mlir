func.func @f(%x: tensor<1x4x3x4x7xf32>) -> tensor<1x4x3x4xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %4 = tensor.empty() : tensor<1x4x3x4xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1x4x3x4xf32>) -> tensor<1x4x3x4xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x : tensor<1x4x3x4x7xf32>) outs(%5 : tensor<1x4x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %14 = arith.maximumf %in, %out : f32
    linalg.yield %14 : f32
  } -> tensor<1x4x3x4xf32>
  return %6 : tensor<1x4x3x4xf32>
}
