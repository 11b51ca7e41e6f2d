//===- consumer-opt.cpp - Another compiler that embeds memplan ------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Registers memplan (dialect, passes, pipelines) next to its own pipeline,
// which adds memplan's passes to its pass manager through the C++ entry
// point after a pass of its own.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  memplan::registerMemPlan(registry);
  mlir::registerCanonicalizerPass();

  mlir::PassPipelineRegistration<>(
      "consumer-pipeline",
      "This compiler's own pipeline: canonicalize, then memplan's planning",
      [](mlir::OpPassManager &pm) {
        pm.addPass(mlir::createCanonicalizerPass());
        memplan::PlanOffsetsOptions options;
        options.algorithm = memplan::Algorithm::BestFit;
        memplan::buildPlanOffsetsPipeline(pm, options);
      });

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "a compiler that embeds memplan\n", registry));
}
