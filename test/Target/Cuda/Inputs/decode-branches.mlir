// A decode step whose order the scheduler improves: a 1 KiB projection of
// the input (%early) is computed first but read only by the last matmul,
// so in this order it is live while the attention's second 1 KiB
// projection (%late) is. Reading %early right away (its matmul depends on
// nothing else) halves the peak. Both caches are written in place and read
// by the attention after their updates; the scheduler must keep that.
func.func @decode_branches(%x: tensor<1x1x1x8xf32>, %kc: tensor<1x1x4x8xf32>,
                           %vc: tensor<1x1x4x8xf32>, %pos: index,
                           %wk: tensor<8x8xf32>, %wv: tensor<8x8xf32>,
                           %wb: tensor<8x256xf32>, %wc: tensor<256x8xf32>)
    -> (tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>) {
  %early = memplan.matmul %x, %wb : tensor<1x1x1x8xf32>, tensor<8x256xf32> -> tensor<1x1x1x256xf32>
  %k = memplan.matmul %x, %wk : tensor<1x1x1x8xf32>, tensor<8x8xf32> -> tensor<1x1x1x8xf32>
  %v = memplan.matmul %x, %wv : tensor<1x1x1x8xf32>, tensor<8x8xf32> -> tensor<1x1x1x8xf32>
  %kc2 = memplan.kv_cache_update %kc, %k, %pos : tensor<1x1x4x8xf32>, tensor<1x1x1x8xf32>
  %vc2 = memplan.kv_cache_update %vc, %v, %pos : tensor<1x1x4x8xf32>, tensor<1x1x1x8xf32>
  %a = memplan.attention %x, %kc2, %vc2 {causal} : tensor<1x1x1x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32> -> tensor<1x1x1x8xf32>
  %late = memplan.matmul %a, %wb : tensor<1x1x1x8xf32>, tensor<8x256xf32> -> tensor<1x1x1x256xf32>
  %g = memplan.gelu %late : tensor<1x1x1x256xf32>
  %r = memplan.matmul %g, %wc : tensor<1x1x1x256xf32>, tensor<256x8xf32> -> tensor<1x1x1x8xf32>
  %r2 = memplan.matmul %early, %wc : tensor<1x1x1x256xf32>, tensor<256x8xf32> -> tensor<1x1x1x8xf32>
  return %r, %r2, %kc2, %vc2 : tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>
}
