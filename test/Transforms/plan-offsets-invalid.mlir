// RUN: memplan-opt %s --plan-offsets -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Inputs a static planner cannot plan: each gets one error at the value.

func.func @dynamic_result(%n: index) {
  // expected-error @+1 {{result #0 of type 'tensor<?x4xf32>' has a dynamic shape; memplan plans statically shaped tensors of sized element types only}}
  %0 = tensor.empty(%n) : tensor<?x4xf32>
  return
}

// -----

// expected-error @+1 {{argument #0 of type 'tensor<?xf32>' has a dynamic shape}}
func.func @dynamic_argument(%x: tensor<?xf32>) {
  return
}

// -----

func.func @unranked(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #1 of type 'tensor<*xf32>' has a dynamic shape}}
  %0:2 = memplan.op "unranked"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<*xf32>)
  return
}

// -----

func.func @unsized_element(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 of type 'tensor<4x!foo.bar>' has an element type without a size}}
  %0 = memplan.op "opaque"(%x) : (tensor<4xf32>) -> tensor<4x!foo.bar>
  return
}

// -----

func.func @overflow() {
  // 2^62 x 8 x 4 bytes = 2^67 bytes.
  // expected-error @+1 {{result #0 of type 'tensor<4611686018427387904x8xf32>' has a byte size that overflows 64 bits}}
  %0 = memplan.op "huge"() : () -> tensor<4611686018427387904x8xf32>
  return
}

// -----

func.func @scratch_overflow(%q: tensor<2147483648x2147483648x1x1xf16>) {
  // The result fits (2^63 bytes); the attention's scratch (8 bytes per
  // query row) does not.
  // expected-error @+1 {{scratch byte size overflows 64 bits}}
  %0 = memplan.attention %q, %q, %q : tensor<2147483648x2147483648x1x1xf16>, tensor<2147483648x2147483648x1x1xf16>, tensor<2147483648x2147483648x1x1xf16> -> tensor<2147483648x2147483648x1x1xf16>
  return
}

// -----

// Two tensors of 2^62 bytes live at once: each fits, their arena does not
// fit in the i64 attributes of the plan.
// expected-error @+1 {{cannot plan this function: the arena of 9223372036854775808 bytes exceeds 2^63 - 1 bytes}}
func.func @arena_too_large() {
  %0 = memplan.op "a"() : () -> tensor<4611686018427387904xi8>
  %1 = memplan.op "b"() : () -> tensor<4611686018427387904xi8>
  "foo.use"(%0, %1) : (tensor<4611686018427387904xi8>, tensor<4611686018427387904xi8>) -> ()
  return
}

// -----

// Three tensors of 2^62 bytes and more: the arena overflows 64 bits.
// expected-error @+1 {{cannot plan this function: the arena would exceed 2^64 bytes}}
func.func @arena_overflow() {
  %0 = memplan.op "a"() : () -> tensor<6917529027641081856xi8>
  %1 = memplan.op "b"() : () -> tensor<6917529027641081856xi8>
  %2 = memplan.op "c"() : () -> tensor<6917529027641081856xi8>
  "foo.use"(%0, %1, %2) : (tensor<6917529027641081856xi8>, tensor<6917529027641081856xi8>, tensor<6917529027641081856xi8>) -> ()
  return
}

// -----

// expected-error @+1 {{memplan plans function bodies of one block; this one has 2 blocks}}
func.func @two_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  "foo.br"()[^next] : () -> ()
^next:
  return %x : tensor<4xf32>
}

// -----

// A KV-cache update writes into its operand's memory; reading the old value
// afterwards would read the new one. Refused, not planned.
func.func @read_after_update(%c: tensor<1x2x8x4xf32>, %u: tensor<1x2x1x4xf32>, %p: index) -> tensor<1x2x8x4xf32> {
  %0 = memplan.gelu %c : tensor<1x2x8x4xf32>
  // expected-note @+1 {{the write in place; to keep the old value, copy it before}}
  %1 = memplan.kv_cache_update %0, %u, %p : tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>
  // expected-error @+1 {{reads a value that 'memplan.kv_cache_update' has already overwritten in place (it writes its result into the memory of that operand)}}
  %2 = memplan.add %1, %0 : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %2 : tensor<1x2x8x4xf32>
}

// -----

// The same on the caller's cache, returned after its update.
func.func @argument_read_after_update(%c: tensor<1x2x8x4xf32>, %u: tensor<1x2x1x4xf32>, %p: index) -> (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) {
  // expected-note @+1 {{the write in place}}
  %0 = memplan.kv_cache_update %c, %u, %p : tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>
  // expected-error @+1 {{reads a value that 'memplan.kv_cache_update' has already overwritten in place}}
  return %0, %c : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
}
