//===- TimeWindowedLists.h - Placed buffers per window of time --*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. The placed buffers in offset order
// (OffsetOrderedList), one list per window of the compressed time axis:
// window w holds the slots [w * step, (w + 1) * step), and its list every
// placed buffer whose slots meet them. A placement walks the lists of the
// windows its own slots meet, which hold every placed buffer that meets it,
// and a placed buffer goes into the same lists, which that walk has just
// brought into cache.
//
// Why windows: the walk over every placed buffer pays where a placement's
// neighbours are a large share of everything placed (long lifetimes: the
// trace family of docs/benchmarks.md). Where lifetimes are short beside the
// schedule, the neighbours are a large share of the buffers placed near it
// in time, but a small one of all; a window keeps only those. With a step as
// long as the schedule there is one window, the single list.
//
// A placement that meets several windows sees its neighbours split over
// their lists. Its gaps (the free byte ranges between the neighbours) are
// then the intersections of each list's gaps, and a gap that holds the
// buffer lies inside one that holds it in every list: each list's walk
// records only those (GapSearch's recording mode), the intersections are
// taken in offset order, and the search weighs them as a walk over the
// whole would have, in the same order, so the placement is the same.
//
// Nested windows. Where one list holds the whole schedule (long lifetimes:
// windows would hold most of the buffers each, and a placement would meet
// many of them), lists for windows of a fraction of it may go beside it. A
// placement whose slots lie within one of those windows walks that window's
// list alone (it holds every placed buffer meeting the window, so every
// one meeting the placement, in offset order: the same walk less the
// entries that the filter would have passed over); any other walks the
// whole list. A placed buffer goes into the whole list and into the nested
// lists of the windows it meets. On the 60,000-buffer trace family of
// docs/benchmarks.md, the buffers living a few slots walk about a third of
// the entries they walked over the whole list.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_TIMEWINDOWEDLISTS_H
#define MEMPLAN_LIB_PLANNER_TIMEWINDOWEDLISTS_H

#include "GapSearch.h"
#include "GapWalk.h"
#include "OffsetOrderedList.h"
#include "WalkTeam.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <vector>

namespace memplan {

/// Which windows a buffer's slots [first, last) meet, for `slots` slots cut
/// every `step`.
class TimeWindows {
public:
  TimeWindows(size_t slots, uint32_t step)
      : step(std::max<uint32_t>(step, 1)),
        count(std::max<size_t>(slots, 1) / this->step +
              (std::max<size_t>(slots, 1) % this->step != 0)) {}

  size_t windowCount() const { return count; }

  uint32_t firstWindow(uint32_t first) const { return first / step; }
  uint32_t lastWindow(uint32_t last) const {
    assert(last > 0 && (last - 1) / step < count);
    return (last - 1) / step;
  }
  uint32_t windowsMet(uint32_t first, uint32_t last) const {
    return lastWindow(last) - firstWindow(first) + 1;
  }

private:
  uint32_t step;
  size_t count;
};

class TimeWindowedLists {
public:
  explicit TimeWindowedLists(const TimeWindows &geometry)
      : geometry(geometry), windows(geometry.windowCount()) {}

  size_t windowCount() const { return windows.size(); }

  /// With one window, keeps a list for each window of `nested` beside it
  /// (nested windows, above); before any insert.
  void nest(const TimeWindows &nested) {
    assert(windows.size() == 1 && windows[0].size() == 0);
    nestedGeometry = nested;
    nestedLists.clear();
    nestedLists.resize(nested.windowCount());
  }
  /// How many nested windows there are (0: none).
  size_t nestedWindowCount() const { return nestedLists.size(); }
  uint32_t firstWindow(uint32_t first) const {
    return geometry.firstWindow(first);
  }

  /// The placed buffers in the lists a walk for [first, last) goes over.
  size_t entriesMet(uint32_t first, uint32_t last) const {
    if (windows.size() == 1)
      return onlyList(first, last).size();
    size_t entries = 0;
    forEachWindow(first, last,
                  [&](uint32_t w) { entries += windows[w].size(); });
    return entries;
  }

  /// Asks the cache for the lists a walk for [first, last) goes over (a
  /// hint).
  void prefetch(uint32_t first, uint32_t last) const {
    if (windows.size() == 1) {
      onlyList(first, last).prefetch();
      return;
    }
    forEachWindow(first, last, [&](uint32_t w) { windows[w].prefetch(); });
  }

  void insert(uint64_t offset, uint64_t top, uint32_t first, uint32_t last) {
    forEachWindow(first, last, [&](uint32_t w) {
      windows[w].insert(offset, top, first, last);
    });
    forEachNestedWindow(first, last, [&](uint32_t w) {
      nestedLists[w].insert(offset, top, first, last);
    });
  }

  /// Removes an entry equal to the given one from each list it is in; false
  /// if one of them had none.
  bool erase(uint64_t offset, uint64_t top, uint32_t first, uint32_t last) {
    bool erased = true;
    forEachWindow(first, last, [&](uint32_t w) {
      erased &= windows[w].erase(offset, top, first, last);
    });
    forEachNestedWindow(first, last, [&](uint32_t w) {
      erased &= nestedLists[w].erase(offset, top, first, last);
    });
    return erased;
  }

  /// Leaves `search` as a walk over every placed buffer meeting
  /// [first, last), in offset order, would (walkGaps). A best-fit walk over
  /// one list long enough to share goes to `team`, where given (first fit
  /// stops at the lowest gap that holds the buffer, often early in the
  /// list, where a team's first passes would have gone over all of it).
  void walk(uint32_t first, uint32_t last, GapSearch &search, bool vector,
            WalkTeam *team = nullptr) {
    uint32_t w = geometry.firstWindow(first), end = geometry.lastWindow(last);
    if (w == end) {
      const OffsetOrderedList &list =
          windows.size() == 1 ? onlyList(first, last) : windows[w];
      if (team && !search.firstFit && team->pays(list))
        team->walk(list, first, last, search, vector);
      else
        walkGaps(list, first, last, search, vector);
      return;
    }
    record(windows[w], first, last, search, vector, common);
    // Every list, even once no gap is left: the range above them all starts
    // at the highest top of any.
    while (++w <= end) {
      record(windows[w], first, last, search, vector, next);
      intersect(search.size);
    }
    // The last range is the one above every neighbour.
    for (size_t g = 0; g + 1 < common.size(); ++g)
      if (!search.consider(common[g].end, common[g].begin))
        return;
    search.cursor = common.back().begin;
  }

private:
  /// With one window, the list a walk for [first, last) goes over: the
  /// nested window's that holds it, if any, else the whole one.
  const OffsetOrderedList &onlyList(uint32_t first, uint32_t last) const {
    if (!nestedLists.empty()) {
      uint32_t w = nestedGeometry.firstWindow(first);
      if (w == nestedGeometry.lastWindow(last))
        return nestedLists[w];
    }
    return windows[0];
  }

  /// Calls `fn(w)` for each window w of `windows` that [first, last) meets,
  /// in time order.
  template <typename Fn>
  static void forEachWindowOf(const TimeWindows &windows, uint32_t first,
                              uint32_t last, Fn &&fn) {
    for (uint32_t w = windows.firstWindow(first),
                  end = windows.lastWindow(last);
         w <= end; ++w)
      fn(w);
  }

  /// Calls `fn(w)` for each window w that [first, last) meets: the lists of
  /// a placed buffer, and those a walk goes over.
  template <typename Fn>
  void forEachWindow(uint32_t first, uint32_t last, Fn &&fn) const {
    forEachWindowOf(geometry, first, last, fn);
  }

  /// Calls `fn(w)` for each nested window w that [first, last) meets.
  template <typename Fn>
  void forEachNestedWindow(uint32_t first, uint32_t last, Fn &&fn) const {
    if (!nestedLists.empty())
      forEachWindowOf(nestedGeometry, first, last, fn);
  }

  /// The gaps of `list` among the entries meeting [first, last) that hold
  /// `search`'s buffer before alignment, in offset order, then the range
  /// above them all.
  static void record(const OffsetOrderedList &list, uint32_t first,
                     uint32_t last, const GapSearch &search, bool vector,
                     std::vector<FreeRange> &gaps) {
    gaps.clear();
    GapSearch recorder{search.size, search.alignment, false};
    recorder.recorded = &gaps;
    walkGaps(list, first, last, recorder, vector);
    gaps.push_back({recorder.cursor, UINT64_MAX});
  }

  /// common = its intersections with `next` that hold `size` bytes (and the
  /// range above both): two sorted lists of disjoint ranges, merged.
  void intersect(uint64_t size) {
    merged.clear();
    size_t a = 0, b = 0;
    while (a < common.size() && b < next.size()) {
      uint64_t begin = std::max(common[a].begin, next[b].begin);
      uint64_t end = std::min(common[a].end, next[b].end);
      if (end == UINT64_MAX || (end > begin && end - begin >= size))
        merged.push_back({begin, end});
      if (common[a].end < next[b].end)
        ++a;
      else
        ++b;
    }
    common.swap(merged);
  }

  TimeWindows geometry;
  std::vector<OffsetOrderedList> windows;
  // Nested windows (with one window only; none where nestedLists is empty).
  TimeWindows nestedGeometry{1, 1};
  std::vector<OffsetOrderedList> nestedLists;
  // Free byte ranges, in offset order; end = UINT64_MAX for the one above
  // every neighbour, the last. For walk.
  std::vector<FreeRange> common, next, merged;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_TIMEWINDOWEDLISTS_H
