// The full GPT-2 small forward pass: token + position embeddings, 12 pre-LN
// blocks (the block of gpt2-block.mlir, repeated with its own weights), the
// final LayerNorm and the tied LM head (logits = h @ wte^T). Prefill of 1024
// tokens, f16. Real shapes: vocab 50257, context 1024, hidden 768, 12 heads.
// Every matmul has the 32 MiB cuBLAS workspace NVIDIA recommends on Hopper
// (workspace_bytes), planned in the arena while it runs.

func.func @gpt2_small(
    %ids: tensor<1x1024xi32>, %pos_ids: tensor<1x1024xi32>,
    %wte: tensor<50257x768xf16>, %wpe: tensor<1024x768xf16>,
    %l0_ln1_g: tensor<768xf16>, %l0_ln1_b: tensor<768xf16>, %l0_w_qkv: tensor<768x2304xf16>, %l0_b_qkv: tensor<2304xf16>,
    %l0_w_proj: tensor<768x768xf16>, %l0_b_proj: tensor<768xf16>, %l0_ln2_g: tensor<768xf16>, %l0_ln2_b: tensor<768xf16>,
    %l0_w_fc: tensor<768x3072xf16>, %l0_b_fc: tensor<3072xf16>, %l0_w_out: tensor<3072x768xf16>, %l0_b_out: tensor<768xf16>,
    %l1_ln1_g: tensor<768xf16>, %l1_ln1_b: tensor<768xf16>, %l1_w_qkv: tensor<768x2304xf16>, %l1_b_qkv: tensor<2304xf16>,
    %l1_w_proj: tensor<768x768xf16>, %l1_b_proj: tensor<768xf16>, %l1_ln2_g: tensor<768xf16>, %l1_ln2_b: tensor<768xf16>,
    %l1_w_fc: tensor<768x3072xf16>, %l1_b_fc: tensor<3072xf16>, %l1_w_out: tensor<3072x768xf16>, %l1_b_out: tensor<768xf16>,
    %l2_ln1_g: tensor<768xf16>, %l2_ln1_b: tensor<768xf16>, %l2_w_qkv: tensor<768x2304xf16>, %l2_b_qkv: tensor<2304xf16>,
    %l2_w_proj: tensor<768x768xf16>, %l2_b_proj: tensor<768xf16>, %l2_ln2_g: tensor<768xf16>, %l2_ln2_b: tensor<768xf16>,
    %l2_w_fc: tensor<768x3072xf16>, %l2_b_fc: tensor<3072xf16>, %l2_w_out: tensor<3072x768xf16>, %l2_b_out: tensor<768xf16>,
    %l3_ln1_g: tensor<768xf16>, %l3_ln1_b: tensor<768xf16>, %l3_w_qkv: tensor<768x2304xf16>, %l3_b_qkv: tensor<2304xf16>,
    %l3_w_proj: tensor<768x768xf16>, %l3_b_proj: tensor<768xf16>, %l3_ln2_g: tensor<768xf16>, %l3_ln2_b: tensor<768xf16>,
    %l3_w_fc: tensor<768x3072xf16>, %l3_b_fc: tensor<3072xf16>, %l3_w_out: tensor<3072x768xf16>, %l3_b_out: tensor<768xf16>,
    %l4_ln1_g: tensor<768xf16>, %l4_ln1_b: tensor<768xf16>, %l4_w_qkv: tensor<768x2304xf16>, %l4_b_qkv: tensor<2304xf16>,
    %l4_w_proj: tensor<768x768xf16>, %l4_b_proj: tensor<768xf16>, %l4_ln2_g: tensor<768xf16>, %l4_ln2_b: tensor<768xf16>,
    %l4_w_fc: tensor<768x3072xf16>, %l4_b_fc: tensor<3072xf16>, %l4_w_out: tensor<3072x768xf16>, %l4_b_out: tensor<768xf16>,
    %l5_ln1_g: tensor<768xf16>, %l5_ln1_b: tensor<768xf16>, %l5_w_qkv: tensor<768x2304xf16>, %l5_b_qkv: tensor<2304xf16>,
    %l5_w_proj: tensor<768x768xf16>, %l5_b_proj: tensor<768xf16>, %l5_ln2_g: tensor<768xf16>, %l5_ln2_b: tensor<768xf16>,
    %l5_w_fc: tensor<768x3072xf16>, %l5_b_fc: tensor<3072xf16>, %l5_w_out: tensor<3072x768xf16>, %l5_b_out: tensor<768xf16>,
    %l6_ln1_g: tensor<768xf16>, %l6_ln1_b: tensor<768xf16>, %l6_w_qkv: tensor<768x2304xf16>, %l6_b_qkv: tensor<2304xf16>,
    %l6_w_proj: tensor<768x768xf16>, %l6_b_proj: tensor<768xf16>, %l6_ln2_g: tensor<768xf16>, %l6_ln2_b: tensor<768xf16>,
    %l6_w_fc: tensor<768x3072xf16>, %l6_b_fc: tensor<3072xf16>, %l6_w_out: tensor<3072x768xf16>, %l6_b_out: tensor<768xf16>,
    %l7_ln1_g: tensor<768xf16>, %l7_ln1_b: tensor<768xf16>, %l7_w_qkv: tensor<768x2304xf16>, %l7_b_qkv: tensor<2304xf16>,
    %l7_w_proj: tensor<768x768xf16>, %l7_b_proj: tensor<768xf16>, %l7_ln2_g: tensor<768xf16>, %l7_ln2_b: tensor<768xf16>,
    %l7_w_fc: tensor<768x3072xf16>, %l7_b_fc: tensor<3072xf16>, %l7_w_out: tensor<3072x768xf16>, %l7_b_out: tensor<768xf16>,
    %l8_ln1_g: tensor<768xf16>, %l8_ln1_b: tensor<768xf16>, %l8_w_qkv: tensor<768x2304xf16>, %l8_b_qkv: tensor<2304xf16>,
    %l8_w_proj: tensor<768x768xf16>, %l8_b_proj: tensor<768xf16>, %l8_ln2_g: tensor<768xf16>, %l8_ln2_b: tensor<768xf16>,
    %l8_w_fc: tensor<768x3072xf16>, %l8_b_fc: tensor<3072xf16>, %l8_w_out: tensor<3072x768xf16>, %l8_b_out: tensor<768xf16>,
    %l9_ln1_g: tensor<768xf16>, %l9_ln1_b: tensor<768xf16>, %l9_w_qkv: tensor<768x2304xf16>, %l9_b_qkv: tensor<2304xf16>,
    %l9_w_proj: tensor<768x768xf16>, %l9_b_proj: tensor<768xf16>, %l9_ln2_g: tensor<768xf16>, %l9_ln2_b: tensor<768xf16>,
    %l9_w_fc: tensor<768x3072xf16>, %l9_b_fc: tensor<3072xf16>, %l9_w_out: tensor<3072x768xf16>, %l9_b_out: tensor<768xf16>,
    %l10_ln1_g: tensor<768xf16>, %l10_ln1_b: tensor<768xf16>, %l10_w_qkv: tensor<768x2304xf16>, %l10_b_qkv: tensor<2304xf16>,
    %l10_w_proj: tensor<768x768xf16>, %l10_b_proj: tensor<768xf16>, %l10_ln2_g: tensor<768xf16>, %l10_ln2_b: tensor<768xf16>,
    %l10_w_fc: tensor<768x3072xf16>, %l10_b_fc: tensor<3072xf16>, %l10_w_out: tensor<3072x768xf16>, %l10_b_out: tensor<768xf16>,
    %l11_ln1_g: tensor<768xf16>, %l11_ln1_b: tensor<768xf16>, %l11_w_qkv: tensor<768x2304xf16>, %l11_b_qkv: tensor<2304xf16>,
    %l11_w_proj: tensor<768x768xf16>, %l11_b_proj: tensor<768xf16>, %l11_ln2_g: tensor<768xf16>, %l11_ln2_b: tensor<768xf16>,
    %l11_w_fc: tensor<768x3072xf16>, %l11_b_fc: tensor<3072xf16>, %l11_w_out: tensor<3072x768xf16>, %l11_b_out: tensor<768xf16>,
    %lnf_g: tensor<768xf16>, %lnf_b: tensor<768xf16>)
    -> tensor<1x1024x50257xf16> {
  %tok = memplan.embedding %wte, %ids : tensor<50257x768xf16>, tensor<1x1024xi32> -> tensor<1x1024x768xf16>
  %pos = memplan.embedding %wpe, %pos_ids : tensor<1024x768xf16>, tensor<1x1024xi32> -> tensor<1x1024x768xf16>
  %x0 = memplan.add %tok, %pos : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 0.
  %l0_h = memplan.layer_norm %x0, %l0_ln1_g, %l0_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l0_qkv0 = memplan.matmul %l0_h, %l0_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l0_qkv = memplan.add %l0_qkv0, %l0_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l0_qkv5 = memplan.reshape %l0_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l0_heads = memplan.transpose %l0_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l0_q5 = memplan.slice %l0_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l0_k5 = memplan.slice %l0_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l0_v5 = memplan.slice %l0_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l0_q = memplan.reshape %l0_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l0_k = memplan.reshape %l0_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l0_v = memplan.reshape %l0_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l0_a = memplan.attention %l0_q, %l0_k, %l0_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l0_at = memplan.transpose %l0_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l0_a2 = memplan.reshape %l0_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l0_p0 = memplan.matmul %l0_a2, %l0_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l0_p = memplan.add %l0_p0, %l0_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l0_r1 = memplan.add %x0, %l0_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l0_h2 = memplan.layer_norm %l0_r1, %l0_ln2_g, %l0_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l0_f0 = memplan.matmul %l0_h2, %l0_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l0_f1 = memplan.add %l0_f0, %l0_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l0_f2 = memplan.gelu %l0_f1 : tensor<1x1024x3072xf16>
  %l0_f3 = memplan.matmul %l0_f2, %l0_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l0_f4 = memplan.add %l0_f3, %l0_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x1 = memplan.add %l0_r1, %l0_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 1.
  %l1_h = memplan.layer_norm %x1, %l1_ln1_g, %l1_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l1_qkv0 = memplan.matmul %l1_h, %l1_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l1_qkv = memplan.add %l1_qkv0, %l1_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l1_qkv5 = memplan.reshape %l1_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l1_heads = memplan.transpose %l1_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l1_q5 = memplan.slice %l1_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l1_k5 = memplan.slice %l1_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l1_v5 = memplan.slice %l1_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l1_q = memplan.reshape %l1_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l1_k = memplan.reshape %l1_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l1_v = memplan.reshape %l1_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l1_a = memplan.attention %l1_q, %l1_k, %l1_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l1_at = memplan.transpose %l1_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l1_a2 = memplan.reshape %l1_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l1_p0 = memplan.matmul %l1_a2, %l1_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l1_p = memplan.add %l1_p0, %l1_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l1_r1 = memplan.add %x1, %l1_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l1_h2 = memplan.layer_norm %l1_r1, %l1_ln2_g, %l1_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l1_f0 = memplan.matmul %l1_h2, %l1_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l1_f1 = memplan.add %l1_f0, %l1_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l1_f2 = memplan.gelu %l1_f1 : tensor<1x1024x3072xf16>
  %l1_f3 = memplan.matmul %l1_f2, %l1_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l1_f4 = memplan.add %l1_f3, %l1_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x2 = memplan.add %l1_r1, %l1_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 2.
  %l2_h = memplan.layer_norm %x2, %l2_ln1_g, %l2_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l2_qkv0 = memplan.matmul %l2_h, %l2_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l2_qkv = memplan.add %l2_qkv0, %l2_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l2_qkv5 = memplan.reshape %l2_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l2_heads = memplan.transpose %l2_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l2_q5 = memplan.slice %l2_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l2_k5 = memplan.slice %l2_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l2_v5 = memplan.slice %l2_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l2_q = memplan.reshape %l2_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l2_k = memplan.reshape %l2_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l2_v = memplan.reshape %l2_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l2_a = memplan.attention %l2_q, %l2_k, %l2_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l2_at = memplan.transpose %l2_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l2_a2 = memplan.reshape %l2_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l2_p0 = memplan.matmul %l2_a2, %l2_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l2_p = memplan.add %l2_p0, %l2_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l2_r1 = memplan.add %x2, %l2_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l2_h2 = memplan.layer_norm %l2_r1, %l2_ln2_g, %l2_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l2_f0 = memplan.matmul %l2_h2, %l2_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l2_f1 = memplan.add %l2_f0, %l2_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l2_f2 = memplan.gelu %l2_f1 : tensor<1x1024x3072xf16>
  %l2_f3 = memplan.matmul %l2_f2, %l2_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l2_f4 = memplan.add %l2_f3, %l2_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x3 = memplan.add %l2_r1, %l2_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 3.
  %l3_h = memplan.layer_norm %x3, %l3_ln1_g, %l3_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l3_qkv0 = memplan.matmul %l3_h, %l3_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l3_qkv = memplan.add %l3_qkv0, %l3_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l3_qkv5 = memplan.reshape %l3_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l3_heads = memplan.transpose %l3_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l3_q5 = memplan.slice %l3_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l3_k5 = memplan.slice %l3_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l3_v5 = memplan.slice %l3_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l3_q = memplan.reshape %l3_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l3_k = memplan.reshape %l3_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l3_v = memplan.reshape %l3_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l3_a = memplan.attention %l3_q, %l3_k, %l3_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l3_at = memplan.transpose %l3_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l3_a2 = memplan.reshape %l3_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l3_p0 = memplan.matmul %l3_a2, %l3_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l3_p = memplan.add %l3_p0, %l3_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l3_r1 = memplan.add %x3, %l3_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l3_h2 = memplan.layer_norm %l3_r1, %l3_ln2_g, %l3_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l3_f0 = memplan.matmul %l3_h2, %l3_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l3_f1 = memplan.add %l3_f0, %l3_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l3_f2 = memplan.gelu %l3_f1 : tensor<1x1024x3072xf16>
  %l3_f3 = memplan.matmul %l3_f2, %l3_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l3_f4 = memplan.add %l3_f3, %l3_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x4 = memplan.add %l3_r1, %l3_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 4.
  %l4_h = memplan.layer_norm %x4, %l4_ln1_g, %l4_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l4_qkv0 = memplan.matmul %l4_h, %l4_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l4_qkv = memplan.add %l4_qkv0, %l4_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l4_qkv5 = memplan.reshape %l4_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l4_heads = memplan.transpose %l4_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l4_q5 = memplan.slice %l4_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l4_k5 = memplan.slice %l4_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l4_v5 = memplan.slice %l4_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l4_q = memplan.reshape %l4_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l4_k = memplan.reshape %l4_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l4_v = memplan.reshape %l4_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l4_a = memplan.attention %l4_q, %l4_k, %l4_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l4_at = memplan.transpose %l4_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l4_a2 = memplan.reshape %l4_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l4_p0 = memplan.matmul %l4_a2, %l4_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l4_p = memplan.add %l4_p0, %l4_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l4_r1 = memplan.add %x4, %l4_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l4_h2 = memplan.layer_norm %l4_r1, %l4_ln2_g, %l4_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l4_f0 = memplan.matmul %l4_h2, %l4_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l4_f1 = memplan.add %l4_f0, %l4_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l4_f2 = memplan.gelu %l4_f1 : tensor<1x1024x3072xf16>
  %l4_f3 = memplan.matmul %l4_f2, %l4_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l4_f4 = memplan.add %l4_f3, %l4_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x5 = memplan.add %l4_r1, %l4_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 5.
  %l5_h = memplan.layer_norm %x5, %l5_ln1_g, %l5_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l5_qkv0 = memplan.matmul %l5_h, %l5_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l5_qkv = memplan.add %l5_qkv0, %l5_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l5_qkv5 = memplan.reshape %l5_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l5_heads = memplan.transpose %l5_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l5_q5 = memplan.slice %l5_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l5_k5 = memplan.slice %l5_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l5_v5 = memplan.slice %l5_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l5_q = memplan.reshape %l5_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l5_k = memplan.reshape %l5_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l5_v = memplan.reshape %l5_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l5_a = memplan.attention %l5_q, %l5_k, %l5_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l5_at = memplan.transpose %l5_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l5_a2 = memplan.reshape %l5_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l5_p0 = memplan.matmul %l5_a2, %l5_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l5_p = memplan.add %l5_p0, %l5_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l5_r1 = memplan.add %x5, %l5_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l5_h2 = memplan.layer_norm %l5_r1, %l5_ln2_g, %l5_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l5_f0 = memplan.matmul %l5_h2, %l5_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l5_f1 = memplan.add %l5_f0, %l5_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l5_f2 = memplan.gelu %l5_f1 : tensor<1x1024x3072xf16>
  %l5_f3 = memplan.matmul %l5_f2, %l5_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l5_f4 = memplan.add %l5_f3, %l5_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x6 = memplan.add %l5_r1, %l5_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 6.
  %l6_h = memplan.layer_norm %x6, %l6_ln1_g, %l6_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l6_qkv0 = memplan.matmul %l6_h, %l6_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l6_qkv = memplan.add %l6_qkv0, %l6_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l6_qkv5 = memplan.reshape %l6_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l6_heads = memplan.transpose %l6_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l6_q5 = memplan.slice %l6_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l6_k5 = memplan.slice %l6_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l6_v5 = memplan.slice %l6_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l6_q = memplan.reshape %l6_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l6_k = memplan.reshape %l6_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l6_v = memplan.reshape %l6_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l6_a = memplan.attention %l6_q, %l6_k, %l6_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l6_at = memplan.transpose %l6_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l6_a2 = memplan.reshape %l6_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l6_p0 = memplan.matmul %l6_a2, %l6_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l6_p = memplan.add %l6_p0, %l6_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l6_r1 = memplan.add %x6, %l6_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l6_h2 = memplan.layer_norm %l6_r1, %l6_ln2_g, %l6_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l6_f0 = memplan.matmul %l6_h2, %l6_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l6_f1 = memplan.add %l6_f0, %l6_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l6_f2 = memplan.gelu %l6_f1 : tensor<1x1024x3072xf16>
  %l6_f3 = memplan.matmul %l6_f2, %l6_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l6_f4 = memplan.add %l6_f3, %l6_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x7 = memplan.add %l6_r1, %l6_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 7.
  %l7_h = memplan.layer_norm %x7, %l7_ln1_g, %l7_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l7_qkv0 = memplan.matmul %l7_h, %l7_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l7_qkv = memplan.add %l7_qkv0, %l7_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l7_qkv5 = memplan.reshape %l7_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l7_heads = memplan.transpose %l7_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l7_q5 = memplan.slice %l7_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l7_k5 = memplan.slice %l7_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l7_v5 = memplan.slice %l7_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l7_q = memplan.reshape %l7_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l7_k = memplan.reshape %l7_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l7_v = memplan.reshape %l7_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l7_a = memplan.attention %l7_q, %l7_k, %l7_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l7_at = memplan.transpose %l7_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l7_a2 = memplan.reshape %l7_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l7_p0 = memplan.matmul %l7_a2, %l7_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l7_p = memplan.add %l7_p0, %l7_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l7_r1 = memplan.add %x7, %l7_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l7_h2 = memplan.layer_norm %l7_r1, %l7_ln2_g, %l7_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l7_f0 = memplan.matmul %l7_h2, %l7_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l7_f1 = memplan.add %l7_f0, %l7_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l7_f2 = memplan.gelu %l7_f1 : tensor<1x1024x3072xf16>
  %l7_f3 = memplan.matmul %l7_f2, %l7_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l7_f4 = memplan.add %l7_f3, %l7_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x8 = memplan.add %l7_r1, %l7_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 8.
  %l8_h = memplan.layer_norm %x8, %l8_ln1_g, %l8_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l8_qkv0 = memplan.matmul %l8_h, %l8_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l8_qkv = memplan.add %l8_qkv0, %l8_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l8_qkv5 = memplan.reshape %l8_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l8_heads = memplan.transpose %l8_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l8_q5 = memplan.slice %l8_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l8_k5 = memplan.slice %l8_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l8_v5 = memplan.slice %l8_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l8_q = memplan.reshape %l8_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l8_k = memplan.reshape %l8_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l8_v = memplan.reshape %l8_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l8_a = memplan.attention %l8_q, %l8_k, %l8_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l8_at = memplan.transpose %l8_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l8_a2 = memplan.reshape %l8_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l8_p0 = memplan.matmul %l8_a2, %l8_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l8_p = memplan.add %l8_p0, %l8_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l8_r1 = memplan.add %x8, %l8_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l8_h2 = memplan.layer_norm %l8_r1, %l8_ln2_g, %l8_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l8_f0 = memplan.matmul %l8_h2, %l8_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l8_f1 = memplan.add %l8_f0, %l8_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l8_f2 = memplan.gelu %l8_f1 : tensor<1x1024x3072xf16>
  %l8_f3 = memplan.matmul %l8_f2, %l8_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l8_f4 = memplan.add %l8_f3, %l8_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x9 = memplan.add %l8_r1, %l8_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 9.
  %l9_h = memplan.layer_norm %x9, %l9_ln1_g, %l9_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l9_qkv0 = memplan.matmul %l9_h, %l9_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l9_qkv = memplan.add %l9_qkv0, %l9_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l9_qkv5 = memplan.reshape %l9_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l9_heads = memplan.transpose %l9_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l9_q5 = memplan.slice %l9_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l9_k5 = memplan.slice %l9_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l9_v5 = memplan.slice %l9_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l9_q = memplan.reshape %l9_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l9_k = memplan.reshape %l9_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l9_v = memplan.reshape %l9_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l9_a = memplan.attention %l9_q, %l9_k, %l9_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l9_at = memplan.transpose %l9_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l9_a2 = memplan.reshape %l9_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l9_p0 = memplan.matmul %l9_a2, %l9_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l9_p = memplan.add %l9_p0, %l9_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l9_r1 = memplan.add %x9, %l9_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l9_h2 = memplan.layer_norm %l9_r1, %l9_ln2_g, %l9_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l9_f0 = memplan.matmul %l9_h2, %l9_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l9_f1 = memplan.add %l9_f0, %l9_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l9_f2 = memplan.gelu %l9_f1 : tensor<1x1024x3072xf16>
  %l9_f3 = memplan.matmul %l9_f2, %l9_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l9_f4 = memplan.add %l9_f3, %l9_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x10 = memplan.add %l9_r1, %l9_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 10.
  %l10_h = memplan.layer_norm %x10, %l10_ln1_g, %l10_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l10_qkv0 = memplan.matmul %l10_h, %l10_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l10_qkv = memplan.add %l10_qkv0, %l10_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l10_qkv5 = memplan.reshape %l10_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l10_heads = memplan.transpose %l10_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l10_q5 = memplan.slice %l10_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l10_k5 = memplan.slice %l10_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l10_v5 = memplan.slice %l10_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l10_q = memplan.reshape %l10_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l10_k = memplan.reshape %l10_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l10_v = memplan.reshape %l10_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l10_a = memplan.attention %l10_q, %l10_k, %l10_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l10_at = memplan.transpose %l10_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l10_a2 = memplan.reshape %l10_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l10_p0 = memplan.matmul %l10_a2, %l10_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l10_p = memplan.add %l10_p0, %l10_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l10_r1 = memplan.add %x10, %l10_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l10_h2 = memplan.layer_norm %l10_r1, %l10_ln2_g, %l10_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l10_f0 = memplan.matmul %l10_h2, %l10_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l10_f1 = memplan.add %l10_f0, %l10_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l10_f2 = memplan.gelu %l10_f1 : tensor<1x1024x3072xf16>
  %l10_f3 = memplan.matmul %l10_f2, %l10_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l10_f4 = memplan.add %l10_f3, %l10_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x11 = memplan.add %l10_r1, %l10_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  // Block 11.
  %l11_h = memplan.layer_norm %x11, %l11_ln1_g, %l11_ln1_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l11_qkv0 = memplan.matmul %l11_h, %l11_w_qkv {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x2304xf16> -> tensor<1x1024x2304xf16>
  %l11_qkv = memplan.add %l11_qkv0, %l11_b_qkv : tensor<1x1024x2304xf16>, tensor<2304xf16> -> tensor<1x1024x2304xf16>
  %l11_qkv5 = memplan.reshape %l11_qkv : tensor<1x1024x2304xf16> -> tensor<1x1024x3x12x64xf16>
  %l11_heads = memplan.transpose %l11_qkv5 permutation = [2, 0, 3, 1, 4] : tensor<1x1024x3x12x64xf16> -> tensor<3x1x12x1024x64xf16>
  %l11_q5 = memplan.slice %l11_heads offsets = [0, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l11_k5 = memplan.slice %l11_heads offsets = [1, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l11_v5 = memplan.slice %l11_heads offsets = [2, 0, 0, 0, 0] sizes = [1, 1, 12, 1024, 64] : tensor<3x1x12x1024x64xf16> -> tensor<1x1x12x1024x64xf16>
  %l11_q = memplan.reshape %l11_q5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l11_k = memplan.reshape %l11_k5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l11_v = memplan.reshape %l11_v5 : tensor<1x1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l11_a = memplan.attention %l11_q, %l11_k, %l11_v {causal} : tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16>, tensor<1x12x1024x64xf16> -> tensor<1x12x1024x64xf16>
  %l11_at = memplan.transpose %l11_a permutation = [0, 2, 1, 3] : tensor<1x12x1024x64xf16> -> tensor<1x1024x12x64xf16>
  %l11_a2 = memplan.reshape %l11_at : tensor<1x1024x12x64xf16> -> tensor<1x1024x768xf16>
  %l11_p0 = memplan.matmul %l11_a2, %l11_w_proj {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x768xf16> -> tensor<1x1024x768xf16>
  %l11_p = memplan.add %l11_p0, %l11_b_proj : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %l11_r1 = memplan.add %x11, %l11_p : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %l11_h2 = memplan.layer_norm %l11_r1, %l11_ln2_g, %l11_ln2_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %l11_f0 = memplan.matmul %l11_h2, %l11_w_fc {workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<768x3072xf16> -> tensor<1x1024x3072xf16>
  %l11_f1 = memplan.add %l11_f0, %l11_b_fc : tensor<1x1024x3072xf16>, tensor<3072xf16> -> tensor<1x1024x3072xf16>
  %l11_f2 = memplan.gelu %l11_f1 : tensor<1x1024x3072xf16>
  %l11_f3 = memplan.matmul %l11_f2, %l11_w_out {workspace_bytes = 33554432 : i64} : tensor<1x1024x3072xf16>, tensor<3072x768xf16> -> tensor<1x1024x768xf16>
  %l11_f4 = memplan.add %l11_f3, %l11_b_out : tensor<1x1024x768xf16>, tensor<768xf16> -> tensor<1x1024x768xf16>
  %x12 = memplan.add %l11_r1, %l11_f4 : tensor<1x1024x768xf16>, tensor<1x1024x768xf16> -> tensor<1x1024x768xf16>
  %hf = memplan.layer_norm %x12, %lnf_g, %lnf_b : tensor<1x1024x768xf16>, tensor<768xf16>
  %logits = memplan.matmul %hf, %wte {transpose_rhs, workspace_bytes = 33554432 : i64} : tensor<1x1024x768xf16>, tensor<50257x768xf16> -> tensor<1x1024x50257xf16>
  return %logits : tensor<1x1024x50257xf16>
}
