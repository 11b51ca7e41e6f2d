//===- FitBudget.cpp - --memplan-fit-budget -------------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pass over a module's functions; FunctionRemat.cpp does the work.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "FunctionRemat.h"
#include "ModuleFunctions.h"

namespace memplan {
#define GEN_PASS_DEF_FITBUDGET
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

struct FitBudgetPass : public memplan::impl::FitBudgetBase<FitBudgetPass> {
  using FitBudgetBase::FitBudgetBase;

  void runOnOperation() override {
    if (budget == 0) {
      emitError(getOperation().getLoc())
          << "--memplan-fit-budget needs budget=BYTES (the bytes each "
             "function's lower bound must fit in)";
      return signalPassFailure();
    }
    if (maxCopies == 0) {
      emitError(getOperation().getLoc())
          << "--memplan-fit-budget: max-copies must be at least 1";
      return signalPassFailure();
    }
    RematSettings settings;
    settings.budget = budget;
    settings.inPlace = inPlace;
    settings.resultsInCallerBuffers = resultsInCallerBuffers;
    settings.bestEffort = bestEffort;
    settings.maxCopies = maxCopies;
    settings.schedule = schedule;
    SmallVector<FunctionOpInterface> functions =
        collectModuleFunctions(getOperation());
    std::vector<RematOutcome> outcomes(functions.size());
    if (failed(forEachFunctionInParallel(
            &getContext(), functions,
            [&](size_t index, FunctionOpInterface function) {
              FailureOr<RematOutcome> outcome =
                  fitFunctionToBudget(function, settings);
              if (failed(outcome))
                return failure();
              outcomes[index] = *outcome;
              return success();
            })))
      return signalPassFailure();
    for (const RematOutcome &outcome : outcomes) {
      numRecomputedOps += outcome.recomputedOps;
      numRecomputedFlops += outcome.recomputedFlops;
      numRerunsKept += outcome.rerunKept;
    }
  }
};

} // namespace
