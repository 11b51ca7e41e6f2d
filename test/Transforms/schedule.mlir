// RUN: memplan-opt %s --split-input-file --memplan-schedule 2>/dev/null | FileCheck %s
// RUN: memplan-opt %s --split-input-file --memplan-schedule -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Two independent chains, each a 32 KiB buffer read by a small op: in the
// input order both big buffers are live at once (65536 bytes); finishing
// one chain first needs one of them and the first chain's small result.
// REMARK: remark: memplan: @two_chains: ops reordered (least-peak): lower bound 65536 -> 32784 bytes; the exact order of the scheduling model was among the candidates; every order keeps at least 32768 bytes live at one op{{$}}
// (The bound over all orders: a big buffer and its reader; that the first
// chain's small result is live at the second big op depends on the order.)
// The bound of the written order stays on the function, for the memory
// report.
// CHECK-LABEL: func.func @two_chains
// CHECK-SAME: attributes {memplan.unscheduled_lower_bound = 65536 : i64}
// CHECK: %[[A:.*]] = memplan.op "big"
// CHECK-NEXT: memplan.op "small"(%[[A]])
// CHECK-NEXT: %[[B:.*]] = memplan.op "big"
// CHECK-NEXT: memplan.op "small"(%[[B]])
func.func @two_chains(%x: tensor<1024xf32>) -> tensor<4xf32> {
  %a = memplan.op "big"(%x) : (tensor<1024xf32>) -> tensor<8192xf32>
  %b = memplan.op "big"(%x) : (tensor<1024xf32>) -> tensor<8192xf32>
  %c = memplan.op "small"(%a) : (tensor<8192xf32>) -> tensor<4xf32>
  %d = memplan.op "small"(%b) : (tensor<8192xf32>) -> tensor<4xf32>
  %e = memplan.add %c, %d : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A read of the cache's old value stays before the op that writes the
// cache in place: the scheduler may only consume its 32 KiB result early
// (reduce), not delay the read past the write, which would then be read as
// the old value.
// REMARK: remark: memplan: @old_value_read_before_write: ops reordered (least-peak): lower bound 65792 -> 33024 bytes; the exact order of the scheduling model was among the candidates; optimal: every order keeps 33024 bytes live at one op{{$}}
// The op where every order keeps that much: "shrink" reads the temporary
// (32 KiB) and makes its result (256 bytes).
// REMARK: schedule.mlir:[[@LINE+10]]:8: note: that op: what every order keeps live there (made before it, read after it) and its own operands, results and scratch
// CHECK-LABEL: func.func @old_value_read_before_write
// CHECK: %[[OLD:.*]] = memplan.op "read_old"(%arg0)
// CHECK-NEXT: memplan.op "reduce"(%[[OLD]])
// CHECK-NEXT: memplan.op "big_temporary"
// CHECK-NEXT: memplan.op "shrink"
// CHECK-NEXT: memplan.op "write"(%arg0
func.func @old_value_read_before_write(%cache: tensor<64xf32>, %x: tensor<64xf32>) -> (tensor<64xf32>, tensor<4xf32>) {
  %old = memplan.op "read_old"(%cache) : (tensor<64xf32>) -> tensor<8192xf32>
  %t = memplan.op "big_temporary"(%x) : (tensor<64xf32>) -> tensor<8192xf32>
  %s = memplan.op "shrink"(%t) : (tensor<8192xf32>) -> tensor<64xf32>
  %w = memplan.op "write"(%cache, %s) {aliases = array<i64: 0>} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %r = memplan.op "reduce"(%old) : (tensor<8192xf32>) -> tensor<4xf32>
  return %w, %r : tensor<64xf32>, tensor<4xf32>
}

// -----

// Calls (ops with memory effects the planning interface does not describe)
// keep their order; the ops around them move.
// REMARK: remark: memplan: @calls_keep_their_order: ops reordered (least-peak): lower bound 65536 -> 32784 bytes
// CHECK-LABEL: func.func @calls_keep_their_order
// CHECK: call @first
// CHECK-NEXT: call @second
func.func private @first()
func.func private @second()
func.func @calls_keep_their_order(%x: tensor<1024xf32>) -> tensor<4xf32> {
  %a = memplan.op "big"(%x) : (tensor<1024xf32>) -> tensor<8192xf32>
  call @first() : () -> ()
  %b = memplan.op "big"(%x) : (tensor<1024xf32>) -> tensor<8192xf32>
  call @second() : () -> ()
  %c = memplan.op "small"(%a) : (tensor<8192xf32>) -> tensor<4xf32>
  %d = memplan.op "small"(%b) : (tensor<8192xf32>) -> tensor<4xf32>
  %e = memplan.add %c, %d : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A chain has one order: kept, and said so.
// REMARK: remark: memplan: @chain: input order kept: lower bound 8192 bytes, no candidate lower; the exact order of the scheduling model was among the candidates; optimal: every order keeps 8192 bytes live at one op{{$}}
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = memplan.op "f"(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = memplan.op "g"(%a) : (tensor<1024xf32>) -> tensor<1024xf32>
  %c = memplan.op "h"(%b) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %c : tensor<1024xf32>
}

// -----

// The exact search keeps a table of 2^ops sets: at most 24 ops.
// RUN: not memplan-opt %s --split-input-file --memplan-schedule=exact-ops=25 2>&1 | FileCheck %s --check-prefix=TOO-MANY
// TOO-MANY: error: --memplan-schedule: exact-ops is 25; at most 24 (the search keeps a table of 2^ops sets)

// A planned function is not reordered: its offsets would no longer match
// its lifetimes.
// RUN: not memplan-opt %s --split-input-file --plan-offsets --memplan-schedule -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLANNED
// PLANNED: error: @two_chains is already planned (memplan.arena_size): run --memplan-schedule before --plan-offsets

// --plan-offsets runs the same scheduler first with `schedule=true`, also
// per function and through the pipeline, and plans the new order: the two
// chains then need 32784 bytes (32768 + 16), not 65536.
// RUN: memplan-opt %s --split-input-file --plan-offsets=schedule=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: memplan-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(plan-offsets{schedule=true}))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: memplan-opt %s --split-input-file --memplan-plan-pipeline="schedule=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// PLAN: remark: memplan: @two_chains: ops reordered (least-peak): lower bound 65536 -> 32784 bytes
// PLAN: remark: memplan: @two_chains: arena {{[0-9]+}} bytes, lower bound 32784 bytes
// Without it, the order as written.
// RUN: memplan-opt %s --split-input-file --plan-offsets -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNSCHEDULED
// UNSCHEDULED-NOT: reordered
// UNSCHEDULED: remark: memplan: @two_chains: arena {{[0-9]+}} bytes, lower bound 65536 bytes

