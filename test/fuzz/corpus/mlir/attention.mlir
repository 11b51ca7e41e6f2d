func.func @a(%x: tensor<1x8x32xf32>, %w: tensor<32x32xf32>, %c: tensor<1x2x16x16xf32>, %p: index) -> tensor<1x2x8x16xf32> {
  %0 = memplan.matmul %x, %w {workspace_bytes = 64 : i64} : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  %1 = memplan.reshape %0 : tensor<1x8x32xf32> -> tensor<1x2x8x16xf32>
  %2 = memplan.kv_cache_update %c, %1, %p : tensor<1x2x16x16xf32>, tensor<1x2x8x16xf32>
  %3 = memplan.attention %1, %2, %2 {causal} : tensor<1x2x8x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32> -> tensor<1x2x8x16xf32>
  %4 = memplan.transpose %3 permutation = [0, 2, 1, 3] : tensor<1x2x8x16xf32> -> tensor<1x8x2x16xf32>
  %5 = memplan.softmax %4 axis(-1) : tensor<1x8x2x16xf32>
  %6 = memplan.op "custom"(%5) {scratch = 32 : i64} : (tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
  %7 = memplan.reshape %6 : tensor<1x8x2x16xf32> -> tensor<1x2x8x16xf32>
  return %7 : tensor<1x2x8x16xf32>
}
