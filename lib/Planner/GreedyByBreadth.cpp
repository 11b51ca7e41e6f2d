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
// Cost: each position visits the buffers live at it, O(sum of lifetimes) in
// all, on top of the placements.
//
//===----------------------------------------------------------------------===//

#include "IntervalStabber.h"
#include "memplan/Planner/GreedyAlgorithms.h"

#include "OffsetPlacement.h"

#include <algorithm>
#include <numeric>

using namespace memplan;

PlanResult memplan::planGreedyByBreadth(const Problem &problem) {
  return planGreedyByBreadthUntil(problem, {});
}

PlanResult
memplan::planGreedyByBreadthUntil(const Problem &problem,
                                  const std::function<bool()> &expired) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
  // As in placeCheckedInOrder: the set-up below reads no clock.
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  const std::vector<Buffer> &buffers = problem.buffers;
  OffsetPlacement placement(problem);
  size_t slots = placement.slotCount();

  // Breadth of every slot, and which buffers cover it.
  std::vector<long double> breadth(slots + 1, 0);
  IntervalStabber<uint32_t> covering(slots);
  for (uint32_t id = 0; id < buffers.size(); ++id)
    covering.count(placement.firstSlot(id), placement.lastSlot(id));
  for (uint32_t id = 0; id < buffers.size(); ++id) {
    size_t first = placement.firstSlot(id), last = placement.lastSlot(id);
    breadth[first] += buffers[id].size;
    breadth[last] -= buffers[id].size;
    covering.insert(id, first, last);
  }
  std::partial_sum(breadth.begin(), breadth.end(), breadth.begin());
  std::vector<size_t> slotOrder(slots);
  std::iota(slotOrder.begin(), slotOrder.end(), 0);
  std::stable_sort(slotOrder.begin(), slotOrder.end(),
                   [&](size_t a, size_t b) { return breadth[a] > breadth[b]; });
  if (pastDeadline(expired))
    return {{}, kOutOfTime};

  std::vector<bool> placed(buffers.size(), false);
  std::vector<uint32_t> batch;
  size_t placements = 0;
  for (size_t slot : slotOrder) {
    batch.clear();
    covering.forEachCovering(slot, [&](uint32_t id) {
      if (!placed[id])
        batch.push_back(id);
    });
    std::sort(batch.begin(), batch.end(), [&](uint32_t a, uint32_t b) {
      if (buffers[a].size != buffers[b].size)
        return buffers[a].size > buffers[b].size;
      return a < b;
    });
    for (uint32_t id : batch) {
      if (expired && ++placements % kPlacementsPerClockRead == 0 && expired())
        return {{}, kOutOfTime};
      placed[id] = true;
      if (!placement.place(id))
        return arenaOverflow();
    }
  }
  PlanResult result;
  result.solution = placement.takeSolution();
  return keepNoWorseThanNaive(problem, std::move(result));
}
