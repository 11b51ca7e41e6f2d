//===- RadixSortTest.cpp - Stable sorts by 64-bit keys --------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// radixSort against std::stable_sort, on keys that differ in a few low,
// middle or high bits, in all 64, or not at all, with every digit width;
// and the planner's orders by size and lifetime (BufferOrder.h) against
// comparison sorts written here from their documented ties: negative
// starts, equal sizes and lifetimes, sizes and lifetimes near 2^64.
//
//===----------------------------------------------------------------------===//

#include "RadixSort.h"
#include "BufferOrder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace memplan;

namespace {

struct Item {
  uint64_t key;
  uint32_t id; // its place before the sort: ties must keep it
  bool operator==(const Item &other) const {
    return key == other.key && id == other.id;
  }
};

/// `count` keys drawn by `shape`: 0 few values, 1 low bits, 2 middle bits
/// under a shared high part, 3 any 64 bits, 4 one value.
std::vector<Item> randomItems(std::mt19937_64 &rng, size_t count, int shape) {
  std::vector<Item> items;
  for (uint32_t id = 0; id < count; ++id) {
    uint64_t random = rng();
    uint64_t key = 0;
    switch (shape) {
    case 0:
      key = random % 3;
      break;
    case 1:
      key = random & 0x3ff;
      break;
    case 2:
      key = (uint64_t(0xabcd) << 48) | ((random & 0xfffff) << 12);
      break;
    case 3:
      key = random;
      break;
    default:
      key = 42;
      break;
    }
    items.push_back({key, id});
  }
  return items;
}

TEST(RadixSort, SortsAsAStableComparisonSortDoes) {
  std::mt19937_64 rng(2026120205);
  for (int round = 0; round < 200; ++round) {
    size_t count = round % 7 == 0 ? 0 : 1 + rng() % 3000;
    int shape = round % 5;
    std::vector<Item> items = randomItems(rng, count, shape);
    std::vector<Item> expected = items;
    std::stable_sort(
        expected.begin(), expected.end(),
        [](const Item &a, const Item &b) { return a.key < b.key; });
    unsigned digit = 1 + round % 16;
    radixSort(
        items, [](const Item &item) { return item.key; }, digit);
    EXPECT_EQ(items, expected)
        << "round " << round << ", shape " << shape << ", digit " << digit;
  }
}

Problem randomProblem(std::mt19937_64 &rng, size_t count) {
  Problem problem;
  for (size_t i = 0; i < count; ++i) {
    Buffer buffer;
    // Few distinct values, so that ties at every key arise; some near the
    // top of their ranges.
    uint64_t sizes[] = {0, 1, 64, 64, 4096, UINT64_MAX - 1, UINT64_MAX};
    buffer.size = sizes[rng() % 7];
    int64_t starts[] = {INT64_MIN, -5, -1, 0, 3, 7, INT64_MAX - 10};
    buffer.start = starts[rng() % 7];
    uint64_t lengths[] = {1, 2, 9, 10};
    buffer.end = buffer.start + static_cast<int64_t>(lengths[rng() % 4]);
    if (rng() % 5 == 0 && buffer.start == INT64_MIN)
      buffer.end = INT64_MAX; // the longest lifetime there is
    problem.buffers.push_back(buffer);
  }
  return problem;
}

/// Indices sorted by `before` on their buffers, ties to the earlier start,
/// then the lower index.
template <typename Before>
std::vector<uint32_t> comparisonOrder(const Problem &problem, Before before) {
  std::vector<uint32_t> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Buffer &x = problem.buffers[a], &y = problem.buffers[b];
    if (before(x, y))
      return true;
    if (before(y, x))
      return false;
    if (x.start != y.start)
      return x.start < y.start;
    return a < b;
  });
  return order;
}

uint64_t length(const Buffer &buffer) {
  return uint64_t(buffer.end) - uint64_t(buffer.start);
}

TEST(RadixSort, OrdersBySizeAndLifetimeMatchComparisonSorts) {
  std::mt19937_64 rng(2026120206);
  for (int round = 0; round < 300; ++round) {
    Problem problem = randomProblem(rng, rng() % 400);
    std::string what = "round " + std::to_string(round);
    EXPECT_EQ(orderBySizeThenStart(problem),
              comparisonOrder(problem,
                              [](const Buffer &a, const Buffer &b) {
                                return a.size > b.size;
                              }))
        << what;
    EXPECT_EQ(orderBySizeThenLifetime(problem),
              comparisonOrder(problem,
                              [](const Buffer &a, const Buffer &b) {
                                if (a.size != b.size)
                                  return a.size > b.size;
                                return length(a) > length(b);
                              }))
        << what;
    EXPECT_EQ(orderByLifetimeThenSize(problem),
              comparisonOrder(problem,
                              [](const Buffer &a, const Buffer &b) {
                                if (length(a) != length(b))
                                  return length(a) > length(b);
                                return a.size > b.size;
                              }))
        << what;
  }
}

} // namespace
