//===- ScheduleOps.cpp - --memplan-schedule -------------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pass over a module's functions; FunctionSchedule.cpp does the work.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "FunctionSchedule.h"
#include "ModuleFunctions.h"

namespace memplan {
#define GEN_PASS_DEF_SCHEDULEOPS
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

struct ScheduleOpsPass
    : public memplan::impl::ScheduleOpsBase<ScheduleOpsPass> {
  using ScheduleOpsBase::ScheduleOpsBase;

  void runOnOperation() override {
    if (exactOps > 24) {
      emitError(getOperation().getLoc())
          << "--memplan-schedule: exact-ops is "
          << static_cast<unsigned>(exactOps)
          << "; at most 24 (the search keeps a table of 2^ops sets)";
      return signalPassFailure();
    }
    ScheduleSettings settings;
    settings.inPlace = inPlace;
    settings.resultsInCallerBuffers = resultsInCallerBuffers;
    settings.exactOps = exactOps;
    SmallVector<FunctionOpInterface> functions =
        collectModuleFunctions(getOperation());
    std::vector<char> reordered(functions.size(), 0);
    if (failed(forEachFunctionInParallel(
            &getContext(), functions,
            [&](size_t index, FunctionOpInterface function) {
              FailureOr<bool> changed = scheduleFunction(function, settings);
              if (failed(changed))
                return failure();
              reordered[index] = *changed;
              return success();
            })))
      return signalPassFailure();
    for (char changed : reordered)
      ++(changed ? numReordered : numKept);
  }
};

} // namespace
