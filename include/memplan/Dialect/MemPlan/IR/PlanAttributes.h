//===- PlanAttributes.h - Where a plan is written in the IR -----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract between memplan's passes, its tools and any other producer
// or consumer of a plan. Each attribute is a discardable attribute of the
// memplan dialect, declared in MemPlanDialect.td (`discardableAttrs`) and so
// read and written through generated helpers, for example
// `MemPlanDialect::OffsetsAttrHelper(context).getAttr(op)`, and verified by
// the dialect's hooks (MemPlanDialect::verifyOperationAttribute,
// verifyRegionArgAttribute):
//
// The plan, written by --plan-offsets, checked by --memplan-verify-plan and
// read by memplan-translate and --memplan-memory-report:
//
//   memplan.offsets = array<i64: ...>   on an op: the arena offset of each
//                                       result, -1 for results outside the
//                                       arena (not shaped, or views of
//                                       arguments or constants)
//   memplan.destinations = array<i64: ...>
//                                       on an op: for each result, the index
//                                       of the function result whose
//                                       caller-owned buffer holds it (its
//                                       offset is then -1), or -1 (absent:
//                                       all -1). Returned values are computed
//                                       in the caller's buffer, not copied.
//   memplan.scratch_offset = N : i64    on an op with scratch memory
//   memplan.arena_size = N : i64        on a function: bytes of its arena
//   memplan.lower_bound = N : i64       on a function: max bytes live at
//                                       once (at most the arena)
//   memplan.alignment = N : i64         on a function: the alignment planned
//
// Roles, written by memplan-gen and read by --memplan-memory-report (enum
// attributes, MemPlanAttributes.td):
//
//   memplan.role = #memplan.role<weight>
//                                       on a function argument: what it holds
//                                       (weight, quantization_scale, input,
//                                       kv_cache, optimizer_state,
//                                       master_weight, gradient_accumulator,
//                                       communication_buffer)
//   memplan.name = "h.0.attn.c_attn.w"  on a function argument: its name
//   memplan.host                        on a function argument: it is in
//                                       the host's (pinned CPU) memory, not
//                                       the GPU's (ZeRO-Offload's optimizer
//                                       partition); reported apart, not in
//                                       the device total
//   memplan.created_in_first_step       on a function argument: the
//                                       framework creates it during the
//                                       first step, not before it; the
//                                       caching-allocator model allocates
//                                       it there in the first of the steps
//                                       it runs: optimizer states together,
//                                       in argument order, before the first
//                                       op that uses one (torch.optim makes
//                                       them all before its first update),
//                                       a gradient accumulator in place of
//                                       the first gradient it receives
//                                       (autograd keeps that as .grad)
//   memplan.result_roles = [#memplan.result_role<gradient>, ...]
//                                       on an op: what each result holds
//                                       (activation, gradient, loss,
//                                       gathered: a sharded weight gathered
//                                       for its use)
//
// Arenas, written by --memplan-pack-allocs and checked by
// --memplan-verify-packing:
//
//   memplan.arena                       on a memref.alloc, or (arena-mode=arg)
//                                       a function argument: an arena
//   memplan.arena_alignment = N : i64   on an arena argument: the alignment
//                                       the caller gives it
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_PLANATTRIBUTES_H
#define MEMPLAN_DIALECT_MEMPLAN_IR_PLANATTRIBUTES_H

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

namespace memplan {

/// The role of argument `index` of `function` (memplan.role), if it has one.
std::optional<ArgumentRole> getArgumentRole(mlir::FunctionOpInterface function,
                                            unsigned index);

/// Whether argument `index` of `function` is in the host's memory
/// (memplan.host), not the device's.
bool isHostArgument(mlir::FunctionOpInterface function, unsigned index);

/// Whether argument `index` of `function` is created during the first step
/// (memplan.created_in_first_step).
bool isCreatedInFirstStep(mlir::FunctionOpInterface function, unsigned index);

/// The role of `result` (its entry in memplan.result_roles); a result
/// without one is an activation.
ResultRole getResultRole(mlir::OpResult result);

/// Writes memplan.result_roles on `op`, one role per result.
void setResultRoles(mlir::Operation *op, llvm::ArrayRef<ResultRole> roles);

} // namespace memplan

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_PLANATTRIBUTES_H
