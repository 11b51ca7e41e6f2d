// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// The function's peak never rises. memplan once held one arena from entry
// to exit while the buffers it left alone (here the returned one) were
// allocated on top of it: 3 KiB where freeing every buffer at its last use
// needs 2 KiB. The arena is given up instead, and the buffers it would have
// held are freed right after their last use.
// CHECK-LABEL: func.func @returned_on_top
// CHECK-NOT: xi8>
// CHECK: %[[A:.*]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[B]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[R:.*]] = memref.alloc() : memref<256xf32>
// CHECK-NEXT: memref.copy %[[B]], %[[R]]
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: return %[[R]]
// expected-remark @+1 {{memplan: @returned_on_top: no arena for its 2 packable allocations; function peak 2048 bytes, 2048 bytes with every buffer freed at its last use}}
func.func @returned_on_top(%x: memref<256xf32>) -> memref<256xf32> {
  // expected-remark @+1 {{memplan: not packed: its arena of 2048 bytes would raise the function's peak in the default memory space to 3072 bytes, above the 2048 bytes it needs when every buffer is freed at its last use}}
  %a = memref.alloc() : memref<256xf32>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32>
  // expected-remark @+1 {{memplan: not packed: its arena of 2048 bytes would raise the function's peak in the default memory space to 3072 bytes, above the 2048 bytes it needs when every buffer is freed at its last use}}
  %b = memref.alloc() : memref<256xf32>
  memref.copy %a, %b : memref<256xf32> to memref<256xf32>
  // expected-remark @+1 {{memplan: not packed: it is returned from the function}}
  %r = memref.alloc() : memref<256xf32>
  memref.copy %b, %r : memref<256xf32> to memref<256xf32>
  memref.dealloc %a : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  return %r : memref<256xf32>
}

// -----

// Stretches of the function that share no top-level op get arenas of their
// own, each freed before the next is allocated, so a big buffer left alone
// in between (passed to an external function) never sits on an arena.
// CHECK-LABEL: func.func @stretches
// CHECK: %[[FIRST:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2048xi8>
// CHECK: memref.dealloc %[[FIRST]]
// CHECK: memref.alloc() : memref<4096xf32>
// CHECK: %[[SECOND:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2048xi8>
// CHECK: memref.dealloc %[[SECOND]]
// CHECK-NEXT: return
// expected-remark @+1 {{memplan: @stretches: packed 6 allocations (6144 bytes) into 2 arenas of 2048 + 2048 bytes, each live only over the stretch of its buffers (lower bound 2048 bytes, greedy-by-size); function peak 16384 bytes, 16384 bytes with every buffer freed at its last use}}
func.func @stretches(%x: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  memref.copy %a, %b : memref<256xf32> to memref<256xf32>
  %c = memref.alloc() : memref<256xf32>
  memref.copy %b, %c : memref<256xf32> to memref<256xf32>
  memref.copy %c, %x : memref<256xf32> to memref<256xf32>
  // expected-remark @+1 {{memplan: not packed: it is passed to @consume, an external function, which may keep it}}
  %big = memref.alloc() : memref<4096xf32>
  func.call @consume(%big) : (memref<4096xf32>) -> ()
  memref.dealloc %big : memref<4096xf32>
  %d = memref.alloc() : memref<256xf32>
  memref.copy %x, %d : memref<256xf32> to memref<256xf32>
  %e = memref.alloc() : memref<256xf32>
  memref.copy %d, %e : memref<256xf32> to memref<256xf32>
  %f = memref.alloc() : memref<256xf32>
  memref.copy %e, %f : memref<256xf32> to memref<256xf32>
  memref.copy %f, %x : memref<256xf32> to memref<256xf32>
  memref.dealloc %a : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  memref.dealloc %e : memref<256xf32>
  memref.dealloc %f : memref<256xf32>
  return
}
func.func private @consume(memref<4096xf32>)

// -----

// An arena of the function for a loop's temporaries would stay allocated
// while the big buffer of the same iteration lives (6 KiB where 4 KiB
// suffice). The temporaries move to an arena of the loop body instead, freed
// after their last use in each iteration, before the big buffer is born.
// CHECK-LABEL: func.func @loop_body_arena
// CHECK: scf.for
// CHECK-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2048xi8>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<256xf32> to memref<256xf32>
// CHECK: memref.dealloc %[[ARENA]] : memref<2048xi8>
// CHECK-NEXT: %[[BIG:.*]] = memref.alloc() : memref<1024xf32>
// expected-remark @+1 {{memplan: @loop_body_arena: packed 2 allocations (2048 bytes) into one arena of 2048 bytes (lower bound 2048 bytes, greedy-by-size); function peak 4096 bytes, 4096 bytes with every buffer freed at its last use}}
func.func @loop_body_arena(%x: memref<256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<256xf32>
    memref.copy %x, %t : memref<256xf32> to memref<256xf32>
    %u = memref.alloc() : memref<256xf32>
    memref.copy %t, %u : memref<256xf32> to memref<256xf32>
    memref.copy %u, %x : memref<256xf32> to memref<256xf32>
    // expected-remark @+1 {{memplan: not packed: it is passed to @consume_big, an external function, which may keep it}}
    %big = memref.alloc() : memref<1024xf32>
    func.call @consume_big(%big) : (memref<1024xf32>) -> ()
    memref.dealloc %t : memref<256xf32>
    memref.dealloc %u : memref<256xf32>
    memref.dealloc %big : memref<1024xf32>
  }
  return
}
func.func private @consume_big(memref<1024xf32>)
