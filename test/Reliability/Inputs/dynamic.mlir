func.func @f(%n: index) {
  // A dynamic shape: a static planner cannot size it.
  %0 = tensor.empty(%n) : tensor<?x4xf32>
  return
}
