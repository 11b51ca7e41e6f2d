//===- SkylinePlacement.h - Buffers on the skyline, lowest first *- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner: the skyline placement (Skyline.cpp) with a
// priority of the caller's, for the skyline algorithm (priority: longest
// lifetime first) and the search's reorderings (perturbed priorities).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_SKYLINEPLACEMENT_H
#define MEMPLAN_LIB_PLANNER_SKYLINEPLACEMENT_H

#include "memplan/Planner/PlanResult.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace memplan {

/// The skyline placement of one problem, for any number of priorities (the
/// reorderings build hundreds): the time slots of every buffer are found
/// once, on construction. `problem` must outlive it and pass checkProblem.
class SkylinePlacement {
public:
  explicit SkylinePlacement(const Problem &problem);

  /// Builds a plan from the bottom up: the lowest valley of the placed
  /// buffers' skyline (the leftmost of equal ones) takes the unplaced buffer
  /// earliest in `priority` (a permutation of the buffer indices) whose
  /// lifetime lies within it, at the valley's height rounded up to its
  /// alignment; a valley that none fits rises to its lower neighbour.
  /// `expired`, when given, is asked every kPlacementsPerClockRead steps
  /// whether time is up; if it is, the result is kOutOfTime. Safe to call
  /// from several threads at once.
  PlanResult place(const std::vector<uint32_t> &priority,
                   const std::function<bool()> &expired = {}) const;

private:
  const Problem &problem;
  size_t slotCount;
  std::vector<uint32_t> firstSlot, lastSlot; ///< per buffer: [first, last)
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_SKYLINEPLACEMENT_H
