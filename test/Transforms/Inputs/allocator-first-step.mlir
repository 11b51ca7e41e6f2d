// An optimizer state that torch.optim makes in the first step, and a
// gradient buffer that autograd makes there (memplan.created_in_first_step),
// each against the same step with it made before: memory-report.test works
// them through the allocator model by hand.
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

// A gradient buffer (.grad) made in the first step from the first gradient
// it receives, which it takes over, against the same buffer made before.
func.func @grad_first_step(%x: tensor<1024x4096xf32> {memplan.name = "x", memplan.role = #memplan.role<input>},
                           %acc: tensor<1024x3072xf32> {memplan.name = "w.grad", memplan.role = #memplan.role<gradient_accumulator>, memplan.created_in_first_step}) -> tensor<1024xf32> {
  %a = memplan.op "forward"(%x) : (tensor<1024x4096xf32>) -> tensor<1024x5120xf32>
  %g = memplan.op "backward"(%a) : (tensor<1024x5120xf32>) -> tensor<1024x3072xf32>
  %u = memplan.op "grad_accumulate"(%acc, %g) {aliases = array<i64: 0>} : (tensor<1024x3072xf32>, tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
  %y = memplan.op "later"(%a) : (tensor<1024x5120xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}

func.func @grad_before_the_step(%x: tensor<1024x4096xf32> {memplan.name = "x", memplan.role = #memplan.role<input>},
                                %acc: tensor<1024x3072xf32> {memplan.name = "w.grad", memplan.role = #memplan.role<gradient_accumulator>}) -> tensor<1024xf32> {
  %a = memplan.op "forward"(%x) : (tensor<1024x4096xf32>) -> tensor<1024x5120xf32>
  %g = memplan.op "backward"(%a) : (tensor<1024x5120xf32>) -> tensor<1024x3072xf32>
  %u = memplan.op "grad_accumulate"(%acc, %g) {aliases = array<i64: 0>} : (tensor<1024x3072xf32>, tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
  %y = memplan.op "later"(%a) : (tensor<1024x5120xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}
