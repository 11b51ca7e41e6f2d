//===- Portfolio.cpp - The best of several greedy placements --------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Production planners do not bet on one order: XLA's heap simulator runs its
// decreasing-size (spatial) and longest-lifetime (temporal) orders and keeps
// the smaller heap, TFLite tries greedy-by-size and greedy-by-breadth. No
// order wins everywhere (docs/benchmarks.md: the skyline, lifetime or first
// fit by conflicts on dense traces, conflicts on random and transformer-like
// schedules), so `portfolio` runs the nine placements (five orders into the
// best gap, two into the lowest, the skyline and the long-lived skyline)
// and keeps the smallest arena, at the sum of their costs in work; the
// members are independent, so they run side by side on up to `threads`
// threads, and which one wins does not depend on how.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Algorithms.h"

#include "RunInParallel.h"

#include <iterator>

using namespace memplan;

PlanResult memplan::planPortfolio(const Problem &problem, unsigned threads) {
  static constexpr Algorithm kMembers[] = {
      Algorithm::GreedyBySize,        Algorithm::BestFit,
      Algorithm::GreedyByBreadth,     Algorithm::GreedyByLifetime,
      Algorithm::GreedyByConflicts,   Algorithm::FirstFitBySize,
      Algorithm::FirstFitByConflicts, Algorithm::Skyline,
      Algorithm::LongLivedSkyline};
  constexpr size_t kCount = std::size(kMembers);
  std::vector<PlanResult> results(kCount);
  runInParallel(kCount, threads,
                [&](size_t i) { results[i] = plan(problem, kMembers[i]); });
  PlanResult best;
  PortfolioSummary summary;
  for (size_t i = 0; i < kCount; ++i) {
    PlanResult &result = results[i];
    if (!result.ok())
      return result; // a bad problem or an overflow fails every member
    std::string name(getAlgorithmName(kMembers[i]));
    summary.arenas.emplace_back(name, result.solution.arenaSize);
    if (summary.winner.empty() ||
        result.solution.arenaSize < best.solution.arenaSize) {
      best = std::move(result);
      summary.winner = name;
    }
  }
  best.solution.portfolio = std::move(summary);
  return best;
}
