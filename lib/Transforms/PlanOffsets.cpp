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

struct PlanOffsetsPass : public mlir::memplan::impl::PlanOffsetsBase<PlanOffsetsPass> {
  using PlanOffsetsBase::PlanOffsetsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<::memplan::Algorithm> chosen =
        ::memplan::parseAlgorithm(algorithm);
    if (!chosen) {
      module.emitError() << "unknown algorithm '" << algorithm
                         << "'; expected one of: "
                         << ::memplan::getAlgorithmNameList();
      return signalPassFailure();
    }
    if (alignment == 0 || (alignment & (alignment - 1))) {
      module.emitError() << "alignment must be a power of two, got "
                         << alignment;
      return signalPassFailure();
    }

    std::vector<FunctionPlan> plans;
    bool failedAny = false;
    for (auto function : module.getOps<FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      FailureOr<FunctionPlan> plan =
          planFunction(function, *chosen, alignment, inPlace);
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

    if (!reportFile.empty()) {
      std::string error;
      std::unique_ptr<llvm::ToolOutputFile> file =
          openOutputFile(reportFile, &error);
      if (!file) {
        module.emitError() << "cannot write the report: " << error;
        return signalPassFailure();
      }
      writePlanReport(file->os(), plans);
      file->keep();
    }
  }
};

} // namespace
