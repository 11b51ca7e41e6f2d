//===- RegionExecution.cpp - How an op runs its regions -------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/RegionExecution.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace memplan;

RegionExecution memplan::getRegionExecution(Operation *op) {
  // RegionBranchOpInterface says which region runs after which, not when or
  // on which thread, and no upstream interface does. So the ops that
  // describe concurrent or asynchronous regions as plain ones are named
  // here, the one place where memplan knows ops by name, for soundness:
  //  * scf.parallel describes its body exactly as scf.for does, and
  //    scf.forall as a region that runs once; their iterations may overlap;
  //  * async.execute runs its body after it returns (until the await),
  //    OpenACC constructs on an accelerator, gpu.warp_execute_on_lane_0 on
  //    several threads.
  if (isa<scf::ParallelOp, scf::ForallOp>(op))
    return RegionExecution::Concurrent;
  StringRef dialect = op->getName().getDialectNamespace();
  if (dialect == "async" || dialect == "acc" ||
      op->getName().getStringRef() == "gpu.warp_execute_on_lane_0")
    return RegionExecution::Unknown;
  // A structured linalg op runs its body once per element, within the op.
  if (isa<linalg::LinalgOp>(op))
    return RegionExecution::Repeated;
  auto branch = dyn_cast<RegionBranchOpInterface>(op);
  if (!branch)
    return RegionExecution::Unknown;
  if (isa<LoopLikeOpInterface>(op))
    return RegionExecution::Repeated;
  for (unsigned index = 0; index < op->getNumRegions(); ++index)
    if (branch.isRepetitiveRegion(index))
      return RegionExecution::Repeated;
  return RegionExecution::Once;
}

std::optional<StaticIterationSpace>
memplan::getStaticIterationSpace(Operation *op) {
  auto loop = dyn_cast<LoopLikeOpInterface>(op);
  if (!loop)
    return std::nullopt;
  std::optional<SmallVector<OpFoldResult>> lowerBounds =
      loop.getLoopLowerBounds();
  std::optional<SmallVector<OpFoldResult>> upperBounds =
      loop.getLoopUpperBounds();
  std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
  if (!lowerBounds || !upperBounds || !steps ||
      lowerBounds->size() != upperBounds->size() ||
      lowerBounds->size() != steps->size())
    return std::nullopt;
  StaticIterationSpace space;
  constexpr uint64_t limit = uint64_t(1) << 62;
  for (auto [lowerFold, upperFold, stepFold] :
       llvm::zip_equal(*lowerBounds, *upperBounds, *steps)) {
    std::optional<int64_t> lower = getConstantIntValue(lowerFold);
    std::optional<int64_t> upper = getConstantIntValue(upperFold);
    std::optional<int64_t> step = getConstantIntValue(stepFold);
    if (!lower || !upper || !step || *step <= 0)
      return std::nullopt;
    // ceil((upper - lower) / step) without overflow: the difference of two
    // int64_t fits in uint64_t.
    uint64_t count = 0;
    if (*upper > *lower) {
      uint64_t span =
          static_cast<uint64_t>(*upper) - static_cast<uint64_t>(*lower);
      count = llvm::divideCeil(span, static_cast<uint64_t>(*step));
    }
    bool overflowed = false;
    space.total = llvm::SaturatingMultiply(space.total, count, &overflowed);
    if (overflowed || space.total >= limit)
      return std::nullopt;
    space.lowerBounds.push_back(*lower);
    space.steps.push_back(*step);
    space.counts.push_back(static_cast<int64_t>(count));
  }
  return space;
}
