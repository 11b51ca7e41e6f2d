//===- IndependentWalks.h - Walks on threads of their own, best kept ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the search. The neighbourhood moves (NeighbourhoodSearch.h)
// and the reorderings (ReorderSearch.h) both improve a plan by random walks
// whose steps are sequential (each starts from what the last one left), so
// their parallelism is across walks: independent walks from the same plan,
// each with its own copy, seed and equal share of the node budget, the best
// arena kept. The result then depends on the number of walks, never on how
// the threads ran.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_SEARCH_INDEPENDENTWALKS_H
#define MEMPLAN_LIB_PLANNER_SEARCH_INDEPENDENTWALKS_H

#include "SearchBudget.h"
#include "memplan/Planner/Problem.h"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

namespace memplan {

/// Runs `walk(solution, budget, seed)` (which improves `solution` within
/// `budget` and returns how many of its steps lowered the arena) `walks`
/// times from `solution`: walk w with seed w << 32, on a thread of its own
/// beside the calling one's walk 0, with an equal share of what is left of
/// a node budget. The best arena replaces `solution` (the lowest walk on
/// ties), the nodes of all walks are counted in `budget`, and the result is
/// the best walk's improvements.
template <typename Walk>
uint64_t runIndependentWalks(Solution &solution, SearchBudget &budget,
                             unsigned walks, Walk &&walk) {
  if (walks <= 1)
    return walk(solution, budget, 0);
  std::vector<Solution> results(walks, solution);
  std::vector<SearchBudget> shares(walks, budget);
  std::vector<uint64_t> improvements(walks, 0);
  uint64_t left =
      budget.nodeLimit > budget.nodes ? budget.nodeLimit - budget.nodes : 0;
  for (unsigned w = 0; w < walks; ++w) {
    shares[w].nodes = 0;
    if (budget.nodeLimit)
      shares[w].nodeLimit =
          std::max<uint64_t>(1, left / walks + (w < left % walks));
  }
  {
    std::vector<std::thread> helpers;
    for (unsigned w = 1; w < walks; ++w)
      helpers.emplace_back([&, w] {
        improvements[w] = walk(results[w], shares[w], uint64_t(w) << 32);
      });
    improvements[0] = walk(results[0], shares[0], 0);
    for (std::thread &helper : helpers)
      helper.join();
  }
  unsigned best = 0;
  for (unsigned w = 1; w < walks; ++w)
    if (results[w].arenaSize < results[best].arenaSize)
      best = w;
  for (const SearchBudget &share : shares)
    budget.nodes += share.nodes;
  solution = std::move(results[best]);
  return improvements[best];
}

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_SEARCH_INDEPENDENTWALKS_H
