// --plan-offsets and --memplan-verify-plan also run on one function, where a
// pipeline nests them: MLIR's pass manager then schedules the functions (in
// parallel where it may use threads). The plans, remarks and verification
// are those of the plain flags on the whole module.

// RUN: memplan-opt %s --plan-offsets --memplan-verify-plan > %t.module 2>&1
// RUN: memplan-opt %s --pass-pipeline='builtin.module(func.func(plan-offsets, memplan-verify-plan))' > %t.function 2>&1
// RUN: memplan-opt %s --pass-pipeline='builtin.module(func.func(plan-offsets, memplan-verify-plan))' --mlir-disable-threading > %t.one 2>&1
// RUN: diff %t.module %t.function
// RUN: diff %t.module %t.one
// RUN: FileCheck %s < %t.function
// CHECK: remark: memplan: @a: arena 1024 bytes
// CHECK: remark: memplan: @b: arena 0 bytes
// CHECK: func.func @a({{.*}} attributes {memplan.alignment = 256 : i64, memplan.arena_size = 1024 : i64
// CHECK: func.func @b({{.*}} attributes {memplan.alignment = 256 : i64, memplan.arena_size = 0 : i64

// `any(...)` schedules them on every function of the module too.
// RUN: memplan-opt %s --pass-pipeline='builtin.module(any(plan-offsets))' > %t.any 2>&1
// RUN: diff %t.module %t.any

// The JSON report and the SVG pictures cover a whole module: asked of the
// per-function pass, they are refused (every instance would write the same
// file), and nothing is written.
// RUN: rm -f %t.json
// RUN: not memplan-opt %s --pass-pipeline='builtin.module(func.func(plan-offsets{report=%t.json}))' 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not test -e %t.json
// REPORT: error: --plan-offsets writes report= and svg= files for a whole module: run it on the builtin.module, not on each function

func.func @a(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  %1 = memplan.relu %0 : tensor<256xf32>
  %2 = memplan.add %0, %1 : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %2 : tensor<256xf32>
}
func.func @b(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.relu %x : tensor<256xf32>
  return %0 : tensor<256xf32>
}
func.func private @declared(tensor<4xf32>) -> tensor<4xf32>
