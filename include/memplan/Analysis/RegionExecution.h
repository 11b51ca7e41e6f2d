//===- RegionExecution.h - How an op runs its regions -----------*- C++ -*-===//
//
// Whether memplan may reason about the regions of an op, and how: a buffer
// allocated in a region shares bytes with others only when every op around
// it runs its regions one execution at a time, and a use inside a region
// that repeats keeps a buffer from outside alive for the whole op.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_REGIONEXECUTION_H
#define MEMPLAN_ANALYSIS_REGIONEXECUTION_H

#include "mlir/IR/Operation.h"

namespace mlir::memplan {

enum class RegionExecution {
  /// Each region runs at most once per execution of the op, one after
  /// another (scf.if, scf.execute_region, scf.index_switch, affine.if).
  Once,
  /// Regions may run many times, one execution after another (scf.for,
  /// scf.while, affine.for, the body of a structured linalg op).
  Repeated,
  /// Executions of a region may overlap in time (scf.parallel, scf.forall).
  Concurrent,
  /// Not modelled: the op does not describe its control flow through
  /// RegionBranchOpInterface (gpu.launch, affine.parallel, unknown ops), or
  /// runs its regions asynchronously or elsewhere (async.execute, OpenACC).
  Unknown,
};

/// How `op` runs its regions.
RegionExecution getRegionExecution(Operation *op);

} // namespace mlir::memplan

#endif // MEMPLAN_ANALYSIS_REGIONEXECUTION_H
