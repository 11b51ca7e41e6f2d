//===- OffsetPlacement.cpp - Best-gap placement among placed buffers ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OffsetPlacement.h"

#include "memplan/Planner/GreedyAlgorithms.h"

#include "IntervalStabber.h"
#include "SlotSet.h"
#include "TimeAxis.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>

using namespace memplan;

struct OffsetPlacement::Impl {
  explicit Impl(const Problem &problem)
      : problem(problem), axis(problem), stabber(axis.size()),
        startBegin(axis.size() + 1, 0), startFilled(axis.size(), 0),
        startRanks(axis.size()), offsets(problem.buffers.size(), 0) {
    first.reserve(problem.buffers.size());
    last.reserve(problem.buffers.size());
    for (const Buffer &buffer : problem.buffers) {
      first.push_back(axis.rank(buffer.start));
      last.push_back(axis.rank(buffer.end));
      if (buffer.size == 0)
        continue; // never placed in the structures
      stabber.count(first.back(), last.back());
      ++startBegin[first.back() + 1];
    }
    // Buckets by start slot, contiguous, filled in placement order.
    for (size_t rank = 1; rank < startBegin.size(); ++rank)
      startBegin[rank] += startBegin[rank - 1];
    startEntries.resize(startBegin.back());
  }

  bool place(uint32_t id) {
    const Buffer &buffer = problem.buffers[id];
    if (buffer.size == 0)
      return true; // conflicts with nothing; offset 0 is aligned
    collectNeighbours(id);
    std::sort(neighbours.begin(), neighbours.end());

    // Walk the neighbours by offset; `cursor` is the lowest byte above every
    // neighbour seen so far. A gap is [cursor, next neighbour's offset).
    uint64_t cursor = 0, bestOffset = 0, bestGap = UINT64_MAX;
    bool found = false;
    for (const auto &[offset, size] : neighbours) {
      if (offset > cursor) {
        std::optional<uint64_t> aligned = alignUp(cursor, buffer.alignment);
        if (aligned && *aligned <= offset && offset - *aligned >= buffer.size &&
            offset - cursor < bestGap) {
          bestGap = offset - cursor;
          bestOffset = *aligned;
          found = true;
        }
      }
      cursor = std::max(cursor, offset + size);
    }
    if (!found) {
      std::optional<uint64_t> aligned = alignUp(cursor, buffer.alignment);
      if (!aligned || !llvm::checkedAddUnsigned(*aligned, buffer.size))
        return false;
      bestOffset = *aligned;
    }

    offsets[id] = bestOffset;
    Placed placed{bestOffset, buffer.size};
    stabber.insert(placed, first[id], last[id]);
    size_t rank = first[id];
    startRanks.insert(rank);
    startEntries[startBegin[rank] + startFilled[rank]++] = placed;
    return true;
  }

  /// Placed buffers (non-zero sizes only are ever placed) whose lifetime
  /// intersects buffer `id`'s: those live at its first slot, plus those that
  /// start strictly inside it. The two sets are disjoint.
  void collectNeighbours(uint32_t id) {
    neighbours.clear();
    auto add = [&](const Placed &other) { neighbours.push_back(other); };
    stabber.forEachCovering(first[id], add);
    for (size_t rank = startRanks.findNext(first[id] + 1); rank < last[id];
         rank = startRanks.findNext(rank + 1))
      for (size_t e = startBegin[rank], end = e + startFilled[rank]; e < end;
           ++e)
        add(startEntries[e]);
  }

  /// What the gap search needs of a placed buffer, stored inline so that
  /// collecting neighbours touches one cache line per neighbour.
  struct Placed {
    uint64_t offset;
    uint64_t size;
    bool operator<(const Placed &other) const {
      return offset != other.offset ? offset < other.offset : size < other.size;
    }
  };

  const Problem &problem;
  TimeAxis axis;
  IntervalStabber<Placed> stabber;
  std::vector<size_t> first, last;
  std::vector<size_t> startBegin;    // start slot -> first entry
  std::vector<uint32_t> startFilled; // start slot -> entries placed so far
  std::vector<Placed> startEntries;
  SlotSet startRanks;
  std::vector<uint64_t> offsets;
  std::vector<Placed> neighbours;
};

OffsetPlacement::OffsetPlacement(const Problem &problem)
    : impl(new Impl(problem)) {}
OffsetPlacement::~OffsetPlacement() = default;

bool OffsetPlacement::place(uint32_t id) { return impl->place(id); }
size_t OffsetPlacement::slotCount() const { return impl->axis.size(); }
size_t OffsetPlacement::firstSlot(uint32_t id) const { return impl->first[id]; }
size_t OffsetPlacement::lastSlot(uint32_t id) const { return impl->last[id]; }

Solution OffsetPlacement::takeSolution() {
  Solution solution;
  solution.offsets = std::move(impl->offsets);
  for (size_t i = 0; i < solution.offsets.size(); ++i)
    if (impl->problem.buffers[i].size != 0)
      solution.arenaSize =
          std::max(solution.arenaSize,
                   solution.offsets[i] + impl->problem.buffers[i].size);
  return solution;
}

PlanResult memplan::placeInOrder(const Problem &problem,
                                 const std::vector<uint32_t> &order,
                                 const std::function<bool()> &expired) {
  OffsetPlacement placement(problem);
  for (size_t i = 0; i < order.size(); ++i) {
    if (expired && i && i % kPlacementsPerClockRead == 0 && expired())
      return {{}, kOutOfTime};
    if (!placement.place(order[i]))
      return arenaOverflow();
  }
  PlanResult result;
  result.solution = placement.takeSolution();
  return keepNoWorseThanNaive(problem, std::move(result));
}

PlanResult memplan::keepNoWorseThanNaive(const Problem &problem,
                                         PlanResult result) {
  if (!result.ok())
    return result;
  // Without alignment, a buffer is never placed above the sum of the sizes
  // of the buffers placed before it, so reuse never loses. Alignment padding
  // depends on the order of placement, and in rare, mostly overlapping
  // problems the index order of the naive layout pads less: keep that one.
  PlanResult naive = planNaive(problem);
  if (naive.ok() && naive.solution.arenaSize < result.solution.arenaSize)
    return naive;
  return result;
}
