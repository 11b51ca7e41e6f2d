// RUN: memplan-opt %s --memplan-verify-plan -split-input-file -verify-diagnostics

// Plans that are wrong: the first fault is an error naming the values.

func.func @overlap(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1536 : i64} {
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  // expected-error @+1 {{memory conflict: %1 at bytes [512, 1536) overlaps %0 at bytes [0, 1024), and both are live during [1, 3)}}
  %1 = memplan.transpose %x permutation = [0] {memplan.offsets = array<i64: 512>} : tensor<256xf32> -> tensor<256xf32>
  %2 = memplan.add %0, %1 {memplan.offsets = array<i64: 0>} : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %2 : tensor<256xf32>
}

// -----

// Same offset, but %0 is still used after the relu: not in place, a conflict.
func.func @not_in_place(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  // expected-error @+1 {{memory conflict: %1 at bytes [0, 1024) overlaps %0 at bytes [0, 1024), and both are live during [1, 3)}}
  %1 = memplan.relu %0 {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  %2 = memplan.add %0, %1 {memplan.offsets = array<i64: 0>} : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %2 : tensor<256xf32>
}

// -----

// A transpose moves elements: it may not overwrite its input in place.
func.func @transpose_not_in_place(%x: tensor<16x16xf32>) -> tensor<16x16xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<16x16xf32>
  // expected-error @+1 {{memory conflict: %1 at bytes [0, 1024) overlaps %0 at bytes [0, 1024), and both are live during [1, 2)}}
  %1 = memplan.transpose %0 permutation = [1, 0] {memplan.offsets = array<i64: 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}

// -----

func.func @scratch_overlap(%q: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-error @+2 {{memory conflict: the scratch of 'memplan.attention' at bytes [896, 1024) overlaps %0 at bytes [0, 1024), and both are live during [0, 1)}}
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.attention %q, %q, %q {memplan.offsets = array<i64: 0>, memplan.scratch_offset = 896 : i64} : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %0 : tensor<1x2x8x16xf32>
}

// -----

func.func @wrong_arena(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 4096 : i64} {
  // expected-error @-2 {{invalid plan: the arena size is 4096 but the buffers end at 1024}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

func.func @misaligned(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1152 : i64, memplan.alignment = 256 : i64} {
  // expected-error @+1 {{%0 at offset 128 is not aligned to 256 bytes}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 128>} : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

func.func @missing_offset(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-error @+1 {{%0 needs 1024 bytes in the arena but has no offset in 'memplan.offsets'}}
  %0 = memplan.gelu %x : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

func.func @view_elsewhere(%x: tensor<256xf32>) -> tensor<16x16xf32>
    attributes {memplan.arena_size = 2048 : i64} {
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  // expected-error @+1 {{%1 shares the buffer of %0 (a view) and must be at its offset 0, not 1024}}
  %1 = memplan.reshape %0 {memplan.offsets = array<i64: 1024>} : tensor<256xf32> -> tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}

// -----

func.func @missing_scratch(%q: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-error @+1 {{needs 128 scratch bytes but has no 'memplan.scratch_offset'}}
  %0 = memplan.attention %q, %q, %q {memplan.offsets = array<i64: 0>} : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %0 : tensor<1x2x8x16xf32>
}

// -----

// expected-error @+1 {{function has no 'memplan.arena_size': it is not planned (run --plan-offsets first)}}
func.func @unplanned(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// A destination on a value that is not the one returned there.
func.func @destination_not_returned(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-error @+1 {{%0 has result destination #0, but its buffer is not the one returned as that result}}
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 0>} : tensor<256xf32>
  %1 = memplan.relu %x {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  %2 = memplan.add %0, %1 {memplan.offsets = array<i64: 0>} : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %2 : tensor<256xf32>
}

// -----

// A value in place over one in the caller's buffer that records an offset.
func.func @destination_and_offset(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 0>} : tensor<256xf32>
  // expected-error @+1 {{%1 shares the caller's buffer of result #0 with %0 and must have that destination and no arena offset}}
  %1 = memplan.relu %0 {memplan.destinations = array<i64: 0>, memplan.offsets = array<i64: 0>} : tensor<256xf32>
  return %1 : tensor<256xf32>
}
