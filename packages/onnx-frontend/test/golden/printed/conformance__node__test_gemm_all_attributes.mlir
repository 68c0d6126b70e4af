#loc2 = loc("a")
module {
  func.func @main(%arg0: tensor<4x3xf32> loc("a")) -> tensor<3x5xf32> {
    %0 = spat.graph_compute [] = [] (%arg) = (%arg0) crossbarWeights 0 : [] (tensor<4x3xf32>) -> tensor<3x4xf32> {
      %3 = tensor.empty() : tensor<3x4xf32> loc(#loc3)
      %extracted_slice = tensor.extract_slice %arg[0, 0] [4, 1] [1, 1] : tensor<4x3xf32> to tensor<4xf32> loc(#loc3)
      %inserted_slice = tensor.insert_slice %extracted_slice into %3[0, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<3x4xf32> loc(#loc3)
      %extracted_slice_1 = tensor.extract_slice %arg[0, 1] [4, 1] [1, 1] : tensor<4x3xf32> to tensor<4xf32> loc(#loc3)
      %inserted_slice_2 = tensor.insert_slice %extracted_slice_1 into %inserted_slice[1, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<3x4xf32> loc(#loc3)
      %extracted_slice_3 = tensor.extract_slice %arg[0, 2] [4, 1] [1, 1] : tensor<4x3xf32> to tensor<4xf32> loc(#loc3)
      %inserted_slice_4 = tensor.insert_slice %extracted_slice_3 into %inserted_slice_2[2, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<3x4xf32> loc(#loc3)
      spat.yield %inserted_slice_4 : tensor<3x4xf32> loc(#loc3)
    } loc(#loc3)
    %cst = arith.constant dense<[[0.142011136, 0.00505459914, 0.244654581, 0.029568607, 0.13046208], [0.231399164, 0.208154961, 0.199789643, 0.159980252, 0.103665486], [0.0177590139, 0.194539189, 0.115369841, 0.0358383209, 6.613890e-02], [0.0217823256, 0.217503041, 0.1951323, 0.236167222, 0.193558425]]> : tensor<4x5xf32> loc(#loc3)
    %cst_0 = arith.constant dense<[[0.159652606, 0.19895187, 6.576430e-03, 0.216172412, 0.214233503]]> : tensor<1x5xf32> loc(#loc3)
    %1 = spat.graph_compute_batch %lane = 0 to 3 [%warg] = [%cst] (%arg, %arg_1) = (%0, %cst_0) shared_outs(%out) crossbarWeights 1 : [tensor<4x5xf32>] (tensor<3x4xf32>, tensor<1x5xf32>) -> tensor<3x1x5xf32> {
      %extracted_slice = tensor.extract_slice %arg[%lane, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<1x4xf32> loc(#loc3)
      %3 = spat.wvmm[%warg](%extracted_slice) : (tensor<4x5xf32>, tensor<1x4xf32>) -> tensor<1x5xf32> loc(#loc3)
      %4 = spat.vadd %3, %arg_1 : (tensor<1x5xf32>, tensor<1x5xf32>) -> tensor<1x5xf32> loc(#loc3)
      spat.in_parallel {
        tensor.parallel_insert_slice %4 into %out[%lane, 0, 0] [1, 1, 5] [1, 1, 1] : tensor<1x5xf32> into tensor<3x1x5xf32> loc(#loc3)
      } loc(#loc3)
    } loc(#loc3)
    %2 = spat.blueprint fragments(%1) layout nchw physical fragmented offsets [0, 0, 1, 0, 2, 0] sizes [1, 5, 1, 5, 1, 5] map explicit mode fragment_assembly operandIndices [0, 0, 0] sourceSlots [0, 1, 2] sourceOffsets [0, 0, 0] strides [1, 1, 1, 1, 1, 1] conflict disjoint coverage complete : (tensor<3x1x5xf32>) -> tensor<3x5xf32> loc(#loc3)
    return %2 : tensor<3x5xf32> loc(#loc4)
  } loc(#loc1)
} loc(#loc)
#loc = loc("/usr/include/onnx/backend/test/data/node/test_gemm_all_attributes/model.onnx")
#loc1 = loc("test_gemm_all_attributes")
#loc3 = loc("Gemm_0")
#loc4 = loc("y")

