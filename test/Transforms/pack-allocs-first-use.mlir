// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// A buffer lives from its first use: the first op of its alloc's block that
// uses it or an alias (a view counts), not from its alloc.

// Two buffers allocated at the top and used one after the other never live
// together: no arena, and each alloc moves to just before its first use, as
// each dealloc moves to just after its last use.
// CHECK-LABEL: func.func @apart
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: memref.copy %[[A]], %{{.*}}
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[B]]
// CHECK-NEXT: memref.copy %[[B]], %{{.*}}
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: return
// expected-remark @+1 {{memplan: @apart: no arena for its 2 packable allocations; function peak 64 bytes, 64 bytes with every buffer freed at its last use}}
func.func @apart(%x: memref<16xf32>, %y: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %y : memref<16xf32> to memref<16xf32>
  memref.copy %x, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %y : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// The first use of %a is a subview, which makes an alias: the view of the
// arena comes before it. %b, first used while %a is, stays apart; %c, first
// used after %a's and %b's last uses, takes %a's bytes.
// CHECK-LABEL: func.func @alias_first
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<128xi8>
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[ARENA]]
// CHECK-NEXT: memref.subview %[[A]]
// CHECK: memref.view %[[ARENA]][%c64]
// CHECK: memref.view %[[ARENA]][%c0{{.*}}]
// expected-remark @+1 {{memplan: @alias_first: packed 3 allocations (192 bytes) into one arena of 128 bytes (lower bound 128 bytes, greedy-by-size); function peak 128 bytes, 128 bytes with every buffer freed at its last use}}
func.func @alias_first(%x: memref<16xf32>, %y: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  %zero = arith.constant 0.0 : f32
  %half = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  linalg.fill ins(%zero : f32) outs(%half : memref<8xf32, strided<[1]>>)
  memref.copy %x, %b : memref<16xf32> to memref<16xf32>
  memref.copy %a, %y : memref<16xf32> to memref<16xf32>
  memref.copy %b, %y : memref<16xf32> to memref<16xf32>
  memref.copy %x, %c : memref<16xf32> to memref<16xf32>
  memref.copy %c, %y : memref<16xf32> to memref<16xf32>
  return
}
