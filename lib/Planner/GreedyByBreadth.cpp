//===- GreedyByBreadth.cpp - Greedy by breadth offset planning ------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Pisarchyk & Lee (2020), offset calculation "greedy by breadth": visit the
// schedule positions in decreasing order of their breadth (the bytes live
// there), and at each place its not yet placed buffers by decreasing size,
// each into the smallest gap that fits. The widest moments of the schedule
// are packed first, since they decide the arena.
//
// The order of placement does not depend on where buffers go, so it is
// found first: a buffer is placed at the first position in that order that
// it is live at, so its turn is the minimum of the positions' ranks over its
// lifetime, a range-minimum query (a segment tree over the positions), and
// the buffers of one turn go by decreasing size, then index. O(n log n) on
// top of the placements; visiting every buffer live at each position, as
// the description reads, costs the sum of the lifetimes (1.3 billion visits
// on the 60,000-buffer trace of docs/benchmarks.md).
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/GreedyAlgorithms.h"

#include "OffsetPlacement.h"
#include "RadixSort.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace memplan;

namespace {

/// The bytes live at each slot (and a last entry, 0), summed in `Sum`.
template <typename Sum>
std::vector<Sum> breadthOfSlots(const std::vector<Buffer> &buffers,
                                const OffsetPlacement &placement) {
  std::vector<Sum> breadth(placement.slotCount() + 1, 0);
  for (uint32_t id = 0; id < buffers.size(); ++id) {
    breadth[placement.firstSlot(id)] += Sum(buffers[id].size);
    breadth[placement.lastSlot(id)] -= Sum(buffers[id].size);
  }
  std::partial_sum(breadth.begin(), breadth.end(), breadth.begin());
  return breadth;
}

/// The slots by decreasing breadth, ties to the earlier slot. Where the
/// sizes add up to less than 2^63, every breadth and every partial sum is
/// exact in 64 bits, and a radix sort orders them (a comparison sort of the
/// slots took 3 % of the planning time on a million buffers); otherwise
/// the sums are taken in long double, as before, which is exact below 2^64
/// and orders the rest as before.
std::vector<size_t> slotsByBreadth(const Problem &problem,
                                   const OffsetPlacement &placement) {
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<size_t> slotOrder(placement.slotCount());
  std::iota(slotOrder.begin(), slotOrder.end(), 0);
  uint64_t total = 0; // saturates
  for (const Buffer &buffer : buffers)
    total = llvm::SaturatingAdd(total, buffer.size);
  if (total < (uint64_t(1) << 63)) {
    std::vector<int64_t> breadth = breadthOfSlots<int64_t>(buffers, placement);
    // Rising by ~breadth is falling by breadth; the sort is stable.
    radixSort(slotOrder, [&](size_t slot) {
      return ~static_cast<uint64_t>(breadth[slot]);
    });
    return slotOrder;
  }
  std::vector<long double> breadth =
      breadthOfSlots<long double>(buffers, placement);
  std::stable_sort(slotOrder.begin(), slotOrder.end(),
                   [&](size_t a, size_t b) { return breadth[a] > breadth[b]; });
  return slotOrder;
}

} // namespace

PlanResult memplan::planGreedyByBreadth(const Problem &problem,
                                        unsigned threads) {
  return planGreedyByBreadthUntil(problem, {}, threads);
}

PlanResult
memplan::planGreedyByBreadthUntil(const Problem &problem,
                                  const std::function<bool()> &expired,
                                  unsigned threads) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
  // As in placeCheckedInOrder: the set-up below reads no clock.
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  const std::vector<Buffer> &buffers = problem.buffers;
  OffsetPlacement placement(problem, OffsetPlacement::NeighbourSearch::Auto,
                            threads);
  size_t slots = placement.slotCount();

  // The slots by decreasing breadth (the bytes live there), ties to the
  // earlier slot.
  std::vector<size_t> slotOrder = slotsByBreadth(problem, placement);

  // Each slot's rank in that order, as the leaves of a segment tree whose
  // nodes hold their leaves' minimum.
  std::vector<size_t> lowest(2 * slots);
  for (size_t rank = 0; rank < slots; ++rank)
    lowest[slots + slotOrder[rank]] = rank;
  for (size_t node = slots; node-- > 1;)
    lowest[node] = std::min(lowest[2 * node], lowest[2 * node + 1]);
  auto lowestRank = [&](size_t first, size_t last) {
    size_t rank = SIZE_MAX;
    for (first += slots, last += slots; first < last; first /= 2, last /= 2) {
      if (first & 1)
        rank = std::min(rank, lowest[first++]);
      if (last & 1)
        rank = std::min(rank, lowest[--last]);
    }
    return rank;
  };

  // The buffers live at some slot by turn (a counting sort, indices rising
  // within a turn), then each turn's by decreasing size, ties to the lower
  // index. (One sort of a million (turn, size, index) triples took a
  // twentieth of the planning time; a turn holds a few buffers.)
  std::vector<size_t> turnOf(buffers.size(), SIZE_MAX);
  std::vector<size_t> turnBegin(slots + 1, 0);
  for (uint32_t id = 0; id < buffers.size(); ++id) {
    size_t first = placement.firstSlot(id), last = placement.lastSlot(id);
    if (first < last) {
      turnOf[id] = lowestRank(first, last);
      ++turnBegin[turnOf[id] + 1];
    }
  }
  std::partial_sum(turnBegin.begin(), turnBegin.end(), turnBegin.begin());
  std::vector<uint32_t> order(turnBegin[slots]);
  std::vector<size_t> filled(turnBegin.begin(), turnBegin.end() - 1);
  for (uint32_t id = 0; id < buffers.size(); ++id)
    if (turnOf[id] != SIZE_MAX)
      order[filled[turnOf[id]]++] = id;
  for (size_t turn = 0; turn < slots; ++turn)
    if (turnBegin[turn + 1] - turnBegin[turn] > 1)
      std::sort(order.begin() + turnBegin[turn],
                order.begin() + turnBegin[turn + 1],
                [&](uint32_t a, uint32_t b) {
                  if (buffers[a].size != buffers[b].size)
                    return buffers[a].size > buffers[b].size;
                  return a < b;
                });
  if (pastDeadline(expired))
    return {{}, kOutOfTime};

  return placeInOrderWith(placement, problem, std::move(order), expired);
}
