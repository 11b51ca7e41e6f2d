func.func @n(%x: tensor<2x4x8xf16>, %g: tensor<8xf16>, %ids: tensor<2x4xi32>, %t: tensor<10x8xf16>, %pos: tensor<4xi64>) -> tensor<2x4x8xf16> {
  %e = memplan.embedding %t, %ids : tensor<10x8xf16>, tensor<2x4xi32> -> tensor<2x4x8xf16>
  %a = memplan.add %x, %e : tensor<2x4x8xf16>, tensor<2x4x8xf16> -> tensor<2x4x8xf16>
  %l = memplan.layer_norm %a, %g, %g : tensor<2x4x8xf16>, tensor<8xf16>
  %r = memplan.rms_norm %l, %g : tensor<2x4x8xf16>, tensor<8xf16>
  %r4 = memplan.reshape %r : tensor<2x4x8xf16> -> tensor<2x4x2x4xf16>
  %q = memplan.rope %r4, %pos : tensor<2x4x2x4xf16>, tensor<4xi64>
  %b = memplan.reshape %q : tensor<2x4x2x4xf16> -> tensor<2x4x8xf16>
  %s = memplan.slice %b offsets = [0, 0, 0] sizes = [2, 2, 8] : tensor<2x4x8xf16> -> tensor<2x2x8xf16>
  %c = memplan.concat %s, %s axis(1) : tensor<2x2x8xf16>, tensor<2x2x8xf16> -> tensor<2x4x8xf16>
  %k = memplan.cast %c : tensor<2x4x8xf16> -> tensor<2x4x8xbf16>
  %k2 = memplan.cast %k : tensor<2x4x8xbf16> -> tensor<2x4x8xf16>
  %m = memplan.mul %k2, %g : tensor<2x4x8xf16>, tensor<8xf16> -> tensor<2x4x8xf16>
  return %m : tensor<2x4x8xf16>
}
