//===- ValidatorTest.cpp - The checker rejects bad plans ------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PlannerTestUtils.h"

using namespace memplan;
using namespace memplan::test;

namespace {

Solution solutionOf(std::vector<uint64_t> offsets, uint64_t arena) {
  Solution solution;
  solution.offsets = std::move(offsets);
  solution.arenaSize = arena;
  return solution;
}

TEST(Validator, AcceptsAValidPlan) {
  Problem problem = makeProblem({{10, 0, 2}, {10, 1, 3}, {10, 2, 4}});
  EXPECT_FALSE(validateSolution(problem, solutionOf({0, 10, 0}, 20)));
}

TEST(Validator, RejectsOverlapOfLiveBuffers) {
  Problem problem = makeProblem({{10, 0, 2}, {10, 1, 3}});
  std::optional<ValidationError> error =
      validateSolution(problem, solutionOf({0, 5}, 15));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->first, 0u);
  EXPECT_EQ(error->second, 1u);
  EXPECT_NE(error->message.find("overlap in memory"), std::string::npos);
  // Same offset, or one inside the other.
  EXPECT_TRUE(validateSolution(problem, solutionOf({0, 0}, 10)));
  Problem nested = makeProblem({{100, 0, 5}, {10, 2, 3}});
  EXPECT_TRUE(validateSolution(nested, solutionOf({0, 40}, 100)));
  EXPECT_TRUE(validateSolution(nested, solutionOf({40, 45}, 140)));
}

TEST(Validator, AllowsReuseAcrossHalfOpenBoundaries) {
  Problem problem = makeProblem({{10, 0, 2}, {10, 2, 4}});
  EXPECT_FALSE(validateSolution(problem, solutionOf({0, 0}, 10)));
}

TEST(Validator, IgnoresZeroSizedBuffers) {
  Problem problem = makeProblem({{10, 0, 4}, {0, 1, 2}});
  EXPECT_FALSE(validateSolution(problem, solutionOf({0, 5}, 10)));
}

TEST(Validator, RejectsMisalignment) {
  Problem problem = makeProblem({{10, 0, 2}});
  problem.buffers[0].alignment = 16;
  std::optional<ValidationError> error =
      validateSolution(problem, solutionOf({8}, 18));
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("not aligned to 16"), std::string::npos);
}

TEST(Validator, RejectsAWrongArenaSize) {
  Problem problem = makeProblem({{10, 0, 2}, {10, 1, 3}});
  EXPECT_TRUE(validateSolution(problem, solutionOf({0, 10}, 19)));
  EXPECT_TRUE(validateSolution(problem, solutionOf({0, 10}, 21)));
  EXPECT_FALSE(validateSolution(problem, solutionOf({0, 10}, 20)));
}

TEST(Validator, RejectsWrongOffsetCountAndOverflow) {
  Problem problem = makeProblem({{10, 0, 2}});
  EXPECT_TRUE(validateSolution(problem, solutionOf({}, 0)));
  EXPECT_TRUE(validateSolution(problem, solutionOf({UINT64_MAX - 4}, 0)));
}

TEST(Validator, FindsAConflictAmongManyBuffers) {
  // A valid chain, then one buffer moved onto a live neighbour.
  Problem problem;
  Solution solution;
  for (int i = 0; i < 1000; ++i) {
    problem.buffers.push_back({64, i, i + 2, 1});
    solution.offsets.push_back((i % 2) * 64);
  }
  solution.arenaSize = 128;
  EXPECT_FALSE(validateSolution(problem, solution));
  solution.offsets[500] = 32;
  std::optional<ValidationError> error = validateSolution(problem, solution);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->first, 499u);
  EXPECT_EQ(error->second, 500u);
}

} // namespace
