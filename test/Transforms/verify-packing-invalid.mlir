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

// -----

// Slots of a parallel loop narrower than the view: iteration 1's bytes
// start inside iteration 0's.
func.func @slot_too_narrow(%x: memref<16xf32>) {
  %c32 = arith.constant 32 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
  scf.forall (%i) in (4) {
    %at = arith.muli %i, %c32 : index
    // expected-error @+1 {{%view has bytes in common in two iterations of 'scf.forall', which may run at the same time}}
    %a = memref.view %arena[%at][] : memref<256xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<256xi8>
  return
}

// -----

// Two views of one iteration, 64 bytes apart, in slots 64 bytes apart:
// iteration 1's %a is iteration 0's %b.
func.func @slots_closer_than_span(%x: memref<16xf32>) {
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<512xi8>
  scf.forall (%i) in (4) {
    %at = arith.muli %i, %c64 : index
    %at64 = arith.addi %at, %c64 : index
    // expected-note @+1 {{%view is defined here}}
    %a = memref.view %arena[%at][] : memref<512xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
    // expected-error @+1 {{memory conflict: %view_0 overlaps %view in two iterations of 'scf.forall', which may run at the same time: their slots are closer than the 128 bytes they span}}
    %b = memref.view %arena[%at64][] : memref<512xi8> to memref<16xf32>
    memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<512xi8>
  return
}

// -----

// Views of one loop whose offsets move differently: in some pair of
// iterations they meet.
func.func @different_strides(%x: memref<16xf32>) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<1024xi8>
  scf.forall (%i) in (4) {
    %at = arith.muli %i, %c128 : index
    %at2 = arith.muli %i, %c64 : index
    %at3 = arith.addi %at2, %c64 : index
    // expected-note @+1 {{%view is defined here}}
    %a = memref.view %arena[%at][] : memref<1024xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
    memref.copy %a, %x : memref<16xf32> to memref<16xf32>
    // expected-error @+1 {{memory conflict: %view_0 overlaps %view in two iterations of 'scf.forall', which may run at the same time: their offsets move differently with the iterations}}
    %b = memref.view %arena[%at3][] : memref<1024xi8> to memref<16xf32>
    memref.copy %x, %b : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<1024xi8>
  return
}

// -----

// An offset that moves with one dimension of a 2-D loop: iterations (0, 0)
// and (0, 1) share the view.
func.func @one_dimension(%x: memref<16xf32>) {
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
  scf.forall (%i, %j) in (2, 2) {
    %at = arith.muli %i, %c64 : index
    // expected-error @+1 {{%view is one buffer for every iteration of 'scf.forall', which may run at the same time}}
    %a = memref.view %arena[%at][] : memref<256xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<256xi8>
  return
}

// -----

// Two dimensions that do not make a mixed radix: (1, 0) and (0, 1) meet.
func.func @not_a_radix(%x: memref<16xf32>) {
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<512xi8>
  scf.forall (%i, %j) in (2, 4) {
    %ai = arith.muli %i, %c64 : index
    %aj = arith.muli %j, %c64 : index
    %at = arith.addi %ai, %aj : index
    // expected-error @+1 {{%view has bytes in common in two iterations of 'scf.forall', which may run at the same time}}
    %a = memref.view %arena[%at][] : memref<512xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<512xi8>
  return
}

// -----

// A division that is not exact for every iteration (i / 2 maps 0 and 1 to
// one slot): not understood, refused.
func.func @inexact_division(%x: memref<16xf32>) {
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
  scf.forall (%i) in (4) {
    %k = arith.divui %i, %c2 : index
    %at = arith.muli %k, %c64 : index
    // expected-error @+1 {{%view has an offset that is not a constant, nor a sum of constants and induction variables of parallel loops of static bounds times constants}}
    %a = memref.view %arena[%at][] : memref<256xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<256xi8>
  return
}

// -----

// An offset from a sequential loop's induction variable: refused.
func.func @sequential_iv(%x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
  scf.for %i = %c0 to %c4 step %c1 {
    %at = arith.muli %i, %c64 : index
    // expected-error @+1 {{%view has an offset that is not a constant, nor a sum of constants and induction variables of parallel loops of static bounds times constants}}
    %a = memref.view %arena[%at][] : memref<256xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<256xi8>
  return
}

// -----

// The slots of the last iterations run past the arena.
func.func @slots_past_the_end(%x: memref<16xf32>) {
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
  scf.forall (%i) in (4) {
    %at = arith.muli %i, %c64 : index
    // expected-error @+1 {{%view covers bytes [0, 256), past the end of its 192-byte arena}}
    %a = memref.view %arena[%at][] : memref<192xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<192xi8>
  return
}

// -----

// A slot stride that breaks the elements' alignment.
func.func @misaligned_stride(%x: memref<16xf32>) {
  %c66 = arith.constant 66 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<512xi8>
  scf.forall (%i) in (4) {
    %at = arith.muli %i, %c66 : index
    // expected-error @+1 {{%view moves by 66 bytes per iteration, which is not a multiple of the 4 bytes its elements are aligned to}}
    %a = memref.view %arena[%at][] : memref<512xi8> to memref<16xf32>
    memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<512xi8>
  return
}

// -----

// Read again after the buffer that shares its bytes is born in the branch.
func.func @used_after_birth_in_a_branch(%x: memref<16xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  scf.if %c {
    // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 64) overlaps %view at bytes [0, 64) and both may be live at once}}
    %b = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
    memref.copy %x, %b : memref<16xf32> to memref<16xf32>
    memref.copy %a, %x : memref<16xf32> to memref<16xf32>
    memref.copy %b, %x : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<64xi8>
  return
}

// -----

// Read again after the branch where the other one was born.
func.func @used_after_the_branch(%x: memref<16xf32>, %y: memref<16xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  scf.if %c {
    memref.copy %a, %y : memref<16xf32> to memref<16xf32>
    // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 64) overlaps %view at bytes [0, 64) and both may be live at once}}
    %b = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
    memref.copy %x, %b : memref<16xf32> to memref<16xf32>
    memref.copy %b, %x : memref<16xf32> to memref<16xf32>
  }
  memref.copy %a, %x : memref<16xf32> to memref<16xf32>
  memref.dealloc %arena : memref<64xi8>
  return
}

// -----

// In a loop body the first buffer is read again in the next iteration.
func.func @last_use_in_a_loop_body(%x: memref<16xf32>, %y: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %a, %y : memref<16xf32> to memref<16xf32>
    // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 64) overlaps %view at bytes [0, 64) and both may be live at once}}
    %b = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
    memref.copy %y, %b : memref<16xf32> to memref<16xf32>
    memref.copy %b, %x : memref<16xf32> to memref<16xf32>
  }
  memref.dealloc %arena : memref<64xi8>
  return
}

// -----

// The before region of an scf.while runs again after the after region.
func.func @last_use_in_a_while(%x: memref<16xf32>, %y: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %r = scf.while (%k = %c0) : (index) -> index {
    memref.copy %a, %y : memref<16xf32> to memref<16xf32>
    %go = arith.cmpi slt, %k, %n : index
    scf.condition(%go) %k : index
  } do {
  ^bb0(%k2: index):
    // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 64) overlaps %view at bytes [0, 64) and both may be live at once}}
    %b = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
    memref.copy %y, %b : memref<16xf32> to memref<16xf32>
    memref.copy %b, %x : memref<16xf32> to memref<16xf32>
    %next = arith.addi %k2, %c1 : index
    scf.yield %next : index
  }
  memref.dealloc %arena : memref<64xi8>
  return
}

// -----

// A region of several blocks: the checker orders ops within one block only.
func.func @last_use_in_a_region_of_blocks(%x: memref<16xf32>, %y: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  scf.execute_region {
    memref.copy %a, %y : memref<16xf32> to memref<16xf32>
    cf.br ^next
  ^next:
    // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 64) overlaps %view at bytes [0, 64) and both may be live at once}}
    %b = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
    memref.copy %y, %b : memref<16xf32> to memref<16xf32>
    memref.copy %b, %x : memref<16xf32> to memref<16xf32>
    scf.yield
  }
  memref.dealloc %arena : memref<64xi8>
  return
}

// -----

// The program assumes 128-byte alignment of %b, which sits 64 bytes into
// the arena.
func.func @assumed_alignment(%x: memref<16xf32>) {
  %arena = memref.alloc() {alignment = 128 : i64} : memref<128xi8>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  %b = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
  // expected-error @+1 {{it assumes an alignment of 128 bytes, but %view_0 is at offset 64 of an arena aligned to 128 bytes}}
  %aligned = memref.assume_alignment %b, 128 : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  memref.copy %x, %aligned : memref<16xf32> to memref<16xf32>
  memref.dealloc %arena : memref<128xi8>
  return
}

// -----

// At offset 0 of an arena aligned to only 64 bytes.
func.func @assumed_alignment_of_the_arena(%x: memref<16xf32>) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  %c0 = arith.constant 0 : index
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  // expected-error @+1 {{it assumes an alignment of 256 bytes, but %view is at offset 0 of an arena aligned to 64 bytes}}
  %aligned = memref.assume_alignment %a, 256 : memref<16xf32>
  memref.copy %x, %aligned : memref<16xf32> to memref<16xf32>
  memref.dealloc %arena : memref<64xi8>
  return
}

// -----

// %b's bytes are read as f64 through a view of it, 4 bytes into the arena.
func.func @bytes_as_f64(%x: memref<8xf64>) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<68xi8>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %b = memref.view %arena[%c4][] : memref<68xi8> to memref<64xi8>
  // expected-error @+1 {{its elements are aligned to 8 bytes, but %view is at offset 4 of an arena aligned to 64 bytes}}
  %d = memref.view %b[%c0][] : memref<64xi8> to memref<8xf64>
  memref.copy %x, %d : memref<8xf64> to memref<8xf64>
  memref.dealloc %arena : memref<68xi8>
  return
}

// -----

// An assumption about a subview, and an access that states its alignment.
func.func @assumed_through_a_subview(%x: memref<8xf32>) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<96xi8>
  %c32 = arith.constant 32 : index
  %a = memref.view %arena[%c32][] : memref<96xi8> to memref<16xf32>
  %s = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  // expected-error @+1 {{it assumes an alignment of 64 bytes, but %view is at offset 32 of an arena aligned to 64 bytes}}
  %aligned = memref.assume_alignment %s, 64 : memref<8xf32, strided<[1]>>
  memref.copy %x, %aligned : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.dealloc %arena : memref<96xi8>
  return
}

// -----

func.func @stated_alignment(%v: vector<8xf32>) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<96xi8>
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.view %arena[%c16][] : memref<96xi8> to memref<16xf32>
  // expected-error @+1 {{it accesses memory it states is aligned to 32 bytes, but %view is at offset 16 of an arena aligned to 64 bytes}}
  vector.store %v, %a[%c0] {alignment = 32} : memref<16xf32>, vector<8xf32>
  memref.dealloc %arena : memref<96xi8>
  return
}

// -----

// GPU workgroup memory: every thread of the workgroup uses the arena at its
// own pace. The packing memplan once wrote: %b at %a's offset with no
// barrier after %a's last load, so thread 0 may store into %b over a[0]
// before thread 63 has loaded it.
func.func @workgroup_without_barrier(%out: memref<64xf32>) {
  %c63 = arith.constant 63 : index
  %tid = gpu.thread_id x
  %mirror = arith.subi %c63, %tid : index
  %one = arith.constant 1.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v = memref.load %a[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 256) overlaps %view at bytes [0, 256) and no gpu.barrier lies between the last use of the one and the other: another thread of the workgroup may still use the first}}
  %b = memref.view %arena[%c0][] : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %v, %b[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %w = memref.load %b[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%tid] : memref<64xf32>
  return
}

// -----

// The same in address space 3 (NVVM's and ROCDL's number for it), with a
// barrier that only the threads taking the branch reach.
func.func @workgroup_barrier_in_branch(%out: memref<64xf32>, %flag: i1) {
  %c63 = arith.constant 63 : index
  %tid = gpu.thread_id x
  %mirror = arith.subi %c63, %tid : index
  %one = arith.constant 1.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8, 3>
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{%view is defined here}}
  %a = memref.view %arena[%c0][] : memref<256xi8, 3> to memref<64xf32, 3>
  memref.store %one, %a[%tid] : memref<64xf32, 3>
  gpu.barrier
  %v = memref.load %a[%mirror] : memref<64xf32, 3>
  scf.if %flag {
    gpu.barrier
  }
  // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 256) overlaps %view at bytes [0, 256) and no gpu.barrier lies between the last use of the one and the other: another thread of the workgroup may still use the first}}
  %b = memref.view %arena[%c0][] : memref<256xi8, 3> to memref<64xf32, 3>
  memref.store %v, %b[%tid] : memref<64xf32, 3>
  return
}

// -----

// Two views of one iteration of a loop, apart in the body by a barrier:
// another thread may be an iteration behind, still using %b when this one
// stores into %a again.
func.func @workgroup_in_loop(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tid = gpu.thread_id x
  %one = arith.constant 1.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-note @+1 {{%view is defined here}}
    %a = memref.view %arena[%c0][] : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    // expected-error @+1 {{memory conflict: %view_0 at bytes [0, 256) overlaps %view at bytes [0, 256) and both are in workgroup memory, which the threads of a workgroup share, and meet in a nested region, where no barrier is known to hold every thread}}
    %b = memref.view %arena[%c0][] : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %b[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tid] : memref<64xf32>
  }
  return
}
