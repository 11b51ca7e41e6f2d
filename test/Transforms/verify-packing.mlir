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
