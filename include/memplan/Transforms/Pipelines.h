//===- Pipelines.h - memplan pass pipelines for other compilers -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How another MLIR compiler runs memplan: add its passes to a pass manager
// with one call, or register the pipelines and name them on a command line.
//
//   mlir::PassManager pm(&context);
//   mlir::memplan::PlanningPipelineOptions options;
//   options.algorithm = "best-fit";
//   mlir::memplan::buildPackAllocsPipeline(pm, options);
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_PIPELINES_H
#define MEMPLAN_TRANSFORMS_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::memplan {

/// Options shared by the pipelines (the planning passes' options).
struct PlanningPipelineOptions
    : public PassPipelineOptions<PlanningPipelineOptions> {
  PassOptions::Option<std::string> algorithm{
      *this, "algorithm",
      llvm::cl::desc("naive, greedy-by-size, greedy-by-breadth, best-fit, "
                     "shared-objects or search"),
      llvm::cl::init("greedy-by-size")};
  PassOptions::Option<uint64_t> alignment{
      *this, "alignment",
      llvm::cl::desc("Byte alignment of every offset (0: the pass default)"),
      llvm::cl::init(0)};
  PassOptions::Option<double> searchSeconds{
      *this, "search-seconds", llvm::cl::desc("search: wall-clock budget"),
      llvm::cl::init(1.0)};
};

/// memplan dialect graphs: --plan-offsets, then --memplan-verify-plan (a
/// plan is proven again before anyone consumes it).
void buildPlanOffsetsPipeline(OpPassManager &pm,
                              const PlanningPipelineOptions &options);

/// Upstream bufferized IR (after one-shot bufferization and, optionally, a
/// deallocation pipeline): --memplan-pack-allocs, then canonicalization to
/// fold the offset constants.
void buildPackAllocsPipeline(OpPassManager &pm,
                             const PlanningPipelineOptions &options);

/// Registers "memplan-plan-pipeline" and "memplan-pack-pipeline".
void registerMemPlanPipelines();

/// The dialect, every pass and both pipelines: what a tool that embeds
/// memplan calls once.
void registerMemPlan(DialectRegistry &registry);

} // namespace mlir::memplan

#endif // MEMPLAN_TRANSFORMS_PIPELINES_H
