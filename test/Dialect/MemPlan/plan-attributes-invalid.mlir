// RUN: memplan-opt %s -split-input-file -verify-diagnostics

// The dialect verifies the plan attributes wherever they appear.

func.func @offsets_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.offsets' has 2 entries for 1 results}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: 0, 16>} : tensor<4xf32>
  return
}

// -----

func.func @offsets_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.offsets' must be an array<i64> of offsets}}
  %0 = memplan.gelu %x {memplan.offsets = [0]} : tensor<4xf32>
  return
}

// -----

func.func @offsets_negative(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.offsets' has offset -2; offsets are >= 0, or -1 for results outside the arena}}
  %0 = memplan.gelu %x {memplan.offsets = array<i64: -2>} : tensor<4xf32>
  return
}

// -----

func.func @destinations_not_array(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.destinations' must be an array<i64> of result indices}}
  %0 = memplan.gelu %x {memplan.destinations = 0 : i64} : tensor<4xf32>
  return
}

// -----

func.func @destinations_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.destinations' has 2 entries for 1 results}}
  %0 = memplan.gelu %x {memplan.destinations = array<i64: 0, 0>} : tensor<4xf32>
  return
}

// -----

func.func @destinations_negative(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.destinations' has -2; entries are the index of a function result, or -1 for values not in a caller's result buffer}}
  %0 = memplan.gelu %x {memplan.destinations = array<i64: -2>} : tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{'memplan.arena_size' must be a non-negative i64 integer, got -1 : i64}}
func.func @arena_negative() attributes {memplan.arena_size = -1 : i64} {
  return
}

// -----

// expected-error @+1 {{'memplan.unscheduled_lower_bound' must be a non-negative i64 integer, got "big"}}
func.func @unscheduled_bound_not_bytes() attributes {memplan.unscheduled_lower_bound = "big"} {
  return
}

// -----

// expected-error @+1 {{'memplan.alignment' must be a power of two, got 24}}
func.func @alignment() attributes {memplan.alignment = 24 : i64} {
  return
}

// -----

// expected-error @+1 {{unknown memplan attribute 'memplan.offset'}}
func.func @typo() attributes {memplan.offset = 0 : i64} {
  return
}

// -----

// Roles are enum attributes: a string (the old spelling) is refused, and a
// misspelt role does not parse.
// expected-error @+1 {{'memplan.role' of argument #0 is "weight"; roles are #memplan.role<weight>, <quantization_scale>, <input>, <kv_cache>, <optimizer_state>, <master_weight>, <gradient_accumulator> and <communication_buffer>}}
func.func @role(%x: tensor<4xf32> {memplan.role = "weight"}) {
  return
}

// -----

// expected-error @+1 {{'memplan.name' of argument #0 must be a string}}
func.func @name(%x: tensor<4xf32> {memplan.name = 3 : i64}) {
  return
}

// -----

func.func @result_roles(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.result_roles' has "gradient"; result roles are #memplan.result_role<activation>, <gradient>, <loss> and <gathered>}}
  %0 = memplan.gelu %x {memplan.result_roles = ["gradient"]} : tensor<4xf32>
  return
}

// -----

func.func @result_roles_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'memplan.result_roles' must be an array of one role per result}}
  %0 = memplan.gelu %x {memplan.result_roles = [#memplan.result_role<gradient>, #memplan.result_role<loss>]} : tensor<4xf32>
  return
}

// -----

func.func @arena_value() {
  // expected-error @+1 {{'memplan.arena' takes no value}}
  %a = memref.alloc() {memplan.arena = 1 : i64} : memref<64xi8>
  return
}

// -----

// expected-error @+1 {{'memplan.arena_alignment' of argument #0 must be a power of two}}
func.func @arena_alignment(%a: memref<64xi8> {memplan.arena, memplan.arena_alignment = 48 : i64}) {
  return
}

// -----

// expected-error @+2 {{expected ::memplan::ArgumentRole to be one of: weight, quantization_scale, input, kv_cache, optimizer_state, master_weight}}
// expected-error @+1 {{failed to parse MemPlan_ArgumentRoleAttr parameter 'value'}}
func.func @role_misspelt(%x: tensor<4xf32> {memplan.role = #memplan.role<weights>}) {
  return
}

// -----

// A lower bound is the most bytes live at once: no arena is smaller.
// expected-error @+1 {{'memplan.lower_bound' (4096) exceeds 'memplan.arena_size' (1024): no arena is below its lower bound}}
func.func @bound_above_arena() attributes {memplan.arena_size = 1024 : i64, memplan.lower_bound = 4096 : i64} {
  return
}

// -----

// Every role round-trips.
func.func @roles(%w: tensor<4xf32> {memplan.role = #memplan.role<weight>},
                 %s: tensor<4xf32> {memplan.role = #memplan.role<quantization_scale>},
                 %i: tensor<4xf32> {memplan.role = #memplan.role<input>},
                 %k: tensor<4xf32> {memplan.role = #memplan.role<kv_cache>},
                 %o: tensor<4xf32> {memplan.role = #memplan.role<optimizer_state>},
                 %m: tensor<4xf32> {memplan.role = #memplan.role<master_weight>}) {
  %0 = memplan.gelu %w {memplan.result_roles = [#memplan.result_role<activation>]} : tensor<4xf32>
  %1 = memplan.gelu %w {memplan.result_roles = [#memplan.result_role<gradient>]} : tensor<4xf32>
  %2 = memplan.gelu %w {memplan.result_roles = [#memplan.result_role<loss>]} : tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{'memplan.host' of argument #0 takes no value}}
func.func @host_value(%x: tensor<4xf32> {memplan.host = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{'memplan.created_in_first_step' of argument #0 takes no value}}
func.func @created_in_first_step_value(%m: tensor<4xf32> {memplan.created_in_first_step = true}) {
  return
}
