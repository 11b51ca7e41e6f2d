// --memplan-pack-allocs packs the functions of nested modules too, and
// --memplan-verify-packing checks them; arena-mode=arg puts each size query
// next to its function, in its own module.

// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing 2>&1 | FileCheck %s
// CHECK: remark: memplan: @outer: packed 3 allocations (3072 bytes) into one arena of 2048 bytes
// CHECK: remark: memplan: @nested: packed 3 allocations (3072 bytes) into one arena of 2048 bytes
// CHECK-LABEL: module @inner
// CHECK: func.func @nested
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2048xi8>

// RUN: memplan-opt %s --memplan-pack-allocs=arena-mode=arg --memplan-verify-packing -o - 2>/dev/null | FileCheck %s --check-prefix=ARG
// ARG-LABEL: module @inner
// ARG: func.func @nested(%{{.*}}: memref<256xf32>, %{{.*}}: memref<256xf32>, %{{.*}}: memref<2048xi8> {memplan.arena, memplan.arena_alignment = 64 : i64})
// ARG: func.func @nested_arena_size() -> index

func.func @outer(%x: memref<256xf32>, %out: memref<256xf32>) {
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
module @inner {
  func.func @nested(%x: memref<256xf32>, %out: memref<256xf32>) {
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
}
