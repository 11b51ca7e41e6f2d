//===- OffsetPlacementTest.cpp - Best-gap placement against a reference ---===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// OffsetPlacement (segment tree, start buckets, radix sort by offset) is
// checked against a reference written apart from it and kept as plain as
// possible: for each buffer, every earlier buffer is tested for a lifetime
// overlap, the overlapping ones are sorted with std::sort, and the smallest
// gap that fits is taken (for first fit, every offset where the buffer could
// start is tested and the lowest free one taken). The two must give the
// same offset for every
// buffer, in every order, on random and adversarial instances: dense ones
// with thousands of neighbours per buffer (the radix sort path), offsets
// above 2^40 (every radix digit), equal offsets, zero sizes, mixed
// alignments, and offsets that overflow. Each of the ways of finding the
// neighbours (collected and sorted, a filtered walk over every placed
// buffer or over those of the windows of time a buffer meets, the cheaper
// of the two per placement) is checked on its own.
//
//===----------------------------------------------------------------------===//

#include "OffsetPlacement.h"
#include "BufferOrder.h"
#include "TimeLocalOrder.h"

#include "ProblemGenerators.h"
#include "memplan/Planner/GreedyAlgorithms.h"
#include "memplan/Planner/Problem.h"
#include "memplan/Planner/Validator.h"

#include <gtest/gtest.h>

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <random>

using namespace memplan;

namespace {

/// The offsets the reference gives for `order`, or nullopt where an offset
/// would not fit in 64 bits; `fixed` buffers are there first, at the given
/// offsets.
std::optional<std::vector<uint64_t>> referencePlacement(
    const Problem &problem, const std::vector<uint32_t> &order,
    const std::vector<std::pair<uint32_t, uint64_t>> &fixed = {}) {
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<uint64_t> offsets(buffers.size(), 0);
  std::vector<uint32_t> placed;
  for (const auto &[id, offset] : fixed) {
    offsets[id] = offset;
    if (buffers[id].size)
      placed.push_back(id);
  }
  for (uint32_t id : order) {
    const Buffer &buffer = buffers[id];
    if (buffer.size == 0)
      continue;
    std::vector<std::pair<uint64_t, uint64_t>> neighbours; // (offset, end)
    for (uint32_t other : placed)
      if (buffers[other].start < buffer.end &&
          buffer.start < buffers[other].end)
        neighbours.push_back(
            {offsets[other], offsets[other] + buffers[other].size});
    std::sort(neighbours.begin(), neighbours.end());
    // Gaps between the union of the neighbours' byte ranges, from 0 up.
    unsigned __int128 best = ~(unsigned __int128)0;
    std::optional<uint64_t> chosen;
    uint64_t cursor = 0;
    for (const auto &[begin, end] : neighbours) {
      if (begin > cursor) {
        unsigned __int128 aligned = cursor;
        aligned = (aligned + buffer.alignment - 1) / buffer.alignment *
                  buffer.alignment;
        if (aligned + buffer.size <= begin && begin - cursor < best) {
          best = begin - cursor;
          chosen = static_cast<uint64_t>(aligned);
        }
      }
      cursor = std::max(cursor, end);
    }
    if (!chosen) {
      unsigned __int128 aligned = cursor;
      aligned = (aligned + buffer.alignment - 1) / buffer.alignment *
                buffer.alignment;
      if (aligned + buffer.size > UINT64_MAX)
        return std::nullopt;
      chosen = static_cast<uint64_t>(aligned);
    }
    offsets[id] = *chosen;
    placed.push_back(id);
  }
  return offsets;
}

/// First fit by another route than the structure's walk over gaps: the
/// lowest aligned offset where the buffer overlaps no placed buffer live
/// with it is 0 or the first aligned byte at or above some such buffer's
/// end (below that one the buffer would overlap something), so every such
/// candidate is tested against every neighbour and the lowest free one
/// taken. Nullopt where it would not fit in 64 bits.
std::optional<std::vector<uint64_t>>
referenceFirstFit(const Problem &problem, const std::vector<uint32_t> &order) {
  using Wide = unsigned __int128;
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<uint64_t> offsets(buffers.size(), 0);
  std::vector<uint32_t> placed;
  for (uint32_t id : order) {
    const Buffer &buffer = buffers[id];
    if (buffer.size == 0)
      continue;
    std::vector<std::pair<Wide, Wide>> neighbours; // [offset, end)
    for (uint32_t other : placed)
      if (buffers[other].start < buffer.end &&
          buffer.start < buffers[other].end)
        neighbours.push_back(
            {offsets[other], Wide(offsets[other]) + buffers[other].size});
    auto alignUp = [&](Wide value) {
      return (value + buffer.alignment - 1) / buffer.alignment *
             buffer.alignment;
    };
    std::vector<Wide> candidates = {0};
    for (const auto &neighbour : neighbours)
      candidates.push_back(alignUp(neighbour.second));
    std::optional<Wide> lowest;
    for (Wide candidate : candidates) {
      bool free = llvm::none_of(neighbours, [&](const auto &neighbour) {
        return neighbour.first < candidate + buffer.size &&
               candidate < neighbour.second;
      });
      if (free && (!lowest || candidate < *lowest))
        lowest = candidate;
    }
    if (*lowest + buffer.size > UINT64_MAX)
      return std::nullopt;
    offsets[id] = static_cast<uint64_t>(*lowest);
    placed.push_back(id);
  }
  return offsets;
}

using NeighbourSearch = OffsetPlacement::NeighbourSearch;

constexpr NeighbourSearch kNeighbourSearches[] = {
    NeighbourSearch::Auto,         NeighbourSearch::Collect,
    NeighbourSearch::Scan,         NeighbourSearch::PortableScan,
    NeighbourSearch::WindowedScan, NeighbourSearch::WindowedPortableScan,
    NeighbourSearch::NestedScan};

const char *describe(NeighbourSearch search) {
  switch (search) {
  case NeighbourSearch::Auto:
    return "auto";
  case NeighbourSearch::Collect:
    return "collect";
  case NeighbourSearch::Scan:
    return "scan";
  case NeighbourSearch::PortableScan:
    return "portable scan";
  case NeighbourSearch::WindowedScan:
    return "windowed scan";
  case NeighbourSearch::WindowedPortableScan:
    return "windowed portable scan";
  case NeighbourSearch::NestedScan:
    return "nested scan";
  }
  return "?";
}

/// What OffsetPlacement gives for `order`, nullopt on overflow.
std::optional<std::vector<uint64_t>>
structurePlacement(const Problem &problem, const std::vector<uint32_t> &order,
                   OffsetPlacement::Fit fit = OffsetPlacement::Fit::Best,
                   NeighbourSearch search = NeighbourSearch::Auto) {
  OffsetPlacement placement(problem, search);
  for (uint32_t id : order)
    if (!placement.place(id, fit))
      return std::nullopt;
  return placement.takeSolution().offsets;
}

struct Shape {
  size_t count;
  int64_t positions;
  int64_t maxLength;
  uint64_t maxSize;
  bool mixedAlignment;
};

/// Every buffer aligned to 2^k, k in [0, 12], where mixed; sizes from 0.
Problem randomProblem(std::mt19937_64 &rng, const Shape &shape) {
  RandomProblemShape generated{shape.count,     shape.positions,
                               shape.maxLength, 0,
                               shape.maxSize,   shape.mixedAlignment};
  generated.alignedEvery = 1;
  generated.maxAlignmentShift = 12;
  return generateRandomProblem(rng, generated);
}

/// Decreasing size (greedy-by-size's order), and a random permutation.
std::vector<std::vector<uint32_t>> ordersFor(const Problem &problem,
                                             std::mt19937_64 &rng) {
  std::vector<uint32_t> bySize(problem.buffers.size());
  std::iota(bySize.begin(), bySize.end(), 0);
  std::stable_sort(bySize.begin(), bySize.end(), [&](uint32_t a, uint32_t b) {
    return problem.buffers[a].size > problem.buffers[b].size;
  });
  std::vector<uint32_t> shuffled = bySize;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  return {bySize, shuffled};
}

/// Round `round` of the placement tests: a random problem of 2 to
/// `counts` + 1 buffers over `positions` (mixed alignments in every other
/// round) and one of its orders.
std::pair<Problem, std::vector<uint32_t>>
roundProblem(std::mt19937_64 &rng, int round, int counts, int64_t positions) {
  Problem problem =
      randomProblem(rng, {size_t(2 + round % counts), positions, 12,
                          uint64_t(1) << (4 + round % 20), round % 2 == 0});
  std::vector<uint32_t> order = ordersFor(problem, rng)[round % 2];
  return {std::move(problem), std::move(order)};
}

void expectSamePlacements(const Problem &problem, std::mt19937_64 &rng,
                          const std::string &what) {
  for (const std::vector<uint32_t> &order : ordersFor(problem, rng)) {
    std::optional<std::vector<uint64_t>> expected =
        referencePlacement(problem, order);
    std::optional<std::vector<uint64_t>> expectedFirst =
        referenceFirstFit(problem, order);
    for (NeighbourSearch search : kNeighbourSearches) {
      std::string how = what + " (" + describe(search) + ")";
      std::optional<std::vector<uint64_t>> actual = structurePlacement(
          problem, order, OffsetPlacement::Fit::Best, search);
      ASSERT_EQ(expected.has_value(), actual.has_value()) << how;
      if (expected) {
        ASSERT_EQ(*expected, *actual) << how;
      }
      // First fit, against its own reference.
      actual = structurePlacement(problem, order, OffsetPlacement::Fit::First,
                                  search);
      ASSERT_EQ(expectedFirst.has_value(), actual.has_value())
          << how << " (first)";
      if (expectedFirst) {
        ASSERT_EQ(*expectedFirst, *actual) << how << " (first)";
      }
    }
  }
}

TEST(OffsetPlacement, MatchesTheReferenceOnSmallRandomProblems) {
  std::mt19937_64 rng(2026112301);
  for (int instance = 0; instance < 3000; ++instance) {
    Shape shape{size_t(1 + instance % 50), 1 + instance % 30, 1 + instance % 13,
                uint64_t(1 + instance * 53 % 4000), instance % 2 == 0};
    expectSamePlacements(randomProblem(rng, shape), rng,
                         "instance " + std::to_string(instance));
  }
}

TEST(OffsetPlacement, MatchesTheReferenceWithThousandsOfNeighbours) {
  // Long lifetimes on a short schedule: most buffers overlap most others,
  // so the neighbour lists go far past the radix sort's threshold.
  std::mt19937_64 rng(2026112302);
  for (int instance = 0; instance < 6; ++instance) {
    Shape shape{1500, 40, 40, uint64_t(1) << (8 + 6 * instance),
                instance % 2 == 1};
    expectSamePlacements(randomProblem(rng, shape), rng,
                         "dense instance " + std::to_string(instance));
  }
}

TEST(OffsetPlacement, MatchesTheReferenceWithLongAndShortLifetimes) {
  // Lifetimes from 1 to 300 positions over 400: both the segment tree's
  // upper levels and the start buckets hold many neighbours.
  std::mt19937_64 rng(2026112304);
  for (int instance = 0; instance < 4; ++instance) {
    Shape shape{2000, 400, 300, uint64_t(1) << (12 + 8 * instance),
                instance % 2 == 0};
    expectSamePlacements(randomProblem(rng, shape), rng,
                         "mixed instance " + std::to_string(instance));
  }
}

TEST(OffsetPlacement, MatchesTheReferenceWithShortLifetimesOnALongSchedule) {
  // Lifetimes of at most 4 to 40 positions over 800: where the walks keep a
  // list per window of time (TimeWindowedLists.h; the windowed searches, 40
  // to 400 windows of half the longest lifetime), a buffer's neighbours come
  // from the one to three windows it meets. Lifetimes that reach a window's
  // edges, and buffers in the first and last windows, are the cases a wrong
  // window would miss.
  std::mt19937_64 rng(2026120101);
  for (int instance = 0; instance < 8; ++instance) {
    Shape shape{size_t(1200 + 300 * instance), 800, 4 + 5 * instance,
                uint64_t(1) << (6 + 4 * instance), instance % 2 == 1};
    expectSamePlacements(randomProblem(rng, shape), rng,
                         "short-lived instance " + std::to_string(instance));
  }
}

TEST(OffsetPlacement, NestedWindowsWhereTheyPayGiveTheSamePlacements) {
  // On the trace family (generateDenseTrace: mostly long lifetimes, some
  // short), the walk's one list gets nested windows (TimeWindowedLists.h)
  // from the estimate: the placements
  // must be those of collecting the neighbours, which has no lists at all,
  // best and first fit, and those of the nested scan (a quarter of the
  // schedule, whatever the estimate). A small one of the same shape gets
  // none (each list a buffer goes into costs more than it saves there).
  std::mt19937_64 rng(2026120301);
  Problem problem = generateDenseTrace(24000, 2026120301);
  EXPECT_GT(OffsetPlacement(problem).nestedWindowCount(), 1u);
  EXPECT_EQ(
      OffsetPlacement(problem, NeighbourSearch::NestedScan).nestedWindowCount(),
      4u);
  EXPECT_EQ(
      OffsetPlacement(problem, NeighbourSearch::Collect).nestedWindowCount(),
      0u);
  EXPECT_EQ(
      OffsetPlacement(generateDenseTrace(1000, 2026120302)).nestedWindowCount(),
      0u);
  // Thousands of buffers on one slot: one list, and no window shorter.
  Problem oneSlot;
  for (uint64_t size = 1; size <= 4000; ++size)
    oneSlot.buffers.push_back({size, 0, 1, 1});
  EXPECT_EQ(OffsetPlacement(oneSlot).nestedWindowCount(), 0u);
  std::vector<uint32_t> bySize = ordersFor(problem, rng)[0];
  for (OffsetPlacement::Fit fit :
       {OffsetPlacement::Fit::Best, OffsetPlacement::Fit::First}) {
    std::optional<std::vector<uint64_t>> collected =
        structurePlacement(problem, bySize, fit, NeighbourSearch::Collect);
    ASSERT_TRUE(collected.has_value());
    EXPECT_EQ(structurePlacement(problem, bySize, fit), collected);
    EXPECT_EQ(
        structurePlacement(problem, bySize, fit, NeighbourSearch::NestedScan),
        collected);
  }
}

/// `order` as timeLocalOrder reorders it in chunks of `chunk`, on the
/// structure's slots.
std::vector<uint32_t> timeLocal(const Problem &problem,
                                const std::vector<uint32_t> &order,
                                size_t chunk) {
  OffsetPlacement placement(problem);
  std::vector<size_t> first, last;
  for (uint32_t id = 0; id < problem.buffers.size(); ++id) {
    first.push_back(placement.firstSlot(id));
    last.push_back(placement.lastSlot(id));
  }
  return timeLocalOrder(order, first, last, chunk, SIZE_MAX);
}

TEST(OffsetPlacement, TimeLocalOrdersPlaceEveryBufferWhereTheGivenOneDoes) {
  // TimeLocalOrder.h's claim: an order that keeps every two buffers that
  // meet in their order places each buffer at the same offset (the plain
  // reference on the given order), best and first fit, overflow included.
  std::mt19937_64 rng(2026120203);
  for (int instance = 0; instance < 300; ++instance) {
    Problem problem = randomProblem(
        rng, {size_t(1 + instance % 150), 1 + instance % 200, 1 + instance % 25,
              uint64_t(1) << (4 + instance % 40), instance % 2 == 0});
    for (const std::vector<uint32_t> &order : ordersFor(problem, rng)) {
      std::optional<std::vector<uint64_t>> expected =
          referencePlacement(problem, order);
      std::optional<std::vector<uint64_t>> expectedFirst =
          referenceFirstFit(problem, order);
      for (size_t chunk : {size_t(1), size_t(6), order.size()}) {
        std::vector<uint32_t> local = timeLocal(problem, order, chunk);
        std::string what = "instance " + std::to_string(instance) + ", chunk " +
                           std::to_string(chunk);
        EXPECT_EQ(expected, structurePlacement(problem, local)) << what;
        EXPECT_EQ(
            expectedFirst,
            structurePlacement(problem, local, OffsetPlacement::Fit::First))
            << what << " (first)";
      }
    }
  }
}

TEST(OffsetPlacement, PlaceInOrderSweepsLargeProblemsWithTheSamePlan) {
  // 150,000 short lifetimes over 40,000 positions: the placed buffers are
  // kept per window of time and placeInOrder places the size order as a
  // sweep over time (cacheFriendlyOrder differs from it). Its offsets must
  // be those of placing the size order itself; an order that already stays
  // in time (by start, as greedy by breadth's nearly does) is kept.
  std::mt19937_64 rng(2026120204);
  Problem problem = randomProblem(rng, {150000, 40000, 64, 1 << 20, true});
  std::vector<uint32_t> bySize = ordersFor(problem, rng)[0];
  OffsetPlacement placement(problem);
  std::vector<uint32_t> placing = placement.cacheFriendlyOrder(bySize);
  EXPECT_NE(placing, bySize);
  std::vector<uint32_t> byStart = bySize;
  std::stable_sort(byStart.begin(), byStart.end(), [&](uint32_t a, uint32_t b) {
    return problem.buffers[a].start < problem.buffers[b].start;
  });
  EXPECT_EQ(placement.cacheFriendlyOrder(byStart), byStart);
  // 140,000 one-position lifetimes over 200 positions: windows of time,
  // but thousands of buffers in each, so that a chunk of the sweep would
  // hold more pairs that meet than the sweep saves (OffsetPlacement.cpp,
  // kTimeLocalMaxPairs): the order is kept.
  Problem crowded = randomProblem(rng, {140000, 200, 1, 1 << 20, false});
  std::vector<uint32_t> crowdedBySize = ordersFor(crowded, rng)[0];
  EXPECT_EQ(OffsetPlacement(crowded).cacheFriendlyOrder(crowdedBySize),
            crowdedBySize);
  for (OffsetPlacement::Fit fit :
       {OffsetPlacement::Fit::Best, OffsetPlacement::Fit::First}) {
    PlanResult placed = placeInOrder(problem, bySize, {}, fit);
    ASSERT_TRUE(placed.ok());
    std::optional<std::vector<uint64_t>> expected =
        structurePlacement(problem, bySize, fit);
    ASSERT_TRUE(expected.has_value());
    EXPECT_EQ(placed.solution.offsets, *expected);
  }

  // MEMPLAN_SWEEP_PROBLEMS=N (a long run; docs/reliability.md): N more
  // random problems of 131,072-401,071 buffers, lifetimes short or long
  // beside their schedules, sizes from 0 or 1 byte to 64 B-32 MiB, some
  // with mixed alignments; for the size order, a random order and the
  // order by lifetime, best fit and first fit, placeInOrder's offsets must
  // be those of placing the order itself, and pass the validator.
  uint64_t extra = 0;
  if (const char *text = std::getenv("MEMPLAN_SWEEP_PROBLEMS"))
    extra = std::strtoull(text, nullptr, 10);
  size_t swept = 0;
  for (uint64_t k = 0; k < extra; ++k) {
    std::mt19937_64 draw(2026120205 + k);
    RandomProblemShape shape{};
    shape.count = 131072 + draw() % 270000;
    shape.positions = int64_t(shape.count / (2 + draw() % 10));
    shape.maxLength = int64_t(8 + draw() % (k % 3 == 0   ? 64
                                            : k % 3 == 1 ? 256
                                                         : 1024));
    shape.minSize = draw() % 2 ? 0 : 1;
    shape.maxSize = uint64_t(1) << (6 + draw() % 20);
    shape.someAligned = draw() % 2;
    shape.alignedEvery = 1 + draw() % 4;
    shape.maxAlignmentShift = int(draw() % 13);
    Problem large = generateRandomProblem(draw, shape);
    std::vector<std::vector<uint32_t>> orders = ordersFor(large, draw);
    orders.push_back(orderByLifetimeThenSize(large));
    for (const std::vector<uint32_t> &order : orders) {
      swept += OffsetPlacement(large).cacheFriendlyOrder(order) != order;
      for (OffsetPlacement::Fit fit :
           {OffsetPlacement::Fit::Best, OffsetPlacement::Fit::First}) {
        PlanResult placed = placeInOrder(large, order, {}, fit);
        std::optional<std::vector<uint64_t>> expected =
            structurePlacement(large, order, fit);
        ASSERT_EQ(placed.ok(), expected.has_value()) << "problem " << k;
        if (!expected)
          continue;
        ASSERT_EQ(placed.solution.offsets, *expected) << "problem " << k;
        ASSERT_FALSE(validateSolution(large, placed.solution).has_value())
            << "problem " << k;
      }
    }
  }
  if (extra)
    std::printf("MEMPLAN_SWEEP_PROBLEMS: %llu problems, %zu of %llu orders "
                "swept\n",
                static_cast<unsigned long long>(extra), swept,
                static_cast<unsigned long long>(3 * extra));
}

TEST(OffsetPlacement, MatchesTheReferenceOnAdversarialProblems) {
  std::mt19937_64 rng(2026112303);
  // Sizes near 2^40: offsets use every radix digit up to bit 50.
  Problem huge = randomProblem(rng, {600, 8, 8, uint64_t(1) << 40, true});
  expectSamePlacements(huge, rng, "offsets above 2^40");

  // All the same size and lifetime: equal offsets never arise, but every
  // gap ties; the lowest must win.
  Problem equal;
  for (int i = 0; i < 700; ++i)
    equal.buffers.push_back({64, i % 7, i % 7 + 3, 1});
  expectSamePlacements(equal, rng, "equal sizes");

  // Zero sizes among the rest, and buffers sharing offsets after a free.
  Problem zeros = randomProblem(rng, {800, 50, 10, 3, false});
  expectSamePlacements(zeros, rng, "tiny and zero sizes");

  // Neighbours whose offsets agree on their low bits (sizes and alignments
  // in units of 2^20) and on their high bits (all above a 2^40 buffer live
  // throughout): the radix sort passes over the bits in between only.
  Problem shared;
  shared.buffers.push_back({uint64_t(1) << 40, 0, 60, 1});
  for (int i = 0; i < 400; ++i)
    shared.buffers.push_back(
        {uint64_t(1 + i % 5) << 20, i % 50, i % 50 + 10, uint64_t(1) << 20});
  expectSamePlacements(shared, rng, "shared low and high bits");

  // Every neighbour at one offset: a buffer in each of 120 slots, and a
  // smaller one live through them all (no bit to sort on).
  Problem same;
  for (int i = 0; i < 120; ++i)
    same.buffers.push_back({64, i, i + 1, 1});
  same.buffers.push_back({32, 0, 120, 1});
  expectSamePlacements(same, rng, "one offset");

  // Offsets that overflow: the structure must fail where the reference does.
  Problem overflow;
  overflow.buffers.push_back({UINT64_MAX / 2, 0, 2, 1});
  overflow.buffers.push_back({UINT64_MAX / 2, 1, 3, 1});
  overflow.buffers.push_back({UINT64_MAX / 2, 0, 3, 1});
  expectSamePlacements(overflow, rng, "overflow");
}

/// Each buffer's size times the bytes of every buffer whose lifetime meets
/// its own (a pass over all pairs, exact in 128 bits).
std::vector<unsigned __int128> bruteForceConflicts(const Problem &problem) {
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<unsigned __int128> conflict(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    unsigned __int128 bytes = 0;
    for (const Buffer &other : buffers)
      if (other.start < buffers[i].end && buffers[i].start < other.end)
        bytes += other.size;
    conflict[i] = bytes * buffers[i].size;
  }
  return conflict;
}

/// The buffers by decreasing `key`, ties to the earlier start then the lower
/// index (the ties every order of the planner breaks that way).
std::vector<uint32_t>
orderByDecreasingKey(const Problem &problem,
                     const std::vector<unsigned __int128> &key) {
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<uint32_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (key[a] != key[b])
      return key[a] > key[b];
    if (buffers[a].start != buffers[b].start)
      return buffers[a].start < buffers[b].start;
    return a < b;
  });
  return order;
}

} // namespace

// What the neighbourhood search relies on: buffers put back at given offsets
// (placeAt) constrain the next placements exactly as placed ones do, and a
// structure emptied by removing every buffer places like a new one. Half of
// each problem is placed by the reference, the rest by the structure after
// placeAt of the first half, on a structure emptied after an unrelated
// placement.
TEST(OffsetPlacement, PlaceAtAndRemoveMatchTheReference) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 300; ++round) {
    auto [problem, order] =
        roundProblem(rng, round, 60, round % 3 == 0 ? 300 : 40);
    std::optional<std::vector<uint64_t>> expected =
        referencePlacement(problem, order);
    if (!expected)
      continue;
    OffsetPlacement placement(
        problem, kNeighbourSearches[round % std::size(kNeighbourSearches)]);
    for (uint32_t id : order)
      placement.place(id); // something to forget
    for (uint32_t id : order)
      placement.remove(id);
    size_t half = order.size() / 2;
    for (size_t k = 0; k < half; ++k)
      placement.placeAt(order[k], (*expected)[order[k]]);
    for (size_t k = half; k < order.size(); ++k)
      ASSERT_TRUE(placement.place(order[k]));
    EXPECT_EQ(placement.currentOffsets(), *expected)
        << "round " << round << " ("
        << describe(kNeighbourSearches[round % std::size(kNeighbourSearches)])
        << ")";
  }
}

/// One round of moves on `placement` (every buffer of `order` placed):
/// about a third of the buffers, drawn at random, removed and placed again
/// in a random order, the offsets after against the reference with the
/// others fixed where they were.
void expectMovedThirdAsTheReference(const Problem &problem,
                                    OffsetPlacement &placement,
                                    const std::vector<uint32_t> &order,
                                    std::mt19937_64 &rng,
                                    const std::string &what) {
  std::vector<uint32_t> moved, kept;
  for (uint32_t id : order)
    (rng() % 3 == 0 ? moved : kept).push_back(id);
  std::shuffle(moved.begin(), moved.end(), rng);
  std::vector<std::pair<uint32_t, uint64_t>> fixed;
  for (uint32_t id : kept)
    fixed.push_back({id, placement.currentOffsets()[id]});
  std::optional<std::vector<uint64_t>> expected =
      referencePlacement(problem, moved, fixed);
  ASSERT_TRUE(expected.has_value()) << what;
  for (uint32_t id : moved)
    placement.remove(id);
  for (uint32_t id : moved)
    ASSERT_TRUE(placement.place(id)) << what;
  ASSERT_EQ(placement.currentOffsets(), *expected) << what;
}

// What the neighbourhood moves rely on: a removed buffer no longer
// constrains placements, whatever was placed and removed before. Rounds of
// removing random buffers from one structure and placing them again in a
// random order, each checked against the reference with the other buffers
// fixed where they are.
TEST(OffsetPlacement, RemoveMatchesTheReference) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    // Every third round over a schedule long beside its lifetimes, so that
    // the walks keep a list per window of time.
    auto [problem, order] =
        roundProblem(rng, round, 80, round % 3 == 0 ? 300 : 30);
    OffsetPlacement placement(
        problem, kNeighbourSearches[round % std::size(kNeighbourSearches)]);
    for (uint32_t id : order)
      ASSERT_TRUE(placement.place(id));
    for (int cycle = 0; cycle < 5; ++cycle)
      ASSERT_NO_FATAL_FAILURE(expectMovedThirdAsTheReference(
          problem, placement, order, rng,
          "round " + std::to_string(round) + " cycle " + std::to_string(cycle) +
              " (" +
              describe(
                  kNeighbourSearches[round % std::size(kNeighbourSearches)]) +
              ")"));
  }
}

// Where the walk over the placed buffers is there, the structures that
// collect neighbours take the placed buffers only once a placement
// collects (most placements walk); buffers removed before that must leave
// no trace there, and those placed again must be found. Problems shaped
// like the dense traces (most lifetimes long, a quarter of a few slots:
// the long ones walk, many short ones collect), placed in size order, then
// rounds of removing a random third and placing them again in a random
// order, against the reference with the others fixed.
TEST(OffsetPlacement, RemovesBuffersNotYetCollected) {
  std::mt19937_64 rng(2026120205);
  for (int instance = 0; instance < 6; ++instance) {
    Problem problem;
    const int64_t positions = 700;
    for (int i = 0; i < 1400; ++i) {
      int64_t start = rng() % positions;
      int64_t length = rng() % 4 == 0
                           ? 1 + rng() % 8
                           : positions / 10 + rng() % (positions / 2);
      problem.buffers.push_back({uint64_t(64) << (rng() % 12), start,
                                 std::min(positions, start + length),
                                 uint64_t(1) << (rng() % 7)});
    }
    std::vector<uint32_t> order = ordersFor(problem, rng)[0];
    OffsetPlacement placement(problem);
    for (uint32_t id : order)
      ASSERT_TRUE(placement.place(id));
    for (int cycle = 0; cycle < 4; ++cycle)
      ASSERT_NO_FATAL_FAILURE(expectMovedThirdAsTheReference(
          problem, placement, order, rng,
          "instance " + std::to_string(instance) + " cycle " +
              std::to_string(cycle)));
  }
}

// greedy-by-conflicts against an order computed by brute force: each
// buffer's size times the bytes of every buffer whose lifetime meets its
// own (a pass over all pairs, exact in 128 bits), decreasing, ties to the
// earlier start then the lower index; the reference places in that order.
TEST(OffsetPlacement, GreedyByConflictsMatchesABruteForceOrder) {
  std::mt19937_64 rng(77);
  for (int round = 0; round < 300; ++round) {
    Problem problem =
        randomProblem(rng, {size_t(1 + round % 80), 30, 1 + round % 20,
                            uint64_t(1) << (3 + round % 24), round % 2 == 0});
    std::vector<uint32_t> order =
        orderByDecreasingKey(problem, bruteForceConflicts(problem));
    std::optional<std::vector<uint64_t>> expected =
        referencePlacement(problem, order);
    PlanResult actual = planGreedyByConflicts(problem);
    ASSERT_EQ(expected.has_value(), actual.ok()) << "round " << round;
    if (expected) {
      EXPECT_EQ(*expected, actual.solution.offsets) << "round " << round;
    }
  }
}

// first-fit-by-size and first-fit-by-conflicts: the orders computed apart
// (decreasing size, or the brute-force conflict above; ties to the earlier
// start then the lower index), placed by the first-fit reference. Like
// every offset algorithm they keep the naive layout where that is smaller
// (mixed alignments), so that case expects planNaive's plan.
TEST(OffsetPlacement, FirstFitAlgorithmsMatchTheReference) {
  std::mt19937_64 rng(78);
  int naiveKept = 0;
  for (int round = 0; round < 400; ++round) {
    Problem problem =
        randomProblem(rng, {size_t(1 + round % 90), 30, 1 + round % 20,
                            uint64_t(1) << (3 + round % 24), round % 2 == 0});
    const std::vector<Buffer> &buffers = problem.buffers;
    std::vector<unsigned __int128> sizes;
    for (const Buffer &buffer : buffers)
      sizes.push_back(buffer.size);
    std::vector<unsigned __int128> conflicts = bruteForceConflicts(problem);
    for (bool bySize : {true, false}) {
      std::vector<uint32_t> order =
          orderByDecreasingKey(problem, bySize ? sizes : conflicts);
      std::optional<std::vector<uint64_t>> expected =
          referenceFirstFit(problem, order);
      PlanResult actual = bySize ? planFirstFitBySize(problem)
                                 : planFirstFitByConflicts(problem);
      std::string what = std::string(bySize ? "size" : "conflicts") +
                         ", round " + std::to_string(round);
      ASSERT_EQ(expected.has_value(), actual.ok()) << what;
      if (!expected)
        continue;
      uint64_t arena = 0;
      for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].size)
          arena = std::max(arena, (*expected)[i] + buffers[i].size);
      PlanResult naive = planNaive(problem);
      if (naive.ok() && naive.solution.arenaSize < arena) {
        ++naiveKept;
        *expected = naive.solution.offsets;
      }
      EXPECT_EQ(*expected, actual.solution.offsets) << what;
    }
  }
  // Most rounds test the first-fit placement itself, not the naive layout.
  EXPECT_LT(naiveKept, 40);
}

// The search gives each greedy placement a deadline. Ordering the buffers
// and building the placement structure read no clock (0.5-1.4 s at a
// million buffers), so a placement that starts past its deadline must stop
// before them, whatever the problem's size: here one with fewer buffers
// than are placed between two clock reads, which the placement loop alone
// would finish. A bad problem still gets its own error, not "out of time".
TEST(OffsetPlacement, PlacementsStartedPastTheirDeadlineStopAtOnce) {
  std::mt19937_64 rng(79);
  Problem problem = randomProblem(rng, {40, 30, 8, 64, false});
  Problem bad = problem;
  bad.buffers[3].end = bad.buffers[3].start; // an empty lifetime
  using Until =
      std::function<PlanResult(const Problem &, const std::function<bool()> &)>;
#define MEMPLAN_UNTIL(plan)                                                    \
  [](const Problem &problem, const std::function<bool()> &expired) {           \
    return plan(problem, expired);                                             \
  }
  const std::pair<const char *, Until> placements[] = {
      {"greedy-by-size", MEMPLAN_UNTIL(planGreedyBySizeUntil)},
      {"best-fit", MEMPLAN_UNTIL(planBestFitUntil)},
      {"greedy-by-breadth", MEMPLAN_UNTIL(planGreedyByBreadthUntil)},
      {"greedy-by-lifetime", MEMPLAN_UNTIL(planGreedyByLifetimeUntil)},
      {"greedy-by-conflicts", MEMPLAN_UNTIL(planGreedyByConflictsUntil)},
      {"first-fit-by-size", MEMPLAN_UNTIL(planFirstFitBySizeUntil)},
      {"first-fit-by-conflicts", MEMPLAN_UNTIL(planFirstFitByConflictsUntil)},
      {"skyline", MEMPLAN_UNTIL(planSkylineUntil)}};
#undef MEMPLAN_UNTIL
  int clockReads = 0;
  auto expired = [&] {
    ++clockReads;
    return true;
  };
  for (const auto &[name, placement] : placements) {
    EXPECT_EQ(placement(problem, expired).error, kOutOfTime) << name;
    EXPECT_TRUE(placement(problem, {}).ok()) << name;
    PlanResult rejected = placement(bad, expired);
    EXPECT_FALSE(rejected.ok()) << name;
    EXPECT_NE(rejected.error, kOutOfTime) << name;
  }
  EXPECT_EQ(clockReads, 8);
}
