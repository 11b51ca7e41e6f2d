//===- PlanVerification.h - Prove a plan written in the IR ------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The reader of a plan written in the IR (PlanAttributes.h) and its proof:
// what --memplan-verify-plan runs on each function, and what every consumer
// of a plan runs before it trusts one (memplan-translate checks every plan
// before it writes code; the memory report reads the planned lifetimes).
// It is an analysis, beside the liveness it builds on, so that consumers
// depend on the dialect and the analyses, never on the passes.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_PLANVERIFICATION_H
#define MEMPLAN_ANALYSIS_PLANVERIFICATION_H

#include "memplan/Analysis/BufferLiveness.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

namespace memplan {

/// Checks the plan of `function` (which has a body) with the validator:
/// every arena value has an offset, views sit at their source's offset, no
/// two live buffers overlap, offsets are aligned, and the arena is exactly
/// the end of the highest buffer. Emits an error naming the values at fault.
mlir::LogicalResult verifyFunctionPlan(mlir::FunctionOpInterface function);

/// The arena size recorded on `function` (memplan.arena_size); emits "it
/// is not planned" and fails when there is none.
mlir::FailureOr<uint64_t>
getPlannedArenaSize(mlir::FunctionOpInterface function);

/// The arena offset recorded for `value` by its defining op, if it has one.
std::optional<int64_t> getRecordedOffset(mlir::Value value);

/// The function result whose caller-owned buffer holds `value`, as recorded
/// by its defining op (memplan.destinations), if it has one.
std::optional<unsigned> getRecordedDestination(mlir::Value value);

/// The lifetimes of `function` as its recorded plan shares buffers: a result
/// at the offset of an operand that dies at its op, where in place is
/// allowed, shares that operand's buffer; a returned value's buffer is the
/// caller's where its first value records that destination.
mlir::FailureOr<BufferLiveness>
computePlannedLiveness(mlir::FunctionOpInterface function);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_PLANVERIFICATION_H
