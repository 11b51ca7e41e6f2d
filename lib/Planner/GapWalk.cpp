//===- GapWalk.cpp - The gap walk over every placed buffer ----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The vector walk. The portable walk's cost is a chain through the cursor,
// one neighbour at a time (a dependent maximum and a rarely taken test, about
// seven cycles each on the trace family, docs/benchmarks.md). Here a block's
// 16 lanes, each a run of consecutive entries (OffsetOrderedList.h), are
// followed at once, in two passes over the block's rows:
//
//  1. which entries meet the buffer, and each lane's highest top among them;
//     a prefix maximum over the lanes then gives each lane's cursor at its
//     first entry, as the portable walk would have it;
//  2. row by row, every entry's gap from its lane's cursor, tested against
//     the search's best so far, and the lanes' cursors raised by the row.
//
// Both passes read the block's near offsets and tops: distances from its
// base plus 2^31, in 32 bits, exact in a block that is not wide
// (OffsetOrderedList.h). The cursor enters a block exactly where it lies
// less than 2^31 bytes below the base; further below, it enters as 0, so
// that the gaps it opens are taken short, but still of at least 2^31
// bytes, more than any buffer this walk places: such a gap passes the test
// wherever the exact one would, and the search, fed exact offsets and
// cursors, decides. A wide block, and a buffer of 2^31 bytes or more
// (which no gap between near values holds), take a 64-bit walk instead
// (walkWide), the same passes on eight lanes of 64 bits at a time.
//
// Where the test passes for some entry (a few percent of the blocks), the
// block's candidates go to the search in offset order with their cursors,
// and it decides as the portable walk would have: the best only falls, so
// an entry that fails against the block's starting best fails at its turn.
//
// The project builds for baseline x86-64, so the walk is compiled for
// AVX-512 on its own (a function attribute) and chosen at run time. Its 16
// lanes of 32 bits took a sixth less time per entry than eight lanes of
// AVX2 on the same blocks (docs/benchmarks.md): as many operations a row,
// on twice the entries.
//
//===----------------------------------------------------------------------===//

#include "GapWalk.h"

#include "llvm/Support/Compiler.h"

#include <algorithm>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MEMPLAN_VECTOR_GAP_WALK 1
// GCC 12 warns that the AVX-512 intrinsics' own placeholder operands
// (_mm512_undefined_epi32) are or may be used uninitialized once inlined:
// its bug 105593, fixed in GCC 13. The warning is reported at the header's
// lines.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
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
using Exact = OffsetOrderedList::Exact;

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

using RowMask = Block::RowMask;

/// What the walk knows of a buffer: its slots and size, as vectors.
struct Query {
  __m512i first, last, size;
  __m512i belowHalf; // 2^31 - size
  /// A buffer of 2^31 bytes or more: no gap between near values holds it,
  /// so every block takes the 64-bit walk (walkWide).
  bool wide;
};

MEMPLAN_AVX512 inline Query queryFor(uint32_t first, uint32_t last,
                                     uint64_t size) {
  bool wide = size >= Block::kBias;
  return {
      _mm512_set1_epi32(static_cast<int32_t>(first)),
      _mm512_set1_epi32(static_cast<int32_t>(last)),
      _mm512_set1_epi32(static_cast<int32_t>(wide ? 0 : size)),
      _mm512_set1_epi32(static_cast<int32_t>(wide ? 0 : Block::kBias - size)),
      wide};
}

/// Pass 1 over `block`: which of its entries meet the buffer (`meets`, one
/// mask per row) and each lane's highest near top among them (returned);
/// `meetsAny` whether any does. A row past the block's holds zeros and
/// meets nothing.
MEMPLAN_AVX512 inline __m512i firstPass(const Block &block, const Query &query,
                                        RowMask (&meets)[Block::kMaxRows],
                                        bool &meetsAny) {
  __m512i laneTops = _mm512_setzero_si512();
  uint32_t any = 0;
  for (uint32_t row = 0; row < block.rows; ++row) {
    uint32_t at = row * Block::kLanes;
    __mmask16 meet = _mm512_mask_cmplt_epu32_mask(
        _mm512_cmpgt_epu32_mask(_mm512_load_si512(block.last + at),
                                query.first),
        _mm512_load_si512(block.first + at), query.last);
    meets[row] = meet;
    any |= meet;
    laneTops = _mm512_mask_max_epu32(laneTops, meet, laneTops,
                                     _mm512_load_si512(block.nearTop + at));
  }
  for (uint32_t row = block.rows; row < Block::kMaxRows; ++row)
    meets[row] = 0;
  meetsAny = any != 0;
  return laneTops;
}

/// The highest near top of `laneTops`' lanes; in `inclusive` each lane's
/// highest among it and the lanes before it.
MEMPLAN_AVX512 inline uint32_t prefixMaxima(__m512i laneTops,
                                            __m512i &inclusive) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i upTo =
      _mm512_max_epu32(laneTops, _mm512_alignr_epi32(laneTops, zero, 15));
  upTo = _mm512_max_epu32(upTo, _mm512_alignr_epi32(upTo, zero, 14));
  upTo = _mm512_max_epu32(upTo, _mm512_alignr_epi32(upTo, zero, 12));
  upTo = _mm512_max_epu32(upTo, _mm512_alignr_epi32(upTo, zero, 8));
  inclusive = upTo;
  return static_cast<uint32_t>(
      _mm_extract_epi32(_mm512_extracti32x4_epi32(upTo, 3), 3));
}

/// `value`'s near form in a block of base `base`, capped at 0 below (the
/// cursor far below the block) and at 2^32 - 1 above.
inline uint32_t nearCursor(uint64_t value, uint64_t base) {
  if (value >= base)
    return Block::near(value, base);
  uint64_t below = base - value;
  return below >= Block::kBias ? 0
                               : static_cast<uint32_t>(Block::kBias - below);
}

/// The test's bound for the search's best so far: a near gap g passes where
/// g - size, as a 32-bit number, is below the result (size <= g < best, as
/// GapSearch::consider tests it; g is below 2^32, so a best beyond that is
/// no bound).
MEMPLAN_AVX512 inline __m512i boundFor(const GapSearch &search) {
  uint64_t bound = std::min<uint64_t>(search.bestGap - search.size,
                                      (uint64_t(1) << 32) - search.size);
  return _mm512_set1_epi32(static_cast<int32_t>(bound));
}

/// One row of pass 2: the entries of `row` that meet the buffer (`meets`)
/// and whose near gaps from their lanes' `cursors` pass the test against
/// `bound`; `cursors` is then raised by the row's meeting entries. A gap
/// is the offset less the cursor, or 0 where the cursor lies above the
/// offset; with `Wraps`, that difference is taken as it wraps instead (one
/// operation fewer), which the caller allows only where the test cannot
/// pass on a wrapped difference (secondPass).
template <bool Wraps>
MEMPLAN_AVX512 inline __mmask16 testRow(const Block &block, uint32_t row,
                                        __mmask16 meets, const Query &query,
                                        __m512i bound, __m512i &cursors) {
  uint32_t at = row * Block::kLanes;
  __m512i offsets = _mm512_load_si512(block.nearOffset + at);
  __m512i gaps = _mm512_sub_epi32(
      offsets, Wraps ? cursors : _mm512_min_epu32(offsets, cursors));
  __mmask16 passes = _mm512_mask_cmplt_epu32_mask(
      meets, _mm512_sub_epi32(gaps, query.size), bound);
  cursors = _mm512_mask_max_epu32(cursors, meets, cursors,
                                  _mm512_load_si512(block.nearTop + at));
  return passes;
}

/// Pass 2's test over a block's rows from the lanes' cursors at their
/// first entries: whether any entry passes; with `rows` and
/// `slotCursors`, each row's passing entries and each entry's cursor.
template <bool Wraps>
MEMPLAN_AVX512 inline bool
testRows(const Block &block, const RowMask (&meets)[Block::kMaxRows],
         const Query &query, __m512i bound, __m512i cursors,
         RowMask *rows = nullptr, uint32_t *slotCursors = nullptr) {
  uint32_t any = 0;
  for (uint32_t row = 0; row < block.rows; ++row) {
    if (slotCursors)
      _mm512_store_si512(slotCursors + row * Block::kLanes, cursors);
    RowMask passes =
        testRow<Wraps>(block, row, meets[row], query, bound, cursors);
    if (rows)
      rows[row] = passes;
    any |= passes;
  }
  return any != 0;
}

/// A block's 64-bit offsets and tops, eight lanes at a time (lanes 8 * half
/// to 8 * half + 7 of a row): a wide block's exact values, or a block's
/// near values widened.
struct WideRows {
  const Block &block;
  const Exact *exact;

  MEMPLAN_AVX512 __m512i offsets(uint32_t row, uint32_t half) const {
    uint32_t at = row * Block::kLanes + 8 * half;
    return exact ? _mm512_loadu_si512(exact->offset + at)
                 : widen(block.nearOffset + at);
  }
  MEMPLAN_AVX512 __m512i tops(uint32_t row, uint32_t half) const {
    uint32_t at = row * Block::kLanes + 8 * half;
    return exact ? _mm512_loadu_si512(exact->top + at)
                 : widen(block.nearTop + at);
  }
  MEMPLAN_AVX512 __m512i widen(const uint32_t *near) const {
    return _mm512_add_epi64(
        _mm512_cvtepu32_epi64(
            _mm256_load_si256(reinterpret_cast<const __m256i *>(near))),
        _mm512_set1_epi64(static_cast<int64_t>(block.base - Block::kBias)));
  }
};

/// Each lane's highest 64-bit top among the entries of a block that `meets`
/// marks: lanes 0-7 in tops[0], 8-15 in tops[1].
MEMPLAN_AVX512 inline void wideLaneTops(const WideRows &rows,
                                        const RowMask (&meets)[Block::kMaxRows],
                                        __m512i (&tops)[2]) {
  tops[0] = tops[1] = _mm512_setzero_si512();
  for (uint32_t row = 0; row < rows.block.rows; ++row)
    for (uint32_t half = 0; half < 2; ++half)
      tops[half] = _mm512_mask_max_epu64(
          tops[half], static_cast<__mmask8>(meets[row] >> (8 * half)),
          tops[half], rows.tops(row, half));
}

/// The 64-bit walk over one block, for a wide block or a buffer of 2^31
/// bytes or more: pass 1's lane maxima, the prefix over the lanes and
/// pass 2 as in secondPass, on eight lanes of 64 bits at a time, with no
/// near values to reason about. `meets` marks the entries that meet the
/// buffer; `cursor` rises past the block. False once the search is
/// decided (its cursor then where it stopped).
MEMPLAN_AVX512 bool walkWide(const WideRows &rows,
                             const RowMask (&meets)[Block::kMaxRows],
                             uint64_t &cursor, GapSearch &search) {
  const Block &block = rows.block;
  const __m512i zero = _mm512_setzero_si512();
  // Each half's lanes' highest tops, then prefix maxima over the 16 lanes.
  __m512i upTo[2];
  wideLaneTops(rows, meets, upTo);
  for (__m512i &lanes : upTo) {
    lanes = _mm512_max_epu64(lanes, _mm512_alignr_epi64(lanes, zero, 7));
    lanes = _mm512_max_epu64(lanes, _mm512_alignr_epi64(lanes, zero, 6));
    lanes = _mm512_max_epu64(lanes, _mm512_alignr_epi64(lanes, zero, 4));
  }
  upTo[1] = _mm512_max_epu64(
      upTo[1], _mm512_permutexvar_epi64(_mm512_set1_epi64(7), upTo[0]));
  const __m512i in = _mm512_set1_epi64(static_cast<int64_t>(cursor));
  const __m512i laneCursors[2] = {
      _mm512_max_epu64(_mm512_alignr_epi64(upTo[0], zero, 7), in),
      _mm512_max_epu64(_mm512_alignr_epi64(upTo[1], upTo[0], 7), in)};
  const __m512i size = _mm512_set1_epi64(static_cast<int64_t>(search.size));
  const __m512i bound =
      _mm512_set1_epi64(static_cast<int64_t>(search.bestGap - search.size));

  // Pass 2; where some entry passes, again, keeping each row's candidates
  // and each entry's cursor.
  alignas(64) uint64_t slotCursors[Block::kCapacity];
  RowMask candidates[Block::kMaxRows] = {};
  auto test = [&](bool keep) MEMPLAN_AVX512 {
    uint32_t any = 0;
    __m512i cursors[2] = {laneCursors[0], laneCursors[1]};
    for (uint32_t row = 0; row < block.rows; ++row) {
      RowMask passing = 0;
      for (uint32_t half = 0; half < 2; ++half) {
        uint32_t at = row * Block::kLanes + 8 * half;
        __mmask8 meet = static_cast<__mmask8>(meets[row] >> (8 * half));
        if (keep)
          _mm512_store_si512(slotCursors + at, cursors[half]);
        __m512i offsets = rows.offsets(row, half);
        __m512i gaps =
            _mm512_sub_epi64(offsets, _mm512_min_epu64(offsets, cursors[half]));
        passing |= RowMask(_mm512_mask_cmplt_epu64_mask(
                       meet, _mm512_sub_epi64(gaps, size), bound))
                   << (8 * half);
        cursors[half] = _mm512_mask_max_epu64(
            cursors[half], meet, cursors[half], rows.tops(row, half));
      }
      if (keep)
        candidates[row] = passing;
      any |= passing;
    }
    return any != 0;
  };
  if (test(false)) {
    test(true);
    bool going =
        OffsetOrderedList::forEachInOffsetOrder(candidates, [&](uint32_t slot) {
          uint64_t offset = rows.exact ? rows.exact->offset[slot]
                                       : block.far(block.nearOffset[slot]);
          if (search.consider(offset, slotCursors[slot]))
            return true;
          search.cursor = slotCursors[slot]; // where the portable walk stops
          return false;
        });
    if (!going)
      return false;
  }
  alignas(64) uint64_t highest[8];
  _mm512_store_si512(highest, upTo[1]);
  cursor = std::max(cursor, highest[7]);
  return true;
}

/// The highest 64-bit top among the entries of a wide block that `meets`
/// marks.
MEMPLAN_AVX512 uint64_t
highestWideTop(const WideRows &rows, const RowMask (&meets)[Block::kMaxRows]) {
  __m512i tops[2];
  wideLaneTops(rows, meets, tops);
  alignas(64) uint64_t lanes[8];
  _mm512_store_si512(lanes, _mm512_max_epu64(tops[0], tops[1]));
  return *std::max_element(lanes, lanes + 8);
}

/// The highest top among the entries of a block that `meets` marks (at
/// least one), the highest of whose near tops is `highest`; `exact` the
/// block's exact values where it is wide (its near tops are then capped).
MEMPLAN_AVX512 inline uint64_t
highestTop(const Block &block, const Exact *exact,
           const RowMask (&meets)[Block::kMaxRows], uint32_t highest) {
  if (LLVM_LIKELY(!exact))
    return block.far(highest);
  return highestWideTop({block, exact}, meets);
}

/// Pass 2 over `block`, whose meeting entries `meets` marks and whose
/// lanes' highest near tops are `laneTops`, from `cursor` (exact) at its
/// first entry: the search decides on the block's candidates, if any
/// (`bound` follows its best), and `cursor` rises past the block. False
/// once the search is decided (its cursor then where it stopped).
MEMPLAN_AVX512 LLVM_ATTRIBUTE_ALWAYS_INLINE bool
secondPass(const Block &block, const Exact *exact,
           const RowMask (&meets)[Block::kMaxRows], __m512i laneTops,
           const Query &query, __m512i &bound, uint64_t &cursor,
           GapSearch &search) {
  if (LLVM_UNLIKELY(exact != nullptr || query.wide)) {
    if (!walkWide({block, exact}, meets, cursor, search))
      return false;
    bound = boundFor(search);
    return true;
  }
  __m512i upTo;
  uint32_t highest = prefixMaxima(laneTops, upTo);
  const uint32_t entering = nearCursor(cursor, block.base);
  // Each lane's cursor at its first entry: that of the lanes before it, or
  // the walk's.
  const __m512i laneCursors =
      _mm512_max_epu32(_mm512_alignr_epi32(upTo, _mm512_setzero_si512(), 15),
                       _mm512_set1_epi32(static_cast<int32_t>(entering)));

  // Row by row, each entry's gap from its lane's cursor, tested against
  // the best so far, and the lanes' cursors raised by the row. Nothing is
  // stored: few blocks hold a candidate, and those are gone over again.
  //
  // The offsets lie in [2^31, 2^32) and the cursors below 2^32, so a
  // cursor above an offset wraps the difference to more than 2^31 less the
  // size. Where every cursor lies at the base or above (entering at 2^31
  // or more), every gap is below 2^31; where the best so far is at most
  // 2^31, no gap of 2^31 or more passes. In either case a bound of at
  // most 2^31 less the size passes exactly the gaps the exact test would,
  // and no wrapped difference: the difference is taken as it wraps.
  const bool wraps = entering >= Block::kBias || search.bestGap <= Block::kBias;
  const __m512i testBound =
      wraps ? _mm512_min_epu32(bound, query.belowHalf) : bound;
  bool anyCandidate =
      wraps ? testRows<true>(block, meets, query, testBound, laneCursors)
            : testRows<false>(block, meets, query, testBound, laneCursors);
  if (LLVM_UNLIKELY(anyCandidate)) {
    // Again, keeping each row's candidates and each entry's cursor.
    alignas(64) uint32_t slotCursors[Block::kCapacity];
    RowMask rows[Block::kMaxRows] = {};
    if (wraps)
      testRows<true>(block, meets, query, testBound, laneCursors, rows,
                     slotCursors);
    else
      testRows<false>(block, meets, query, testBound, laneCursors, rows,
                      slotCursors);
    const uint64_t in = cursor;
    bool going =
        OffsetOrderedList::forEachInOffsetOrder(rows, [&](uint32_t slot) {
          uint32_t near = slotCursors[slot];
          // No top raised it: the walk's cursor, exact even where it
          // entered capped.
          uint64_t at = near <= entering ? in : block.far(near);
          if (search.consider(block.far(block.nearOffset[slot]), at))
            return true;
          search.cursor = at; // where the portable walk stops
          return false;
        });
    if (!going)
      return false;
    bound = boundFor(search);
  }
  cursor = std::max(cursor, highestTop(block, exact, meets, highest));
  return true;
}

/// The blocks at positions [begin, end) of `list`, walked from the
/// search's cursor.
MEMPLAN_AVX512 void walkBlocks(const OffsetOrderedList &list, size_t begin,
                               size_t end, uint32_t first, uint32_t last,
                               GapSearch &search) {
  const Query query = queryFor(first, last, search.size);
  __m512i bound = boundFor(search);
  uint64_t cursor = search.cursor;
  for (size_t position = begin; position < end; ++position) {
    const Block &block = list.block(position);
    RowMask meets[Block::kMaxRows];
    bool meetsAny;
    __m512i laneTops = firstPass(block, query, meets, meetsAny);
    if (meetsAny && !secondPass(block, list.exactOf(block), meets, laneTops,
                                query, bound, cursor, search))
      return;
  }
  search.cursor = cursor;
}

/// SplitGapWalk's first pass over blocks [begin, end), keeping each block's
/// lanes' highest near tops and rows' masks in `kept`: the highest top
/// among their entries that meet [first, last).
MEMPLAN_AVX512 uint64_t firstPassKeeping(const OffsetOrderedList &list,
                                         size_t begin, size_t end,
                                         uint32_t first, uint32_t last,
                                         SplitGapWalk::Kept *kept) {
  const Query query = queryFor(first, last, 0);
  uint64_t top = 0;
  for (size_t position = begin; position < end; ++position) {
    const Block &block = list.block(position);
    SplitGapWalk::Kept &keep = kept[position - begin];
    bool meetsAny;
    __m512i laneTops = firstPass(block, query, keep.rowMasks, meetsAny);
    keep.meets = meetsAny;
    if (!meetsAny)
      continue;
    _mm512_store_si512(keep.laneTops, laneTops);
    __m512i upTo;
    top = std::max(top, highestTop(block, list.exactOf(block), keep.rowMasks,
                                   prefixMaxima(laneTops, upTo)));
  }
  return top;
}

/// SplitGapWalk's second pass over blocks [begin, end), from what the first
/// kept.
MEMPLAN_AVX512 void secondPassKept(const OffsetOrderedList &list, size_t begin,
                                   size_t end, const SplitGapWalk::Kept *kept,
                                   uint32_t first, uint32_t last,
                                   GapSearch &search) {
  const Query query = queryFor(first, last, search.size);
  __m512i bound = boundFor(search);
  uint64_t cursor = search.cursor;
  for (size_t position = begin; position < end; ++position) {
    const SplitGapWalk::Kept &keep = kept[position - begin];
    if (!keep.meets)
      continue;
    const Block &block = list.block(position);
    if (!secondPass(block, list.exactOf(block), keep.rowMasks,
                    _mm512_load_si512(keep.laneTops), query, bound, cursor,
                    search))
      return;
  }
  search.cursor = cursor;
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
    walkBlocks(list, 0, list.blockCount(), first, last, search);
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
    return firstPassKeeping(list, begin, end, first, last, kept.data());
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
    secondPassKept(*list_, begin_, end_, kept.data(), first_, last_, search);
    return;
  }
#endif
  walkPortably(*list_, begin_, end_, first_, last_, search);
}
