//===- ContainedIntervals.h - Best interval within a range ------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. A set of intervals [first, last) of time slots,
// each with a distinct rank (0 is the best), that answers "the best-ranked
// interval lying within [a, b)" and forgets intervals one at a time: the
// skyline placement's question (which buffer fits the lowest valley).
//
// The query is a two-sided range query (first >= a, last <= b) that keeps
// the minimum rank. A range tree answers it in O(log^2 n) but stores every
// interval once per level (a quarter of a gigabyte at a million buffers);
// this is an implicit k-d tree over the points (first, last) instead, O(n)
// memory, each node keeping its subtree's bounding box and best rank, so a
// query skips subtrees that lie outside the range or cannot beat the best
// rank found so far, and takes a whole subtree's best at once when its box
// lies inside. LLVM has no such structure (IntervalMap holds disjoint
// intervals; IntervalTree answers stabbing queries).
//
// Most of the skyline's questions are about narrow ranges (on a million
// random buffers 89 % span fewer than 64 slots, and 62 % find nothing),
// where the tree's descent is a miss per level. So the intervals are also
// kept by first slot, each slot's sorted by last: a range whose slots and
// intervals starting in it number at most `scanLimit` is answered by
// scanning those (stopping in each slot at the first interval that ends
// past the range), in order in memory; the tree answers the rest.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_CONTAINEDINTERVALS_H
#define MEMPLAN_LIB_PLANNER_CONTAINEDINTERVALS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memplan {

class ContainedIntervals {
public:
  struct Interval {
    uint32_t first; ///< the first slot
    uint32_t last;  ///< one past the last slot
    uint32_t rank;  ///< distinct; 0 is the best
  };

  /// No rank: no interval within the range, or every one forgotten.
  static constexpr uint32_t kNone = UINT32_MAX;

  /// The default `scanLimit`: a scan of up to this many slots and
  /// intervals costs less than a descent of the tree (docs/benchmarks.md).
  static constexpr uint32_t kDefaultScanLimit = 256;

  /// `intervals` with ranks 0..n-1, each once (any order). Ranges with at
  /// most `scanLimit` slots and intervals starting in them are scanned (0:
  /// the tree answers every range; UINT32_MAX: a scan answers every one).
  explicit ContainedIntervals(std::vector<Interval> intervals,
                              uint32_t scanLimit = kDefaultScanLimit);

  /// The lowest rank of an interval not yet forgotten with a <= first and
  /// last <= b, or kNone.
  uint32_t bestWithin(uint32_t a, uint32_t b) const;

  /// Forgets the interval with rank `rank`. O(log n).
  void forget(uint32_t rank);

private:
  /// One interval at the middle of its subtree's range of `nodes`.
  struct Node {
    uint32_t first, last;
    uint32_t rank;     ///< kNone once forgotten
    uint32_t bestRank; ///< the subtree's lowest rank not forgotten
    uint32_t minFirst, maxFirst, minLast, maxLast; ///< the subtree's box
  };

  /// An interval in the slots' lists: its last slot, and its rank (kNone
  /// once forgotten).
  struct Listed {
    uint32_t last, rank;
  };

  void listBySlot(const std::vector<Interval> &intervals);
  void build(size_t lo, size_t hi, bool byFirst);
  void search(size_t lo, size_t hi, uint32_t a, uint32_t b,
              uint32_t &best) const;
  uint32_t scan(uint32_t a, uint32_t b) const;

  std::vector<Node> nodes;
  std::vector<uint32_t> indexOfRank; ///< rank -> index into `nodes`

  uint32_t scanLimit;
  /// The intervals starting at slot s are listed[startOf[s]..startOf[s+1]),
  /// by last slot; startOf covers the slots up to the last any ends at.
  std::vector<uint32_t> startOf;
  std::vector<Listed> listed;
  std::vector<uint32_t> listedAt; ///< rank -> index into `listed`
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_CONTAINEDINTERVALS_H
