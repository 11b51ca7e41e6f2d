//===- SlotSet.h - A set of slots with fast successor queries ---*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. A fixed-size set of integers in [0, size) as a
// two-level bitmap: insert and erase are O(1) and findNext(x), the smallest
// member >= x, looks at one word per level plus a scan of the summary, which
// is 4096 times smaller than the set.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_SLOTSET_H
#define MEMPLAN_LIB_PLANNER_SLOTSET_H

#include "llvm/ADT/bit.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memplan {

class SlotSet {
public:
  explicit SlotSet(size_t size)
      : size(size), words((size + 63) / 64, 0),
        summary((words.size() + 63) / 64, 0) {}

  void insert(size_t slot) {
    words[slot / 64] |= uint64_t(1) << (slot % 64);
    summary[slot / 4096] |= uint64_t(1) << ((slot / 64) % 64);
  }

  void erase(size_t slot) {
    words[slot / 64] &= ~(uint64_t(1) << (slot % 64));
    if (!words[slot / 64])
      summary[slot / 4096] &= ~(uint64_t(1) << ((slot / 64) % 64));
  }

  /// The smallest member >= `slot`, or `size()` if there is none.
  size_t findNext(size_t slot) const {
    if (slot >= size)
      return size;
    size_t word = slot / 64;
    uint64_t bits = words[word] & (~uint64_t(0) << (slot % 64));
    if (bits)
      return word * 64 + llvm::countr_zero(bits);
    // The next non-empty word, through the summary.
    size_t next = word + 1;
    for (size_t s = next / 64; s < summary.size(); ++s) {
      uint64_t mask = summary[s];
      if (s == next / 64)
        mask &= next % 64 == 0 ? ~uint64_t(0) : (~uint64_t(0) << (next % 64));
      if (mask) {
        size_t found = s * 64 + llvm::countr_zero(mask);
        return found * 64 + llvm::countr_zero(words[found]);
      }
    }
    return size;
  }

private:
  size_t size;
  std::vector<uint64_t> words;
  std::vector<uint64_t> summary;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_SLOTSET_H
