func.func @step(%w: tensor<1024x1024xf32> {memplan.name = "w", memplan.role = #memplan.role<weight>},
                %x: tensor<8x1024xf32> {memplan.name = "x", memplan.role = #memplan.role<input>},
                %v: tensor<1024x3072xf32> {memplan.name = "v", memplan.role = #memplan.role<weight>})
    -> tensor<8x3072xf32> {
  %a = memplan.matmul %x, %w : tensor<8x1024xf32>, tensor<1024x1024xf32> -> tensor<8x1024xf32>
  %b = memplan.gelu %a : tensor<8x1024xf32>
  %c = memplan.add %b, %a : tensor<8x1024xf32>, tensor<8x1024xf32> -> tensor<8x1024xf32>
  %d = memplan.matmul %c, %v : tensor<8x1024xf32>, tensor<1024x3072xf32> -> tensor<8x3072xf32>
  return %d : tensor<8x3072xf32>
}
