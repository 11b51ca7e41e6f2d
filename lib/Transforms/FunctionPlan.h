//===- FunctionPlan.h - Plan one function -----------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the passes: the one bridge from the IR to the planner and back
// that every planning pass shares (liveness -> problem -> algorithm ->
// validator -> attributes), with every failure reported as a diagnostic, and
// the check of the options they share (PlannerOptions.cpp). What a plan
// looks like to a user (remark, JSON, SVG) is in PlanReports.h.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_FUNCTIONPLAN_H
#define MEMPLAN_LIB_TRANSFORMS_FUNCTIONPLAN_H

#include "memplan/Analysis/BufferLiveness.h"
#include "memplan/Planner/Algorithms.h"
#include "memplan/Planner/Search.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>

namespace memplan {

struct FunctionPlan {
  mlir::FunctionOpInterface function;
  BufferLiveness liveness;
  Algorithm algorithm;
  uint64_t alignment;
  Problem problem;
  Solution solution;
  uint64_t lowerBound = 0;
  uint64_t bytesWithoutReuse = 0;
};

/// Plans `function` (which has a body). Emits a diagnostic and fails on bad
/// input, on an arena that does not fit in 63 bits, and on a plan that the
/// validator rejects (an internal error: a plan is never written unchecked).
mlir::FailureOr<FunctionPlan>
planFunction(mlir::FunctionOpInterface function, Algorithm algorithm,
             uint64_t alignment, bool inPlace, bool resultsInCallerBuffers,
             const SearchOptions *search = nullptr);

/// Plans `problem` with `algorithm` (and `search`) and proves the plan with
/// the validator: what every planning pass does before it writes a plan.
/// Emits an error at `function` and fails when the algorithm fails, the
/// arena does not fit in 63 bits, the validator refuses the plan (an
/// internal error: a plan is never written unchecked), or the search meets
/// no capacity. `action` ("plan this function") and `noun` ("plan") word the
/// errors.
mlir::FailureOr<Solution>
planAndValidate(mlir::FunctionOpInterface function, const Problem &problem,
                Algorithm algorithm, const SearchOptions *search,
                llvm::StringRef action, llvm::StringRef noun);

/// Checks the options the planning passes share (a power of two
/// alignment, capacity only with search, a search budget in range) and
/// fills `search`. Emits an error naming the pass and the option, and fails,
/// on a bad value. (The algorithm needs no check: it is an enum option,
/// refused where it is parsed.)
mlir::LogicalResult configurePlanner(mlir::MLIRContext *context,
                                     llvm::StringRef passArgument,
                                     Algorithm algorithm, uint64_t alignment,
                                     double searchSeconds, uint64_t searchNodes,
                                     uint64_t capacity, SearchOptions &search);

/// Writes the plan into the IR (see PlanAttributes.h), replacing any older
/// plan of the function.
void annotateFunction(const FunctionPlan &plan);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_FUNCTIONPLAN_H
