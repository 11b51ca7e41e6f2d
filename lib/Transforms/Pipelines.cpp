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
using namespace mlir::memplan;

void mlir::memplan::buildPlanOffsetsPipeline(
    OpPassManager &pm, const PlanningPipelineOptions &options) {
  PlanOffsetsOptions plan;
  plan.algorithm = options.algorithm;
  if (options.alignment)
    plan.alignment = options.alignment;
  plan.searchSeconds = options.searchSeconds;
  pm.addPass(createPlanOffsets(plan));
  pm.addPass(createVerifyPlan());
}

void mlir::memplan::buildPackAllocsPipeline(
    OpPassManager &pm, const PlanningPipelineOptions &options) {
  PackAllocsOptions pack;
  pack.algorithm = options.algorithm;
  if (options.alignment)
    pack.alignment = options.alignment;
  pack.searchSeconds = options.searchSeconds;
  pm.addPass(createPackAllocs(pack));
  pm.addPass(createCanonicalizerPass());
}

void mlir::memplan::registerMemPlanPipelines() {
  PassPipelineRegistration<PlanningPipelineOptions>(
      "memplan-plan-pipeline",
      "Plan memplan graphs into one arena and prove the plan",
      buildPlanOffsetsPipeline);
  PassPipelineRegistration<PlanningPipelineOptions>(
      "memplan-pack-pipeline",
      "Pack the memref.alloc buffers of bufferized IR into one arena",
      buildPackAllocsPipeline);
}

void mlir::memplan::registerMemPlan(DialectRegistry &registry) {
  registry.insert<MemPlanDialect, arith::ArithDialect, memref::MemRefDialect>();
  registerMemPlanPasses();
  registerMemPlanPipelines();
}
