//===- PlannerTestUtils.h - Helpers for planner tests -----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_UNITTESTS_PLANNER_PLANNERTESTUTILS_H
#define MEMPLAN_UNITTESTS_PLANNER_PLANNERTESTUTILS_H

#include "memplan/Planner/Algorithms.h"
#include "memplan/Planner/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

namespace memplan::test {

/// {size, start, end} triples, alignment 1.
inline Problem makeProblem(
    std::initializer_list<std::tuple<uint64_t, int64_t, int64_t>> buffers) {
  Problem problem;
  for (const auto &[size, start, end] : buffers)
    problem.buffers.push_back({size, start, end, 1});
  return problem;
}

/// The distinct start and end positions of `problem`'s buffers, sorted:
/// the time slots of the references the tests compare the planner with.
inline std::vector<int64_t> sortedPositions(const Problem &problem) {
  std::vector<int64_t> positions;
  for (const Buffer &buffer : problem.buffers) {
    positions.push_back(buffer.start);
    positions.push_back(buffer.end);
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()),
                  positions.end());
  return positions;
}

/// Plans with `algorithm`, and checks the plan with the validator.
inline Solution planAndValidate(const Problem &problem, Algorithm algorithm) {
  PlanResult result = plan(problem, algorithm);
  EXPECT_TRUE(result.ok()) << result.error;
  std::optional<ValidationError> error =
      validateSolution(problem, result.solution);
  EXPECT_FALSE(error.has_value())
      << getAlgorithmName(algorithm) << ": " << error->message;
  return result.solution;
}

/// The nine greedy placements that the portfolio keeps the best of, and
/// that the search starts from on problems of 1,000 buffers or more, in the
/// order ties go to. Written here, apart from the library's own lists, so
/// that a member the library drops fails the tests that use it.
inline constexpr Algorithm kGreedyPlacements[] = {
    Algorithm::GreedyBySize,        Algorithm::BestFit,
    Algorithm::GreedyByBreadth,     Algorithm::GreedyByLifetime,
    Algorithm::GreedyByConflicts,   Algorithm::FirstFitBySize,
    Algorithm::FirstFitByConflicts, Algorithm::Skyline,
    Algorithm::LongLivedSkyline};

/// The algorithms that run without a budget (the search has its own tests):
/// every one but the search, so that a new algorithm is tested here too.
inline std::vector<Algorithm> algorithmsButSearch() {
  std::vector<Algorithm> algorithms;
  for (Algorithm algorithm : kAllAlgorithms)
    if (algorithm != Algorithm::Search)
      algorithms.push_back(algorithm);
  return algorithms;
}

/// A test name for a suite parameterised by algorithm ("greedy_by_size").
inline std::string
algorithmTestName(const ::testing::TestParamInfo<Algorithm> &info) {
  std::string name(getAlgorithmName(info.param));
  for (char &c : name)
    if (c == '-')
      c = '_';
  return name;
}

} // namespace memplan::test

#endif // MEMPLAN_UNITTESTS_PLANNER_PLANNERTESTUTILS_H
