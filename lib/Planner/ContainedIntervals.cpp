//===- ContainedIntervals.cpp - Best interval within a range --------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ContainedIntervals.h"

#include "RadixSort.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <numeric>

using namespace memplan;

namespace {
/// The middle of [lo, hi): where the node of that range sits.
size_t middle(size_t lo, size_t hi) { return lo + (hi - lo) / 2; }
} // namespace

ContainedIntervals::ContainedIntervals(std::vector<Interval> intervals,
                                       uint32_t scanLimit)
    : scanLimit(scanLimit) {
  listBySlot(intervals);
  nodes.reserve(intervals.size());
  for (const Interval &interval : intervals)
    nodes.push_back({interval.first, interval.last, interval.rank,
                     interval.rank, interval.first, interval.first,
                     interval.last, interval.last});
  intervals = {}; // not needed by the build
  build(0, nodes.size(), /*byFirst=*/true);
  indexOfRank.assign(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i)
    indexOfRank[nodes[i].rank] = static_cast<uint32_t>(i);
}

/// The slots' lists: the intervals by last slot (a radix sort), then by
/// first slot, stably (a counting sort, whose bucket starts are the
/// lists'). Its scratch arrays are gone before the tree is built.
void ContainedIntervals::listBySlot(const std::vector<Interval> &intervals) {
  uint32_t slots = 0;
  for (const Interval &interval : intervals)
    slots = std::max(slots, interval.last);
  std::vector<uint32_t> byLast(intervals.size());
  std::iota(byLast.begin(), byLast.end(), 0);
  radixSort(byLast, [&](uint32_t i) { return intervals[i].last; });
  startOf.assign(slots + 1, 0);
  for (const Interval &interval : intervals)
    ++startOf[interval.first + 1];
  for (uint32_t s = 0; s < slots; ++s)
    startOf[s + 1] += startOf[s];
  listed.resize(intervals.size());
  listedAt.resize(intervals.size());
  std::vector<uint32_t> next(startOf.begin(), startOf.end());
  for (uint32_t i : byLast) {
    const Interval &interval = intervals[i];
    uint32_t at = next[interval.first]++;
    listed[at] = {interval.last, interval.rank};
    listedAt[interval.rank] = at;
  }
}

/// Puts the median of [lo, hi) (by first or by last, alternating with the
/// depth; ties by rank) in the middle, builds both halves, then the box and
/// best rank of the whole.
void ContainedIntervals::build(size_t lo, size_t hi, bool byFirst) {
  if (lo >= hi)
    return;
  size_t mid = middle(lo, hi);
  std::nth_element(nodes.begin() + lo, nodes.begin() + mid, nodes.begin() + hi,
                   [byFirst](const Node &x, const Node &y) {
                     uint32_t kx = byFirst ? x.first : x.last;
                     uint32_t ky = byFirst ? y.first : y.last;
                     return kx < ky || (kx == ky && x.rank < y.rank);
                   });
  build(lo, mid, !byFirst);
  build(mid + 1, hi, !byFirst);
  Node &node = nodes[mid];
  for (size_t child : {lo < mid ? middle(lo, mid) : mid,
                       mid + 1 < hi ? middle(mid + 1, hi) : mid}) {
    const Node &other = nodes[child];
    node.bestRank = std::min(node.bestRank, other.bestRank);
    node.minFirst = std::min(node.minFirst, other.minFirst);
    node.maxFirst = std::max(node.maxFirst, other.maxFirst);
    node.minLast = std::min(node.minLast, other.minLast);
    node.maxLast = std::max(node.maxLast, other.maxLast);
  }
}

uint32_t ContainedIntervals::bestWithin(uint32_t a, uint32_t b) const {
  // No interval starts at a slot past the last one any ends at.
  uint32_t slots = static_cast<uint32_t>(startOf.size()) - 1;
  uint32_t from = std::min(a, slots), to = std::min(b, slots);
  if (from >= to)
    return kNone;
  if (uint64_t(to - from) + (startOf[to] - startOf[from]) <= scanLimit)
    return scan(from, b);
  uint32_t best = kNone;
  search(0, nodes.size(), a, b, best);
  return best;
}

void ContainedIntervals::search(size_t lo, size_t hi, uint32_t a, uint32_t b,
                                uint32_t &best) const {
  if (lo >= hi)
    return;
  size_t mid = middle(lo, hi);
  const Node &node = nodes[mid];
  if (node.bestRank >= best || node.maxFirst < a || node.minLast > b)
    return; // nothing better, or nothing within [a, b)
  if (node.minFirst >= a && node.maxLast <= b) {
    best = node.bestRank; // the whole subtree lies within
    return;
  }
  if (node.first >= a && node.last <= b && node.rank < best)
    best = node.rank;
  // The child with the better rank first: it lowers `best` for the other.
  uint32_t leftBest = lo < mid ? nodes[middle(lo, mid)].bestRank : kNone;
  uint32_t rightBest =
      mid + 1 < hi ? nodes[middle(mid + 1, hi)].bestRank : kNone;
  if (leftBest <= rightBest) {
    search(lo, mid, a, b, best);
    search(mid + 1, hi, a, b, best);
  } else {
    search(mid + 1, hi, a, b, best);
    search(lo, mid, a, b, best);
  }
}

/// The lowest rank among the intervals not forgotten that start in [a, b)
/// and end by b.
uint32_t ContainedIntervals::scan(uint32_t a, uint32_t b) const {
  uint32_t best = kNone;
  uint32_t slots = static_cast<uint32_t>(startOf.size()) - 1;
  for (uint32_t slot = a, end = std::min(b, slots); slot < end; ++slot)
    for (uint32_t at = startOf[slot]; at < startOf[slot + 1]; ++at) {
      if (listed[at].last > b)
        break; // the rest of this slot's end later
      best = std::min(best, listed[at].rank);
    }
  return best;
}

void ContainedIntervals::forget(uint32_t rank) {
  listed[listedAt[rank]].rank = kNone;
  size_t target = indexOfRank[rank];
  llvm::SmallVector<std::pair<size_t, size_t>, 32> path;
  for (size_t lo = 0, hi = nodes.size();;) {
    size_t mid = middle(lo, hi);
    path.emplace_back(lo, hi);
    if (mid == target)
      break;
    if (target < mid)
      hi = mid;
    else
      lo = mid + 1;
  }
  nodes[target].rank = kNone;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    auto [lo, hi] = *it;
    size_t mid = middle(lo, hi);
    uint32_t bestRank = nodes[mid].rank;
    if (lo < mid)
      bestRank = std::min(bestRank, nodes[middle(lo, mid)].bestRank);
    if (mid + 1 < hi)
      bestRank = std::min(bestRank, nodes[middle(mid + 1, hi)].bestRank);
    nodes[mid].bestRank = bestRank;
  }
}
