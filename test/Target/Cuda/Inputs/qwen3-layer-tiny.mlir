// llama-layer-tiny.mlir with Qwen3's query/key normalisation: each head's
// query and key RMS-normalised over its 8 elements, with weights of 8
// (the last two arguments), before the rotation, as memplan-gen builds
// model_type qwen3. Reference: reference.cpp (qwen3).
func.func @qwen3_layer_tiny(
    %x: tensor<1x8x32xf32>, %positions: tensor<8xi64>,
    %attn_norm: tensor<32xf32>,
    %wq: tensor<32x32xf32>, %wk: tensor<32x16xf32>,
    %wv: tensor<32x16xf32>, %wo: tensor<32x32xf32>,
    %ffn_norm: tensor<32xf32>,
    %w_gate: tensor<32x64xf32>, %w_up: tensor<32x64xf32>,
    %w_down: tensor<64x32xf32>,
    %q_norm: tensor<8xf32>, %k_norm: tensor<8xf32>)
    -> tensor<1x8x32xf32> {
  %h = memplan.rms_norm %x, %attn_norm : tensor<1x8x32xf32>, tensor<32xf32>
  %q0 = memplan.matmul %h, %wq : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  %k0 = memplan.matmul %h, %wk : tensor<1x8x32xf32>, tensor<32x16xf32> -> tensor<1x8x16xf32>
  %v0 = memplan.matmul %h, %wv : tensor<1x8x32xf32>, tensor<32x16xf32> -> tensor<1x8x16xf32>
  %q1 = memplan.reshape %q0 : tensor<1x8x32xf32> -> tensor<1x8x4x8xf32>
  %k1 = memplan.reshape %k0 : tensor<1x8x16xf32> -> tensor<1x8x2x8xf32>
  %v1 = memplan.reshape %v0 : tensor<1x8x16xf32> -> tensor<1x8x2x8xf32>
  %qn = memplan.rms_norm %q1, %q_norm : tensor<1x8x4x8xf32>, tensor<8xf32>
  %kn = memplan.rms_norm %k1, %k_norm : tensor<1x8x2x8xf32>, tensor<8xf32>
  %q2 = memplan.rope %qn, %positions : tensor<1x8x4x8xf32>, tensor<8xi64>
  %k2 = memplan.rope %kn, %positions : tensor<1x8x2x8xf32>, tensor<8xi64>
  %q = memplan.transpose %q2 permutation = [0, 2, 1, 3] : tensor<1x8x4x8xf32> -> tensor<1x4x8x8xf32>
  %k = memplan.transpose %k2 permutation = [0, 2, 1, 3] : tensor<1x8x2x8xf32> -> tensor<1x2x8x8xf32>
  %v = memplan.transpose %v1 permutation = [0, 2, 1, 3] : tensor<1x8x2x8xf32> -> tensor<1x2x8x8xf32>
  %a = memplan.attention %q, %k, %v {causal} : tensor<1x4x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32> -> tensor<1x4x8x8xf32>
  %at = memplan.transpose %a permutation = [0, 2, 1, 3] : tensor<1x4x8x8xf32> -> tensor<1x8x4x8xf32>
  %a2 = memplan.reshape %at : tensor<1x8x4x8xf32> -> tensor<1x8x32xf32>
  %o = memplan.matmul %a2, %wo : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  %r1 = memplan.add %x, %o : tensor<1x8x32xf32>, tensor<1x8x32xf32> -> tensor<1x8x32xf32>
  %h2 = memplan.rms_norm %r1, %ffn_norm : tensor<1x8x32xf32>, tensor<32xf32>
  %g = memplan.matmul %h2, %w_gate : tensor<1x8x32xf32>, tensor<32x64xf32> -> tensor<1x8x64xf32>
  %gs = memplan.silu %g : tensor<1x8x64xf32>
  %u = memplan.matmul %h2, %w_up : tensor<1x8x32xf32>, tensor<32x64xf32> -> tensor<1x8x64xf32>
  %m = memplan.mul %gs, %u : tensor<1x8x64xf32>, tensor<1x8x64xf32> -> tensor<1x8x64xf32>
  %d = memplan.matmul %m, %w_down : tensor<1x8x64xf32>, tensor<64x32xf32> -> tensor<1x8x32xf32>
  %out = memplan.add %r1, %d : tensor<1x8x32xf32>, tensor<1x8x32xf32> -> tensor<1x8x32xf32>
  return %out : tensor<1x8x32xf32>
}
