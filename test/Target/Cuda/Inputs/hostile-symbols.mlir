// Symbol names that are not C identifiers: one that would close a comment
// line and inject a global initialiser that runs at start-up, one that starts
// with a digit and holds a space and a question mark (see
// translate-symbols.test).
func.func @"f\0A}\0Aint injected = puts(\22pwned\22);\0A//\5C"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = memplan.gelu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @"9 lives?"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = memplan.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
