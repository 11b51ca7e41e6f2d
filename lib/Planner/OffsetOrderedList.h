//===- OffsetOrderedList.h - Placed buffers in offset order -----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner. Every placed buffer, kept sorted by offset in
// blocks of up to 256 entries, each entry with its slots [first, last). A
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
// A block is laid out as 16 lanes side by side: with `rows` the block's
// entries over 16, rounded up, entry e (in offset order) sits in row
// e % rows, lane e / rows, at index row * 16 + lane of each array. So a row
// of 16 entries is one vector, and each lane is a run of consecutive
// entries, which lets a vector walk follow 16 runs at once, one row per
// step, with no shuffles between the entries of a run (GapWalk.cpp). The
// walk here, portable, filters a row at a time (four compares per
// instruction where SSE2 is there) and turns the rows' bitmasks into the
// lanes' to visit the entries in offset order.
//
// Entries are kept in 32 bits: each one's slots, and its offset and top as
// their distance from the block's base (at most its lowest offset) plus
// 2^31, which is exact where the top lies less than 2^31 bytes above the
// base. A block holding a top further up is wide: it also keeps every
// entry's 64-bit offset and top (Exact, apart), which its readers take
// instead. So a walk reads 16 bytes an entry instead of 24, and the vector
// walk twice the entries per vector, and an insert moves 16 bytes an entry.
// And the blocks are kept in memory in offset order (compact), so that a
// walk reads them as the hardware prefetches.
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

  struct alignas(64) Block {
    static constexpr uint32_t kLanes = 16, kMaxRows = 16;
    static constexpr uint32_t kCapacity = kLanes * kMaxRows;
    /// A row's entries, one bit per lane (bit l: lane l).
    using RowMask = uint16_t;
    static_assert(kLanes == 16 && kMaxRows % 8 == 0 && kMaxRows <= 16,
                  "forEachInOffsetOrder and meetingRows");
    /// Added to an offset's or a top's distance from the base: a cursor
    /// below the base by up to this much is still exact in 32 bits.
    static constexpr uint64_t kBias = uint64_t(1) << 31;
    static uint32_t rowsFor(uint32_t count) {
      return std::max<uint32_t>(1, (count + kLanes - 1) / kLanes);
    }
    /// Whether `value` (at least `base`) is kept exactly as near(value).
    static bool isNear(uint64_t value, uint64_t base) {
      return value - base < kBias;
    }
    /// `value` (at least `base`) as the block keeps it: its distance from
    /// the base plus kBias, capped at 2^32 - 1.
    static uint32_t near(uint64_t value, uint64_t base) {
      assert(value >= base);
      uint64_t distance = value - base;
      return distance >= kBias ? UINT32_MAX
                               : static_cast<uint32_t>(distance + kBias);
    }
    /// The value a near value stands for, in a block that is not wide.
    uint64_t far(uint32_t nearValue) const {
      return base - kBias + nearValue; // modulo 2^64
    }
    bool wide() const { return exact != kNone; }

    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t count = 0, rows = 1;
    uint64_t base = 0; // at most every entry's offset
    /// Where the block is wide, its Exact in the list's pool; else kNone.
    uint32_t exact = kNone;
    // Unused slots hold zeros, so that a filter reading whole rows never
    // takes them (last > first fails for last = 0).
    alignas(64) uint32_t first[kCapacity] = {};
    alignas(64) uint32_t last[kCapacity] = {};
    alignas(64) uint32_t nearOffset[kCapacity] = {};
    alignas(64) uint32_t nearTop[kCapacity] = {};
  };

  /// A wide block's exact offsets and tops, slot for slot (zeros where
  /// unused).
  struct Exact {
    uint64_t offset[Block::kCapacity] = {};
    uint64_t top[Block::kCapacity] = {};
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
      for (uint32_t row = 0; row < Block::kMaxRows / 2; ++row) {
        uint32_t at = row * Block::kLanes;
        __builtin_prefetch(block.first + at);
        __builtin_prefetch(block.last + at);
        __builtin_prefetch(block.nearOffset + at);
        __builtin_prefetch(block.nearTop + at);
      }
    }
  }

  /// The blocks in offset order, for the vector walk.
  size_t blockCount() const { return order.size(); }
  const Block &block(size_t position) const { return blocks[order[position]]; }
  /// A wide block's exact offsets and tops (null where it is not wide).
  const Exact *exactOf(const Block &block) const {
    return block.wide() ? &exacts[block.exact] : nullptr;
  }
  /// The offset and top of the entry in `slot` of `block`.
  uint64_t offsetAt(const Block &block, uint32_t slot) const {
    return block.wide() ? exacts[block.exact].offset[slot]
                        : block.far(block.nearOffset[slot]);
  }
  uint64_t topAt(const Block &block, uint32_t slot) const {
    return block.wide() ? exacts[block.exact].top[slot]
                        : block.far(block.nearTop[slot]);
  }

  void insert(uint64_t offset, uint64_t top, uint32_t first, uint32_t last) {
    assert(first < last && last < kMaxSlots && offset <= top);
    size_t position = blockFor(offset);
    if (blocks[order[position]].count == Block::kCapacity) {
      split(position);
      if (offset >= firstOffsets[position + 1])
        ++position;
    }
    uint32_t index = order[position];
    uint32_t at = entriesBelow(blocks[index], offset, /*orEqual=*/true);
    if (Block::rowsFor(blocks[index].count + 1) == blocks[index].rows &&
        offset >= blocks[index].base && blocks[index].count) {
      shiftUp(blocks[index], at);
      ++blocks[index].count;
      setEntry(index, slotOf(at, blocks[index].rows), offset, top, first, last);
    } else {
      // New rows, or a new base: the block written afresh.
      Entries run = read(blocks[index]);
      run.move(at + 1, at, blocks[index].count - at);
      run.set(at, offset, top, first, last);
      write(index, run, blocks[index].count + 1);
    }
    firstOffsets[position] = offsetAt(blocks[index], 0); // entry 0: slot 0
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
      uint32_t index = order[position];
      Block &block = blocks[index];
      for (uint32_t at = entriesBelow(block, offset, /*orEqual=*/false);
           at < block.count; ++at) {
        uint32_t slot = slotOf(at, block.rows);
        if (offsetAt(block, slot) != offset)
          break;
        if (topAt(block, slot) != top || block.first[slot] != first ||
            block.last[slot] != last)
          continue;
        if (Block::rowsFor(block.count - 1) == block.rows && !block.wide()) {
          shiftDown(block, at);
          --block.count;
        } else {
          // New rows, or a wide block that may no longer be: written
          // afresh.
          Entries run = read(block);
          run.move(at, at + 1, block.count - at - 1);
          write(index, run, block.count - 1);
        }
        --entries;
        if (blocks[index].count)
          firstOffsets[position] = offsetAt(blocks[index], 0);
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
      alignas(16) Block::RowMask rows[Block::kMaxRows] = {};
      meetingRows(block, first, last, rows);
      if (!forEachInOffsetOrder(rows, [&](uint32_t slot) {
            return visit(offsetAt(block, slot), topAt(block, slot));
          }))
        return;
    }
  }

  /// Calls `visit(slot)` for the slots of a block that `rows` marks (bit l
  /// of rows[r]: the slot in row r, lane l; rows past the block's are 0), in
  /// offset order, until it returns false; false if it did.
  template <typename Visit>
  static bool forEachInOffsetOrder(const Block::RowMask rows[Block::kMaxRows],
                                   Visit &&visit) {
    // lanes[l], bit r: the slot in row r, lane l; so that the bits of
    // consecutive lanes side by side in a word run in offset order.
    uint16_t lanes[Block::kLanes] = {};
    for (uint32_t eight = 0; eight < Block::kMaxRows / 8; ++eight) {
      const Block::RowMask *from = rows + 8 * eight;
#if defined(__SSE2__)
      // The eight rows' low bytes (lanes 0-7), then their high bytes
      // (8-15); the bytes' top bits are lanes 7 and 15, and doubling the
      // bytes brings the lanes below there.
      __m128i words = _mm_loadu_si128(reinterpret_cast<const __m128i *>(from));
      __m128i bytes = _mm_packus_epi16(
          _mm_and_si128(words, _mm_set1_epi16(0xff)), _mm_srli_epi16(words, 8));
      for (uint32_t lane = Block::kLanes / 2; lane-- > 0;) {
        uint32_t bits = static_cast<uint32_t>(_mm_movemask_epi8(bytes));
        lanes[lane] |= uint16_t((bits & 0xff) << (8 * eight));
        lanes[lane + Block::kLanes / 2] |= uint16_t((bits >> 8) << (8 * eight));
        bytes = _mm_add_epi8(bytes, bytes);
      }
#else
      for (uint32_t lane = 0; lane < Block::kLanes; ++lane)
        for (uint32_t row = 0; row < 8; ++row)
          lanes[lane] |=
              uint16_t(((from[row] >> lane) & 1) << (8 * eight + row));
#endif
    }
    constexpr uint32_t kLanesPerWord = 64 / Block::kMaxRows;
    for (uint32_t word = 0; word < Block::kLanes / kLanesPerWord; ++word) {
      uint64_t mask = 0;
      for (uint32_t k = 0; k < kLanesPerWord; ++k)
        mask |= uint64_t(lanes[word * kLanesPerWord + k])
                << (Block::kMaxRows * k);
      for (; mask; mask &= mask - 1) {
        uint32_t bit = llvm::countr_zero(mask);
        if (!visit((bit % Block::kMaxRows) * Block::kLanes +
                   word * kLanesPerWord + bit / Block::kMaxRows))
          return false;
      }
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
  uint32_t entriesBelow(const Block &block, uint64_t offset,
                        bool orEqual) const {
    auto below = [&](uint32_t slot) {
      uint64_t at = offsetAt(block, slot);
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

  /// Sets the entry in `slot` of block `index` (at least the block's base),
  /// widening the block if its top is too far above the base to be kept
  /// near.
  void setEntry(uint32_t index, uint32_t slot, uint64_t offset, uint64_t top,
                uint32_t first, uint32_t last) {
    Block &block = blocks[index];
    if (!block.wide() && !Block::isNear(top, block.base))
      widen(block);
    block.first[slot] = first;
    block.last[slot] = last;
    block.nearOffset[slot] = Block::near(offset, block.base);
    block.nearTop[slot] = Block::near(top, block.base);
    if (block.wide()) {
      exacts[block.exact].offset[slot] = offset;
      exacts[block.exact].top[slot] = top;
    }
  }

  /// Gives a block an Exact, filled from its near values (exact so far).
  void widen(Block &block) {
    uint32_t at = newExact();
    forEachEntry(block.count, [&](uint32_t, uint32_t slot) {
      exacts[at].offset[slot] = block.far(block.nearOffset[slot]);
      exacts[at].top[slot] = block.far(block.nearTop[slot]);
    });
    block.exact = at;
  }

  void copyEntry(Block &block, uint32_t to, uint32_t from) {
    block.first[to] = block.first[from];
    block.last[to] = block.last[from];
    block.nearOffset[to] = block.nearOffset[from];
    block.nearTop[to] = block.nearTop[from];
    if (block.wide()) {
      exacts[block.exact].offset[to] = exacts[block.exact].offset[from];
      exacts[block.exact].top[to] = exacts[block.exact].top[from];
    }
  }

  /// Moves the entries from `at` on one place later, where one more entry
  /// keeps the block's rows: each moves down its lane, a lane's last to the
  /// top of the next. Cheaper than copying the block out and back (read,
  /// write) where the lists are many and small (TimeWindowedLists.h), and
  /// it touches only the entries that move.
  void shiftUp(Block &block, uint32_t at) {
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
  /// leaves (unused slots hold zeros). Not for a wide block.
  void shiftDown(Block &block, uint32_t at) {
    assert(!block.wide());
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
    uint32_t slot = row * Block::kLanes + lane;
    block.first[slot] = block.last[slot] = 0;
    block.nearOffset[slot] = block.nearTop[slot] = 0;
  }

  /// Copies a block's entries out of its lanes, and back in with a new
  /// count (so new rows), the base at the first offset, and an Exact only
  /// where some top is too far above it: for an insert or erase that
  /// changes the rows (one in 16) or the base, or may leave a block no
  /// longer wide, and for splits. A block holds at most 256 entries, so
  /// that costs a few hundred copies.
  Entries read(const Block &block) const {
    Entries run;
    forEachEntry(block.count, [&](uint32_t e, uint32_t slot) {
      run.set(e, offsetAt(block, slot), topAt(block, slot), block.first[slot],
              block.last[slot]);
    });
    return run;
  }
  void write(uint32_t index, const Entries &run, uint32_t count) {
    assert(count <= Block::kCapacity);
    Block &block = blocks[index];
    std::memset(block.first, 0, sizeof(block.first));
    std::memset(block.last, 0, sizeof(block.last));
    std::memset(block.nearOffset, 0, sizeof(block.nearOffset));
    std::memset(block.nearTop, 0, sizeof(block.nearTop));
    block.count = count;
    block.rows = Block::rowsFor(count);
    block.base = count ? run.offset[0] : 0;
    bool wide = false;
    for (uint32_t e = 0; e < count; ++e)
      wide |= !Block::isNear(run.top[e], block.base);
    if (wide && !block.wide())
      block.exact = newExact(); // zeroed
    else if (wide)
      exacts[block.exact] = Exact();
    else if (block.wide())
      releaseExact(block);
    // Wide or not is settled above, so no entry widens the block here.
    forEachEntry(count, [&](uint32_t e, uint32_t slot) {
      setEntry(index, slot, run.offset[e], run.top[e], run.first[e],
               run.last[e]);
    });
  }

  /// Calls `fn(e, slot)` for the entries e < count of a block of `count`
  /// entries, in offset order: entry e sits in row e % rows, lane e / rows,
  /// at slot row * 16 + lane (counted here lane by lane, with no division).
  template <typename Fn> static void forEachEntry(uint32_t count, Fn &&fn) {
    uint32_t rows = Block::rowsFor(count);
    for (uint32_t lane = 0, e = 0; lane < Block::kLanes; ++lane)
      for (uint32_t row = 0; row < rows && e < count; ++row, ++e)
        fn(e, row * Block::kLanes + lane);
  }

  /// rows[r], bit l: the entry in row r, lane l meets [first, last).
  static void meetingRows(const Block &block, uint32_t first, uint32_t last,
                          Block::RowMask rows[Block::kMaxRows]) {
#if defined(__SSE2__)
    __m128i lastQuery = _mm_set1_epi32(static_cast<int32_t>(last));
    __m128i firstQuery = _mm_set1_epi32(static_cast<int32_t>(first));
    for (uint32_t row = 0; row < block.rows; ++row) {
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
      rows[row] = static_cast<Block::RowMask>(_mm_movemask_epi8(bytes));
    }
#else
    for (uint32_t row = 0; row < block.rows; ++row)
      for (uint32_t lane = 0; lane < Block::kLanes; ++lane) {
        uint32_t slot = row * Block::kLanes + lane;
        rows[row] |= Block::RowMask((block.first[slot] < last) &
                                    (block.last[slot] > first))
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

  uint32_t newExact() {
    if (!freeExacts.empty()) {
      uint32_t at = freeExacts.back();
      freeExacts.pop_back();
      exacts[at] = Exact();
      return at;
    }
    exacts.emplace_back();
    return static_cast<uint32_t>(exacts.size() - 1);
  }

  void releaseExact(Block &block) {
    freeExacts.push_back(block.exact);
    block.exact = Block::kNone;
  }

  void split(size_t position) {
    uint32_t index = newBlock(); // may move `blocks`: index afresh below
    uint32_t full = order[position];
    Entries run = read(blocks[full]);
    uint32_t keep = Block::kCapacity / 2, moved = blocks[full].count - keep;
    write(full, run, keep);
    run.move(0, keep, moved);
    write(index, run, moved);
    order.insert(order.begin() + position + 1, index);
    firstOffsets.insert(firstOffsets.begin() + position + 1, run.offset[0]);
    if (++splitsSinceCompacted * kCompactEvery >= order.size())
      compact();
  }

  /// Lays the blocks out in memory in offset order, so that a walk reads
  /// them one after another, as the hardware prefetches; a split puts its
  /// new block wherever there is room. Once per blocks.size() /
  /// kCompactEvery splits: a copy of the blocks each time, a few per cent
  /// of what the walks read between two.
  void compact() {
    std::vector<Block> laidOut;
    laidOut.reserve(order.size());
    for (uint32_t &index : order) {
      laidOut.push_back(blocks[index]);
      index = static_cast<uint32_t>(laidOut.size() - 1);
    }
    blocks.swap(laidOut);
    freeBlocks.clear();
    splitsSinceCompacted = 0;
  }

  void dropBlock(size_t position) {
    if (blocks[order[position]].wide())
      releaseExact(blocks[order[position]]);
    freeBlocks.push_back(order[position]);
    order.erase(order.begin() + position);
    firstOffsets.erase(firstOffsets.begin() + position);
  }

  static constexpr size_t kCompactEvery = 16;

  std::vector<Block> blocks;
  std::vector<uint32_t> freeBlocks;
  std::vector<Exact> exacts; // the wide blocks' (Block::exact)
  std::vector<uint32_t> freeExacts;
  std::vector<uint32_t> order;           // blocks in offset order
  std::vector<uint64_t> firstOffsets{0}; // per position in `order`
  size_t splitsSinceCompacted = 0;
  size_t entries = 0;
};

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_OFFSETORDEREDLIST_H
