//===- RandomProblemsTest.cpp - Thousands of random plans, all validated --===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PlannerTestUtils.h"
#include "ProblemGenerators.h"

#include <random>

using namespace memplan;
using namespace memplan::test;

namespace {

/// A random problem: `count` buffers with lifetimes of 1..maxLength positions
/// on a schedule of `positions`, sizes from 0 to maxSize, and some aligned.
Problem randomProblem(std::mt19937_64 &rng, size_t count, int64_t positions,
                      int64_t maxLength, uint64_t maxSize) {
  return generateRandomProblem(
      rng, {count, positions, maxLength, 0, maxSize, /*someAligned=*/true});
}

class RandomProblems : public ::testing::TestWithParam<Algorithm> {};

TEST_P(RandomProblems, EveryPlanIsValidAndAboveTheLowerBound) {
  std::mt19937_64 rng(20260101);
  for (int instance = 0; instance < 2000; ++instance) {
    size_t count = 1 + instance % 60;
    Problem problem =
        randomProblem(rng, count, 1 + instance % 40, 1 + instance % 17,
                      1 + instance * 37 % 5000);
    PlanResult result = plan(problem, GetParam());
    ASSERT_TRUE(result.ok()) << result.error;
    std::optional<ValidationError> error =
        validateSolution(problem, result.solution);
    ASSERT_FALSE(error) << "instance " << instance << ": " << error->message;
    EXPECT_GE(result.solution.arenaSize, computeLowerBound(problem));
  }
}

TEST_P(RandomProblems, LargeProblemsAreValid) {
  std::mt19937_64 rng(7);
  for (int instance = 0; instance < 5; ++instance) {
    Problem problem = randomProblem(rng, 20000, 5000, 30, 1 << 20);
    Solution solution = planAndValidate(problem, GetParam());
    EXPECT_GE(solution.arenaSize, computeLowerBound(problem));
  }
}

INSTANTIATE_TEST_SUITE_P(Planner, RandomProblems,
                         ::testing::ValuesIn(algorithmsButSearch()),
                         algorithmTestName);

TEST(RandomProblems, GreedyBySizeNeverWorseThanNaive) {
  std::mt19937_64 rng(42);
  for (int instance = 0; instance < 2000; ++instance) {
    Problem problem = randomProblem(rng, 1 + instance % 80, 1 + instance % 50,
                                    1 + instance % 23, 4096);
    uint64_t naive = planAndValidate(problem, Algorithm::Naive).arenaSize;
    uint64_t greedy =
        planAndValidate(problem, Algorithm::GreedyBySize).arenaSize;
    EXPECT_LE(greedy, naive) << "instance " << instance;
    // Naive is the sum of the sizes plus alignment padding.
    EXPECT_GE(naive, computeBytesWithoutReuse(problem));
  }
}

TEST(RandomProblems, ValidatorCatchesCorruptedPlans) {
  // The validator is not a rubber stamp: moving one buffer onto a conflicting
  // neighbour is always caught.
  std::mt19937_64 rng(99);
  int corrupted = 0;
  for (int instance = 0; instance < 500; ++instance) {
    Problem problem = randomProblem(rng, 30, 10, 5, 1000);
    for (Buffer &buffer : problem.buffers)
      buffer.size += 1; // no zero sizes here
    Solution solution = planAndValidate(problem, Algorithm::GreedyBySize);
    for (size_t i = 0; i < problem.buffers.size(); ++i) {
      for (size_t j = 0; j < problem.buffers.size(); ++j) {
        const Buffer &a = problem.buffers[i], &b = problem.buffers[j];
        if (i == j || a.end <= b.start || b.end <= a.start || a.alignment != 1)
          continue;
        Solution bad = solution;
        bad.offsets[i] = bad.offsets[j];
        bad.arenaSize = 0;
        for (size_t k = 0; k < bad.offsets.size(); ++k)
          bad.arenaSize =
              std::max(bad.arenaSize, bad.offsets[k] + problem.buffers[k].size);
        EXPECT_TRUE(validateSolution(problem, bad));
        ++corrupted;
        break;
      }
    }
  }
  EXPECT_GT(corrupted, 1000);
}

} // namespace
