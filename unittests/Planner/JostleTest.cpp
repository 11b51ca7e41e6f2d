//===- JostleTest.cpp - Plans packed from the top, then the bottom --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// improveByJostling (lib/Planner/Search/Jostle.h) on its own: every plan it
// returns passes the validator (written apart from the placement it runs),
// with mixed alignments too; it is never larger than the plan it started
// from, the same for the same budget, within it; a round lowers a plan that
// packing from the bottom alone cannot; and it stops, unchanged, at the
// target, without a round's budget, and where a size turned upside down
// would overflow.
//
//===----------------------------------------------------------------------===//

#include "Jostle.h"
#include "OffsetPlacement.h"
#include "ProblemGenerators.h"
#include "SearchBudget.h"
#include "SearchBudgetTestUtils.h"
#include "memplan/Planner/GreedyAlgorithms.h"
#include "memplan/Planner/Validator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

using namespace memplan;
using memplan::test::nodeBudget;

namespace {

/// `rounds` rounds' worth of nodes for `problem` (two placements each).
uint64_t roundsWorth(const Problem &problem, uint64_t rounds) {
  return test::plansWorth(problem, 2 * rounds);
}

Solution solutionOf(const Problem &problem, std::vector<uint64_t> offsets) {
  Solution solution;
  solution.offsets = std::move(offsets);
  for (size_t i = 0; i < problem.buffers.size(); ++i)
    if (problem.buffers[i].size)
      solution.arenaSize = std::max(
          solution.arenaSize, solution.offsets[i] + problem.buffers[i].size);
  return solution;
}

} // namespace

// From greedy by size's and the skyline's plans of problems shaped like
// compiler traces (every third buffer aligned to up to 256 bytes, so the
// turned plan's ceiling and sizes are rounded; some buffers empty): valid,
// never larger, lower on most, the same for the same budget, within it.
TEST(Jostle, LowersTraceLikeProblemsAndNeverRaises) {
  std::mt19937_64 rng(20261202);
  int lowered = 0, tried = 0;
  for (int round = 0; round < 6; ++round) {
    Problem problem =
        generateRandomProblem(rng, traceLikeShape(300 + 100 * round));
    // Empty buffers conflict with nothing, wherever they sit.
    for (size_t i = round; i < problem.buffers.size(); i += 17)
      problem.buffers[i].size = 0;
    for (PlanResult (*greedy)(const Problem &) :
         {+[](const Problem &p) { return planGreedyBySize(p); }, planSkyline}) {
      PlanResult start = greedy(problem);
      ASSERT_TRUE(start.ok());
      Solution solution = start.solution;
      SearchBudget budget = nodeBudget(roundsWorth(problem, 20));
      uint64_t improvements = improveByJostling(
          problem, solution, computeLowerBound(problem), budget);
      std::optional<ValidationError> error =
          validateSolution(problem, solution);
      EXPECT_FALSE(error) << "round " << round << ": " << error->message;
      EXPECT_LE(solution.arenaSize, start.solution.arenaSize);
      EXPECT_EQ(solution.arenaSize<start.solution.arenaSize, improvements> 0)
          << "round " << round;
      EXPECT_LE(budget.nodes, budget.nodeLimit);
      lowered += solution.arenaSize < start.solution.arenaSize;
      ++tried;

      Solution again = start.solution;
      SearchBudget same = nodeBudget(roundsWorth(problem, 20));
      improveByJostling(problem, again, computeLowerBound(problem), same);
      EXPECT_EQ(again.offsets, solution.offsets) << "round " << round;
      EXPECT_EQ(same.nodes, budget.nodes);
    }
  }
  EXPECT_GE(lowered, tried * 3 / 4);
}

// Y [0, 5) at 0, X [0, 10) at 1 and Z [5, 10) (two bytes) at 2: 4 bytes.
// Packed from the bottom in the order of their offsets they stay where they
// are (the order the reorderings' first fit found useless); from the top,
// Z goes first, X under it, Y beside X, and the round ends at 3 bytes, the
// lower bound: X at 0, Z and Y at 1 (they are never live together).
TEST(Jostle, OneRoundLowersWhatPackingFromTheBottomCannot) {
  Problem problem;
  problem.buffers = {{1, 0, 5, 1}, {1, 0, 10, 1}, {2, 5, 10, 1}};
  Solution start = solutionOf(problem, {0, 1, 2});
  ASSERT_FALSE(validateSolution(problem, start));
  ASSERT_EQ(start.arenaSize, 4u);
  PlanResult bottomOnly =
      placeInOrder(problem, {0, 1, 2}, {}, OffsetPlacement::Fit::First);
  ASSERT_TRUE(bottomOnly.ok());
  EXPECT_EQ(bottomOnly.solution.arenaSize, 4u);

  Solution solution = start;
  SearchBudget budget = nodeBudget(roundsWorth(problem, 1));
  EXPECT_EQ(improveByJostling(problem, solution, 0, budget), 1u);
  EXPECT_EQ(solution.offsets, (std::vector<uint64_t>{1, 0, 1}));
  EXPECT_EQ(solution.arenaSize, 3u);
  EXPECT_EQ(budget.nodes, budget.nodeLimit);
}

// On problems cut from a full rectangle (the lower bound is reachable), from
// greedy by size's plan, with budget for many rounds: never below the lower
// bound (the validator would catch a plan that cheats), and the rounds stop
// by themselves once one changes nothing (nodes left over) or the bound is
// reached.
TEST(Jostle, StopsWhenARoundChangesNothing) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Problem problem = generatePackedProblem(seed, 60, 40, 1000);
    PlanResult start = planGreedyBySize(problem);
    ASSERT_TRUE(start.ok());
    Solution solution = start.solution;
    SearchBudget budget = nodeBudget(roundsWorth(problem, 10000));
    improveByJostling(problem, solution, computeLowerBound(problem), budget);
    EXPECT_FALSE(validateSolution(problem, solution)) << "seed " << seed;
    EXPECT_GE(solution.arenaSize, computeLowerBound(problem));
    EXPECT_LT(budget.nodes, budget.nodeLimit) << "seed " << seed;
  }
}

// At the target, with less than a round's first placement, or where a size
// rounded up to its alignment, or a top with it, would overflow: unchanged,
// nothing spent.
TEST(Jostle, LeavesThePlanAloneWhenItCannotRun) {
  std::mt19937_64 rng(5);
  Problem problem = generateRandomProblem(rng, traceLikeShape(200));
  PlanResult start = planGreedyBySize(problem);
  ASSERT_TRUE(start.ok());

  Solution atTarget = start.solution;
  SearchBudget budget = nodeBudget(roundsWorth(problem, 5));
  EXPECT_EQ(improveByJostling(problem, atTarget, atTarget.arenaSize, budget),
            0u);
  EXPECT_EQ(atTarget.offsets, start.solution.offsets);
  EXPECT_EQ(budget.nodes, 0u);

  Solution starved = start.solution;
  SearchBudget tooSmall = nodeBudget(roundsWorth(problem, 1) / 2 - 1);
  EXPECT_EQ(improveByJostling(problem, starved, 0, tooSmall), 0u);
  EXPECT_EQ(starved.offsets, start.solution.offsets);
  EXPECT_EQ(tooSmall.nodes, 0u);

  Problem huge;
  huge.buffers = {{UINT64_MAX - 100, 0, 2, 1}, {8, 2, 4, 1024}};
  Solution hugePlan = solutionOf(huge, {0, 0});
  ASSERT_FALSE(validateSolution(huge, hugePlan));
  SearchBudget enough = nodeBudget(roundsWorth(huge, 5));
  EXPECT_EQ(improveByJostling(huge, hugePlan, 0, enough), 0u);
  EXPECT_EQ(hugePlan.offsets, (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(enough.nodes, 0u);

  // Each size rounds up within 2^64, but the second buffer's top would not:
  // 2^63 + 2^63.
  Problem rounded;
  rounded.buffers = {{uint64_t(1) << 63, 0, 2, 1},
                     {(uint64_t(1) << 63) - 1, 0, 2, 1024}};
  Solution roundedPlan = solutionOf(rounded, {0, uint64_t(1) << 63});
  ASSERT_FALSE(validateSolution(rounded, roundedPlan));
  SearchBudget some = nodeBudget(roundsWorth(rounded, 5));
  EXPECT_EQ(improveByJostling(rounded, roundedPlan, 0, some), 0u);
  EXPECT_EQ(roundedPlan.offsets, (std::vector<uint64_t>{0, uint64_t(1) << 63}));
  EXPECT_EQ(some.nodes, 0u);
}
