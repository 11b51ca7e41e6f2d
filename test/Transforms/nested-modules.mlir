// Every pass visits the functions of nested modules as well as the top
// module's (they were once never visited), and functions are planned and
// checked in parallel where MLIR may use threads, with diagnostics in the
// functions' order: the output is the same with one thread.

// RUN: memplan-opt %s --plan-offsets=results-in-caller-buffers=false --memplan-verify-plan --memplan-memory-report 2>&1 | FileCheck %s
// RUN: memplan-opt %s --plan-offsets=results-in-caller-buffers=false --memplan-verify-plan --memplan-memory-report > %t.threads 2>&1
// RUN: memplan-opt %s --plan-offsets=results-in-caller-buffers=false --memplan-verify-plan --memplan-memory-report --mlir-disable-threading > %t.one 2>&1
// RUN: diff %t.threads %t.one

// Placements are those of the arena alone (results-in-caller-buffers=false).
// The remarks, in program order.
// CHECK: remark: memplan: @a: arena 2048 bytes
// CHECK: remark: memplan: @b: arena 1024 bytes
// CHECK: remark: memplan: @c: arena 3072 bytes
// CHECK: remark: memplan: @d: arena 1024 bytes
// CHECK: remark: memplan: @e: arena 2048 bytes
// CHECK: remark: memplan: @inner_f: arena 1024 bytes
// CHECK: remark: memplan: @deep_g: arena 2048 bytes
// The memory report covers each planned function, in the same order.
// CHECK: memory of @a
// CHECK: memory of @b
// CHECK: memory of @c
// CHECK: memory of @d
// CHECK: memory of @e
// CHECK: memory of @inner_f
// CHECK: memory of @deep_g
// The plan is written in the nested modules too.
// CHECK-LABEL: module @inner
// CHECK: func.func @inner_f({{.*}} attributes {memplan.alignment = 256 : i64, memplan.arena_size = 1024 : i64
// CHECK-LABEL: module @deep
// CHECK: func.func @deep_g({{.*}} attributes {memplan.alignment = 256 : i64, memplan.arena_size = 2048 : i64

// A plan broken in a nested module is found there.
// RUN: memplan-opt %s --plan-offsets=results-in-caller-buffers=false -o %t.planned.mlir 2>/dev/null
// RUN: sed -e '/func.func @deep_g/ s/memplan.arena_size = 2048 : i64, memplan.lower_bound = 2048/memplan.arena_size = 1024 : i64, memplan.lower_bound = 1024/' %t.planned.mlir > %t.broken.mlir
// RUN: not memplan-opt %t.broken.mlir --memplan-verify-plan 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: error: invalid plan: the arena size is 1024 but the buffers end at 2048
// BROKEN-NEXT: func.func @deep_g
// BROKEN-NOT: error

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
func.func @c(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  %1 = memplan.relu %x : tensor<256xf32>
  %2 = memplan.silu %x : tensor<256xf32>
  %3 = memplan.add %0, %1 : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  %4 = memplan.add %3, %2 : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %4 : tensor<256xf32>
}
func.func @d(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.silu %x : tensor<256xf32>
  return %0 : tensor<256xf32>
}
func.func @e(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = memplan.gelu %x : tensor<256xf32>
  %1 = memplan.relu %0 : tensor<256xf32>
  %2 = memplan.add %0, %1 : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  return %2 : tensor<256xf32>
}
module @inner {
  func.func @inner_f(%x: tensor<256xf32>) -> tensor<256xf32> {
    %0 = memplan.gelu %x : tensor<256xf32>
    return %0 : tensor<256xf32>
  }
  module @deep {
    func.func @deep_g(%x: tensor<256xf32>) -> tensor<256xf32> {
      %0 = memplan.gelu %x : tensor<256xf32>
      %1 = memplan.relu %0 : tensor<256xf32>
      %2 = memplan.add %0, %1 : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
      return %2 : tensor<256xf32>
    }
  }
}
