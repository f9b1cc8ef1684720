// Input of raise-llama-tiny.mlir: the torch-mlir (linalg-on-tensors) export
// of one eager Hugging Face LlamaAttention (hidden 64, 4 query heads, 2 KV
// heads, head_dim 16, llama3 rope scaling, S = 8) with its LlamaRotaryEmbedding
// and an explicit triu(-inf) causal mask, as /tmp/exp/llama2.py exported it.
// The weight blobs (dense_resource) are replaced by splat constants and
// inv_freq by its dense values; the IR is otherwise unchanged.
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> ()>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map7 = affine_map<(d0, d1, d2) -> (d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map10 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map11 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map12 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map13 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attn(%arg0: tensor<1x8x64xf32>) -> tensor<1x8x64xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<8x8xf32>
    %cst_3 = arith.constant dense<4.000000e-02> : tensor<64x64xf32>
    %cst_4 = arith.constant dense<3.000000e-02> : tensor<32x64xf32>
    %cst_5 = arith.constant dense<2.000000e-02> : tensor<32x64xf32>
    %cst_6 = arith.constant dense<1.000000e-02> : tensor<64x64xf32>
    %cst_7 = arith.constant dense<[1.000000e+00, 0.244384587, 0.0130422562, 0.00395284733, 1.250000e-03, 3.95284733E-4, 1.250000e-04, 3.95284733E-5]> : tensor<8xf32>
    %cst_8 = arith.constant 2.500000e-01 : f32
    %0 = tensor.empty() : tensor<8xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %61 = linalg.index 0 : index
      %62 = arith.index_cast %61 : index to i64
      linalg.yield %62 : i64
    } -> tensor<8xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_9 = tensor.expand_shape %1 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %2 = tensor.empty() : tensor<8x8xi64>
    %3 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_9 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%2 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_40: i64, %out: i64):
      %61 = arith.subi %in, %in_40 : i64
      linalg.yield %61 : i64
    } -> tensor<8x8xi64>
    %4 = tensor.empty() : tensor<8x8xi1>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<8x8xi64>) outs(%4 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %61 = arith.cmpi sge, %in, %c1_i64 : i64
      linalg.yield %61 : i1
    } -> tensor<8x8xi1>
    %6 = tensor.empty() : tensor<8x8xf32>
    %7 = linalg.generic {indexing_maps = [#map3, #map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_2, %cst_1 : tensor<8x8xi1>, tensor<8x8xf32>, tensor<f32>) outs(%6 : tensor<8x8xf32>) {
    ^bb0(%in: i1, %in_40: f32, %in_41: f32, %out: f32):
      %61 = arith.select %in, %in_40, %in_41 : f32
      linalg.yield %61 : f32
    } -> tensor<8x8xf32>
    %expanded_10 = tensor.expand_shape %7 [[0, 1, 2], [3]] output_shape [1, 1, 8, 8] : tensor<8x8xf32> into tensor<1x1x8x8xf32>
    %expanded_11 = tensor.expand_shape %1 [[0, 1, 2]] output_shape [1, 8, 1] : tensor<8xi64> into tensor<1x8x1xi64>
    %8 = tensor.empty() : tensor<1x8x1xf32>
    %9 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_11 : tensor<1x8x1xi64>) outs(%8 : tensor<1x8x1xf32>) {
    ^bb0(%in: i64, %out: f32):
      %61 = arith.sitofp %in : i64 to f32
      linalg.yield %61 : f32
    } -> tensor<1x8x1xf32>
    %10 = tensor.empty() : tensor<1x8x8xf32>
    %11 = linalg.generic {indexing_maps = [#map6, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %cst_7 : tensor<1x8x1xf32>, tensor<8xf32>) outs(%10 : tensor<1x8x8xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.mulf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x8x8xf32>
    %concat = tensor.concat dim(2) %11, %11 : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x16xf32>
    %12 = tensor.empty() : tensor<1x8x16xf32>
    %13 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat : tensor<1x8x16xf32>) outs(%12 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = math.cos %in : f32
      linalg.yield %61 : f32
    } -> tensor<1x8x16xf32>
    %14 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat : tensor<1x8x16xf32>) outs(%12 : tensor<1x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = math.sin %in : f32
      linalg.yield %61 : f32
    } -> tensor<1x8x16xf32>
    %15 = tensor.empty() : tensor<64x64xf32>
    %transposed = linalg.transpose ins(%cst_6 : tensor<64x64xf32>) outs(%15 : tensor<64x64xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<1x8x64xf32> into tensor<8x64xf32>
    %16 = tensor.empty() : tensor<8x64xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %18 = linalg.matmul ins(%collapsed, %transposed : tensor<8x64xf32>, tensor<64x64xf32>) outs(%17 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %expanded_12 = tensor.expand_shape %18 [[0, 1], [2, 3]] output_shape [1, 8, 4, 16] : tensor<8x64xf32> into tensor<1x8x4x16xf32>
    %19 = tensor.empty() : tensor<1x4x8x16xf32>
    %transposed_13 = linalg.transpose ins(%expanded_12 : tensor<1x8x4x16xf32>) outs(%19 : tensor<1x4x8x16xf32>) permutation = [0, 2, 1, 3] 
    %20 = tensor.empty() : tensor<64x32xf32>
    %transposed_14 = linalg.transpose ins(%cst_5 : tensor<32x64xf32>) outs(%20 : tensor<64x32xf32>) permutation = [1, 0] 
    %21 = tensor.empty() : tensor<8x32xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %23 = linalg.matmul ins(%collapsed, %transposed_14 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%22 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %expanded_15 = tensor.expand_shape %23 [[0, 1], [2, 3]] output_shape [1, 8, 2, 16] : tensor<8x32xf32> into tensor<1x8x2x16xf32>
    %24 = tensor.empty() : tensor<1x2x8x16xf32>
    %transposed_16 = linalg.transpose ins(%expanded_15 : tensor<1x8x2x16xf32>) outs(%24 : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3] 
    %transposed_17 = linalg.transpose ins(%cst_4 : tensor<32x64xf32>) outs(%20 : tensor<64x32xf32>) permutation = [1, 0] 
    %25 = linalg.matmul ins(%collapsed, %transposed_17 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%22 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %expanded_18 = tensor.expand_shape %25 [[0, 1], [2, 3]] output_shape [1, 8, 2, 16] : tensor<8x32xf32> into tensor<1x8x2x16xf32>
    %transposed_19 = linalg.transpose ins(%expanded_18 : tensor<1x8x2x16xf32>) outs(%24 : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3] 
    %expanded_20 = tensor.expand_shape %13 [[0], [1, 2], [3]] output_shape [1, 1, 8, 16] : tensor<1x8x16xf32> into tensor<1x1x8x16xf32>
    %expanded_21 = tensor.expand_shape %14 [[0], [1, 2], [3]] output_shape [1, 1, 8, 16] : tensor<1x8x16xf32> into tensor<1x1x8x16xf32>
    %26 = linalg.generic {indexing_maps = [#map8, #map9, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_13, %expanded_20 : tensor<1x4x8x16xf32>, tensor<1x1x8x16xf32>) outs(%19 : tensor<1x4x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.mulf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x16xf32>
    %extracted_slice = tensor.extract_slice %transposed_13[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1] : tensor<1x4x8x16xf32> to tensor<1x4x8x8xf32>
    %extracted_slice_22 = tensor.extract_slice %transposed_13[0, 0, 0, 8] [1, 4, 8, 8] [1, 1, 1, 1] : tensor<1x4x8x16xf32> to tensor<1x4x8x8xf32>
    %27 = tensor.empty() : tensor<1x4x8x8xf32>
    %28 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_22 : tensor<1x4x8x8xf32>) outs(%27 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = arith.negf %in : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x8xf32>
    %concat_23 = tensor.concat dim(3) %28, %extracted_slice : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x16xf32>
    %29 = linalg.generic {indexing_maps = [#map8, #map9, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_23, %expanded_21 : tensor<1x4x8x16xf32>, tensor<1x1x8x16xf32>) outs(%19 : tensor<1x4x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.mulf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x16xf32>
    %30 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %29 : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) outs(%19 : tensor<1x4x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.addf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x16xf32>
    %31 = linalg.generic {indexing_maps = [#map8, #map9, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_16, %expanded_20 : tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) outs(%24 : tensor<1x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.mulf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x2x8x16xf32>
    %extracted_slice_24 = tensor.extract_slice %transposed_16[0, 0, 0, 0] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x8x16xf32> to tensor<1x2x8x8xf32>
    %extracted_slice_25 = tensor.extract_slice %transposed_16[0, 0, 0, 8] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x8x16xf32> to tensor<1x2x8x8xf32>
    %32 = tensor.empty() : tensor<1x2x8x8xf32>
    %33 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_25 : tensor<1x2x8x8xf32>) outs(%32 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = arith.negf %in : f32
      linalg.yield %61 : f32
    } -> tensor<1x2x8x8xf32>
    %concat_26 = tensor.concat dim(3) %33, %extracted_slice_24 : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x16xf32>
    %34 = linalg.generic {indexing_maps = [#map8, #map9, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_26, %expanded_21 : tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) outs(%24 : tensor<1x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.mulf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x2x8x16xf32>
    %35 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%31, %34 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%24 : tensor<1x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.addf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x2x8x16xf32>
    %36 = tensor.empty() : tensor<1x2x2x8x16xf32>
    %37 = linalg.generic {indexing_maps = [#map10, #map11], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%35 : tensor<1x2x8x16xf32>) outs(%36 : tensor<1x2x2x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x2x2x8x16xf32>
    %collapsed_27 = tensor.collapse_shape %37 [[0], [1, 2], [3], [4]] : tensor<1x2x2x8x16xf32> into tensor<1x4x8x16xf32>
    %38 = linalg.generic {indexing_maps = [#map10, #map11], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_19 : tensor<1x2x8x16xf32>) outs(%36 : tensor<1x2x2x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x2x2x8x16xf32>
    %39 = tensor.empty() : tensor<1x4x16x8xf32>
    %transposed_28 = linalg.transpose ins(%collapsed_27 : tensor<1x4x8x16xf32>) outs(%39 : tensor<1x4x16x8xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_29 = tensor.collapse_shape %30 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
    %collapsed_30 = tensor.collapse_shape %transposed_28 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
    %40 = tensor.empty() : tensor<4x8x8xf32>
    %41 = linalg.fill ins(%cst : f32) outs(%40 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %42 = linalg.batch_matmul ins(%collapsed_29, %collapsed_30 : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%41 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %expanded_31 = tensor.expand_shape %42 [[0, 1], [2], [3]] output_shape [1, 4, 8, 8] : tensor<4x8x8xf32> into tensor<1x4x8x8xf32>
    %43 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_31 : tensor<1x4x8x8xf32>) outs(%27 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = arith.mulf %in, %cst_8 : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x8xf32>
    %44 = linalg.generic {indexing_maps = [#map8, #map9, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %expanded_10 : tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>) outs(%27 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.addf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x8xf32>
    %45 = tensor.empty() : tensor<1x4x8xi64>
    %46 = linalg.fill ins(%c0_i64 : i64) outs(%45 : tensor<1x4x8xi64>) -> tensor<1x4x8xi64>
    %47 = tensor.empty() : tensor<1x4x8xf32>
    %48 = linalg.fill ins(%cst_0 : f32) outs(%47 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %49:2 = linalg.generic {indexing_maps = [#map8, #map12, #map12], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%44 : tensor<1x4x8x8xf32>) outs(%48, %46 : tensor<1x4x8xf32>, tensor<1x4x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_40: i64):
      %61 = linalg.index 3 : index
      %62 = arith.index_cast %61 : index to i64
      %63 = arith.maximumf %in, %out : f32
      %64 = arith.cmpf ogt, %in, %out : f32
      %65 = arith.select %64, %62, %out_40 : i64
      linalg.yield %63, %65 : f32, i64
    } -> (tensor<1x4x8xf32>, tensor<1x4x8xi64>)
    %expanded_32 = tensor.expand_shape %49#0 [[0], [1], [2, 3]] output_shape [1, 4, 8, 1] : tensor<1x4x8xf32> into tensor<1x4x8x1xf32>
    %50 = linalg.generic {indexing_maps = [#map8, #map13, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %expanded_32 : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) outs(%27 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.subf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x8xf32>
    %51 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50 : tensor<1x4x8x8xf32>) outs(%27 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = math.exp %in : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x8xf32>
    %52 = tensor.empty() : tensor<1x4x8x1xf32>
    %53 = linalg.fill ins(%cst : f32) outs(%52 : tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
    %54 = linalg.generic {indexing_maps = [#map8, #map13], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%51 : tensor<1x4x8x8xf32>) outs(%53 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = arith.addf %in, %out : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x1xf32>
    %55 = linalg.generic {indexing_maps = [#map8, #map13, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51, %54 : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) outs(%27 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %61 = arith.divf %in, %in_40 : f32
      linalg.yield %61 : f32
    } -> tensor<1x4x8x8xf32>
    %collapsed_33 = tensor.collapse_shape %55 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %collapsed_34 = tensor.collapse_shape %38 [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x16xf32> into tensor<4x8x16xf32>
    %56 = tensor.empty() : tensor<4x8x16xf32>
    %57 = linalg.fill ins(%cst : f32) outs(%56 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %58 = linalg.batch_matmul ins(%collapsed_33, %collapsed_34 : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%57 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %expanded_35 = tensor.expand_shape %58 [[0, 1], [2], [3]] output_shape [1, 4, 8, 16] : tensor<4x8x16xf32> into tensor<1x4x8x16xf32>
    %59 = tensor.empty() : tensor<1x8x4x16xf32>
    %transposed_36 = linalg.transpose ins(%expanded_35 : tensor<1x4x8x16xf32>) outs(%59 : tensor<1x8x4x16xf32>) permutation = [0, 2, 1, 3] 
    %transposed_37 = linalg.transpose ins(%cst_3 : tensor<64x64xf32>) outs(%15 : tensor<64x64xf32>) permutation = [1, 0] 
    %collapsed_38 = tensor.collapse_shape %transposed_36 [[0, 1], [2, 3]] : tensor<1x8x4x16xf32> into tensor<8x64xf32>
    %60 = linalg.matmul ins(%collapsed_38, %transposed_37 : tensor<8x64xf32>, tensor<64x64xf32>) outs(%17 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %expanded_39 = tensor.expand_shape %60 [[0, 1], [2]] output_shape [1, 8, 64] : tensor<8x64xf32> into tensor<1x8x64xf32>
    return %expanded_39 : tensor<1x8x64xf32>
  }
}
