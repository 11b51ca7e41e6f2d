//===- CachingAllocatorModelTest.cpp - PyTorch's caching allocator --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each case is worked out by hand from the allocator's documented policy
// (see CachingAllocatorModel.h); the random test checks properties that any
// such allocator has, against a sweep written here.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/CachingAllocatorModel.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <tuple>

using namespace memplan;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

CachingAllocatorPeaks run(std::vector<TensorLifetime> tensors) {
  return simulateCachingAllocator(tensors);
}

/// The three peaks of `tensors` run for `steps` steps, as one comparable
/// value (allocated, reserved, segments).
std::tuple<uint64_t, uint64_t, uint64_t>
peaksOf(const std::vector<TensorLifetime> &tensors, unsigned steps) {
  CachingAllocatorPeaks peaks = simulateCachingAllocator(tensors, steps);
  return {peaks.maxAllocated, peaks.maxReserved, peaks.segments};
}

TEST(CachingAllocatorModelTest, SmallRequestsRoundTo512InA2MiBSegment) {
  CachingAllocatorPeaks peaks = run({{100, 0, 1}});
  EXPECT_EQ(peaks.maxAllocated, 512u);
  EXPECT_EQ(peaks.maxReserved, 2 * MiB);
  EXPECT_EQ(peaks.segments, 1u);
  // 1000 bytes round to 1024; two 600 KiB tensors share one 2 MiB segment.
  EXPECT_EQ(run({{1000, 0, 1}}).maxAllocated, 1024u);
  peaks = run({{600 * KiB, 0, 2}, {600 * KiB, 1, 2}});
  EXPECT_EQ(peaks.maxAllocated, 1200 * KiB);
  EXPECT_EQ(peaks.maxReserved, 2 * MiB);
}

TEST(CachingAllocatorModelTest, LargePoolSegments) {
  // Under 10 MiB: a 20 MiB segment, split; a second 5 MiB fits in it.
  CachingAllocatorPeaks peaks = run({{5 * MiB, 0, 2}, {5 * MiB, 1, 2}});
  EXPECT_EQ(peaks.maxAllocated, 10 * MiB);
  EXPECT_EQ(peaks.maxReserved, 20 * MiB);
  EXPECT_EQ(peaks.segments, 1u);
  // 10 MiB and up: the request rounded to 2 MiB.
  peaks = run({{12 * MiB + 512 * KiB, 0, 1}});
  EXPECT_EQ(peaks.maxReserved, 14 * MiB);
  // 1.5 MiB left: more than 1 MiB, so split; the tensor counts 12.5 MiB.
  EXPECT_EQ(peaks.maxAllocated, 12 * MiB + 512 * KiB);
  // 0.5 MiB left: not split, the whole 14 MiB block is allocated.
  peaks = run({{13 * MiB + 512 * KiB, 0, 1}});
  EXPECT_EQ(peaks.maxAllocated, 14 * MiB);
  EXPECT_EQ(peaks.maxReserved, 14 * MiB);
}

TEST(CachingAllocatorModelTest, FreedBlocksMergeAndAreReused) {
  // 8 MiB in a 20 MiB segment, freed (the halves merge), then 6 MiB and
  // 14 MiB fit in the same segment: nothing more reserved.
  CachingAllocatorPeaks peaks =
      run({{8 * MiB, 0, 1}, {6 * MiB, 1, 3}, {14 * MiB, 2, 3}});
  EXPECT_EQ(peaks.maxReserved, 20 * MiB);
  EXPECT_EQ(peaks.segments, 1u);
  EXPECT_EQ(peaks.maxAllocated, 20 * MiB);
}

TEST(CachingAllocatorModelTest, FragmentationReservesMore) {
  // Two 12 MiB tensors (one 12 MiB segment each); the first freed; a 14 MiB
  // tensor fits in neither hole: a third segment, 38 MiB reserved for at
  // most 26 MiB allocated.
  CachingAllocatorPeaks peaks =
      run({{12 * MiB, 0, 1}, {12 * MiB, 0, 3}, {14 * MiB, 1, 3}});
  EXPECT_EQ(peaks.maxAllocated, 26 * MiB);
  EXPECT_EQ(peaks.maxReserved, 38 * MiB);
  EXPECT_EQ(peaks.segments, 3u);
}

TEST(CachingAllocatorModelTest, BestFitTakesTheSmallestBlock) {
  // Holes of 4 MiB and 2 MiB in one full 20 MiB segment (between live
  // tensors); a 2 MiB request takes the 2 MiB hole, so a later 4 MiB one
  // still fits without a new segment. (First fit would cut the 4 MiB hole
  // and need a second segment.)
  std::vector<TensorLifetime> tensors = {
      {4 * MiB, 0, 1},  // hole of 4 MiB from position 1
      {2 * MiB, 0, 9},  // kept
      {2 * MiB, 0, 1},  // hole of 2 MiB from position 1
      {2 * MiB, 0, 9},  // kept
      {10 * MiB, 0, 9}, // kept: the rest of the segment
      {2 * MiB, 1, 9},  // takes the 2 MiB hole
      {4 * MiB, 2, 9},  // takes the 4 MiB hole
  };
  CachingAllocatorPeaks peaks = run(tensors);
  EXPECT_EQ(peaks.segments, 1u);
  EXPECT_EQ(peaks.maxReserved, 20 * MiB);
}

TEST(CachingAllocatorModelTest, FreesBeforeAllocationsAtAPosition) {
  // Back to back, the second reuses the first's block.
  CachingAllocatorPeaks peaks = run({{5 * MiB, 0, 1}, {5 * MiB, 1, 2}});
  EXPECT_EQ(peaks.maxAllocated, 5 * MiB);
  // Empty and zero-byte tensors take nothing.
  EXPECT_EQ(run({{0, 0, 1}, {64, 3, 3}}).maxAllocated, 0u);
}

TEST(CachingAllocatorModelTest, LaterStepsRunOnTheFirstStepsSegments) {
  // A 20 MiB temporary, then a 4 MiB tensor made at position 1 and kept
  // (an optimizer state made in the first step). First step: the temporary
  // takes a 20 MiB segment and is freed; the kept tensor is split off that
  // segment, 16 MiB left. Second step: the temporary fits nowhere, a second
  // segment; its peaks start from the kept 4 MiB and 20 MiB reserved.
  std::vector<TensorLifetime> step = {{20 * MiB, 0, 1},
                                      {4 * MiB, 1, kKeptForGood}};
  EXPECT_EQ(peaksOf(step, 1), std::make_tuple(20 * MiB, 20 * MiB, 1u));
  EXPECT_EQ(peaksOf(step, 2), std::make_tuple(24 * MiB, 40 * MiB, 2u));
  // A third step finds both segments free but the kept tensor's block:
  // nothing new.
  EXPECT_EQ(peaksOf(step, 3), std::make_tuple(24 * MiB, 40 * MiB, 2u));
}

TEST(CachingAllocatorModelTest, KeptTensorsAreAllocatedOnce) {
  // A kept 4 MiB weight and a 4 MiB temporary share one 20 MiB segment in
  // every step; the weight is not allocated again (8 MiB, not 12).
  std::vector<TensorLifetime> step = {{4 * MiB, -1, kKeptForGood},
                                      {4 * MiB, 0, 1}};
  for (unsigned steps : {1u, 2u, 3u})
    EXPECT_EQ(peaksOf(step, steps), std::make_tuple(8 * MiB, 20 * MiB, 1u))
        << steps << " steps";
}

TEST(CachingAllocatorModelTest, AResultIsHeldThroughTheNextStep) {
  // A 5 MiB result next to a kept 4 MiB weight: each step makes its own
  // while the last one's is still held, so from the second step on two
  // results are allocated at its end (14 MiB with the weight),
  // all in the weight's 20 MiB segment; never three, since the one from
  // two steps before is freed when the step before it has returned.
  std::vector<TensorLifetime> step = {{4 * MiB, -1, kKeptForGood},
                                      {5 * MiB, 0, kHeldThroughTheNextStep}};
  EXPECT_EQ(simulateCachingAllocator(step, 1).maxAllocated, 9 * MiB);
  for (unsigned steps : {2u, 3u, 4u})
    EXPECT_EQ(peaksOf(step, steps), std::make_tuple(14 * MiB, 20 * MiB, 1u))
        << steps << " steps";
}

TEST(CachingAllocatorModelTest, ATensorFromTheSecondStepIsNotInTheFirst) {
  // A kept 12 MiB buffer made at position 0 of the first step, where it
  // holds what a 12 MiB tensor of the later steps holds (a .grad that took
  // over its first gradient): 12 MiB in the first step, 24 MiB after.
  TensorLifetime taken{12 * MiB, 0, 2};
  taken.fromTheSecondStep = true;
  std::vector<TensorLifetime> step = {{12 * MiB, 0, kKeptForGood}, taken};
  EXPECT_EQ(peaksOf(step, 1), std::make_tuple(12 * MiB, 12 * MiB, 1u));
  EXPECT_EQ(peaksOf(step, 2), std::make_tuple(24 * MiB, 24 * MiB, 2u));
}

TEST(CachingAllocatorModelTest, RandomProgramsKeepTheInvariants) {
  // Allocated is never below the live set's rounded bytes (a sweep written
  // here) nor above it by more than what unsplit blocks can add; reserved is
  // never below allocated.
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<TensorLifetime> tensors(1 + random() % 40);
    for (TensorLifetime &tensor : tensors) {
      int scale = random() % 3;
      uint64_t limit = scale == 0 ? 4 * KiB : scale == 1 ? 2 * MiB : 40 * MiB;
      tensor.bytes = 1 + random() % limit;
      tensor.start = random() % 20;
      tensor.end = tensor.start + 1 + random() % 10;
    }
    uint64_t livePeak = 0, unsplitSlack = 0;
    for (int64_t position = 0; position < 40; ++position) {
      uint64_t live = 0;
      for (const TensorLifetime &tensor : tensors)
        if (tensor.start <= position && position < tensor.end)
          live += std::max<uint64_t>(512, (tensor.bytes + 511) / 512 * 512);
      livePeak = std::max(livePeak, live);
    }
    // A block handed out whole exceeds its request by at most 1 MiB (large
    // pool) or 511 bytes (small pool).
    unsplitSlack = tensors.size() * MiB;
    CachingAllocatorPeaks peaks = simulateCachingAllocator(tensors);
    EXPECT_GE(peaks.maxAllocated, livePeak) << "trial " << trial;
    EXPECT_LE(peaks.maxAllocated, livePeak + unsplitSlack) << "trial " << trial;
    EXPECT_GE(peaks.maxReserved, peaks.maxAllocated) << "trial " << trial;
  }
}

} // namespace
