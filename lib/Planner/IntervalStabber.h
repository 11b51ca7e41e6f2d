//===- IntervalStabber.h - Which intervals cover a slot ---------*- C++ -*-===//
//
// Internal to the planner. A segment tree over the slots of a TimeAxis: an
// interval of slots [first, last) is stored at O(log slots) canonical nodes,
// and the intervals covering one slot are those stored on the path from that
// slot's leaf to the root, found in O(log slots + answers). Node lists are
// linked lists in flat arrays, so a million intervals cost two allocations.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_INTERVALSTABBER_H
#define MEMPLAN_LIB_PLANNER_INTERVALSTABBER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memplan {

class IntervalStabber {
public:
  explicit IntervalStabber(size_t slotCount) {
    leafCount = 1;
    while (leafCount < slotCount)
      leafCount *= 2;
    nodeHead.assign(2 * leafCount, -1);
  }

  /// Stores `id` for the slots [first, last).
  void insert(uint32_t id, size_t first, size_t last) {
    for (size_t l = first + leafCount, r = last + leafCount; l < r;
         l /= 2, r /= 2) {
      if (l & 1)
        push(l++, id);
      if (r & 1)
        push(--r, id);
    }
  }

  /// Calls `fn(id)` for every stored interval that covers `slot`.
  template <typename Fn> void forEachCovering(size_t slot, Fn &&fn) const {
    for (size_t node = slot + leafCount; node >= 1; node /= 2)
      for (int64_t e = nodeHead[node]; e >= 0; e = entries[e].next)
        fn(entries[e].id);
  }

private:
  struct Entry {
    uint32_t id;
    int64_t next;
  };

  void push(size_t node, uint32_t id) {
    entries.push_back({id, nodeHead[node]});
    nodeHead[node] = static_cast<int64_t>(entries.size()) - 1;
  }

  size_t leafCount = 1;
  std::vector<int64_t> nodeHead;
  std::vector<Entry> entries;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_INTERVALSTABBER_H
