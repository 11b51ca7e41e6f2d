// RUN: memplan-opt %s | memplan-opt | FileCheck %s
// RUN: memplan-opt %s -mlir-print-op-generic | memplan-opt | FileCheck %s

// Every memplan op, printed, parsed and printed again.

// CHECK-LABEL: func.func @linear_algebra
func.func @linear_algebra(%x: tensor<2x16x64xf16>, %w: tensor<64x32xf16>,
                          %wt: tensor<32x64xf16>, %bx: tensor<2x64x16xf16>,
                          %q8: tensor<64x32xi8>, %q4: tensor<64x32xi4>,
                          %a8: tensor<4x64xi8>, %b8: tensor<64x8xi8>) {
  // CHECK: memplan.matmul %{{.*}}, %{{.*}} : tensor<2x16x64xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  %0 = memplan.matmul %x, %w : tensor<2x16x64xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  // CHECK: memplan.matmul %{{.*}}, %{{.*}} {transpose_rhs} : tensor<2x16x64xf16>, tensor<32x64xf16> -> tensor<2x16x32xf16>
  %1 = memplan.matmul %x, %wt {transpose_rhs} : tensor<2x16x64xf16>, tensor<32x64xf16> -> tensor<2x16x32xf16>
  // CHECK: memplan.matmul %{{.*}}, %{{.*}} {transpose_lhs} : tensor<2x64x16xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  %2 = memplan.matmul %bx, %w {transpose_lhs} : tensor<2x64x16xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  // CHECK: memplan.matmul %{{.*}}, %{{.*}} : tensor<2x16x64xf16>, tensor<2x64x16xf16> -> tensor<2x16x16xf16>
  %3 = memplan.matmul %x, %bx : tensor<2x16x64xf16>, tensor<2x64x16xf16> -> tensor<2x16x16xf16>
  // CHECK: memplan.matmul %{{.*}}, %{{.*}} : tensor<2x16x64xf16>, tensor<64x32xi8> -> tensor<2x16x32xf16>
  %4 = memplan.matmul %x, %q8 : tensor<2x16x64xf16>, tensor<64x32xi8> -> tensor<2x16x32xf16>
  // CHECK: memplan.matmul %{{.*}}, %{{.*}} : tensor<2x16x64xf16>, tensor<64x32xi4> -> tensor<2x16x32xf16>
  %5 = memplan.matmul %x, %q4 : tensor<2x16x64xf16>, tensor<64x32xi4> -> tensor<2x16x32xf16>
  // CHECK: memplan.matmul %{{.*}}, %{{.*}} : tensor<4x64xi8>, tensor<64x8xi8> -> tensor<4x8xi32>
  %6 = memplan.matmul %a8, %b8 : tensor<4x64xi8>, tensor<64x8xi8> -> tensor<4x8xi32>
  // CHECK: memplan.matmul %{{.*}}, %{{.*}} {workspace_bytes = 4194304 : i64} : tensor<2x16x64xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  %7 = memplan.matmul %x, %w {workspace_bytes = 4194304 : i64} : tensor<2x16x64xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  return
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x16x64xbf16>, %b: tensor<64xbf16>,
                       %c: tensor<2x1x64xbf16>, %d: tensor<16x1xbf16>) {
  // CHECK: memplan.add %{{.*}}, %{{.*}} : tensor<2x16x64xbf16>, tensor<64xbf16> -> tensor<2x16x64xbf16>
  %0 = memplan.add %a, %b : tensor<2x16x64xbf16>, tensor<64xbf16> -> tensor<2x16x64xbf16>
  // CHECK: memplan.sub %{{.*}}, %{{.*}} : tensor<2x1x64xbf16>, tensor<16x1xbf16> -> tensor<2x16x64xbf16>
  %1 = memplan.sub %c, %d : tensor<2x1x64xbf16>, tensor<16x1xbf16> -> tensor<2x16x64xbf16>
  // CHECK: memplan.mul %{{.*}}, %{{.*}} : tensor<2x16x64xbf16>, tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  %2 = memplan.mul %a, %a : tensor<2x16x64xbf16>, tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  // CHECK: memplan.div %{{.*}}, %{{.*}} : tensor<64xbf16>, tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  %3 = memplan.div %b, %a : tensor<64xbf16>, tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  // CHECK: memplan.gelu %{{.*}} : tensor<2x16x64xbf16>
  %4 = memplan.gelu %a : tensor<2x16x64xbf16>
  // CHECK: memplan.silu %{{.*}} : tensor<2x16x64xbf16>
  %5 = memplan.silu %a : tensor<2x16x64xbf16>
  // CHECK: memplan.relu %{{.*}} : tensor<2x16x64xbf16>
  %6 = memplan.relu %a : tensor<2x16x64xbf16>
  return
}

// CHECK-LABEL: func.func @normalisation
func.func @normalisation(%x: tensor<2x16x64xf32>, %g: tensor<64xf32>,
                         %b: tensor<64xf32>) {
  // CHECK: memplan.softmax %{{.*}} axis(-1) : tensor<2x16x64xf32>
  %0 = memplan.softmax %x axis(-1) : tensor<2x16x64xf32>
  // CHECK: memplan.softmax %{{.*}} axis(1) : tensor<2x16x64xf32>
  %1 = memplan.softmax %x axis(1) : tensor<2x16x64xf32>
  // CHECK: memplan.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x16x64xf32>, tensor<64xf32>
  %2 = memplan.layer_norm %x, %g, %b : tensor<2x16x64xf32>, tensor<64xf32>
  // CHECK: memplan.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64} : tensor<2x16x64xf32>, tensor<64xf32>
  %3 = memplan.layer_norm %x, %g, %b {epsilon = 1.0e-3 : f64} : tensor<2x16x64xf32>, tensor<64xf32>
  // CHECK: memplan.rms_norm %{{.*}}, %{{.*}} : tensor<2x16x64xf32>, tensor<64xf32>
  %4 = memplan.rms_norm %x, %g : tensor<2x16x64xf32>, tensor<64xf32>
  // CHECK: memplan.rms_norm %{{.*}}, %{{.*}} {epsilon = 1.000000e-05 : f64} : tensor<2x16x64xf32>, tensor<64xf32>
  %5 = memplan.rms_norm %x, %g {epsilon = 1.0e-5 : f64} : tensor<2x16x64xf32>, tensor<64xf32>
  return
}

// CHECK-LABEL: func.func @embeddings
func.func @embeddings(%table: tensor<100x64xf16>, %qtable: tensor<100x64xi8>,
                      %ids: tensor<2x16xi32>, %ids64: tensor<16xi64>,
                      %x: tensor<2x16x4x64xf16>) {
  // CHECK: memplan.embedding %{{.*}}, %{{.*}} : tensor<100x64xf16>, tensor<2x16xi32> -> tensor<2x16x64xf16>
  %0 = memplan.embedding %table, %ids : tensor<100x64xf16>, tensor<2x16xi32> -> tensor<2x16x64xf16>
  // CHECK: memplan.embedding %{{.*}}, %{{.*}} : tensor<100x64xi8>, tensor<16xi64> -> tensor<16x64xf32>
  %1 = memplan.embedding %qtable, %ids64 : tensor<100x64xi8>, tensor<16xi64> -> tensor<16x64xf32>
  // CHECK: memplan.rope %{{.*}}, %{{.*}} : tensor<2x16x4x64xf16>, tensor<16xi64>
  %2 = memplan.rope %x, %ids64 : tensor<2x16x4x64xf16>, tensor<16xi64>
  // CHECK: memplan.rope %{{.*}}, %{{.*}} {theta = 5.000000e+05 : f64} : tensor<2x16x4x64xf16>, tensor<16xi64>
  %3 = memplan.rope %x, %ids64 {theta = 500000.0 : f64} : tensor<2x16x4x64xf16>, tensor<16xi64>
  return
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%x: tensor<2x16x64xf16>, %y: tensor<2x8x64xf16>,
                         %i: tensor<2x16xi32>) {
  // CHECK: memplan.transpose %{{.*}} permutation = [0, 2, 1] : tensor<2x16x64xf16> -> tensor<2x64x16xf16>
  %0 = memplan.transpose %x permutation = [0, 2, 1] : tensor<2x16x64xf16> -> tensor<2x64x16xf16>
  // CHECK: memplan.reshape %{{.*}} : tensor<2x16x64xf16> -> tensor<2x16x4x16xf16>
  %1 = memplan.reshape %x : tensor<2x16x64xf16> -> tensor<2x16x4x16xf16>
  // CHECK: memplan.concat %{{.*}}, %{{.*}} axis(1) : tensor<2x16x64xf16>, tensor<2x8x64xf16> -> tensor<2x24x64xf16>
  %2 = memplan.concat %x, %y axis(1) : tensor<2x16x64xf16>, tensor<2x8x64xf16> -> tensor<2x24x64xf16>
  // CHECK: memplan.concat %{{.*}} axis(-1) : tensor<2x16x64xf16> -> tensor<2x16x64xf16>
  %3 = memplan.concat %x axis(-1) : tensor<2x16x64xf16> -> tensor<2x16x64xf16>
  // CHECK: memplan.slice %{{.*}} offsets = [0, 4, 0] sizes = [2, 8, 32] : tensor<2x16x64xf16> -> tensor<2x8x32xf16>
  %4 = memplan.slice %x offsets = [0, 4, 0] sizes = [2, 8, 32] : tensor<2x16x64xf16> -> tensor<2x8x32xf16>
  // CHECK: memplan.cast %{{.*}} : tensor<2x16x64xf16> -> tensor<2x16x64xf32>
  %5 = memplan.cast %x : tensor<2x16x64xf16> -> tensor<2x16x64xf32>
  // CHECK: memplan.cast %{{.*}} : tensor<2x16xi32> -> tensor<2x16xi64>
  %6 = memplan.cast %i : tensor<2x16xi32> -> tensor<2x16xi64>
  return
}

// CHECK-LABEL: func.func @attention
func.func @attention(%q: tensor<1x8x16x64xf16>, %k: tensor<1x2x32x64xf16>,
                     %v: tensor<1x2x32x32xf16>, %kc: tensor<1x2x128x64xf16>,
                     %knew: tensor<1x2x1x64xf16>, %pos: index) {
  // CHECK: memplan.attention %{{.*}}, %{{.*}}, %{{.*}} {causal} : tensor<1x8x16x64xf16>, tensor<1x2x32x64xf16>, tensor<1x2x32x32xf16> -> tensor<1x8x16x32xf16>
  %0 = memplan.attention %q, %k, %v {causal} : tensor<1x8x16x64xf16>, tensor<1x2x32x64xf16>, tensor<1x2x32x32xf16> -> tensor<1x8x16x32xf16>
  // CHECK: memplan.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.250000e-01 : f64} : tensor<1x8x16x64xf16>, tensor<1x2x32x64xf16>, tensor<1x2x32x32xf16> -> tensor<1x8x16x32xf16>
  %1 = memplan.attention %q, %k, %v {scale = 0.125 : f64} : tensor<1x8x16x64xf16>, tensor<1x2x32x64xf16>, tensor<1x2x32x32xf16> -> tensor<1x8x16x32xf16>
  // Token-major output: [batch, q_len, q_heads, v_dim].
  // CHECK: memplan.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, token_major} : tensor<1x8x16x64xf16>, tensor<1x2x32x64xf16>, tensor<1x2x32x32xf16> -> tensor<1x16x8x32xf16>
  %3 = memplan.attention %q, %k, %v {causal, token_major} : tensor<1x8x16x64xf16>, tensor<1x2x32x64xf16>, tensor<1x2x32x32xf16> -> tensor<1x16x8x32xf16>
  // CHECK: memplan.kv_cache_update %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x128x64xf16>, tensor<1x2x1x64xf16>
  %2 = memplan.kv_cache_update %kc, %knew, %pos : tensor<1x2x128x64xf16>, tensor<1x2x1x64xf16>
  return
}

// CHECK-LABEL: func.func @generic
func.func @generic(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %gy: tensor<8x4xf32>) {
  // CHECK: memplan.op "matmul_backward"(%{{.*}}, %{{.*}}, %{{.*}}) {scratch = 4096 : i64} : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16x4xf32>)
  %0:2 = memplan.op "matmul_backward"(%x, %w, %gy) {scratch = 4096 : i64} : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16x4xf32>)
  // CHECK: memplan.op "matmul_backward"(%{{.*}}, %{{.*}}, %{{.*}}) {library_workspace, scratch = 4096 : i64} : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16x4xf32>)
  %9:2 = memplan.op "matmul_backward"(%x, %w, %gy) {scratch = 4096 : i64, library_workspace} : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16x4xf32>)
  // CHECK: memplan.op "adam"(%{{.*}}, %{{.*}}) {aliases = array<i64: 0, -1>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<4xf32>)
  %2:2 = memplan.op "adam"(%x, %x) {aliases = array<i64: 0, -1>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<4xf32>)
  // CHECK: memplan.op "matmul_backward"(%{{.*}}, %{{.*}}, %{{.*}}) {flops = 2048 : i64} : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16x4xf32>)
  %10:2 = memplan.op "matmul_backward"(%x, %w, %gy) {flops = 2048 : i64} : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16x4xf32>)
  // CHECK: memplan.op "all_reduce"(%{{.*}}) {aliases = array<i64: 0>, comm = #memplan.comm<tensor, ranks = 2, sent_bytes = 128>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %11 = memplan.op "all_reduce"(%gy) {aliases = array<i64: 0>, comm = #memplan.comm<tensor, ranks = 2, sent_bytes = 128>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // CHECK: memplan.op "send"(%{{.*}}) {comm = #memplan.comm<pipeline, ranks = 4, sent_bytes = 512>} : (tensor<8x16xf32>) -> tensor<0xi8>
  %12 = memplan.op "send"(%x) {comm = #memplan.comm<pipeline, ranks = 4, sent_bytes = 512>} : (tensor<8x16xf32>) -> tensor<0xi8>
  // CHECK: memplan.op "tp_input"(%{{.*}}) {aliases = array<i64: 0>, views} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %13 = memplan.op "tp_input"(%gy) {aliases = array<i64: 0>, views} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // CHECK: memplan.op "adamw"() : () -> ()
  memplan.op "adamw"() : () -> ()
  // CHECK: memplan.op "dynamic"(%{{.*}}) : (tensor<8x16xf32>) -> tensor<?x16xf32>
  %1 = memplan.op "dynamic"(%x) : (tensor<8x16xf32>) -> tensor<?x16xf32>
  return
}
