//===- ReorderSearchTest.cpp - Skyline plans from perturbed orders --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// improveByReordering (lib/Planner/Search/ReorderSearch.h) on its own: every
// plan it returns passes the validator (written apart from the placement it
// runs), is never larger than the plan it started from, is reproducible with
// a node budget, its first plan is that of its base's greedy algorithm
// (the skyline, first fit by conflicts, or the skyline of the long-lived
// buffers with first fit of the others), and with a walk state it takes
// up where the last call stopped.
//
//===----------------------------------------------------------------------===//

#include "ReorderSearch.h"
#include "LongLivedSkyline.h"
#include "OffsetPlacement.h"
#include "ProblemGenerators.h"
#include "SearchBudget.h"
#include "SearchBudgetTestUtils.h"
#include "SkylinePlacement.h"
#include "memplan/Planner/GreedyAlgorithms.h"
#include "memplan/Planner/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

using namespace memplan;
using memplan::test::nodeBudget;
using memplan::test::plansWorth;

namespace {

/// Problems shaped like compiler traces (many buffers live at once, sizes
/// over four orders of magnitude, half of them aligned up to 256 bytes).
Problem traceLikeProblem(std::mt19937_64 &rng, size_t count) {
  return generateRandomProblem(rng, traceLikeShape(count));
}

/// Each base with the greedy algorithm whose plan is its first.
struct BaseCase {
  ReorderBase base;
  PlanResult (*greedy)(const Problem &);
};
constexpr BaseCase kBases[] = {
    {ReorderBase::Skyline, planSkyline},
    {ReorderBase::FirstFitByConflicts,
     [](const Problem &problem) { return planFirstFitByConflicts(problem); }},
    {ReorderBase::LongLivedSkyline, [](const Problem &problem) {
       LongLivedSkyline placement(problem);
       return placement.place(placement.defaultPriority());
     }}};

const char *nameOf(ReorderBase base) {
  switch (base) {
  case ReorderBase::Skyline:
    return "skyline";
  case ReorderBase::FirstFitByConflicts:
    return "first fit";
  case ReorderBase::LongLivedSkyline:
    return "long-lived skyline";
  }
  return "?";
}

} // namespace

// From each base's own first plan (so that only perturbed orders can lower
// it), on one and three walks: valid, never larger, lower on most of these,
// the same plan for the same budget, within it.
TEST(ReorderSearch, LowersTraceLikeProblemsAndNeverRaises) {
  for (const BaseCase &base : kBases) {
    SCOPED_TRACE(nameOf(base.base));
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
    SCOPED_TRACE(nameOf(base.base));
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

// The search's skyline base: the long-lived skyline where that placement
// splits the problem (large, with short- and long-lived buffers), the
// skyline elsewhere.
TEST(ReorderSearch, SkylineBaseSplitsLargeMixedProblems) {
  std::mt19937_64 rng(3);
  RandomProblemShape shape = traceLikeShape(kLongLivedMinBuffers);
  shape.positions = 3000;
  shape.maxLength = 1500;
  Problem large = generateRandomProblem(rng, shape);
  EXPECT_EQ(skylineBaseFor(large), ReorderBase::LongLivedSkyline);
  Problem small = traceLikeProblem(rng, kLongLivedMinBuffers / 2);
  EXPECT_EQ(skylineBaseFor(small), ReorderBase::Skyline);
  for (Buffer &buffer : large.buffers) {
    buffer.start = 0;
    buffer.end = 10;
  }
  EXPECT_EQ(skylineBaseFor(large), ReorderBase::Skyline);
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

// With a walk state, a call takes up the order the last one ended on: the
// state's arena is that order's plan (built again here by the base's own
// placement), it only falls from call to call, and a call of one plan's
// worth from a lowered state does not fall back to the base's own plan.
TEST(ReorderSearch, TakesUpWhereTheLastCallStopped) {
  for (const BaseCase &base : kBases) {
    SCOPED_TRACE(nameOf(base.base));
    std::mt19937_64 rng(2026120102);
    for (unsigned walks : {1u, 3u}) {
      Problem problem = traceLikeProblem(rng, 400);
      PlanResult start = base.greedy(problem);
      ASSERT_TRUE(start.ok());
      Solution solution = start.solution;
      ReorderWalkState state;
      uint64_t previous = start.solution.arenaSize;
      for (int call = 0; call < 4; ++call) {
        SearchBudget budget = nodeBudget(plansWorth(problem, call ? 1 : 40));
        improveByReordering(problem, solution, 0, budget, walks, base.base,
                            &state);
        SCOPED_TRACE("call " + std::to_string(call));
        LongLivedSkyline longLived(problem);
        ASSERT_EQ(state.order.size(), base.base == ReorderBase::LongLivedSkyline
                                          ? longLived.longLivedCount()
                                          : problem.buffers.size());
        std::vector<uint32_t> sorted = state.order;
        std::sort(sorted.begin(), sorted.end());
        for (uint32_t k = 0; k < sorted.size(); ++k)
          ASSERT_EQ(sorted[k], k);
        PlanResult again =
            base.base == ReorderBase::Skyline
                ? SkylinePlacement(problem).place(state.order, {})
            : base.base == ReorderBase::LongLivedSkyline
                ? longLived.place(state.order)
                : placeInOrder(problem, state.order, {},
                               OffsetPlacement::Fit::First);
        ASSERT_TRUE(again.ok());
        EXPECT_EQ(again.solution.arenaSize, state.arena);
        EXPECT_LE(state.arena, previous);
        EXPECT_GE(state.arena, solution.arenaSize);
        EXPECT_FALSE(validateSolution(problem, solution));
        previous = state.arena;
      }
      EXPECT_EQ(state.calls, 4u);
      // The first call's 40 plans lowered these problems.
      EXPECT_LT(state.arena, start.solution.arenaSize);
    }
  }
}
