// Allocations hoisted away from their first use, as IREE and upstream's
// hoisting passes leave them: a buffer's bytes are untouched until its first
// use, so memplan's lifetimes begin there, and the packed program is run
// against the unpacked one.
//
//  @chain    four buffers allocated at the top, each read for the last
//            time after the next is written: two offsets instead of four;
//  @in_loop  a buffer allocated at the top and first written inside a loop
//            whose body has a buffer of its own: the loop's whole span
//            belongs to the first, so the two stay apart (a lifetime begun
//            at the loop's end instead let the body's buffer overwrite it).

// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -o %t.packed.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.packed.mlir
// RUN: mlir-opt %s %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.base.out
// RUN: mlir-opt %t.packed.mlir %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | grep -v "base@" > %t.packed.out
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t.base.out
// RUN: diff %t.base.out %t.packed.out

// REMARK-DAG: remark: memplan: @chain: packed 4 allocations (256 bytes) into one arena of 128 bytes (lower bound 128 bytes, greedy-by-size); function peak 128 bytes, 128 bytes with every buffer freed at its last use
// REMARK-DAG: remark: memplan: @in_loop: packed 2 allocations (128 bytes) into one arena of 128 bytes (lower bound 128 bytes, greedy-by-size); function peak 128 bytes, 128 bytes with every buffer freed at its last use

// The views are made where each buffer is first used, after the arena.
// PACKED-LABEL: func.func @chain
// PACKED: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<128xi8>
// PACKED-NEXT: arith.constant 0 : index
// PACKED-NEXT: memref.view %[[ARENA]]
// PACKED-NEXT: linalg.fill

// out = [a: 1, a + b: 3, + c: 6, + d: 10, in_loop: acc[0..3] = 0, 1, 2, 3 (+ 100 if the body's buffer overwrote it)]
// OUTPUT: {{^}}[1,  3,  6,  10,  0,  1,  2,  3]

func.func private @printMemrefF32(memref<*xf32>)

func.func @chain(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  // Each buffer is read once more after the next one is written.
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%two : f32) outs(%b : memref<16xf32>)
  %va = memref.load %a[%c0] : memref<16xf32>
  memref.store %va, %out[%c0] : memref<8xf32>
  linalg.fill ins(%three : f32) outs(%c : memref<16xf32>)
  %vb = memref.load %b[%c0] : memref<16xf32>
  %s1 = arith.addf %va, %vb : f32
  memref.store %s1, %out[%c1] : memref<8xf32>
  linalg.fill ins(%four : f32) outs(%d : memref<16xf32>)
  %vc = memref.load %c[%c0] : memref<16xf32>
  %s2 = arith.addf %s1, %vc : f32
  memref.store %s2, %out[%c2] : memref<8xf32>
  %vd = memref.load %d[%c0] : memref<16xf32>
  %s3 = arith.addf %s2, %vd : f32
  memref.store %s3, %out[%c3] : memref<8xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  memref.dealloc %d : memref<16xf32>
  return
}

func.func @in_loop(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %hundred = arith.constant 100.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc() : memref<16xf32>
    linalg.fill ins(%hundred : f32) outs(%t : memref<16xf32>)
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %tv = memref.load %t[%i] : memref<16xf32>
    %bonus = arith.subf %tv, %hundred : f32
    %v = arith.addf %fi, %bonus : f32
    memref.store %v, %acc[%i] : memref<16xf32>
    memref.dealloc %t : memref<16xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %acc[%i] : memref<16xf32>
    %slot = arith.addi %i, %c4 : index
    memref.store %v, %out[%slot] : memref<8xf32>
  }
  memref.dealloc %acc : memref<16xf32>
  return
}

func.func @main() {
  %out = memref.alloc() : memref<8xf32>
  func.call @chain(%out) : (memref<8xf32>) -> ()
  func.call @in_loop(%out) : (memref<8xf32>) -> ()
  %u = memref.cast %out : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<8xf32>
  return
}
