//===- TimeLocalOrder.cpp - A placement order that stays in time ----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Per chunk: its buffers sorted by first slot (RadixSort.h, on the chunk's
// arrays only, so that the work stays in cache), the edges "meets and comes
// first in the given order" between them, then a sweep in that sorted order
// that emits each buffer whose predecessors are all out, and, after each
// one, any buffer it freed that the sweep has already passed (a stack), so
// the emitted order runs along the time axis with stragglers close behind.
//
//===----------------------------------------------------------------------===//

#include "TimeLocalOrder.h"

#include "RadixSort.h"

#include <algorithm>
#include <cassert>

using namespace memplan;

namespace {

/// A buffer of the chunk: its slots, and its place in the given order.
struct Item {
  uint32_t first, last, rank;
};

} // namespace

std::vector<uint32_t> memplan::timeLocalOrder(llvm::ArrayRef<uint32_t> order,
                                              llvm::ArrayRef<size_t> first,
                                              llvm::ArrayRef<size_t> last,
                                              size_t chunk,
                                              size_t maxPairsPerBuffer) {
  assert(chunk > 0 && "a chunk holds at least one buffer");
  std::vector<uint32_t> result;
  result.reserve(order.size());
  std::vector<Item> items, scratch;
  std::vector<uint32_t> counts;
  // By position in the chunk's sorted items: where each one's successors
  // begin in `successors`, and how many predecessors are not yet out
  // (kOut once it is out).
  std::vector<uint32_t> successorsBegin, fillAt, successors, waiting, stack;
  constexpr uint32_t kOut = UINT32_MAX;

  for (size_t begin = 0; begin < order.size(); begin += chunk) {
    size_t count = std::min(chunk, order.size() - begin);
    items.resize(count);
    for (size_t i = 0; i < count; ++i) {
      // The slots of buffers far apart in the given order lie anywhere:
      // ask for those a few turns ahead.
      constexpr size_t kAhead = 16;
      if (i + kAhead < count) {
        __builtin_prefetch(&first[order[begin + i + kAhead]]);
        __builtin_prefetch(&last[order[begin + i + kAhead]]);
      }
      uint32_t id = order[begin + i];
      assert(last[id] <= UINT32_MAX && "slots below 2^32");
      items[i] = {static_cast<uint32_t>(first[id]),
                  static_cast<uint32_t>(last[id]), static_cast<uint32_t>(i)};
    }
    radixSort(items, scratch, counts,
              [](const Item &item) { return uint64_t(item.first); });

    // The pairs that meet: for each item, those after it in the sorted
    // order that start before it ends (every pair that meets, and, for
    // empty lifetimes, perhaps a few more, which only hold a buffer back).
    // Counted first, then stored, so that no list of pairs is kept; a
    // chunk with more than its share keeps the given order, which is
    // always a valid one, and no more pairs are counted.
    auto forEachPair = [&](auto &&edge) {
      for (uint32_t a = 0; a < count; ++a)
        for (uint32_t b = a + 1; b < count && items[b].first < items[a].last;
             ++b) {
          if (items[a].rank < items[b].rank) {
            if (!edge(a, b))
              return false;
          } else if (!edge(b, a)) {
            return false;
          }
        }
      return true;
    };
    successorsBegin.assign(count + 1, 0);
    waiting.assign(count, 0);
    uint64_t pairs = 0, allowed = uint64_t(maxPairsPerBuffer) * count;
    if (!forEachPair([&](uint32_t from, uint32_t to) {
          ++successorsBegin[from + 1];
          ++waiting[to];
          return ++pairs <= allowed;
        })) {
      result.insert(result.end(), order.begin() + begin,
                    order.begin() + begin + count);
      continue;
    }
    for (size_t i = 1; i <= count; ++i)
      successorsBegin[i] += successorsBegin[i - 1];
    successors.resize(successorsBegin[count]);
    fillAt.assign(successorsBegin.begin(), successorsBegin.end() - 1);
    forEachPair([&](uint32_t from, uint32_t to) {
      successors[fillAt[from]++] = to;
      return true;
    });

    // The sweep. A buffer freed by one that goes out waits for the sweep if
    // the sweep has not reached it yet, and goes out at once if it has.
    for (uint32_t swept = 0; swept < count; ++swept) {
      if (waiting[swept] != 0)
        continue;
      waiting[swept] = kOut;
      stack.push_back(swept);
      while (!stack.empty()) {
        uint32_t item = stack.back();
        stack.pop_back();
        result.push_back(order[begin + items[item].rank]);
        for (uint32_t e = successorsBegin[item]; e < successorsBegin[item + 1];
             ++e) {
          uint32_t next = successors[e];
          if (--waiting[next] == 0 && next < swept) {
            waiting[next] = kOut;
            stack.push_back(next);
          }
        }
      }
    }
    assert(result.size() == begin + count && "every buffer of the chunk out");
  }
  return result;
}
