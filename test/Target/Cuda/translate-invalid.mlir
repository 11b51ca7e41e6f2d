// RUN: memplan-translate --memplan-to-cuda %s -split-input-file -verify-diagnostics

// The translator reads a plan and never plans: every fault is an error, and
// nothing is written (translate-no-output.test).

// expected-error @+1 {{function has no 'memplan.arena_size': it is not planned (run --plan-offsets first)}}
func.func @unplanned(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// A hand-edited plan that puts two live tensors in the same memory.
func.func @conflict(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  // expected-error @+1 {{memory conflict: %1 at arena bytes [0, 1024) overlaps %0 at [0, 1024) while both are live, at op #1}}
  %1 = memplan.transpose %x permutation = [0] {memplan.offsets = array<i64: 0>} : tensor<256xf32> -> tensor<256xf32>
  %2 = memplan.add %0, %1 {memplan.offsets = array<i64: 0>} : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %2 : tensor<256xf32>
}

// -----

func.func @generic(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-error @+1 {{'memplan.op' has no CUDA lowering ("adamw": the generic op carries sizes only)}}
  %0 = memplan.op "adamw"(%x) {memplan.offsets = array<i64: 0>} : (tensor<256xf32>) -> tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

func.func @quantized(%x: tensor<4x64xf16>, %w: tensor<64x8xi8>) -> tensor<4x8xf16>
    attributes {memplan.arena_size = 64 : i64} {
  // expected-error @+1 {{the CUDA lowering runs matmuls on float operands of one type; quantized and integer matmuls have no lowering yet}}
  %0 = memplan.matmul %x, %w {memplan.offsets = array<i64: 0>} : tensor<4x64xf16>, tensor<64x8xi8> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @i4(%x: tensor<8xi4>) -> tensor<8xf16>
    attributes {memplan.arena_size = 16 : i64} {
  // expected-error @+1 {{element type 'i4' has no lowering to the memplan runtime}}
  %0 = memplan.cast %x {memplan.offsets = array<i64: 0>} : tensor<8xi4> -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{argument #1 of type 'f32' has no lowering: arguments are tensors or index}}
func.func @scalar_argument(%x: tensor<256xf32>, %s: f32) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  return %0 : tensor<256xf32>
}
