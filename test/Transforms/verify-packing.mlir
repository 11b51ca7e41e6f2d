// RUN: memplan-opt %s --memplan-verify-packing | FileCheck %s

// Packings the checker accepts, written by hand: it proves them without the
// planner's analysis.

// Buffers that die before the next is born share bytes; so do the two
// branches of an scf.if, and buffers that die within each iteration.
// CHECK-LABEL: func.func @reuse
func.func @reuse(%x: memref<16xf32>, %c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  %a = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %b = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  memref.copy %x, %b : memref<16xf32> to memref<16xf32>
  scf.if %c {
    %t = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
    memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  } else {
    %e = memref.view %arena[%c0][] : memref<128xi8> to memref<32xf32>
    %s = memref.subview %e[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
    memref.copy %x, %s : memref<16xf32> to memref<16xf32, strided<[1]>>
  }
  scf.for %i = %c0 to %n step %c1 {
    %u = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
    memref.copy %x, %u : memref<16xf32> to memref<16xf32>
    %c64 = arith.constant 64 : index
    %v = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
    memref.copy %u, %v : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<128xi8>
  return
}

// A view from outside a parallel loop, used inside it, lives through the
// whole loop; a view of an arena allocated inside the body is that
// iteration's own.
// CHECK-LABEL: func.func @parallel
func.func @parallel(%x: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  %c64 = arith.constant 64 : index
  %keep = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
  %t = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  memref.copy %t, %keep : memref<16xf32> to memref<16xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %local = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
    %l = memref.view %local[%c0][] : memref<64xi8> to memref<16xf32>
    memref.copy %keep, %l : memref<16xf32> to memref<16xf32>
    memref.dealloc %local : memref<64xi8>
    scf.reduce
  }
  return
}

// A byte buffer of the program's own, viewed and also used directly, is a
// buffer, not an arena: nothing is checked about its views.
// CHECK-LABEL: func.func @own_bytes
func.func @own_bytes(%x: memref<16xf32>) -> i8 {
  %c0 = arith.constant 0 : index
  %bytes = memref.alloc() : memref<64xi8>
  %a = memref.view %bytes[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %b = memref.view %bytes[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  %v = memref.load %bytes[%c0] : memref<64xi8>
  return %v : i8
}

// Slots of a parallel loop, written by hand as another tool could: offsets
// that move with every dimension of the loop (lower bounds, steps, exact
// divisions and a mixed radix), slots at least as far apart as the views of
// one iteration span, views of one iteration sharing bytes when not live
// together, and a buffer from outside the loop beside the slots.
// CHECK-LABEL: func.func @slots
func.func @slots(%x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c768 = arith.constant 768 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<832xi8>
  %keep = memref.view %arena[%c768][] : memref<832xi8> to memref<16xf32>
  memref.copy %x, %keep : memref<16xf32> to memref<16xf32>
  // 3 x 2 iterations, slot k = 2 * ((i - 1) / 2) + j at k * 128 bytes.
  scf.forall (%i, %j) = (1, 0) to (6, 2) step (2, 1) {
    %c1 = arith.constant 1 : index
    %i0 = arith.subi %i, %c1 : index
    %ki = arith.divui %i0, %c2 : index
    %row = arith.muli %ki, %c2 : index
    %k = arith.addi %row, %j : index
    %base = arith.muli %k, %c128 : index
    %at64 = arith.addi %base, %c64 : index
    %a = memref.view %arena[%base][] : memref<832xi8> to memref<16xf32>
    memref.copy %keep, %a : memref<16xf32> to memref<16xf32>
    %b = memref.view %arena[%at64][] : memref<832xi8> to memref<16xf32>
    memref.copy %a, %b : memref<16xf32> to memref<16xf32>
    %c = memref.view %arena[%base][] : memref<832xi8> to memref<16xf32>
    memref.copy %b, %c : memref<16xf32> to memref<16xf32>
  }
  scf.parallel (%p) = (%c0) to (%c3) step (%c2) {
    %off = arith.muli %p, %c64 : index
    %d = memref.view %arena[%off][] : memref<832xi8> to memref<16xf32>
    memref.copy %keep, %d : memref<16xf32> to memref<16xf32>
    scf.reduce
  }
  memref.dealloc %arena : memref<832xi8>
  return
}

// A buffer read for the last time inside a region that runs once, and a
// buffer born after that in the same block of the region, share bytes: in
// an scf.if branch (the other branch may read it too: only one runs), an
// scf.index_switch case, an scf.execute_region, and an scf.if nested in a
// branch.
// CHECK-LABEL: func.func @last_use_in_a_region
func.func @last_use_in_a_region(%x: memref<16xf32>, %c: i1, %k: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  %keep = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
  memref.copy %x, %keep : memref<16xf32> to memref<16xf32>
  %a = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  scf.if %c {
    memref.copy %a, %keep : memref<16xf32> to memref<16xf32>
    %b = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
    memref.copy %keep, %b : memref<16xf32> to memref<16xf32>
    memref.copy %b, %x : memref<16xf32> to memref<16xf32>
  } else {
    memref.copy %a, %x : memref<16xf32> to memref<16xf32>
  }
  %d = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  memref.copy %x, %d : memref<16xf32> to memref<16xf32>
  scf.index_switch %k
  case 1 {
    memref.copy %d, %keep : memref<16xf32> to memref<16xf32>
    %e = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
    memref.copy %keep, %e : memref<16xf32> to memref<16xf32>
    memref.copy %e, %x : memref<16xf32> to memref<16xf32>
    scf.yield
  }
  default {
  }
  %f = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  memref.copy %x, %f : memref<16xf32> to memref<16xf32>
  scf.execute_region {
    scf.if %c {
      memref.copy %f, %keep : memref<16xf32> to memref<16xf32>
      %g = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
      memref.copy %keep, %g : memref<16xf32> to memref<16xf32>
      memref.copy %g, %x : memref<16xf32> to memref<16xf32>
    }
    scf.yield
  }
  memref.copy %keep, %x : memref<16xf32> to memref<16xf32>
  memref.dealloc %arena : memref<128xi8>
  return
}

// A program's own typed byte buffer (one view, no memplan.arena mark) whose
// address it lets out and which it frees itself: no packing placed that
// free, so the checker does not ask when the address is last used. (Two
// views of one buffer are a packing: @pointer in verify-packing-invalid.mlir.)
// CHECK-LABEL: func.func @own_typed_buffer
func.func private @keep_raw(index)
func.func @own_typed_buffer(%x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %bytes = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  %typed = memref.view %bytes[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %typed : memref<16xf32> to memref<16xf32>
  %p = memref.extract_aligned_pointer_as_index %typed : memref<16xf32> -> index
  func.call @keep_raw(%p) : (index) -> ()
  memref.dealloc %bytes : memref<64xi8>
  return
}
