// RUN: memplan-opt %s --allow-unregistered-dialect --memplan-pack-allocs --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// A buffer shares bytes only when every use of it and of its aliases is
// understood. memplan once packed %a and %b of @pointer at offset 0: the
// address of %a, taken before %b was born, was read after %b was written.
// Each use below that can keep, expose or free a buffer leaves it alone,
// with the reason and the op.

// CHECK-LABEL: func.func @pointer
// CHECK-NOT: memref.view
func.func private @read_raw(index)
// expected-remark @+1 {{memplan: @pointer: no arena for its 1 packable allocation; function peak 64 bytes, 64 bytes with every buffer freed at its last use}}
func.func @pointer() {
  // expected-remark @+1 {{memplan: not packed: it is used by 'memref.extract_aligned_pointer_as_index', which neither reads nor writes it (it may keep or expose it)}}
  %a = memref.alloc() : memref<16xf32>
  %p = memref.extract_aligned_pointer_as_index %a : memref<16xf32> -> index
  %b = memref.alloc() : memref<16xf32>
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%b : memref<16xf32>)
  func.call @read_raw(%p) : (index) -> ()
  return
}

// -----

// Casts out of the memref type system, and ops of unknown effect.
// CHECK-LABEL: func.func @casts
func.func @casts() -> tensor<16xf32> {
  // expected-remark @+1 {{memplan: not packed: 'bufferization.to_tensor' derives a value of type 'tensor<16xf32>' from it}}
  %a = memref.alloc() : memref<16xf32>
  %t = bufferization.to_tensor %a : memref<16xf32> to tensor<16xf32>
  // expected-remark @+1 {{memplan: not packed: it is used by 'builtin.unrealized_conversion_cast', which neither reads nor writes it (it may keep or expose it)}}
  %b = memref.alloc() : memref<16xf32>
  %s = builtin.unrealized_conversion_cast %b : memref<16xf32> to !llvm.struct<(ptr, ptr, i64)>
  // expected-remark @+1 {{memplan: not packed: it is used by 'test.opaque', which declares no memory effects}}
  %c = memref.alloc() : memref<16xf32>
  "test.opaque"(%c) : (memref<16xf32>) -> ()
  return %t : tensor<16xf32>
}

// -----

// Calls: an external function may keep what it gets; a defined one is
// looked into, and a buffer it does not keep, free or return is packed.
// CHECK-LABEL: func.func @calls
// CHECK-COUNT-2: memref.view
// CHECK-NOT: memref.view
func.func private @external(memref<16xf32>)
func.func private @reads(%m: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<16xf32>
  %d = memref.dim %m, %c0 : memref<16xf32>
  return %v : f32
}
func.func private @returns(%m: memref<16xf32>) -> memref<16xf32> {
  return %m : memref<16xf32>
}
func.func private @frees(%m: memref<16xf32>) {
  memref.dealloc %m : memref<16xf32>
  return
}
func.func private @stores(%m: memref<16xf32>, %box: memref<memref<16xf32>>) {
  memref.store %m, %box[] : memref<memref<16xf32>>
  return
}
func.func private @recurses(%m: memref<16xf32>) {
  func.call @recurses(%m) : (memref<16xf32>) -> ()
  return
}
// expected-remark @+1 {{memplan: @calls: packed 2 allocations (128 bytes) into one arena of 64 bytes}}
func.func @calls(%box: memref<memref<16xf32>>, %f: (memref<16xf32>) -> ()) {
  %read1 = memref.alloc() : memref<16xf32>
  %v1 = func.call @reads(%read1) : (memref<16xf32>) -> f32
  %read2 = memref.alloc() : memref<16xf32>
  %v2 = func.call @reads(%read2) : (memref<16xf32>) -> f32
  // expected-remark @+1 {{memplan: not packed: it is passed to @external, an external function, which may keep it}}
  %e = memref.alloc() : memref<16xf32>
  func.call @external(%e) : (memref<16xf32>) -> ()
  // expected-remark @+1 {{memplan: not packed: it is passed to @returns, which returns it}}
  %r = memref.alloc() : memref<16xf32>
  %r2 = func.call @returns(%r) : (memref<16xf32>) -> memref<16xf32>
  // expected-remark @+1 {{memplan: not packed: it is passed to @frees, which frees it}}
  %fr = memref.alloc() : memref<16xf32>
  func.call @frees(%fr) : (memref<16xf32>) -> ()
  // expected-remark @+1 {{memplan: not packed: it is passed to @stores, where it is used by 'memref.store', which neither reads nor writes it (it may keep or expose it)}}
  %st = memref.alloc() : memref<16xf32>
  func.call @stores(%st, %box) : (memref<16xf32>, memref<memref<16xf32>>) -> ()
  // expected-remark @+1 {{memplan: not packed: it is passed to @recurses, where it is passed to @recurses again (a recursive call)}}
  %rec = memref.alloc() : memref<16xf32>
  func.call @recurses(%rec) : (memref<16xf32>) -> ()
  // expected-remark @+1 {{memplan: not packed: it is passed to a call whose callee is not known}}
  %ind = memref.alloc() : memref<16xf32>
  func.call_indirect %f(%ind) : (memref<16xf32>) -> ()
  return
}

// -----

// Frees by other ops, and regions whose control flow memplan does not
// model (here the body of async.execute runs after the op returns).
// CHECK-LABEL: func.func @frees_and_regions
func.func @frees_and_regions() {
  // expected-remark @+1 {{memplan: not packed: it is freed by 'memref.realloc'}}
  %a = memref.alloc() : memref<16xf32>
  %grown = memref.realloc %a : memref<16xf32> to memref<32xf32>
  // expected-remark @+1 {{memplan: not packed: it is used inside 'async.execute', whose regions memplan does not model}}
  %b = memref.alloc() : memref<16xf32>
  %token = async.execute {
    %c0 = arith.constant 0 : index
    %v = memref.load %b[%c0] : memref<16xf32>
    async.yield
  }
  async.await %token : !async.token
  return
}

// -----

// Metadata is no escape: memref.dim and extract_strided_metadata read the
// shape, which packing does not change.
// CHECK-LABEL: func.func @metadata
// CHECK-COUNT-2: memref.view
// expected-remark @+1 {{memplan: @metadata: packed 2 allocations (128 bytes) into one arena of 64 bytes}}
func.func @metadata(%out: memref<4xindex>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  %d = memref.dim %a, %c0 : memref<16xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %a : memref<16xf32> -> memref<f32>, index, index, index
  memref.store %offset, %out[%c0] : memref<4xindex>
  %b = memref.alloc() : memref<16xf32>
  %e = memref.dim %b, %c0 : memref<16xf32>
  memref.store %e, %out[%d] : memref<4xindex>
  return
}
