//===- PlanAttributes.h - Where a plan is written in the IR -----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// --plan-offsets writes its plan as discardable attributes of the memplan
// dialect, which the dialect verifies
// (MemPlanDialect::verifyOperationAttribute) and --memplan-verify-plan and
// memplan-translate read back:
//
//   memplan.offsets = array<i64: ...>   on an op: the arena offset of each
//                                       result, -1 for results outside the
//                                       arena (not shaped, or views of
//                                       arguments or constants)
//   memplan.scratch_offset = N : i64    on an op with scratch memory
//   memplan.arena_size = N : i64        on a function: bytes of its arena
//   memplan.lower_bound = N : i64       on a function: max bytes live at once
//   memplan.alignment = N : i64         on a function: the alignment planned
//
// Roles, written by memplan-gen and read by --memplan-memory-report:
//
//   memplan.role = "weight"             on a function argument: what it holds
//                  (weight, quantization_scale, input, kv_cache,
//                  optimizer_state, master_weight)
//   memplan.name = "h.0.attn.c_attn.w"  on a function argument: its name
//   memplan.result_roles = ["activation", "gradient"]
//                                       on an op: what each result holds
//                                       (activation, gradient, loss)
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

#include "llvm/ADT/StringRef.h"

namespace mlir::memplan {

constexpr llvm::StringLiteral kOffsetsAttrName = "memplan.offsets";
constexpr llvm::StringLiteral kScratchOffsetAttrName = "memplan.scratch_offset";
constexpr llvm::StringLiteral kArenaSizeAttrName = "memplan.arena_size";
constexpr llvm::StringLiteral kLowerBoundAttrName = "memplan.lower_bound";
constexpr llvm::StringLiteral kAlignmentAttrName = "memplan.alignment";
constexpr llvm::StringLiteral kRoleAttrName = "memplan.role";
constexpr llvm::StringLiteral kNameAttrName = "memplan.name";
constexpr llvm::StringLiteral kResultRolesAttrName = "memplan.result_roles";
constexpr llvm::StringLiteral kArenaAttrName = "memplan.arena";
constexpr llvm::StringLiteral kArenaAlignmentAttrName =
    "memplan.arena_alignment";

/// The values of memplan.role and of memplan.result_roles.
constexpr llvm::StringLiteral kArgumentRoles[] = {
    "weight",   "quantization_scale", "input",
    "kv_cache", "optimizer_state",    "master_weight"};
constexpr llvm::StringLiteral kResultRoles[] = {"activation", "gradient",
                                                "loss"};

} // namespace mlir::memplan

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_PLANATTRIBUTES_H
