// One BERT-base encoder layer (post-LN), a batch of 8 sequences of 512
// tokens. Shapes of the real model: hidden 768, 12 heads of 64, FFN 3072,
// LayerNorm epsilon 1e-12, f16. Weights use the [in, out] layout (x @ W + b).
// Every matmul has the 32 MiB cuBLAS workspace NVIDIA recommends on Hopper
// (workspace_bytes), planned in the arena while it runs.

func.func @bert_base_layer(
    %x: tensor<8x512x768xf16>,
    %wq: tensor<768x768xf16>, %bq: tensor<768xf16>,
    %wk: tensor<768x768xf16>, %bk: tensor<768xf16>,
    %wv: tensor<768x768xf16>, %bv: tensor<768xf16>,
    %wo: tensor<768x768xf16>, %bo: tensor<768xf16>,
    %ln1_g: tensor<768xf16>, %ln1_b: tensor<768xf16>,
    %w1: tensor<768x3072xf16>, %b1: tensor<3072xf16>,
    %w2: tensor<3072x768xf16>, %b2: tensor<768xf16>,
    %ln2_g: tensor<768xf16>, %ln2_b: tensor<768xf16>)
    -> tensor<8x512x768xf16> {
  // Self-attention (bidirectional).
  %q0 = memplan.matmul %x, %wq {workspace_bytes = 33554432 : i64} : tensor<8x512x768xf16>, tensor<768x768xf16> -> tensor<8x512x768xf16>
  %q1 = memplan.add %q0, %bq : tensor<8x512x768xf16>, tensor<768xf16> -> tensor<8x512x768xf16>
  %k0 = memplan.matmul %x, %wk {workspace_bytes = 33554432 : i64} : tensor<8x512x768xf16>, tensor<768x768xf16> -> tensor<8x512x768xf16>
  %k1 = memplan.add %k0, %bk : tensor<8x512x768xf16>, tensor<768xf16> -> tensor<8x512x768xf16>
  %v0 = memplan.matmul %x, %wv {workspace_bytes = 33554432 : i64} : tensor<8x512x768xf16>, tensor<768x768xf16> -> tensor<8x512x768xf16>
  %v1 = memplan.add %v0, %bv : tensor<8x512x768xf16>, tensor<768xf16> -> tensor<8x512x768xf16>
  %q2 = memplan.reshape %q1 : tensor<8x512x768xf16> -> tensor<8x512x12x64xf16>
  %k2 = memplan.reshape %k1 : tensor<8x512x768xf16> -> tensor<8x512x12x64xf16>
  %v2 = memplan.reshape %v1 : tensor<8x512x768xf16> -> tensor<8x512x12x64xf16>
  %q = memplan.transpose %q2 permutation = [0, 2, 1, 3] : tensor<8x512x12x64xf16> -> tensor<8x12x512x64xf16>
  %k = memplan.transpose %k2 permutation = [0, 2, 1, 3] : tensor<8x512x12x64xf16> -> tensor<8x12x512x64xf16>
  %v = memplan.transpose %v2 permutation = [0, 2, 1, 3] : tensor<8x512x12x64xf16> -> tensor<8x12x512x64xf16>
  %a = memplan.attention %q, %k, %v : tensor<8x12x512x64xf16>, tensor<8x12x512x64xf16>, tensor<8x12x512x64xf16> -> tensor<8x12x512x64xf16>
  %at = memplan.transpose %a permutation = [0, 2, 1, 3] : tensor<8x12x512x64xf16> -> tensor<8x512x12x64xf16>
  %a2 = memplan.reshape %at : tensor<8x512x12x64xf16> -> tensor<8x512x768xf16>
  %o0 = memplan.matmul %a2, %wo {workspace_bytes = 33554432 : i64} : tensor<8x512x768xf16>, tensor<768x768xf16> -> tensor<8x512x768xf16>
  %o1 = memplan.add %o0, %bo : tensor<8x512x768xf16>, tensor<768xf16> -> tensor<8x512x768xf16>
  %r1 = memplan.add %x, %o1 : tensor<8x512x768xf16>, tensor<8x512x768xf16> -> tensor<8x512x768xf16>
  %h1 = memplan.layer_norm %r1, %ln1_g, %ln1_b {epsilon = 9.9999999999999998E-13} : tensor<8x512x768xf16>, tensor<768xf16>
  // Feed-forward.
  %f0 = memplan.matmul %h1, %w1 {workspace_bytes = 33554432 : i64} : tensor<8x512x768xf16>, tensor<768x3072xf16> -> tensor<8x512x3072xf16>
  %f1 = memplan.add %f0, %b1 : tensor<8x512x3072xf16>, tensor<3072xf16> -> tensor<8x512x3072xf16>
  %f2 = memplan.gelu %f1 : tensor<8x512x3072xf16>
  %f3 = memplan.matmul %f2, %w2 {workspace_bytes = 33554432 : i64} : tensor<8x512x3072xf16>, tensor<3072x768xf16> -> tensor<8x512x768xf16>
  %f4 = memplan.add %f3, %b2 : tensor<8x512x768xf16>, tensor<768xf16> -> tensor<8x512x768xf16>
  %r2 = memplan.add %h1, %f4 : tensor<8x512x768xf16>, tensor<8x512x768xf16> -> tensor<8x512x768xf16>
  %out = memplan.layer_norm %r2, %ln2_g, %ln2_b {epsilon = 9.9999999999999998E-13} : tensor<8x512x768xf16>, tensor<768xf16>
  return %out : tensor<8x512x768xf16>
}
