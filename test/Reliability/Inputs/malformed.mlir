// Not valid MLIR: the type is missing.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = memplan.gelu %x
  return %0 : tensor<4xf32>
}
