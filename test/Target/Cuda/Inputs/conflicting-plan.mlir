// A plan edited by hand: %1 is placed over %0 while both are live.
func.func @conflict(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  %1 = memplan.transpose %x permutation = [0] {memplan.offsets = array<i64: 0>} : tensor<256xf32> -> tensor<256xf32>
  %2 = memplan.add %0, %1 {memplan.offsets = array<i64: 0>} : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %2 : tensor<256xf32>
}
