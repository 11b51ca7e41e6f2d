func.func @f(%x: tensor<16xf32>) -> tensor<4xf32> {
  %0 = memplan.op "topk"(%x) : (tensor<16xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
