//===- Search.cpp - Search for smaller arenas -----------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// planSearch: the best greedy plan first, then the decision procedure of
// SkylineSearch.cpp ("is there a plan within C bytes?") on the problem, and,
// where alignments allow, on its reduction at full sections
// (FullSectionBlocks.h): side by side on two threads, or in turns on one. In
// capacity mode once; otherwise C = lower bound first (half of the budget),
// then bisection between the highest capacity proven too small and the best
// arena found, each step with a quarter of what is left. An exhausted search at
// C proves that no plan fits in C. Where the attempt at the lower bound does
// not find a plan, moves around the arena's top (NeighbourhoodSearch.h) and
// greedy plans from perturbed orders (ReorderSearch.h) come before the
// bisection: on problems of kNeighbourhoodMinBuffers buffers or more with three
// quarters of what is left (the first attempt gets a quarter; in capacity mode
// they come before the attempt gets the rest), on smaller ones, where the
// attempt ran out of budget, with a fifth, ended by jostling (Jostle.h); from
// kReorderBesideMinBuffers buffers, where alignments leave the exact search
// one thread, the spare threads build such plans during its attempts too.
// On large problems the last tenth of the budget jostles the best plan
// (Jostle.h). Every plan found is validated before it is returned.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Search.h"

#include "memplan/Planner/GreedyAlgorithms.h"

#include "FullSectionBlocks.h"
#include "Jostle.h"
#include "NeighbourhoodSearch.h"
#include "OffsetPlacement.h"
#include "ReorderSearch.h"
#include "RunInParallel.h"
#include "SearchBudget.h"
#include "SkylineSearch.h"
#include "TimeAxis.h"
#include "memplan/Planner/Validator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/thread.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <numeric>
#include <thread>
#include <utility>

using namespace memplan;

namespace {

/// The share of what is left of the budget that each bisection step gets
/// (with half, later steps starved: challenging J's minimum arena varied
/// 1.064-1.083 over four runs, with a quarter 1.061-1.063).
constexpr double kBisectionShare = 0.25;

/// The share of what is left of the budget that the neighbourhood search
/// gets on large problems (after the attempt at the lower bound).
constexpr double kNeighbourhoodShare = 0.75;

/// The same on smaller problems. On dense traces of 300-800 buffers the
/// exact search lowered none of its starts in 3 s, and a fifth of what was
/// left after its attempt at the lower bound, for moves, reorderings and
/// jostling, took the 500-buffer traces from 1.0232 to 1.0057 of the bound
/// on average (three quarters did no better); on packed instances the plans
/// come from the bisection that follows, so the smallest share that serves
/// the traces leaves it the most (docs/benchmarks.md).
constexpr double kSmallNeighbourhoodShare = 0.2;

/// The share of the neighbourhood search's budget that goes to moves around
/// the top; plans from perturbed orders get the rest (on the trace family
/// the moves found nothing more after the reorderings, and the reorderings
/// improve with time: docs/benchmarks.md).
constexpr double kMovesShare = 0.25;

/// The share of the budget kept for jostling the best plan (Jostle.h) at the
/// end, on large problems; the steps before it share the rest. On the trace
/// family a tenth of 10 s lowered the plans the other steps had stopped on
/// at every size from 2,000 buffers, and three tenths did no better
/// (docs/benchmarks.md). On smaller problems, the same share of the
/// neighbourhood search's (a round there takes milliseconds, and the
/// rounds stop at a fixpoint long before).
constexpr double kJostleShare = 0.1;

/// From this many buffers, the threads the exact search leaves idle (with
/// alignments, no reduced problem runs beside it) build plans from perturbed
/// orders meanwhile. On the trace family at 10,000 buffers that closed 41.5 %
/// of the gap from the best greedy plan in 10 s against 34 % (five traces);
/// at 1,000, where the exact search and the moves do more, the final plans
/// were worse on five of nine traces and better on three
/// (docs/benchmarks.md).
constexpr size_t kReorderBesideMinBuffers = 5000;

/// The most buffer-section entries (the sum of all lifetimes, in sections)
/// for which the exact search is set up: 20 million take about 80 MB and a
/// fraction of a second.
constexpr uint64_t kMaxExactSectionEntries = 20'000'000;

/// The node budget of the first turn of each problem in planSearch's
/// round robin between a reduced problem and the original.
constexpr uint64_t kFirstTurnNodes = 16384;

/// The best of the greedy offset algorithms, within `seconds` from
/// `started`. One of them, the fallback, runs to the deadline (the naive
/// layout is the start if it does not finish): greedy by size, or the
/// skyline placement on problems where the neighbourhood search runs (it
/// costs O(n log n) however many buffers are live at once, where greedy by
/// size took 5 s of a 10 s budget on a 60,000-buffer trace). The others,
/// with greedy by size as fallback: one after the other, each only while a
/// quarter of the budget has not gone and as long again as greedy by size
/// took still fits; side by side, each stopped at half of the budget. With
/// the skyline as fallback, each stopped at a quarter (on large problems the
/// budget is the search's). Besides greedy by size, best fit and greedy by
/// breadth, the temporal and conflict orders, the two first-fit placements
/// and the two skylines are tried (on the trace family they start the search
/// 2-7 % of the lower bound lower, the skyline up to half of the gap lower at
/// 10,000 buffers and more, the long-lived skyline lower still on most:
/// docs/benchmarks.md). With `threads`
/// above one they run side by side (bestGreedySideBySide), otherwise one
/// after the other, the fallback first.
struct GreedyStart {
  PlanResult plan;
  /// No member finished: the plan is the naive layout.
  bool naive = false;
  /// What the reorderings build on: the skyline, or first fit by conflicts
  /// where that member's plan was smaller (ReorderSearch.h).
  ReorderBase reorderBase = ReorderBase::Skyline;
};
GreedyStart bestGreedy(const Problem &problem, SearchClock::time_point started,
                       double seconds, unsigned threads);

/// A greedy placement bestGreedy tries. Side by side, members start in
/// increasing `runRank` (the fallback first, then the likeliest better
/// starts on dense traces).
using GreedyUntil = PlanResult (*)(const Problem &,
                                   const std::function<bool()> &);
/// A placement that takes threads, on one.
template <PlanResult (*Plan)(const Problem &, const std::function<bool()> &,
                             unsigned)>
PlanResult oneThread(const Problem &problem,
                     const std::function<bool()> &expired) {
  return Plan(problem, expired, 1);
}

struct GreedyMember {
  GreedyUntil plan;
  unsigned runRank;
  /// The reorderings' base this member's plan is the first plan of.
  std::optional<ReorderBase> reorderBase = std::nullopt;
};

/// The greedy members for `problem`, in the order ties go to, and which of
/// them is the fallback. On large problems the skylines run first (cheap,
/// and the best starts on dense traces), then the others.
struct GreedyMembers {
  llvm::SmallVector<GreedyMember, 9> members;
  size_t fallback = 0;
  /// When the members other than the fallback stop, as a share of the
  /// budget.
  double othersShare = 0.5;
};

GreedyMembers greedyMembers(const Problem &problem) {
  GreedyMembers greedy;
  // On one thread each: the search runs its starting plans side by side.
  // The portfolio's nine (planPortfolio) at every size, so that the search
  // never starts above the portfolio's plan (with three, the search ended
  // above it on 13 of 20 traces of 100-800 buffers in 3 s).
  greedy.members = {
      {oneThread<planGreedyBySizeUntil>, 2},
      {oneThread<planBestFitUntil>, 7},
      {oneThread<planGreedyByBreadthUntil>, 8},
      {oneThread<planGreedyByLifetimeUntil>, 3},
      {oneThread<planGreedyByConflictsUntil>, 5},
      {oneThread<planFirstFitBySizeUntil>, 6},
      {oneThread<planFirstFitByConflictsUntil>, 4,
       ReorderBase::FirstFitByConflicts},
      {planLongLivedSkylineUntil, 1, ReorderBase::LongLivedSkyline},
      {planSkylineUntil, 0, ReorderBase::Skyline}};
  size_t placed = llvm::count_if(
      problem.buffers, [](const Buffer &buffer) { return buffer.size; });
  if (placed >= kNeighbourhoodMinBuffers) {
    greedy.fallback = greedy.members.size() - 1;
    greedy.othersShare = 0.25;
  }
  return greedy;
}

/// The members' indices by increasing run rank (ties: the earlier member).
llvm::SmallVector<size_t, 9> runOrderOf(const GreedyMembers &greedy) {
  llvm::SmallVector<size_t, 9> order(greedy.members.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return greedy.members[a].runRank < greedy.members[b].runRank;
  });
  return order;
}

SearchClock::time_point after(SearchClock::time_point started, double seconds) {
  return started + std::chrono::duration_cast<SearchClock::duration>(
                       std::chrono::duration<double>(seconds));
}

/// The threads the starting plans and the neighbourhood walks run on: as
/// many as asked for, the machine's by default, but with a node budget and
/// no thread count one (the result depends on their number, which the
/// machine's would make vary between machines).
unsigned searchThreads(const SearchOptions &options) {
  if (options.nodeLimit && !options.threads)
    return 1;
  unsigned threads =
      options.threads ? options.threads : std::thread::hardware_concurrency();
  return std::max(1u, std::min(threads, kMaxSearchThreads));
}

/// The start from the members' results (a member that did not run or
/// finish has an error): the smallest arena, ties to the earlier member,
/// the naive layout if none finished; the fallback's error if the problem
/// is bad or overflows. The reorderings' base is that of the smallest of the
/// skyline's, the long-lived skyline's and first fit by conflicts' plans
/// (ties: the skylines, whose plans cost less); where a skyline's plan is
/// the smallest, the long-lived skyline where it splits the problem, else
/// the skyline (skylineBaseFor: on smaller problems, whole skyline plans
/// did better, docs/benchmarks.md).
GreedyStart pickStart(const Problem &problem, const GreedyMembers &greedy,
                      std::vector<PlanResult> &results) {
  GreedyStart start;
  PlanResult &fallback = results[greedy.fallback];
  if (!fallback.ok() && fallback.error != kOutOfTime) {
    start.plan = std::move(fallback);
    return start;
  }
  std::optional<uint64_t> baseArena;
  PlanResult *best = nullptr;
  for (size_t member = 0; member < results.size(); ++member) {
    PlanResult &result = results[member];
    if (!result.ok())
      continue;
    uint64_t arena = result.solution.arenaSize;
    if (std::optional<ReorderBase> base = greedy.members[member].reorderBase;
        base &&
        (!baseArena || arena < *baseArena ||
         (arena == *baseArena && *base != ReorderBase::FirstFitByConflicts))) {
      baseArena = arena;
      start.reorderBase = *base;
    }
    if (!best || arena < best->solution.arenaSize)
      best = &result;
  }
  // Only where a member with a base finished: the split reads the whole
  // time axis.
  if (baseArena && start.reorderBase != ReorderBase::FirstFitByConflicts)
    start.reorderBase = skylineBaseFor(problem);
  start.naive = !best;
  start.plan = best ? std::move(*best) : planNaive(problem);
  return start;
}

/// bestGreedy on `threads` threads: every member starts as soon as a thread
/// is free, in increasing run rank. Where every member finishes, the start
/// is the one the sequential version picks (same members, same ties); where
/// the fallback does not, the best of those that did.
GreedyStart bestGreedySideBySide(const Problem &problem,
                                 SearchClock::time_point started,
                                 double seconds, unsigned threads) {
  GreedyMembers greedy = greedyMembers(problem);
  llvm::SmallVector<GreedyMember, 9> &members = greedy.members;
  llvm::SmallVector<size_t, 9> runOrder = runOrderOf(greedy);
  std::vector<PlanResult> results(members.size());
  SearchClock::time_point deadline = after(started, seconds),
                          othersStop =
                              after(started, seconds * greedy.othersShare);
  runInParallel(members.size(), threads, [&](size_t k) {
    size_t member = runOrder[k];
    SearchClock::time_point stop =
        member == greedy.fallback ? deadline : othersStop;
    results[member] = members[member].plan(
        problem, [stop] { return SearchClock::now() >= stop; });
  });
  return pickStart(problem, greedy, results);
}

GreedyStart bestGreedy(const Problem &problem, SearchClock::time_point started,
                       double seconds, unsigned threads) {
  if (threads > 1)
    return bestGreedySideBySide(problem, started, seconds, threads);
  GreedyMembers greedy = greedyMembers(problem);
  SearchClock::time_point deadline = after(started, seconds),
                          othersStop =
                              after(started, seconds * greedy.othersShare);
  std::vector<PlanResult> results(greedy.members.size(),
                                  PlanResult{{}, "not run"});
  PlanResult &fallback = results[greedy.fallback];
  fallback = greedy.members[greedy.fallback].plan(
      problem, [&] { return SearchClock::now() >= deadline; });
  auto elapsed = [&] {
    return std::chrono::duration<double>(SearchClock::now() - started).count();
  };
  double fallbackTook = elapsed();
  // The others in the order they start in side by side.
  for (size_t member : runOrderOf(greedy)) {
    if (!fallback.ok())
      break;
    if (member == greedy.fallback)
      continue;
    if (greedy.fallback == 0) {
      // Greedy by size as fallback: the others only start while a quarter
      // of the budget has not gone and as long again as it took still fits.
      if (elapsed() > seconds / 4 || elapsed() + fallbackTook > seconds)
        break;
      results[member] = greedy.members[member].plan(problem, {});
    } else {
      results[member] = greedy.members[member].plan(
          problem, [&] { return SearchClock::now() >= othersStop; });
    }
  }
  return pickStart(problem, greedy, results);
}

/// Runs `body` on a thread with a stack of `bytes`, joined on destruction,
/// so that a deep search cannot overflow the caller's stack, whatever thread
/// that is (llvm::thread sets the stack size; std::thread cannot).
class StackThread {
public:
  StackThread(unsigned bytes, std::function<void()> body)
      : thread(std::optional<unsigned>(bytes), std::move(body)) {}
  ~StackThread() { thread.join(); }
  StackThread(const StackThread &) = delete;
  StackThread &operator=(const StackThread &) = delete;

private:
  llvm::thread thread;
};

/// The problem the search works on, empty buffers dropped. Where every
/// size is a multiple of the largest alignment, every floor is too, so
/// alignments can be dropped: the search then also works on the reduction
/// at full sections, whose blocks have no alignment of their own. Otherwise
/// buffers keep their sizes and alignments and the search places each at a
/// multiple of its own (padding sizes to the largest alignment, as this
/// once did, loses the plans where a buffer of a smaller alignment sits
/// right on top of one whose size that alignment does not round, and the
/// real top of the arena's highest buffer). Either way an exhausted search
/// is a proof.
struct SearchProblem {
  Problem problem;
  /// The index in the original problem of each buffer.
  std::vector<uint32_t> original;
  /// Whether alignments were dropped (the reduction applies).
  bool unaligned = true;
};

SearchProblem prepareForSearch(const Problem &problem) {
  uint64_t alignment = 1;
  for (const Buffer &buffer : problem.buffers)
    if (buffer.size)
      alignment = std::max(alignment, buffer.alignment);
  SearchProblem prepared;
  for (uint32_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &buffer = problem.buffers[i];
    if (buffer.size == 0)
      continue;
    prepared.unaligned &= buffer.size % alignment == 0;
    prepared.problem.buffers.push_back(buffer);
    prepared.original.push_back(i);
  }
  if (prepared.unaligned)
    for (Buffer &buffer : prepared.problem.buffers)
      buffer.alignment = 1;
  return prepared;
}

/// One search: the best plan so far, the budget, and the steps that try
/// capacities (attempt), minimise the arena (minimise) or meet a capacity.
class CapacitySearch {
public:
  CapacitySearch(const Problem &problem, const SearchOptions &options,
                 SearchProblem input, PlanResult start,
                 SearchClock::time_point started, double seconds,
                 ReorderBase reorderBase)
      : problem(problem), prepared(std::move(input)), result(std::move(start)),
        reorderBase(reorderBase) {
    // The exact search keeps, per section, the buffers live there: the sum
    // of all lifetimes. Where that is too large to set up within any sensible
    // budget (60,000-buffer traces: 1.4 GB and seconds past the deadline), it
    // could not place a node anyway; moves around the top get the budget.
    uint64_t entries = 0;
    {
      TimeAxis axis(this->prepared.problem);
      for (const Buffer &buffer : this->prepared.problem.buffers)
        entries += axis.rank(buffer.end) - axis.rank(buffer.start);
    }
    if (entries <= kMaxExactSectionEntries)
      search.emplace(this->prepared.problem);
    budget.deadline = after(started, seconds);
    budget.nodeLimit = options.nodeLimit;
    // Side by side on two threads only without a node limit: which search
    // decides first depends on timing. The neighbourhood search runs one
    // walk per thread.
    walks = searchThreads(options);
    sideBySide = walks >= 2 && !options.nodeLimit;
    // Read the clock about every 2^14 / n nodes. A node costs at least
    // O(n) here, and where lifetimes are long far more (it raises the
    // floor of every section the buffer spans and scans the buffers across
    // one): with every 2^20 / n nodes, 10,000-buffer traces ran up to 1 s
    // past a 2 s budget. A clock read costs tens of nanoseconds.
    size_t count = this->prepared.problem.buffers.size();
    while (budget.clockMask > 0 &&
           (budget.clockMask + 1) * count > (size_t(1) << 14))
      budget.clockMask >>= 1;
  }

  /// Tries capacity `c` with `fraction` of what is left of the budget; a
  /// plan found replaces the best one.
  SearchOutcome attempt(uint64_t c, double fraction) {
    SearchBudget share = shareOfBudget(fraction);
    SearchOutcome outcome = SearchOutcome::OutOfBudget;
    std::vector<uint64_t> offsets;
    // Blocks have no alignment of their own: with alignments, no reduction.
    MergedProblem merged;
    if (prepared.unaligned)
      merged = reduceAtFullBoundaries(prepared.problem, c);
    if (!prepared.unaligned ||
        merged.problem.buffers.size() == prepared.problem.buffers.size()) {
      if (sideBySide &&
          prepared.problem.buffers.size() >= kReorderBesideMinBuffers)
        outcome = decideBesideReorderings(c, share);
      else
        outcome = search->decide(c, share);
      offsets = search->offsets();
    } else {
      SkylineSearch reduced(merged.problem);
      SkylineSearch *decider =
          sideBySide ? decideSideBySide(reduced, c, share, outcome)
                     : decideInTurns(reduced, merged, c, share, outcome);
      if (decider == &*search)
        offsets = search->offsets();
      else if (decider)
        for (size_t k = 0; k < merged.blockOf.size(); ++k)
          offsets.push_back(reduced.offsets()[merged.blockOf[k]] +
                            merged.within[k]);
    }
    budget.nodes = share.nodes;
    if (outcome == SearchOutcome::Found)
      adopt(offsets);
    return outcome;
  }

  /// First the lower bound itself, with half of the budget (a quarter on
  /// large problems); where that finds no plan, moves around the top and
  /// plans from perturbed orders with three quarters of what is left (on
  /// smaller problems a fifth, its last tenth jostling, and only where the
  /// attempt ran out of budget); then bisect,
  /// each step with a quarter of what is left. A step out of budget gives up
  /// the capacities up to its own (not proven infeasible) and goes on above
  /// it, so that one hard capacity does not take all that is left. When the
  /// steps have gone all the way up and budget is left, the capacities given
  /// up are tried again (no plan fits below `provenLow`). On large problems
  /// all of that shares nine tenths of the budget, and jostling the best
  /// plan the last tenth. Returns whether the best arena is proven minimal.
  bool minimise() {
    if (!budget.spendOk())
      return false; // the set-up took what was left
    uint64_t low = computeLowerBound(prepared.problem);
    return jostlingLast(low, [&] { return minimiseUpTo(low); });
  }

  /// Whether a plan of at most `capacity` bytes was proven impossible (on
  /// large problems, jostling last, as in minimise()).
  bool provenImpossible(uint64_t capacity) {
    return jostlingLast(
        capacity, [&] { return provenImpossibleBeforeJostling(capacity); });
  }

  /// Records an exhausted capacity; whether `outcome` says it was.
  bool noteImpossible(SearchOutcome outcome, uint64_t capacity) {
    bool impossible = outcome == SearchOutcome::Infeasible;
    if (impossible)
      provenLow = std::max(provenLow, capacity + 1);
    return impossible;
  }

  /// No plan is smaller than this (capacities exhausted, plus one).
  uint64_t provenBound() const { return provenLow; }
  uint64_t neighbourhoodImprovements() const { return improvements; }

  PlanResult takeResult() { return std::move(result); }
  uint64_t nodes() const { return budget.nodes; }
  uint64_t rejectedPlans() const { return rejected; }

private:
  /// Problems where the exact search rarely finishes (real traces): the
  /// neighbourhood search gets part of the budget.
  bool large() const {
    return prepared.problem.buffers.size() >= kNeighbourhoodMinBuffers;
  }

  /// On large problems, `steps` with all but kJostleShare of the budget,
  /// then jostling the best plan towards `target` (or the proven bound)
  /// with what is left; elsewhere `steps` alone. Returns what `steps` does.
  bool jostlingLast(uint64_t target, llvm::function_ref<bool()> steps) {
    if (!large())
      return steps();
    SearchBudget whole = budget;
    budget = shareOfBudget(1 - kJostleShare);
    bool decided = steps();
    budget.deadline = whole.deadline;
    budget.nodeLimit = whole.nodeLimit;
    if (!decided)
      jostle(target, 1.0);
    return decided;
  }

  /// Jostles the best plan (Jostle.h) towards `target` (or the proven
  /// bound) with `fraction` of what is left of the budget, until a round
  /// changes nothing.
  void jostle(uint64_t target, double fraction) {
    target = std::max(target, provenLow);
    if (result.solution.arenaSize > target && budget.spendOk())
      improveWith(
          [](const Problem &problem, Solution &plan, uint64_t target,
             SearchBudget &share, unsigned) {
            return improveByJostling(problem, plan, target, share);
          },
          target, fraction);
  }

  /// minimise() before the jostling.
  bool minimiseUpTo(uint64_t low) {
    if (!search) {
      moveAroundTheTop(low, 1.0);
      return false;
    }
    SearchOutcome first = attempt(low, large() ? 0.25 : 0.5);
    if (first == SearchOutcome::Infeasible)
      ++low;
    provenLow = std::max(provenLow, low);
    if (first != SearchOutcome::Found) {
      if (large()) {
        moveAroundTheTop(low, kNeighbourhoodShare);
      } else if (first == SearchOutcome::OutOfBudget) {
        // Only where the exact search struggles: where it exhausted the
        // lower bound, the bisection mostly decides quickly too (small
        // problems with mixed alignments: milliseconds), and moves would
        // take their whole share of the budget first. The last tenth of
        // the neighbourhood search's share jostles.
        moveAroundTheTop(low, kSmallNeighbourhoodShare * (1 - kJostleShare));
        jostle(low, kSmallNeighbourhoodShare * kJostleShare /
                        (1 - kSmallNeighbourhoodShare * (1 - kJostleShare)));
      }
    }
    while (first != SearchOutcome::Found && budget.spendOk()) {
      if (low >= result.solution.arenaSize) {
        if (provenLow >= result.solution.arenaSize)
          break;
        low = provenLow;
      }
      uint64_t high = result.solution.arenaSize - 1;
      uint64_t middle = low + (high - low) / 2;
      SearchOutcome outcome = attempt(middle, kBisectionShare);
      if (outcome == SearchOutcome::Found)
        continue; // the best arena dropped to at most `middle`
      if (outcome == SearchOutcome::Infeasible)
        provenLow = std::max(provenLow, middle + 1);
      low = middle + 1;
    }
    return provenLow >= result.solution.arenaSize;
  }

  /// provenImpossible() before the jostling.
  bool provenImpossibleBeforeJostling(uint64_t capacity) {
    if (!search) {
      moveAroundTheTop(capacity, 1.0);
      return false;
    }
    if (large()) {
      // As in minimise(): the exact search first, then moves, then the
      // exact search again with what is left (unless the moves got there).
      SearchOutcome first = attempt(capacity, 0.25);
      if (first != SearchOutcome::OutOfBudget)
        return noteImpossible(first, capacity);
      moveAroundTheTop(capacity, kNeighbourhoodShare);
      if (result.solution.arenaSize <= capacity)
        return false;
    }
    return noteImpossible(attempt(capacity, 1.0), capacity);
  }

  /// With `fraction` of what is left of the budget, until the arena reaches
  /// `target`: moves around the top of the best plan
  /// (a quarter), then plans from perturbed orders on `reorderBase` (the
  /// rest).
  /// Each result is validated before it replaces the best plan.
  void moveAroundTheTop(uint64_t target, double fraction) {
    if (result.solution.arenaSize <= target || !budget.spendOk())
      return;
    double movesFraction = fraction * kMovesShare;
    improveWith(improveByNeighbourhoods, target, movesFraction);
    if (result.solution.arenaSize <= target || !budget.spendOk())
      return;
    // The rest of `fraction` of what was left before the moves.
    improveWith(
        [this](const Problem &problem, Solution &plan, uint64_t target,
               SearchBudget &share, unsigned walks) {
          return improveByReordering(problem, plan, target, share, walks,
                                     reorderBase, &reorderWalks);
        },
        target, fraction * (1 - kMovesShare) / (1 - movesFraction));
  }

  /// Runs `improve` (the neighbourhood moves or the reorderings, one walk
  /// per thread) on a copy of the best plan with `fraction` of what is left
  /// of the budget, and adopts what it returns if that is smaller.
  using Improver = llvm::function_ref<uint64_t(
      const Problem &, Solution &, uint64_t, SearchBudget &, unsigned)>;
  void improveWith(Improver improve, uint64_t target, double fraction) {
    SearchBudget share = shareOfBudget(fraction);
    Solution plan = result.solution;
    improvements += improve(problem, plan, target, share, walks);
    budget.nodes = share.nodes;
    adoptIfSmaller(std::move(plan));
  }

  /// `plan` replaces the best one if it is valid and smaller. Only a smaller
  /// plan is validated: one that is not taken cannot do harm, and the
  /// validator costs about 0.5 s at a million buffers, after the deadline
  /// where a walk returns its start unchanged.
  void adoptIfSmaller(Solution plan) {
    if (plan.arenaSize >= result.solution.arenaSize)
      return;
    if (validateSolution(problem, plan))
      ++rejected;
    else
      result.solution = std::move(plan);
  }

  /// The budget for one attempt: `fraction` of the time (and nodes) left.
  SearchBudget shareOfBudget(double fraction) const {
    SearchBudget share = budget;
    if (fraction < 1) {
      share.deadline = SearchClock::now() +
                       std::chrono::duration_cast<SearchClock::duration>(
                           (budget.deadline - SearchClock::now()) * fraction);
      if (budget.nodeLimit)
        share.nodeLimit =
            budget.nodes +
            std::max<uint64_t>(
                1, uint64_t((budget.nodeLimit - budget.nodes) * fraction));
    }
    return share;
  }

  /// Where there is no reduced problem to search beside the original (with
  /// alignments) the exact search keeps one thread: on a problem of
  /// kReorderBesideMinBuffers or more the others build plans from perturbed
  /// orders meanwhile (as in moveAroundTheTop, towards `c`), until the exact
  /// search decides or a plan reaches `c`; a smaller plan replaces the best
  /// one. The exact search rarely decides on such problems (real traces), so
  /// the spare threads would otherwise wait out its share of the budget.
  SearchOutcome decideBesideReorderings(uint64_t c, SearchBudget &share) {
    std::atomic<bool> decided{false}, reached{false};
    SearchBudget exact = share, reordering = share;
    exact.stop = &reached;
    reordering.stop = &decided;
    Solution plan = result.solution;
    SearchOutcome outcome = SearchOutcome::OutOfBudget;
    {
      StackThread helper(kSearchStackBytes, [&] {
        outcome = search->decide(c, exact);
        if (outcome != SearchOutcome::OutOfBudget)
          decided = true;
      });
      if (plan.arenaSize > c) {
        improvements +=
            improveByReordering(problem, plan, c, reordering, walks - 1,
                                reorderBase, &reorderWalks);
        if (plan.arenaSize <= c)
          reached = true;
      }
    }
    share.nodes = exact.nodes + (reordering.nodes - share.nodes);
    adoptIfSmaller(std::move(plan));
    return outcome;
  }

  /// The reduced problem here, the original on a second thread, each with
  /// the whole budget; the first to decide stops the other. Returns the
  /// search that decided, if one did.
  SkylineSearch *decideSideBySide(SkylineSearch &reduced, uint64_t c,
                                  SearchBudget &share, SearchOutcome &outcome) {
    std::atomic<bool> decided{false};
    SearchBudget mine = share, theirs = share;
    mine.stop = theirs.stop = &decided;
    SearchOutcome other = SearchOutcome::OutOfBudget;
    {
      StackThread helper(kSearchStackBytes, [&] {
        other = search->decide(c, theirs);
        if (other != SearchOutcome::OutOfBudget)
          decided = true;
      });
      outcome = reduced.decide(c, mine);
      if (outcome != SearchOutcome::OutOfBudget)
        decided = true;
    }
    share.nodes = mine.nodes + (theirs.nodes - share.nodes);
    if (outcome != SearchOutcome::OutOfBudget)
      return &reduced;
    if (other != SearchOutcome::OutOfBudget) {
      outcome = other;
      return &*search;
    }
    return nullptr;
  }

  /// Both problems are searched, in turns of doubling budgets: the reduced
  /// one is smaller, but its search may take a bad turn that the other's
  /// does not (runtimes are heavy-tailed). A turn is the same work on both:
  /// a node costs O(n log n) for n buffers, so the reduced problem gets
  /// proportionally more nodes (counted, not timed, so that node limits stay
  /// reproducible). Returns the search that decided, if one did.
  SkylineSearch *decideInTurns(SkylineSearch &reduced,
                               const MergedProblem &merged, uint64_t c,
                               SearchBudget &share, SearchOutcome &outcome) {
    for (uint64_t turn = kFirstTurnNodes;
         outcome == SearchOutcome::OutOfBudget && share.spendOk(); turn *= 2)
      for (SkylineSearch *which : {&reduced, &*search}) {
        SearchBudget slice = share;
        uint64_t nodes =
            which == &*search
                ? turn
                : turn * prepared.problem.buffers.size() /
                      std::max<size_t>(1, merged.problem.buffers.size());
        if (!share.nodeLimit || share.nodeLimit - share.nodes > nodes)
          slice.nodeLimit = share.nodes + nodes;
        outcome = which->decide(c, slice);
        share.nodes = slice.nodes;
        if (outcome != SearchOutcome::OutOfBudget)
          return which;
        if (!share.spendOk())
          break;
      }
    return nullptr;
  }

  /// Takes the offsets of a plan found for the prepared problem, if the
  /// validator accepts them and they beat the best plan. Never trusts an
  /// unchecked plan (one that fails is a bug, counted so that tests and
  /// fuzzers see it); never returns a worse one.
  void adopt(const std::vector<uint64_t> &offsets) {
    Solution solution;
    solution.offsets.assign(problem.buffers.size(), 0);
    for (size_t k = 0; k < prepared.original.size(); ++k) {
      uint32_t i = prepared.original[k];
      solution.offsets[i] = offsets[k];
      solution.arenaSize =
          std::max(solution.arenaSize, offsets[k] + problem.buffers[i].size);
    }
    adoptIfSmaller(std::move(solution));
  }

  const Problem &problem;
  SearchProblem prepared;
  /// The exact search, where it can be set up (see the constructor).
  std::optional<SkylineSearch> search;
  PlanResult result;
  SearchBudget budget;
  /// The largest capacity proven too small, plus one (at least the lower
  /// bound).
  uint64_t provenLow = 0;
  uint64_t improvements = 0;
  /// What the reorderings build on, and where their walks stopped.
  ReorderBase reorderBase;
  ReorderWalkState reorderWalks;
  bool sideBySide = false;
  /// Independent neighbourhood walks, one per thread.
  unsigned walks = 1;
  uint64_t rejected = 0;
};

/// The search, on the calling thread (planSearch gives it a large stack):
/// the best greedy plan, then, unless that is already at the target,
/// capacities tried by CapacitySearch.
PlanResult planSearchOnThisStack(const Problem &problem,
                                 const SearchOptions &options) {
  auto started = SearchClock::now();
  // A budget outside [0, kMaxSearchSeconds] (NaN, infinity, negative) is
  // clamped before it becomes a duration: converting a double beyond the
  // clock's range to its integer ticks is undefined behaviour.
  double seconds = options.seconds >= 0 ? options.seconds : 0.0;
  seconds = std::min(seconds, kMaxSearchSeconds);
  GreedyStart start =
      bestGreedy(problem, started, seconds, searchThreads(options));
  PlanResult &result = start.plan;
  if (!result.ok())
    return result;
  SearchSummary summary;
  summary.startArena = result.solution.arenaSize;
  summary.startedFromNaive = start.naive;
  uint64_t lowerBound = computeLowerBound(problem);
  uint64_t target = options.capacity.value_or(lowerBound);
  auto finish = [&](PlanResult plan, bool proven, uint64_t nodes,
                    uint64_t provenBound) {
    summary.nodes = nodes;
    summary.provenOptimal = proven || plan.solution.arenaSize == lowerBound;
    summary.provenBound = summary.provenOptimal
                              ? plan.solution.arenaSize
                              : std::max(lowerBound, provenBound);
    summary.capacityMet =
        !options.capacity || plan.solution.arenaSize <= *options.capacity;
    summary.seconds =
        std::chrono::duration<double>(SearchClock::now() - started).count();
    plan.solution.search = summary;
    return plan;
  };
  if (result.solution.arenaSize <= target)
    return finish(std::move(result), false, 0, lowerBound);
  // Where the greedy plans took the whole budget (a million buffers in a
  // second or two), setting up the search would only run past it: about
  // 0.8 s at a million buffers before its first clock read.
  if (SearchClock::now() >= after(started, seconds))
    return finish(std::move(result), false, 0, lowerBound);
  CapacitySearch search(problem, options, prepareForSearch(problem),
                        std::move(result), started, seconds, start.reorderBase);
  bool proven = false;
  if (options.capacity)
    summary.capacityImpossible = search.provenImpossible(*options.capacity);
  else
    proven = search.minimise();
  summary.rejectedPlans = search.rejectedPlans();
  summary.neighbourhoodImprovements = search.neighbourhoodImprovements();
  uint64_t nodes = search.nodes();
  uint64_t bound = search.provenBound();
  return finish(search.takeResult(), proven, nodes, bound);
}

} // namespace

PlanResult memplan::planSearch(const Problem &problem,
                               const SearchOptions &options) {
  PlanResult result;
  {
    StackThread thread(kSearchStackBytes, [&] {
      result = planSearchOnThisStack(problem, options);
    });
  }
  return result;
}
