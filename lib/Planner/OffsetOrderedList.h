//===- OffsetOrderedList.h - Placed buffers in offset order -----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. Every placed buffer, kept sorted by offset in
// blocks of up to 128 entries, each entry with its slots [first, last). A
// walk visits, in offset order, the entries whose slots meet a range: a
// filter over the block's slots (four compares per instruction) gives a
// bitmask, and only its set bits are visited.
//
// Why a scan of every placed buffer, where OffsetPlacement otherwise finds
// only the neighbours and sorts them: where thousands of buffers are live at
// once, the neighbours are a large share of everything placed (about a
// third on the trace family of docs/benchmarks.md), so filtering an already
// sorted list costs less than collecting the neighbours from the segment
// tree and radix-sorting them; OffsetPlacement picks whichever is cheaper
// per placement. The entries are in offset order, equal offsets in no
// particular order, which is all the gap walk needs.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_OFFSETORDEREDLIST_H
#define MEMPLAN_LIB_PLANNER_OFFSETORDEREDLIST_H

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace memplan {

class OffsetOrderedList {
public:
  /// Slots must be below 2^31 (the filter compares them as signed 32-bit).
  static constexpr uint32_t kMaxSlots = uint32_t(1) << 31;

  OffsetOrderedList() { order.push_back(newBlock()); }

  size_t size() const { return entries; }

  void insert(uint64_t offset, uint64_t top, uint32_t first, uint32_t last) {
    assert(first < last && last < kMaxSlots);
    size_t position = blockFor(offset);
    Block *block = &blocks[order[position]];
    if (block->count == Block::kCapacity) {
      split(position);
      if (offset >= firstOffsets[position + 1])
        ++position;
      block = &blocks[order[position]];
    }
    uint32_t at =
        std::upper_bound(block->offset, block->offset + block->count, offset) -
        block->offset;
    moveEntries(*block, at + 1, *block, at, block->count - at);
    block->offset[at] = offset;
    block->top[at] = top;
    block->first[at] = first;
    block->last[at] = last;
    ++block->count;
    firstOffsets[position] = block->offset[0];
    ++entries;
  }

  /// Removes one entry equal to the given one; false if there is none.
  bool erase(uint64_t offset, uint64_t top, uint32_t first, uint32_t last) {
    // Entries at `offset` start in the last block whose first offset is
    // below it (or the first block) and may run on into later ones.
    size_t position =
        std::lower_bound(firstOffsets.begin(), firstOffsets.end(), offset) -
        firstOffsets.begin();
    if (position)
      --position;
    for (; position < order.size() && firstOffsets[position] <= offset;
         ++position) {
      Block &block = blocks[order[position]];
      for (uint32_t at = std::lower_bound(block.offset,
                                          block.offset + block.count, offset) -
                         block.offset;
           at < block.count && block.offset[at] == offset; ++at) {
        if (block.top[at] != top || block.first[at] != first ||
            block.last[at] != last)
          continue;
        moveEntries(block, at, block, at + 1, block.count - at - 1);
        --block.count;
        block.first[block.count] = block.last[block.count] = 0;
        --entries;
        if (block.count)
          firstOffsets[position] = block.offset[0];
        else if (order.size() > 1)
          dropBlock(position);
        return true;
      }
    }
    return false;
  }

  /// Calls `visit(offset, top)` for every entry whose slots meet
  /// [first, last), in offset order, until it returns false.
  template <typename Visit>
  void forEachMeeting(uint32_t first, uint32_t last, Visit &&visit) const {
    assert(first < last && last < kMaxSlots);
    for (uint32_t index : order) {
      const Block &block = blocks[index];
      for (uint32_t half = 0; half * 64 < block.count; ++half) {
        uint64_t mask = meetingMask(block, half * 64, first, last);
        const uint64_t *offset = block.offset + half * 64;
        const uint64_t *top = block.top + half * 64;
        while (mask) {
          unsigned at = llvm::countr_zero(mask);
          mask &= mask - 1;
          if (!visit(offset[at], top[at]))
            return;
        }
      }
    }
  }

private:
  struct Block {
    static constexpr uint32_t kCapacity = 128;
    uint32_t count = 0;
    // Slots of unused entries are 0 so that the filter, which reads whole
    // groups of 16, never takes them (last > first fails for last = 0).
    uint32_t first[kCapacity] = {};
    uint32_t last[kCapacity] = {};
    uint64_t offset[kCapacity];
    uint64_t top[kCapacity];
  };

  /// Moves `count` entries of `from`, from its entry `fromAt` on, to `to`
  /// from `toAt` on (within one block the two ranges may overlap).
  static void moveEntries(Block &to, uint32_t toAt, const Block &from,
                          uint32_t fromAt, uint32_t count) {
    std::memmove(to.offset + toAt, from.offset + fromAt, count * 8);
    std::memmove(to.top + toAt, from.top + fromAt, count * 8);
    std::memmove(to.first + toAt, from.first + fromAt, count * 4);
    std::memmove(to.last + toAt, from.last + fromAt, count * 4);
  }

  /// Bit i: entry `begin + i` (below the block's count) meets
  /// [first, last).
  static uint64_t meetingMask(const Block &block, uint32_t begin,
                              uint32_t first, uint32_t last) {
    uint32_t count = std::min<uint32_t>(64, block.count - begin);
    uint64_t mask = 0;
#if defined(__SSE2__)
    __m128i lastQuery = _mm_set1_epi32(static_cast<int32_t>(last));
    __m128i firstQuery = _mm_set1_epi32(static_cast<int32_t>(first));
    for (uint32_t group = 0; group * 16 < count; ++group) {
      __m128i meets[4];
      for (int k = 0; k < 4; ++k) {
        uint32_t at = begin + group * 16 + k * 4;
        __m128i starts = _mm_loadu_si128(
            reinterpret_cast<const __m128i *>(block.first + at));
        __m128i ends =
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(block.last + at));
        meets[k] = _mm_and_si128(_mm_cmpgt_epi32(lastQuery, starts),
                                 _mm_cmpgt_epi32(ends, firstQuery));
      }
      __m128i bytes = _mm_packs_epi16(_mm_packs_epi32(meets[0], meets[1]),
                                      _mm_packs_epi32(meets[2], meets[3]));
      mask |= uint64_t(static_cast<uint32_t>(_mm_movemask_epi8(bytes)))
              << (group * 16);
    }
#else
    for (uint32_t i = 0; i < count; ++i)
      mask |= uint64_t((block.first[begin + i] < last) &
                       (block.last[begin + i] > first))
              << i;
#endif
    // Unused entries have slots [0, 0) and never meet; entries past the
    // count within the last group are unused.
    return mask;
  }

  /// The position (in `order`) of the block an entry at `offset` goes in:
  /// the last whose first offset is at most `offset`, or the first.
  size_t blockFor(uint64_t offset) const {
    size_t position =
        std::upper_bound(firstOffsets.begin() + 1, firstOffsets.end(), offset) -
        firstOffsets.begin();
    return position - 1;
  }

  uint32_t newBlock() {
    uint32_t index;
    if (!freeBlocks.empty()) {
      index = freeBlocks.back();
      freeBlocks.pop_back();
      blocks[index] = Block();
    } else {
      index = blocks.size();
      blocks.emplace_back();
    }
    return index;
  }

  void split(size_t position) {
    uint32_t index = newBlock(); // may move `blocks`: index afresh below
    Block &full = blocks[order[position]];
    Block &upper = blocks[index];
    uint32_t keep = Block::kCapacity / 2, moved = full.count - keep;
    moveEntries(upper, 0, full, keep, moved);
    std::memset(full.first + keep, 0, moved * 4);
    std::memset(full.last + keep, 0, moved * 4);
    upper.count = moved;
    full.count = keep;
    order.insert(order.begin() + position + 1, index);
    firstOffsets.insert(firstOffsets.begin() + position + 1, upper.offset[0]);
  }

  void dropBlock(size_t position) {
    freeBlocks.push_back(order[position]);
    order.erase(order.begin() + position);
    firstOffsets.erase(firstOffsets.begin() + position);
  }

  std::vector<Block> blocks;
  std::vector<uint32_t> freeBlocks;
  std::vector<uint32_t> order;           // blocks in offset order
  std::vector<uint64_t> firstOffsets{0}; // per position in `order`
  size_t entries = 0;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_OFFSETORDEREDLIST_H
