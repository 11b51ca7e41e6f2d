// RUN: memplan-opt %s --memplan-pack-allocs="alignment=1" --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// Alignment the program assumes of a buffer is kept in the arena. With
// `alignment=1` the packer aligns offsets only as each buffer needs; an
// allocator (malloc: 16 bytes, aligned_alloc as upstream lowers it: at least
// 16) gave the original buffers more, and code that assumes it
// (memref.assume_alignment, an access's `alignment`) must still find it.
// Without the rule, each buffer below would sit at offset 68, right after
// the 17 floats of %big.

// memref.assume_alignment of the buffer itself.
// CHECK-LABEL: func.func @assume_alignment
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 128 : i64, memplan.arena} : memref<192xi8>
// CHECK-DAG: memref.view %[[ARENA]][%c0{{.*}}][] : memref<192xi8> to memref<17xf32>
// CHECK-DAG: %[[V:.*]] = memref.view %[[ARENA]][%c128][] : memref<192xi8> to memref<16xf32>
// CHECK: memref.assume_alignment %[[V]], 128
// expected-remark @+1 {{memplan: @assume_alignment: packed 2 allocations (132 bytes) into one arena of 192 bytes}}
func.func @assume_alignment(%out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %big = memref.alloc() : memref<17xf32>
  linalg.fill ins(%one : f32) outs(%big : memref<17xf32>)
  %a = memref.alloc() : memref<16xf32>
  %aligned = memref.assume_alignment %a, 128 : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%aligned : memref<16xf32>)
  %x = memref.load %big[%c0] : memref<17xf32>
  %y = memref.load %aligned[%c0] : memref<16xf32>
  memref.store %x, %out[%c0] : memref<2xf32>
  memref.store %y, %out[%c1] : memref<2xf32>
  return
}

// -----

// The assumption is about a view of the buffer: it still holds for the
// buffer's start.
// CHECK-LABEL: func.func @assume_alignment_of_a_view
// CHECK: memref.alloc() {alignment = 256 : i64, memplan.arena} : memref<320xi8>
// CHECK: memref.view %{{.*}}[%c256][] : memref<320xi8> to memref<4x4xf32>
// expected-remark @+1 {{memplan: @assume_alignment_of_a_view: packed 2 allocations (132 bytes) into one arena of 320 bytes}}
func.func @assume_alignment_of_a_view(%out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %big = memref.alloc() : memref<17xf32>
  linalg.fill ins(%one : f32) outs(%big : memref<17xf32>)
  %a = memref.alloc() : memref<4x4xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %aligned = memref.assume_alignment %flat, 256 : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%aligned : memref<16xf32>)
  %x = memref.load %big[%c0] : memref<17xf32>
  %y = memref.load %a[%c0, %c0] : memref<4x4xf32>
  memref.store %x, %out[%c0] : memref<2xf32>
  memref.store %y, %out[%c1] : memref<2xf32>
  return
}

// -----

// Accesses that state their address's alignment: vector.load's and
// memref.store's `alignment`. %x is live alone first, so the arena is 200
// bytes either way; %a and %b follow %p, whose 17 floats end at byte 68.
// CHECK-LABEL: func.func @access_alignment
// CHECK: memref.alloc() {alignment = 32 : i64, memplan.arena} : memref<200xi8>
// CHECK-DAG: memref.view %{{.*}}[%c0{{.*}}][] : memref<200xi8> to memref<17xf32>
// CHECK-DAG: memref.view %{{.*}}[%c96][] : memref<200xi8> to memref<16xf32>
// CHECK-DAG: memref.view %{{.*}}[%c160][] : memref<200xi8> to memref<8xf32>
// expected-remark @+1 {{memplan: @access_alignment: packed 4 allocations (364 bytes) into one arena of 200 bytes}}
func.func @access_alignment(%out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<50xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<50xf32>)
  %first = memref.load %x[%c0] : memref<50xf32>
  %p = memref.alloc() : memref<17xf32>
  linalg.fill ins(%first : f32) outs(%p : memref<17xf32>)
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<8xf32>
  memref.store %one, %b[%c0] {alignment = 32} : memref<8xf32>
  %w = vector.load %a[%c0] {alignment = 32} : memref<16xf32>, vector<8xf32>
  %s = vector.reduction <add>, %w : vector<8xf32> into f32
  %y = memref.load %p[%c0] : memref<17xf32>
  %z = memref.load %b[%c0] : memref<8xf32>
  %sum = arith.addf %s, %z : f32
  memref.store %y, %out[%c0] : memref<2xf32>
  memref.store %sum, %out[%c1] : memref<2xf32>
  return
}

// -----

// Aliases with other elements: %a's bytes are read as f64 through a
// memref.view and %v's floats as one vector<8xf32> (32-byte aligned)
// through vector.type_cast. Each buffer starts aligned for its aliases'
// elements: %a at 72, not at byte 67 after %p, and %v at 160, not at 136.
// CHECK-LABEL: func.func @aliases_with_other_elements
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 32 : i64, memplan.arena} : memref<200xi8>
// CHECK-DAG: memref.view %[[ARENA]][%c0{{.*}}][] : memref<200xi8> to memref<67xi8>
// CHECK-DAG: %[[A:.*]] = memref.view %[[ARENA]][%c72][] : memref<200xi8> to memref<64xi8>
// CHECK-DAG: memref.view %[[A]][%c0][] : memref<64xi8> to memref<8xf64>
// CHECK-DAG: %[[V:.*]] = memref.view %[[ARENA]][%c160][] : memref<200xi8> to memref<8xf32>
// CHECK-DAG: vector.type_cast %[[V]]
// expected-remark @+1 {{memplan: @aliases_with_other_elements: packed 4 allocations (363 bytes) into one arena of 200 bytes}}
func.func @aliases_with_other_elements(%out: memref<2xf64>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %onef = arith.constant 1.0 : f32
  %seven = arith.constant 7 : i8
  %x = memref.alloc() : memref<200xi8>
  linalg.fill ins(%seven : i8) outs(%x : memref<200xi8>)
  %first = memref.load %x[%c0] : memref<200xi8>
  %p = memref.alloc() : memref<67xi8>
  linalg.fill ins(%first : i8) outs(%p : memref<67xi8>)
  %a = memref.alloc() : memref<64xi8>
  %d = memref.view %a[%c0][] : memref<64xi8> to memref<8xf64>
  linalg.fill ins(%one : f64) outs(%d : memref<8xf64>)
  %v = memref.alloc() : memref<8xf32>
  linalg.fill ins(%onef : f32) outs(%v : memref<8xf32>)
  %t = vector.type_cast %v : memref<8xf32> to memref<vector<8xf32>>
  %w = memref.load %t[] : memref<vector<8xf32>>
  %s = vector.reduction <add>, %w : vector<8xf32> into f32
  %y = memref.load %d[%c0] : memref<8xf64>
  %z = memref.load %p[%c0] : memref<67xi8>
  %zf = arith.uitofp %z : i8 to f64
  %sf = arith.extf %s : f32 to f64
  %r0 = arith.addf %y, %zf : f64
  %r = arith.addf %r0, %sf : f64
  memref.store %r, %out[%c0] : memref<2xf64>
  return
}
