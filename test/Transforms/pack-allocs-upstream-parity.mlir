// RUN: memplan-opt %s --memplan-pack-allocs="alignment=1" --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s
// RUN: memplan-opt %s --memplan-pack-allocs="alignment=1 algorithm=best-fit" --memplan-verify-packing -split-input-file 2>&1 | FileCheck %s --check-prefix=BESTFIT

// Parity with upstream MLIR's static memory planner (LLVM main, 2026:
// mlir/test/Dialect/Bufferization/Transforms/static-memory-planner*.mlir).
// Its test inputs are allocation patterns; each is written here again in
// two forms, and planned with upstream's default alignment (1):
//  * as upstream writes it: allocations with no use before their dealloc.
//    memplan ends a lifetime at the last use, not at the dealloc, so these
//    buffers are dead at once: no arena, and the function's peak is the
//    largest buffer;
//  * `_read`: a read of each buffer just after its alloc and just before
//    its dealloc, so that the lifetimes are upstream's (alloc to dealloc)
//    and memplan plans arenas (memplan's begin at the first use).
// The comment above each case gives upstream's expected arena; memplan's
// function peak and arenas are at or under it in every case. Upstream's
// error cases get a remark, not a failure.

// Upstream "simple_sequential": 6144 bytes.
// expected-remark @+1 {{memplan: @sequential: no arena for its 2 packable allocations; function peak 4096 bytes, 4096 bytes with every buffer freed at its last use}}
func.func @sequential() {
  %a = memref.alloc() : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %b = memref.alloc() : memref<512xf32>
  memref.dealloc %b : memref<512xf32>
  return
}
// expected-remark @+1 {{memplan: @sequential_read: no arena for its 2 packable allocations; function peak 4096 bytes, 4096 bytes with every buffer freed at its last use}}
func.func @sequential_read(%i: index) {
  %a = memref.alloc() : memref<1024xf32>
  %a_first = memref.load %a[%i] : memref<1024xf32>
  %va = memref.load %a[%i] : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %b = memref.alloc() : memref<512xf32>
  %b_first = memref.load %b[%i] : memref<512xf32>
  %vb = memref.load %b[%i] : memref<512xf32>
  memref.dealloc %b : memref<512xf32>
  return
}

// -----

// Upstream "non_sequential_pairs": 6144 bytes (the two live together).
// expected-remark @+1 {{memplan: @overlapping: no arena for its 2 packable allocations; function peak 4096 bytes}}
func.func @overlapping() {
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<512xf32>
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<512xf32>
  return
}
// CHECK-LABEL: func.func @overlapping_read
// CHECK: memref.alloc() {alignment = 4 : i64, memplan.arena} : memref<6144xi8>
// expected-remark @+1 {{memplan: @overlapping_read: packed 2 allocations (6144 bytes) into one arena of 6144 bytes (lower bound 6144 bytes, greedy-by-size); function peak 6144 bytes, 6144 bytes with every buffer freed at its last use}}
func.func @overlapping_read(%i: index) {
  %a = memref.alloc() : memref<1024xf32>
  %a_first = memref.load %a[%i] : memref<1024xf32>
  %b = memref.alloc() : memref<512xf32>
  %b_first = memref.load %b[%i] : memref<512xf32>
  %va = memref.load %a[%i] : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %vb = memref.load %b[%i] : memref<512xf32>
  memref.dealloc %b : memref<512xf32>
  return
}

// -----

// Upstream "interleaved_pairs": 3584 bytes. With upstream's lifetimes the
// third buffer is born after the first dies and takes its bytes: 3072.
// expected-remark @+1 {{memplan: @interleaved: no arena for its 3 packable allocations; function peak 2048 bytes}}
func.func @interleaved() {
  %a = memref.alloc() : memref<512xf32>
  %b = memref.alloc() : memref<256xf32>
  memref.dealloc %a : memref<512xf32>
  %c = memref.alloc() : memref<128xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<128xf32>
  return
}
// CHECK-LABEL: func.func @interleaved_read
// CHECK: memref.alloc() {alignment = 4 : i64, memplan.arena} : memref<3072xi8>
// expected-remark @+1 {{memplan: @interleaved_read: packed 3 allocations (3584 bytes) into one arena of 3072 bytes (lower bound 3072 bytes, greedy-by-size); function peak 3072 bytes, 3072 bytes with every buffer freed at its last use}}
func.func @interleaved_read(%i: index) {
  %a = memref.alloc() : memref<512xf32>
  %a_first = memref.load %a[%i] : memref<512xf32>
  %b = memref.alloc() : memref<256xf32>
  %b_first = memref.load %b[%i] : memref<256xf32>
  %va = memref.load %a[%i] : memref<512xf32>
  memref.dealloc %a : memref<512xf32>
  %c = memref.alloc() : memref<128xf32>
  %c_first = memref.load %c[%i] : memref<128xf32>
  %vb = memref.load %b[%i] : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  %vc = memref.load %c[%i] : memref<128xf32>
  memref.dealloc %c : memref<128xf32>
  return
}

// -----

// Upstream "multiple_sequential": 14336 bytes.
// expected-remark @+1 {{memplan: @three_sequential_read: no arena for its 3 packable allocations; function peak 8192 bytes, 8192 bytes with every buffer freed at its last use}}
func.func @three_sequential_read(%i: index) {
  %a = memref.alloc() : memref<1024xf32>
  %a_first = memref.load %a[%i] : memref<1024xf32>
  %va = memref.load %a[%i] : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %b = memref.alloc() : memref<512xf32>
  %b_first = memref.load %b[%i] : memref<512xf32>
  %vb = memref.load %b[%i] : memref<512xf32>
  memref.dealloc %b : memref<512xf32>
  %c = memref.alloc() : memref<2048xf32>
  %c_first = memref.load %c[%i] : memref<2048xf32>
  %vc = memref.load %c[%i] : memref<2048xf32>
  memref.dealloc %c : memref<2048xf32>
  return
}

// -----

// Upstream "alignment_padding": 1792 bytes; "lcm_alignment": 28 bytes.
// expected-remark @+1 {{memplan: @aligned_read: no arena for its 3 packable allocations; function peak 1024 bytes, 1024 bytes with every buffer freed at its last use}}
func.func @aligned_read(%i: index) {
  %a = memref.alloc() {alignment = 128 : i64} : memref<256xf32>
  %a_first = memref.load %a[%i] : memref<256xf32>
  %va = memref.load %a[%i] : memref<256xf32>
  memref.dealloc %a : memref<256xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<128xf32>
  %b_first = memref.load %b[%i] : memref<128xf32>
  %vb = memref.load %b[%i] : memref<128xf32>
  memref.dealloc %b : memref<128xf32>
  %c = memref.alloc() {alignment = 128 : i64} : memref<64xf32>
  %c_first = memref.load %c[%i] : memref<64xf32>
  %vc = memref.load %c[%i] : memref<64xf32>
  memref.dealloc %c : memref<64xf32>
  return
}
// Both live together: the second at offset 16 (its alignment), 28 bytes.
// CHECK-LABEL: func.func @lcm_read
// CHECK: memref.alloc() {alignment = 16 : i64, memplan.arena} : memref<28xi8>
// expected-remark @+1 {{memplan: @lcm_read: packed 2 allocations (24 bytes) into one arena of 28 bytes (lower bound 24 bytes, greedy-by-size)}}
func.func @lcm_read(%i: index) {
  %a = memref.alloc() {alignment = 4 : i64} : memref<3xi32>
  %a_first = memref.load %a[%i] : memref<3xi32>
  %b = memref.alloc() {alignment = 16 : i64} : memref<3xi32>
  %b_first = memref.load %b[%i] : memref<3xi32>
  %va = memref.load %a[%i] : memref<3xi32>
  %vb = memref.load %b[%i] : memref<3xi32>
  memref.dealloc %a : memref<3xi32>
  memref.dealloc %b : memref<3xi32>
  return
}

// -----

// Upstream best-fit "reuse_non_overlapping": 4096 bytes.
// expected-remark @+1 {{memplan: @reuse_read: no arena for its 2 packable allocations; function peak 4096 bytes}}
func.func @reuse_read(%i: index) {
  %a = memref.alloc() : memref<1024xf32>
  %a_first = memref.load %a[%i] : memref<1024xf32>
  %va = memref.load %a[%i] : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %b_first = memref.load %b[%i] : memref<1024xf32>
  %vb = memref.load %b[%i] : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  return
}

// -----

// Upstream best-fit "best_fit_smallest_gap": 10240 bytes.
// CHECK-LABEL: func.func @smallest_gap_read
// CHECK: memref.alloc() {alignment = 4 : i64, memplan.arena} : memref<10240xi8>
// BESTFIT: remark: memplan: @smallest_gap_read: packed 5 allocations (10752 bytes) into one arena of 10240 bytes (lower bound 10240 bytes, best-fit)
// expected-remark @+1 {{memplan: @smallest_gap_read: packed 5 allocations (10752 bytes) into one arena of 10240 bytes (lower bound 10240 bytes, greedy-by-size)}}
func.func @smallest_gap_read(%i: index) {
  %a = memref.alloc() : memref<1024xf32>
  %a_first = memref.load %a[%i] : memref<1024xf32>
  %b = memref.alloc() : memref<256xf32>
  %b_first = memref.load %b[%i] : memref<256xf32>
  %c = memref.alloc() : memref<1024xf32>
  %c_first = memref.load %c[%i] : memref<1024xf32>
  %d = memref.alloc() : memref<256xf32>
  %d_first = memref.load %d[%i] : memref<256xf32>
  %vb = memref.load %b[%i] : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  %vd = memref.load %d[%i] : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  %va = memref.load %a[%i] : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %e = memref.alloc() : memref<128xf32>
  %e_first = memref.load %e[%i] : memref<128xf32>
  %vc = memref.load %c[%i] : memref<1024xf32>
  memref.dealloc %c : memref<1024xf32>
  %ve = memref.load %e[%i] : memref<128xf32>
  memref.dealloc %e : memref<128xf32>
  return
}

// -----

// Upstream best-fit "best_fit_alignment": 576 bytes. Greedy-by-size and
// best-fit get 576 (best-fit got 448 with each buffer's first read at its
// dealloc, where the lifetimes' lengths tied otherwise: it breaks ties of
// size by length).
// CHECK-LABEL: func.func @gap_alignment_read
// CHECK: memref.alloc() {alignment = 256 : i64, memplan.arena} : memref<576xi8>
// BESTFIT: remark: memplan: @gap_alignment_read: packed 5 allocations (440 bytes) into one arena of 576 bytes (lower bound 384 bytes, best-fit); function peak 576 bytes, 640 bytes with every buffer freed at its last use
// expected-remark @+1 {{memplan: @gap_alignment_read: packed 5 allocations (440 bytes) into one arena of 576 bytes (lower bound 384 bytes, greedy-by-size); function peak 576 bytes, 640 bytes with every buffer freed at its last use}}
func.func @gap_alignment_read(%i: index) {
  %a = memref.alloc() {alignment = 128 : i64} : memref<128xi8>
  %a_first = memref.load %a[%i] : memref<128xi8>
  %b = memref.alloc() : memref<56xi8>
  %b_first = memref.load %b[%i] : memref<56xi8>
  %c = memref.alloc() {alignment = 128 : i64} : memref<128xi8>
  %c_first = memref.load %c[%i] : memref<128xi8>
  %vb = memref.load %b[%i] : memref<56xi8>
  memref.dealloc %b : memref<56xi8>
  %d = memref.alloc() {alignment = 128 : i64} : memref<64xi8>
  %d_first = memref.load %d[%i] : memref<64xi8>
  %e = memref.alloc() {alignment = 256 : i64} : memref<64xi8>
  %e_first = memref.load %e[%i] : memref<64xi8>
  %va = memref.load %a[%i] : memref<128xi8>
  memref.dealloc %a : memref<128xi8>
  %vc = memref.load %c[%i] : memref<128xi8>
  memref.dealloc %c : memref<128xi8>
  %vd = memref.load %d[%i] : memref<64xi8>
  memref.dealloc %d : memref<64xi8>
  %ve = memref.load %e[%i] : memref<64xi8>
  memref.dealloc %e : memref<64xi8>
  return
}

// -----

// Upstream's analysis cases: a view keeps its buffer alive, and a use in a
// branch is no reason to give up (upstream skips it as a cross-block use).
// CHECK-LABEL: func.func @view_and_branch
// CHECK: memref.alloc() {alignment = 4 : i64, memplan.arena} : memref<8192xi8>
// expected-remark @+1 {{memplan: @view_and_branch: packed 2 allocations (8192 bytes) into one arena of 8192 bytes}}
func.func @view_and_branch(%cond: i1, %i: index) {
  %a = memref.alloc() : memref<1024xf32>
  %view = memref.expand_shape %a [[0, 1]] output_shape [2, 512] : memref<1024xf32> into memref<2x512xf32>
  %b = memref.alloc() : memref<1024xf32>
  scf.if %cond {
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %b[%i] : memref<1024xf32>
  }
  %v = memref.load %view[%i, %i] : memref<2x512xf32>
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  return
}

// -----

// Upstream's skipped and error cases, answered with remarks: a dynamic
// shape; a buffer never freed (alone, so no arena; upstream: "no dealloc
// found; run the deallocation pipeline before this pass"); a dealloc in a
// branch; unstructured control flow (upstream: "unstructured control flow
// is not supported"); a buffer without dealloc beside a freed one.
func.func @dynamic(%n: index) {
  // expected-remark @+1 {{memplan: not packed: it has a dynamic size}}
  %a = memref.alloc(%n) : memref<?xf32>
  return
}
// expected-remark @+1 {{memplan: @no_dealloc: no arena for its 1 packable allocation; function peak 4096 bytes}}
func.func @no_dealloc() {
  %a = memref.alloc() : memref<1024xf32>
  return
}
// expected-remark @+1 {{memplan: @dealloc_in_branch: no arena for its 1 packable allocation}}
func.func @dealloc_in_branch(%cond: i1) {
  %a = memref.alloc() : memref<1024xf32>
  scf.if %cond {
    memref.dealloc %a : memref<1024xf32>
  }
  return
}
func.func @branches(%cond: i1) {
  // expected-remark @+1 {{memplan: not packed: the function has unstructured control flow ('func.func' holds a region of several blocks)}}
  %a = memref.alloc() : memref<1024xf32>
  cf.cond_br %cond, ^free, ^done
^free:
  memref.dealloc %a : memref<1024xf32>
  return
^done:
  return
}
// expected-remark @+1 {{memplan: @one_unfreed: no arena for its 1 packable allocation}}
func.func @one_unfreed() {
  // expected-remark @+1 {{memplan: not packed: it has no dealloc, unlike the buffers packed in this function}}
  %bad = memref.alloc() : memref<1024xf32>
  %ok = memref.alloc() : memref<512xf32>
  memref.dealloc %ok : memref<512xf32>
  return
}
