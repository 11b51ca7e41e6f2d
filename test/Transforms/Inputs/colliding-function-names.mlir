func.func @"a/b"(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  return %0 : tensor<256xf32>
}
func.func @"a:b"(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.relu %x : tensor<256xf32>
  return %0 : tensor<256xf32>
}
