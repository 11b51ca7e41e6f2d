//===- Pipelines.cpp - memplan pass pipelines for other compilers ---------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Pipelines.h"

#include "memplan/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace memplan;

void memplan::buildPlanOffsetsPipeline(OpPassManager &pm,
                                       const PlanOffsetsOptions &options) {
  pm.addPass(createPlanOffsets(options));
  pm.addPass(createVerifyPlan());
}

void memplan::buildPackAllocsPipeline(OpPassManager &pm,
                                      const PackAllocsOptions &options) {
  pm.addPass(createPackAllocs(options));
  pm.addPass(createCanonicalizerPass());
}

/// Registers a pipeline whose textual options are those of its first pass:
/// they are parsed by that pass itself, so the pipeline takes every option
/// the pass takes, with the same defaults and the same errors, and no list
/// of them is kept here. (PassPipelineRegistration<Options> would need the
/// options declared a second time, in C++.)
static void registerForwardingPipeline(StringRef argument,
                                       StringRef description,
                                       std::unique_ptr<Pass> (*createFirst)(),
                                       void (*addRest)(OpPassManager &)) {
  registerPassPipeline(
      argument, description,
      [createFirst,
       addRest](OpPassManager &pm, StringRef options,
                function_ref<LogicalResult(const Twine &)> errorHandler) {
        std::unique_ptr<Pass> first = createFirst();
        if (failed(first->initializeOptions(options, errorHandler)))
          return failure();
        pm.addPass(std::move(first));
        addRest(pm);
        return success();
      },
      // --help lists the options under the pass itself.
      [](function_ref<void(const mlir::detail::PassOptions &)>) {});
}

void memplan::registerMemPlanPipelines() {
  registerForwardingPipeline(
      "memplan-plan-pipeline",
      "Plan memplan graphs into one arena and prove the plan (takes the "
      "options of --plan-offsets)",
      [] { return createPlanOffsets(); },
      [](OpPassManager &pm) { pm.addPass(createVerifyPlan()); });
  registerForwardingPipeline(
      "memplan-pack-pipeline",
      "Pack the memref.alloc buffers of bufferized IR into arenas (takes the "
      "options of --memplan-pack-allocs)",
      [] { return createPackAllocs(); },
      [](OpPassManager &pm) { pm.addPass(createCanonicalizerPass()); });
}

void memplan::registerMemPlan(DialectRegistry &registry) {
  registry.insert<MemPlanDialect, arith::ArithDialect, memref::MemRefDialect>();
  registerMemPlanPasses();
  registerMemPlanPipelines();
}
