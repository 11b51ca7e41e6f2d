//===- PlanAttributes.h - Where a plan is written in the IR -----*- C++ -*-===//
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

} // namespace mlir::memplan

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_PLANATTRIBUTES_H
