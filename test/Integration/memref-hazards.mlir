// Programs that memplan once miscompiled, each packed, lowered and run with
// and without --memplan-pack-allocs: the printed values are pinned, and the
// packed program prints the same as the unpacked one.
//
//  @mask      an i1 mask sized by its bits (128 bytes instead of 1024) let
//             two live buffers be placed inside it;
//  @raw       a buffer whose address was taken (extract_aligned_pointer_as_index)
//             and read later through it shared its bytes with a newer one;
//  @selected  both operands of an arith.select live as long as the select;
//  @spaces    buffers of memory space 1 get an arena of their own space;
//  @looped    buffers allocated in a loop body reuse one offset per
//             iteration, beside a buffer from outside used in the loop
//             (the two of the body share bytes too: the second is first
//             used after the first's last read);
//  @called    buffers passed to a function that does not keep them;
//  @branches  buffers of the two branches of an scf.if share bytes.

// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mlir-opt %s %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.base.out
// RUN: diff %t.base.out %t.packed.out

// REMARK-DAG: remark: memplan: @mask: packed 3 allocations (1152 bytes) into one arena of 1152 bytes
// REMARK-DAG: remark: memplan: not packed: it is used by 'memref.extract_aligned_pointer_as_index', which neither reads nor writes it (it may keep or expose it)
// REMARK-DAG: remark: memplan: @selected: packed 3 allocations (192 bytes) into one arena of 192 bytes
// REMARK-DAG: remark: memplan: @spaces: packed 2 allocations (128 bytes) of memory space 1 into one arena of 128 bytes
// REMARK-DAG: remark: memplan: @looped: packed 3 allocations (192 bytes) into one arena of 128 bytes
// REMARK-DAG: remark: memplan: @called: packed 3 allocations (192 bytes) into one arena of 128 bytes
// REMARK-DAG: remark: memplan: @branches: packed 2 allocations (128 bytes) into one arena of 64 bytes

// OUTPUT: {{^}}[1,  12,  1,  2,  3,  3,  4,  5,  6,  7,  6,  10,  16,  15,  25,  6,  7]

func.func private @printMemrefF32(memref<*xf32>)

// out[0] = p[15], out[1] = q[15] + (mask[1023] ? 10 : 0): 1 and 12.
func.func @mask(%out: memref<17xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c1023 = arith.constant 1023 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %ten = arith.constant 10.0 : f32
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  %p = memref.alloc() : memref<16xf32>
  %q = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%p : memref<16xf32>)
  linalg.fill ins(%two : f32) outs(%q : memref<16xf32>)
  %mask = memref.alloc() : memref<1024xi1>
  linalg.fill ins(%true : i1) outs(%mask : memref<1024xi1>)
  %m = memref.load %mask[%c1023] : memref<1024xi1>
  %pv = memref.load %p[%c15] : memref<16xf32>
  %qv = memref.load %q[%c15] : memref<16xf32>
  %bonus = arith.select %m, %ten, %zero : f32
  %sum = arith.addf %qv, %bonus : f32
  memref.store %pv, %out[%c0] : memref<17xf32>
  memref.store %sum, %out[%c1] : memref<17xf32>
  memref.dealloc %p : memref<16xf32>
  memref.dealloc %q : memref<16xf32>
  memref.dealloc %mask : memref<1024xi1>
  return
}

// Reads a float through a raw address: a buffer whose address escapes here
// must keep its bytes.
func.func @read_raw(%address: index) -> f32 {
  %i = arith.index_cast %address : index to i64
  %pointer = llvm.inttoptr %i : i64 to !llvm.ptr
  %v = llvm.load %pointer : !llvm.ptr -> f32
  return %v : f32
}

// out[2] = a[0] read through its address after b was written: 1; out[3] = 2.
func.func @raw(%out: memref<17xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  %address = memref.extract_aligned_pointer_as_index %a : memref<16xf32> -> index
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%two : f32) outs(%b : memref<16xf32>)
  %v = func.call @read_raw(%address) : (index) -> f32
  %w = memref.load %b[%c0] : memref<16xf32>
  memref.store %v, %out[%c2] : memref<17xf32>
  memref.store %w, %out[%c3] : memref<17xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// The selected buffer (a) is read after d is written: out[4] = out[5] = 3,
// out[6] = 4 (b), out[7] = 5 (d).
func.func @selected(%cond: i1, %out: memref<17xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%three : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%four : f32) outs(%b : memref<16xf32>)
  %s = arith.select %cond, %a, %b : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  linalg.fill ins(%five : f32) outs(%d : memref<16xf32>)
  %sv = memref.load %s[%c0] : memref<16xf32>
  %sw = memref.load %s[%c7] : memref<16xf32>
  %bv = memref.load %b[%c0] : memref<16xf32>
  %dv = memref.load %d[%c0] : memref<16xf32>
  memref.store %sv, %out[%c4] : memref<17xf32>
  memref.store %sw, %out[%c5] : memref<17xf32>
  memref.store %bv, %out[%c6] : memref<17xf32>
  memref.store %dv, %out[%c7] : memref<17xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %d : memref<16xf32>
  return
}

// Two buffers in memory space 1 live together, two in the default space one
// after the other: out[8] = 6, out[9] = 7. (Nothing frees the buffers of
// space 1: upstream's LLVM lowering cannot free a pointer of address space
// 1 on the host.)
func.func @spaces(%out: memref<17xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %six = arith.constant 6.0 : f32
  %seven = arith.constant 7.0 : f32
  %x = memref.alloc() : memref<16xf32, 1>
  %y = memref.alloc() : memref<16xf32, 1>
  linalg.fill ins(%six : f32) outs(%x : memref<16xf32, 1>)
  linalg.fill ins(%seven : f32) outs(%y : memref<16xf32, 1>)
  %h0 = memref.alloc() : memref<16xf32>
  memref.copy %x, %h0 : memref<16xf32, 1> to memref<16xf32>
  %v0 = memref.load %h0[%c0] : memref<16xf32>
  memref.store %v0, %out[%c8] : memref<17xf32>
  %h1 = memref.alloc() : memref<16xf32>
  memref.copy %y, %h1 : memref<16xf32, 1> to memref<16xf32>
  %v1 = memref.load %h1[%c0] : memref<16xf32>
  memref.store %v1, %out[%c9] : memref<17xf32>
  memref.dealloc %h0 : memref<16xf32>
  memref.dealloc %h1 : memref<16xf32>
  return
}

// For i in 1..3: t = acc + i, u = t + i, acc = u (acc is a buffer from
// outside the loop), out[9 + i] = u: 6, 10, 16.
func.func @looped(%out: memref<17xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %init = arith.constant 4.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  linalg.fill ins(%init : f32) outs(%acc : memref<16xf32>)
  scf.for %i = %c1 to %c4 step %c1 {
    %t = memref.alloc() : memref<16xf32>
    %u = memref.alloc() : memref<16xf32>
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %a = memref.load %acc[%c0] : memref<16xf32>
    %ta = arith.addf %a, %fi : f32
    linalg.fill ins(%ta : f32) outs(%t : memref<16xf32>)
    %tv = memref.load %t[%c0] : memref<16xf32>
    %uv = arith.addf %tv, %fi : f32
    linalg.fill ins(%uv : f32) outs(%u : memref<16xf32>)
    memref.copy %u, %acc : memref<16xf32> to memref<16xf32>
    %r = memref.load %u[%c0] : memref<16xf32>
    %slot = arith.addi %i, %c10 : index
    %slot1 = arith.subi %slot, %c1 : index
    memref.store %r, %out[%slot1] : memref<17xf32>
    memref.dealloc %t : memref<16xf32>
    memref.dealloc %u : memref<16xf32>
  }
  memref.dealloc %acc : memref<16xf32>
  return
}

// Sums a buffer; keeps nothing of it.
func.func @sum(%m: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %m[%i] : memref<16xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  return %s : f32
}

// out[13] = 16 * 0.9375 = 15, out[14] = 16 * 1.5625 = 25. The buffer of the
// first call is dead when the second is born (the callee keeps nothing), so
// they share bytes; `keep` lives throughout.
func.func @called(%out: memref<17xf32>) {
  %c0 = arith.constant 0 : index
  %c13 = arith.constant 13 : index
  %c14 = arith.constant 14 : index
  %x = arith.constant 0.9375 : f32
  %y = arith.constant 1.5625 : f32
  %keep = memref.alloc() : memref<16xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%keep : memref<16xf32>)
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %sa = func.call @sum(%a) : (memref<16xf32>) -> f32
  memref.store %sa, %keep[%c0] : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%y : f32) outs(%b : memref<16xf32>)
  %sb = func.call @sum(%b) : (memref<16xf32>) -> f32
  %ka = memref.load %keep[%c0] : memref<16xf32>
  memref.store %ka, %out[%c13] : memref<17xf32>
  memref.store %sb, %out[%c14] : memref<17xf32>
  memref.dealloc %keep : memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// out[index] = 6 through the then branch or 7 through the else branch.
func.func @branches(%cond: i1, %index: index, %out: memref<17xf32>) {
  %c0 = arith.constant 0 : index
  %six = arith.constant 6.0 : f32
  %seven = arith.constant 7.0 : f32
  scf.if %cond {
    %x = memref.alloc() : memref<16xf32>
    linalg.fill ins(%six : f32) outs(%x : memref<16xf32>)
    %v = memref.load %x[%c0] : memref<16xf32>
    memref.store %v, %out[%index] : memref<17xf32>
    memref.dealloc %x : memref<16xf32>
  } else {
    %y = memref.alloc() : memref<16xf32>
    linalg.fill ins(%seven : f32) outs(%y : memref<16xf32>)
    %v = memref.load %y[%c0] : memref<16xf32>
    memref.store %v, %out[%index] : memref<17xf32>
    memref.dealloc %y : memref<16xf32>
  }
  return
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<17xf32>
  func.call @mask(%out) : (memref<17xf32>) -> ()
  func.call @raw(%out) : (memref<17xf32>) -> ()
  func.call @selected(%true, %out) : (i1, memref<17xf32>) -> ()
  func.call @spaces(%out) : (memref<17xf32>) -> ()
  func.call @looped(%out) : (memref<17xf32>) -> ()
  func.call @called(%out) : (memref<17xf32>) -> ()
  func.call @branches(%true, %c15, %out) : (i1, index, memref<17xf32>) -> ()
  func.call @branches(%false, %c16, %out) : (i1, index, memref<17xf32>) -> ()
  %u = memref.cast %out : memref<17xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<17xf32>
  return
}
