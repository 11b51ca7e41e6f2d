// Destination passing, on by default: a returned value, and everything that
// shares its memory (views of it, results computed in place before it), is
// computed in the caller's buffer of that result, recorded as
// memplan.destinations, and takes no arena bytes. Every plan is proven again
// from the IR by --memplan-verify-plan.

// RUN: memplan-opt %s --plan-offsets --memplan-verify-plan 2>/dev/null | FileCheck %s
// RUN: memplan-opt %s --plan-offsets -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: memplan-opt %s --plan-offsets=results-in-caller-buffers=false --memplan-verify-plan 2>/dev/null | FileCheck %s --check-prefix=ARENA
// RUN: memplan-opt %s --plan-offsets --memplan-memory-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT

// A chain computed in place: entirely in the caller's buffer.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: memplan.arena_size = 0 : i64, memplan.lower_bound = 0 : i64
// CHECK: memplan.gelu {{.*}}{memplan.destinations = array<i64: 0>, memplan.offsets = array<i64: -1>}
// CHECK: memplan.relu {{.*}}{memplan.destinations = array<i64: 0>, memplan.offsets = array<i64: -1>}
// CHECK: memplan.silu {{.*}}{memplan.destinations = array<i64: 0>, memplan.offsets = array<i64: -1>}
// REMARK: @chain: arena 0 bytes, lower bound 0 bytes (ratio 1.000), 0 bytes without reuse, 1 buffers (1 in the caller's result buffers), 1024 external bytes
// ARENA-LABEL: func.func @chain
// ARENA-SAME: memplan.arena_size = 1024 : i64
// ARENA-NOT: memplan.destinations
// ARENA: return
func.func @chain(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  %1 = memplan.relu %0 : tensor<256xf32>
  %2 = memplan.silu %1 : tensor<256xf32>
  return %2 : tensor<256xf32>
}

// The diamond: %d is computed in place over %b, so %b is computed in the
// caller's buffer too; %a and %c (in place over %a) stay in the arena.
// CHECK-LABEL: func.func @diamond
// CHECK-SAME: memplan.arena_size = 1024 : i64, memplan.lower_bound = 1024 : i64
// CHECK: memplan.gelu {{.*}}{memplan.offsets = array<i64: 0>}
// CHECK: memplan.relu {{.*}}{memplan.destinations = array<i64: 0>, memplan.offsets = array<i64: -1>}
// CHECK: memplan.silu {{.*}}{memplan.offsets = array<i64: 0>}
// CHECK: memplan.add {{.*}}{memplan.destinations = array<i64: 0>, memplan.offsets = array<i64: -1>}
// ARENA-LABEL: func.func @diamond
// ARENA-SAME: memplan.arena_size = 2048 : i64
func.func @diamond(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = memplan.gelu %x : tensor<256xf32>
  %b = memplan.relu %a : tensor<256xf32>
  %c = memplan.silu %a : tensor<256xf32>
  %d = memplan.add %b, %c : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %d : tensor<256xf32>
}

// One buffer returned three times (as itself, a view, itself again): it is
// computed in the buffer of result 0; results 1 and 2 are copies of it.
// CHECK-LABEL: func.func @returned_three_times
// CHECK-SAME: memplan.arena_size = 0 : i64
// CHECK: memplan.gelu {{.*}}{memplan.destinations = array<i64: 0>, memplan.offsets = array<i64: -1>}
// CHECK: memplan.reshape {{.*}}{memplan.destinations = array<i64: 0>, memplan.offsets = array<i64: -1>}
// REPORT-LABEL: memory of @returned_three_times
// REPORT: activation arena (planned) 0 B
// REPORT: outputs (caller buffers) 3,072 B
func.func @returned_three_times(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<16x16xf32>, tensor<256xf32>) {
  %0 = memplan.gelu %x : tensor<256xf32>
  %1 = memplan.reshape %0 : tensor<256xf32> -> tensor<16x16xf32>
  return %0, %1, %0 : tensor<256xf32>, tensor<16x16xf32>, tensor<256xf32>
}

// A KV-cache update of the caller's cache is the caller's cache: no
// destination, no arena, and no output bytes (the memory report counts it
// once, as an argument).
// CHECK-LABEL: func.func @cache
// CHECK: memplan.kv_cache_update %arg0, %arg1, %arg2 :
// CHECK: memplan.gelu {{.*}}{memplan.destinations = array<i64: 1>, memplan.offsets = array<i64: -1>}
// REPORT-LABEL: memory of @cache
// REPORT: other arguments 288 B
// REPORT: activation arena (planned) 0 B
// REPORT: outputs (caller buffers) 32 B
func.func @cache(%c: tensor<1x2x8x4xf32>, %u: tensor<1x2x1x4xf32>, %p: index) -> (tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>) {
  %0 = memplan.kv_cache_update %c, %u, %p : tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>
  %1 = memplan.gelu %u : tensor<1x2x1x4xf32>
  return %0, %1 : tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>
}
