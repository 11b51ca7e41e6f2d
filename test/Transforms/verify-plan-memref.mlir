// RUN: memplan-opt %s --memplan-verify-plan -verify-diagnostics

// The plan that --plan-offsets once wrote for a select of two memrefs: %d at
// %a's offset while %s (which may be %a) is still read. The verifier
// recomputed lifetimes with the same tensor analysis and accepted it; it now
// refuses memrefs, whose lifetimes that analysis does not know.
// expected-error @+1 {{this function holds memrefs ('memref<16xf32>')}}
func.func @select(%c: i1, %x: memref<16xf32>) attributes {memplan.alignment = 256 : i64, memplan.arena_size = 576 : i64, memplan.lower_bound = 192 : i64} {
  %a = memref.alloc() {memplan.offsets = array<i64: 0>} : memref<16xf32>
  %b = memref.alloc() {memplan.offsets = array<i64: 256>} : memref<16xf32>
  %s = arith.select %c, %a, %b {memplan.offsets = array<i64: 512>} : memref<16xf32>
  %d = memref.alloc() {memplan.offsets = array<i64: 0>} : memref<16xf32>
  memref.copy %x, %d : memref<16xf32> to memref<16xf32>
  memref.copy %s, %d : memref<16xf32> to memref<16xf32>
  return
}
