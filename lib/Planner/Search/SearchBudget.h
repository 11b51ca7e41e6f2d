//===- SearchBudget.h - Time and node budgets of a search -------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the planner: what Search.cpp and SkylineSearch.cpp share.
// A search stops when its wall-clock deadline passes or its node limit is
// reached; the node limit makes results reproducible exactly.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_PLANNER_SEARCHBUDGET_H
#define MEMPLAN_LIB_PLANNER_SEARCHBUDGET_H

#include <atomic>
#include <chrono>
#include <cstdint>

namespace memplan {

using SearchClock = std::chrono::steady_clock;

/// How a decision procedure ("is there a plan within C bytes?") ended.
enum class SearchOutcome { Found, Infeasible, OutOfBudget };

struct SearchBudget {
  SearchClock::time_point deadline;
  uint64_t nodeLimit = 0; ///< 0: none
  uint64_t nodes = 0;
  /// The clock is read when (nodes & clockMask) == 0: rarely where nodes are
  /// cheap, every few nodes where they are not (large problems).
  uint64_t clockMask = 1023;
  /// Set by another search running beside this one when it has decided:
  /// this one then stops as if out of budget (read with the clock).
  const std::atomic<bool> *stop = nullptr;

  /// Whether any budget is left, without spending it.
  bool spendOk() const {
    return (!nodeLimit || nodes < nodeLimit) && !outOfTime();
  }

  /// Counts a node; false when the budget is spent.
  bool spend() {
    if (nodeLimit && nodes >= nodeLimit)
      return false;
    ++nodes;
    return (nodes & clockMask) != 0 || !outOfTime();
  }

  /// Counts a step worth `count` nodes, all or none; false when fewer are
  /// left (nothing is counted then) or the time is up (the clock is read
  /// every time: such steps are long).
  bool spend(uint64_t count) {
    if (nodeLimit && (nodes >= nodeLimit || nodeLimit - nodes < count))
      return false;
    nodes += count;
    return !outOfTime();
  }

  /// Whether the deadline has passed or another search has decided: for a
  /// step that reads the clock as it goes.
  bool outOfTime() const { return stopped() || SearchClock::now() >= deadline; }

private:
  bool stopped() const { return stop && stop->load(std::memory_order_relaxed); }
};

/// The Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (Luby, Sinclair, Zuckerman
/// 1993), i >= 1: restart lengths that waste at most a log factor.
inline uint64_t lubySequence(uint64_t i) {
  for (uint64_t k = 1;; ++k) {
    if (i == (uint64_t(1) << k) - 1)
      return uint64_t(1) << (k - 1);
    if (i >= (uint64_t(1) << (k - 1)) && i < (uint64_t(1) << k) - 1)
      return lubySequence(i - (uint64_t(1) << (k - 1)) + 1);
  }
}

/// A 128-bit hash of a search state; failed states are remembered by it.
struct StateKey {
  uint64_t a = 0, b = 0;
  StateKey operator^(const StateKey &other) const {
    return {a ^ other.a, b ^ other.b};
  }
  bool operator==(const StateKey &other) const {
    return a == other.a && b == other.b;
  }
};
struct StateKeyHash {
  size_t operator()(const StateKey &key) const { return key.a; }
};

/// SplitMix64: the random keys of the state hashes.
inline uint64_t splitMix64(uint64_t &state) {
  state += 0x9e3779b97f4a7c15ull;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

} // namespace memplan

#endif // MEMPLAN_LIB_PLANNER_SEARCHBUDGET_H
