// RUN: memplan-opt %s --memplan-pack-allocs="workgroup-barriers" --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// With workgroup-barriers, a GPU workgroup buffer lives to its last use, as
// any buffer, and the pass inserts a gpu.barrier before the first use of a
// buffer that takes bytes of one last used before it, where no barrier
// lies between the two (as IREE's shared memory reuse does). The function
// must run in every thread of a workgroup, in uniform control flow.

// %b takes %a's bytes: a barrier before %b's first use, after %a's last.
// CHECK-LABEL: func.func @inserted
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<256xi8, #gpu.address_space<workgroup>>
// CHECK: memref.load
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: memref.view %[[ARENA]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load
// expected-remark @+1 {{memplan: @inserted: packed 2 allocations (512 bytes) of memory space #gpu.address_space<workgroup> into one arena of 256 bytes (lower bound 256 bytes, greedy-by-size); function peak 256 bytes, 256 bytes with every buffer freed at its last use}}
func.func @inserted(%out: memref<64xf32>) {
  %c63 = arith.constant 63 : index
  %tid = gpu.thread_id x
  %mirror = arith.subi %c63, %tid : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v = memref.load %a[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-remark @+1 {{memplan: inserted a gpu.barrier before this op, the first use of a workgroup buffer that takes bytes of one last used before it}}
  memref.store %v, %b[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %w = memref.load %b[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%tid] : memref<64xf32>
  return
}

// -----

// A barrier of the program already lies between them: none inserted. Two
// buffers first used by one op after a third's last use: one barrier.
// CHECK-LABEL: func.func @existing
// CHECK-COUNT-2: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: return
// expected-remark @+1 {{memplan: @existing: packed 2 allocations (512 bytes) of memory space #gpu.address_space<workgroup> into one arena of 256 bytes}}
func.func @existing(%out: memref<64xf32>) {
  %c63 = arith.constant 63 : index
  %tid = gpu.thread_id x
  %mirror = arith.subi %c63, %tid : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v = memref.load %a[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  memref.store %v, %b[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  %w = memref.load %b[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%tid] : memref<64xf32>
  return
}

// CHECK-LABEL: func.func @one_op
// CHECK: memref.load
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.copy
// expected-remark @+1 {{memplan: @one_op: packed 3 allocations (1024 bytes) of memory space #gpu.address_space<workgroup> into one arena of 512 bytes}}
func.func @one_op(%out: memref<128xf32, #gpu.address_space<workgroup>>) {
  %tid = gpu.thread_id x
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %one, %a[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
  %v = memref.load %a[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
  // expected-remark @+1 {{memplan: inserted a gpu.barrier before this op, the first use of a workgroup buffer that takes bytes of one last used before it}}
  memref.copy %b, %c : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %v, %out[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// Allocated in a loop: still left alone (a barrier inside the loop would not
// keep one iteration's uses apart from the next's).
// CHECK-LABEL: func.func @nested
// CHECK-NOT: memref.view
func.func @nested(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tid = gpu.thread_id x
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-remark @+1 {{memplan: not packed: it is in GPU workgroup memory, which the threads of a workgroup share, and is allocated inside 'scf.for'}}
    %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %one, %t[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %t[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tid] : memref<64xf32>
  }
  return
}
