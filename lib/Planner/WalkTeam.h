//===- WalkTeam.h - Threads that share one gap walk -------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. Where thousands of buffers are live at once and
// one list holds every placed buffer (the trace family of
// docs/benchmarks.md), each placement walks tens of thousands of entries,
// and that walk is most of the planning time; no cheaper encoding of it was
// found (docs/benchmarks.md, "The walk itself, tried again"). A team of
// threads shares each such walk: the list's blocks are cut into one
// contiguous range per thread; each thread runs the walk's first pass over
// its range (SplitGapWalk), takes as its cursor the highest top of the
// ranges before its own (the cursor one walk would have there), and runs
// the second pass with a search of its own. One walk's result is then the
// earliest range's where it found a gap (first fit), or the smallest gap,
// the earliest of equal ones (best fit), or, where no range found one, the
// cursor above them all: the same placement, whatever the number of
// threads. The threads wait for each other by spinning, briefly, then
// sleep; a walk costs about three handoffs between cores, which is why a
// team takes only long walks (WalkTeam::pays), and only best fit's
// (TimeWindowedLists::walk): first fit stops at the lowest gap that holds
// the buffer, often early, where the first passes go over every range.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_WALKTEAM_H
#define MEMPLAN_LIB_PLANNER_WALKTEAM_H

#include "GapSearch.h"
#include "OffsetOrderedList.h"

#include <memory>

namespace memplan {

class WalkTeam {
public:
  /// A team of `threads` threads (at least two), the caller's among them:
  /// threads - 1 helpers, which live as long as the team.
  explicit WalkTeam(unsigned threads);
  ~WalkTeam();
  WalkTeam(const WalkTeam &) = delete;
  WalkTeam &operator=(const WalkTeam &) = delete;

  unsigned size() const;

  /// Whether a walk over `list` is long enough to share: at least
  /// kBlocksPerThread blocks per thread.
  bool pays(const OffsetOrderedList &list) const;

  /// Leaves `search` (fresh: nothing found, not recording) as
  /// walkGaps(list, first, last, search, vector) would.
  void walk(const OffsetOrderedList &list, uint32_t first, uint32_t last,
            GapSearch &search, bool vector);

  static constexpr size_t kBlocksPerThread = 32;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_WALKTEAM_H
