//===- AlgorithmsTest.cpp - Each algorithm on hand-made cases -------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PlannerTestUtils.h"
#include "memplan/Planner/Search.h"

#include "OffsetPlacement.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include <random>

using namespace memplan;
using namespace memplan::test;

namespace {

class EveryAlgorithm : public ::testing::TestWithParam<Algorithm> {};

TEST_P(EveryAlgorithm, EmptyProblemHasEmptyArena) {
  Solution solution = planAndValidate(Problem(), GetParam());
  EXPECT_EQ(solution.arenaSize, 0u);
  EXPECT_TRUE(solution.offsets.empty());
}

TEST_P(EveryAlgorithm, ZeroSizedBuffersTakeNoSpace) {
  Problem problem = makeProblem({{0, 0, 5}, {16, 1, 3}, {0, 2, 4}});
  Solution solution = planAndValidate(problem, GetParam());
  EXPECT_EQ(solution.arenaSize, 16u);
}

TEST_P(EveryAlgorithm, RejectsInvalidProblems) {
  EXPECT_FALSE(plan(makeProblem({{8, 3, 3}}), GetParam()).ok());
  Problem misaligned = makeProblem({{8, 0, 1}});
  misaligned.buffers[0].alignment = 12;
  PlanResult result = plan(misaligned, GetParam());
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.error.find("powers of two"), std::string::npos);
}

TEST_P(EveryAlgorithm, ReportsArenaOverflow) {
  Problem problem =
      makeProblem({{UINT64_MAX / 2 + 1, 0, 2}, {UINT64_MAX / 2 + 1, 1, 3}});
  PlanResult result = plan(problem, GetParam());
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.error.find("2^64"), std::string::npos);
}

TEST_P(EveryAlgorithm, HonoursAlignment) {
  Problem problem = makeProblem({{3, 0, 4}, {5, 1, 3}, {7, 2, 5}, {1, 0, 5}});
  for (Buffer &buffer : problem.buffers)
    buffer.alignment = 64;
  Solution solution = planAndValidate(problem, GetParam());
  for (uint64_t offset : solution.offsets)
    EXPECT_EQ(offset % 64, 0u);
}

INSTANTIATE_TEST_SUITE_P(Planner, EveryAlgorithm,
                         ::testing::ValuesIn(algorithmsButSearch()),
                         algorithmTestName);

// A chain a -> b -> c -> d of 4 buffers where each dies as the next is born
// (each op reads its input while writing its output): two at a time.
TEST(Algorithms, ChainNeedsTwoBuffers) {
  Problem chain =
      makeProblem({{100, 0, 2}, {100, 1, 3}, {100, 2, 4}, {100, 3, 5}});
  EXPECT_EQ(computeLowerBound(chain), 200u);
  EXPECT_EQ(planAndValidate(chain, Algorithm::Naive).arenaSize, 400u);
  for (Algorithm algorithm :
       {Algorithm::GreedyBySize, Algorithm::GreedyByBreadth, Algorithm::BestFit,
        Algorithm::SharedObjects})
    EXPECT_EQ(planAndValidate(chain, algorithm).arenaSize, 200u)
        << getAlgorithmName(algorithm);
}

// The example of Pisarchyk & Lee: greedy by size places the large buffers
// first and fits the small ones in their gaps, reaching the lower bound.
TEST(Algorithms, GreedyBySizeFillsGaps) {
  Problem problem = makeProblem({{32, 0, 2},   // t0
                                 {28, 1, 3},   // t1
                                 {36, 2, 4},   // t2
                                 {16, 3, 5},   // t3
                                 {8, 4, 6},    // t4
                                 {64, 5, 7},   // t5
                                 {10, 6, 8},   // t6
                                 {40, 7, 9}}); // t7
  uint64_t lowerBound = computeLowerBound(problem);
  EXPECT_EQ(lowerBound, 74u);
  Solution solution = planAndValidate(problem, Algorithm::GreedyBySize);
  EXPECT_EQ(solution.arenaSize, 74u);
  // t5 (64 bytes) goes first at 0; t7, t2 and t0 do not conflict with what
  // is placed before them: 0 as well. t1 sits above t0 and t2, t6 above t5.
  EXPECT_EQ(solution.offsets[5], 0u);
  EXPECT_EQ(solution.offsets[7], 0u);
  EXPECT_EQ(solution.offsets[2], 0u);
  EXPECT_EQ(solution.offsets[0], 0u);
  EXPECT_EQ(solution.offsets[1], 36u);
  EXPECT_EQ(solution.offsets[6], 64u);
}

// Greedy by size puts each buffer into the SMALLEST gap that fits, not the
// first one.
TEST(Algorithms, GreedyBySizeTakesTheSmallestGap) {
  Problem problem = makeProblem({{10, 0, 10}, // x: [0, 10)
                                 {10, 0, 2},  // y: [10, 20), dies early
                                 {10, 0, 10}, // z: [20, 30)
                                 {8, 0, 2},   // w: [30, 38), dies early
                                 {7, 0, 10},  // v: [38, 45)
                                 {5, 5, 6}}); // s
  // When s is placed, y and w are dead: holes of 10 bytes at 10 and 8 bytes
  // at 30. s takes the 8-byte hole.
  Solution solution = planAndValidate(problem, Algorithm::GreedyBySize);
  EXPECT_EQ(solution.offsets[1], 10u);
  EXPECT_EQ(solution.offsets[3], 30u);
  EXPECT_EQ(solution.offsets[4], 38u);
  EXPECT_EQ(solution.offsets[5], 30u);
  EXPECT_EQ(solution.arenaSize, 45u);
}

TEST(Algorithms, BestFitPlacesLongLivedFirstAmongEqualSizes) {
  // Two equal sizes: the long-lived one goes to offset 0 under best-fit,
  // while greedy-by-size (ties by start) places the earlier one first.
  Problem problem = makeProblem({{8, 0, 1}, {8, 0, 10}});
  EXPECT_EQ(planAndValidate(problem, Algorithm::BestFit).offsets[1], 0u);
  EXPECT_EQ(planAndValidate(problem, Algorithm::GreedyBySize).offsets[0], 0u);
}

TEST(Algorithms, GreedyByBreadthPacksTheWidestPositionFirst) {
  Problem problem = makeProblem({{20, 0, 3},   // a
                                 {50, 0, 2},   // b
                                 {30, 2, 4},   // c
                                 {10, 2, 3}}); // d
  // Breadth: positions 0 and 1 hold a + b = 70, position 2 holds a + c + d =
  // 60, position 3 holds c = 30. The plan reaches the lower bound of 70.
  EXPECT_EQ(computeLowerBound(problem), 70u);
  Solution solution = planAndValidate(problem, Algorithm::GreedyByBreadth);
  EXPECT_EQ(solution.offsets[1], 0u);  // b first (largest at position 0)
  EXPECT_EQ(solution.offsets[0], 50u); // then a above it
  EXPECT_EQ(solution.offsets[2], 0u);  // position 2: c where b was
  EXPECT_EQ(solution.offsets[3], 30u); // and d in the gap up to a
  EXPECT_EQ(solution.arenaSize, 70u);
}

/// Greedy by breadth's order as its description reads: the slots between
/// consecutive distinct positions by decreasing breadth (the earlier of
/// equal ones first), and at each the buffers live there not yet placed, by
/// decreasing size, then index.
std::vector<uint32_t> greedyByBreadthOrderAsDescribed(const Problem &problem) {
  std::vector<int64_t> positions = sortedPositions(problem);
  auto covers = [&](const Buffer &buffer, size_t slot) {
    return buffer.start <= positions[slot] && positions[slot + 1] <= buffer.end;
  };
  size_t slots = positions.empty() ? 0 : positions.size() - 1;
  std::vector<uint64_t> breadth(slots, 0);
  for (size_t slot = 0; slot < slots; ++slot)
    for (const Buffer &buffer : problem.buffers)
      if (covers(buffer, slot))
        breadth[slot] += buffer.size;
  std::vector<size_t> slotOrder(slots);
  std::iota(slotOrder.begin(), slotOrder.end(), 0);
  std::stable_sort(slotOrder.begin(), slotOrder.end(),
                   [&](size_t a, size_t b) { return breadth[a] > breadth[b]; });
  std::vector<uint32_t> order;
  std::vector<bool> placed(problem.buffers.size(), false);
  for (size_t slot : slotOrder) {
    std::vector<uint32_t> batch;
    for (uint32_t id = 0; id < problem.buffers.size(); ++id)
      if (!placed[id] && covers(problem.buffers[id], slot))
        batch.push_back(id);
    std::sort(batch.begin(), batch.end(), [&](uint32_t a, uint32_t b) {
      if (problem.buffers[a].size != problem.buffers[b].size)
        return problem.buffers[a].size > problem.buffers[b].size;
      return a < b;
    });
    for (uint32_t id : batch) {
      placed[id] = true;
      order.push_back(id);
    }
  }
  return order;
}

TEST(Algorithms, GreedyByBreadthPlacesInTheOrderItsDescriptionGives) {
  std::mt19937_64 rng(2026112803);
  for (int round = 0; round < 300; ++round) {
    // Few positions and sizes: many equal breadths and equal sizes. Every
    // tenth round three buffers at most, of up to 2^62 bytes: sizes that
    // add up past 2^63, where the breadths are summed in long double.
    int64_t span = 2 + rng() % 40;
    uint64_t sizes = round % 2 ? 4 : 1000;
    bool huge = round % 10 == 0;
    Problem problem;
    for (size_t i = 0, n = huge ? 1 + rng() % 3 : rng() % 60; i < n; ++i) {
      Buffer buffer;
      buffer.start = static_cast<int64_t>(rng() % span) - 5;
      buffer.end = buffer.start + 1 + static_cast<int64_t>(rng() % span);
      buffer.size =
          huge ? (uint64_t(1) << 62) - rng() % 3 * 8 : rng() % sizes * 8;
      buffer.alignment = uint64_t(1) << (rng() % 5);
      problem.buffers.push_back(buffer);
    }
    PlanResult expected =
        placeInOrder(problem, greedyByBreadthOrderAsDescribed(problem), {});
    PlanResult actual = plan(problem, Algorithm::GreedyByBreadth);
    ASSERT_TRUE(expected.ok() && actual.ok()) << "round " << round;
    EXPECT_EQ(expected.solution.offsets, actual.solution.offsets)
        << "round " << round;
  }
}

TEST(Algorithms, SharedObjectsReportsObjects) {
  // a and c can share one object (disjoint lifetimes), b needs its own.
  Problem problem = makeProblem({{100, 0, 2}, {60, 1, 3}, {80, 2, 4}});
  Solution solution = planAndValidate(problem, Algorithm::SharedObjects);
  ASSERT_TRUE(solution.sharedObjects.has_value());
  EXPECT_EQ(solution.sharedObjects->objectCount, 2u);
  EXPECT_EQ(solution.sharedObjects->totalBytes, 160u);
  EXPECT_EQ(solution.sharedObjects->objectOf[0],
            solution.sharedObjects->objectOf[2]);
  EXPECT_EQ(solution.arenaSize, 160u);
  // a and b are live together, so 160 is also the lower bound.
  EXPECT_EQ(computeLowerBound(problem), 160u);
  EXPECT_EQ(planAndValidate(problem, Algorithm::GreedyBySize).arenaSize, 160u);
}

TEST(Algorithms, NamesRoundTrip) {
  for (Algorithm algorithm : kAllAlgorithms)
    EXPECT_EQ(parseAlgorithm(getAlgorithmName(algorithm)), algorithm);
  EXPECT_EQ(parseAlgorithm("search"), Algorithm::Search);
  EXPECT_FALSE(parseAlgorithm("greedy").has_value());
  // Every algorithm is listed once, with a description for --help.
  EXPECT_EQ(std::size(kAllAlgorithms), 13u);
  for (Algorithm algorithm : kAllAlgorithms)
    EXPECT_FALSE(getAlgorithmDescription(algorithm).empty());
}

} // namespace

TEST(Algorithms, PortfolioKeepsTheSmallestMemberArena) {
  std::mt19937_64 rng(2026112305);
  const auto &members = kGreedyPlacements;
  constexpr size_t kMembers = std::size(kGreedyPlacements);
  int lifetimeWins = 0, conflictsWins = 0, firstFitWins = 0, skylineWins = 0;
  for (int instance = 0; instance < 500; ++instance) {
    Problem problem;
    std::uniform_int_distribution<int64_t> start(0, 12), length(1, 6);
    std::uniform_int_distribution<uint64_t> size(1, 64);
    for (int i = 0; i < 3 + instance % 12; ++i) {
      int64_t first = start(rng);
      problem.buffers.push_back(
          {size(rng), first, first + length(rng), uint64_t(1) << (i % 4)});
    }
    Solution best = planAndValidate(problem, Algorithm::Portfolio);
    ASSERT_TRUE(best.portfolio.has_value());
    ASSERT_EQ(best.portfolio->arenas.size(), kMembers);
    uint64_t smallest = UINT64_MAX;
    std::string firstSmallest;
    for (size_t m = 0; m < kMembers; ++m) {
      uint64_t arena = planAndValidate(problem, members[m]).arenaSize;
      EXPECT_EQ(best.portfolio->arenas[m].first, getAlgorithmName(members[m]));
      EXPECT_EQ(best.portfolio->arenas[m].second, arena);
      if (arena < smallest) {
        smallest = arena;
        firstSmallest = std::string(getAlgorithmName(members[m]));
      }
    }
    EXPECT_EQ(best.arenaSize, smallest) << "instance " << instance;
    EXPECT_EQ(best.portfolio->winner, firstSmallest) << "instance " << instance;
    lifetimeWins += firstSmallest == "greedy-by-lifetime";
    conflictsWins += firstSmallest == "greedy-by-conflicts";
    firstFitWins += firstSmallest.rfind("first-fit-by-", 0) == 0;
    skylineWins += firstSmallest == "skyline";
  }
  // The later members earn their places: each alone is best on some
  // instances.
  EXPECT_GT(lifetimeWins, 0);
  EXPECT_GT(conflictsWins, 0);
  EXPECT_GT(firstFitWins, 0);
  EXPECT_GT(skylineWins, 0);
}

TEST(Algorithms, GreedyPlacementsGiveTheSamePlanOnAnyNumberOfThreads) {
  // Dense problems (lifetimes of up to 0.7 of the schedule, so that one list
  // holds every placed buffer and a team of threads shares the longer
  // walks: WalkTeam.h), through plan() with SearchOptions::threads, as the
  // tools and passes call it: the placements must not depend on the number
  // of threads.
  // MEMPLAN_TEAM_PROBLEMS=N (a long run; docs/reliability.md) adds N
  // problems of 5,000-40,000 buffers over schedules of a tenth to a half
  // as many positions, lifetimes up to a fifth to the whole of it, sizes
  // from 0 or 1 byte to 1 KiB-1 GiB, alignments up to 64 bytes or 64 KiB.
  int instances = 2;
  if (const char *text = std::getenv("MEMPLAN_TEAM_PROBLEMS"))
    instances += std::atoi(text);
  std::mt19937_64 rng(2026120204);
  const Algorithm greedy[] = {
      Algorithm::GreedyBySize,       Algorithm::BestFit,
      Algorithm::GreedyByBreadth,    Algorithm::GreedyByLifetime,
      Algorithm::GreedyByConflicts,  Algorithm::FirstFitBySize,
      Algorithm::FirstFitByConflicts};
  for (int instance = 0; instance < instances; ++instance) {
    Problem problem;
    int count = 7000 + 1000 * instance;
    int64_t positions = 3000, longest = positions * 7 / 10;
    uint64_t minSize = 1, maxSize = 1 << 20, alignmentShifts = 7;
    if (instance >= 2) {
      count = 5000 + int(rng() % 35001);
      positions = std::max<int64_t>(2, count / int64_t(2 + rng() % 9));
      longest = std::max<int64_t>(1, positions / int64_t(1 + rng() % 5));
      minSize = rng() % 2;
      maxSize = uint64_t(1) << (10 + rng() % 21);
      alignmentShifts = rng() % 2 ? 7 : 17;
    }
    std::uniform_int_distribution<int64_t> start(0, positions - 1);
    std::uniform_int_distribution<int64_t> length(1, longest);
    std::uniform_int_distribution<uint64_t> size(minSize, maxSize);
    for (int i = 0; i < count; ++i) {
      int64_t first = start(rng);
      problem.buffers.push_back({size(rng), first,
                                 std::min(positions, first + length(rng)),
                                 uint64_t(1) << (i % alignmentShifts)});
    }
    for (Algorithm algorithm : greedy) {
      SearchOptions one;
      one.threads = 1;
      PlanResult alone = plan(problem, algorithm, &one);
      ASSERT_TRUE(alone.ok()) << alone.error;
      for (unsigned threads : {0u, 2u, 3u}) {
        SearchOptions options;
        options.threads = threads;
        PlanResult shared = plan(problem, algorithm, &options);
        ASSERT_TRUE(shared.ok()) << shared.error;
        EXPECT_EQ(shared.solution.offsets, alone.solution.offsets)
            << getAlgorithmName(algorithm) << ", instance " << instance << ", "
            << threads << " threads";
      }
    }
  }
  if (instances > 2)
    std::printf("MEMPLAN_TEAM_PROBLEMS: %d problems, %zu plans compared on "
                "1, 0, 2 and 3 threads\n",
                instances - 2, size_t(instances - 2) * std::size(greedy));
}

TEST(Algorithms, PortfolioGivesTheSamePlanOnAnyNumberOfThreads) {
  // The members run side by side; which finishes first must not matter.
  std::mt19937_64 rng(2026112401);
  for (int instance = 0; instance < 40; ++instance) {
    Problem problem;
    std::uniform_int_distribution<int64_t> start(0, 200), length(1, 60);
    std::uniform_int_distribution<uint64_t> size(1, 4096);
    for (int i = 0; i < 50 + 10 * instance; ++i) {
      int64_t first = start(rng);
      problem.buffers.push_back(
          {size(rng), first, first + length(rng), uint64_t(1) << (i % 5)});
    }
    PlanResult one = planPortfolio(problem, 1);
    ASSERT_TRUE(one.ok()) << one.error;
    for (unsigned threads : {0u, 2u, 3u, 5u, 64u}) {
      PlanResult many = planPortfolio(problem, threads);
      ASSERT_TRUE(many.ok()) << many.error;
      EXPECT_EQ(many.solution.offsets, one.solution.offsets)
          << "instance " << instance << ", " << threads << " threads";
      EXPECT_EQ(many.solution.portfolio->winner,
                one.solution.portfolio->winner);
      EXPECT_EQ(many.solution.portfolio->arenas,
                one.solution.portfolio->arenas);
    }
  }
}
