// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// A chain of 1 KiB buffers, freed at the end as ownership-based deallocation
// does: lifetimes end at the last use, not at the dealloc, so two slots
// suffice. The arena replaces them and is freed instead.
// CHECK-LABEL: func.func @chain
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2048xi8>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[C0]]][] : memref<2048xi8> to memref<256xf32>
// CHECK: %[[C1024:.*]] = arith.constant 1024 : index
// CHECK: memref.view %[[ARENA]][%[[C1024]]][] : memref<2048xi8> to memref<256xf32>
// CHECK: memref.view %[[ARENA]][%[[C0]]
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc %{{.*}} : memref<256xf32>
// CHECK: memref.dealloc %[[ARENA]] : memref<2048xi8>
// CHECK-NEXT: return
// expected-remark @+1 {{memplan: @chain: packed 3 allocations (3072 bytes) into one arena of 2048 bytes (lower bound 2048 bytes, greedy-by-size); function peak 2048 bytes, 2048 bytes with every buffer freed at its last use}}
func.func @chain(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
  memref.copy %a, %b : memref<256xf32> to memref<256xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
  memref.copy %b, %c : memref<256xf32> to memref<256xf32>
  memref.copy %c, %out : memref<256xf32> to memref<256xf32>
  memref.dealloc %a : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  return
}

// -----

// Uses through views and inside regions keep a buffer alive; its alignment
// attribute is honoured.
// CHECK-LABEL: func.func @views
// %a (1 KiB) is still live through its subview when %b is born: %b goes
// above it, at 1024 (a multiple of %a's 256-byte alignment).
// CHECK: memref.alloc() {alignment = 256 : i64, memplan.arena} : memref<1280xi8>
// CHECK: arith.constant 0 : index
// CHECK: memref.view {{.*}} to memref<16x16xf32>
// CHECK: arith.constant 1024 : index
// CHECK: memref.view {{.*}} to memref<64xf32>
// expected-remark @+1 {{memplan: @views: packed 2 allocations (1280 bytes) into one arena of 1280 bytes (lower bound 1280 bytes, greedy-by-size); function peak 1280 bytes, 1280 bytes with every buffer freed at its last use}}
func.func @views(%x: memref<256xf32>, %cond: i1, %out: memref<64xf32>) {
  %a = memref.alloc() {alignment = 256 : i64} : memref<16x16xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<16x16xf32> into memref<256xf32>
  memref.copy %x, %flat : memref<256xf32> to memref<256xf32>
  %b = memref.alloc() : memref<64xf32>
  %sub = memref.subview %flat[0] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1]>>
  scf.if %cond {
    memref.copy %sub, %b : memref<64xf32, strided<[1]>> to memref<64xf32>
  }
  memref.copy %b, %out : memref<64xf32> to memref<64xf32>
  memref.dealloc %a : memref<16x16xf32>
  memref.dealloc %b : memref<64xf32>
  return
}

// -----

// Before a deallocation pipeline (no deallocs): packed, and no dealloc is
// added.
// CHECK-LABEL: func.func @no_deallocs
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<1024xi8>
// CHECK-NOT: memref.dealloc
// expected-remark @+1 {{memplan: @no_deallocs: packed 2 allocations (2048 bytes) into one arena of 1024 bytes}}
func.func @no_deallocs(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32>
  memref.copy %a, %out : memref<256xf32> to memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  memref.copy %x, %b : memref<256xf32> to memref<256xf32>
  memref.copy %b, %out : memref<256xf32> to memref<256xf32>
  return
}

// -----

// Everything that must stay, with the reason; nothing is packed. (Each
// reason has a test of its own in pack-allocs-escapes.mlir and
// pack-allocs-nested.mlir.)
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: xi8>
func.func private @consume(memref<16xf32>)
func.func @left_alone(%n: index, %cond: i1, %x: memref<16xf32>, %box: memref<memref<16xf32>>) -> memref<16xf32> {
  // expected-remark @+1 {{memplan: not packed: it has a dynamic size}}
  %dyn = memref.alloc(%n) : memref<?xf32>
  // expected-remark @+1 {{memplan: not packed: it is passed to @consume, an external function, which may keep it}}
  %called = memref.alloc() : memref<16xf32>
  func.call @consume(%called) : (memref<16xf32>) -> ()
  // expected-remark @+1 {{memplan: not packed: it is used by 'memref.store', which neither reads nor writes it (it may keep or expose it)}}
  %stored = memref.alloc() : memref<16xf32>
  memref.store %stored, %box[] : memref<memref<16xf32>>
  // expected-remark @+1 {{memplan: not packed: a dealloc may free this buffer or another one}}
  %either = memref.alloc() : memref<16xf32>
  %pick = arith.select %cond, %either, %x : memref<16xf32>
  memref.dealloc %pick : memref<16xf32>
  // expected-remark @+1 {{memplan: not packed: it has a non-identity layout}}
  %strided = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  // expected-remark @+1 {{memplan: not packed: it is returned from the function}}
  %returned = memref.alloc() : memref<16xf32>
  memref.copy %x, %returned : memref<16xf32> to memref<16xf32>
  return %returned : memref<16xf32>
}
