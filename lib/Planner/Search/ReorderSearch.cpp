//===- ReorderSearch.cpp - Skyline plans from perturbed orders ------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Measured before it was chosen (docs/benchmarks.md, traces of 1,000 to
// 60,000 buffers): each base did better where its own unperturbed plan was
// the smaller one (at 10,000 buffers, where the skyline's always is, skyline
// plans closed 34 % of the gap left against first fit's 7 %: a skyline plan
// costs 10 ms there, a first-fit plan 150 ms; on the 1,000-buffer traces
// where first fit by conflicts' plan is smaller, first fit closed 79 %
// against 72 %); for first fit, greedy by size's order closed half as much
// as conflicts', the plan's own order by offset almost nothing. Moving a few
// buffers per plan beat moving all of them a little (every buffer's key times a
// random factor made first-fit plans 2-3 % of the lower bound worse at 10,000
// buffers); the count of moved buffers is drawn log-uniformly so that no
// one count has to be tuned per problem size.
//
//===----------------------------------------------------------------------===//

#include "ReorderSearch.h"

#include "BufferOrder.h"
#include "IndependentWalks.h"
#include "LongLivedSkyline.h"
#include "OffsetPlacement.h"
#include "SkylinePlacement.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <vector>

namespace memplan {

namespace {

/// At most this share of the buffers moves in one new order (1 / 20).
constexpr uint64_t kMaxMovedDivisor = 20;

/// A moved buffer's position (plus one) is scaled by e^x, x normal with
/// this standard deviation: mostly within a third either way.
constexpr double kPositionSpread = 0.3;

/// Builds the plan of an order, stopping when `expired` says so.
using PlanOf = llvm::function_ref<PlanResult(const std::vector<uint32_t> &,
                                             const std::function<bool()> &)>;

/// One walk from `order` (whose plan's arena is `current`, or UINT64_MAX
/// if not built yet), with `planOf` and its own random draws; `order` and
/// `current` end as the walk's last accepted order and its arena. The
/// order is a permutation of 0 .. order.size() - 1 (the buffers, or the
/// long-lived ones); a plan costs as many nodes as the problem's buffers.
uint64_t walk(const Problem &problem, PlanOf planOf,
              std::vector<uint32_t> &order, uint64_t &current,
              Solution &solution, uint64_t target, SearchBudget &budget,
              uint64_t seed) {
  size_t count = order.size();
  std::mt19937_64 rng(0x0de7ull ^ count ^ seed);
  std::uniform_real_distribution<double> logMoved(
      0, std::log(std::max<double>(2, double(count) / kMaxMovedDivisor)));
  std::lognormal_distribution<double> spread(0, kPositionSpread);
  uint64_t cost =
      std::max<uint64_t>(1, problem.buffers.size() / kReorderBuffersPerNode);
  uint64_t improvements = 0;
  std::vector<double> position(count);
  std::vector<uint32_t> candidate;
  auto expired = [&] { return budget.outOfTime(); };
  // With fewer than two buffers to order, the first plan is the only one.
  while (solution.arenaSize > target && (current == UINT64_MAX || count >= 2) &&
         budget.spend(cost)) {
    candidate = order;
    if (current != UINT64_MAX) { // the first plan is the order's own
      for (size_t k = 0; k < count; ++k)
        position[order[k]] = double(k);
      auto moved = static_cast<uint64_t>(std::exp(logMoved(rng)));
      for (uint64_t m = 0; m < moved; ++m) {
        uint32_t id = static_cast<uint32_t>(rng() % count);
        position[id] = (position[id] + 1) * spread(rng) - 1;
      }
      std::sort(candidate.begin(), candidate.end(),
                [&](uint32_t a, uint32_t b) {
                  return position[a] < position[b] ||
                         (position[a] == position[b] && a < b);
                });
    }
    PlanResult plan = planOf(candidate, expired);
    if (!plan.ok()) {
      if (plan.error == kOutOfTime)
        break;
      continue; // an offset would overflow: try another order
    }
    if (plan.solution.arenaSize > current)
      continue;
    current = plan.solution.arenaSize;
    order.swap(candidate);
    if (current < solution.arenaSize) {
      solution = std::move(plan.solution);
      ++improvements;
    }
  }
  return improvements;
}

} // namespace

ReorderBase skylineBaseFor(const Problem &problem) {
  return LongLivedSkyline::splits(problem) ? ReorderBase::LongLivedSkyline
                                           : ReorderBase::Skyline;
}

uint64_t improveByReordering(const Problem &problem, Solution &solution,
                             uint64_t target, SearchBudget &budget,
                             unsigned walks, ReorderBase base,
                             ReorderWalkState *state) {
  // The order and the placement's time axis read no clock (about 0.5 s at
  // a million buffers): not begun when no time is left.
  if (problem.buffers.empty() || !budget.spendOk())
    return 0;
  // One placement for every walk and plan: its slots are the same for all.
  std::optional<SkylinePlacement> skyline;
  std::optional<LongLivedSkyline> longLived;
  if (base == ReorderBase::Skyline)
    skyline.emplace(problem);
  else if (base == ReorderBase::LongLivedSkyline)
    longLived.emplace(problem);
  std::vector<uint32_t> order;
  uint64_t arena = UINT64_MAX, calls = 0;
  if (state && !state->order.empty()) {
    order = state->order;
    arena = state->arena;
  } else if (skyline) {
    order = orderByLifetimeThenSize(problem);
  } else if (longLived) {
    order = longLived->defaultPriority();
  } else {
    order = orderByConflicts(problem);
  }
  if (state)
    calls = state->calls++;
  auto planOf = [&](const std::vector<uint32_t> &candidate,
                    const std::function<bool()> &expired) {
    if (skyline)
      return skyline->place(candidate, expired);
    if (longLived)
      return longLived->place(candidate, expired);
    return placeInOrder(problem, candidate, expired,
                        OffsetPlacement::Fit::First);
  };
  // Each walk's order and arena; runIndependentWalks numbers the walks in
  // the seed's high half.
  std::vector<std::vector<uint32_t>> orders(std::max(1u, walks), order);
  std::vector<uint64_t> arenas(orders.size(), arena);
  uint64_t improvements = runIndependentWalks(
      solution, budget, walks,
      [&](Solution &walked, SearchBudget &share, uint64_t seed) {
        size_t w = seed >> 32;
        return walk(problem, planOf, orders[w], arenas[w], walked, target,
                    share, seed ^ (calls * 0x9e3779b97f4a7c15ull));
      });
  if (state) {
    size_t best =
        std::min_element(arenas.begin(), arenas.end()) - arenas.begin();
    state->order = std::move(orders[best]);
    state->arena = arenas[best];
  }
  return improvements;
}

} // namespace memplan
