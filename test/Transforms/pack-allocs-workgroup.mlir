// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// GPU workgroup memory is shared by the threads of a workgroup, which run
// the function at once, each at its own pace: one thread's last use of a
// buffer is not another's. memplan once packed %a and %b of @no_barrier at
// offset 0: thread 0 stored into %b over a[0] while thread 63, behind it,
// had still to load a[0]. A workgroup buffer now lives until every thread
// has passed a gpu.barrier after its last use.

// No barrier between %a's last use and %b: apart.
// CHECK-LABEL: func.func @no_barrier
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<512xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<512xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c256][] : memref<512xi8, #gpu.address_space<workgroup>>
// expected-remark @+1 {{memplan: @no_barrier: packed 2 allocations (512 bytes) of memory space #gpu.address_space<workgroup> into one arena of 512 bytes (lower bound 512 bytes, greedy-by-size); function peak 512 bytes, 512 bytes with every buffer freed at its last use}}
func.func @no_barrier(%out: memref<64xf32>) {
  %c63 = arith.constant 63 : index
  %tid = gpu.thread_id x
  %mirror = arith.subi %c63, %tid : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v = memref.load %a[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %v, %b[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %w = memref.load %b[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%tid] : memref<64xf32>
  return
}

// -----

// A barrier after %a's last use and before %b is born: one offset. The
// same in address space 3, workgroup memory's number after gpu-to-nvvm or
// gpu-to-rocdl.
// CHECK-LABEL: func.func @barrier
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<256xi8, #gpu.address_space<workgroup>>
// CHECK-COUNT-2: memref.view %{{.*}}[%c0{{.*}}][] : memref<256xi8, #gpu.address_space<workgroup>>
// expected-remark @+1 {{memplan: @barrier: packed 2 allocations (512 bytes) of memory space #gpu.address_space<workgroup> into one arena of 256 bytes (lower bound 256 bytes, greedy-by-size); function peak 256 bytes, 256 bytes with every buffer freed at its last use}}
func.func @barrier(%out: memref<64xf32>) {
  %c63 = arith.constant 63 : index
  %tid = gpu.thread_id x
  %mirror = arith.subi %c63, %tid : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v = memref.load %a[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %b = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %v, %b[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %w = memref.load %b[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%tid] : memref<64xf32>
  return
}

// CHECK-LABEL: func.func @numbered
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<512xi8, 3>
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<512xi8, 3>
// CHECK: memref.view %{{.*}}[%c256][] : memref<512xi8, 3>
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<512xi8, 3>
// expected-remark @+1 {{memplan: @numbered: packed 3 allocations (768 bytes) of memory space 3 into one arena of 512 bytes (lower bound 512 bytes, greedy-by-size); function peak 512 bytes, 512 bytes with every buffer freed at its last use}}
func.func @numbered(%out: memref<64xf32>) {
  %c63 = arith.constant 63 : index
  %tid = gpu.thread_id x
  %mirror = arith.subi %c63, %tid : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64xf32, 3>
  memref.store %one, %a[%tid] : memref<64xf32, 3>
  gpu.barrier
  %v = memref.load %a[%mirror] : memref<64xf32, 3>
  // %b is first used before the barrier that ends %a: apart from %a.
  %b = memref.alloc() : memref<64xf32, 3>
  memref.store %v, %b[%tid] : memref<64xf32, 3>
  gpu.barrier
  %w = memref.load %b[%mirror] : memref<64xf32, 3>
  gpu.barrier
  // %c, first used after the barriers that end %a and %b, may take the
  // bytes of either.
  %c = memref.alloc() : memref<64xf32, 3>
  memref.store %w, %c[%tid] : memref<64xf32, 3>
  gpu.barrier
  %x = memref.load %c[%mirror] : memref<64xf32, 3>
  memref.store %x, %out[%tid] : memref<64xf32>
  return
}

// -----

// Inside a region an op may run for some threads only, and a loop's
// iterations are not apart from each other's: a workgroup buffer allocated
// there is left alone. With no barrier after the loop, it lives on beside
// %a (another thread may still be in the loop).
// CHECK-LABEL: func.func @nested
// CHECK-NOT: memref.view
// expected-remark @+1 {{memplan: @nested: no arena for its 1 packable allocation of memory space #gpu.address_space<workgroup>; function peak 512 bytes, 512 bytes with every buffer freed at its last use}}
func.func @nested(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tid = gpu.thread_id x
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-remark @+1 {{memplan: not packed: it is in GPU workgroup memory, which the threads of a workgroup share, and is allocated inside 'scf.for': only buffers allocated in the function's body, apart from each other by a gpu.barrier, share its bytes}}
    %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %one, %t[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %t[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tid] : memref<64xf32>
    gpu.barrier
  }
  %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// Workgroup buffers allocated at the top of the kernel, as IREE hoists
// them: each begins at its first use, so stages apart by a barrier share
// bytes. %b's first use comes after the barrier that ends %a.
// CHECK-LABEL: func.func @hoisted
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<256xi8, #gpu.address_space<workgroup>>
// expected-remark @+1 {{memplan: @hoisted: packed 2 allocations (512 bytes) of memory space #gpu.address_space<workgroup> into one arena of 256 bytes (lower bound 256 bytes, greedy-by-size); function peak 256 bytes, 256 bytes with every buffer freed at its last use}}
func.func @hoisted(%out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %c63 = arith.constant 63 : index
  %tid = gpu.thread_id x
  %mirror = arith.subi %c63, %tid : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v = memref.load %a[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  memref.store %v, %b[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %w = memref.load %b[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%tid] : memref<64xf32>
  return
}

// -----

// SPIR-V's Workgroup storage class is workgroup memory too (its name says
// so): %a and %b stay apart without a barrier.
// CHECK-LABEL: func.func @spirv_workgroup
// CHECK: memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<512xi8, #spirv.storage_class<Workgroup>>
// expected-remark @+1 {{memplan: @spirv_workgroup: packed 2 allocations (512 bytes) of memory space #spirv.storage_class<Workgroup> into one arena of 512 bytes}}
func.func @spirv_workgroup(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64xf32, #spirv.storage_class<Workgroup>>
  memref.store %one, %a[%c0] : memref<64xf32, #spirv.storage_class<Workgroup>>
  %v = memref.load %a[%c0] : memref<64xf32, #spirv.storage_class<Workgroup>>
  %b = memref.alloc() : memref<64xf32, #spirv.storage_class<Workgroup>>
  memref.store %v, %b[%c0] : memref<64xf32, #spirv.storage_class<Workgroup>>
  %w = memref.load %b[%c0] : memref<64xf32, #spirv.storage_class<Workgroup>>
  memref.store %w, %out[%c0] : memref<64xf32>
  return
}
