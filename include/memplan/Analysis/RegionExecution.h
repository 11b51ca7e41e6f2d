//===- RegionExecution.h - How an op runs its regions -----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace memplan {

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
RegionExecution getRegionExecution(mlir::Operation *op);

/// The iterations of a loop whose bounds and steps are compile-time
/// constants (through LoopLikeOpInterface: scf.forall, scf.parallel,
/// scf.for). Dimension d runs lowerBounds[d], lowerBounds[d] + steps[d], ...
/// below its upper bound: counts[d] iterations.
struct StaticIterationSpace {
  llvm::SmallVector<int64_t> lowerBounds, steps, counts;
  /// The product of the counts (iterations in all).
  uint64_t total = 1;
};

/// The iteration space of `loop`, or nullopt when a bound or step is not a
/// constant, a step is not positive, or there are 2^62 iterations or more.
std::optional<StaticIterationSpace>
getStaticIterationSpace(mlir::Operation *loop);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_REGIONEXECUTION_H
