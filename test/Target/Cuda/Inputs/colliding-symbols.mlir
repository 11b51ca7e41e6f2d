// Two planned functions whose C names would be the same (a_b_run, ...).
func.func @"a.b"(%x: tensor<4xf32>) -> tensor<4xf32> attributes {memplan.arena_size = 0 : i64} {
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @a_b(%x: tensor<4xf32>) -> tensor<4xf32> attributes {memplan.arena_size = 0 : i64} {
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
