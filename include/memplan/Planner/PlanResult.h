//===- PlanResult.h - A solution, or why there is none ----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What every algorithm returns. A header of its own, so that the algorithms
// (GreedyAlgorithms.h), the search (Search.h) and the dispatch by name
// (Algorithms.h) depend on it and not on each other.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_PLANRESULT_H
#define MEMPLAN_PLANNER_PLANRESULT_H

#include "memplan/Planner/Problem.h"

#include <string>

namespace memplan {

/// A solution, or why there is none (an invalid problem, or an arena that
/// would not fit in 64 bits).
struct PlanResult {
  Solution solution;
  std::string error;
  bool ok() const { return error.empty(); }
};

/// The error of a plan whose arena would not fit in 64 bits.
inline PlanResult arenaOverflow() {
  PlanResult result;
  result.error = "the arena would exceed 2^64 bytes";
  return result;
}

} // namespace memplan

#endif // MEMPLAN_PLANNER_PLANRESULT_H
