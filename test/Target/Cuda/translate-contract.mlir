// RUN: memplan-translate --memplan-to-cuda %s -split-input-file -verify-diagnostics

// The translator's own contract (lib/Target/Cuda/PlanContract.cpp), checked
// apart from the planner's validator: each plan below is tampered with in a
// way that would make the generated code read or write the wrong memory, and
// each is rejected at the value at fault, with no output (see
// translate-no-output.test). The last case is a plan it accepts.

// A view of a caller's argument given an arena offset: the code would read
// uninitialised arena bytes, or beyond the arena.
func.func @view_of_argument(%x: tensor<16x16xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-error @+1 {{%0 is a view of %arg0, whose memory is the caller's argument #0, but the plan gives it arena offset 0}}
  %0 = memplan.reshape %x {memplan.offsets = array<i64: 0>} : tensor<16x16xf32> -> tensor<256xf32>
  %1 = memplan.gelu %0 {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  return %1 : tensor<256xf32>
}

// -----

// A KV-cache update of a caller's cache given an arena offset.
func.func @cache_update_offset(%c: tensor<1x2x8x4xf32>, %u: tensor<1x2x1x4xf32>, %p: index) -> tensor<1x2x8x4xf32>
    attributes {memplan.arena_size = 256 : i64} {
  // expected-error @+1 {{%0 is a view of %arg0, whose memory is the caller's argument #0, but the plan gives it arena offset 0}}
  %0 = memplan.kv_cache_update %c, %u, %p {memplan.offsets = array<i64: 0>} : tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>
  return %0 : tensor<1x2x8x4xf32>
}

// -----

// A view whose offset is not its source's.
func.func @view_elsewhere(%x: tensor<16x16xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 2048 : i64} {
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<16x16xf32>
  // expected-error @+1 {{%1 is a view of %0, whose memory is arena offset 0, but the plan gives it arena offset 1024}}
  %1 = memplan.reshape %0 {memplan.offsets = array<i64: 1024>} : tensor<16x16xf32> -> tensor<256xf32>
  return %1 : tensor<256xf32>
}

// -----

// alignment = 1 does not make an f32 at byte 3 valid on a GPU.
func.func @misaligned(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1027 : i64, memplan.alignment = 1 : i64} {
  // expected-error @+1 {{%0 at arena offset 3 is not aligned to the 4 bytes its elements need on the device}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 3>} : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// Nor does a plan without memplan.alignment.
func.func @misaligned_f16(%x: tensor<8xf16>) -> tensor<8xf16>
    attributes {memplan.arena_size = 17 : i64} {
  // expected-error @+1 {{%0 at arena offset 1 is not aligned to the 2 bytes its elements need on the device}}
  %0 = memplan.silu %x {memplan.offsets = array<i64: 1>} : tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// cuBLAS takes a workspace aligned to 256 bytes.
func.func @misaligned_workspace(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32>
    attributes {memplan.arena_size = 16448 : i64} {
  // expected-error @+1 {{the scratch of 'memplan.matmul' at arena offset 64 is not aligned to the 256 bytes its scratch need on the device}}
  %0 = memplan.matmul %a, %b {memplan.offsets = array<i64: 0>, memplan.scratch_offset = 64 : i64, workspace_bytes = 16384 : i64} : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// An offset past the arena.
func.func @out_of_bounds(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-error @+1 {{%0 at bytes [512, 1536) is outside the arena of 1024 bytes}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 512>} : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// Scratch past the arena.
func.func @scratch_out_of_bounds(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32>
    attributes {memplan.arena_size = 16384 : i64} {
  // expected-error @+1 {{the scratch of 'memplan.matmul' at bytes [256, 16640) is outside the arena of 16384 bytes}}
  %0 = memplan.matmul %a, %b {memplan.offsets = array<i64: 0>, memplan.scratch_offset = 256 : i64, workspace_bytes = 16384 : i64} : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Scratch over a live operand.
func.func @scratch_over_operand(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32>
    attributes {memplan.arena_size = 16640 : i64} {
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.gelu %a {memplan.offsets = array<i64: 0>} : tensor<4x8xf32>
  // expected-error @+1 {{memory conflict: the scratch of 'memplan.matmul' at arena bytes [0, 16384) overlaps %0 at [0, 128) while both are live, at op #1}}
  %1 = memplan.matmul %0, %b {memplan.offsets = array<i64: 16384>, memplan.scratch_offset = 0 : i64, workspace_bytes = 16384 : i64} : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// A matmul result over its dying operand: matmul has no in-place operand.
func.func @not_in_place(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32>
    attributes {memplan.arena_size = 64 : i64} {
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.gelu %a {memplan.offsets = array<i64: 0>} : tensor<4x4xf32>
  // expected-error @+1 {{memory conflict: %1 at arena bytes [0, 64) overlaps %0 at [0, 64) while both are live, at op #1}}
  %1 = memplan.matmul %0, %b {memplan.offsets = array<i64: 0>} : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// "In place", but shifted: elementwise kernels read and write the same
// element, so a result may only start where its dying operand starts.
func.func @shifted_in_place(%x: tensor<64xf32>) -> tensor<64xf32>
    attributes {memplan.arena_size = 384 : i64} {
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<64xf32>
  // expected-error @+1 {{memory conflict: %1 at arena bytes [128, 384) overlaps %0 at [0, 256) while both are live, at op #1}}
  %1 = memplan.silu %0 {memplan.offsets = array<i64: 128>} : tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// A KV-cache update over an intermediate whose old value is read afterwards.
func.func @read_after_update(%c: tensor<1x2x8x4xf32>, %u: tensor<1x2x1x4xf32>, %p: index) -> tensor<1x2x8x4xf32>
    attributes {memplan.arena_size = 512 : i64} {
  %0 = memplan.gelu %c {memplan.offsets = array<i64: 0>} : tensor<1x2x8x4xf32>
  // expected-note @+1 {{the write in place is here; the op has value semantics, so a later reader of the old value needs a copy made before it}}
  %1 = memplan.kv_cache_update %0, %u, %p {memplan.offsets = array<i64: 0>} : tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>
  // expected-error @+1 {{reads %0 after 'memplan.kv_cache_update' wrote %1 into its memory}}
  %2 = memplan.add %1, %0 {memplan.offsets = array<i64: 256>} : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %2 : tensor<1x2x8x4xf32>
}

// -----

// The same over the caller's cache: returning the old cache after the update.
func.func @argument_read_after_update(%c: tensor<1x2x8x4xf32>, %u: tensor<1x2x1x4xf32>, %p: index) -> (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>)
    attributes {memplan.arena_size = 0 : i64} {
  // expected-note @+1 {{the write in place is here}}
  %0 = memplan.kv_cache_update %c, %u, %p : tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>
  // expected-error @+1 {{reads %arg0 after 'memplan.kv_cache_update' wrote %0 into its memory}}
  return %0, %c : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
}

// -----

func.func @two_places(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 1024 : i64} {
  // expected-error @+1 {{%0 has both arena offset 0 and result destination #0; a value has one place}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>, memplan.destinations = array<i64: 0>} : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

func.func @no_such_result(%x: tensor<256xf32>) -> tensor<256xf32>
    attributes {memplan.arena_size = 0 : i64} {
  // expected-error @+1 {{%0 has result destination #1, but the function has 1 results}}
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 1>} : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// A value larger than the caller's result buffer it is placed in.
func.func @destination_too_small(%x: tensor<256xf32>) -> tensor<64xf32>
    attributes {memplan.arena_size = 0 : i64} {
  // expected-error @+1 {{%0 at bytes [0, 1024) is outside the caller's result #0 of 256 bytes}}
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 0>} : tensor<256xf32>
  %1 = memplan.slice %0 offsets = [0] sizes = [64] {memplan.destinations = array<i64: 0>} : tensor<256xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// Two values live at once in one caller's buffer.
func.func @destination_conflict(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>)
    attributes {memplan.arena_size = 0 : i64} {
  // expected-note @+1 {{%0 is defined here}}
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 0>} : tensor<256xf32>
  // expected-error @+1 {{memory conflict: %1 at result buffer bytes [0, 1024) overlaps %0 at [0, 1024) while both are live, at op #1 (in the caller's result #0)}}
  %1 = memplan.silu %x {memplan.destinations = array<i64: 0>} : tensor<256xf32>
  return %0, %1 : tensor<256xf32>, tensor<256xf32>
}

// -----

// A result copied at the end from another result's buffer, which by then
// holds another value.
func.func @returned_from_other_buffer(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>)
    attributes {memplan.arena_size = 1024 : i64} {
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 1>} : tensor<256xf32>
  %1 = memplan.silu %0 {memplan.offsets = array<i64: 0>} : tensor<256xf32>
  // expected-error @+1 {{returns %0 as result #0 from the caller's result #1 buffer, which holds another value at the end}}
  return %0, %1 : tensor<256xf32>, tensor<256xf32>
}

// -----

// Accepted: in place over a dying operand, a KV-cache update over an
// intermediate nothing reads afterwards, a result computed in the caller's
// buffer, and a view of it returned too (copied at the end).
func.func @accepted(%x: tensor<1x2x8x4xf32>, %u: tensor<1x2x1x4xf32>, %p: index) -> (tensor<1x2x8x4xf32>, tensor<64xf32>)
    attributes {memplan.arena_size = 256 : i64} {
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0>} : tensor<1x2x8x4xf32>
  %1 = memplan.silu %0 {memplan.offsets = array<i64: 0>} : tensor<1x2x8x4xf32>
  %2 = memplan.kv_cache_update %1, %u, %p {memplan.offsets = array<i64: 0>} : tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>
  %3 = memplan.relu %2 {memplan.destinations = array<i64: 0>} : tensor<1x2x8x4xf32>
  %4 = memplan.reshape %3 {memplan.destinations = array<i64: 0>} : tensor<1x2x8x4xf32> -> tensor<64xf32>
  return %3, %4 : tensor<1x2x8x4xf32>, tensor<64xf32>
}
