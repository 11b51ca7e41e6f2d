// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// Allocations in loop bodies and branches go into the function's arena when
// they die within their iteration: one offset serves every iteration. (A
// tiled kernel once had nothing packed: every buffer was in an scf.for.)

// %acc lives through the whole loop (the loop uses it); %t and %u are born
// and die in each iteration, %t before %u is born... no: %t is read to make
// %u, so the two are live together. Three 1 KiB slots.
// CHECK-LABEL: func.func @for_body
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<3072xi8>
// CHECK: memref.view %[[ARENA]]
// CHECK: scf.for
// CHECK: memref.view %[[ARENA]]
// CHECK: memref.view %[[ARENA]]
// CHECK-NOT: memref.dealloc
// CHECK: }
// CHECK: memref.dealloc %[[ARENA]] : memref<3072xi8>
// expected-remark @+1 {{memplan: @for_body: packed 3 allocations (3072 bytes) into one arena of 3072 bytes (lower bound 3072 bytes, greedy-by-size); function peak 3072 bytes, 3072 bytes with every buffer freed at its last use}}
func.func @for_body(%x: memref<256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = memref.alloc() : memref<256xf32>
  memref.copy %x, %acc : memref<256xf32> to memref<256xf32>
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<256xf32>
    memref.copy %acc, %t : memref<256xf32> to memref<256xf32>
    %u = memref.alloc() : memref<256xf32>
    memref.copy %t, %u : memref<256xf32> to memref<256xf32>
    memref.copy %u, %acc : memref<256xf32> to memref<256xf32>
    memref.dealloc %t : memref<256xf32>
    memref.dealloc %u : memref<256xf32>
  }
  memref.copy %acc, %x : memref<256xf32> to memref<256xf32>
  memref.dealloc %acc : memref<256xf32>
  return
}

// -----

// The two branches of an scf.if never run together: their buffers share
// bytes. The buffers of the before and after regions of an scf.while that
// die within their region share bytes too.
// CHECK-LABEL: func.func @branches
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<1024xi8>
// CHECK-COUNT-2: memref.view %{{.*}}[%c0{{.*}}][] : memref<1024xi8> to memref<256xf32>
// expected-remark @+1 {{memplan: @branches: packed 2 allocations (2048 bytes) into one arena of 1024 bytes}}
func.func @branches(%c: i1, %x: memref<256xf32>) {
  scf.if %c {
    %a = memref.alloc() : memref<256xf32>
    memref.copy %x, %a : memref<256xf32> to memref<256xf32>
    memref.copy %a, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %a : memref<256xf32>
  } else {
    %b = memref.alloc() : memref<256xf32>
    memref.copy %x, %b : memref<256xf32> to memref<256xf32>
    memref.copy %b, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %b : memref<256xf32>
  }
  return
}

// CHECK-LABEL: func.func @while_regions
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<1024xi8>
// expected-remark @+1 {{memplan: @while_regions: packed 2 allocations (2048 bytes) into one arena of 1024 bytes}}
func.func @while_regions(%x: memref<256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %a = memref.alloc() : memref<256xf32>
    memref.copy %x, %a : memref<256xf32> to memref<256xf32>
    memref.copy %a, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %a : memref<256xf32>
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    %b = memref.alloc() : memref<256xf32>
    memref.copy %x, %b : memref<256xf32> to memref<256xf32>
    memref.copy %b, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %b : memref<256xf32>
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// Other region ops: the cases of an scf.index_switch share bytes like the
// branches of an scf.if; an affine.for body's buffer serves every
// iteration and cannot take the bytes of a buffer the loop reads; a buffer
// read for the last time in a branch gives its bytes to one the branch
// allocates after that read (also in scf.execute_region), which a loop
// body never does (the next iteration reads it again).
// CHECK-LABEL: func.func @switch_cases
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<1024xi8>
// CHECK-COUNT-3: memref.view %{{.*}}[%c0{{.*}}][] : memref<1024xi8> to memref<256xf32>
// expected-remark @+1 {{memplan: @switch_cases: packed 3 allocations (3072 bytes) into one arena of 1024 bytes}}
func.func @switch_cases(%k: index, %x: memref<256xf32>) {
  scf.index_switch %k
  case 0 {
    %a = memref.alloc() : memref<256xf32>
    memref.copy %x, %a : memref<256xf32> to memref<256xf32>
    memref.copy %a, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %a : memref<256xf32>
    scf.yield
  }
  case 1 {
    %b = memref.alloc() : memref<256xf32>
    memref.copy %x, %b : memref<256xf32> to memref<256xf32>
    memref.copy %b, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %b : memref<256xf32>
    scf.yield
  }
  default {
    %c = memref.alloc() : memref<256xf32>
    memref.copy %x, %c : memref<256xf32> to memref<256xf32>
    memref.copy %c, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %c : memref<256xf32>
  }
  return
}

// CHECK-LABEL: func.func @affine_body
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2048xi8>
// CHECK: memref.view %[[ARENA]][%c0{{.*}}][]
// CHECK: affine.for
// CHECK: memref.view %[[ARENA]][%c1024{{.*}}][]
// CHECK: }
// CHECK: memref.view %[[ARENA]][%c1024{{.*}}][]
// expected-remark @+1 {{memplan: @affine_body: packed 3 allocations (3072 bytes) into one arena of 2048 bytes}}
func.func @affine_body(%x: memref<256xf32>) {
  %acc = memref.alloc() : memref<256xf32>
  memref.copy %x, %acc : memref<256xf32> to memref<256xf32>
  affine.for %i = 0 to 4 {
    %t = memref.alloc() : memref<256xf32>
    memref.copy %acc, %t : memref<256xf32> to memref<256xf32>
    memref.copy %t, %acc : memref<256xf32> to memref<256xf32>
    memref.dealloc %t : memref<256xf32>
  }
  %after = memref.alloc() : memref<256xf32>
  memref.copy %acc, %after : memref<256xf32> to memref<256xf32>
  memref.copy %after, %x : memref<256xf32> to memref<256xf32>
  memref.dealloc %acc : memref<256xf32>
  memref.dealloc %after : memref<256xf32>
  return
}

// %a is read for the last time in each region op, then a buffer is born
// there: it takes %a's bytes (offset 0) in the branch and the
// execute_region, not in the loop body (%s keeps bytes 1024-2047).
// CHECK-LABEL: func.func @last_read_in_a_region
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<3072xi8>
// CHECK: memref.view %[[ARENA]][%c0{{.*}}][]
// CHECK: memref.view %[[ARENA]][%c1024{{.*}}][]
// CHECK: scf.if
// CHECK: memref.view %[[ARENA]][%c0{{.*}}][]
// CHECK: scf.execute_region
// CHECK: memref.view %[[ARENA]][%c0{{.*}}][]
// CHECK: scf.for
// CHECK: memref.view %[[ARENA]][%c2048{{.*}}][]
// expected-remark @+1 {{memplan: @last_read_in_a_region: packed 7 allocations (7168 bytes) into one arena of 3072 bytes}}
func.func @last_read_in_a_region(%c: i1, %x: memref<256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<256xf32>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32>
  %s = memref.alloc() : memref<256xf32>
  scf.if %c {
    memref.copy %a, %s : memref<256xf32> to memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    memref.copy %s, %b : memref<256xf32> to memref<256xf32>
    memref.copy %b, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %b : memref<256xf32>
  }
  memref.dealloc %a : memref<256xf32>
  %d = memref.alloc() : memref<256xf32>
  memref.copy %x, %d : memref<256xf32> to memref<256xf32>
  scf.execute_region {
    memref.copy %d, %s : memref<256xf32> to memref<256xf32>
    %e = memref.alloc() : memref<256xf32>
    memref.copy %s, %e : memref<256xf32> to memref<256xf32>
    memref.copy %e, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %e : memref<256xf32>
    scf.yield
  }
  memref.dealloc %d : memref<256xf32>
  %f = memref.alloc() : memref<256xf32>
  memref.copy %x, %f : memref<256xf32> to memref<256xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %f, %s : memref<256xf32> to memref<256xf32>
    %g = memref.alloc() : memref<256xf32>
    memref.copy %s, %g : memref<256xf32> to memref<256xf32>
    memref.copy %g, %x : memref<256xf32> to memref<256xf32>
    memref.dealloc %g : memref<256xf32>
  }
  memref.copy %s, %x : memref<256xf32> to memref<256xf32>
  memref.dealloc %f : memref<256xf32>
  memref.dealloc %s : memref<256xf32>
  return
}

// -----

// What stays: a buffer carried to the next iteration (or out of the loop),
// buffers of loops whose iterations may run at the same time and whose
// iteration count is not known (pack-allocs-parallel.mlir packs the others),
// and buffers in regions memplan does not model.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.view
func.func @left_alone(%x: memref<16xf32>, %n: index) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @+1 {{memplan: not packed: it is returned from the function}}
  %init = memref.alloc() : memref<16xf32>
  memref.copy %x, %init : memref<16xf32> to memref<16xf32>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %init) -> memref<16xf32> {
    // expected-remark @+1 {{memplan: not packed: it lives on after the iteration of 'scf.for' that allocates it}}
    %next = memref.alloc() : memref<16xf32>
    memref.copy %cur, %next : memref<16xf32> to memref<16xf32>
    scf.yield %next : memref<16xf32>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-remark @+1 {{memplan: not packed: it is allocated in the body of 'scf.parallel', whose iterations may run at the same time and whose number of iterations is not a compile-time constant}}
    %p = memref.alloc() : memref<16xf32>
    memref.copy %x, %p : memref<16xf32> to memref<16xf32>
    memref.dealloc %p : memref<16xf32>
    scf.reduce
  }
  scf.forall (%i) in (%n) {
    // expected-remark @+1 {{memplan: not packed: it is allocated in the body of 'scf.forall', whose iterations may run at the same time and whose number of iterations is not a compile-time constant}}
    %q = memref.alloc() : memref<16xf32>
    memref.copy %x, %q : memref<16xf32> to memref<16xf32>
    memref.dealloc %q : memref<16xf32>
  }
  %token = async.execute {
    // expected-remark @+1 {{memplan: not packed: it is allocated inside 'async.execute', whose regions memplan does not model}}
    %s = memref.alloc() : memref<16xf32>
    memref.copy %x, %s : memref<16xf32> to memref<16xf32>
    memref.dealloc %s : memref<16xf32>
    async.yield
  }
  async.await %token : !async.token
  return %last : memref<16xf32>
}

// -----

// Unstructured control flow: left alone, every buffer with the reason.
// CHECK-LABEL: func.func @blocks
// CHECK-NOT: memref.view
func.func @blocks(%c: i1, %x: memref<16xf32>) {
  // expected-remark @+1 {{memplan: not packed: the function has unstructured control flow ('func.func' holds a region of several blocks)}}
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  cf.cond_br %c, ^left, ^right
^left:
  // expected-remark @+1 {{memplan: not packed: the function has unstructured control flow ('func.func' holds a region of several blocks)}}
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  cf.br ^right
^right:
  return
}
