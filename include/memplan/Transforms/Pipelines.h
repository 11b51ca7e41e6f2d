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
//   memplan::PackAllocsOptions options;
//   options.algorithm = memplan::Algorithm::BestFit;
//   memplan::buildPackAllocsPipeline(pm, options);
//
// The pipelines take exactly the options of their planning pass, declared
// once in Passes.td: `--memplan-pack-pipeline="algorithm=best-fit"`.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_PIPELINES_H
#define MEMPLAN_TRANSFORMS_PIPELINES_H

#include "memplan/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace memplan {

/// memplan dialect graphs: --plan-offsets, then --memplan-verify-plan (a
/// plan is proven again before anyone consumes it). `options` are
/// --plan-offsets's own.
void buildPlanOffsetsPipeline(mlir::OpPassManager &pm,
                              const PlanOffsetsOptions &options = {});

/// Upstream bufferized IR (after one-shot bufferization and, optionally, a
/// deallocation pipeline): --memplan-pack-allocs, then canonicalization to
/// fold the offset constants. `options` are --memplan-pack-allocs's own.
void buildPackAllocsPipeline(mlir::OpPassManager &pm,
                             const PackAllocsOptions &options = {});

/// Registers "memplan-plan-pipeline" and "memplan-pack-pipeline".
void registerMemPlanPipelines();

/// The dialect, every pass and both pipelines: what a tool that embeds
/// memplan calls once.
void registerMemPlan(mlir::DialectRegistry &registry);

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_PIPELINES_H
