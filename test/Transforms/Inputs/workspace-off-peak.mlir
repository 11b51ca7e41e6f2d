// A 1 KiB library workspace at an op whose live set is small (two 256-byte
// buffers), far from the peak (the 16 KiB buffer with the 256-byte result
// and 256 bytes of ordinary scratch of "reduce": 16896 bytes).
func.func @off_peak(%x: tensor<64xf32>) -> tensor<f32> {
  %a = memplan.op "expand"(%x) : (tensor<64xf32>) -> tensor<4096xf32>
  %b = memplan.op "reduce"(%a) {scratch = 256 : i64} : (tensor<4096xf32>) -> tensor<64xf32>
  %c = memplan.op "gemm"(%b) {scratch = 1024 : i64, library_workspace} : (tensor<64xf32>) -> tensor<64xf32>
  %d = memplan.op "sum"(%c) : (tensor<64xf32>) -> tensor<f32>
  return %d : tensor<f32>
}
