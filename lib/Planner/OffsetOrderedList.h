//===- OffsetOrderedList.h - Placed buffers in offset order -----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. Every placed buffer, kept sorted by offset in
// blocks of up to 128 entries, each entry with its slots [first, last). A
// walk visits, in offset order, the entries whose slots meet a range.
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
// A block is laid out as eight lanes side by side: with `rows` the block's
// entries over eight, rounded up, entry e (in offset order) sits in row
// e % rows, lane e / rows, at index row * 8 + lane of each array. So a row
// of eight entries is one vector, and each lane is a run of consecutive
// entries, which lets a vector walk follow eight runs at once, one row per
// step, with no shuffles between the entries of a run (GapWalk.cpp). The
// walk here, portable, filters two rows at a time (four compares per
// instruction where SSE2 is there) and turns the rows' bitmasks into the
// lanes' to visit the entries in offset order.
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
namespace detail {
/// The slot of bit 16 * lane + row of OffsetOrderedList's meeting masks (a
/// block of 8 lanes by 16 rows; lanes 0-3 in the first word): a table,
/// since the walk's loads wait on it.
struct SlotOfMeetingBit {
  uint8_t slots[2][64];
  constexpr SlotOfMeetingBit() : slots() {
    for (uint32_t half = 0; half < 2; ++half)
      for (uint32_t bit = 0; bit < 64; ++bit)
        slots[half][bit] =
            static_cast<uint8_t>((bit % 16) * 8 + half * 4 + bit / 16);
  }
};
inline constexpr SlotOfMeetingBit kSlotOfMeetingBit{};
} // namespace detail

class OffsetOrderedList {
public:
  /// Slots must be below 2^31 (the filter compares them as signed 32-bit).
  static constexpr uint32_t kMaxSlots = uint32_t(1) << 31;

  struct alignas(64) Block {
    static constexpr uint32_t kLanes = 8, kMaxRows = 16;
    static constexpr uint32_t kCapacity = kLanes * kMaxRows;
    static_assert(kLanes == 8 && kMaxRows == 16, "detail::SlotOfMeetingBit");
    static uint32_t rowsFor(uint32_t count) {
      return std::max<uint32_t>(1, (count + kLanes - 1) / kLanes);
    }

    uint32_t count = 0, rows = 1;
    // Unused slots hold zeros, so that a filter reading whole rows never
    // takes them (last > first fails for last = 0).
    alignas(64) uint32_t first[kCapacity] = {};
    alignas(64) uint32_t last[kCapacity] = {};
    alignas(64) uint64_t offset[kCapacity] = {};
    alignas(64) uint64_t top[kCapacity] = {};
  };

  OffsetOrderedList() { order.push_back(newBlock()); }

  size_t size() const { return entries; }

  /// Asks the cache for what a walk reads first (a hint): each block's
  /// header and its first half of rows, which a block holds at least once
  /// split. A walk over a list of time windows (TimeWindowedLists.h) that
  /// was not used recently waits on memory for most of its time otherwise.
  void prefetch() const {
    for (const Block &block : blocks) {
      __builtin_prefetch(&block);
      for (uint32_t row = 0; row < Block::kMaxRows / 2; row += 2) {
        uint32_t at = row * Block::kLanes;
        __builtin_prefetch(block.first + at);
        __builtin_prefetch(block.last + at);
        for (uint32_t half = 0; half < 2; ++half) {
          __builtin_prefetch(block.offset + at + half * Block::kLanes);
          __builtin_prefetch(block.top + at + half * Block::kLanes);
        }
      }
    }
  }

  /// The blocks in offset order, for the vector walk.
  size_t blockCount() const { return order.size(); }
  const Block &block(size_t position) const { return blocks[order[position]]; }

  void insert(uint64_t offset, uint64_t top, uint32_t first, uint32_t last) {
    assert(first < last && last < kMaxSlots);
    size_t position = blockFor(offset);
    if (blocks[order[position]].count == Block::kCapacity) {
      split(position);
      if (offset >= firstOffsets[position + 1])
        ++position;
    }
    Block &block = blocks[order[position]];
    uint32_t at = entriesBelow(block, offset, /*orEqual=*/true);
    if (Block::rowsFor(block.count + 1) == block.rows) {
      shiftUp(block, at);
      setEntry(block, slotOf(at, block.rows), offset, top, first, last);
      ++block.count;
    } else {
      Entries run = read(block);
      run.move(at + 1, at, block.count - at);
      run.set(at, offset, top, first, last);
      write(block, run, block.count + 1);
    }
    firstOffsets[position] = block.offset[0]; // entry 0 sits in slot 0
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
      for (uint32_t at = entriesBelow(block, offset, /*orEqual=*/false);
           at < block.count; ++at) {
        uint32_t slot = slotOf(at, block.rows);
        if (block.offset[slot] != offset)
          break;
        if (block.top[slot] != top || block.first[slot] != first ||
            block.last[slot] != last)
          continue;
        if (Block::rowsFor(block.count - 1) == block.rows) {
          shiftDown(block, at);
          --block.count;
        } else {
          Entries run = read(block);
          run.move(at, at + 1, block.count - at - 1);
          write(block, run, block.count - 1);
        }
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
    forEachMeetingIn(0, order.size(), first, last, visit);
  }

  /// forEachMeeting over the blocks at positions [begin, end) alone.
  template <typename Visit>
  void forEachMeetingIn(size_t begin, size_t end, uint32_t first, uint32_t last,
                        Visit &&visit) const {
    assert(first < last && last < kMaxSlots && end <= order.size());
    for (size_t position = begin; position < end; ++position) {
      const Block &block = blocks[order[position]];
      alignas(16) uint8_t rows[Block::kMaxRows] = {};
      meetingRows(block, first, last, rows);
      if (!forEachInOffsetOrder(rows, [&](uint32_t slot) {
            return visit(block.offset[slot], block.top[slot]);
          }))
        return;
    }
  }

  /// Calls `visit(slot)` for the slots of a block that `rows` marks (bit l
  /// of rows[r]: the slot in row r, lane l; rows past the block's are 0), in
  /// offset order, until it returns false; false if it did.
  template <typename Visit>
  static bool forEachInOffsetOrder(const uint8_t rows[Block::kMaxRows],
                                   Visit &&visit) {
    // Bit 16 * lane + row of two words (lanes 0-3 in the first), so that
    // the bits run in offset order.
    uint16_t lanes[Block::kLanes];
#if defined(__SSE2__)
    // Lane 7's bits are the bytes' top bits; doubling the bytes brings the
    // next lane's there.
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(rows));
    for (uint32_t lane = Block::kLanes; lane-- > 0;) {
      lanes[lane] = static_cast<uint16_t>(_mm_movemask_epi8(bytes));
      bytes = _mm_add_epi8(bytes, bytes);
    }
#else
    for (uint32_t lane = 0; lane < Block::kLanes; ++lane) {
      lanes[lane] = 0;
      for (uint32_t row = 0; row < Block::kMaxRows; ++row)
        lanes[lane] |= uint16_t((rows[row] >> lane) & 1) << row;
    }
#endif
    for (uint32_t half = 0; half < 2; ++half) {
      uint64_t mask = 0;
      for (uint32_t lane = 0; lane < Block::kLanes / 2; ++lane)
        mask |= uint64_t(lanes[half * (Block::kLanes / 2) + lane])
                << (Block::kMaxRows * lane);
      for (; mask; mask &= mask - 1)
        if (!visit(
                detail::kSlotOfMeetingBit.slots[half][llvm::countr_zero(mask)]))
          return false;
    }
    return true;
  }

private:
  /// A block's entries in offset order, as plain arrays.
  struct Entries {
    uint64_t offset[Block::kCapacity + 1], top[Block::kCapacity + 1];
    uint32_t first[Block::kCapacity + 1], last[Block::kCapacity + 1];

    /// Moves `count` entries from `from` on to `to` on (may overlap).
    void move(uint32_t to, uint32_t from, uint32_t count) {
      std::memmove(offset + to, offset + from, count * 8);
      std::memmove(top + to, top + from, count * 8);
      std::memmove(first + to, first + from, count * 4);
      std::memmove(last + to, last + from, count * 4);
    }
    void set(uint32_t at, uint64_t offsetAt, uint64_t topAt, uint32_t firstAt,
             uint32_t lastAt) {
      offset[at] = offsetAt;
      top[at] = topAt;
      first[at] = firstAt;
      last[at] = lastAt;
    }
  };

  /// The slot of entry e in a block of `rows` rows.
  static uint32_t slotOf(uint32_t e, uint32_t rows) {
    return (e % rows) * Block::kLanes + e / rows;
  }

  /// How many of a block's entries lie below `offset` (or at it, with
  /// `orEqual`): the lanes' first entries (row 0) say which lane the answer
  /// lies in, and a binary search down that lane's rows finds it. (A binary
  /// search over entry numbers divides by the rows at every step to find
  /// the entry's slot.)
  static uint32_t entriesBelow(const Block &block, uint64_t offset,
                               bool orEqual) {
    auto below = [&](uint32_t slot) {
      uint64_t at = block.offset[slot];
      return at < offset || (orEqual && at == offset);
    };
    const uint32_t rows = block.rows;
    // The lanes in use whose first entry is below: all before some lane.
    uint32_t lane = 0;
    while (lane < Block::kLanes && lane * rows < block.count && below(lane))
      ++lane;
    if (lane == 0)
      return 0;
    --lane; // the last lane that starts below; the answer lies in it
    uint32_t low = 1, high = std::min(rows, block.count - lane * rows);
    while (low < high) {
      uint32_t middle = (low + high) / 2;
      if (below(middle * Block::kLanes + lane))
        low = middle + 1;
      else
        high = middle;
    }
    return lane * rows + low;
  }

  static void setEntry(Block &block, uint32_t slot, uint64_t offset,
                       uint64_t top, uint32_t first, uint32_t last) {
    block.offset[slot] = offset;
    block.top[slot] = top;
    block.first[slot] = first;
    block.last[slot] = last;
  }
  static void copyEntry(Block &block, uint32_t to, uint32_t from) {
    setEntry(block, to, block.offset[from], block.top[from], block.first[from],
             block.last[from]);
  }

  /// Moves the entries from `at` on one place later, where one more entry
  /// keeps the block's rows: each moves down its lane, a lane's last to the
  /// top of the next. Cheaper than copying the block out and back (read,
  /// write) where the lists are many and small (TimeWindowedLists.h), and
  /// it touches only the entries that move.
  static void shiftUp(Block &block, uint32_t at) {
    uint32_t rows = block.rows;
    uint32_t row = block.count % rows, lane = block.count / rows;
    for (uint32_t e = block.count; e > at; --e) {
      uint32_t fromRow = row ? row - 1 : rows - 1;
      uint32_t fromLane = row ? lane : lane - 1;
      copyEntry(block, row * Block::kLanes + lane,
                fromRow * Block::kLanes + fromLane);
      row = fromRow;
      lane = fromLane;
    }
  }

  /// Moves the entries after `at` one place earlier over it, where one
  /// entry fewer keeps the block's rows, and clears the slot the last one
  /// leaves (unused slots hold zeros).
  static void shiftDown(Block &block, uint32_t at) {
    uint32_t rows = block.rows;
    uint32_t row = at % rows, lane = at / rows;
    for (uint32_t e = at; e + 1 < block.count; ++e) {
      uint32_t fromRow = row + 1 < rows ? row + 1 : 0;
      uint32_t fromLane = row + 1 < rows ? lane : lane + 1;
      copyEntry(block, row * Block::kLanes + lane,
                fromRow * Block::kLanes + fromLane);
      row = fromRow;
      lane = fromLane;
    }
    setEntry(block, row * Block::kLanes + lane, 0, 0, 0, 0);
  }

  /// Copies a block's entries out of its lanes, and back in with a new
  /// count (and so a new number of rows): for an insert or erase that
  /// changes the rows (one in eight), and for splits. A block holds at most
  /// 128 entries, so that costs a few hundred copies.
  static Entries read(const Block &block) {
    Entries run;
    forEachEntry(block.count, [&](uint32_t e, uint32_t slot) {
      run.set(e, block.offset[slot], block.top[slot], block.first[slot],
              block.last[slot]);
    });
    return run;
  }
  static void write(Block &block, const Entries &run, uint32_t count) {
    assert(count <= Block::kCapacity);
    std::memset(block.first, 0, sizeof(block.first));
    std::memset(block.last, 0, sizeof(block.last));
    std::memset(block.offset, 0, sizeof(block.offset));
    std::memset(block.top, 0, sizeof(block.top));
    block.count = count;
    block.rows = Block::rowsFor(count);
    forEachEntry(count, [&](uint32_t e, uint32_t slot) {
      block.offset[slot] = run.offset[e];
      block.top[slot] = run.top[e];
      block.first[slot] = run.first[e];
      block.last[slot] = run.last[e];
    });
  }

  /// Calls `fn(e, slot)` for the entries e < count of a block of `count`
  /// entries, in offset order: entry e sits in row e % rows, lane e / rows,
  /// at slot row * 8 + lane (counted here lane by lane, with no division).
  template <typename Fn> static void forEachEntry(uint32_t count, Fn &&fn) {
    uint32_t rows = Block::rowsFor(count);
    for (uint32_t lane = 0, e = 0; lane < Block::kLanes; ++lane)
      for (uint32_t row = 0; row < rows && e < count; ++row, ++e)
        fn(e, row * Block::kLanes + lane);
  }

  /// rows[r], bit l: the entry in row r, lane l meets [first, last).
  static void meetingRows(const Block &block, uint32_t first, uint32_t last,
                          uint8_t rows[Block::kMaxRows]) {
#if defined(__SSE2__)
    __m128i lastQuery = _mm_set1_epi32(static_cast<int32_t>(last));
    __m128i firstQuery = _mm_set1_epi32(static_cast<int32_t>(first));
    for (uint32_t row = 0; row < block.rows; row += 2) {
      __m128i meets[4];
      for (uint32_t k = 0; k < 4; ++k) {
        uint32_t at = row * Block::kLanes + k * 4;
        __m128i starts =
            _mm_load_si128(reinterpret_cast<const __m128i *>(block.first + at));
        __m128i ends =
            _mm_load_si128(reinterpret_cast<const __m128i *>(block.last + at));
        meets[k] = _mm_and_si128(_mm_cmpgt_epi32(lastQuery, starts),
                                 _mm_cmpgt_epi32(ends, firstQuery));
      }
      __m128i bytes = _mm_packs_epi16(_mm_packs_epi32(meets[0], meets[1]),
                                      _mm_packs_epi32(meets[2], meets[3]));
      uint32_t bits = static_cast<uint32_t>(_mm_movemask_epi8(bytes));
      rows[row] = static_cast<uint8_t>(bits);
      rows[row + 1] = static_cast<uint8_t>(bits >> 8);
    }
#else
    for (uint32_t row = 0; row < block.rows; ++row)
      for (uint32_t lane = 0; lane < Block::kLanes; ++lane) {
        uint32_t slot = row * Block::kLanes + lane;
        rows[row] |=
            uint8_t((block.first[slot] < last) & (block.last[slot] > first))
            << lane;
      }
#endif
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
    Entries run = read(full);
    uint32_t keep = Block::kCapacity / 2, moved = full.count - keep;
    write(full, run, keep);
    run.move(0, keep, moved);
    write(upper, run, moved);
    order.insert(order.begin() + position + 1, index);
    firstOffsets.insert(firstOffsets.begin() + position + 1, run.offset[0]);
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
