//===- Search.cpp - Search for smaller arenas -----------------------------===//
//
// The decision problem "is there a plan with an arena of at most C bytes?"
// is solved by depth-first branch and bound over canonical placements (after
// the idea of MiniMalloc, Moffitt 2023):
//
// * The schedule is cut into sections (the slots of a TimeAxis). Every
//   section has a floor: the top of the highest buffer placed across it.
// * Any plan can be compacted into one where buffers, taken by increasing
//   offset, each sit on the floor of their lifetime. So the search only
//   decides an order: at every node it takes the section with the lowest
//   floor (the lowest free byte of the arena) and either puts there a buffer
//   whose whole lifetime is at that floor, or gives up that spot, raising the
//   section's floor to the lowest level a remaining buffer could use.
// * Pruning: a section's slack, C - floor - (bytes of unplaced buffers live
//   there), never grows; placing a buffer on the floor keeps it, giving up a
//   spot spends it, and a negative slack ends the branch. When C is the lower
//   bound, no spot may be given up at all. Every unplaced buffer sits at or
//   above the highest floor of its lifetime, so each section's remaining
//   buffers must also fit above the lowest such level among them.
// * Order: candidates whose top meets a neighbouring section's floor (or the
//   capacity) are tried first, so the skyline stays flat.
// * Symmetry: buffers with equal size and lifetime are placed in index order.
//
// The optimisation tries C = lower bound first, then bisects between the
// lower bound and the best arena found, every call within what is left of
// the budget. An exhausted search at C proves that no plan fits in C.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Search.h"

#include "TimeAxis.h"
#include "memplan/Planner/Validator.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <tuple>
#include <unordered_set>

using namespace memplan;

namespace {

using Clock = std::chrono::steady_clock;

enum class Outcome { Found, Infeasible, OutOfBudget };

struct Budget {
  Clock::time_point deadline;
  uint64_t nodeLimit = 0; ///< 0: none
  uint64_t nodes = 0;

  /// Whether any budget is left, without spending it.
  bool spendOk() const {
    return (!nodeLimit || nodes < nodeLimit) && Clock::now() < deadline;
  }

  /// Counts a node; false when the budget is spent.
  bool spend() {
    if (nodeLimit && nodes >= nodeLimit)
      return false;
    ++nodes;
    return (nodes & 1023) != 0 || Clock::now() < deadline;
  }
};

/// The decision procedure on one problem (sizes already padded to the
/// alignment, zero-sized buffers removed).
class SkylineSearch {
public:
  SkylineSearch(const Problem &problem) : problem(problem), axis(problem) {
    size_t n = problem.buffers.size();
    sections = axis.size() ? axis.size() - 1 : 0;
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
    auto next = [&state]() {
      state += 0x9e3779b97f4a7c15ull;
      uint64_t z = state;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return z ^ (z >> 31);
    };
    for (uint32_t i = 0; i < n; ++i)
      blockKey.push_back({next(), next()});
    for (size_t s = 0; s < sections; ++s)
      sectionKey.push_back({next() | 1, next() | 1});
    // Interchangeable buffers are placed in index order.
    previousTwin.assign(n, -1);
    std::vector<uint32_t> byShape(n);
    std::iota(byShape.begin(), byShape.end(), 0);
    auto key = [&](uint32_t i) {
      return std::make_tuple(problem.buffers[i].size, first[i], last[i], i);
    };
    std::sort(byShape.begin(), byShape.end(),
              [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    for (size_t k = 1; k < n; ++k) {
      uint32_t a = byShape[k - 1], b = byShape[k];
      if (problem.buffers[a].size == problem.buffers[b].size &&
          first[a] == first[b] && last[a] == last[b])
        previousTwin[b] = static_cast<int32_t>(a);
    }
  }

  /// Looks for a plan within `capacity`; on success `offsets` holds it.
  Outcome decide(uint64_t capacity, Budget &budget) {
    size_t n = problem.buffers.size();
    this->capacity = capacity;
    this->budget = &budget;
    outOfBudget = false;
    floor.assign(sections, 0);
    remaining.assign(sections, 0);
    placed.assign(n, false);
    offsets.assign(n, 0);
    unplacedCount = n;
    failed.clear();
    hash = {0, 0};
    for (size_t s = 0; s < sections; ++s)
      hash = hash ^ floorKey(s, 0);
    for (uint32_t i = 0; i < n; ++i)
      for (size_t s = first[i]; s < last[i]; ++s)
        remaining[s] += problem.buffers[i].size;
    for (size_t s = 0; s < sections; ++s)
      if (remaining[s] > capacity)
        return Outcome::Infeasible;
    // Restarts (Luby et al. 1993) with reshuffled candidate orders, so that
    // one bad early choice cannot hold the whole budget; failed states are
    // remembered across restarts.
    bool found = false;
    std::vector<uint64_t> baseFloor = floor, baseRemaining = remaining;
    Key baseHash = hash;
    std::mt19937_64 shuffle(capacity);
    for (uint64_t restart = 1;; ++restart) {
      restartAt = budget.nodes + kRestartBase * luby(restart);
      hitRestart = false;
      found = search();
      if (found || !hitRestart || !budget.spendOk())
        break;
      outOfBudget = false;
      floor = baseFloor;
      remaining = baseRemaining;
      hash = baseHash;
      placed.assign(n, false);
      unplacedCount = n;
      for (std::vector<uint32_t> &list : covering)
        std::shuffle(list.begin(), list.end(), shuffle);
    }
    if (hitRestart && !found)
      outOfBudget = true;
    if (found)
      return Outcome::Found;
    return outOfBudget ? Outcome::OutOfBudget : Outcome::Infeasible;
  }

  std::vector<uint64_t> offsets;

private:
  /// A 128-bit hash of the state: which buffers are placed, and every
  /// section's floor. The future of the search depends on nothing else, so
  /// a state that failed once fails again, however it is reached (for
  /// example, buffers of one lifetime stacked in another order).
  struct Key {
    uint64_t a, b;
    Key operator^(const Key &other) const { return {a ^ other.a, b ^ other.b}; }
    bool operator==(const Key &other) const {
      return a == other.a && b == other.b;
    }
  };
  struct KeyHash {
    size_t operator()(const Key &key) const { return key.a; }
  };
  Key floorKey(size_t s, uint64_t value) const {
    return {(value + 0x632be59bd9b4e019ull) * sectionKey[s].a,
            (value ^ 0x85157af5f1ad2dedull) * sectionKey[s].b};
  }
  void setFloor(size_t s, uint64_t value) {
    hash = hash ^ floorKey(s, floor[s]) ^ floorKey(s, value);
    floor[s] = value;
  }

  size_t maxPlaced = 0;
  static uint64_t luby(uint64_t i) {
    for (uint64_t k = 1;; ++k) {
      if (i == (uint64_t(1) << k) - 1)
        return uint64_t(1) << (k - 1);
      if (i >= (uint64_t(1) << (k - 1)) && i < (uint64_t(1) << k) - 1)
        return luby(i - (uint64_t(1) << (k - 1)) + 1);
    }
  }

  bool search() {
    maxPlaced = std::max(maxPlaced, problem.buffers.size() - unplacedCount);
    if (unplacedCount == 0)
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
    if (failed.count(hash))
      return false;
    if (!explore()) {
      if (!outOfBudget && failed.size() < kMaxFailedStates)
        failed.insert(hash);
      return false;
    }
    return true;
  }

  /// The highest floor across buffer `id`'s lifetime: where it would go.
  uint64_t topOf(uint32_t id) const {
    uint64_t top = 0;
    for (size_t s = first[id]; s < last[id]; ++s)
      top = std::max(top, floor[s]);
    return top;
  }

  bool explore() {
    // Every buffer still to place sits at or above the highest floor across
    // its lifetime. So a section's remaining buffers all lie above the
    // lowest such level among them, and must fit between it and the
    // capacity.
    lowestTop.assign(sections, UINT64_MAX);
    for (uint32_t id = 0; id < problem.buffers.size(); ++id) {
      if (placed[id])
        continue;
      uint64_t top = topOf(id);
      for (size_t s = first[id]; s < last[id]; ++s)
        lowestTop[s] = std::min(lowestTop[s], top);
    }
    for (size_t s = 0; s < sections; ++s)
      if (remaining[s] && lowestTop[s] > floor[s] &&
          (lowestTop[s] > capacity || capacity - lowestTop[s] < remaining[s]))
        return false;

    // The lowest floor among sections that still have buffers to place.
    uint64_t level = UINT64_MAX;
    for (size_t s = 0; s < sections; ++s)
      if (remaining[s])
        level = std::min(level, floor[s]);

    // Runs of adjacent sections at that floor. In a run where no section has
    // slack, no byte may be lost: the buffers that sit at this level in the
    // run must tile it end to end, the first one starting where the run
    // does. A run that cannot be tiled ends the branch; the most constrained
    // tileable run is where to branch.
    size_t lowest = sections, fewest = SIZE_MAX;
    bool tiled = false;
    for (size_t a = 0; a < sections;) {
      if (!remaining[a] || floor[a] != level) {
        ++a;
        continue;
      }
      size_t b = a;
      bool noSlack = true;
      while (b < sections && remaining[b] && floor[b] == level) {
        noSlack &= capacity - floor[b] == remaining[b];
        ++b;
      }
      if (noSlack) {
        // canFinish[x - a]: [x, b) can be tiled by buffers at this level.
        canFinish.assign(b - a + 1, false);
        canFinish[b - a] = true;
        for (size_t x = b; x-- > a;)
          for (uint32_t id : covering[x])
            if (first[id] == x && !placed[id] && last[id] <= b &&
                canFinish[last[id] - a] && topOf(id) == level) {
              canFinish[x - a] = true;
              break;
            }
        if (!canFinish[0])
          return false;
        size_t count = 0;
        for (uint32_t id : covering[a])
          if (first[id] == a && !placed[id] && last[id] <= b &&
              canFinish[last[id] - a] && topOf(id) == level &&
              (previousTwin[id] < 0 || placed[previousTwin[id]]))
            ++count;
        if (count == 0)
          return false;
        if (!tiled || count < fewest) {
          tiled = true;
          fewest = count;
          lowest = a;
          tiledEnd = b;
        }
      } else if (!tiled) {
        // Otherwise the section of the run with the fewest buffers that can
        // go there (fail first). One where none can, and whose slack cannot
        // pay for leaving the spot empty, ends the branch.
        for (size_t s = a; s < b; ++s) {
          size_t count = 0;
          uint64_t raise = UINT64_MAX;
          for (uint32_t id : covering[s]) {
            if (placed[id])
              continue;
            uint64_t top = topOf(id);
            if (top != level)
              raise = std::min(raise, top);
            else if (previousTwin[id] < 0 || placed[previousTwin[id]])
              ++count;
          }
          if (count == 0 && (raise == UINT64_MAX || raise > capacity ||
                             capacity - raise < remaining[s]))
            return false;
          if (count < fewest) {
            fewest = count;
            lowest = s;
          }
        }
      }
      a = b;
    }
    // The level the chosen section rises to if its spot stays empty.
    uint64_t raiseTo = UINT64_MAX;
    if (!tiled)
      for (uint32_t id : covering[lowest])
        if (!placed[id] && topOf(id) != level)
          raiseTo = std::min(raiseTo, topOf(id));
    // In a tiled run, only buffers that start it and leave a tileable rest.
    size_t runStart = lowest, runEnd = tiledEnd;
    std::vector<char> allowed;
    if (tiled) {
      allowed.assign(runEnd - runStart + 1, 0);
      // Recompute for the chosen run (canFinish was reused across runs).
      canFinish.assign(runEnd - runStart + 1, false);
      canFinish[runEnd - runStart] = true;
      for (size_t x = runEnd; x-- > runStart;)
        for (uint32_t id : covering[x])
          if (first[id] == x && !placed[id] && last[id] <= runEnd &&
              canFinish[last[id] - runStart] && topOf(id) == level) {
            canFinish[x - runStart] = true;
            break;
          }
    }

    // Branch 1: a buffer whose whole lifetime is at this level goes there.
    // Candidates whose top meets a neighbouring floor come first: they
    // leave a flatter skyline.
    std::vector<std::pair<int, uint32_t>> candidates;
    for (uint32_t id : covering[lowest]) {
      if (placed[id] || topOf(id) != level)
        continue;
      if (previousTwin[id] >= 0 && !placed[previousTwin[id]])
        continue;
      if (tiled && (first[id] != runStart || last[id] > runEnd ||
                    !canFinish[last[id] - runStart]))
        continue;
      uint64_t top = level + problem.buffers[id].size;
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
        candidates.begin(), candidates.end(),
        [](const auto &x, const auto &y) { return x.first < y.first; });
    for (auto [unused, id] : candidates) {
      uint64_t size = problem.buffers[id].size;
      for (size_t s = first[id]; s < last[id]; ++s) {
        setFloor(s, level + size);
        remaining[s] -= size;
      }
      placed[id] = true;
      hash = hash ^ blockKey[id];
      offsets[id] = level;
      --unplacedCount;
      if (search())
        return true;
      ++unplacedCount;
      placed[id] = false;
      hash = hash ^ blockKey[id];
      for (size_t s = first[id]; s < last[id]; ++s) {
        setFloor(s, level);
        remaining[s] += size;
      }
      if (outOfBudget)
        return false;
    }

    // Branch 2: nothing goes at this spot; its bytes are lost. The section
    // rises to the lowest level a remaining buffer across it can take. (Not
    // in a run without slack.)
    if (tiled || raiseTo == UINT64_MAX || raiseTo > capacity ||
        capacity - raiseTo < remaining[lowest])
      return false;
    setFloor(lowest, raiseTo);
    if (search())
      return true;
    setFloor(lowest, level);
    return false;
  }

  static constexpr size_t kMaxFailedStates = 1 << 22;
  std::vector<char> canFinish;
  std::vector<uint64_t> lowestTop;
  size_t tiledEnd = 0;
  static constexpr uint64_t kRestartBase = 4096;
  uint64_t restartAt = UINT64_MAX;
  bool hitRestart = false;

  const Problem &problem;
  TimeAxis axis;
  size_t sections = 0;
  std::vector<size_t> first, last;
  std::vector<std::vector<uint32_t>> covering;
  std::vector<int32_t> previousTwin;
  std::vector<Key> blockKey, sectionKey;

  uint64_t capacity = 0;
  Budget *budget = nullptr;
  bool outOfBudget = false;
  std::vector<uint64_t> floor, remaining;
  std::vector<bool> placed;
  size_t unplacedCount = 0;
  Key hash{0, 0};
  std::unordered_set<Key, KeyHash> failed;
};

/// The best of the greedy offset algorithms.
PlanResult bestGreedy(const Problem &problem) {
  PlanResult best = planGreedyBySize(problem);
  for (auto algorithm : {planBestFit, planGreedyByBreadth}) {
    if (!best.ok())
      return best;
    PlanResult other = algorithm(problem);
    if (other.ok() && other.solution.arenaSize < best.solution.arenaSize)
      best = std::move(other);
  }
  return best;
}

} // namespace

PlanResult memplan::planSearch(const Problem &problem,
                               const SearchOptions &options) {
  auto started = Clock::now();
  PlanResult result = bestGreedy(problem);
  if (!result.ok())
    return result;
  SearchSummary summary;
  summary.startArena = result.solution.arenaSize;
  uint64_t lowerBound = computeLowerBound(problem);
  uint64_t target = options.capacity.value_or(lowerBound);
  Budget budget;
  auto finish = [&](PlanResult plan, bool proven) {
    summary.nodes = budget.nodes;
    summary.provenOptimal = proven || plan.solution.arenaSize == lowerBound;
    summary.capacityMet =
        !options.capacity || plan.solution.arenaSize <= *options.capacity;
    summary.seconds =
        std::chrono::duration<double>(Clock::now() - started).count();
    plan.solution.search = summary;
    return plan;
  };
  if (result.solution.arenaSize <= target)
    return finish(std::move(result), false);

  // The search works on sizes rounded up to the largest alignment, so that
  // every floor, and so every offset, stays aligned. Without padding (all
  // sizes multiples of it), an exhausted search is a proof.
  uint64_t alignment = 1;
  for (const Buffer &buffer : problem.buffers)
    alignment = std::max(alignment, buffer.alignment);
  Problem padded;
  std::vector<uint32_t> original;
  bool exact = true;
  for (uint32_t i = 0; i < problem.buffers.size(); ++i) {
    Buffer buffer = problem.buffers[i];
    if (buffer.size == 0)
      continue;
    std::optional<uint64_t> size = alignUp(buffer.size, alignment);
    if (!size)
      return finish(std::move(result), false);
    exact &= *size == buffer.size;
    buffer.size = *size;
    buffer.alignment = 1;
    padded.buffers.push_back(buffer);
    original.push_back(i);
  }

  SkylineSearch search(padded);
  budget.deadline =
      started +
      std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(std::max(0.0, options.seconds)));
  budget.nodeLimit = options.nodeLimit;

  // Tries capacity `c`: a found plan replaces the best one.
  // `half`: this attempt gets half of what is left of the budget.
  auto attempt = [&](uint64_t c, bool half) {
    Budget share = budget;
    if (half) {
      share.deadline = Clock::now() + (budget.deadline - Clock::now()) / 2;
      if (budget.nodeLimit)
        share.nodeLimit = budget.nodes + (budget.nodeLimit - budget.nodes) / 2;
    }
    Outcome outcome = search.decide(c, share);
    budget.nodes = share.nodes;
    if (outcome == Outcome::Found) {
      Solution solution;
      solution.offsets.assign(problem.buffers.size(), 0);
      for (size_t k = 0; k < original.size(); ++k) {
        uint32_t i = original[k];
        solution.offsets[i] = search.offsets[k];
        solution.arenaSize = std::max(
            solution.arenaSize, search.offsets[k] + problem.buffers[i].size);
      }
      // Never trust an unchecked plan; never return a worse one.
      if (!validateSolution(problem, solution) &&
          solution.arenaSize < result.solution.arenaSize)
        result.solution = std::move(solution);
    }
    return outcome;
  };

  uint64_t paddedBound = computeLowerBound(padded);
  uint64_t low = std::max(paddedBound, options.capacity ? target : paddedBound);
  if (options.capacity) {
    Outcome outcome = attempt(*options.capacity, false);
    summary.capacityImpossible = outcome == Outcome::Infeasible && exact;
    return finish(std::move(result), false);
  }
  // First the lower bound itself, with half of the budget; then bisect.
  Outcome first = attempt(low, true);
  if (first == Outcome::Infeasible)
    ++low;
  bool allProofs = first == Outcome::Infeasible;
  while (first != Outcome::Found && low < result.solution.arenaSize) {
    uint64_t high = result.solution.arenaSize - 1;
    uint64_t middle = low + (high - low) / 2;
    Outcome outcome = attempt(middle, false);
    if (outcome == Outcome::Found)
      continue; // the best arena dropped to at most `middle`
    if (outcome == Outcome::OutOfBudget) {
      allProofs = false;
      break;
    }
    low = middle + 1;
  }
  bool proven = allProofs && exact && low >= result.solution.arenaSize;
  return finish(std::move(result), proven);
}
