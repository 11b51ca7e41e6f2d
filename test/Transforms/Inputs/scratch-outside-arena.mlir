// A hand-edited plan: the scratch sits far beyond the 16-byte arena it claims.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {memplan.arena_size = 16 : i64, memplan.alignment = 16 : i64} {
  %0 = memplan.op "x"(%x) {scratch = 16 : i64, memplan.offsets = array<i64: 0>, memplan.scratch_offset = 999999984 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
