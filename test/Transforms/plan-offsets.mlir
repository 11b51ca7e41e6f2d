// RUN: memplan-opt %s --plan-offsets=results-in-caller-buffers=false -split-input-file 2>/dev/null | FileCheck %s
// RUN: memplan-opt %s --plan-offsets="in-place=false results-in-caller-buffers=false" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=NOINPLACE
// RUN: memplan-opt %s --plan-offsets=results-in-caller-buffers=false -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// Every plan written is proven again from the IR alone:
// RUN: memplan-opt %s --plan-offsets=results-in-caller-buffers=false --memplan-verify-plan -split-input-file 2>/dev/null | FileCheck %s --check-prefix=CHECK
// RUN: memplan-opt %s --plan-offsets="in-place=false results-in-caller-buffers=false" --memplan-verify-plan -split-input-file 2>/dev/null | FileCheck %s --check-prefix=NOINPLACE

// These checks pin placements in the arena, so returned values stay there
// (results-in-caller-buffers=false); the default, results computed in the
// caller's buffers, is tested in plan-offsets-destinations.mlir.

// Every tensor here is 256 x f32 = 1024 bytes, a multiple of the default
// alignment (256), so offsets are sums of sizes.

// A chain: with in-place reuse every op overwrites its input; without it, two
// buffers alternate.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: memplan.alignment = 256 : i64, memplan.arena_size = 1024 : i64, memplan.lower_bound = 1024 : i64
// CHECK: memplan.gelu %{{.*}} {memplan.offsets = array<i64: 0>}
// CHECK: memplan.relu %{{.*}} {memplan.offsets = array<i64: 0>}
// CHECK: memplan.silu %{{.*}} {memplan.offsets = array<i64: 0>}
// CHECK: memplan.gelu %{{.*}} {memplan.offsets = array<i64: 0>}
// NOINPLACE-LABEL: func.func @chain
// NOINPLACE-SAME: memplan.arena_size = 2048 : i64, memplan.lower_bound = 2048 : i64
// NOINPLACE: memplan.gelu %{{.*}} {memplan.offsets = array<i64: 0>}
// NOINPLACE: memplan.relu %{{.*}} {memplan.offsets = array<i64: 1024>}
// NOINPLACE: memplan.silu %{{.*}} {memplan.offsets = array<i64: 0>}
// NOINPLACE: memplan.gelu %{{.*}} {memplan.offsets = array<i64: 1024>}
// REMARK: remark: memplan: @chain: arena 1024 bytes, lower bound 1024 bytes (ratio 1.000), 1024 bytes without reuse, 1 buffers, 1024 external bytes (greedy-by-size)
func.func @chain(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  %1 = memplan.relu %0 : tensor<256xf32>
  %2 = memplan.silu %1 : tensor<256xf32>
  %3 = memplan.gelu %2 : tensor<256xf32>
  return %3 : tensor<256xf32>
}

// -----

// A diamond: %a feeds two branches that join. Without in-place, three
// tensors are live at once; %d reuses %a's memory. With in-place, %c
// overwrites %a (its last use) and %d overwrites %b.
// CHECK-LABEL: func.func @diamond
// CHECK-SAME: memplan.arena_size = 2048 : i64, memplan.lower_bound = 2048 : i64
// CHECK: memplan.gelu {{.*}}memplan.offsets = array<i64: 0>
// CHECK: memplan.relu {{.*}}memplan.offsets = array<i64: 1024>
// CHECK: memplan.silu {{.*}}memplan.offsets = array<i64: 0>
// CHECK: memplan.add {{.*}}memplan.offsets = array<i64: 1024>
// NOINPLACE-LABEL: func.func @diamond
// NOINPLACE-SAME: memplan.arena_size = 3072 : i64, memplan.lower_bound = 3072 : i64
// NOINPLACE: memplan.gelu {{.*}}memplan.offsets = array<i64: 0>
// NOINPLACE: memplan.relu {{.*}}memplan.offsets = array<i64: 1024>
// NOINPLACE: memplan.silu {{.*}}memplan.offsets = array<i64: 2048>
// NOINPLACE: memplan.add {{.*}}memplan.offsets = array<i64: 0>
// REMARK: remark: memplan: @diamond: arena 2048 bytes, lower bound 2048 bytes (ratio 1.000), 2048 bytes without reuse, 2 buffers, 1024 external bytes (greedy-by-size)
func.func @diamond(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = memplan.gelu %x : tensor<256xf32>
  %b = memplan.relu %a : tensor<256xf32>
  %c = memplan.silu %a : tensor<256xf32>
  %d = memplan.add %b, %c : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %d : tensor<256xf32>
}

// -----

// A pre-LN residual MLP block. The 4 KiB hidden activation goes first at 0;
// the normalised input and the output sit above it. The residual add is
// computed in place over the down projection (the block's input is an
// argument: never overwritten).
// CHECK-LABEL: func.func @residual
// CHECK-SAME: memplan.arena_size = 5120 : i64, memplan.lower_bound = 5120 : i64
// CHECK: memplan.layer_norm {{.*}}memplan.offsets = array<i64: 4096>
// CHECK: memplan.matmul {{.*}}memplan.offsets = array<i64: 0>
// CHECK: memplan.gelu {{.*}}memplan.offsets = array<i64: 0>
// CHECK: memplan.matmul {{.*}}memplan.offsets = array<i64: 4096>
// CHECK: memplan.add %arg0, {{.*}}memplan.offsets = array<i64: 4096>
// NOINPLACE-LABEL: func.func @residual
// NOINPLACE-SAME: memplan.arena_size = 8192 : i64, memplan.lower_bound = 8192 : i64
// REMARK: remark: memplan: @residual: arena 5120 bytes, lower bound 5120 bytes (ratio 1.000), 6144 bytes without reuse, 3 buffers
func.func @residual(%x: tensor<4x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>,
                    %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<4x64xf32> {
  %h = memplan.layer_norm %x, %g, %b : tensor<4x64xf32>, tensor<64xf32>
  %u = memplan.matmul %h, %w1 : tensor<4x64xf32>, tensor<64x256xf32> -> tensor<4x256xf32>
  %a = memplan.gelu %u : tensor<4x256xf32>
  %d = memplan.matmul %a, %w2 : tensor<4x256xf32>, tensor<256x64xf32> -> tensor<4x64xf32>
  %r = memplan.add %x, %d : tensor<4x64xf32>, tensor<4x64xf32> -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// An attention block: views (reshape) sit at their source's offset, and the
// fused attention's 128 scratch bytes are a buffer of their own, live at the
// attention op only. The plan reaches the lower bound.
// CHECK-LABEL: func.func @attention_block
// CHECK-SAME: memplan.arena_size = 4224 : i64, memplan.lower_bound = 4224 : i64
// CHECK: %[[Q0:.*]] = memplan.matmul {{.*}}memplan.offsets = array<i64: 0>
// CHECK: %[[K0:.*]] = memplan.matmul {{.*}}memplan.offsets = array<i64: 1024>
// CHECK: %[[V0:.*]] = memplan.matmul {{.*}}memplan.offsets = array<i64: 2048>
// CHECK: memplan.reshape %[[Q0]] {memplan.offsets = array<i64: 0>}
// CHECK: memplan.reshape %[[K0]] {memplan.offsets = array<i64: 1024>}
// CHECK: memplan.reshape %[[V0]] {memplan.offsets = array<i64: 2048>}
// CHECK: memplan.transpose {{.*}}memplan.offsets = array<i64: 3072>
// CHECK: memplan.transpose {{.*}}memplan.offsets = array<i64: 0>
// CHECK: memplan.transpose {{.*}}memplan.offsets = array<i64: 1024>
// CHECK: memplan.attention {{.*}}{causal, memplan.offsets = array<i64: 2048>, memplan.scratch_offset = 4096 : i64}
// CHECK: memplan.transpose {{.*}}memplan.offsets = array<i64: 0>
// CHECK: memplan.reshape {{.*}}memplan.offsets = array<i64: 0>
// CHECK: memplan.matmul {{.*}}memplan.offsets = array<i64: 1024>
// REMARK: remark: memplan: @attention_block: arena 4224 bytes, lower bound 4224 bytes (ratio 1.000), 9344 bytes without reuse, 10 buffers, 17408 external bytes (greedy-by-size)
func.func @attention_block(%x: tensor<1x8x32xf32>, %wq: tensor<32x32xf32>,
                           %wk: tensor<32x32xf32>, %wv: tensor<32x32xf32>,
                           %wo: tensor<32x32xf32>) -> tensor<1x8x32xf32> {
  %q0 = memplan.matmul %x, %wq : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  %k0 = memplan.matmul %x, %wk : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  %v0 = memplan.matmul %x, %wv : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  %q1 = memplan.reshape %q0 : tensor<1x8x32xf32> -> tensor<1x8x2x16xf32>
  %k1 = memplan.reshape %k0 : tensor<1x8x32xf32> -> tensor<1x8x2x16xf32>
  %v1 = memplan.reshape %v0 : tensor<1x8x32xf32> -> tensor<1x8x2x16xf32>
  %q = memplan.transpose %q1 permutation = [0, 2, 1, 3] : tensor<1x8x2x16xf32> -> tensor<1x2x8x16xf32>
  %k = memplan.transpose %k1 permutation = [0, 2, 1, 3] : tensor<1x8x2x16xf32> -> tensor<1x2x8x16xf32>
  %v = memplan.transpose %v1 permutation = [0, 2, 1, 3] : tensor<1x8x2x16xf32> -> tensor<1x2x8x16xf32>
  %o = memplan.attention %q, %k, %v {causal} : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  %ot = memplan.transpose %o permutation = [0, 2, 1, 3] : tensor<1x2x8x16xf32> -> tensor<1x8x2x16xf32>
  %o2 = memplan.reshape %ot : tensor<1x8x2x16xf32> -> tensor<1x8x32xf32>
  %y = memplan.matmul %o2, %wo : tensor<1x8x32xf32>, tensor<32x32xf32> -> tensor<1x8x32xf32>
  return %y : tensor<1x8x32xf32>
}

// -----

// No intermediates, nothing at all, and a zero-sized tensor: all valid, with
// an arena of 0 bytes.
// CHECK-LABEL: func.func @passthrough
// CHECK-SAME: memplan.arena_size = 0 : i64, memplan.lower_bound = 0 : i64
// REMARK: remark: memplan: @passthrough: arena 0 bytes, lower bound 0 bytes (ratio 1.000), 0 bytes without reuse, 0 buffers, 1024 external bytes
func.func @passthrough(%x: tensor<256xf32>) -> tensor<256xf32> {
  return %x : tensor<256xf32>
}
// CHECK-LABEL: func.func @empty
// CHECK-SAME: memplan.arena_size = 0 : i64, memplan.lower_bound = 0 : i64
// REMARK: remark: memplan: @empty: arena 0 bytes, lower bound 0 bytes (ratio 1.000), 0 bytes without reuse, 0 buffers, 0 external bytes
func.func @empty() {
  return
}
// CHECK-LABEL: func.func @zero_sized
// CHECK-SAME: memplan.arena_size = 1024 : i64
// CHECK: memplan.gelu {{.*}}memplan.offsets = array<i64: 0>} : tensor<0x4xf32>
// CHECK: memplan.transpose {{.*}}memplan.offsets = array<i64: 0>} : tensor<256xf32> -> tensor<256xf32>
// REMARK: remark: memplan: @zero_sized: arena 1024 bytes, lower bound 1024 bytes (ratio 1.000), 1024 bytes without reuse, 2 buffers
func.func @zero_sized(%e: tensor<0x4xf32>, %x: tensor<256xf32>) -> (tensor<0x4xf32>, tensor<256xf32>) {
  %0 = memplan.gelu %e : tensor<0x4xf32>
  %1 = memplan.transpose %x permutation = [0] : tensor<256xf32> -> tensor<256xf32>
  return %0, %1 : tensor<0x4xf32>, tensor<256xf32>
}
// Declarations have nothing to plan.
// CHECK-LABEL: func.func private @declaration
// CHECK-NOT: memplan.arena_size
func.func private @declaration(tensor<256xf32>) -> tensor<256xf32>

// -----

// Ops outside the memplan dialect: upstream ops with tensor results get fresh
// buffers and no in-place reuse; constants are external; a use inside a
// nested region counts at the op that holds the region (%e lives until the
// scf.if, so the scf.if result cannot take its place).
// CHECK-LABEL: func.func @upstream_ops
// CHECK-SAME: memplan.arena_size = 3072 : i64, memplan.lower_bound = 3072 : i64
// CHECK: arith.constant dense<1.000000e+00> : tensor<256xf32>
// CHECK-NOT: memplan.offsets
// CHECK: tensor.empty() {memplan.offsets = array<i64: 0>}
// CHECK: arith.addf {{.*}}memplan.offsets = array<i64: 1024>
// CHECK: scf.if
// CHECK: } {memplan.offsets = array<i64: 2048>}
// CHECK: memplan.add {{.*}}memplan.offsets = array<i64: 2048>
func.func @upstream_ops(%x: tensor<256xf32>, %cond: i1) -> tensor<256xf32> {
  %c = arith.constant dense<1.0> : tensor<256xf32>
  %e = tensor.empty() : tensor<256xf32>
  %s = arith.addf %x, %c : tensor<256xf32>
  %r = scf.if %cond -> (tensor<256xf32>) {
    scf.yield %e : tensor<256xf32>
  } else {
    scf.yield %s : tensor<256xf32>
  }
  %y = memplan.add %r, %s : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %y : tensor<256xf32>
}
