// An optimizer state that torch.optim makes in the first step
// (memplan.created_in_first_step), against the same step with it made
// before: memory-report.test works both through the allocator model by hand.
func.func @first_step(%x: tensor<1024x4096xf32> {memplan.name = "x", memplan.role = #memplan.role<input>},
                      %m: tensor<1024x3072xf32> {memplan.name = "m", memplan.role = #memplan.role<optimizer_state>, memplan.created_in_first_step}) {
  %a = memplan.op "forward"(%x) : (tensor<1024x4096xf32>) -> tensor<1024x5120xf32>
  %g = memplan.op "backward"(%a) : (tensor<1024x5120xf32>) -> tensor<1024x3072xf32>
  %u = memplan.op "update"(%m, %g) {aliases = array<i64: 0>} : (tensor<1024x3072xf32>, tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
  return
}

func.func @before_the_step(%x: tensor<1024x4096xf32> {memplan.name = "x", memplan.role = #memplan.role<input>},
                           %m: tensor<1024x3072xf32> {memplan.name = "m", memplan.role = #memplan.role<optimizer_state>}) {
  %a = memplan.op "forward"(%x) : (tensor<1024x4096xf32>) -> tensor<1024x5120xf32>
  %g = memplan.op "backward"(%a) : (tensor<1024x5120xf32>) -> tensor<1024x3072xf32>
  %u = memplan.op "update"(%m, %g) {aliases = array<i64: 0>} : (tensor<1024x3072xf32>, tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
  return
}
