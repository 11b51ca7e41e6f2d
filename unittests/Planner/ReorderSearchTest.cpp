//===- ReorderSearchTest.cpp - Skyline plans from perturbed orders --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// improveByReordering (lib/Planner/Search/ReorderSearch.h) on its own: every
// plan it returns passes the validator (written apart from the placement it
// runs), is never larger than the plan it started from, is reproducible with
// a node budget, and its first plan is that of its base's greedy algorithm
// (the skyline, or first fit by conflicts).
//
//===----------------------------------------------------------------------===//

#include "ReorderSearch.h"
#include "ProblemGenerators.h"
#include "SearchBudget.h"
#include "memplan/Planner/GreedyAlgorithms.h"
#include "memplan/Planner/Validator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

using namespace memplan;

namespace {

/// Problems shaped like compiler traces (many buffers live at once, sizes
/// over four orders of magnitude, half of them aligned up to 256 bytes).
Problem traceLikeProblem(std::mt19937_64 &rng, size_t count) {
  return generateRandomProblem(rng, traceLikeShape(count));
}

SearchBudget nodeBudget(uint64_t nodes) {
  SearchBudget budget;
  budget.deadline = SearchClock::now() + std::chrono::seconds(600);
  budget.nodeLimit = nodes;
  return budget;
}

/// Each base with the greedy algorithm whose plan is its first.
struct BaseCase {
  ReorderBase base;
  PlanResult (*greedy)(const Problem &);
};
constexpr BaseCase kBases[] = {
    {ReorderBase::Skyline, planSkyline},
    {ReorderBase::FirstFitByConflicts, planFirstFitByConflicts}};

/// `plans` plans' worth of nodes for `problem`.
uint64_t plansWorth(const Problem &problem, uint64_t plans) {
  return plans *
         std::max<uint64_t>(1, problem.buffers.size() / kReorderBuffersPerNode);
}

} // namespace

// From each base's own first plan (so that only perturbed orders can lower
// it), on one and three walks: valid, never larger, lower on most of these,
// the same plan for the same budget, within it.
TEST(ReorderSearch, LowersTraceLikeProblemsAndNeverRaises) {
  for (const BaseCase &base : kBases) {
    SCOPED_TRACE(base.base == ReorderBase::Skyline ? "skyline" : "first fit");
    std::mt19937_64 rng(2027);
    int lowered = 0;
    for (int round = 0; round < 4; ++round) {
      Problem problem = traceLikeProblem(rng, 300 + 100 * round);
      PlanResult start = base.greedy(problem);
      ASSERT_TRUE(start.ok());
      for (unsigned walks : {1u, 3u}) {
        Solution solution = start.solution;
        SearchBudget budget = nodeBudget(plansWorth(problem, 30));
        uint64_t improvements =
            improveByReordering(problem, solution, computeLowerBound(problem),
                                budget, walks, base.base);
        EXPECT_FALSE(validateSolution(problem, solution)) << "round " << round;
        EXPECT_LE(solution.arenaSize, start.solution.arenaSize);
        EXPECT_EQ(solution.arenaSize<start.solution.arenaSize, improvements> 0)
            << "round " << round;
        EXPECT_LE(budget.nodes, budget.nodeLimit);
        if (walks == 1)
          lowered += solution.arenaSize < start.solution.arenaSize;

        Solution again = start.solution;
        SearchBudget same = nodeBudget(plansWorth(problem, 30));
        improveByReordering(problem, again, computeLowerBound(problem), same,
                            walks, base.base);
        EXPECT_EQ(again.offsets, solution.offsets) << "round " << round;
      }
    }
    EXPECT_GE(lowered, 3);
  }
}

// With one plan's worth of nodes, the plan is the base's greedy algorithm's,
// from its own order, unperturbed: from the naive layout (larger), that plan
// exactly; with less than one plan's worth, nothing is placed or counted.
TEST(ReorderSearch, FirstPlanIsTheBasesOwn) {
  for (const BaseCase &base : kBases) {
    SCOPED_TRACE(base.base == ReorderBase::Skyline ? "skyline" : "first fit");
    std::mt19937_64 rng(7);
    for (int round = 0; round < 5; ++round) {
      Problem problem = traceLikeProblem(rng, 200);
      PlanResult naive = planNaive(problem);
      PlanResult expected = base.greedy(problem);
      ASSERT_TRUE(naive.ok() && expected.ok());
      ASSERT_LT(expected.solution.arenaSize, naive.solution.arenaSize);

      Solution solution = naive.solution;
      SearchBudget budget = nodeBudget(plansWorth(problem, 1));
      EXPECT_EQ(improveByReordering(problem, solution, 0, budget, 1, base.base),
                1u);
      EXPECT_EQ(solution.offsets, expected.solution.offsets)
          << "round " << round;
      EXPECT_EQ(budget.nodes, budget.nodeLimit);

      Solution untouched = naive.solution;
      SearchBudget tooSmall = nodeBudget(plansWorth(problem, 1) - 1);
      EXPECT_EQ(
          improveByReordering(problem, untouched, 0, tooSmall, 1, base.base),
          0u);
      EXPECT_EQ(untouched.offsets, naive.solution.offsets);
      EXPECT_EQ(tooSmall.nodes, 0u);
    }
  }
}

// A plan already at the target is left alone, without a node spent.
TEST(ReorderSearch, StopsAtTheTarget) {
  std::mt19937_64 rng(11);
  Problem problem = traceLikeProblem(rng, 200);
  PlanResult start = planGreedyBySize(problem);
  ASSERT_TRUE(start.ok());
  Solution solution = start.solution;
  SearchBudget budget = nodeBudget(plansWorth(problem, 10));
  EXPECT_EQ(improveByReordering(problem, solution, solution.arenaSize, budget),
            0u);
  EXPECT_EQ(solution.offsets, start.solution.offsets);
  EXPECT_EQ(budget.nodes, 0u);
}
