//===- OffsetPlacement.cpp - Best-gap placement among placed buffers ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OffsetPlacement.h"

#include "memplan/Planner/GreedyAlgorithms.h"

#include "GapSearch.h"
#include "GapWalk.h"
#include "IntervalStabber.h"
#include "OffsetOrderedList.h"
#include "RadixSort.h"
#include "RunInParallel.h"
#include "SlotSet.h"
#include "TimeAxis.h"
#include "TimeLocalOrder.h"
#include "TimeWindowedLists.h"
#include "WalkTeam.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>
#include <thread>

using namespace memplan;

namespace {

/// Counts of placed buffers by slot, with prefix sums in O(log slots): a
/// Fenwick tree (LLVM Support has none).
class SlotCounts {
public:
  explicit SlotCounts(size_t slots) : tree(slots + 1, 0) {}
  void add(size_t slot, int32_t delta) {
    for (size_t i = slot + 1; i < tree.size(); i += i & (~i + 1))
      tree[i] += delta;
  }
  /// Placed buffers counted at slots [0, slot).
  uint32_t before(size_t slot) const {
    uint32_t sum = 0;
    for (size_t i = std::min(slot, tree.size() - 1); i; i &= i - 1)
      sum += tree[i];
    return sum;
  }

private:
  std::vector<uint32_t> tree;
};

/// The walk over every placed buffer is taken where the neighbours are at
/// least 1 / kScanAdvantage of the placed buffers. Per placed buffer it
/// costs about a fortieth of what collecting and sorting costs per
/// neighbour (a prototype on the trace family, docs/benchmarks.md; the
/// eight-lane walk of GapWalk.cpp less still); 16 leans to the segment
/// tree, and from 8 to 128 the trace family planned in the same time (from
/// 8 to 64 with the eight-lane walk).
constexpr size_t kScanAdvantage = 16;

/// The choice of windows of time for the walk (Impl::chooseWindows): what
/// one more list met costs, in entries walked; the fewest buffers a window
/// holds on average; the shortest window; how many buffers the estimate
/// looks at. Per list met, a placement walks a list not used recently (its
/// first lines come from memory) and inserts into it: fitted to the random
/// workload (docs/benchmarks.md: from 10,000 to 1,000,000 buffers, windows
/// of 128 slots planned fastest, 1.3-1.4 s at a million against 2.2 s with
/// the 32 that a cost of 32 entries chose), a list costs about as much as
/// a thousand entries walked.
constexpr uint64_t kListCost = 1024;
constexpr uint64_t kMinWindowEntries = 64;
constexpr uint64_t kMinWindowSlots = 8;
constexpr size_t kWindowSample = 1 << 16;

/// Nested windows beside one list (Impl::chooseNesting) are taken where
/// their estimated work (the entries walked, plus kListCost per nested list
/// a placed buffer goes into) is at most kNestingGain[0] / kNestingGain[1]
/// of the walks over the whole list: they take memory (a list per window)
/// and a cache that held one list now holds several. On the trace family
/// (docs/benchmarks.md) the windows of a quarter of the schedule the
/// estimate chooses took greedy by size from 0.51-0.57 s to 0.41-0.43 s.
constexpr uint64_t kNestingGain[2] = {3, 4};
/// The most entries the nested lists may hold together, in lists of every
/// buffer: a long lifetime is copied into every window it meets.
constexpr uint64_t kMaxNestedCopies = 8;

/// The order that sweeps along the time axis (Impl::cacheFriendlyOrder):
/// from how many buffers it pays, and how many placements it aims at per
/// window and chunk, in chunks of at least and at most the given sizes, and
/// the most pairs that meet per buffer of a chunk (estimated).
/// Measured on the random workload (docs/benchmarks.md): at 100,000
/// buffers the lists fit in the cache and it gains nothing; at 300,000 the
/// placements took 0.33 s in size order and 0.24 s with the sweep, at
/// 1,000,000 2.0-2.2 s and 0.8-0.9 s (the sweep included). Larger chunks
/// read each list fewer times but have more pairs that meet.
constexpr size_t kTimeLocalMinBuffers = size_t(1) << 17;
constexpr size_t kTimeLocalPerWindow = 16;
constexpr size_t kTimeLocalMinChunk = 4096;
constexpr size_t kTimeLocalMaxChunk = size_t(1) << 16;
constexpr size_t kTimeLocalMaxPairs = 64;

} // namespace

struct OffsetPlacement::Impl {
  Impl(const Problem &problem, NeighbourSearch search, unsigned threads)
      : problem(problem), axis(problem), offsets(problem.buffers.size(), 0) {
    first.reserve(problem.buffers.size());
    last.reserve(problem.buffers.size());
    uint64_t occupied = 0, nonEmpty = 0;
    size_t longest = 0;
    for (const Buffer &buffer : problem.buffers) {
      first.push_back(axis.rank(buffer.start));
      last.push_back(axis.rank(buffer.end));
      if (buffer.size == 0)
        continue; // never placed in the structures
      occupied += last.back() - first.back();
      longest = std::max(longest, last.back() - first.back());
      ++nonEmpty;
    }
    nonEmptyCount = nonEmpty;
    chooseWalk(search, occupied, nonEmpty, longest);
    if (collects)
      buildCollecting();
    // A team only where one list holds enough buffers for its walks to be
    // shared (WalkTeam::pays, with every buffer placed), and of no more
    // threads than the machine runs at once: they wait for each other by
    // spinning (WalkTeam.h).
    threads =
        threadsFor(threads, std::max(1u, std::thread::hardware_concurrency()));
    if (threads > 1 && byOffset && byOffset->windowCount() == 1 &&
        nonEmpty >= WalkTeam::kBlocksPerThread * threads *
                        OffsetOrderedList::Block::kCapacity / 2)
      team.emplace(threads);
  }

  /// Builds the walk over the placed buffers (byOffset) where it can pay.
  /// A placement walks the lists of the windows of time it meets
  /// (TimeWindowedLists.h), passing over about half of their entries (half
  /// of the buffers are placed before it, on average) and paying for each
  /// list (chooseWindows), where collecting meets about the buffers live at
  /// a slot. With one list for the whole schedule each
  /// placement then takes the cheaper way (collecting stays); with windows,
  /// every placement walks.
  void chooseWalk(NeighbourSearch search, uint64_t occupied, uint64_t nonEmpty,
                  size_t longest) {
    if (search == NeighbourSearch::Collect ||
        axis.size() >= OffsetOrderedList::kMaxSlots || nonEmpty == 0)
      return;
    uint32_t slots = static_cast<uint32_t>(axis.size());
    const std::vector<uint32_t> sampled = sampleBuffers();
    auto [windows, walked, met] = chooseWindows(slots, nonEmpty, sampled);
    bool dense = (occupied / slots + 1) * kScanAdvantage >= walked;
    entriesMet = met;
    if (search == NeighbourSearch::Auto && !dense)
      return;
    if (search == NeighbourSearch::WindowedScan ||
        search == NeighbourSearch::WindowedPortableScan)
      windows = TimeWindows(slots, static_cast<uint32_t>(longest / 2));
    if (search == NeighbourSearch::NestedScan)
      windows = TimeWindows(slots, slots);
    byOffset.emplace(windows);
    if (search == NeighbourSearch::NestedScan)
      byOffset->nest(TimeWindows(slots, (slots + 3) / 4));
    else if (windows.windowCount() == 1)
      if (std::optional<TimeWindows> nested =
              chooseNesting(slots, nonEmpty, sampled))
        byOffset->nest(*nested);
    vectorWalk = search != NeighbourSearch::PortableScan &&
                 search != NeighbourSearch::WindowedPortableScan;
    collects = search == NeighbourSearch::Auto && windows.windowCount() == 1;
    if (collects) {
      placedByFirst.emplace(axis.size());
      placedByLast.emplace(axis.size() + 1);
    }
  }

  /// What the choices of windows estimate on: up to kWindowSample of the
  /// non-empty buffers, spread over the problem.
  std::vector<uint32_t> sampleBuffers() const {
    size_t stride = std::max<size_t>(1, problem.buffers.size() / kWindowSample);
    std::vector<uint32_t> sampled;
    for (size_t id = 0; id < problem.buffers.size(); id += stride)
      if (problem.buffers[id].size != 0)
        sampled.push_back(static_cast<uint32_t>(id));
    return sampled;
  }

  /// The windows of least cost per placement (the entries its walks pass
  /// over, plus kListCost per window met), that cost, and the entries of
  /// the windows a placement meets once all are placed: one list, or windows of
  /// a power of two of slots, estimated on `sampled` (sampleBuffers). Windows
  /// are taken only where they at least halve the work (one list keeps the
  /// choice between walking and collecting per placement), and each holds
  /// kMinWindowEntries buffers or more on average (a list costs a block).
  struct WindowChoice {
    TimeWindows windows;
    uint64_t work;
    double entriesMet;
  };
  WindowChoice chooseWindows(uint32_t slots, uint64_t nonEmpty,
                             const std::vector<uint32_t> &sampled) const {
    struct Estimate {
      uint64_t work = 0, population = 0; // entries per window
      double entriesMet = 0;             // per placement
    };
    auto estimate = [&](const TimeWindows &windows) {
      uint64_t met = 0;
      for (uint32_t id : sampled)
        met += windows.windowsMet(first[id], last[id]);
      Estimate result;
      if (sampled.empty())
        return result;
      // Windows met per placement, entries per window (scaled from the
      // sample to every buffer).
      double perPlacement = double(met) / sampled.size();
      result.population =
          uint64_t(perPlacement * nonEmpty / windows.windowCount() + 0.5);
      result.entriesMet = perPlacement * result.population;
      result.work =
          uint64_t(perPlacement *
                   (result.population / 2.0 +
                    (windows.windowCount() > 1 ? double(kListCost) : 0.0)));
      return result;
    };
    TimeWindows best(slots, slots);
    Estimate single = estimate(best), bestEstimate = single;
    for (uint64_t step = kMinWindowSlots; step * 2 <= slots; step *= 2) {
      TimeWindows windows(slots, static_cast<uint32_t>(step));
      Estimate candidate = estimate(windows);
      if (candidate.population >= kMinWindowEntries &&
          candidate.work * 2 <= single.work &&
          candidate.work < bestEstimate.work) {
        best = windows;
        bestEstimate = candidate;
      }
    }
    return {best, bestEstimate.work, bestEstimate.entriesMet};
  }

  /// Nested windows for one list (TimeWindowedLists.h), if any pay: of the
  /// windows of a power of two of slots (at least kMinWindowSlots, fewer
  /// than the slots, each window holding kMinWindowEntries buffers or more
  /// on average), those whose estimated work per placement is least, where
  /// it is at most kNestingGain of a walk over half of the buffers (half
  /// are placed before a placement, on average). A placement within one
  /// window walks half of the buffers meeting it, any other half of all;
  /// each nested list a buffer goes into costs kListCost (so none pays
  /// where that is already most of a walk over the whole), and together
  /// they hold at most kMaxNestedCopies times the buffers. Estimated on
  /// `sampled` (sampleBuffers), from the longest windows down, until the
  /// estimate rises from one to the next.
  std::optional<TimeWindows>
  chooseNesting(uint32_t slots, uint64_t nonEmpty,
                const std::vector<uint32_t> &sampled) const {
    const double whole = nonEmpty / 2.0;
    double bestWork = whole * kNestingGain[0] / kNestingGain[1];
    if (double(kListCost) >= bestWork || slots <= kMinWindowSlots ||
        sampled.empty())
      return std::nullopt;
    const double scale = double(nonEmpty) / sampled.size();
    std::optional<TimeWindows> best;
    std::vector<int64_t> population;
    double previousWork = whole;
    for (uint32_t shift = llvm::Log2_32(slots - 1);
         (uint64_t(1) << shift) >= kMinWindowSlots; --shift) {
      size_t count = ((slots - 1) >> shift) + 1;
      if (count < 2 || nonEmpty < kMinWindowEntries * count)
        break;
      // Each window's sampled buffers: +1 at the first window a buffer
      // meets, -1 past its last, summed.
      population.assign(count + 1, 0);
      for (uint32_t id : sampled) {
        ++population[first[id] >> shift];
        --population[((last[id] - 1) >> shift) + 1];
      }
      for (size_t w = 1; w < population.size(); ++w)
        population[w] += population[w - 1];
      double work = 0, copies = 0;
      for (uint32_t id : sampled) {
        size_t w = first[id] >> shift, end = (last[id] - 1) >> shift;
        work += (w == end ? population[w] * scale / 2.0 : whole) +
                double(end - w + 1) * kListCost;
        copies += double(end - w + 1);
      }
      if (copies * scale > double(kMaxNestedCopies) * nonEmpty)
        break; // and more in shorter windows
      work /= sampled.size();
      if (work < bestWork) {
        best = TimeWindows(slots, uint32_t(1) << shift);
        bestWork = work;
      }
      if (work > previousWork)
        break; // rising: more lists met, fewer placements within one
      previousWork = work;
    }
    return best;
  }

  /// The structures that collect a placement's neighbours: a segment tree
  /// over the slots for those live at its start, buckets by start slot
  /// (contiguous, filled in placement order) for those starting inside it.
  void buildCollecting() {
    pendingAt.assign(problem.buffers.size(), kNotPending);
    stabber.emplace(axis.size());
    startBegin.assign(axis.size() + 1, 0);
    startFilled.assign(axis.size(), 0);
    startRanks.emplace(axis.size());
    for (size_t id = 0; id < problem.buffers.size(); ++id) {
      if (problem.buffers[id].size == 0)
        continue;
      stabber->count(first[id], last[id]);
      ++startBegin[first[id] + 1];
    }
    for (size_t rank = 1; rank < startBegin.size(); ++rank)
      startBegin[rank] += startBegin[rank - 1];
    startEntries.resize(startBegin.back());
  }

  bool place(uint32_t id, Fit fit) {
    const Buffer &buffer = problem.buffers[id];
    if (buffer.size == 0)
      return true; // conflicts with nothing; offset 0 is aligned
    GapSearch search{buffer.size, buffer.alignment, fit == Fit::First};
    if (scanPays(id)) {
      byOffset->walk(first[id], last[id], search, vectorWalk,
                     team ? &*team : nullptr);
    } else {
      flushCollecting();
      collectNeighbours(id);
      sortByOffset();
      for (const auto &[offset, size] : neighbours)
        if (!search.visit(offset, offset + size))
          break;
    }
    uint64_t bestOffset = search.bestOffset;
    if (!search.found) {
      std::optional<uint64_t> aligned =
          alignUp(search.cursor, buffer.alignment);
      bool overflow = false;
      if (aligned)
        llvm::SaturatingAdd(*aligned, buffer.size, &overflow);
      if (!aligned || overflow)
        return false;
      bestOffset = *aligned;
    }

    placeAt(id, bestOffset);
    return true;
  }

  /// Whether the walk over the placed buffers is the way for buffer `id`:
  /// always with windows of time or NeighbourSearch::Scan; with one list and
  /// NeighbourSearch::Auto, where its neighbours (counted: placed buffers
  /// less those that end by its start or start at its end or later) are at
  /// least 1 / kScanAdvantage of the placed buffers.
  bool scanPays(uint32_t id) const {
    if (!byOffset)
      return false;
    if (!placedByFirst)
      return true;
    size_t endedBefore = placedByLast->before(first[id] + 1);
    size_t startAfter = placedCount - placedByFirst->before(last[id]);
    size_t meeting = placedCount - endedBefore - startAfter;
    return byOffset->entriesMet(first[id], last[id]) <=
           meeting * kScanAdvantage;
  }

  std::vector<uint32_t> cacheFriendlyOrder(std::vector<uint32_t> order) const {
    if (!byOffset || byOffset->windowCount() == 1 ||
        nonEmptyCount < kTimeLocalMinBuffers || staysInTime(order))
      return order;
    // The pairs of a chunk that meet, per buffer, are at most about the
    // entries its windows hold times chunk / n: chunks are kept to
    // kTimeLocalMaxPairs of those. (On the random million: 1,953 windows,
    // chunks of 31,248, about 800 entries met per placement, 8 pairs that
    // meet per buffer of a chunk.)
    size_t chunk = std::clamp(byOffset->windowCount() * kTimeLocalPerWindow,
                              kTimeLocalMinChunk, kTimeLocalMaxChunk);
    if (entriesMet > 0)
      chunk = std::min<size_t>(chunk, size_t(double(kTimeLocalMaxPairs) *
                                             nonEmptyCount / entriesMet));
    if (chunk < kTimeLocalMinChunk)
      return order; // too dense for the sweep to pay
    // A chunk denser than estimated keeps its order (a hard limit).
    return timeLocalOrder(order, first, last, chunk, 4 * kTimeLocalMaxPairs);
  }

  /// Whether most of the placements of `order` start in the window of the
  /// one before or next to it, as greedy by breadth's do (a position's
  /// buffers go together): a sweep would read the lists more often, not
  /// less (on the random million, greedy by breadth took 1.35 s with the
  /// sweep, 1.06-1.24 s without).
  /// Looked at on up to kWindowSample pairs spread over the order.
  bool staysInTime(const std::vector<uint32_t> &order) const {
    size_t stride = std::max<size_t>(1, order.size() / kWindowSample);
    size_t near = 0, pairs = 0;
    for (size_t i = 1; i < order.size(); i += stride, ++pairs) {
      uint32_t a = byOffset->firstWindow(first[order[i - 1]]),
               b = byOffset->firstWindow(first[order[i]]);
      near += (a > b ? a - b : b - a) <= 1;
    }
    return near * 2 >= pairs;
  }

  void prefetch(uint32_t id) const {
    if (byOffset && !collects)
      byOffset->prefetch(first[id], last[id]);
  }
  void prefetchBuffer(uint32_t id) const {
    __builtin_prefetch(&problem.buffers[id]);
    __builtin_prefetch(&first[id]);
    __builtin_prefetch(&last[id]);
    __builtin_prefetch(&offsets[id]);
  }

  void placeAt(uint32_t id, uint64_t offset) {
    uint64_t size = problem.buffers[id].size;
    offsets[id] = offset;
    if (size == 0)
      return;
    if (collects) {
      if (byOffset) {
        // Collected into the structures only when a placement collects
        // (flushCollecting).
        pendingAt[id] = static_cast<uint32_t>(pending.size());
        pending.push_back(id);
      } else {
        addToCollecting(id);
      }
    }
    if (byOffset)
      byOffset->insert(offset, offset + size, first[id], last[id]);
    if (placedByFirst) {
      placedByFirst->add(first[id], 1);
      placedByLast->add(last[id], 1);
    }
    ++placedCount;
  }

  void remove(uint32_t id) {
    uint64_t size = problem.buffers[id].size;
    if (size == 0)
      return;
    if (collects && pendingAt[id] != kNotPending) {
      // Never collected: out of the pending ones, the last in its place.
      uint32_t at = pendingAt[id];
      pending[at] = pending.back();
      pendingAt[pending[at]] = at;
      pending.pop_back();
      pendingAt[id] = kNotPending;
    } else if (collects) {
      Placed placed{offsets[id], size};
      stabber->erase(placed, first[id], last[id]);
      size_t rank = first[id];
      eraseBySwapWithLast(startEntries.data() + startBegin[rank],
                          startFilled[rank], placed);
      if (startFilled[rank] == 0)
        startRanks->erase(rank);
    }
    if (byOffset)
      byOffset->erase(offsets[id], offsets[id] + size, first[id], last[id]);
    if (placedByFirst) {
      placedByFirst->add(first[id], -1);
      placedByLast->add(last[id], -1);
    }
    --placedCount;
    offsets[id] = 0;
  }

  /// Puts placed buffer `id` into the structures that collect neighbours.
  void addToCollecting(uint32_t id) {
    Placed placed{offsets[id], problem.buffers[id].size};
    stabber->insert(placed, first[id], last[id]);
    size_t rank = first[id];
    startRanks->insert(rank);
    startEntries[startBegin[rank] + startFilled[rank]++] = placed;
  }

  /// Puts the placed buffers not collected yet into the structures that
  /// collect neighbours. Where the walk over the placed buffers is there,
  /// most placements on the problems that build it walk (all but 4 % on the
  /// 60,000-buffer trace), and a buffer's insertion into the
  /// segment tree touches about two nodes per level, far apart: so the
  /// structures take the placed buffers only when a placement collects.
  /// The order in which they take them does not matter (collectNeighbours'
  /// neighbours are sorted by offset, and any order of equal offsets gives
  /// the same gap).
  void flushCollecting() {
    for (uint32_t id : pending) {
      addToCollecting(id);
      pendingAt[id] = kNotPending;
    }
    pending.clear();
  }

  /// Placed buffers (non-zero sizes only are ever placed) whose lifetime
  /// intersects buffer `id`'s: those live at its first slot, plus those that
  /// start strictly inside it. The two sets are disjoint.
  void collectNeighbours(uint32_t id) {
    neighbours.clear();
    auto add = [&](const Placed &other) { neighbours.push_back(other); };
    stabber->forEachCovering(first[id], add);
    for (size_t rank = startRanks->findNext(first[id] + 1); rank < last[id];
         rank = startRanks->findNext(rank + 1))
      for (size_t e = startBegin[rank], end = e + startFilled[rank]; e < end;
           ++e)
        add(startEntries[e]);
  }

  /// Sorts `neighbours` by offset. The walk above does not depend on the
  /// order of neighbours at equal offsets (the first one moves the cursor
  /// past that offset), so any order by offset gives the same placement.
  /// With thousands of neighbours (dense schedules) a comparison sort was
  /// most of the planning time; a radix sort on the offset's significant
  /// bits, in digits as wide as pay for their counting array (8 bits for a
  /// few hundred neighbours, 12 for thousands), takes a few linear passes.
  void sortByOffset() {
    size_t count = neighbours.size();
    if (count < kRadixThreshold) {
      std::sort(
          neighbours.begin(), neighbours.end(),
          [](const Placed &a, const Placed &b) { return a.offset < b.offset; });
      return;
    }
    radixSort(
        neighbours, scratch, counts,
        [](const Placed &placed) { return placed.offset; },
        count < 2048 ? 8 : 12);
  }

  /// Below this many neighbours, a comparison sort is as fast.
  static constexpr size_t kRadixThreshold = 96;

  /// What the gap search needs of a placed buffer, stored inline so that
  /// collecting neighbours touches one cache line per neighbour.
  struct Placed {
    uint64_t offset;
    uint64_t size;
    bool operator==(const Placed &other) const {
      return offset == other.offset && size == other.size;
    }
  };

  const Problem &problem;
  TimeAxis axis;
  std::vector<size_t> first, last;
  // Collecting the neighbours (all but the walk over windows of time).
  bool collects = true;
  std::optional<IntervalStabber<Placed>> stabber;
  std::vector<size_t> startBegin;    // start slot -> first entry
  std::vector<uint32_t> startFilled; // start slot -> entries placed so far
  std::vector<Placed> startEntries;
  std::optional<SlotSet> startRanks;
  // Placed, not yet in the structures above (where the walk is there), and
  // each buffer's place among them.
  static constexpr uint32_t kNotPending = UINT32_MAX;
  std::vector<uint32_t> pending, pendingAt;
  std::vector<uint64_t> offsets;
  std::vector<Placed> neighbours;
  std::vector<Placed> scratch;  // for sortByOffset
  std::vector<uint32_t> counts; // for sortByOffset
  // With a walk over the placed buffers: the buffers by offset, per window
  // of time, and, to choose per placement, the placed buffers counted by
  // first and last slot.
  std::optional<TimeWindowedLists> byOffset;
  size_t placedCount = 0, nonEmptyCount = 0;
  double entriesMet = 0;  // per placement, all placed (chooseWindows)
  bool vectorWalk = true; // false: the portable walk even where it has one
  std::optional<SlotCounts> placedByFirst, placedByLast;
  std::optional<WalkTeam> team; // threads sharing the long walks
};

OffsetPlacement::OffsetPlacement(const Problem &problem, NeighbourSearch search,
                                 unsigned threads)
    : impl(new Impl(problem, search, threads)) {}
OffsetPlacement::~OffsetPlacement() = default;

bool OffsetPlacement::place(uint32_t id, Fit fit) {
  return impl->place(id, fit);
}
void OffsetPlacement::placeAt(uint32_t id, uint64_t offset) {
  impl->placeAt(id, offset);
}
void OffsetPlacement::remove(uint32_t id) { impl->remove(id); }
std::vector<uint32_t>
OffsetPlacement::cacheFriendlyOrder(std::vector<uint32_t> order) const {
  return impl->cacheFriendlyOrder(std::move(order));
}
void OffsetPlacement::prefetch(uint32_t id) const { impl->prefetch(id); }
void OffsetPlacement::prefetchBuffer(uint32_t id) const {
  impl->prefetchBuffer(id);
}
const std::vector<uint64_t> &OffsetPlacement::currentOffsets() const {
  return impl->offsets;
}
uint64_t OffsetPlacement::arenaSize() const {
  uint64_t arena = 0;
  for (size_t i = 0; i < impl->offsets.size(); ++i)
    if (impl->problem.buffers[i].size != 0)
      arena = std::max(arena, impl->offsets[i] + impl->problem.buffers[i].size);
  return arena;
}
size_t OffsetPlacement::slotCount() const { return impl->axis.size(); }
size_t OffsetPlacement::firstSlot(uint32_t id) const { return impl->first[id]; }
size_t OffsetPlacement::lastSlot(uint32_t id) const { return impl->last[id]; }
size_t OffsetPlacement::nestedWindowCount() const {
  return impl->byOffset ? impl->byOffset->nestedWindowCount() : 0;
}

Solution OffsetPlacement::takeSolution() {
  Solution solution;
  solution.arenaSize = arenaSize();
  solution.offsets = std::move(impl->offsets);
  return solution;
}

PlanResult memplan::placeInOrder(const Problem &problem,
                                 const std::vector<uint32_t> &order,
                                 const std::function<bool()> &expired,
                                 OffsetPlacement::Fit fit, unsigned threads) {
  OffsetPlacement placement(problem, OffsetPlacement::NeighbourSearch::Auto,
                            threads);
  return placeInOrderWith(placement, problem, order, expired, fit);
}

PlanResult memplan::placeInOrderWith(OffsetPlacement &placement,
                                     const Problem &problem,
                                     std::vector<uint32_t> order,
                                     const std::function<bool()> &expired,
                                     OffsetPlacement::Fit fit) {
  // Same offsets, and the same overflow if any: a placement depends only on
  // the buffers placed before it that meet it, in either order.
  order = placement.cacheFriendlyOrder(std::move(order));
  for (size_t i = 0; i < order.size(); ++i) {
    if (expired && i && i % kPlacementsPerClockRead == 0 && expired())
      return {{}, kOutOfTime};
    if (i + 2 < order.size())
      placement.prefetchBuffer(order[i + 2]);
    if (i + 1 < order.size())
      placement.prefetch(order[i + 1]);
    if (!placement.place(order[i], fit))
      return arenaOverflow();
  }
  PlanResult result;
  result.solution = placement.takeSolution();
  return keepNoWorseThanNaive(problem, std::move(result));
}

PlanResult memplan::placeCheckedInOrder(const Problem &problem,
                                        BufferOrderOf orderOf,
                                        const std::function<bool()> &expired,
                                        OffsetPlacement::Fit fit,
                                        unsigned threads) {
  if (std::string error = checkProblem(problem); !error.empty())
    return {{}, error};
  // The order, and the structure placeInOrder builds, read no clock, and on
  // a million buffers they take 0.5-1.4 s: a placement that starts after
  // its deadline, or whose order takes it past, stops before them.
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  std::vector<uint32_t> order = orderOf(problem);
  if (pastDeadline(expired))
    return {{}, kOutOfTime};
  return placeInOrder(problem, order, expired, fit, threads);
}

PlanResult memplan::keepNoWorseThanNaive(const Problem &problem,
                                         PlanResult result) {
  if (!result.ok())
    return result;
  // Without alignment, a buffer is never placed above the sum of the sizes
  // of the buffers placed before it, so reuse never loses. Alignment padding
  // depends on the order of placement, and in rare, mostly overlapping
  // problems the index order of the naive layout pads less: keep that one.
  PlanResult naive = planNaive(problem);
  if (naive.ok() && naive.solution.arenaSize < result.solution.arenaSize)
    return naive;
  return result;
}
