//===- OffsetPlacement.cpp - Best-gap placement among placed buffers ------===//

#include "OffsetPlacement.h"

#include "IntervalStabber.h"
#include "TimeAxis.h"

#include <algorithm>
#include <set>

using namespace memplan;

struct OffsetPlacement::Impl {
  explicit Impl(const Problem &problem)
      : problem(problem), axis(problem), stabber(axis.size()),
        startHead(axis.size(), -1), offsets(problem.buffers.size(), 0) {
    first.reserve(problem.buffers.size());
    last.reserve(problem.buffers.size());
    for (const Buffer &buffer : problem.buffers) {
      first.push_back(axis.rank(buffer.start));
      last.push_back(axis.rank(buffer.end));
    }
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
      uint64_t end;
      if (!aligned || __builtin_add_overflow(*aligned, buffer.size, &end))
        return false;
      bestOffset = *aligned;
    }

    offsets[id] = bestOffset;
    stabber.insert(id, first[id], last[id]);
    if (startHead[first[id]] < 0)
      startRanks.insert(first[id]);
    startEntries.push_back({id, startHead[first[id]]});
    startHead[first[id]] = static_cast<int64_t>(startEntries.size()) - 1;
    return true;
  }

  /// Placed buffers (non-zero sizes only are ever placed) whose lifetime
  /// intersects buffer `id`'s: those live at its first slot, plus those that
  /// start strictly inside it. The two sets are disjoint.
  void collectNeighbours(uint32_t id) {
    neighbours.clear();
    auto add = [&](uint32_t other) {
      neighbours.emplace_back(offsets[other], problem.buffers[other].size);
    };
    stabber.forEachCovering(first[id], add);
    for (auto it = startRanks.upper_bound(first[id]);
         it != startRanks.end() && *it < last[id]; ++it)
      for (int64_t e = startHead[*it]; e >= 0; e = startEntries[e].next)
        add(startEntries[e].id);
  }

  struct StartEntry {
    uint32_t id;
    int64_t next;
  };

  const Problem &problem;
  TimeAxis axis;
  IntervalStabber stabber;
  std::vector<size_t> first, last;
  std::vector<int64_t> startHead;
  std::vector<StartEntry> startEntries;
  std::set<size_t> startRanks;
  std::vector<uint64_t> offsets;
  std::vector<std::pair<uint64_t, uint64_t>> neighbours;
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

PlanResult memplan::arenaOverflow() {
  PlanResult result;
  result.error = "the arena would exceed 2^64 bytes";
  return result;
}

PlanResult memplan::placeInOrder(const Problem &problem,
                                 const std::vector<uint32_t> &order) {
  OffsetPlacement placement(problem);
  for (uint32_t id : order)
    if (!placement.place(id))
      return arenaOverflow();
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
