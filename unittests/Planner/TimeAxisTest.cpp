//===- TimeAxisTest.cpp - Ranks of schedule positions ---------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// TimeAxis answers ranks from a table where the positions are dense and by
// binary search where they are not; both must give, for every position
// asked, the number of distinct positions of the problem below it, which
// this test counts directly.
//
//===----------------------------------------------------------------------===//

#include "TimeAxis.h"

#include "gtest/gtest.h"

#include <limits>
#include <random>
#include <set>

using namespace memplan;

namespace {

/// Checks `problem`'s axis against a count of its distinct positions, at
/// each of them, next to each, and beyond both ends.
void expectCountedRanks(const Problem &problem, const std::string &what) {
  std::set<int64_t> distinct;
  for (const Buffer &buffer : problem.buffers) {
    distinct.insert(buffer.start);
    distinct.insert(buffer.end);
  }
  TimeAxis axis(problem);
  ASSERT_EQ(axis.size(), distinct.size()) << what;
  std::set<int64_t> asked;
  for (int64_t position : distinct)
    for (int64_t delta : {-1, 0, 1})
      if ((delta < 0 && position == std::numeric_limits<int64_t>::min()) ||
          (delta > 0 && position == std::numeric_limits<int64_t>::max()))
        continue;
      else
        asked.insert(position + delta);
  for (int64_t position : asked) {
    size_t below =
        std::distance(distinct.begin(), distinct.lower_bound(position));
    ASSERT_EQ(axis.rank(position), below) << what << ", position " << position;
  }
}

TEST(TimeAxis, RanksCountThePositionsBelowDenseOrSparse) {
  std::mt19937_64 rng(2026112701);
  for (int instance = 0; instance < 200; ++instance) {
    // Spans from a few positions per buffer (a table) to far more (a
    // sort), some starting below zero.
    size_t count = 1 + instance % 40;
    int64_t span = 1 + int64_t(count) * (1 + instance % 12);
    int64_t offset = instance % 3 == 0 ? -span / 2 : instance % 7;
    std::uniform_int_distribution<int64_t> start(0, span - 1);
    Problem problem;
    for (size_t i = 0; i < count; ++i) {
      int64_t first = start(rng);
      std::uniform_int_distribution<int64_t> length(1, span - first);
      problem.buffers.push_back(
          {1, offset + first, offset + first + length(rng), 1});
    }
    expectCountedRanks(problem, "instance " + std::to_string(instance));
  }
}

TEST(TimeAxis, RanksAtTheEndsOfTheIntegers) {
  // Positions far apart and at the limits of int64: the table is never
  // built where the span does not fit it.
  Problem extremes;
  extremes.buffers.push_back({1, std::numeric_limits<int64_t>::min(), 0, 1});
  extremes.buffers.push_back({1, -5, std::numeric_limits<int64_t>::max(), 1});
  expectCountedRanks(extremes, "extremes");
  // One buffer: a span of one position per buffer.
  Problem one;
  one.buffers.push_back({8, 41, 42, 1});
  expectCountedRanks(one, "one buffer");
  // No buffers: no positions.
  EXPECT_EQ(TimeAxis(Problem()).size(), 0u);
}

} // namespace
