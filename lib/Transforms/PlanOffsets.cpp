//===- PlanOffsets.cpp - --plan-offsets -----------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "FunctionPlan.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::memplan {
#define GEN_PASS_DEF_PLANOFFSETS
#include "memplan/Transforms/Passes.h.inc"
} // namespace mlir::memplan

using namespace mlir;
using namespace mlir::memplan;

namespace {

struct PlanOffsetsPass
    : public mlir::memplan::impl::PlanOffsetsBase<PlanOffsetsPass> {
  using PlanOffsetsBase::PlanOffsetsBase;

  /// Checks the options once, before any IR is touched.
  LogicalResult initialize(MLIRContext *context) override {
    return configurePlanner(context, algorithm, alignment, searchSeconds,
                            searchNodes, capacity, chosen, search);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();

    std::vector<FunctionPlan> plans;
    bool failedAny = false;
    for (auto function : module.getOps<FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      FailureOr<FunctionPlan> plan =
          planFunction(function, *chosen, alignment, inPlace, &search);
      if (failed(plan)) {
        failedAny = true;
        continue;
      }
      annotateFunction(*plan);
      emitPlanRemark(*plan);
      plans.push_back(std::move(*plan));
    }
    if (failedAny)
      return signalPassFailure();

    if (!svgFile.empty())
      for (const FunctionPlan &plan : plans)
        if (failed(writeFile(svgPathFor(plan, plans.size()),
                             [&](raw_ostream &os) { writePlanSvg(os, plan); })))
          return signalPassFailure();

    if (!reportFile.empty() &&
        failed(writeFile(reportFile,
                         [&](raw_ostream &os) { writePlanReport(os, plans); })))
      return signalPassFailure();
  }

  /// The SVG file of `plan`: `svg` itself for a single function, else with
  /// the function's name before the extension.
  std::string svgPathFor(const FunctionPlan &plan, size_t count) {
    if (count == 1)
      return svgFile;
    StringRef path = svgFile;
    auto [stem, extension] = path.rsplit('.');
    FunctionOpInterface function = plan.function;
    if (extension.empty() || stem.empty() || extension.contains('/'))
      return (path + "." + function.getName()).str();
    return (stem + "." + function.getName() + "." + extension).str();
  }

  LogicalResult writeFile(StringRef path,
                          function_ref<void(raw_ostream &)> write) {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
    if (!file)
      return emitError(getOperation().getLoc())
             << "cannot write '" << path << "': " << error;
    write(file->os());
    file->keep();
    return success();
  }

  std::optional<::memplan::Algorithm> chosen;
  ::memplan::SearchOptions search;
};

} // namespace
