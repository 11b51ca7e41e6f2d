//===- FunctionSchedule.h - Reorder one function's ops ----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the passes: what --memplan-schedule does to one function, so
// that --plan-offsets (option `schedule`) runs the same code first. It only
// touches the function it is given, so functions may be scheduled in
// parallel.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_FUNCTIONSCHEDULE_H
#define MEMPLAN_LIB_TRANSFORMS_FUNCTIONSCHEDULE_H

#include "mlir/IR/Region.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>
#include <string>

namespace memplan {

/// How lower bounds are measured (as --plan-offsets with the same options
/// will plan) and how far the exact search goes.
struct ScheduleSettings {
  bool inPlace = true;
  bool resultsInCallerBuffers = true;
  unsigned exactOps = 16;
  /// Compute the bound over all orders (BlockSchedule::boundOverOrders, the
  /// remark's "optimal"); the reordering between rounds of
  /// --memplan-fit-budget reads only the order, and skips its O(n^2) bits.
  bool boundOverOrders = true;
};

/// Reorders the body of `function` (one block) to the candidate order with
/// the lowest lower bound, ties broken by the fewest byte-steps (bytes live
/// summed over the steps: an order that frees memory sooner everywhere
/// else leaves less for rematerialisation to do), keeping the input order
/// when none is better; records the
/// input order's bound (memplan.unscheduled_lower_bound) and emits one
/// remark. Returns whether the order changed. Functions without a body or
/// with several blocks are left as they are (false); a function already
/// planned is an error.
mlir::FailureOr<bool> scheduleFunction(mlir::FunctionOpInterface function,
                                       const ScheduleSettings &settings);

/// What a body's order costs in memory, as --plan-offsets measures it: the
/// lower bound, and the sum over buffers of bytes x steps live.
struct MemoryProfile {
  uint64_t lowerBound = 0;
  uint64_t byteSteps = 0;
};

/// What scheduleBlock did.
struct BlockSchedule {
  MemoryProfile before, after;
  /// The candidate kept (empty: the input order).
  std::string name;
  /// The exact order of the scheduling model was among the candidates.
  bool proven = false;
  /// The most bytes live at one op in every order (scheduleLowerBound;
  /// 0 when the graph was too large to compute it), and that op. The kept
  /// order is optimal when its lower bound equals it.
  uint64_t boundOverOrders = 0;
  mlir::Operation *boundAt = nullptr;
};

/// scheduleFunction's reordering of a function's single block, silently
/// (no remark, no attributes): --memplan-fit-budget reorders between rounds
/// of recomputation with it.
mlir::FailureOr<BlockSchedule> scheduleBlock(mlir::Block &block,
                                             const ScheduleSettings &settings);

/// The profile of `body` in its current order.
mlir::FailureOr<MemoryProfile> measureProfile(mlir::Region &body, bool inPlace,
                                              bool resultsInCallerBuffers);

/// The lower bound of `body` in its current order, as --plan-offsets with
/// these options measures it; fails with the liveness's diagnostic.
mlir::FailureOr<uint64_t> measureLowerBound(mlir::Region &body, bool inPlace,
                                            bool resultsInCallerBuffers);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_FUNCTIONSCHEDULE_H
