//===- SkylineTest.cpp - The skyline placement and its query structure ----===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The skyline algorithm (lib/Planner/Skyline.cpp) against a reference
// written here from its definition, with none of its structures: a height
// per time slot, the lowest valley found by scanning the slots, the buffer
// by scanning the priority order. Offsets must be identical on random
// problems with ties, alignments and empty buffers; plans on trace-shaped
// problems must pass the validator; ContainedIntervals (its k-d tree and
// its lists by first slot) against a brute-force scan.
//
//===----------------------------------------------------------------------===//

#include "ContainedIntervals.h"
#include "PlannerTestUtils.h"
#include "ProblemGenerators.h"

#include <algorithm>
#include <numeric>
#include <random>

using namespace memplan;
using namespace memplan::test;

namespace {

/// The skyline plan, by its definition, in O(n * slots) per step.
std::vector<uint64_t> referenceSkyline(const Problem &problem) {
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<int64_t> positions = sortedPositions(problem);
  auto slot = [&](int64_t position) {
    return size_t(
        std::lower_bound(positions.begin(), positions.end(), position) -
        positions.begin());
  };
  // Priority: longer lifetime, then larger, then earlier start, then index.
  std::vector<uint32_t> priority;
  for (uint32_t id = 0; id < buffers.size(); ++id)
    if (buffers[id].size)
      priority.push_back(id);
  std::sort(priority.begin(), priority.end(), [&](uint32_t a, uint32_t b) {
    const Buffer &x = buffers[a], &y = buffers[b];
    if (x.end - x.start != y.end - y.start)
      return x.end - x.start > y.end - y.start;
    if (x.size != y.size)
      return x.size > y.size;
    if (x.start != y.start)
      return x.start < y.start;
    return a < b;
  });
  std::vector<uint64_t> height(positions.size(), 0);
  std::vector<uint64_t> offsets(buffers.size(), 0);
  std::vector<bool> placed(buffers.size(), false);
  for (size_t left = priority.size(); left;) {
    // The lowest valley: the leftmost lowest slot and the slots after it at
    // the same height.
    size_t a = std::min_element(height.begin(), height.end()) - height.begin();
    size_t b = a;
    while (b < height.size() && height[b] == height[a])
      ++b;
    auto fits = [&](uint32_t id) {
      return !placed[id] && slot(buffers[id].start) >= a &&
             slot(buffers[id].end) <= b;
    };
    auto it = std::find_if(priority.begin(), priority.end(), fits);
    if (it == priority.end()) {
      uint64_t up = UINT64_MAX;
      if (a > 0)
        up = height[a - 1];
      if (b < height.size())
        up = std::min(up, height[b]);
      std::fill(height.begin() + a, height.begin() + b, up);
      continue;
    }
    const Buffer &buffer = buffers[*it];
    uint64_t offset = *alignUp(height[a], buffer.alignment);
    offsets[*it] = offset;
    placed[*it] = true;
    --left;
    std::fill(height.begin() + slot(buffer.start),
              height.begin() + slot(buffer.end), offset + buffer.size);
  }
  return offsets;
}

/// What planSkyline must return: the reference plan, or the naive layout
/// where that is smaller (as every offset algorithm does).
std::vector<uint64_t> expectedSkyline(const Problem &problem) {
  std::vector<uint64_t> offsets = referenceSkyline(problem);
  uint64_t arena = 0;
  for (size_t i = 0; i < offsets.size(); ++i)
    if (problem.buffers[i].size)
      arena = std::max(arena, offsets[i] + problem.buffers[i].size);
  PlanResult naive = plan(problem, Algorithm::Naive);
  if (naive.ok() && naive.solution.arenaSize < arena)
    return naive.solution.offsets;
  return offsets;
}

} // namespace

// Few positions and few sizes, so that valleys, lifetimes and sizes tie
// often; every third buffer aligned; some empty.
TEST(Skyline, MatchesTheReferenceOnRandomProblems) {
  std::mt19937_64 rng(20261124);
  for (int round = 0; round < 3000; ++round) {
    RandomProblemShape shape{
        size_t(1 + round % 40),        int64_t(2 + round % 13),
        int64_t(1 + round % 7),        1,
        uint64_t(round % 2 ? 8 : 300), round % 3 != 0};
    Problem problem = generateRandomProblem(rng, shape);
    if (round % 5 == 0)
      problem.buffers[rng() % problem.buffers.size()].size = 0;
    Solution solution = planAndValidate(problem, Algorithm::Skyline);
    ASSERT_EQ(solution.offsets, expectedSkyline(problem)) << "round " << round;
  }
}

TEST(Skyline, MatchesTheReferenceOnTraceShapedProblems) {
  std::mt19937_64 rng(7);
  for (size_t count : {200u, 700u, 1500u}) {
    Problem problem = generateRandomProblem(rng, traceLikeShape(count));
    Solution solution = planAndValidate(problem, Algorithm::Skyline);
    EXPECT_EQ(solution.offsets, expectedSkyline(problem)) << count;
    EXPECT_GE(solution.arenaSize, computeLowerBound(problem));
  }
}

// Against a scan of every interval, over random sets with queries and
// removals interleaved; the tree alone (scan limit 0), the slots' lists
// alone (no limit) and both as the skyline uses them (the default limit,
// where narrow ranges and wide ones both arise).
TEST(ContainedIntervals, AgreesWithAScan) {
  std::mt19937_64 rng(99);
  size_t scanned = 0, searched = 0;
  for (int round = 0; round < 300; ++round) {
    bool wide = round % 3 == 2;
    uint32_t slots = 1 + rng() % (wide ? 3000 : 64);
    uint32_t count = rng() % (wide ? 4000 : 300);
    std::vector<ContainedIntervals::Interval> intervals;
    for (uint32_t rank = 0; rank < count; ++rank) {
      uint32_t first = rng() % slots;
      uint32_t span = slots - first;
      if (wide && rng() % 2)
        span = std::min<uint32_t>(span, 8); // many short ones, as in traces
      uint32_t last = first + 1 + rng() % span;
      intervals.push_back({first, last, rank});
    }
    std::shuffle(intervals.begin(), intervals.end(), rng);
    const uint32_t limits[] = {0, ContainedIntervals::kDefaultScanLimit,
                               UINT32_MAX};
    std::vector<ContainedIntervals> sets;
    for (uint32_t limit : limits)
      sets.emplace_back(intervals, limit);
    std::vector<bool> forgotten(count, false);
    for (int step = 0; step < 400; ++step) {
      if (count && rng() % 3 == 0) {
        uint32_t rank = rng() % count;
        if (!forgotten[rank]) {
          forgotten[rank] = true;
          for (ContainedIntervals &set : sets)
            set.forget(rank);
        }
      }
      // Ranges past the last slot too, and narrow ones more often.
      uint32_t a = rng() % (slots + 2);
      uint32_t b = a + rng() % (rng() % 2 ? 12 : slots + 2 - a + 1);
      uint32_t expected = ContainedIntervals::kNone;
      size_t starting = 0;
      for (const ContainedIntervals::Interval &interval : intervals) {
        starting += interval.first >= a && interval.first < b;
        if (!forgotten[interval.rank] && interval.first >= a &&
            interval.last <= b)
          expected = std::min(expected, interval.rank);
      }
      (uint64_t(std::min(b, slots)) - std::min(a, std::min(b, slots)) +
                   starting <=
               ContainedIntervals::kDefaultScanLimit
           ? scanned
           : searched)++;
      for (size_t k = 0; k < sets.size(); ++k)
        ASSERT_EQ(sets[k].bestWithin(a, b), expected)
            << "round " << round << ", step " << step << ", [" << a << ", " << b
            << "), scan limit " << limits[k];
    }
  }
  // The default limit sent both kinds of range to each path.
  EXPECT_GT(scanned, 10000u);
  EXPECT_GT(searched, 10000u);
}
