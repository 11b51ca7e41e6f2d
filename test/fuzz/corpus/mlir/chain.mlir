func.func @chain(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  %1 = memplan.relu %0 : tensor<256xf32>
  %2 = memplan.add %0, %1 : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %2 : tensor<256xf32>
}
