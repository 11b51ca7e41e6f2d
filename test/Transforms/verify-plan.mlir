// RUN: memplan-opt %s --memplan-verify-plan -split-input-file | FileCheck %s
// The pass changes nothing: its output is the input, printed.
// RUN: memplan-opt %s -split-input-file > %t.input.mlir
// RUN: memplan-opt %s --memplan-verify-plan -split-input-file > %t.verified.mlir
// RUN: diff %t.input.mlir %t.verified.mlir

// Plans written by hand, valid: the pass accepts them and changes nothing.

// Reuse across the half-open boundary: %0 dies at the relu, which may take
// its memory.
// CHECK-LABEL: func.func @hand_written
// CHECK: memplan.gelu {{.*}}array<i64: 0>
// CHECK: memplan.relu {{.*}}array<i64: 1024>
// CHECK: memplan.silu {{.*}}array<i64: 0>
func.func @hand_written(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 2048 : i64} {
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  %1 = memplan.relu %0 {memplan.offsets = array<i64: 1024>} : tensor<256xf32>
  %2 = memplan.silu %1 {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  return %2 : tensor<256xf32>
}

// -----

// In place: %1 at %0's offset is allowed, since %0 dies at the relu and relu
// may overwrite its input. A view sits at its source's offset.
// CHECK-LABEL: func.func @in_place_and_views
// CHECK-SAME: memplan.alignment = 256 : i64, memplan.arena_size = 1024 : i64
// CHECK: memplan.gelu {{.*}}array<i64: 0>
// CHECK: memplan.relu {{.*}}array<i64: 0>
// CHECK: memplan.reshape {{.*}}array<i64: 0>
func.func @in_place_and_views(%x: tensor<256xf32>) -> tensor<16x16xf32>
    attributes {memplan.arena_size = 1024 : i64, memplan.alignment = 256 : i64} {
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  %1 = memplan.relu %0 {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  %2 = memplan.reshape %1 {memplan.offsets = array<i64: 0>} : tensor<256xf32> -> tensor<16x16xf32>
  return %2 : tensor<16x16xf32>
}

// -----

// Scratch memory checked like any buffer.
// CHECK-LABEL: func.func @scratch
// CHECK-SAME: memplan.arena_size = 1152 : i64
// CHECK: memplan.attention {{.*}}{memplan.offsets = array<i64: 0>, memplan.scratch_offset = 1024 : i64}
func.func @scratch(%q: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
    attributes {memplan.arena_size = 1152 : i64} {
  %0 = memplan.attention %q, %q, %q {memplan.offsets = array<i64: 0>, memplan.scratch_offset = 1024 : i64} : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %0 : tensor<1x2x8x16xf32>
}
