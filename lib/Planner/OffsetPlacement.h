//===- OffsetPlacement.h - Best gap among placed buffers ------ -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner: the machinery shared by the offset algorithms that
// place buffers one at a time (the greedy orders, best and first fit, and
// the search's moves). For a buffer, it finds the already placed buffers
// whose lifetimes intersect its own (those live at its start, through an
// IntervalStabber, plus those that start inside its lifetime, through
// buckets by start) and puts it in the smallest gap between them that fits,
// aligned (or the lowest such gap: first fit), or above all of them.
// The cost per buffer is O(log n + k) for k such neighbours (a radix sort by
// offset, a few passes), not O(n); k grows with the number of buffers live
// at once, which is what still bounds dense schedules (docs/planning.md).
// Where k is a large share of the placed buffers, a filtered walk over all
// of them in offset order (OffsetOrderedList) is cheaper than collecting
// and sorting; each placement takes the cheaper way, with the same result.
// Where every lifetime is short beside the schedule, the walk keeps a list
// per window of time (TimeWindowedLists) and a placement walks the windows
// it meets; where lifetimes are long but some short, one list for the
// schedule has lists for windows of a fraction of it beside it, and a
// placement within one of those walks its list alone; where those lists
// outgrow the cache, cacheFriendlyOrder turns
// an order that jumps about in time into one that sweeps along it, with
// the same offsets (TimeLocalOrder.h).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_OFFSETPLACEMENT_H
#define MEMPLAN_LIB_PLANNER_OFFSETPLACEMENT_H

#include "memplan/Planner/PlanResult.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace memplan {

class OffsetPlacement {
public:
  /// How a placement finds the placed buffers whose lifetimes meet its own.
  /// Every choice gives the same placements.
  enum class NeighbourSearch {
    Auto,    ///< per placement, the cheaper of the two below
    Collect, ///< from the segment tree and start buckets, then sorted
    Scan,    ///< a filtered walk over the placed buffers by offset (those of
             ///< the windows of time it meets, where the problem has them)
    /// Scan without the vector walk where the machine has one (GapWalk.h),
    /// so that tests check both.
    PortableScan,
    /// Scan (vector, portable) over windows of time half as long as the
    /// longest lifetime, whatever their cost, so that tests check the
    /// windows and the placements that meet several on small problems.
    WindowedScan,
    WindowedPortableScan,
    /// Scan over one list for the whole schedule, with nested windows of a
    /// quarter of it beside it (TimeWindowedLists.h), whatever their cost,
    /// so that tests check the nested windows on small problems.
    NestedScan,
  };

  /// `problem` must outlive this object and pass checkProblem. With
  /// `threads` above one (0: the machine's hardware threads, and never more),
  /// a placement whose walk goes over one long list shares it among that
  /// many threads (WalkTeam.h; threads - 1 helpers live as long as this
  /// object, where one list holds enough buffers for such walks), with the
  /// same placements.
  explicit OffsetPlacement(const Problem &problem,
                           NeighbourSearch search = NeighbourSearch::Auto,
                           unsigned threads = 1);
  ~OffsetPlacement();

  /// Which of the gaps that hold a buffer it goes into.
  enum class Fit {
    Best,  ///< the smallest (the lowest of equal ones)
    First, ///< the lowest
  };

  /// Places buffer `id` in the gap `fit` chooses; false if the offset would
  /// overflow.
  bool place(uint32_t id, Fit fit = Fit::Best);
  /// Places buffer `id` at `offset` (aligned, overlapping no placed buffer
  /// live at the same time, and not overflowing: the caller's plan).
  void placeAt(uint32_t id, uint64_t offset);

  /// Removes placed buffer `id` (its offset reads 0 again). Placements
  /// after it are those of a structure where it was never placed: a gap
  /// depends only on which buffers are placed, not on their order.
  void remove(uint32_t id);

  /// Hints that buffer `id` is placed next: the structures its placement
  /// reads are asked into the cache while this one works.
  void prefetch(uint32_t id) const;
  /// Hints that buffer `id` is placed after the next one: its own entries
  /// (size, slots) are asked into the cache, which prefetch(id) reads.
  void prefetchBuffer(uint32_t id) const;

  /// `order` (a permutation of the buffer indices, to place), or, where the
  /// placed buffers are kept per window of time and outgrow the cache, an
  /// order that gives the same offsets and sweeps along the time axis
  /// (TimeLocalOrder.h). For the loops that place a whole order.
  std::vector<uint32_t> cacheFriendlyOrder(std::vector<uint32_t> order) const;

  /// The offsets so far (0 for a buffer not placed), and the arena they
  /// take (the largest offset + size of a non-empty buffer).
  const std::vector<uint64_t> &currentOffsets() const;
  uint64_t arenaSize() const;

  /// The slots of the compressed time axis, and a buffer's [first, last).
  size_t slotCount() const;
  size_t firstSlot(uint32_t id) const;
  size_t lastSlot(uint32_t id) const;

  /// How many nested windows the walk keeps beside its one list
  /// (TimeWindowedLists.h; 0: none, or no walk).
  size_t nestedWindowCount() const;

  /// Moves the offsets out into a solution with its arena size.
  Solution takeSolution();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Places every buffer in `order` (a permutation of the buffer indices),
/// with `threads` as OffsetPlacement takes them. `expired`, when given, is
/// asked every kPlacementsPerClockRead placements whether time is up; if it is,
/// the result is kOutOfTime.
PlanResult placeInOrder(const Problem &problem,
                        const std::vector<uint32_t> &order,
                        const std::function<bool()> &expired = {},
                        OffsetPlacement::Fit fit = OffsetPlacement::Fit::Best,
                        unsigned threads = 1);

/// placeInOrder with `placement` (of `problem`), for a caller that read its
/// slots to make the order (greedy by breadth) or placed some buffers
/// already (placeAt: they stay where they are; the long-lived skyline).
PlanResult
placeInOrderWith(OffsetPlacement &placement, const Problem &problem,
                 std::vector<uint32_t> order,
                 const std::function<bool()> &expired = {},
                 OffsetPlacement::Fit fit = OffsetPlacement::Fit::Best);

/// The body of every greedy placement into gaps: checkProblem's error if
/// `problem` fails it, otherwise placeInOrder with the order `orderOf` gives
/// (asked only for a problem that passes, which the orders assume).
using BufferOrderOf = std::vector<uint32_t> (*)(const Problem &);
PlanResult
placeCheckedInOrder(const Problem &problem, BufferOrderOf orderOf,
                    const std::function<bool()> &expired,
                    OffsetPlacement::Fit fit = OffsetPlacement::Fit::Best,
                    unsigned threads = 1);

/// How often placeInOrder asks whether time is up.
constexpr size_t kPlacementsPerClockRead = 256;

/// The error of a placement stopped by its deadline.
constexpr const char *kOutOfTime = "out of time";

/// Whether `expired` (none: never) says the deadline has passed. Asked by
/// the placements before the steps that read no clock while they work (an
/// order, a placement structure).
inline bool pastDeadline(const std::function<bool()> &expired) {
  return expired && expired();
}

/// Greedy by size (GreedyAlgorithms.h) that stops once `expired` says so,
/// for the search's starting plan (a placement can take seconds where many
/// buffers are live at once).
PlanResult planGreedyBySizeUntil(const Problem &problem,
                                 const std::function<bool()> &expired,
                                 unsigned threads = 1);

/// The other greedy placements (GreedyAlgorithms.h) likewise, for the
/// search's starting plans when they run side by side.
PlanResult planBestFitUntil(const Problem &problem,
                            const std::function<bool()> &expired,
                            unsigned threads = 1);
PlanResult planGreedyByBreadthUntil(const Problem &problem,
                                    const std::function<bool()> &expired,
                                    unsigned threads = 1);
PlanResult planGreedyByLifetimeUntil(const Problem &problem,
                                     const std::function<bool()> &expired,
                                     unsigned threads = 1);
PlanResult planGreedyByConflictsUntil(const Problem &problem,
                                      const std::function<bool()> &expired,
                                      unsigned threads = 1);
PlanResult planFirstFitBySizeUntil(const Problem &problem,
                                   const std::function<bool()> &expired,
                                   unsigned threads = 1);
PlanResult planFirstFitByConflictsUntil(const Problem &problem,
                                        const std::function<bool()> &expired,
                                        unsigned threads = 1);
PlanResult planSkylineUntil(const Problem &problem,
                            const std::function<bool()> &expired);
PlanResult planLongLivedSkylineUntil(const Problem &problem,
                                     const std::function<bool()> &expired);

/// `result`, or the naive layout if that one is smaller: offset algorithms
/// never do worse than no reuse.
PlanResult keepNoWorseThanNaive(const Problem &problem, PlanResult result);

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_OFFSETPLACEMENT_H
