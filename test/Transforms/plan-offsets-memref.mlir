// RUN: memplan-opt %s --plan-offsets -split-input-file -verify-diagnostics
// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -split-input-file 2>&1 | FileCheck %s --check-prefix=PACK

// --plan-offsets plans value-semantic tensors. It once planned the select
// below as a fresh buffer: %a died at the select, %d took its bytes while %s
// was still read. Memrefs are now an error that points to
// --memplan-pack-allocs.
// expected-error @+1 {{this function holds memrefs ('memref<16xf32>'): --plan-offsets plans the value-semantic tensors of memplan graphs; plan bufferized IR with --memplan-pack-allocs, which follows memref aliases and escapes}}
func.func @select(%c: i1, %x: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %s = arith.select %c, %a, %b : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  memref.copy %x, %d : memref<16xf32> to memref<16xf32>
  memref.copy %s, %d : memref<16xf32> to memref<16xf32>
  return
}

// --memplan-pack-allocs keeps both select operands alive through every use
// of the select: three buffers live together, 192 bytes.
// PACK: remark: memplan: @select: packed 3 allocations (192 bytes) into one arena of 192 bytes

// -----

// A memref produced inside the body is refused as well.
func.func @inside(%x: tensor<4xf32>) {
  // expected-error @+1 {{this function holds memrefs ('memref<4xf32>')}}
  %m = memref.alloc() : memref<4xf32>
  return
}
