// RUN: memplan-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule. Every message names the operand and shapes.

func.func @matmul_lhs_rank(%a: tensor<768xf16>, %b: tensor<768x4xf16>) {
  // expected-error @+1 {{'memplan.matmul' op lhs must have rank >= 2, got shape 768}}
  %0 = memplan.matmul %a, %b : tensor<768xf16>, tensor<768x4xf16> -> tensor<4xf16>
  return
}

// -----

func.func @matmul_rhs_rank(%a: tensor<4x768xf16>, %b: tensor<768xf16>) {
  // expected-error @+1 {{'memplan.matmul' op rhs must have rank >= 2, got shape 768}}
  %0 = memplan.matmul %a, %b : tensor<4x768xf16>, tensor<768xf16> -> tensor<4xf16>
  return
}

// -----

func.func @matmul_contracting(%a: tensor<1x16x768xf16>, %b: tensor<1024x64xf16>) {
  // expected-error @+1 {{'memplan.matmul' op contracting dimensions differ: lhs has 768, rhs has 1024}}
  %0 = memplan.matmul %a, %b : tensor<1x16x768xf16>, tensor<1024x64xf16> -> tensor<1x16x64xf16>
  return
}

// -----

func.func @matmul_contracting_transposed(%a: tensor<16x768xf16>, %b: tensor<64x1024xf16>) {
  // expected-error @+1 {{'memplan.matmul' op contracting dimensions differ: lhs has 768, rhs has 1024}}
  %0 = memplan.matmul %a, %b {transpose_rhs} : tensor<16x768xf16>, tensor<64x1024xf16> -> tensor<16x64xf16>
  return
}

// -----

func.func @matmul_float_types(%a: tensor<4x8xf16>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{'memplan.matmul' op element types differ: lhs has 'f16', rhs has 'f32'}}
  %0 = memplan.matmul %a, %b : tensor<4x8xf16>, tensor<8x4xf32> -> tensor<4x4xf16>
  return
}

// -----

func.func @matmul_integer(%a: tensor<4x8xi32>, %b: tensor<8x4xi8>) {
  // expected-error @+1 {{'memplan.matmul' op integer matmul needs i8 operands, got lhs 'i32' and rhs 'i8'}}
  %0 = memplan.matmul %a, %b : tensor<4x8xi32>, tensor<8x4xi8> -> tensor<4x4xi32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf16>, %b: tensor<3x8x4xf16>) {
  // expected-error @+1 {{'memplan.matmul' op batch dimensions are not broadcast-compatible: lhs has shape 2, rhs has shape 3 (dimension 0 of the result: 2 vs 3)}}
  %0 = memplan.matmul %a, %b : tensor<2x4x8xf16>, tensor<3x8x4xf16> -> tensor<2x4x4xf16>
  return
}

// -----

func.func @matmul_result_shape(%a: tensor<4x8xf16>, %b: tensor<8x5xf16>) {
  // expected-error @+1 {{'memplan.matmul' op result shape 4x4 does not match the expected 4x5}}
  %0 = memplan.matmul %a, %b : tensor<4x8xf16>, tensor<8x5xf16> -> tensor<4x4xf16>
  return
}

// -----

func.func @matmul_result_type(%a: tensor<4x8xf16>, %b: tensor<8x4xi4>) {
  // expected-error @+1 {{'memplan.matmul' op result element type 'f32' does not match the expected 'f16'}}
  %0 = memplan.matmul %a, %b : tensor<4x8xf16>, tensor<8x4xi4> -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_dynamic(%a: tensor<?x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'memplan.matmul' op operand #0 must be statically shaped tensor}}
  %0 = memplan.matmul %a, %b : tensor<?x8xf16>, tensor<8x4xf16> -> tensor<4x4xf16>
  return
}

// -----

func.func @matmul_workspace(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'memplan.matmul' op attribute 'workspace_bytes' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = memplan.matmul %a, %b {workspace_bytes = -1 : i64} : tensor<4x8xf16>, tensor<8x4xf16> -> tensor<4x4xf16>
  return
}

// -----

func.func @add_types(%a: tensor<4x8xf16>, %b: tensor<4x8xf32>) {
  // expected-error @+1 {{'memplan.add' op element types differ: lhs has 'f16', rhs has 'f32'}}
  %0 = memplan.add %a, %b : tensor<4x8xf16>, tensor<4x8xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @sub_broadcast(%a: tensor<4x8xf16>, %b: tensor<3x8xf16>) {
  // expected-error @+1 {{'memplan.sub' op operands are not broadcast-compatible: lhs has shape 4x8, rhs has shape 3x8 (dimension 0 of the result: 4 vs 3)}}
  %0 = memplan.sub %a, %b : tensor<4x8xf16>, tensor<3x8xf16> -> tensor<4x8xf16>
  return
}

// -----

func.func @mul_result(%a: tensor<4x1xf16>, %b: tensor<8xf16>) {
  // expected-error @+1 {{'memplan.mul' op result shape 4x1 does not match the expected 4x8}}
  %0 = memplan.mul %a, %b : tensor<4x1xf16>, tensor<8xf16> -> tensor<4x1xf16>
  return
}

// -----

func.func @div_result_type(%a: tensor<4xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'memplan.div' op result element type 'i64' does not match the expected 'i32'}}
  %0 = memplan.div %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi64>
  return
}

// -----

func.func @gelu_integer(%a: tensor<4xi8>) {
  // expected-error @+1 {{'memplan.gelu' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values}}
  %0 = memplan.gelu %a : tensor<4xi8>
  return
}

// -----

func.func @silu_generic_mismatch(%a: tensor<4xf16>) {
  // expected-error @+1 {{'memplan.silu' op failed to verify that all of {input, result} have same type}}
  %0 = "memplan.silu"(%a) : (tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{'memplan.softmax' op axis 2 is out of range for shape 2x4 (rank 2)}}
  %0 = memplan.softmax %a axis(2) : tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_gamma(%x: tensor<2x768xf16>, %g: tensor<1024xf16>) {
  // expected-error @+1 {{'memplan.layer_norm' op gamma must have shape 768 (the last dimension of input 2x768), got 1024}}
  %0 = memplan.layer_norm %x, %g, %g : tensor<2x768xf16>, tensor<1024xf16>
  return
}

// -----

func.func @layer_norm_gamma_type(%x: tensor<2x8xf16>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'memplan.layer_norm' op element types differ: input has 'f16', gamma has 'f32'}}
  %0 = memplan.layer_norm %x, %g, %g : tensor<2x8xf16>, tensor<8xf32>
  return
}

// -----

func.func @layer_norm_scalar(%x: tensor<f16>, %g: tensor<8xf16>) {
  // expected-error @+1 {{'memplan.layer_norm' op input must have rank >= 1, got a scalar}}
  %0 = memplan.layer_norm %x, %g, %g : tensor<f16>, tensor<8xf16>
  return
}

// -----

func.func @layer_norm_beta(%x: tensor<2x8xf16>, %g: tensor<8xf16>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'memplan.layer_norm' op failed to verify that all of {gamma, beta} have same type}}
  %0 = "memplan.layer_norm"(%x, %g, %b) : (tensor<2x8xf16>, tensor<8xf16>, tensor<4xf16>) -> tensor<2x8xf16>
  return
}

// -----

func.func @rms_norm_gamma(%x: tensor<2x4096xf16>, %g: tensor<4x1024xf16>) {
  // expected-error @+1 {{'memplan.rms_norm' op gamma must have shape 4096 (the last dimension of input 2x4096), got 4x1024}}
  %0 = memplan.rms_norm %x, %g : tensor<2x4096xf16>, tensor<4x1024xf16>
  return
}

// -----

func.func @embedding_table(%t: tensor<100xf16>, %ids: tensor<4xi32>) {
  // expected-error @+1 {{'memplan.embedding' op table must have rank 2 ([vocab, hidden]), got shape 100}}
  %0 = memplan.embedding %t, %ids : tensor<100xf16>, tensor<4xi32> -> tensor<4x1xf16>
  return
}

// -----

func.func @embedding_result(%t: tensor<100x64xf16>, %ids: tensor<2x4xi32>) {
  // expected-error @+1 {{'memplan.embedding' op result shape 8x64 does not match the expected 2x4x64}}
  %0 = memplan.embedding %t, %ids : tensor<100x64xf16>, tensor<2x4xi32> -> tensor<8x64xf16>
  return
}

// -----

func.func @embedding_ids(%t: tensor<100x64xf16>, %ids: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.embedding' op operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = memplan.embedding %t, %ids : tensor<100x64xf16>, tensor<4xf32> -> tensor<4x64xf16>
  return
}

// -----

func.func @embedding_type(%t: tensor<100x64xf16>, %ids: tensor<4xi32>) {
  // expected-error @+1 {{'memplan.embedding' op result element type 'f32' does not match the expected 'f16'}}
  %0 = memplan.embedding %t, %ids : tensor<100x64xf16>, tensor<4xi32> -> tensor<4x64xf32>
  return
}

// -----

func.func @rope_rank(%x: tensor<16x64xf16>, %p: tensor<16xi64>) {
  // expected-error @+1 {{'memplan.rope' op input must have rank 4 ([batch, seq, heads, head_dim]), got shape 16x64}}
  %0 = memplan.rope %x, %p : tensor<16x64xf16>, tensor<16xi64>
  return
}

// -----

func.func @rope_odd(%x: tensor<1x16x4x63xf16>, %p: tensor<16xi64>) {
  // expected-error @+1 {{'memplan.rope' op head_dim must be even to rotate pairs, got 63 in input shape 1x16x4x63}}
  %0 = memplan.rope %x, %p : tensor<1x16x4x63xf16>, tensor<16xi64>
  return
}

// -----

func.func @rope_positions(%x: tensor<1x16x4x64xf16>, %p: tensor<8xi64>) {
  // expected-error @+1 {{'memplan.rope' op positions must have shape 16 (the seq dimension of input 1x16x4x64), got 8}}
  %0 = memplan.rope %x, %p : tensor<1x16x4x64xf16>, tensor<8xi64>
  return
}

// -----

func.func @transpose_length(%x: tensor<2x3x4xf16>) {
  // expected-error @+1 {{'memplan.transpose' op permutation has 2 entries, but input shape 2x3x4 has rank 3}}
  %0 = memplan.transpose %x permutation = [1, 0] : tensor<2x3x4xf16> -> tensor<3x2x4xf16>
  return
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3x4xf16>) {
  // expected-error @+1 {{'memplan.transpose' op permutation [0, 0, 2] is not a permutation of 0..2}}
  %0 = memplan.transpose %x permutation = [0, 0, 2] : tensor<2x3x4xf16> -> tensor<2x2x4xf16>
  return
}

// -----

func.func @transpose_result(%x: tensor<2x3x4xf16>) {
  // expected-error @+1 {{'memplan.transpose' op result shape 2x3x4 does not match the expected 4x3x2}}
  %0 = memplan.transpose %x permutation = [2, 1, 0] : tensor<2x3x4xf16> -> tensor<2x3x4xf16>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf16>) {
  // expected-error @+1 {{'memplan.reshape' op reshape changes the element count: input 2x3 has 6 elements, result 7 has 7}}
  %0 = memplan.reshape %x : tensor<2x3xf16> -> tensor<7xf16>
  return
}

// -----

// A count past 2^63 - 1 is named as such (it once wrapped to "0 elements").
func.func @reshape_count_overflow(%x: tensor<4611686018427387904x4xf32>) {
  // expected-error @+1 {{'memplan.reshape' op the input 4611686018427387904x4 has more than 2^63 - 1 elements}}
  %0 = memplan.reshape %x : tensor<4611686018427387904x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_type(%x: tensor<2x3xf16>) {
  // expected-error @+1 {{'memplan.reshape' op reshape changes the element type from 'f16' to 'f32'; use memplan.cast}}
  %0 = memplan.reshape %x : tensor<2x3xf16> -> tensor<6xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'memplan.concat' op needs at least one input}}
  %0 = "memplan.concat"() {axis = 0 : i64} : () -> tensor<4xf16>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf16>) {
  // expected-error @+1 {{'memplan.concat' op axis -3 is out of range for shape 2x3 (rank 2)}}
  %0 = memplan.concat %a, %a axis(-3) : tensor<2x3xf16>, tensor<2x3xf16> -> tensor<4x3xf16>
  return
}

// -----

func.func @concat_types(%a: tensor<2x3xf16>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'memplan.concat' op element types differ: input #0 has 'f16', input #1 has 'f32'}}
  %0 = memplan.concat %a, %b axis(0) : tensor<2x3xf16>, tensor<2x3xf32> -> tensor<4x3xf16>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf16>, %b: tensor<3xf16>) {
  // expected-error @+1 {{'memplan.concat' op ranks differ: input #0 has shape 2x3, input #1 has shape 3}}
  %0 = memplan.concat %a, %b axis(0) : tensor<2x3xf16>, tensor<3xf16> -> tensor<4x3xf16>
  return
}

// -----

func.func @concat_dims(%a: tensor<2x3xf16>, %b: tensor<2x4xf16>) {
  // expected-error @+1 {{'memplan.concat' op dimension 1 differs off the concat axis 0: input #0 has shape 2x3, input #1 has shape 2x4}}
  %0 = memplan.concat %a, %b axis(0) : tensor<2x3xf16>, tensor<2x4xf16> -> tensor<4x3xf16>
  return
}

// -----

// 2^62 + 2^62 rows: the sum would wrap to a negative size.
func.func @concat_overflow(%a: tensor<4611686018427387904xi8>) {
  // expected-error @+1 {{'memplan.concat' op the concatenated dimension 0 has more than 2^63 - 1 elements}}
  %0 = memplan.concat %a, %a axis(0) : tensor<4611686018427387904xi8>, tensor<4611686018427387904xi8> -> tensor<8xi8>
  return
}

// -----

func.func @concat_result(%a: tensor<2x3xf16>, %b: tensor<2x4xf16>) {
  // expected-error @+1 {{'memplan.concat' op result shape 2x8 does not match the expected 2x7}}
  %0 = memplan.concat %a, %b axis(1) : tensor<2x3xf16>, tensor<2x4xf16> -> tensor<2x8xf16>
  return
}

// -----

func.func @slice_entries(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{'memplan.slice' op offsets and sizes need 2 entries each for input shape 4x8, got 1 and 2}}
  %0 = memplan.slice %x offsets = [0] sizes = [2, 2] : tensor<4x8xf16> -> tensor<2x2xf16>
  return
}

// -----

func.func @slice_bounds(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{'memplan.slice' op slice [6, 6 + 4) leaves dimension 1 of input shape 4x8}}
  %0 = memplan.slice %x offsets = [0, 6] sizes = [2, 4] : tensor<4x8xf16> -> tensor<2x4xf16>
  return
}

// -----

func.func @slice_result(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{'memplan.slice' op result shape 2x2 does not match the expected 2x4}}
  %0 = memplan.slice %x offsets = [0, 0] sizes = [2, 4] : tensor<4x8xf16> -> tensor<2x2xf16>
  return
}

// -----

func.func @cast_shape(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{'memplan.cast' op cast changes the shape from 4x8 to 32; use memplan.reshape}}
  %0 = memplan.cast %x : tensor<4x8xf16> -> tensor<32xf32>
  return
}

// -----

func.func @attention_rank(%q: tensor<12x16x64xf16>, %k: tensor<1x12x16x64xf16>) {
  // expected-error @+1 {{'memplan.attention' op query must have rank 4 ([batch, heads, seq, head_dim]), got shape 12x16x64}}
  %0 = memplan.attention %q, %k, %k : tensor<12x16x64xf16>, tensor<1x12x16x64xf16>, tensor<1x12x16x64xf16> -> tensor<1x12x16x64xf16>
  return
}

// -----

func.func @attention_types(%q: tensor<1x12x16x64xf16>, %k: tensor<1x12x16x64xf32>) {
  // expected-error @+1 {{'memplan.attention' op element types differ: query has 'f16', key has 'f32'}}
  %0 = memplan.attention %q, %k, %k : tensor<1x12x16x64xf16>, tensor<1x12x16x64xf32>, tensor<1x12x16x64xf32> -> tensor<1x12x16x64xf16>
  return
}

// -----

func.func @attention_batch(%q: tensor<2x12x16x64xf16>, %k: tensor<1x12x16x64xf16>) {
  // expected-error @+1 {{'memplan.attention' op batch sizes differ (query 2x12x16x64, key 1x12x16x64, value 1x12x16x64)}}
  %0 = memplan.attention %q, %k, %k : tensor<2x12x16x64xf16>, tensor<1x12x16x64xf16>, tensor<1x12x16x64xf16> -> tensor<2x12x16x64xf16>
  return
}

// -----

func.func @attention_head_dim(%q: tensor<1x12x16x64xf16>, %k: tensor<1x12x16x32xf16>) {
  // expected-error @+1 {{'memplan.attention' op head_dim differs between query and key (query 1x12x16x64, key 1x12x16x32, value 1x12x16x32)}}
  %0 = memplan.attention %q, %k, %k : tensor<1x12x16x64xf16>, tensor<1x12x16x32xf16>, tensor<1x12x16x32xf16> -> tensor<1x12x16x32xf16>
  return
}

// -----

func.func @attention_kv(%q: tensor<1x12x16x64xf16>, %k: tensor<1x12x16x64xf16>, %v: tensor<1x12x8x64xf16>) {
  // expected-error @+1 {{'memplan.attention' op key and value differ in heads or seq (query 1x12x16x64, key 1x12x16x64, value 1x12x8x64)}}
  %0 = memplan.attention %q, %k, %v : tensor<1x12x16x64xf16>, tensor<1x12x16x64xf16>, tensor<1x12x8x64xf16> -> tensor<1x12x16x64xf16>
  return
}

// -----

// token_major puts the query positions before the heads.
func.func @attention_token_major(%q: tensor<1x12x16x64xf16>, %k: tensor<1x12x16x64xf16>) {
  // expected-error @+1 {{'memplan.attention' op result shape 1x12x16x64 does not match the expected 1x16x12x64}}
  %0 = memplan.attention %q, %k, %k {token_major} : tensor<1x12x16x64xf16>, tensor<1x12x16x64xf16>, tensor<1x12x16x64xf16> -> tensor<1x12x16x64xf16>
  return
}

// -----

func.func @attention_gqa(%q: tensor<1x12x16x64xf16>, %k: tensor<1x5x16x64xf16>) {
  // expected-error @+1 {{'memplan.attention' op query heads (12) must be a multiple of key/value heads (5) (query 1x12x16x64, key 1x5x16x64, value 1x5x16x64)}}
  %0 = memplan.attention %q, %k, %k : tensor<1x12x16x64xf16>, tensor<1x5x16x64xf16>, tensor<1x5x16x64xf16> -> tensor<1x12x16x64xf16>
  return
}

// -----

func.func @attention_causal(%q: tensor<1x4x32x64xf16>, %k: tensor<1x4x16x64xf16>) {
  // expected-error @+1 {{'memplan.attention' op causal attention needs query seq (32) <= key seq (16) (query 1x4x32x64, key 1x4x16x64, value 1x4x16x64)}}
  %0 = memplan.attention %q, %k, %k {causal} : tensor<1x4x32x64xf16>, tensor<1x4x16x64xf16>, tensor<1x4x16x64xf16> -> tensor<1x4x32x64xf16>
  return
}

// -----

func.func @attention_scale(%q: tensor<1x4x16x64xf16>) {
  // expected-error @+1 {{'memplan.attention' op scale must be positive, got -1.000000e+00}}
  %0 = memplan.attention %q, %q, %q {scale = -1.0 : f64} : tensor<1x4x16x64xf16>, tensor<1x4x16x64xf16>, tensor<1x4x16x64xf16> -> tensor<1x4x16x64xf16>
  return
}

// -----

func.func @attention_result(%q: tensor<1x4x16x64xf16>) {
  // expected-error @+1 {{'memplan.attention' op result shape 1x16x4x64 does not match the expected 1x4x16x64}}
  %0 = memplan.attention %q, %q, %q : tensor<1x4x16x64xf16>, tensor<1x4x16x64xf16>, tensor<1x4x16x64xf16> -> tensor<1x16x4x64xf16>
  return
}

// -----

func.func @kv_cache_rank(%c: tensor<4x128x64xf16>, %u: tensor<1x4x1x64xf16>, %p: index) {
  // expected-error @+1 {{'memplan.kv_cache_update' op cache must have rank 4 ([batch, kv_heads, seq, head_dim]), got shape 4x128x64}}
  %0 = memplan.kv_cache_update %c, %u, %p : tensor<4x128x64xf16>, tensor<1x4x1x64xf16>
  return
}

// -----

func.func @kv_cache_fit(%c: tensor<1x4x128x64xf16>, %u: tensor<1x4x256x64xf16>, %p: index) {
  // expected-error @+1 {{'memplan.kv_cache_update' op update of shape 1x4x256x64 does not fit cache of shape 1x4x128x64 (batch, kv_heads and head_dim must match, new seq <= max seq)}}
  %0 = memplan.kv_cache_update %c, %u, %p : tensor<1x4x128x64xf16>, tensor<1x4x256x64xf16>
  return
}

// -----

func.func @kv_cache_type(%c: tensor<1x4x128x64xf16>, %u: tensor<1x4x1x64xbf16>, %p: index) {
  // expected-error @+1 {{'memplan.kv_cache_update' op element types differ: cache has 'f16', update has 'bf16'}}
  %0 = memplan.kv_cache_update %c, %u, %p : tensor<1x4x128x64xf16>, tensor<1x4x1x64xbf16>
  return
}

// -----

func.func @generic_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.op' op needs a non-empty name}}
  %0 = memplan.op ""(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @generic_scratch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.op' op attribute 'scratch' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = memplan.op "foo"(%x) {scratch = -8 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @generic_library_workspace_without_scratch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.op' op has library_workspace but no scratch: the workspace's bytes are its scratch}}
  %0 = memplan.op "gemm"(%x) {library_workspace} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @generic_aliases_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.op' op aliases has 2 entries for 1 results}}
  %0 = memplan.op "foo"(%x) {aliases = array<i64: 0, 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @generic_aliases_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.op' op result #0 aliases operand #3, but there are 1 operands}}
  %0 = memplan.op "foo"(%x) {aliases = array<i64: 3>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @generic_aliases_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.op' op result #0 of type 'tensor<8xf32>' aliases operand #0 of another type, 'tensor<4xf32>'}}
  %0 = memplan.op "foo"(%x) {aliases = array<i64: 0>} : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @generic_negative_flops(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.op' op attribute 'flops' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = memplan.op "gemm"(%x) {flops = -1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @generic_comm_without_ranks(%x: tensor<4xf32>) {
  // expected-error @+1 {{a process group has at least 1 GPU, not 0}}
  %0 = memplan.op "all_reduce"(%x) {comm = #memplan.comm<data, ranks = 0, sent_bytes = 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @generic_comm_negative_bytes(%x: tensor<4xf32>) {
  // expected-error @+1 {{sent_bytes must not be negative, not -8}}
  %0 = memplan.op "send"(%x) {comm = #memplan.comm<pipeline, ranks = 2, sent_bytes = -8>} : (tensor<4xf32>) -> tensor<0xi8>
  return
}

// -----

func.func @generic_comm_unknown_group(%x: tensor<4xf32>) {
  // expected-error @+2 {{expected ::memplan::ProcessGroup to be one of: data, tensor, pipeline}}
  // expected-error @+1 {{failed to parse MemPlan_CommunicationAttr parameter 'group'}}
  %0 = memplan.op "send"(%x) {comm = #memplan.comm<expert, ranks = 2, sent_bytes = 8>} : (tensor<4xf32>) -> tensor<0xi8>
  return
}

// -----

func.func @generic_views_without_aliases(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.op' op has views but no aliases: the views are the aliased results}}
  %0 = memplan.op "tp_input"(%x) {views} : (tensor<4xf32>) -> tensor<4xf32>
  return
}
