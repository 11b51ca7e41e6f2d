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

  /// `intervals` with ranks 0..n-1, each once (any order).
  explicit ContainedIntervals(std::vector<Interval> intervals);

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

  void build(size_t lo, size_t hi, bool byFirst);
  void search(size_t lo, size_t hi, uint32_t a, uint32_t b,
              uint32_t &best) const;

  std::vector<Node> nodes;
  std::vector<uint32_t> indexOfRank; ///< rank -> index into `nodes`
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_CONTAINEDINTERVALS_H
