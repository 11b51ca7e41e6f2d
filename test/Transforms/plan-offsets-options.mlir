// Each option of --plan-offsets, on a diamond (four 1 KiB tensors, three live
// at once) and a chain of 6-byte tensors.

// RUN: memplan-opt %s --plan-offsets="algorithm=naive in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=NAIVE
// RUN: memplan-opt %s --plan-offsets="algorithm=greedy-by-size in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=GREEDY
// RUN: memplan-opt %s --plan-offsets="algorithm=greedy-by-breadth in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=GREEDY
// RUN: memplan-opt %s --plan-offsets="algorithm=best-fit in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=GREEDY
// RUN: memplan-opt %s --plan-offsets="algorithm=shared-objects in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: memplan-opt %s --plan-offsets="algorithm=greedy-by-lifetime in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=GREEDY
// RUN: memplan-opt %s --plan-offsets="algorithm=greedy-by-conflicts in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=CONFLICTS
// RUN: memplan-opt %s --plan-offsets="algorithm=first-fit-by-size in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=GREEDY
// RUN: memplan-opt %s --plan-offsets="algorithm=first-fit-by-conflicts in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=CONFLICTS
// RUN: memplan-opt %s --plan-offsets="algorithm=skyline in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=GREEDY
// RUN: memplan-opt %s --plan-offsets="algorithm=long-lived-skyline in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=GREEDY
// RUN: memplan-opt %s --plan-offsets="algorithm=portfolio in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=GREEDY
// RUN: memplan-opt %s --plan-offsets="algorithm=portfolio in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=PORTFOLIO
// RUN: memplan-opt %s --plan-offsets="alignment=4096 in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=ALIGN4096
// RUN: memplan-opt %s --plan-offsets="alignment=1 in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=ALIGN1
// RUN: memplan-opt %s --plan-offsets="in-place=false results-in-caller-buffers=false" 2>&1 | FileCheck %s --check-prefix=ALIGN256

// NAIVE: remark: memplan: @diamond: arena 4096 bytes, lower bound 3072 bytes (ratio 1.333), 4096 bytes without reuse, 4 buffers, 1024 external bytes (naive)
// NAIVE-LABEL: func.func @diamond(%arg0
// NAIVE-SAME: memplan.arena_size = 4096 : i64
// NAIVE: memplan.gelu {{.*}}array<i64: 0>
// NAIVE: memplan.relu {{.*}}array<i64: 1024>
// NAIVE: memplan.silu {{.*}}array<i64: 2048>
// NAIVE: memplan.add {{.*}}array<i64: 3072>

// Most conflicted first: relu's and silu's lifetimes meet all four tensors
// (4 KiB), gelu's and add's three, so relu and silu take the first two
// slots, gelu the third, and add reuses gelu's once it is dead.
// (The same order into the lowest gap, first-fit-by-conflicts, gives the
// same plan here: each gap is the only one that fits.)
// CONFLICTS: remark: memplan: @diamond: arena 3072 bytes, lower bound 3072 bytes (ratio 1.000), {{.*}} ({{greedy-by-conflicts|first-fit-by-conflicts}})
// CONFLICTS-LABEL: func.func @diamond(%arg0
// CONFLICTS: memplan.gelu {{.*}}array<i64: 2048>
// CONFLICTS: memplan.relu {{.*}}array<i64: 0>
// CONFLICTS: memplan.silu {{.*}}array<i64: 1024>
// CONFLICTS: memplan.add {{.*}}array<i64: 2048>

// GREEDY: remark: memplan: @diamond: arena 3072 bytes, lower bound 3072 bytes (ratio 1.000)
// GREEDY-LABEL: func.func @diamond(%arg0
// GREEDY: memplan.gelu {{.*}}array<i64: 0>
// GREEDY: memplan.relu {{.*}}array<i64: 1024>
// GREEDY: memplan.silu {{.*}}array<i64: 2048>
// GREEDY: memplan.add {{.*}}array<i64: 0>

// The portfolio names the member whose plan it kept (the first of the
// smallest: all four reach 3072 here).
// PORTFOLIO: (portfolio); greedy-by-size won

// Shared objects: %d takes over %a's object once %a is dead.
// SHARED: remark: memplan: @diamond: arena 3072 bytes, lower bound 3072 bytes (ratio 1.000), 4096 bytes without reuse, 4 buffers, 1024 external bytes (shared-objects); 3 shared objects, 3072 bytes
// SHARED-LABEL: func.func @diamond(%arg0
// SHARED: memplan.gelu {{.*}}array<i64: 0>
// SHARED: memplan.relu {{.*}}array<i64: 1024>
// SHARED: memplan.silu {{.*}}array<i64: 2048>
// SHARED: memplan.add {{.*}}array<i64: 0>
func.func @diamond(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = memplan.gelu %x : tensor<256xf32>
  %b = memplan.relu %a : tensor<256xf32>
  %c = memplan.silu %a : tensor<256xf32>
  %d = memplan.add %b, %c : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %d : tensor<256xf32>
}

// Alignment pads each 6-byte tensor to the next multiple; the arena ends at
// the last tensor's end, without padding after it.
// ALIGN4096-LABEL: func.func @small_chain(%arg0
// ALIGN4096-SAME: memplan.alignment = 4096 : i64, memplan.arena_size = 4102 : i64, memplan.lower_bound = 12 : i64
// ALIGN4096: memplan.gelu {{.*}}array<i64: 0>
// ALIGN4096: memplan.relu {{.*}}array<i64: 4096>
// ALIGN4096: memplan.silu {{.*}}array<i64: 0>
// ALIGN1-LABEL: func.func @small_chain(%arg0
// ALIGN1-SAME: memplan.alignment = 1 : i64, memplan.arena_size = 12 : i64, memplan.lower_bound = 12 : i64
// ALIGN1: memplan.gelu {{.*}}array<i64: 0>
// ALIGN1: memplan.relu {{.*}}array<i64: 6>
// ALIGN1: memplan.silu {{.*}}array<i64: 0>
// ALIGN256-LABEL: func.func @small_chain(%arg0
// ALIGN256-SAME: memplan.alignment = 256 : i64, memplan.arena_size = 262 : i64, memplan.lower_bound = 12 : i64
// ALIGN256: memplan.gelu {{.*}}array<i64: 0>
// ALIGN256: memplan.relu {{.*}}array<i64: 256>
// ALIGN256: memplan.silu {{.*}}array<i64: 0>
func.func @small_chain(%x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = memplan.gelu %x : tensor<3xf16>
  %1 = memplan.relu %0 : tensor<3xf16>
  %2 = memplan.silu %1 : tensor<3xf16>
  return %2 : tensor<3xf16>
}
