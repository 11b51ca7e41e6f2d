// One GPT-2 small transformer block (pre-LN), prefill of 1024 tokens.
// Shapes of the real model: hidden 768, 12 heads of 64, MLP 3072, f16.
// Weights use the [in, out] layout of GPT-2's Conv1D (x @ W + b).
// Every matmul has the 32 MiB cuBLAS workspace NVIDIA recommends on Hopper
// (workspace_bytes), planned in the arena while it runs.

func.func @gpt2_block(
    %x: tensor<1x1024x768xf16>,
    %ln1_g: tensor<768xf16>, %ln1_b: tensor<768xf16>,
    %w_qkv: tensor<768x2304xf16>, %b_qkv: tensor<2304xf16>,
    %w_proj: tensor<768x768xf16>, %b_proj: tensor<768xf16>,
    %ln2_g: tensor<768xf16>, %ln2_b: tensor<768xf16>,
    %w_fc: tensor<768x3072xf16>, %b_fc: tensor<3072xf16>,
    %w_out: tensor<3072x768xf16>, %b_out: tensor<768xf16>)
    -> tensor<1x1024x768xf16> {
  // Attention.
  %h = memplan.layer_norm %x, %ln1_g, %ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %qkv0 = memplan.matmul %h, %w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %qkv = memplan.add %qkv0, %b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %qkv5 = memplan.reshape %qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %heads = memplan.transpose %qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %q5 = memplan.slice %heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %k5 = memplan.slice %heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %v5 = memplan.slice %heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %q = memplan.reshape %q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %k = memplan.reshape %k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %v = memplan.reshape %v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %a = memplan.attention %q, %k, %v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %at = memplan.transpose %a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %a2 = memplan.reshape %at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %p0 = memplan.matmul %a2, %w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %p = memplan.add %p0, %b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %r1 = memplan.add %x, %p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // MLP.
  %h2 = memplan.layer_norm %r1, %ln2_g, %ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %f0 = memplan.matmul %h2, %w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %f1 = memplan.add %f0, %b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %f2 = memplan.gelu %f1 : tensor<1x1024x3072xf16>
  %f3 = memplan.matmul %f2, %w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %f4 = memplan.add %f3, %b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %out = memplan.add %r1, %f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  return %out : tensor<1x1024x768xf16>
}
