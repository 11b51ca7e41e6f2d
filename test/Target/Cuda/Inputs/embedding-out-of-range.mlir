// An embedding of 2 rows: generated main fills the ids (argument 1) with
// (1 + i) mod 97 = 1, 2, 3, 4: three are out of range (no-sync-in-run.test).
func.func @lookup(%table: tensor<2x8xf32>, %ids: tensor<1x4xi32>) -> tensor<1x4x8xf32> {
  %0 = memplan.embedding %table, %ids : tensor<2x8xf32>, tensor<1x4xi32> -> tensor<1x4x8xf32>
  %1 = memplan.gelu %0 : tensor<1x4x8xf32>
  return %1 : tensor<1x4x8xf32>
}
