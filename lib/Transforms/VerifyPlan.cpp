//===- VerifyPlan.cpp - --memplan-verify-plan -----------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "ModuleFunctions.h"
#include "memplan/Analysis/PlanVerification.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace memplan {
#define GEN_PASS_DEF_VERIFYPLAN
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

struct VerifyPlanPass : public memplan::impl::VerifyPlanBase<VerifyPlanPass> {
  bool canScheduleOn(RegisteredOperationName name) const override {
    return canRunOnModuleOrFunction(name);
  }

  void runOnOperation() override {
    if (failed(forEachFunctionInParallel(
            &getContext(), collectFunctionsToVisit(getOperation()),
            [](size_t, FunctionOpInterface function) {
              return verifyFunctionPlan(function);
            })))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
