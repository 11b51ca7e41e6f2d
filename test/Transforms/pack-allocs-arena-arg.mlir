// RUN: memplan-opt %s --memplan-pack-allocs="arena-mode=arg" --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// arena-mode=arg: the caller passes the arena, one trailing argument per
// memory space, sized by the generated @<name>_arena_size (in argument
// order). No allocation is left for the packed buffers, and their frees go.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%{{.*}}: memref<256xf32>, %[[ARENA:.*]]: memref<2048xi8> {memplan.arena, memplan.arena_alignment = 64 : i64}, %[[ARENA1:.*]]: memref<64xi8, 1> {memplan.arena, memplan.arena_alignment = 64 : i64})
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: memref.view %[[ARENA]]
// CHECK: memref.view %[[ARENA1]]
// CHECK-LABEL: func.func @chain_arena_size() -> (index, index)
// CHECK-DAG: %[[C2048:.*]] = arith.constant 2048 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: return %[[C2048]], %[[C64]] : index, index
// expected-remark @+2 {{memplan: @chain: packed 3 allocations (3072 bytes) into the arena argument of 2048 bytes (lower bound 2048 bytes, greedy-by-size); function peak 2048 bytes, 2048 bytes with every buffer freed at its last use}}
// expected-remark @+1 {{memplan: @chain: packed 1 allocation (64 bytes) of memory space 1 into the arena argument of 64 bytes}}
func.func @chain(%x: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  memref.copy %a, %b : memref<256xf32> to memref<256xf32>
  %c = memref.alloc() : memref<256xf32>
  memref.copy %b, %c : memref<256xf32> to memref<256xf32>
  memref.copy %c, %x : memref<256xf32> to memref<256xf32>
  %s = memref.alloc() : memref<16xf32, 1>
  memref.dealloc %a : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %s : memref<16xf32, 1>
  return
}

// -----

// The signature changes, so a function called in the module is an error.
// expected-error @+1 {{arena-mode=arg adds arena arguments to @callee, but it is called in this module}}
func.func @callee(%x: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  return
}
func.func @caller(%x: memref<16xf32>) {
  func.call @callee(%x) : (memref<16xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{arena-mode=arg: the size query @taken_arena_size would replace an existing symbol}}
func.func @taken(%x: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  return
}
func.func private @taken_arena_size() -> index
