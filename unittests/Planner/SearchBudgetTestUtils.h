//===- SearchBudgetTestUtils.h - Node budgets for search tests --*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For the tests of the search's internal steps (ReorderSearchTest,
// JostleTest): budgets of nodes, with a deadline far enough away that only
// the nodes decide, so that results are reproducible.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_UNITTESTS_PLANNER_SEARCHBUDGETTESTUTILS_H
#define MEMPLAN_UNITTESTS_PLANNER_SEARCHBUDGETTESTUTILS_H

#include "ReorderSearch.h"
#include "SearchBudget.h"
#include "memplan/Planner/Problem.h"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace memplan::test {

/// `nodes` nodes, and ten minutes.
inline SearchBudget nodeBudget(uint64_t nodes) {
  SearchBudget budget;
  budget.deadline = SearchClock::now() + std::chrono::seconds(600);
  budget.nodeLimit = nodes;
  return budget;
}

/// `plans` plans' worth of nodes for `problem` (kReorderBuffersPerNode
/// buffers a node).
inline uint64_t plansWorth(const Problem &problem, uint64_t plans) {
  return plans *
         std::max<uint64_t>(1, problem.buffers.size() / kReorderBuffersPerNode);
}

} // namespace memplan::test

#endif // MEMPLAN_UNITTESTS_PLANNER_SEARCHBUDGETTESTUTILS_H
