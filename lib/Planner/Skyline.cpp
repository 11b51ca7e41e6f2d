//===- Skyline.cpp - The lowest valley first ------------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The greedy orders place buffers one at a time into gaps among the placed
// ones, and on dense schedules (thousands of buffers live at once) the gaps
// they leave add up to 3-5 % over the lower bound. The skyline placement
// builds the plan from the bottom up instead, as the exact search
// (SkylineSearch.h) does, without branching: the skyline is the top of the
// placed buffers at each time slot; its lowest valley (a run of slots at one
// height, the lowest; the leftmost of equal ones) takes the longest-lived
// buffer whose lifetime lies within the valley (ties: the larger, the earlier
// start, the lower index), at the valley's height rounded up to its
// alignment. When no unplaced buffer lies within the valley, its floor rises
// to the lower of its two neighbours (the space below is given up), and the
// valley merges with that neighbour. Nothing is ever placed in a gap below
// the skyline.
//
// On the dense trace family (docs/benchmarks.md) this ends below every
// greedy order on most traces of 10,000 buffers or more, by up to half of
// the gap to the lower bound. The cost is O(n log n) for the skyline (each
// step splits or merges a constant number of runs, and a heap finds the
// lowest) plus one ContainedIntervals query per step, independent of how
// many buffers are live at once.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/GreedyAlgorithms.h"

#include "BufferOrder.h"
#include "ContainedIntervals.h"
#include "OffsetPlacement.h"
#include "SkylinePlacement.h"
#include "TimeAxis.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <queue>
#include <utility>

using namespace memplan;

namespace {

/// The skyline as runs of slots at one height: a run starting at slot s
/// ends at runEnd[s]; neighbouring runs have different heights. A min-heap
/// of (height, start) finds the lowest run, leftmost first; entries of runs
/// that have changed since are skipped when they come up.
class Skyline {
public:
  static constexpr size_t kNoRun = SIZE_MAX;

  explicit Skyline(size_t slots)
      : slots(slots), runEnd(slots), runHeight(slots), previous(slots),
        isStart(slots, false) {
    setRun(0, slots, 0, kNoRun);
  }

  /// The lowest run (its start), leftmost of equal ones.
  size_t lowest() {
    while (true) {
      auto [height, start] = heap.top();
      if (isStart[start] && runHeight[start] == height)
        return start;
      heap.pop();
    }
  }

  size_t end(size_t start) const { return runEnd[start]; }
  uint64_t height(size_t start) const { return runHeight[start]; }

  /// Raises slots [first, last) of the run at `start` (`first` >= start,
  /// `last` <= its end) to `top`.
  void raise(size_t start, size_t first, size_t last, uint64_t top) {
    size_t end = runEnd[start];
    uint64_t floor = runHeight[start];
    size_t before = previous[start];
    if (first > start) {
      setRun(start, first, floor, before);
      before = start;
    } else {
      isStart[start] = false;
    }
    size_t from = first, to = last;
    if (from == start && before != kNoRun && runHeight[before] == top) {
      from = before; // merges with the run on the left
      before = previous[before];
    }
    if (last == end && end < slots && runHeight[end] == top) {
      to = runEnd[end]; // merges with the run on the right
      isStart[end] = false;
    }
    setRun(from, to, top, before);
    if (last < end)
      setRun(last, end, floor, from);
  }

  /// Raises the whole run at `start` to the lower of its neighbours (it
  /// must have one).
  void fill(size_t start) {
    size_t before = previous[start], end = runEnd[start];
    uint64_t top = UINT64_MAX;
    if (before != kNoRun)
      top = runHeight[before];
    if (end < slots)
      top = std::min(top, runHeight[end]);
    raise(start, start, end, top);
  }

private:
  void setRun(size_t start, size_t end, uint64_t height, size_t before) {
    isStart[start] = true;
    runEnd[start] = end;
    runHeight[start] = height;
    previous[start] = before;
    if (end < slots)
      previous[end] = start;
    heap.emplace(height, start);
  }

  size_t slots;
  std::vector<size_t> runEnd;
  std::vector<uint64_t> runHeight;
  std::vector<size_t> previous; ///< the run before, or kNoRun
  std::vector<bool> isStart;
  std::priority_queue<std::pair<uint64_t, size_t>,
                      std::vector<std::pair<uint64_t, size_t>>, std::greater<>>
      heap;
};

} // namespace

SkylinePlacement::SkylinePlacement(const Problem &problem) : problem(problem) {
  TimeAxis axis(problem);
  slotCount = axis.size();
  firstSlot.reserve(problem.buffers.size());
  lastSlot.reserve(problem.buffers.size());
  for (const Buffer &buffer : problem.buffers) {
    firstSlot.push_back(static_cast<uint32_t>(axis.rank(buffer.start)));
    lastSlot.push_back(static_cast<uint32_t>(axis.rank(buffer.end)));
  }
}

PlanResult SkylinePlacement::place(const std::vector<uint32_t> &priority,
                                   const std::function<bool()> &expired) const {
  const std::vector<Buffer> &buffers = problem.buffers;
  // Ranks follow `priority` among the buffers that take space. What a step
  // reads of the buffer it places is copied here by rank: the ranks a step
  // finds come in no order, and reading the buffer, its slots and its index
  // from four arrays was four misses a step (a third of the placement's
  // time on a million random buffers, docs/benchmarks.md); 24 bytes a buffer.
  struct Ranked {
    uint64_t size;
    uint32_t first, last, id;
    uint8_t alignmentLog2; // checkProblem: a power of two
  };
  std::vector<Ranked> byRank;
  std::vector<ContainedIntervals::Interval> intervals;
  byRank.reserve(priority.size());
  intervals.reserve(priority.size());
  for (uint32_t id : priority) {
    const Buffer &buffer = buffers[id];
    if (buffer.size == 0)
      continue; // conflicts with nothing; offset 0 is aligned
    intervals.push_back(
        {firstSlot[id], lastSlot[id], static_cast<uint32_t>(byRank.size())});
    byRank.push_back({buffer.size, firstSlot[id], lastSlot[id], id,
                      static_cast<uint8_t>(llvm::Log2_64(buffer.alignment))});
  }
  ContainedIntervals unplaced(std::move(intervals));

  Solution solution;
  solution.offsets.assign(buffers.size(), 0);
  Skyline skyline(std::max<size_t>(slotCount, 1));
  for (size_t left = byRank.size(), step = 0; left; ++step) {
    if (expired && step && step % kPlacementsPerClockRead == 0 && expired())
      return {{}, kOutOfTime};
    size_t start = skyline.lowest(), end = skyline.end(start);
    uint32_t rank = unplaced.bestWithin(static_cast<uint32_t>(start),
                                        static_cast<uint32_t>(end));
    if (rank == ContainedIntervals::kNone) {
      // Every buffer lies within the whole axis, so a valley without a
      // candidate has a neighbour to rise to.
      skyline.fill(start);
      continue;
    }
    const Ranked &buffer = byRank[rank];
    std::optional<uint64_t> offset =
        alignUp(skyline.height(start), uint64_t(1) << buffer.alignmentLog2);
    bool overflow = false;
    uint64_t top =
        offset ? llvm::SaturatingAdd(*offset, buffer.size, &overflow) : 0;
    if (!offset || overflow)
      return arenaOverflow();
    solution.offsets[buffer.id] = *offset;
    solution.arenaSize = std::max(solution.arenaSize, top);
    unplaced.forget(rank);
    --left;
    skyline.raise(start, buffer.first, buffer.last, top);
  }
  PlanResult result;
  result.solution = std::move(solution);
  return keepNoWorseThanNaive(problem, std::move(result));
}

PlanResult memplan::planSkyline(const Problem &problem) {
  return planSkylineUntil(problem, {});
}

PlanResult memplan::planSkylineUntil(const Problem &problem,
                                     const std::function<bool()> &expired) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
  // As in placeCheckedInOrder: the order and the time axis read no clock.
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  std::vector<uint32_t> priority = orderByLifetimeThenSize(problem);
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  SkylinePlacement placement(problem);
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  return placement.place(priority, expired);
}
