// RUN: memplan-opt %s --memplan-verify-packing -split-input-file -verify-diagnostics

// Packings that are wrong, as a buggy planner could write them. The checker
// shares no analysis with --memplan-pack-allocs.

// Two views at one offset, both live at the last copy.
func.func @overlap(%x: memref<16xf32>) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 64) overlaps %view at bytes [0, 64) and both may be live at once}}
  %b = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %b : memref<16xf32> to memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.dealloc %arena : memref<64xi8>
  return
}

// -----

// The old i1 bug: 1024 i1 take 1024 bytes, not 128.
func.func @bits(%x: memref<16xf32>) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{%view covers bytes [0, 1024), past the end of its 192-byte arena}}
  %mask = memref.view %arena[%c0][] : memref<192xi8> to memref<1024xi1>
  return
}

// -----

// A vector<4xf32> needs 16-byte alignment.
func.func @unaligned() {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{%view at offset 8 of an arena aligned to 64 bytes is not aligned to the 16 bytes of its elements}}
  %v = memref.view %arena[%c8][] : memref<128xi8> to memref<2xvector<4xf32>>
  return
}

// -----

func.func @dynamic_offset(%offset: index) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  // expected-error @+1 {{%view has an offset that is not a constant}}
  %v = memref.view %arena[%offset][] : memref<128xi8> to memref<16xf32>
  return
}

// -----

// The address of %a escapes: it may be read after %b is written.
func.func private @read_raw(index)
func.func @pointer(%x: memref<16xf32>) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  %p = memref.extract_aligned_pointer_as_index %a : memref<16xf32> -> index
  // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 64) overlaps %view at bytes [0, 64) and the first may be live at any time: it is used by 'memref.extract_aligned_pointer_as_index', which may keep or expose it}}
  %b = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %b : memref<16xf32> to memref<16xf32>
  func.call @read_raw(%p) : (index) -> ()
  return
}

// -----

// The arena is freed before the last use of a view.
func.func @early_free(%x: memref<16xf32>) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  %c0 = arith.constant 0 : index
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  // expected-error @+1 {{the arena %alloc is freed while %view may still be used}}
  memref.dealloc %arena : memref<64xi8>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  return
}

// -----

// One offset for a buffer of a parallel loop's body: the iterations share it.
func.func @parallel(%x: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  %c64 = arith.constant 64 : index
  %keep = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
  memref.copy %x, %keep : memref<16xf32> to memref<16xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-error @+1 {{%view_0 is one buffer for every iteration of 'scf.parallel', which may run at the same time}}
    %t = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
    memref.copy %keep, %t : memref<16xf32> to memref<16xf32>
    scf.reduce
  }
  return
}

// -----

// A buffer carried to the next iteration shares bytes with one born in it.
func.func @carried(%x: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  %first = memref.alloc() : memref<16xf32>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %first) -> memref<16xf32> {
    // expected-note @+1 {{%view is defined here}}
    %next = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
    memref.copy %cur, %next : memref<16xf32> to memref<16xf32>
    // expected-error @+1 {{memory conflict: %view_1 at bytes [0, 64) overlaps %view at bytes [0, 64) and both may be live at once}}
    %scratch = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
    memref.copy %x, %scratch : memref<16xf32> to memref<16xf32>
    scf.yield %next : memref<16xf32>
  }
  return
}

// -----

// An arena of --memplan-pack-allocs (marked) is only viewed and freed.
func.func @raw_use() -> i8 {
  %arena = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<64xi8>
  %c0 = arith.constant 0 : index
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  // expected-error @+1 {{the arena %alloc is used by 'memref.load': a packed arena is only viewed and freed}}
  %v = memref.load %arena[%c0] : memref<64xi8>
  return %v : i8
}
