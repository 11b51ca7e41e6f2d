//===- LongLivedSkyline.h - Skyline below, first fit in gaps ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner: a plan in two parts, the `long-lived-skyline`
// algorithm and the base of the search's reorderings on large traces
// (ReorderSearch.h) with priorities of theirs. The buffers whose lifetimes
// cover at least 1 / kLongLivedDivisor of the time slots get the skyline
// placement (SkylinePlacement.h) in a priority of the caller's; then every
// other buffer, largest first, goes into the lowest gap among them that
// holds it (first fit, OffsetPlacement.h).
//
// Why: on the trace family of docs/benchmarks.md, the arena of a skyline
// plan is set by its long-lived buffers, and most short-lived ones fit into
// the space the skyline gives up below its top (a valley with no buffer
// inside it rises to its neighbour). Placed by the skyline, each
// short-lived buffer raises a valley instead; placed afterwards, it fills
// one. With plans of this kind the search's walks (ReorderSearch.h) closed
// 52 % of the gap from the skyline's plan to the lower bound in 10 s at
// 10,000 buffers and 46-48 % at 60,000, against 35-42 % and 21 % with whole
// skyline plans. The divisor is measured, not derived: with 20 those were
// 57 % and 38 %, and lifetimes of 1/60 to 1/40 of the schedule did best at
// 60,000 buffers, 1/40 to 1/20 at 10,000. At 1,000 buffers whole skyline
// plans did better (the walk alone closed 72 % against 53 %), hence
// kLongLivedMinBuffers.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_LONGLIVEDSKYLINE_H
#define MEMPLAN_LIB_PLANNER_LONGLIVEDSKYLINE_H

#include "SkylinePlacement.h"
#include "memplan/Planner/PlanResult.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace memplan {

/// A lifetime of at least slots / kLongLivedDivisor is long.
constexpr size_t kLongLivedDivisor = 40;
/// Problems with fewer buffers than this are not split (see above).
constexpr size_t kLongLivedMinBuffers = 5000;
/// The long-lived part holds at least 1 / kLongLivedMinShare of the
/// buffers, or a perturbed priority of it would change little.
constexpr size_t kLongLivedMinShare = 10;

/// The two-part placement of one problem, for any number of priorities.
/// `problem` must outlive it and pass checkProblem.
class LongLivedSkyline {
public:
  explicit LongLivedSkyline(const Problem &problem);
  // The skyline keeps a reference to the long-lived part.
  LongLivedSkyline(const LongLivedSkyline &) = delete;
  LongLivedSkyline &operator=(const LongLivedSkyline &) = delete;

  /// Whether `problem` is large enough, and its buffers split into both
  /// parts with enough long-lived ones, for this placement to be used.
  static bool splits(const Problem &problem);

  /// The skyline's own priority (longest-lived first) over the long-lived
  /// part: a permutation of 0 .. longLivedCount() - 1, the k-th long-lived
  /// buffer in index order being k.
  std::vector<uint32_t> defaultPriority() const;
  size_t longLivedCount() const { return longLived.size(); }

  /// The plan for `priority` (as defaultPriority's). `expired`, when given,
  /// is asked as the skyline and the placements into gaps go whether time
  /// is up; if it is, the result is kOutOfTime. Safe to call from several
  /// threads at once.
  PlanResult place(const std::vector<uint32_t> &priority,
                   const std::function<bool()> &expired = {}) const;

private:
  const Problem &problem;
  /// The long-lived buffers (indices into `problem`, rising) and a problem
  /// of only them, which the skyline plans.
  std::vector<uint32_t> longLived;
  Problem longLivedProblem;
  /// The others that take space, largest first (ties: the longer-lived,
  /// the earlier start, the lower index).
  std::vector<uint32_t> shortLivedBySize;
  SkylinePlacement skyline;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_LONGLIVEDSKYLINE_H
