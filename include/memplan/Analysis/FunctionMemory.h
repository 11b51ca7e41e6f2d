//===- FunctionMemory.h - Every byte a planned function needs ---*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The memory of a planned function by role, read from the plan written in
// the IR after it is proven: what --memplan-memory-report prints, and what
// tools that weigh many generated graphs (memplan-fit) compare, in process.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_FUNCTIONMEMORY_H
#define MEMPLAN_ANALYSIS_FUNCTIONMEMORY_H

#include "memplan/Planner/CachingAllocatorModel.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace memplan {

struct FunctionMemory {
  std::string name;
  uint64_t parameters = 0;
  std::map<std::string, uint64_t> weightsByType;
  uint64_t weights = 0, kvCache = 0, inputs = 0, optimizerStates = 0,
           masterWeights = 0, gradientAccumulators = 0, otherArguments = 0;
  /// Persistent buckets of data-parallel gradient reduction (DDP's buckets,
  /// ZeRO's reduction bucket).
  uint64_t communicationBuffers = 0;
  /// Arguments in the host's memory (memplan.host: ZeRO-Offload's optimizer
  /// partition), whatever their role: not device memory, not in the total.
  uint64_t host = 0;
  uint64_t arena = 0, lowerBound = 0, withoutReuse = 0, bufferCount = 0;
  /// The same tensors in PyTorch's caching allocator (a model).
  CachingAllocatorPeaks pytorch;
  /// The lower bound of the order as written, if --memplan-schedule ran.
  std::optional<uint64_t> unscheduledLowerBound;
  /// The lower bound before --memplan-fit-budget, and the arithmetic
  /// operations its recomputations add to a step, if it ran.
  std::optional<uint64_t> unrematerializedLowerBound, recomputedFlops;
  uint64_t scratch = 0, gradients = 0, outputs = 0;
  /// Arena bytes of sharded weights gathered for their use (ZeRO-3), summed
  /// over the buffers as `gradients` is (not what is live at the peak).
  uint64_t gathered = 0;
  /// The largest math-library workspace one op takes, and how much the
  /// workspaces add to the lower bound (the most bytes live at once with
  /// them, less the most without them): the report's own line, so that a
  /// total can be compared without the library's share.
  uint64_t libraryWorkspace = 0, libraryWorkspaceAtPeak = 0;

  /// Every byte of device memory the function's step needs with the plan:
  /// its arguments, the arena and the caller's output buffers.
  uint64_t total() const {
    return weights + kvCache + inputs + optimizerStates + masterWeights +
           gradientAccumulators + communicationBuffers + otherArguments +
           arena + outputs;
  }
};

/// The steps the caching-allocator model runs by default: the peaks are the
/// second step's, as a training loop shows them from then on.
constexpr unsigned kCachingAllocatorSteps = 2;

/// Proves the plan recorded on `function` (see verifyFunctionPlan), then
/// measures it; fails, with the verifier's error, on a plan that is not
/// sound. The caching-allocator model runs `allocatorSteps` steps (at least
/// one) and reports the last one's peaks.
mlir::FailureOr<FunctionMemory>
measureFunctionMemory(mlir::FunctionOpInterface function,
                      unsigned allocatorSteps = kCachingAllocatorSteps);

/// What can be known of measureFunctionMemory(function) before `function`
/// is planned by --plan-offsets (without schedule= or fit-budget=, which
/// change the function first) with these options: one liveness analysis,
/// no placement. A search can set aside a step that cannot fit without
/// planning it.
struct FunctionMemoryBounds {
  /// A lower bound of total() for every plan: the same arguments and output
  /// buffers, and in place of the arena the most bytes live at once among
  /// the buffers --plan-offsets would place, which no arena holds less
  /// than.
  uint64_t total = 0;
  /// The caching-allocator model of the same tensors, which reads their
  /// sizes and lifetimes, never their offsets: what the plan's measurement
  /// will report.
  CachingAllocatorPeaks pytorch;
};
mlir::FailureOr<FunctionMemoryBounds>
boundFunctionMemory(mlir::FunctionOpInterface function, bool inPlace = true,
                    bool resultsInCallerBuffers = true);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_FUNCTIONMEMORY_H
