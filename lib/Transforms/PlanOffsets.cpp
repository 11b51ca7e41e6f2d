//===- PlanOffsets.cpp - --plan-offsets -----------------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "FunctionPlan.h"
#include "FunctionRemat.h"
#include "FunctionSchedule.h"
#include "ModuleFunctions.h"
#include "PlanReports.h"
#include "memplan/Support/OutputFiles.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"

namespace memplan {
#define GEN_PASS_DEF_PLANOFFSETS
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

struct PlanOffsetsPass
    : public memplan::impl::PlanOffsetsBase<PlanOffsetsPass> {
  using PlanOffsetsBase::PlanOffsetsBase;

  /// Checks the options once, before any IR is touched.
  LogicalResult initialize(MLIRContext *context) override {
    return configurePlanner(context, getArgument(), algorithm, alignment,
                            searchSeconds, searchNodes, capacity, search);
  }

  bool canScheduleOn(RegisteredOperationName name) const override {
    return canRunOnModuleOrFunction(name);
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    // Run per function, every instance would write the same files.
    if (isa<FunctionOpInterface>(root) &&
        (!reportFile.empty() || !svgFile.empty())) {
      emitError(root->getLoc(),
                "--plan-offsets writes report= and svg= files for a whole "
                "module: run it on the builtin.module, not on each function");
      return signalPassFailure();
    }

    // Each function is planned on its own (in parallel where MLIR may use
    // threads), and the plans are kept in the functions' order for the
    // report.
    SmallVector<FunctionOpInterface> functions = collectFunctionsToVisit(root);
    std::vector<std::optional<FunctionPlan>> planned(functions.size());
    if (failed(forEachFunctionInParallel(
            &getContext(), functions,
            [&](size_t index, FunctionOpInterface function) {
              if (schedule) {
                ScheduleSettings settings;
                settings.inPlace = inPlace;
                settings.resultsInCallerBuffers = resultsInCallerBuffers;
                if (failed(scheduleFunction(function, settings)))
                  return failure();
              }
              if (fitBudget) {
                RematSettings settings;
                settings.budget = fitBudget;
                settings.schedule = schedule;
                settings.inPlace = inPlace;
                settings.resultsInCallerBuffers = resultsInCallerBuffers;
                if (failed(fitFunctionToBudget(function, settings)))
                  return failure();
              }
              FailureOr<FunctionPlan> plan =
                  planFunction(function, algorithm, alignment, inPlace,
                               resultsInCallerBuffers, &search);
              if (failed(plan))
                return failure();
              annotateFunction(*plan);
              emitPlanRemark(*plan);
              planned[index] = std::move(*plan);
              return success();
            })))
      return signalPassFailure();
    std::vector<FunctionPlan> plans;
    plans.reserve(planned.size());
    for (std::optional<FunctionPlan> &plan : planned)
      plans.push_back(std::move(*plan));

    // The pictures and the report are written together or not at all.
    std::vector<OutputFile> outputs;
    if (!svgFile.empty()) {
      llvm::StringMap<FunctionOpInterface> byPath;
      for (const FunctionPlan &plan : plans) {
        std::string path = svgPathFor(plan, plans.size());
        FunctionOpInterface function = plan.function;
        auto [it, inserted] = byPath.try_emplace(path, function);
        if (!inserted) {
          InFlightDiagnostic diag = function.emitError()
                                    << "the pictures of @" << function.getName()
                                    << " and @" << it->second.getName()
                                    << " would both be written to '" << path
                                    << "'";
          diag.attachNote(it->second.getLoc()) << "the other function";
          return signalPassFailure();
        }
        std::string text;
        llvm::raw_string_ostream os(text);
        writePlanSvg(os, plan);
        outputs.push_back({path, std::move(text)});
      }
    }
    if (!reportFile.empty()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      writePlanReport(os, plans);
      outputs.push_back({reportFile, std::move(text)});
    }
    if (llvm::Error written = writeOutputFiles(outputs)) {
      emitError(root->getLoc()) << llvm::toString(std::move(written));
      return signalPassFailure();
    }
  }

  /// The SVG file of `plan`: `svg` itself for a single function, else with
  /// the function's name before the extension, made safe for a file name
  /// (a symbol name may hold `/`, `..` or control characters).
  std::string svgPathFor(const FunctionPlan &plan, size_t count) {
    if (count == 1)
      return svgFile;
    StringRef path = svgFile;
    auto [stem, extension] = path.rsplit('.');
    FunctionOpInterface function = plan.function;
    std::string name = sanitizeFileNamePart(function.getName());
    if (extension.empty() || stem.empty() || extension.contains('/'))
      return (path + "." + name).str();
    return (stem + "." + name + "." + extension).str();
  }

  SearchOptions search;
};

} // namespace
