// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s
// RUN: memplan-opt %s --memplan-pack-allocs=arena-mode=arg --memplan-verify-packing -split-input-file 2>/dev/null | FileCheck %s --check-prefix=ARG

// Buffers of loops whose iterations may run at the same time (scf.forall,
// scf.parallel): every iteration gets a slot of its own in the function's
// arena, at offset + k * stride where k numbers the iterations 0, 1, ...
// (row-major over the loop's dimensions); buffers of one iteration reuse
// each other's bytes within the slot. The checker proves the slots
// disjoint from the offsets' arithmetic.

// %a and %c are never live together: one slot of 2 * 64 bytes per tile,
// 16 tiles (4 x 4), and %big beside them.
// CHECK-LABEL: func.func @forall_tiles
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2560xi8>
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (8, 16) step (2, 4) {
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[KI:.*]] = arith.divui %[[I]], %[[C2]] : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[KJ:.*]] = arith.divui %[[J]], %[[C4]] : index
// CHECK: %[[ROW:.*]] = arith.muli %[[KI]], %{{.*}} : index
// CHECK: %[[K:.*]] = arith.addi %[[ROW]], %[[KJ]] : index
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[SKIP:.*]] = arith.muli %[[K]], %[[C128]] : index
// CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %[[SKIP]] : index
// CHECK: memref.view %[[ARENA]][%[[AT]]][] : memref<2560xi8> to memref<2x4xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: }
// CHECK: memref.dealloc %[[ARENA]] : memref<2560xi8>
// With arena-mode=arg the caller's arena holds the slots.
// ARG-LABEL: func.func @forall_tiles
// ARG-SAME: %[[ARENA:[^:]*]]: memref<2560xi8> {memplan.arena, memplan.arena_alignment = 64 : i64}
// ARG: scf.forall
// ARG: arith.muli %{{.*}}, %{{.*}} : index
// ARG: memref.view %[[ARENA]][%{{.*}}][] : memref<2560xi8> to memref<2x4xf32>
// ARG-LABEL: func.func @forall_tiles_arena_size() -> index
// ARG: arith.constant 2560 : index
// expected-remark @+1 {{memplan: @forall_tiles: packed 4 allocations (2048 bytes) into one arena of 2560 bytes (lower bound 1536 bytes, greedy-by-size); function peak 2560 bytes, 2560 bytes with every buffer freed at its last use}}
func.func @forall_tiles(%x: memref<8x16xf32>, %y: memref<8x16xf32>) {
  %big = memref.alloc() : memref<8x16xf32>
  memref.copy %x, %big : memref<8x16xf32> to memref<8x16xf32>
  // expected-remark @+1 {{memplan: each of the 16 iterations of 'scf.forall' has a slot of 128 bytes for its 3 allocations (96 bytes, lower bound 64 bytes)}}
  scf.forall (%i, %j) = (0, 0) to (8, 16) step (2, 4) {
    %a = memref.alloc() : memref<2x4xf32>
    %sx = memref.subview %big[%i, %j] [2, 4] [1, 1] : memref<8x16xf32> to memref<2x4xf32, strided<[16, 1], offset: ?>>
    memref.copy %sx, %a : memref<2x4xf32, strided<[16, 1], offset: ?>> to memref<2x4xf32>
    %b = memref.alloc() : memref<2x4xf32>
    linalg.add ins(%a, %a : memref<2x4xf32>, memref<2x4xf32>) outs(%b : memref<2x4xf32>)
    memref.dealloc %a : memref<2x4xf32>
    %c = memref.alloc() : memref<2x4xf32>
    linalg.add ins(%b, %b : memref<2x4xf32>, memref<2x4xf32>) outs(%c : memref<2x4xf32>)
    memref.dealloc %b : memref<2x4xf32>
    %sy = memref.subview %y[%i, %j] [2, 4] [1, 1] : memref<8x16xf32> to memref<2x4xf32, strided<[16, 1], offset: ?>>
    memref.copy %c, %sy : memref<2x4xf32> to memref<2x4xf32, strided<[16, 1], offset: ?>>
    memref.dealloc %c : memref<2x4xf32>
  }
  memref.dealloc %big : memref<8x16xf32>
  return
}

// -----

// scf.parallel with constant bounds, a lower bound of 2, and a buffer of an
// scf.for inside the body (it belongs to the parallel loop's slot). The
// loop's slots alone make one arena: one allocation instead of one per
// iteration. Where the iteration's slot starts is computed once, at the
// start of the body.
// CHECK-LABEL: func.func @parallel_loop
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<384xi8>
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: %[[LB:.*]] = arith.constant 2 : index
// CHECK: %[[K:.*]] = arith.subi %[[I]], %[[LB]] : index
// CHECK: %[[START:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %[[START]] : index
// CHECK: scf.for
// CHECK-NOT: arith.muli
// CHECK: arith.addi %{{.*}}, %[[START]] : index
// CHECK: memref.view %[[ARENA]]
// expected-remark @+1 {{memplan: @parallel_loop: packed 2 allocations (384 bytes) into one arena of 384 bytes (lower bound 384 bytes, greedy-by-size); function peak 384 bytes, 384 bytes with every buffer freed at its last use}}
func.func @parallel_loop(%x: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  // expected-remark @+1 {{memplan: each of the 3 iterations of 'scf.parallel' has a slot of 128 bytes for its 2 allocations (128 bytes, lower bound 128 bytes)}}
  scf.parallel (%i) = (%c2) to (%c5) step (%c1) {
    %p = memref.alloc() : memref<16xf32>
    memref.copy %x, %p : memref<16xf32> to memref<16xf32>
    scf.for %k = %c0 to %n step %c1 {
      %q = memref.alloc() : memref<16xf32>
      memref.copy %p, %q : memref<16xf32> to memref<16xf32>
      memref.dealloc %q : memref<16xf32>
    }
    memref.dealloc %p : memref<16xf32>
    scf.reduce
  }
  return
}

// -----

// Left alone: a loop of unknown iteration count, a loop that runs no
// iteration, a buffer inside two parallel loops (the outer loop's own
// buffer is packed), and a buffer that outlives its iteration.
// CHECK-LABEL: func.func @left_alone
func.func @left_alone(%x: memref<16xf32>, %n: index) {
  scf.forall (%i) in (%n) {
    // expected-remark @+1 {{memplan: not packed: it is allocated in the body of 'scf.forall', whose iterations may run at the same time and whose number of iterations is not a compile-time constant}}
    %p = memref.alloc() : memref<16xf32>
    memref.copy %x, %p : memref<16xf32> to memref<16xf32>
    memref.dealloc %p : memref<16xf32>
  }
  scf.forall (%i) in (0) {
    // expected-remark @+1 {{memplan: not packed: it is allocated in the body of 'scf.forall', which runs no iteration}}
    %p = memref.alloc() : memref<16xf32>
    memref.copy %x, %p : memref<16xf32> to memref<16xf32>
    memref.dealloc %p : memref<16xf32>
  }
  // expected-remark @+1 {{memplan: each of the 4 iterations of 'scf.forall' has a slot of 64 bytes for its 1 allocation (64 bytes, lower bound 64 bytes)}}
  scf.forall (%i) in (4) {
    %outer = memref.alloc() : memref<16xf32>
    memref.copy %x, %outer : memref<16xf32> to memref<16xf32>
    scf.forall (%j) in (2) {
      // expected-remark @+1 {{memplan: not packed: it is allocated in the bodies of two loops whose iterations may run at the same time ('scf.forall' inside 'scf.forall')}}
      %inner = memref.alloc() : memref<16xf32>
      memref.copy %outer, %inner : memref<16xf32> to memref<16xf32>
      memref.dealloc %inner : memref<16xf32>
    }
    memref.dealloc %outer : memref<16xf32>
  }
  return
}
// The inner buffer counts 4 x 2 times in the peaks: 256 + 512 bytes.
// expected-remark @-28 {{memplan: @left_alone: packed 1 allocation (256 bytes) into one arena of 256 bytes (lower bound 256 bytes, greedy-by-size); function peak 768 bytes, 768 bytes with every buffer freed at its last use}}
