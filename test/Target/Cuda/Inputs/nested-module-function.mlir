// @f in the top module and @f in a nested one: both planned.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {memplan.arena_size = 0 : i64} {
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
module @inner {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {memplan.arena_size = 0 : i64} {
    %0 = memplan.gelu %x {memplan.destinations = array<i64: 0>} : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
