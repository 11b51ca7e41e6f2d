//===- RegionExecution.cpp - How an op runs its regions -------------------===//

#include "memplan/Analysis/RegionExecution.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::memplan;

RegionExecution mlir::memplan::getRegionExecution(Operation *op) {
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
