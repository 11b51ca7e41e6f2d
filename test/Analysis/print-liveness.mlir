// RUN: memplan-opt %s --memplan-print-liveness -split-input-file -o /dev/null | FileCheck %s
// RUN: memplan-opt %s --memplan-print-liveness=in-place=false -split-input-file -o /dev/null | FileCheck %s --check-prefix=NOINPLACE

// Positions are op indices; intervals are half-open [first, end).

// CHECK-LABEL: liveness of @residual: 6 positions, 3 buffers
// CHECK-NEXT:  external %arg0 (argument): 1024 bytes
// CHECK-NEXT:  external %arg1 (argument): 256 bytes
// CHECK-NEXT:  external %arg2 (argument): 256 bytes
// CHECK-NEXT:  external %arg3 (argument): 65536 bytes
// CHECK-NEXT:  external %arg4 (argument): 65536 bytes
// CHECK-NEXT:  buffer #0: %0 = memplan.layer_norm, 1024 bytes, live [0, 2)
// CHECK-NEXT:  buffer #1: %1 = memplan.matmul, 4096 bytes, live [1, 4)
// CHECK-NEXT:    in place %2
// CHECK-NEXT:  buffer #2: %3 = memplan.matmul, 1024 bytes, live [3, 6)
// CHECK-NEXT:    in place %4
// NOINPLACE-LABEL: liveness of @residual: 6 positions, 5 buffers
// NOINPLACE:       buffer #0: %0 = memplan.layer_norm, 1024 bytes, live [0, 2)
// NOINPLACE-NEXT:  buffer #1: %1 = memplan.matmul, 4096 bytes, live [1, 3)
// NOINPLACE-NEXT:  buffer #2: %2 = memplan.gelu, 4096 bytes, live [2, 4)
// NOINPLACE-NEXT:  buffer #3: %3 = memplan.matmul, 1024 bytes, live [3, 5)
// NOINPLACE-NEXT:  buffer #4: %4 = memplan.add, 1024 bytes, live [4, 6)
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

// A view stretches its source's lifetime to its own last use; a view of an
// argument stays outside the arena; a KV-cache update writes into the cache
// argument (a view of it); the attention's scratch lives at its op only; an
// unused result lives at its own op only.
// CHECK-LABEL: liveness of @views_and_scratch: 7 positions, 4 buffers
// CHECK:       buffer #0: %0 = memplan.gelu, 1024 bytes, live [0, 5)
// CHECK-NEXT:    view %1
// CHECK-NEXT:  buffer #1: %4 = memplan.attention, 1024 bytes, live [4, 7)
// CHECK-NEXT:  buffer #2: scratch of memplan.attention, 128 bytes, live [4, 5)
// CHECK-NEXT:  buffer #3: %5 = memplan.relu, 1024 bytes, live [5, 6)
// CHECK-NOT: buffer
func.func @views_and_scratch(%x: tensor<256xf32>, %cache: tensor<1x2x32x16xf32>, %pos: index)
    -> (tensor<1x2x8x16xf32>, tensor<1x2x32x16xf32>) {
  %0 = memplan.gelu %x : tensor<256xf32>
  %1 = memplan.reshape %0 : tensor<256xf32> -> tensor<1x2x8x16xf32>
  %2 = memplan.reshape %x : tensor<256xf32> -> tensor<1x2x8x16xf32>
  %3 = memplan.kv_cache_update %cache, %2, %pos : tensor<1x2x32x16xf32>, tensor<1x2x8x16xf32>
  %4 = memplan.attention %1, %3, %3 : tensor<1x2x8x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32> -> tensor<1x2x8x16xf32>
  %5 = memplan.relu %x : tensor<256xf32>
  return %4, %3 : tensor<1x2x8x16xf32>, tensor<1x2x32x16xf32>
}

// -----

// Constants are external; a use in a nested region counts at the op that
// holds the region.
// CHECK-LABEL: liveness of @nested: 5 positions, 3 buffers
// CHECK-NEXT:  external %arg0 (argument): 1024 bytes
// CHECK-NEXT:  external %cst (constant): 1024 bytes
// CHECK-NEXT:  buffer #0: %0 = memplan.gelu, 1024 bytes, live [1, 4)
// CHECK-NEXT:  buffer #1: %1 = memplan.relu, 1024 bytes, live [2, 4)
// CHECK-NEXT:  buffer #2: %2 = scf.if, 1024 bytes, live [3, 5)
func.func @nested(%x: tensor<256xf32>, %cond: i1) -> tensor<256xf32> {
  %c = arith.constant dense<2.0> : tensor<256xf32>
  %a = memplan.gelu %x : tensor<256xf32>
  %b = memplan.relu %c : tensor<256xf32>
  %r = scf.if %cond -> (tensor<256xf32>) {
    %inner = memplan.add %a, %b : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
    scf.yield %inner : tensor<256xf32>
  } else {
    scf.yield %x : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}
