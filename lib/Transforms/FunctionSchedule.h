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

namespace memplan {

/// How lower bounds are measured (as --plan-offsets with the same options
/// will plan) and how far the exact search goes.
struct ScheduleSettings {
  bool inPlace = true;
  bool resultsInCallerBuffers = true;
  unsigned exactOps = 16;
};

/// Reorders the body of `function` (one block) to the candidate order with
/// the lowest lower bound, keeping the input order on ties; records the
/// input order's bound (memplan.unscheduled_lower_bound) and emits one
/// remark. Returns whether the order changed. Functions without a body or
/// with several blocks are left as they are (false); a function already
/// planned is an error.
mlir::FailureOr<bool> scheduleFunction(mlir::FunctionOpInterface function,
                                       const ScheduleSettings &settings);

/// The lower bound of `body` in its current order, as --plan-offsets with
/// these options measures it; fails with the liveness's diagnostic.
mlir::FailureOr<uint64_t> measureLowerBound(mlir::Region &body, bool inPlace,
                                            bool resultsInCallerBuffers);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_FUNCTIONSCHEDULE_H
