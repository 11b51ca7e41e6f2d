//===- GapWalk.cpp - The gap walk over every placed buffer ----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The vector walk. The portable walk's cost is a chain through the cursor,
// one neighbour at a time (a dependent maximum and a rarely taken test, about
// seven cycles each on the trace family, docs/benchmarks.md). Here a block's
// eight lanes, each a run of consecutive entries (OffsetOrderedList.h), are
// followed at once, in two passes over the block's rows:
//
//  1. which entries meet the buffer, and each lane's highest top among them;
//     a prefix maximum over the lanes then gives each lane's cursor at its
//     first entry, as the portable walk would have it;
//  2. row by row, every entry's gap from its lane's cursor, tested against
//     the search's best so far, and the lanes' cursors raised by the row.
//
// Where the test passes for some entry (a few percent of the blocks), the
// block's candidates go to the search in offset order with their cursors,
// and it decides as the portable walk would have: the best only falls, so
// an entry that fails against the block's starting best fails at its turn.
//
// The project builds for baseline x86-64, so the walk is compiled for
// AVX-512 on its own (a function attribute) and chosen at run time.
//
//===----------------------------------------------------------------------===//

#include "GapWalk.h"

#include <algorithm>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MEMPLAN_VECTOR_GAP_WALK 1
// GCC 12 warns that the AVX-512 intrinsics' own placeholder operands
// (_mm512_undefined_epi32) may be used uninitialized once inlined: its bug
// 105593, fixed in GCC 13. The warning is reported at the header's lines.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif
#else
#define MEMPLAN_VECTOR_GAP_WALK 0
#endif

using namespace memplan;

namespace {

using Block = OffsetOrderedList::Block;

/// The portable walk over the blocks at positions [begin, end).
void walkPortably(const OffsetOrderedList &list, size_t begin, size_t end,
                  uint32_t first, uint32_t last, GapSearch &search) {
  // A copy of the search's state, which the walk keeps in registers (the
  // caller's may be anywhere).
  GapSearch local = search;
  list.forEachMeetingIn(
      begin, end, first, last,
      [&](uint64_t offset, uint64_t top) { return local.visit(offset, top); });
  search = local;
}

#if MEMPLAN_VECTOR_GAP_WALK

#define MEMPLAN_AVX512 __attribute__((target("avx512f")))

/// One row of pass 2: the entries of `row` that meet the buffer (`meets`)
/// and whose gaps from their lanes' `cursors` pass the test against the
/// best (size <= gap < best as gap - size < `bound`); `cursors` is then
/// raised by the row's meeting entries.
MEMPLAN_AVX512 inline __mmask8 testRow(const Block &block, uint32_t row,
                                       __mmask8 meets, __m512i size,
                                       __m512i bound, __m512i &cursors) {
  __m512i offsets = _mm512_load_si512(block.offset + row * Block::kLanes);
  __m512i gaps = _mm512_sub_epi64(offsets, _mm512_min_epu64(offsets, cursors));
  __mmask8 passes =
      _mm512_mask_cmplt_epu64_mask(meets, _mm512_sub_epi64(gaps, size), bound);
  cursors =
      _mm512_mask_max_epu64(cursors, meets, cursors,
                            _mm512_load_si512(block.top + row * Block::kLanes));
  return passes;
}

/// Gives the search, in offset order, the entries of `block` whose gaps
/// pass the test against its best, each with its cursor; `cursors` holds
/// each lane's cursor at its first entry. False once the search is decided.
MEMPLAN_AVX512 bool decideBlock(const Block &block, const uint8_t *rowMasks,
                                __m512i cursors, GapSearch &search) {
  alignas(64) uint64_t slotCursors[Block::kCapacity];
  alignas(16) uint8_t rowCandidates[Block::kMaxRows] = {};
  const __m512i size = _mm512_set1_epi64(search.size);
  const __m512i bound = _mm512_set1_epi64(search.bestGap - search.size);
  for (uint32_t row = 0; row < block.rows; ++row) {
    _mm512_store_si512(slotCursors + row * Block::kLanes, cursors);
    rowCandidates[row] =
        testRow(block, row, rowMasks[row], size, bound, cursors);
  }
  return OffsetOrderedList::forEachInOffsetOrder(
      rowCandidates, [&](uint32_t slot) {
        if (search.consider(block.offset[slot], slotCursors[slot]))
          return true;
        search.cursor = slotCursors[slot]; // where the portable walk stops
        return false;
      });
}

/// Pass 1 over `block`: which of its entries meet [first, last) (as
/// `rowMasks`), two rows (16 entries' slots) per compare, and each lane's
/// highest top among them (returned); `meetsAny` whether any does. A row
/// past the block's holds zeros and meets nothing.
MEMPLAN_AVX512 inline __m512i firstPass(const Block &block, __m512i firstQuery,
                                        __m512i lastQuery,
                                        uint8_t (&rowMasks)[Block::kMaxRows],
                                        uint32_t &meetsAny) {
  // The masks as an array of known length, not a pointer: GCC then unrolls
  // the loops over the rows, as it did before the passes were split out
  // (with a pointer it did not, and the walk looked 5-10 % slower).
  __m512i laneTops = _mm512_setzero_si512();
  meetsAny = 0;
  for (uint32_t row = 0; row < block.rows; row += 2) {
    uint32_t at = row * Block::kLanes;
    __mmask16 meets = _mm512_mask_cmplt_epu32_mask(
        _mm512_cmpgt_epu32_mask(_mm512_load_si512(block.last + at), firstQuery),
        _mm512_load_si512(block.first + at), lastQuery);
    rowMasks[row] = static_cast<uint8_t>(meets);
    rowMasks[row + 1] = static_cast<uint8_t>(meets >> 8);
    meetsAny |= meets;
    laneTops =
        _mm512_mask_max_epu64(laneTops, static_cast<__mmask8>(meets), laneTops,
                              _mm512_load_si512(block.top + at));
    laneTops = _mm512_mask_max_epu64(
        laneTops, static_cast<__mmask8>(meets >> 8), laneTops,
        _mm512_load_si512(block.top + at + Block::kLanes));
  }
  return laneTops;
}

/// Pass 2 over `block`, whose entries meeting the buffer `rowMasks` marks
/// and whose lanes' highest tops among them are `laneTops`: the search
/// decides on the block's candidates, if any (`bound` follows its best),
/// and `cursor` (in every lane) rises past the block. False once the
/// search is decided.
MEMPLAN_AVX512 inline bool
secondPass(const Block &block, const uint8_t (&rowMasks)[Block::kMaxRows],
           __m512i laneTops, __m512i size, __m512i &bound, __m512i &cursor,
           GapSearch &search) {
  const __m512i zero = _mm512_setzero_si512();
  // upTo[l]: the highest top in lanes 0..l; each lane's cursor at its
  // first entry is that of the lanes before it, or the walk's cursor.
  __m512i upTo =
      _mm512_max_epu64(laneTops, _mm512_alignr_epi64(laneTops, zero, 7));
  upTo = _mm512_max_epu64(upTo, _mm512_alignr_epi64(upTo, zero, 6));
  upTo = _mm512_max_epu64(upTo, _mm512_alignr_epi64(upTo, zero, 4));
  const __m512i cursors =
      _mm512_max_epu64(_mm512_alignr_epi64(upTo, zero, 7), cursor);

  // Row by row, each entry's gap from its lane's cursor, tested against
  // the best so far, and the lanes' cursors raised by the row.
  __m512i laneCursors = cursors;
  __mmask8 candidates = 0;
  for (uint32_t row = 0; row < block.rows; ++row)
    candidates |= testRow(block, row, rowMasks[row], size, bound, laneCursors);
  if (candidates) {
    if (!decideBlock(block, rowMasks, cursors, search))
      return false;
    bound = _mm512_set1_epi64(search.bestGap - search.size);
  }
  cursor = _mm512_max_epu64(
      cursor,
      _mm512_permutexvar_epi64(_mm512_set1_epi64(Block::kLanes - 1), upTo));
  return true;
}

MEMPLAN_AVX512 void walkEightLanes(const OffsetOrderedList &list,
                                   uint32_t first, uint32_t last,
                                   GapSearch &search) {
  const __m512i firstQuery = _mm512_set1_epi32(static_cast<int32_t>(first));
  const __m512i lastQuery = _mm512_set1_epi32(static_cast<int32_t>(last));
  const __m512i size = _mm512_set1_epi64(search.size);
  __m512i bound = _mm512_set1_epi64(search.bestGap - search.size);
  __m512i cursor = _mm512_set1_epi64(search.cursor); // in every lane
  for (size_t position = 0, blocks = list.blockCount(); position < blocks;
       ++position) {
    const Block &block = list.block(position);
    alignas(16) uint8_t rowMasks[Block::kMaxRows];
    uint32_t meetsAny;
    __m512i laneTops =
        firstPass(block, firstQuery, lastQuery, rowMasks, meetsAny);
    if (meetsAny &&
        !secondPass(block, rowMasks, laneTops, size, bound, cursor, search))
      return;
  }
  search.cursor =
      static_cast<uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(cursor)));
}

/// SplitGapWalk's first pass over blocks [begin, end), keeping each block's
/// masks and lanes' tops in `kept`; the highest top among them.
MEMPLAN_AVX512 uint64_t firstPassEightLanes(const OffsetOrderedList &list,
                                            size_t begin, size_t end,
                                            uint32_t first, uint32_t last,
                                            SplitGapWalk::Kept *kept) {
  const __m512i firstQuery = _mm512_set1_epi32(static_cast<int32_t>(first));
  const __m512i lastQuery = _mm512_set1_epi32(static_cast<int32_t>(last));
  __m512i rangeTop = _mm512_setzero_si512();
  for (size_t position = begin; position < end; ++position) {
    SplitGapWalk::Kept &block = kept[position - begin];
    uint32_t meetsAny;
    __m512i laneTops = firstPass(list.block(position), firstQuery, lastQuery,
                                 block.rowMasks, meetsAny);
    block.meets = meetsAny != 0;
    _mm512_store_si512(block.laneTops, laneTops);
    rangeTop = _mm512_max_epu64(rangeTop, laneTops);
  }
  alignas(64) uint64_t tops[Block::kLanes];
  _mm512_store_si512(tops, rangeTop);
  return *std::max_element(tops, tops + Block::kLanes);
}

/// SplitGapWalk's second pass over blocks [begin, end).
MEMPLAN_AVX512 void secondPassEightLanes(const OffsetOrderedList &list,
                                         size_t begin, size_t end,
                                         const SplitGapWalk::Kept *kept,
                                         GapSearch &search) {
  const __m512i size = _mm512_set1_epi64(search.size);
  __m512i bound = _mm512_set1_epi64(search.bestGap - search.size);
  __m512i cursor = _mm512_set1_epi64(search.cursor);
  for (size_t position = begin; position < end; ++position) {
    const SplitGapWalk::Kept &block = kept[position - begin];
    if (block.meets && !secondPass(list.block(position), block.rowMasks,
                                   _mm512_load_si512(block.laneTops), size,
                                   bound, cursor, search))
      return;
  }
  search.cursor =
      static_cast<uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(cursor)));
}

#endif // MEMPLAN_VECTOR_GAP_WALK

} // namespace

bool memplan::hasVectorGapWalk() {
#if MEMPLAN_VECTOR_GAP_WALK
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
#else
  return false;
#endif
}

void memplan::walkGaps(const OffsetOrderedList &list, uint32_t first,
                       uint32_t last, GapSearch &search, bool vector) {
#if MEMPLAN_VECTOR_GAP_WALK
  if (vector && hasVectorGapWalk()) {
    walkEightLanes(list, first, last, search);
    return;
  }
#endif
  walkPortably(list, 0, list.blockCount(), first, last, search);
}

uint64_t SplitGapWalk::firstPass(const OffsetOrderedList &list, size_t begin,
                                 size_t end, uint32_t first, uint32_t last,
                                 bool vector) {
  list_ = &list;
  begin_ = begin;
  end_ = end;
  first_ = first;
  last_ = last;
  vector_ = false;
#if MEMPLAN_VECTOR_GAP_WALK
  if (vector && hasVectorGapWalk()) {
    vector_ = true;
    if (kept.size() < end - begin)
      kept.resize(end - begin);
    return firstPassEightLanes(list, begin, end, first, last, kept.data());
  }
#endif
  (void)vector;
  uint64_t top = 0;
  list.forEachMeetingIn(begin, end, first, last,
                        [&](uint64_t, uint64_t entryTop) {
                          top = std::max(top, entryTop);
                          return true;
                        });
  return top;
}

void SplitGapWalk::secondPass(GapSearch &search) const {
#if MEMPLAN_VECTOR_GAP_WALK
  if (vector_) {
    secondPassEightLanes(*list_, begin_, end_, kept.data(), search);
    return;
  }
#endif
  walkPortably(*list_, begin_, end_, first_, last_, search);
}
