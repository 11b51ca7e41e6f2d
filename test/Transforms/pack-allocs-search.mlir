// RUN: memplan-opt %s --memplan-pack-allocs="algorithm=search search-nodes=5000" -verify-diagnostics | FileCheck %s
// RUN: not memplan-opt %s --memplan-pack-allocs="algorithm=search search-nodes=5000 capacity=1024" 2>&1 | FileCheck %s --check-prefix=CAPACITY

// The pack remark carries the search's details as --plan-offsets reports
// them: the greedy arena it started from, its nodes, whether its arena is
// proven optimal.
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2048xi8>
// expected-remark @+1 {{memplan: @chain: packed 3 allocations (3072 bytes) into one arena of 2048 bytes (lower bound 2048 bytes, search; from 2048 bytes (greedy), 0 search nodes, proven optimal); function peak 2048 bytes, 2048 bytes with every buffer freed at its last use}}
func.func @chain(%x: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  memref.copy %a, %b : memref<256xf32> to memref<256xf32>
  %c = memref.alloc() : memref<256xf32>
  memref.copy %b, %c : memref<256xf32> to memref<256xf32>
  memref.copy %c, %x : memref<256xf32> to memref<256xf32>
  return
}

// A capacity below the lower bound is an error at the function.
// CAPACITY: error: no packing fits in 1024 bytes: the search proved it impossible (the best arena found is 2048 bytes)
