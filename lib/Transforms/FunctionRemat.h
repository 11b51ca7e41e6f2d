//===- FunctionRemat.h - Recompute to fit one function's budget -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the passes: what --memplan-fit-budget does to one function, so
// that --plan-offsets (option `fit-budget`) runs the same code first. It only
// touches the function it is given.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_FUNCTIONREMAT_H
#define MEMPLAN_LIB_TRANSFORMS_FUNCTIONREMAT_H

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cstdint>

namespace memplan {

struct RematSettings {
  uint64_t budget = 0;
  bool inPlace = true;
  bool resultsInCallerBuffers = true;
  /// Over budget: keep what lowers the bound and warn, instead of failing.
  bool bestEffort = false;
  /// Most copies of one op (RematLimits::maxCopiesPerOp).
  unsigned maxCopies = 1;
  /// Reorder the ops (as --memplan-schedule, the recomputations kept late)
  /// after each round of recomputation that leaves the bound over the
  /// budget, and recompute again from the new order; then run the rounds
  /// again from the input in the order they ended with, and keep the
  /// better end.
  bool schedule = false;
};

struct RematOutcome {
  uint64_t boundBefore = 0, boundAfter = 0;
  uint64_t recomputedOps = 0, recomputedFlops = 0;
  /// One run of every RecomputableOpInterface op of the input: the cost of
  /// recomputing everything once (in a training step, about one forward
  /// pass).
  uint64_t recomputableFlops = 0;
  /// The rounds run again from the input in the order the first rounds
  /// ended with (RematSettings::schedule) did better, and were kept.
  bool rerunKept = false;
};

/// Clones ops of `function`'s body (one block) next to later uses of the
/// values they compute, so that those values need not stay live across the
/// peak, until the lower bound (measured as --plan-offsets with these
/// options plans) is at most the budget. Fails with an error if the budget
/// cannot be met (the IR is then left as it was), unless `bestEffort`:
/// then a warning, and the recomputations stay if they lowered the bound.
/// Emits one remark on success.
mlir::FailureOr<RematOutcome>
fitFunctionToBudget(mlir::FunctionOpInterface function,
                    const RematSettings &settings);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_FUNCTIONREMAT_H
