// The GPT-2 block of examples/gpt2-block.mlir with small dimensions, in f32:
// 8 tokens, hidden 32, 4 heads of 8, MLP 128. Reference: reference.cpp.
func.func @gpt2_block_tiny(
    %x: tensor<1x8x32xf32>,
    %ln1_g: tensor<32xf32>, %ln1_b: tensor<32xf32>,
    %w_qkv: tensor<32x96xf32>, %b_qkv: tensor<96xf32>,
    %w_proj: tensor<32x32xf32>, %b_proj: tensor<32xf32>,
    %ln2_g: tensor<32xf32>, %ln2_b: tensor<32xf32>,
    %w_fc: tensor<32x128xf32>, %b_fc: tensor<128xf32>,
    %w_out: tensor<128x32xf32>, %b_out: tensor<32xf32>)
    -> tensor<1x8x32xf32> {
  %h = memplan.layer_norm %x, %ln1_g, %ln1_b : tensor<1x8x32xf32>, tensor<32xf32>
  %qkv0 = memplan.matmul %h, %w_qkv {workspace_bytes = 16384 : i64} : tensor<1x8x32xf32>, tensor<32x96xf32> -> tensor<1x8x96xf32>
  %qkv = memplan.add %qkv0, %b_qkv : tensor<1x8x96xf32>, tensor<96xf32> -> tensor<1x8x96xf32>
  %qkv5 = memplan.reshape %qkv : tensor<1x8x96xf32> -> tensor<1x8x3x4x8xf32>
  %heads = memplan.transpose %qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x8x3x4x8xf32> -> tensor<3x1x4x8x8xf32>
  %q5 = memplan.slice %heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 4, 8, 8] : tensor<3x1x4x8x8xf32> -> tensor<1x1x4x8x8xf32>
  %k5 = memplan.slice %heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 4, 8, 8] : tensor<3x1x4x8x8xf32> -> tensor<1x1x4x8x8xf32>
  %v5 = memplan.slice %heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 4, 8, 8] : tensor<3x1x4x8x8xf32> -> tensor<1x1x4x8x8xf32>
  %q = memplan.reshape %q5 : tensor<1x1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %k = memplan.reshape %k5 : tensor<1x1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %v = memplan.reshape %v5 : tensor<1x1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %a = memplan.attention %q, %k, %v {causal} : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %at = memplan.transpose %a permutation = [0, 2, 1, 3] : tensor<1x4x8x8xf32> -> tensor<1x8x4x8xf32>
  %a2 = memplan.reshape %at : tensor<1x8x4x8xf32> -> tensor<1x8x32xf32>
  %p0 = memplan.matmul %a2, %w_proj {workspace_bytes = 16384 : i64} : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  %p = memplan.add %p0, %b_proj : tensor<1x8x32xf32>, tensor<32xf32> -> tensor<1x8x32xf32>
  %r1 = memplan.add %x, %p : tensor<1x8x32xf32>, tensor<1x8x32xf32> -> tensor<1x8x32xf32>
  %h2 = memplan.layer_norm %r1, %ln2_g, %ln2_b : tensor<1x8x32xf32>, tensor<32xf32>
  %f0 = memplan.matmul %h2, %w_fc {workspace_bytes = 16384 : i64} : tensor<1x8x32xf32>, tensor<32x128xf32> -> tensor<1x8x128xf32>
  %f1 = memplan.add %f0, %b_fc : tensor<1x8x128xf32>, tensor<128xf32> -> tensor<1x8x128xf32>
  %f2 = memplan.gelu %f1 : tensor<1x8x128xf32>
  %f3 = memplan.matmul %f2, %w_out {workspace_bytes = 16384 : i64} : tensor<1x8x128xf32>, tensor<128x32xf32> -> tensor<1x8x32xf32>
  %f4 = memplan.add %f3, %b_out : tensor<1x8x32xf32>, tensor<32xf32> -> tensor<1x8x32xf32>
  %out = memplan.add %r1, %f4 : tensor<1x8x32xf32>, tensor<1x8x32xf32> -> tensor<1x8x32xf32>
  return %out : tensor<1x8x32xf32>
}
