// One LLaMA-7B decoder layer, prefill of 2048 tokens.
// Shapes of the real model: hidden 4096, 32 heads of 128, SwiGLU FFN 11008,
// RMSNorm (epsilon 1e-6), rotary position embedding (theta 10000), f16.
// Weights use the [in, out] layout (x @ W).
// Every matmul has the 32 MiB cuBLAS workspace NVIDIA recommends on Hopper
// (workspace_bytes), planned in the arena while it runs.

func.func @llama7b_layer(
    %x: tensor<1x2048x4096xf16>, %positions: tensor<2048xi64>,
    %attn_norm: tensor<4096xf16>,
    %wq: tensor<4096x4096xf16>, %wk: tensor<4096x4096xf16>,
    %wv: tensor<4096x4096xf16>, %wo: tensor<4096x4096xf16>,
    %ffn_norm: tensor<4096xf16>,
    %w_gate: tensor<4096x11008xf16>, %w_up: tensor<4096x11008xf16>,
    %w_down: tensor<11008x4096xf16>)
    -> tensor<1x2048x4096xf16> {
  // Attention.
  %h = memplan.rms_norm %x, %attn_norm : tensor<1x2048x4096xf16>, tensor<4096xf16>
  %q0 = memplan.matmul %h, %wq {workspace_bytes = 33554432 : i64} : tensor<1x2048x4096xf16>, tensor<4096x4096xf16> -> tensor<1x2048x4096xf16>
  %k0 = memplan.matmul %h, %wk {workspace_bytes = 33554432 : i64} : tensor<1x2048x4096xf16>, tensor<4096x4096xf16> -> tensor<1x2048x4096xf16>
  %v0 = memplan.matmul %h, %wv {workspace_bytes = 33554432 : i64} : tensor<1x2048x4096xf16>, tensor<4096x4096xf16> -> tensor<1x2048x4096xf16>
  %q1 = memplan.reshape %q0 : tensor<1x2048x4096xf16> -> tensor<1x2048x32x128xf16>
  %k1 = memplan.reshape %k0 : tensor<1x2048x4096xf16> -> tensor<1x2048x32x128xf16>
  %v1 = memplan.reshape %v0 : tensor<1x2048x4096xf16> -> tensor<1x2048x32x128xf16>
  %q2 = memplan.rope %q1, %positions : tensor<1x2048x32x128xf16>, tensor<2048xi64>
  %k2 = memplan.rope %k1, %positions : tensor<1x2048x32x128xf16>, tensor<2048xi64>
  %q = memplan.transpose %q2 permutation = [0, 2, 1, 3] : tensor<1x2048x32x128xf16> -> tensor<1x32x2048x128xf16>
  %k = memplan.transpose %k2 permutation = [0, 2, 1, 3] : tensor<1x2048x32x128xf16> -> tensor<1x32x2048x128xf16>
  %v = memplan.transpose %v1 permutation = [0, 2, 1, 3] : tensor<1x2048x32x128xf16> -> tensor<1x32x2048x128xf16>
  %a = memplan.attention %q, %k, %v {causal} : tensor<1x32x2048x128xf16>, tensor<1x32x2048x128xf16>, tensor<1x32x2048x128xf16> -> tensor<1x32x2048x128xf16>
  %at = memplan.transpose %a permutation = [0, 2, 1, 3] : tensor<1x32x2048x128xf16> -> tensor<1x2048x32x128xf16>
  %a2 = memplan.reshape %at : tensor<1x2048x32x128xf16> -> tensor<1x2048x4096xf16>
  %o = memplan.matmul %a2, %wo {workspace_bytes = 33554432 : i64} : tensor<1x2048x4096xf16>, tensor<4096x4096xf16> -> tensor<1x2048x4096xf16>
  %r1 = memplan.add %x, %o : tensor<1x2048x4096xf16>, tensor<1x2048x4096xf16> -> tensor<1x2048x4096xf16>
  // SwiGLU feed-forward.
  %h2 = memplan.rms_norm %r1, %ffn_norm : tensor<1x2048x4096xf16>, tensor<4096xf16>
  %g = memplan.matmul %h2, %w_gate {workspace_bytes = 33554432 : i64} : tensor<1x2048x4096xf16>, tensor<4096x11008xf16> -> tensor<1x2048x11008xf16>
  %gs = memplan.silu %g : tensor<1x2048x11008xf16>
  %u = memplan.matmul %h2, %w_up {workspace_bytes = 33554432 : i64} : tensor<1x2048x4096xf16>, tensor<4096x11008xf16> -> tensor<1x2048x11008xf16>
  %m = memplan.mul %gs, %u : tensor<1x2048x11008xf16>, tensor<1x2048x11008xf16> -> tensor<1x2048x11008xf16>
  %d = memplan.matmul %m, %w_down {workspace_bytes = 33554432 : i64} : tensor<1x2048x11008xf16>, tensor<11008x4096xf16> -> tensor<1x2048x4096xf16>
  %out = memplan.add %r1, %d : tensor<1x2048x4096xf16>, tensor<1x2048x4096xf16> -> tensor<1x2048x4096xf16>
  return %out : tensor<1x2048x4096xf16>
}
