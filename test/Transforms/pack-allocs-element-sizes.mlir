// RUN: memplan-opt %s --memplan-pack-allocs="alignment=1" --memplan-verify-packing -split-input-file -verify-diagnostics | FileCheck %s

// Sizes are the lowering's, not packed bits: memref.view and the LLVM
// lowering store one byte per i1 and per i4, pad vector<3xf32> to 16 bytes,
// and take 8 bytes per index. (memplan once sized the i1 mask by its bits,
// 128 bytes, and placed the next buffer inside it.)

// Four buffers live together: 1024 + 1024 + 64 + 16 bytes.
// CHECK-LABEL: func.func @sub_byte_and_padded
// CHECK: memref.alloc() {alignment = 16 : i64, memplan.arena} : memref<2128xi8>
// CHECK-DAG: memref.view {{.*}} to memref<1024xi1>
// CHECK-DAG: memref.view {{.*}} to memref<1024xi8>
// CHECK-DAG: memref.view {{.*}} to memref<4xvector<3xf32>>
// CHECK-DAG: memref.view {{.*}} to memref<16xi4>
// expected-remark @+1 {{memplan: @sub_byte_and_padded: packed 4 allocations (2128 bytes) into one arena of 2128 bytes (lower bound 2128 bytes, greedy-by-size)}}
func.func @sub_byte_and_padded(%out: memref<1024xi8>) {
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  %b = arith.constant 7 : i8
  %n = arith.constant 3 : i4
  %v = arith.constant dense<1.0> : vector<3xf32>
  %mask = memref.alloc() : memref<1024xi1>
  %bytes = memref.alloc() : memref<1024xi8>
  %vecs = memref.alloc() : memref<4xvector<3xf32>>
  %nibbles = memref.alloc() : memref<16xi4>
  linalg.fill ins(%t : i1) outs(%mask : memref<1024xi1>)
  linalg.fill ins(%b : i8) outs(%bytes : memref<1024xi8>)
  linalg.fill ins(%v : vector<3xf32>) outs(%vecs : memref<4xvector<3xf32>>)
  linalg.fill ins(%n : i4) outs(%nibbles : memref<16xi4>)
  %m = memref.load %mask[%c0] : memref<1024xi1>
  %w = memref.load %vecs[%c0] : memref<4xvector<3xf32>>
  %x = memref.load %nibbles[%c0] : memref<16xi4>
  memref.copy %bytes, %out : memref<1024xi8> to memref<1024xi8>
  return
}

// -----

// index and complex elements; a `?` dimension whose size is a constant is
// planned as static (the view keeps the size operand).
// CHECK-LABEL: func.func @index_complex_constant_dims
// CHECK: memref.alloc() {alignment = 8 : i64, memplan.arena} : memref<160xi8>
// CHECK-DAG: memref.view {{.*}}[%{{.*}}] : memref<160xi8> to memref<?x2xindex>
// CHECK-DAG: memref.view {{.*}}[] : memref<160xi8> to memref<12xcomplex<f32>>
// expected-remark @+1 {{memplan: @index_complex_constant_dims: packed 2 allocations (160 bytes) into one arena of 160 bytes}}
func.func @index_complex_constant_dims(%out: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %i = memref.alloc(%c4) : memref<?x2xindex>
  %z = memref.alloc() : memref<12xcomplex<f32>>
  %e = memref.load %i[%c0, %c0] : memref<?x2xindex>
  %f = memref.load %z[%c0] : memref<12xcomplex<f32>>
  // %i is read again after %z's first use: both live at once.
  %g = memref.load %i[%c0, %c0] : memref<?x2xindex>
  memref.store %g, %out[%c0] : memref<2xindex>
  return
}
