// RUN: memplan-opt %s --memplan-pack-allocs --memplan-verify-packing -verify-diagnostics | FileCheck %s

// One arena per memory space, in that space, each with its own size and
// peak in a remark. (memplan once viewed buffers of memory space 1 out of a
// default-space arena, which memref.view rejects: the pass failed.)

// CHECK-LABEL: func.func @spaces
// CHECK-DAG: %[[GLOBAL:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<128xi8>
// CHECK-DAG: %[[ONE:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<2048xi8, 1>
// CHECK-DAG: %[[SHARED:.*]] = memref.alloc() {alignment = 64 : i64, memplan.arena} : memref<512xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[ONE]][%{{.*}}][] : memref<2048xi8, 1> to memref<256xf32, 1>
// CHECK-DAG: memref.view %[[SHARED]][%{{.*}}][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[GLOBAL]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// expected-remark @+3 {{memplan: @spaces: packed 2 allocations (128 bytes) into one arena of 128 bytes}}
// expected-remark @+2 {{memplan: @spaces: packed 3 allocations (3072 bytes) of memory space 1 into one arena of 2048 bytes (lower bound 2048 bytes, greedy-by-size); function peak 2048 bytes, 2048 bytes with every buffer freed at its last use}}
// expected-remark @+1 {{memplan: @spaces: packed 2 allocations (512 bytes) of memory space #gpu.address_space<workgroup> into one arena of 512 bytes}}
func.func @spaces(%x: memref<256xf32, 1>, %y: memref<16xf32>) {
  %a = memref.alloc() : memref<256xf32, 1>
  memref.copy %x, %a : memref<256xf32, 1> to memref<256xf32, 1>
  %b = memref.alloc() : memref<256xf32, 1>
  memref.copy %a, %b : memref<256xf32, 1> to memref<256xf32, 1>
  %c = memref.alloc() : memref<256xf32, 1>
  memref.copy %b, %c : memref<256xf32, 1> to memref<256xf32, 1>
  memref.copy %c, %x : memref<256xf32, 1> to memref<256xf32, 1>
  %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.copy %s, %t : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
  %g = memref.alloc() : memref<16xf32>
  %h = memref.alloc() : memref<16xf32>
  memref.copy %y, %g : memref<16xf32> to memref<16xf32>
  memref.copy %g, %h : memref<16xf32> to memref<16xf32>
  memref.copy %h, %y : memref<16xf32> to memref<16xf32>
  return
}
