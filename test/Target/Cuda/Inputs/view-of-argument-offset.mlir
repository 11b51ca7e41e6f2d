// A tampered plan: an arena offset on a view of the caller's argument.
func.func @f(%x: tensor<16x16xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64, memplan.alignment = 64 : i64} {
  %0 = memplan.reshape %x {memplan.offsets = array<i64: 0>} : tensor<16x16xf32> -> tensor<256xf32>
  %1 = memplan.gelu %0 {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  return %1 : tensor<256xf32>
}
