//===- LongLivedSkylineTest.cpp - Skyline below, first fit in its gaps ----===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// LongLivedSkyline (lib/Planner/LongLivedSkyline.h) against its definition,
// checked here with none of its structures: the long-lived buffers (found
// here from the sorted positions) sit where the skyline puts a problem of
// only them (the skyline itself is checked against a reference in
// SkylineTest), and every other buffer, largest first, at the lowest
// aligned offset where it meets no buffer placed before it, found by a scan
// of those buffers. Plans pass the validator; which problems it splits.
//
//===----------------------------------------------------------------------===//

#include "LongLivedSkyline.h"
#include "PlannerTestUtils.h"
#include "ProblemGenerators.h"
#include "SkylinePlacement.h"
#include "memplan/Planner/GreedyAlgorithms.h"
#include "memplan/Planner/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace memplan;
using namespace memplan::test;

namespace {

/// Which buffers take space and live at least slots / kLongLivedDivisor
/// slots, the slots being the distinct positions.
std::vector<bool> longLivedHere(const Problem &problem) {
  std::vector<int64_t> positions = sortedPositions(problem);
  auto slot = [&](int64_t position) {
    return size_t(
        std::lower_bound(positions.begin(), positions.end(), position) -
        positions.begin());
  };
  size_t least = std::max<size_t>(1, positions.size() / kLongLivedDivisor);
  std::vector<bool> mask;
  for (const Buffer &buffer : problem.buffers)
    mask.push_back(buffer.size &&
                   slot(buffer.end) - slot(buffer.start) >= least);
  return mask;
}

/// The lowest offset aligned for `buffer` where it overlaps none of
/// `placed` (buffers with their offsets) live at the same time.
uint64_t lowestFreeOffset(
    const Buffer &buffer,
    const std::vector<std::pair<const Buffer *, uint64_t>> &placed) {
  std::vector<std::pair<uint64_t, uint64_t>> taken;
  for (const auto &[other, offset] : placed)
    if (other->start < buffer.end && buffer.start < other->end)
      taken.push_back({offset, offset + other->size});
  std::sort(taken.begin(), taken.end());
  uint64_t offset = 0;
  for (const auto &[low, high] : taken) {
    if (offset + buffer.size <= low)
      break;
    if (high > offset)
      offset =
          (high + buffer.alignment - 1) / buffer.alignment * buffer.alignment;
  }
  return offset;
}

/// Problems with long and short lifetimes, some aligned, some empty.
Problem mixedProblem(std::mt19937_64 &rng, size_t count) {
  RandomProblemShape shape = traceLikeShape(count);
  shape.maxLength = 150; // of 500 positions: about a tenth are short-lived
  Problem problem = generateRandomProblem(rng, shape);
  for (size_t id = 0; id < problem.buffers.size(); id += 37)
    problem.buffers[id].size = 0;
  return problem;
}

} // namespace

// The default priority's plan, and a reversed priority's, against the
// definition above.
TEST(LongLivedSkyline, SkylineBelowAndFirstFitInItsGaps) {
  std::mt19937_64 rng(2031);
  for (int round = 0; round < 12; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    Problem problem = mixedProblem(rng, 100 + 150 * round);
    const std::vector<Buffer> &buffers = problem.buffers;
    std::vector<bool> isLong = longLivedHere(problem);
    std::vector<uint32_t> longIds, shortIds;
    Problem longPart;
    for (uint32_t id = 0; id < buffers.size(); ++id) {
      if (isLong[id]) {
        longIds.push_back(id);
        longPart.buffers.push_back(buffers[id]);
      } else if (buffers[id].size) {
        shortIds.push_back(id);
      }
    }
    ASSERT_FALSE(longIds.empty());
    ASSERT_FALSE(shortIds.empty());
    // Largest first; ties: longer-lived, earlier start, lower index.
    std::sort(shortIds.begin(), shortIds.end(), [&](uint32_t a, uint32_t b) {
      const Buffer &x = buffers[a], &y = buffers[b];
      if (x.size != y.size)
        return x.size > y.size;
      if (x.end - x.start != y.end - y.start)
        return x.end - x.start > y.end - y.start;
      if (x.start != y.start)
        return x.start < y.start;
      return a < b;
    });

    LongLivedSkyline placement(problem);
    ASSERT_EQ(placement.longLivedCount(), longIds.size());
    std::vector<uint32_t> reversed = placement.defaultPriority();
    std::reverse(reversed.begin(), reversed.end());
    SkylinePlacement longSkyline(longPart);
    for (bool reverse : {false, true}) {
      SCOPED_TRACE(reverse ? "reversed priority" : "default priority");
      PlanResult result =
          placement.place(reverse ? reversed : placement.defaultPriority());
      ASSERT_TRUE(result.ok()) << result.error;
      EXPECT_FALSE(validateSolution(problem, result.solution));
      const std::vector<uint64_t> &offsets = result.solution.offsets;

      PlanResult below =
          reverse ? longSkyline.place(reversed) : planSkyline(longPart);
      ASSERT_TRUE(below.ok());
      std::vector<std::pair<const Buffer *, uint64_t>> placed;
      for (size_t k = 0; k < longIds.size(); ++k) {
        EXPECT_EQ(offsets[longIds[k]], below.solution.offsets[k])
            << "long-lived buffer " << longIds[k];
        placed.push_back({&buffers[longIds[k]], offsets[longIds[k]]});
      }
      for (uint32_t id : shortIds) {
        ASSERT_EQ(offsets[id], lowestFreeOffset(buffers[id], placed))
            << "short-lived buffer " << id;
        placed.push_back({&buffers[id], offsets[id]});
      }
      uint64_t arena = 0;
      for (const auto &[buffer, offset] : placed)
        arena = std::max(arena, offset + buffer->size);
      EXPECT_EQ(result.solution.arenaSize, arena);
    }
  }
}

// Split: at least kLongLivedMinBuffers buffers that take space, short-lived
// ones among them, and at least a tenth long-lived.
TEST(LongLivedSkyline, SplitsOnlyLargeProblemsOfBothKinds) {
  std::mt19937_64 rng(5);
  RandomProblemShape mixed{};
  mixed.count = kLongLivedMinBuffers;
  mixed.positions = 3000;
  mixed.maxLength = 1500; // some shorter than slots / kLongLivedDivisor
  mixed.minSize = 64;
  mixed.maxSize = 1 << 20;
  Problem problem = generateRandomProblem(rng, mixed);
  EXPECT_TRUE(LongLivedSkyline::splits(problem));

  // One buffer fewer that takes space.
  Problem smaller = problem;
  smaller.buffers.back().size = 0;
  EXPECT_FALSE(LongLivedSkyline::splits(smaller));

  // Every lifetime long: nothing to fill in.
  Problem allLong = problem;
  for (Buffer &buffer : allLong.buffers) {
    buffer.start = 0;
    buffer.end = 3000;
  }
  EXPECT_FALSE(LongLivedSkyline::splits(allLong));

  // Lifetimes of at most 64 positions of 20,000: every buffer short-lived.
  RandomProblemShape short_ = mixed;
  short_.positions = 20000;
  short_.maxLength = 64;
  Problem allShort = generateRandomProblem(rng, short_);
  EXPECT_FALSE(LongLivedSkyline::splits(allShort));

  // Fewer than a tenth long-lived: not split; a tenth: split.
  Problem fewLong = allShort;
  size_t slotsNeeded = 2 * fewLong.buffers.size() / kLongLivedDivisor + 1;
  for (size_t id = 0; id < fewLong.buffers.size() / 10 - 1; ++id) {
    fewLong.buffers[id].start = 0;
    fewLong.buffers[id].end = int64_t(slotsNeeded) * 20;
  }
  EXPECT_FALSE(LongLivedSkyline::splits(fewLong));
  size_t tenth = fewLong.buffers.size() / 10 - 1;
  fewLong.buffers[tenth].start = 0;
  fewLong.buffers[tenth].end = int64_t(slotsNeeded) * 20;
  EXPECT_TRUE(LongLivedSkyline::splits(fewLong));
}
