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
// CHECK: %[[FIRST:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2048xi8>
// CHECK: memref.dealloc %[[FIRST]]
// CHECK: memref.alloc() : memref<4096xf32>
// CHECK: %[[SECOND:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2048xi8>
// CHECK: memref.dealloc %[[SECOND]]
// CHECK-NEXT: return
// expected-remark @+1 {{memplan: @stretches: packed 6 allocations (6144 bytes) into 2 arenas of 2048 + 2048 bytes, live at different times (lower bound 2048 bytes, greedy-by-size); function peak 16384 bytes, 16384 bytes with every buffer freed at its last use}}
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
