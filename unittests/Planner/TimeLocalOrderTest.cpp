//===- TimeLocalOrderTest.cpp - A placement order that stays in time ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// timeLocalOrder against the contract, checked by brute force: the result is
// the same buffers, each in its own chunk; every two buffers whose slots
// meet (every pair tested) keep their order; and where nothing in a chunk
// meets, the chunk goes by first slot, as a stable sort would put it. That
// the placements are the same is checked in OffsetPlacementTest against the
// plain reference placement.
//
//===----------------------------------------------------------------------===//

#include "TimeLocalOrder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace memplan;

namespace {

struct Slots {
  std::vector<size_t> first, last;
};

/// `count` lifetimes over `slots` slots, of 0 to `maxLength` slots (empty
/// ones too: the function must not lose them).
Slots randomSlots(std::mt19937_64 &rng, size_t count, size_t slots,
                  size_t maxLength) {
  Slots result;
  for (size_t i = 0; i < count; ++i) {
    size_t first = rng() % slots;
    size_t length = rng() % (maxLength + 1);
    result.first.push_back(first);
    result.last.push_back(std::min(slots, first + length));
  }
  return result;
}

void expectKeepsTheContract(const std::vector<uint32_t> &order,
                            const Slots &slots, size_t chunk,
                            const std::vector<uint32_t> &result,
                            const std::string &what) {
  ASSERT_EQ(result.size(), order.size()) << what;
  std::vector<size_t> givenAt(order.size()), resultAt(order.size());
  for (size_t i = 0; i < order.size(); ++i)
    givenAt[order[i]] = i;
  std::vector<bool> seen(order.size(), false);
  for (size_t i = 0; i < result.size(); ++i) {
    ASSERT_LT(result[i], order.size()) << what;
    ASSERT_FALSE(seen[result[i]]) << what << ": buffer twice";
    seen[result[i]] = true;
    resultAt[result[i]] = i;
    ASSERT_EQ(i / chunk, givenAt[result[i]] / chunk)
        << what << ": buffer " << result[i] << " left its chunk";
  }
  for (uint32_t a = 0; a < order.size(); ++a)
    for (uint32_t b = 0; b < order.size(); ++b) {
      bool meet =
          slots.first[a] < slots.last[b] && slots.first[b] < slots.last[a];
      if (meet && givenAt[a] < givenAt[b])
        ASSERT_LT(resultAt[a], resultAt[b])
            << what << ": buffers " << a << " and " << b
            << " meet and changed places";
    }
}

TEST(TimeLocalOrder, KeepsEveryTwoBuffersThatMeetInTheirOrder) {
  std::mt19937_64 rng(2026120201);
  for (int instance = 0; instance < 400; ++instance) {
    size_t count = 1 + instance % 120;
    size_t slots = 1 + instance % 97;
    Slots lifetimes = randomSlots(rng, count, slots, 1 + instance % 40);
    std::vector<uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t chunk :
         {size_t(1), size_t(2), size_t(7), count / 3 + 1, count, count + 5}) {
      std::vector<uint32_t> result =
          timeLocalOrder(order, lifetimes.first, lifetimes.last, chunk,
                         instance % 3 == 0 ? 2 : SIZE_MAX);
      expectKeepsTheContract(order, lifetimes, chunk, result,
                             "instance " + std::to_string(instance) +
                                 ", chunk " + std::to_string(chunk));
    }
  }
}

TEST(TimeLocalOrder, ChunksWhereNothingMeetsGoByFirstSlot) {
  // One-slot lifetimes at distinct slots meet nothing: each chunk comes out
  // sorted by first slot, whatever the given order.
  std::mt19937_64 rng(2026120202);
  for (int instance = 0; instance < 50; ++instance) {
    size_t count = 1 + instance * 7;
    std::vector<size_t> starts(count);
    std::iota(starts.begin(), starts.end(), 0);
    std::shuffle(starts.begin(), starts.end(), rng);
    Slots lifetimes;
    for (size_t start : starts) {
      lifetimes.first.push_back(start);
      lifetimes.last.push_back(start + 1);
    }
    std::vector<uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    size_t chunk = 1 + instance % 17;
    std::vector<uint32_t> expected = order;
    for (size_t begin = 0; begin < count; begin += chunk)
      std::stable_sort(expected.begin() + begin,
                       expected.begin() + std::min(count, begin + chunk),
                       [&](uint32_t a, uint32_t b) {
                         return lifetimes.first[a] < lifetimes.first[b];
                       });
    EXPECT_EQ(timeLocalOrder(order, lifetimes.first, lifetimes.last, chunk, 0),
              expected)
        << "instance " << instance;
  }
}

TEST(TimeLocalOrder, ABufferWaitsForTheOnesBeforeItThatItMeets) {
  // Given order 0, 1, 2: buffer 0 at slots [5, 9), buffer 1 at [3, 6)
  // meets it and must follow it, buffer 2 at [0, 2) meets neither and goes
  // by its first slot. A sweep by first slot alone would put 1 before 0.
  std::vector<size_t> first = {5, 3, 0}, last = {9, 6, 2};
  std::vector<uint32_t> order = {0, 1, 2};
  std::vector<uint32_t> expected = {2, 0, 1};
  EXPECT_EQ(timeLocalOrder(order, first, last, 3, SIZE_MAX), expected);
}

TEST(TimeLocalOrder, ChunksWithTooManyPairsKeepTheirOrder) {
  // Chunks of 4 where every buffer meets every other (6 pairs, 1.5 per
  // buffer) beside chunks where none meets: with a limit of 1 pair per
  // buffer the first keep the given order, the others are swept; with 2,
  // all are swept (which, where all meet, is the given order too).
  std::vector<size_t> first = {9, 8, 7, 6, 30, 25, 22, 0};
  std::vector<size_t> last = {20, 20, 20, 20, 31, 26, 23, 1};
  std::vector<uint32_t> order = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<uint32_t> expected = {0, 1, 2, 3, 7, 6, 5, 4};
  EXPECT_EQ(timeLocalOrder(order, first, last, 4, 1), expected);
  EXPECT_EQ(timeLocalOrder(order, first, last, 4, 2), expected);
  // A chunk of 8: 6 pairs for 8 buffers, under one per buffer.
  std::vector<uint32_t> swept = {7, 0, 1, 2, 3, 6, 5, 4};
  EXPECT_EQ(timeLocalOrder(order, first, last, 8, 1), swept);
  EXPECT_EQ(timeLocalOrder(order, first, last, 8, 0), order);
}

} // namespace
