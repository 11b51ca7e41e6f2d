//===- SkylineSearch.cpp - Is there a plan within C bytes? ----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The decision problem "is there a plan with an arena of at most C bytes?"
// is solved by depth-first branch and bound over canonical placements (after
// the idea of MiniMalloc, Moffitt 2023):
//
// * The schedule is cut into sections (the slots of a TimeAxis). Every
//   section has a floor: the top of the highest buffer placed across it.
// * Any plan can be compacted into one where buffers, taken by increasing
//   offset, each sit at the lowest multiple of their alignment on or above
//   the floor of their lifetime. So the search only decides an order: at
//   every node it takes a section in a valley of the skyline (a run of
//   sections at one floor whose neighbours are higher or finished; the
//   lowest free byte of the arena is in one) and either puts there a buffer
//   whose whole lifetime is at that floor and that the floor's offset
//   aligns, or gives up that spot, raising the section's floor to the
//   lowest offset a remaining buffer could take. A buffer at a valley's
//   floor cannot reach past it, so every valley is a complete choice: the
//   search takes the most constrained one (fail first), not just the
//   lowest.
// * Alignment: a buffer goes only where the floor is a multiple of its
//   alignment; a floor that is not gets there by giving up spots (each
//   section rises at least to the next multiple that a buffer over it could
//   use). Padding is then bytes given up like any other, so slack pays for
//   it and an exhausted search is a proof with mixed alignments too.
// * Pruning: a section's slack, C - floor - (bytes of unplaced buffers live
//   there), never grows; placing a buffer on the floor keeps it, giving up a
//   spot spends it, and a negative slack ends the branch. When C is the lower
//   bound, no spot may be given up at all. Every unplaced buffer sits at or
//   above the highest floor of its lifetime, so each section's remaining
//   buffers must also fit above the lowest such level among them.
// * Order: candidates whose top meets a neighbouring section's floor (or the
//   capacity) are tried first, so the skyline stays flat.
// * Symmetry: buffers with equal size and lifetime are placed in index order.
// * Decomposition: where no unplaced buffer is live across a point of the
//   schedule, the two sides are solved one after the other, and a side
//   without a solution ends the branch at once.
// * Reduction: where both sections around a point are full at C, the bytes
//   the ending buffers free are the bytes the starting ones take; buffers
//   that must therefore share offsets are searched as one block (see
//   mergeAtFullBoundaries). planSearch (Search.cpp) searches the reduced
//   and the original problem side by side on two threads, or in turns.
// * Per node, the highest floor over a lifetime comes from a range-maximum
//   tree, and each section's lowest reachable level from a min tree over
//   the lifetimes: O(n log sections), not the sum of all lifetimes.
//
//===----------------------------------------------------------------------===//

#include "SkylineSearch.h"

#include "TimeAxis.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace memplan {

class SkylineSearch::Impl {
public:
  Impl(const Problem &problem) : problem(problem), axis(problem) {
    size_t n = problem.buffers.size();
    sections = axis.size() ? axis.size() - 1 : 0;
    while (leaves < sections)
      leaves *= 2;
    first.resize(n);
    last.resize(n);
    covering.assign(sections, {});
    for (uint32_t i = 0; i < n; ++i) {
      first[i] = axis.rank(problem.buffers[i].start);
      last[i] = axis.rank(problem.buffers[i].end);
    }
    // Candidates in heuristic order: large, then long-lived, first.
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const Buffer &x = problem.buffers[a], &y = problem.buffers[b];
      if (x.size != y.size)
        return x.size > y.size;
      if (last[a] - first[a] != last[b] - first[b])
        return last[a] - first[a] > last[b] - first[b];
      return a < b;
    });
    for (uint32_t id : order)
      for (size_t s = first[id]; s < last[id]; ++s)
        covering[s].push_back(id);
    // Random keys for hashing search states (Zobrist): one per buffer, and
    // a multiplier per section for its floor.
    uint64_t state = 0x9e3779b97f4a7c15ull;
    auto next = [&state]() { return splitMix64(state); };
    for (uint32_t i = 0; i < n; ++i)
      blockKey.push_back({next(), next()});
    for (size_t s = 0; s < sections; ++s)
      sectionKey.push_back({next() | 1, next() | 1});
    // Interchangeable buffers are placed in index order.
    previousTwin.assign(n, -1);
    std::vector<uint32_t> byShape(n);
    std::iota(byShape.begin(), byShape.end(), 0);
    auto key = [&](uint32_t i) {
      return std::make_tuple(problem.buffers[i].size, first[i], last[i],
                             problem.buffers[i].alignment, i);
    };
    std::sort(byShape.begin(), byShape.end(),
              [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    for (size_t k = 1; k < n; ++k) {
      uint32_t a = byShape[k - 1], b = byShape[k];
      if (problem.buffers[a].size == problem.buffers[b].size &&
          first[a] == first[b] && last[a] == last[b] &&
          problem.buffers[a].alignment == problem.buffers[b].alignment)
        previousTwin[b] = static_cast<int32_t>(a);
    }
  }

  /// Looks for a plan within `capacity`; on success `offsets` holds it.
  SearchOutcome decide(uint64_t capacity, SearchBudget &budget) {
    size_t n = problem.buffers.size();
    this->capacity = capacity;
    this->budget = &budget;
    outOfBudget = false;
    floor.assign(sections, 0);
    buildHighest();
    remaining.assign(sections, 0);
    placed.assign(n, false);
    offsets.assign(n, 0);
    unplacedCount = n;
    lo = 0;
    hi = sections;
    done = 0;
    tops.assign(n, 0);
    // Failed states stay failed at the same capacity: a later call (the
    // next turn of a round robin) skips what earlier ones exhausted.
    if (capacity != failedCapacity) {
      failed.clear();
      failedFloors.clear();
      floorPool.clear();
      failedCapacity = capacity;
    }
    floorHash = {0, 0};
    placedHash = {0, 0};
    for (size_t s = 0; s < sections; ++s)
      floorHash = floorHash ^ floorKey(s, 0);
    for (uint32_t i = 0; i < n; ++i)
      for (size_t s = first[i]; s < last[i]; ++s)
        remaining[s] += problem.buffers[i].size;
    for (size_t s = 0; s < sections; ++s)
      if (remaining[s] > capacity)
        return SearchOutcome::Infeasible;
    // Restarts (Luby et al. 1993) with reshuffled candidate orders, so that
    // one bad early choice cannot hold the whole budget; failed states are
    // remembered across restarts.
    bool found = false;
    Snapshot start = snapshot();
    // Seeded per call, so that a capacity tried again is searched in other
    // orders (reproducibly).
    std::mt19937_64 shuffle(capacity + 0x9e3779b97f4a7c15ull * decisions++);
    for (uint64_t restart = 1;; ++restart) {
      restartAt = budget.nodes + kRestartBase * lubySequence(restart);
      hitRestart = false;
      found = search();
      if (found || !hitRestart || !budget.spendOk())
        break;
      outOfBudget = false;
      restore(start);
      lo = 0;
      hi = sections;
      done = 0;
      for (std::vector<uint32_t> &list : covering)
        std::shuffle(list.begin(), list.end(), shuffle);
    }
    if (hitRestart && !found)
      outOfBudget = true;
    if (found)
      return SearchOutcome::Found;
    return outOfBudget ? SearchOutcome::OutOfBudget : SearchOutcome::Infeasible;
  }

  std::vector<uint64_t> offsets;

private:
  /// A 128-bit hash of the state: which buffers are placed, and every
  /// section's floor. The future of the search depends on nothing else, so
  /// a state that failed once fails again, however it is reached (for
  /// example, buffers of one lifetime stacked in another order).
  StateKey stateKey() const { return placedHash ^ floorHash; }
  StateKey floorKey(size_t s, uint64_t value) const {
    return {(value + 0x632be59bd9b4e019ull) * sectionKey[s].a,
            (value ^ 0x85157af5f1ad2dedull) * sectionKey[s].b};
  }
  void setFloor(size_t s, uint64_t value) {
    floorHash = floorHash ^ floorKey(s, floor[s]) ^ floorKey(s, value);
    floor[s] = value;
    size_t at = s + leaves;
    highest[at] = value;
    for (at >>= 1; at; at >>= 1)
      highest[at] = std::max(highest[2 * at], highest[2 * at + 1]);
  }

  bool search() {
    if (unplacedCount == done)
      return true;
    if (!budget->spend()) {
      outOfBudget = true;
      hitRestart = false;
      return false;
    }
    if (budget->nodes >= restartAt) {
      outOfBudget = true;
      hitRestart = true;
      return false;
    }
    if (failed.count(stateKey()) || dominatedByFailed())
      return false;
    // One level of recursion per node on the path: stop before the stack
    // (kSearchStackBytes, see planSearch) could run out.
    if (depth >= kMaxDepth) {
      outOfBudget = true;
      hitRestart = false;
      return false;
    }
    ++depth;
    bool explored = explore();
    --depth;
    if (!explored) {
      if (!outOfBudget && failed.size() < kMaxFailedStates) {
        failed.insert(stateKey());
        rememberFailedFloors();
      }
      return false;
    }
    return true;
  }

  /// Dominance: a state whose floors are all at or above those of a failed
  /// state with the same buffers placed fails too (a plan from it puts the
  /// remaining buffers above its floors, so above the lower ones too, where
  /// they meet nothing placed). Exact hashes miss this where floors differ
  /// by a few bytes, as alignment padding makes them. Kept for problems of
  /// few sections, whose floors are cheap to store and compare.
  bool dominatedByFailed() const {
    if (sections > kMaxDominanceSections)
      return false;
    auto it = failedFloors.find(placedHash);
    if (it == failedFloors.end())
      return false;
    for (uint32_t entry : it->second) {
      const uint64_t *lower = floorPool.data() + size_t(entry) * sections;
      bool dominated = true;
      for (size_t s = 0; s < sections && dominated; ++s)
        dominated = lower[s] <= floor[s];
      if (dominated)
        return true;
    }
    return false;
  }
  void rememberFailedFloors() {
    if (sections > kMaxDominanceSections)
      return;
    std::vector<uint32_t> &entries = failedFloors[placedHash];
    if (entries.size() >= kMaxFailedFloorsPerSet)
      return;
    entries.push_back(uint32_t(floorPool.size() / sections));
    floorPool.insert(floorPool.end(), floor.begin(), floor.end());
  }

  /// The trees over the sections (`highest`, `lowest`, `topsAbove`) keep
  /// leaf s at leaves + s. Calls visit(node) for the O(log sections) nodes
  /// that together cover exactly the sections [a, b).
  template <typename Visit>
  void forNodesCovering(size_t a, size_t b, Visit visit) const {
    for (a += leaves, b += leaves; a < b; a >>= 1, b >>= 1) {
      if (a & 1)
        visit(a++);
      if (b & 1)
        visit(--b);
    }
  }
  /// Lowers to `value` the nodes covering buffer `id`'s lifetime.
  void lowerOverLifetime(std::vector<uint64_t> &tree, uint32_t id,
                         uint64_t value) const {
    forNodesCovering(first[id], last[id], [&](size_t node) {
      tree[node] = std::min(tree[node], value);
    });
  }
  /// After lowerOverLifetime(): every node takes the least on its path from
  /// the root, so that each leaf holds its section's value.
  void pushDownMinimum(std::vector<uint64_t> &tree) const {
    for (size_t at = 2; at < 2 * leaves; ++at)
      tree[at] = std::min(tree[at], tree[at / 2]);
  }

  /// Whether a floor at `level` aligns buffer `id`.
  bool alignedAt(uint32_t id, uint64_t level) const {
    return (level & (problem.buffers[id].alignment - 1)) == 0;
  }
  /// The lowest offset at or above `level` that aligns buffer `id`
  /// (UINT64_MAX if there is none).
  uint64_t alignedFrom(uint32_t id, uint64_t level) const {
    // Inline, with the mask of a power of two (checked problems have no
    // other alignments): chooseSpot asks this for every candidate of every
    // section it looks at.
    uint64_t mask = problem.buffers[id].alignment - 1;
    uint64_t aligned = (level + mask) & ~mask;
    return aligned < level ? UINT64_MAX : aligned;
  }

  /// The highest floor across buffer `id`'s lifetime: where it would go.
  uint64_t topOf(uint32_t id) const {
    uint64_t top = 0;
    forNodesCovering(first[id], last[id],
                     [&](size_t node) { top = std::max(top, highest[node]); });
    return top;
  }

  /// topsAbove: a tree like `highest` whose leaves hold, per section, the
  /// least aligned top + size of an unplaced buffer live there (the lowest
  /// level a buffer placed from now on can end at), and whose inner nodes
  /// hold the least of their leaves.
  void computeLowestTopsAbove() {
    topsAbove.assign(2 * leaves, UINT64_MAX);
    for (uint32_t id : pending) {
      uint64_t start = alignedFrom(id, tops[id]);
      uint64_t end = start + problem.buffers[id].size;
      lowerOverLifetime(topsAbove, id, end < start ? UINT64_MAX : end);
    }
    pushDownMinimum(topsAbove);
    for (size_t at = leaves; at-- > 1;)
      topsAbove[at] = std::min(topsAbove[2 * at], topsAbove[2 * at + 1]);
  }
  /// The least top + size of an unplaced buffer live in any of [a, b).
  uint64_t lowestTopAbove(size_t a, size_t b) const {
    uint64_t lowest = UINT64_MAX;
    forNodesCovering(
        a, b, [&](size_t node) { lowest = std::min(lowest, topsAbove[node]); });
    return lowest;
  }

  /// Symmetry: a buffer whose twin (same size, lifetime and alignment)
  /// comes before it waits until that twin is placed.
  bool twinPlaced(uint32_t id) const {
    return previousTwin[id] < 0 || placed[previousTwin[id]];
  }

  /// Whether unplaced buffer `id` sits at `level` from section x and leaves
  /// a tileable rest of the run [a, b) (see computeCanFinish).
  bool tilesFrom(uint32_t id, size_t x, size_t a, size_t b,
                 uint64_t level) const {
    return first[id] == x && !placed[id] && last[id] <= b &&
           canFinish[last[id] - a] && tops[id] == level && alignedAt(id, level);
  }

  /// canFinish[x - a] for the run of sections [a, b) at `level`: whether
  /// [x, b) can be tiled end to end by unplaced buffers sitting at `level`.
  void computeCanFinish(size_t a, size_t b, uint64_t level) {
    canFinish.assign(b - a + 1, false);
    canFinish[b - a] = true;
    for (size_t x = b; x-- > a;)
      for (uint32_t id : covering[x])
        if (tilesFrom(id, x, a, b, level)) {
          canFinish[x - a] = true;
          break;
        }
  }

  /// Where no unplaced buffer is live across a boundary between sections,
  /// what lies left of it and what lies right of it are independent: each
  /// part is solved on its own, and a part without a solution ends the
  /// branch without trying other placements in the other parts. (Otherwise
  /// depth-first search would revisit the choices of one part for every
  /// failure of another.) Returns nothing when the sections being solved form
  /// one part; otherwise whether every part was solved.
  std::optional<bool> decompose() {
    // `pending`: the unplaced buffers of [lo, hi), from explore().
    crossing.assign(hi - lo + 1, 0);
    starts.assign(hi - lo, 0);
    for (uint32_t id : pending) {
      ++crossing[first[id] + 1 - lo];
      --crossing[last[id] - lo];
      ++starts[first[id] - lo];
    }
    // Parts: (unplaced buffers, first section, end section), built in
    // storage kept across nodes (most nodes have one part), and copied for
    // the deeper levels that the parts' searches reach.
    std::vector<Part> &found = partScratch;
    found.clear();
    int64_t live = 0;
    for (size_t s = lo; s < hi; ++s) {
      live += crossing[s - lo];
      if (s == lo || live == 0)
        found.push_back({0, s, s + 1});
      else
        std::get<2>(found.back()) = s + 1;
      std::get<0>(found.back()) += starts[s - lo];
    }
    found.erase(
        std::remove_if(found.begin(), found.end(),
                       [](const Part &p) { return std::get<0>(p) == 0; }),
        found.end());
    if (found.size() < 2)
      return std::nullopt;
    std::vector<Part> parts = found;
    // The smallest parts first: they are the cheapest to solve or refute.
    std::sort(parts.begin(), parts.end());
    Snapshot saved = snapshot();
    size_t savedLo = lo, savedHi = hi, savedDone = done;
    bool solved = true;
    for (auto [count, a, b] : parts) {
      lo = a;
      hi = b;
      done = unplacedCount - count;
      if (!search()) {
        solved = false;
        break;
      }
    }
    lo = savedLo;
    hi = savedHi;
    done = savedDone;
    if (!solved)
      restore(saved);
    return solved;
  }

  /// Where explore() branches: a section (or, in a run without slack, the
  /// run [section, runEnd) that must be tiled) at floor `level`.
  struct Spot {
    size_t section;
    size_t runEnd;
    uint64_t level;
    bool tiled;
  };

  bool explore() {
    if (!remainingFitsAboveLowestTops())
      return false;
    std::optional<bool> parts = decompose();
    if (parts)
      return *parts;
    std::optional<Spot> spot = chooseSpot();
    if (!spot)
      return false;
    uint64_t raiseTo = spot->tiled ? UINT64_MAX : levelIfLeftEmpty(*spot);
    // In a tiled run, only buffers that start it and leave a tileable rest
    // (recomputed for the chosen run: canFinish is shared by all runs).
    if (spot->tiled)
      computeCanFinish(spot->section, spot->runEnd, spot->level);
    if (std::optional<bool> decided = placeEachCandidate(*spot))
      return *decided;
    return leaveEmpty(*spot, raiseTo);
  }

  /// Every buffer still to place sits at or above the highest floor across
  /// its lifetime. So a section's remaining buffers all lie above the lowest
  /// such level among them, and must fit between it and the capacity.
  /// Only the sections of the part being solved change (see decompose()),
  /// and only its buffers are unplaced there. Each buffer's top goes to the
  /// O(log sections) tree nodes that cover its lifetime; a section's lowest
  /// top is the least on the path from the root to its leaf. Fills
  /// `pending` and `tops`.
  bool remainingFitsAboveLowestTops() {
    pending.clear();
    lowest.assign(2 * leaves, UINT64_MAX);
    for (uint32_t id = 0; id < problem.buffers.size(); ++id) {
      if (placed[id] || first[id] < lo || last[id] > hi)
        continue;
      tops[id] = topOf(id);
      pending.push_back(id);
      lowerOverLifetime(lowest, id, alignedFrom(id, tops[id]));
    }
    pushDownMinimum(lowest);
    uint64_t *lowestTop = lowest.data() + leaves;
    for (size_t s = lo; s < hi; ++s)
      if (remaining[s] && lowestTop[s] > floor[s] &&
          (lowestTop[s] > capacity || capacity - lowestTop[s] < remaining[s]))
        return false;
    return true;
  }

  /// Branch at a valley: a run of adjacent sections at one floor whose
  /// neighbours are higher, or have nothing left to place. A buffer at the
  /// run's floor cannot reach past it, so every buffer placed there lies
  /// within the run. In a run where no section has slack, no byte may be
  /// lost: the buffers that sit at its floor must tile it end to end, the
  /// first one starting where the run does. A run that cannot be tiled ends
  /// the branch (nullopt); the most constrained valley is where to branch.
  std::optional<Spot> chooseSpot() {
    Spot spot{hi, hi, UINT64_MAX, false};
    size_t fewest = SIZE_MAX;
    for (size_t a = lo; a < hi;) {
      if (!remaining[a]) {
        ++a;
        continue;
      }
      uint64_t runLevel = floor[a];
      size_t b = a;
      bool noSlack = true;
      while (b < hi && remaining[b] && floor[b] == runLevel) {
        noSlack &= capacity - floor[b] == remaining[b];
        ++b;
      }
      bool valley = (a == lo || !remaining[a - 1] || floor[a - 1] > runLevel) &&
                    (b == hi || !remaining[b] || floor[b] > runLevel);
      if (!valley) {
        a = b;
        continue;
      }
      if (noSlack) {
        computeCanFinish(a, b, runLevel);
        if (!canFinish[0])
          return std::nullopt;
        size_t count = 0;
        for (uint32_t id : covering[a])
          if (tilesFrom(id, a, a, b, runLevel) && twinPlaced(id))
            ++count;
        if (count == 0)
          return std::nullopt;
        if (!spot.tiled || count < fewest) {
          fewest = count;
          spot = {a, b, runLevel, true};
        }
      } else if (!spot.tiled) {
        // Otherwise the section of the run with the fewest buffers that can
        // go there (fail first). One where none can, and whose slack cannot
        // pay for leaving the spot empty, ends the branch.
        for (size_t s = a; s < b; ++s) {
          size_t count = 0;
          uint64_t raise = UINT64_MAX;
          for (uint32_t id : covering[s]) {
            if (placed[id])
              continue;
            uint64_t top = tops[id];
            if (top != runLevel || !alignedAt(id, top))
              raise = std::min(raise, alignedFrom(id, top));
            else if (twinPlaced(id))
              ++count;
          }
          if (count == 0 && (raise == UINT64_MAX || raise > capacity ||
                             capacity - raise < remaining[s]))
            return std::nullopt;
          if (count < fewest) {
            fewest = count;
            spot.section = s;
            spot.level = runLevel;
          }
        }
      }
      a = b;
    }
    return spot;
  }

  /// The level the chosen section rises to if its spot stays empty: the
  /// lowest offset a remaining buffer across it can still get. One whose top
  /// is higher, or whose alignment this level misses, sits at least at the
  /// first multiple of its alignment from its top. One that this level
  /// aligns does not go here (the spot stays empty), so it will sit on a
  /// buffer placed from now on in one of its sections: at least as high as
  /// the lowest top + size of a remaining buffer live there, aligned.
  /// (Raising to the lowest other top instead would skip plans where it sits
  /// on such a buffer.)
  uint64_t levelIfLeftEmpty(const Spot &spot) {
    uint64_t raiseTo = UINT64_MAX;
    bool computed = false;
    for (uint32_t id : covering[spot.section]) {
      if (placed[id])
        continue;
      if (tops[id] != spot.level || !alignedAt(id, spot.level)) {
        raiseTo = std::min(raiseTo, alignedFrom(id, tops[id]));
        continue;
      }
      if (!computed) {
        computeLowestTopsAbove();
        computed = true;
      }
      raiseTo = std::min(raiseTo,
                         alignedFrom(id, lowestTopAbove(first[id], last[id])));
    }
    return raiseTo;
  }

  /// Branch 1: a buffer whose whole lifetime is at this level goes there.
  /// Candidates whose top meets a neighbouring floor come first: they leave
  /// a flatter skyline. On a stack shared by all levels of the search: this
  /// level's are from `base` on, and it is cut back to `base` when this
  /// branch returns. True: solved; false: out of budget; nullopt: no
  /// candidate led to a plan (branch 2 is next).
  std::optional<bool> placeEachCandidate(const Spot &spot) {
    size_t base = candidates.size();
    struct CutBack {
      std::vector<std::pair<int, uint32_t>> &stack;
      size_t size;
      ~CutBack() { stack.resize(size); }
    } cutBack{candidates, base};
    for (uint32_t id : covering[spot.section]) {
      if (placed[id] || tops[id] != spot.level || !twinPlaced(id) ||
          !alignedAt(id, spot.level))
        continue;
      if (spot.tiled &&
          !tilesFrom(id, spot.section, spot.section, spot.runEnd, spot.level))
        continue;
      uint64_t top = spot.level + problem.buffers[id].size;
      int flat = 0;
      if (first[id] > 0 && floor[first[id] - 1] == top)
        ++flat;
      if (last[id] < sections && floor[last[id]] == top)
        ++flat;
      if (top == capacity)
        ++flat;
      candidates.push_back({-flat, id});
    }
    std::stable_sort(
        candidates.begin() + base, candidates.end(),
        [](const auto &x, const auto &y) { return x.first < y.first; });
    for (size_t k = base, end = candidates.size(); k < end; ++k) {
      uint32_t id = candidates[k].second;
      uint64_t size = problem.buffers[id].size;
      for (size_t s = first[id]; s < last[id]; ++s) {
        setFloor(s, spot.level + size);
        remaining[s] -= size;
      }
      placed[id] = true;
      placedHash = placedHash ^ blockKey[id];
      offsets[id] = spot.level;
      --unplacedCount;
      if (search())
        return true;
      ++unplacedCount;
      placed[id] = false;
      placedHash = placedHash ^ blockKey[id];
      for (size_t s = first[id]; s < last[id]; ++s) {
        setFloor(s, spot.level);
        remaining[s] += size;
      }
      if (outOfBudget)
        return false;
    }
    return std::nullopt;
  }

  /// Branch 2: nothing goes at this spot; its bytes are lost. The section
  /// rises to the lowest level a remaining buffer across it can take. (Not
  /// in a run without slack.)
  bool leaveEmpty(const Spot &spot, uint64_t raiseTo) {
    if (spot.tiled || raiseTo == UINT64_MAX || raiseTo > capacity ||
        capacity - raiseTo < remaining[spot.section])
      return false;
    setFloor(spot.section, raiseTo);
    if (search())
      return true;
    setFloor(spot.section, spot.level);
    return false;
  }

  struct Snapshot {
    std::vector<uint64_t> floor, remaining;
    std::vector<char> placed;
    size_t unplacedCount;
    StateKey floorHash, placedHash;
  };
  Snapshot snapshot() const {
    return {floor, remaining, placed, unplacedCount, floorHash, placedHash};
  }
  /// The range-maximum tree over the floors, from `floor`.
  void buildHighest() {
    highest.assign(2 * leaves, 0);
    std::copy(floor.begin(), floor.end(), highest.begin() + leaves);
    for (size_t at = leaves; at-- > 1;)
      highest[at] = std::max(highest[2 * at], highest[2 * at + 1]);
  }
  void restore(const Snapshot &saved) {
    floor = saved.floor;
    buildHighest();
    remaining = saved.remaining;
    placed = saved.placed;
    unplacedCount = saved.unplacedCount;
    floorHash = saved.floorHash;
    placedHash = saved.placedHash;
  }

  static constexpr size_t kMaxFailedStates = 1 << 22;
  /// Levels of search() on the current path, and their limit: a level
  /// takes well under 4 KiB of stack, even in sanitizer builds.
  size_t depth = 0;
  static constexpr size_t kMaxDepth = kSearchStackBytes / 4096;
  /// The sections being solved, [lo, hi), and the number of unplaced
  /// buffers at which they are all placed.
  size_t lo = 0, hi = 0, done = 0;
  std::vector<int64_t> crossing;
  std::vector<size_t> starts;
  using Part = std::tuple<size_t, size_t, size_t>;
  std::vector<Part> partScratch;
  /// Per node: the lowest top of a buffer whose lifetime covers the node's
  /// sections (a tree shaped like `highest`).
  std::vector<uint64_t> lowest;
  /// A range-maximum tree over `floor`: leaf s at leaves + s.
  size_t leaves = 1;
  std::vector<uint64_t> highest;
  std::vector<uint32_t> pending;
  std::vector<uint64_t> topsAbove;
  std::vector<char> canFinish;
  std::vector<std::pair<int, uint32_t>> candidates;
  /// topOf() of every unplaced buffer, as of the current node.
  std::vector<uint64_t> tops;
  static constexpr uint64_t kRestartBase = 4096;
  uint64_t restartAt = UINT64_MAX;
  bool hitRestart = false;

  const Problem &problem;
  TimeAxis axis;
  size_t sections = 0;
  std::vector<size_t> first, last;
  std::vector<std::vector<uint32_t>> covering;
  std::vector<int32_t> previousTwin;
  std::vector<StateKey> blockKey, sectionKey;

  uint64_t capacity = 0;
  SearchBudget *budget = nullptr;
  bool outOfBudget = false;
  std::vector<uint64_t> floor, remaining;
  std::vector<char> placed;
  size_t unplacedCount = 0;
  /// The two parts of stateKey(): which buffers are placed (also the key of
  /// failedFloors), and the floors.
  StateKey placedHash{0, 0}, floorHash{0, 0};
  std::unordered_set<StateKey, StateKeyHash> failed;
  /// For dominance: per set of placed buffers, failed floors (entries of
  /// `sections` values in floorPool).
  static constexpr size_t kMaxDominanceSections = 1024;
  static constexpr size_t kMaxFailedFloorsPerSet = 64;
  std::unordered_map<StateKey, std::vector<uint32_t>, StateKeyHash>
      failedFloors;
  std::vector<uint64_t> floorPool;
  uint64_t failedCapacity = UINT64_MAX;
  uint64_t decisions = 0;
};

SkylineSearch::SkylineSearch(const Problem &problem)
    : impl(std::make_unique<Impl>(problem)) {}

SkylineSearch::~SkylineSearch() = default;

SearchOutcome SkylineSearch::decide(uint64_t capacity, SearchBudget &budget) {
  return impl->decide(capacity, budget);
}

const std::vector<uint64_t> &SkylineSearch::offsets() const {
  return impl->offsets;
}

} // namespace memplan
