// RUN: memplan-opt %s --split-input-file --memplan-fit-budget=budget=98304 2>/dev/null | FileCheck %s --check-prefix=ONE
// RUN: memplan-opt %s --split-input-file --memplan-fit-budget=budget=98304 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE-REMARK
// RUN: memplan-opt %s --split-input-file --memplan-fit-budget=budget=81920 2>/dev/null | FileCheck %s --check-prefix=TWO
// RUN: memplan-opt %s --split-input-file --memplan-fit-budget=budget=81920 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO-REMARK

// A training step in miniature: %a (a matmul, 524288 operations) and %b
// (its GELU, 32768 operations), 16 KiB each, are kept for the backward
// ops past a 64 KiB temporary: 112 KiB at the peak (%a, %b, %t, %s).
//
// 96 KiB: %b goes, recomputed from %a (which the backward keeps anyway)
// right before its backward op: the cheaper of the two.
// ONE-REMARK: remark: memplan: @train: recomputed 1 ops (32768 operations): lower bound 114688 -> 98304 bytes, budget 98304 bytes
// ONE-LABEL: func.func @train
// ONE-SAME: memplan.recomputed_flops = 32768 : i64, memplan.unrematerialized_lower_bound = 114688 : i64
// ONE: %[[A:.*]] = memplan.matmul %arg0, %arg1
// ONE-NEXT: %[[B:.*]] = memplan.gelu %[[A]] :
// ONE-NEXT: %[[T:.*]] = memplan.op "big"(%[[B]])
// ONE-NEXT: %[[S:.*]] = memplan.op "shrink"(%[[T]])
// ONE-NEXT: %[[B2:.*]] = memplan.gelu %[[A]] {memplan.recomputed}
// ONE-NEXT: %[[G1:.*]] = memplan.op "backward"(%[[S]], %[[B2]])
// ONE-NEXT: memplan.op "backward"(%[[G1]], %[[A]])
//
// 80 KiB: %a goes too, recomputed from the arguments before the GELU's
// copy, which reads it; the backward op reads the copy of %a.
// TWO-REMARK: remark: memplan: @train: recomputed 2 ops (557056 operations): lower bound 114688 -> 81920 bytes, budget 81920 bytes
// TWO-LABEL: func.func @train
// TWO: %[[S:.*]] = memplan.op "shrink"
// TWO-NEXT: %[[A2:.*]] = memplan.matmul %arg0, %arg1 {memplan.recomputed}
// TWO-NEXT: %[[B2:.*]] = memplan.gelu %[[A2]] {memplan.recomputed}
// TWO-NEXT: %[[G1:.*]] = memplan.op "backward"(%[[S]], %[[B2]])
// TWO-NEXT: memplan.op "backward"(%[[G1]], %[[A2]])
func.func @train(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = memplan.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %b = memplan.gelu %a : tensor<64x64xf32>
  %t = memplan.op "big"(%b) : (tensor<64x64xf32>) -> tensor<256x64xf32>
  %s = memplan.op "shrink"(%t) : (tensor<256x64xf32>) -> tensor<64x64xf32>
  %g1 = memplan.op "backward"(%s, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %g2 = memplan.op "backward"(%g1, %a) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %g2 : tensor<64x64xf32>
}

// -----

// An update written in place into the weight (an optimizer step, `aliases`)
// comes before the backward op that reads %a: a copy of the matmul must
// read the weight before the update, so it goes right before it (and
// lives across it), not before its reader.
// At 96 KiB it fits as written.
// ONE-REMARK: remark: memplan: @update_before_use: lower bound 98304 bytes fits the budget of 98304 bytes, nothing recomputed
// ONE-LABEL: func.func @update_before_use
// ONE-NOT: memplan.recomputed
// TWO-REMARK: remark: memplan: @update_before_use: recomputed 1 ops (524288 operations): lower bound 98304 -> 81920 bytes, budget 81920 bytes
// TWO-LABEL: func.func @update_before_use
// TWO: %[[S:.*]] = memplan.op "shrink"
// TWO-NEXT: %[[A2:.*]] = memplan.matmul %arg0, %arg1 {memplan.recomputed}
// TWO-NEXT: memplan.op "update"(%arg1, %[[S]]) {aliases = array<i64: 0>}
// TWO-NEXT: memplan.op "backward"(%[[S]], %[[A2]])
func.func @update_before_use(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = memplan.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %t = memplan.op "big"(%x) : (tensor<64x64xf32>) -> tensor<256x64xf32>
  %s = memplan.op "shrink"(%t) : (tensor<256x64xf32>) -> tensor<64x64xf32>
  %u = memplan.op "update"(%w, %s) {aliases = array<i64: 0>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %g = memplan.op "backward"(%s, %a) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %u, %g : tensor<64x64xf32>, tensor<64x64xf32>
}

// With best-effort=true, a budget that cannot be met is a warning, and what
// lowers the bound stays.
// RUN: memplan-opt %s --split-input-file --memplan-fit-budget="budget=65536 best-effort=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEST-EFFORT
// BEST-EFFORT: warning: memplan: @train: recomputed 2 ops (557056 operations): lower bound 114688 -> 81920 bytes, over the budget of 65536 bytes

// --plan-offsets runs it first with fit-budget=BYTES, and plans the result;
// the memory report shows the bound before and the operations added.
// RUN: memplan-opt %s --split-input-file --plan-offsets=fit-budget=98304 -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// PLAN: remark: memplan: @train: recomputed 1 ops (32768 operations): lower bound 114688 -> 98304 bytes, budget 98304 bytes
// PLAN: remark: memplan: @train: arena 98304 bytes, lower bound 98304 bytes
// RUN: memplan-opt %s --split-input-file --plan-offsets=fit-budget=98304 --memplan-memory-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: memory of @train
// REPORT: lower bound before recomputation {{ *}}114,688 B
// REPORT-NEXT: recomputed operations {{ *}}32,768
