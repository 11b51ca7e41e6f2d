//===- SchedulingTest.cpp - Op orders against exhaustive enumeration ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The oracle is written apart from Scheduling.cpp and deliberately simple:
// an order is checked by replaying it (every op after its predecessors, each
// op once) and its peak is recomputed by walking the order and summing, at
// every step, each buffer whose creator has run and some user has not run
// before this step. Small random graphs are enumerated exhaustively
// (std::next_permutation) for the exact optimum.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Scheduling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

/// Independent: is `order` a topological order of all ops?
bool replayable(const ScheduleProblem &problem, const Schedule &order) {
  std::vector<bool> done(problem.ops.size(), false);
  if (order.size() != problem.ops.size())
    return false;
  for (uint32_t op : order) {
    if (op >= problem.ops.size() || done[op])
      return false;
    for (uint32_t predecessor : problem.ops[op].predecessors)
      if (!done[predecessor])
        return false;
    done[op] = true;
  }
  return true;
}

/// Independent: the peak of `order`, step by step.
uint64_t replayPeak(const ScheduleProblem &problem, const Schedule &order) {
  std::vector<size_t> position(problem.ops.size());
  for (size_t p = 0; p < order.size(); ++p)
    position[order[p]] = p;
  uint64_t peak = 0;
  for (size_t p = 0; p < order.size(); ++p) {
    uint64_t memory = problem.ops[order[p]].scratch;
    for (const ScheduleProblem::Buffer &buffer : problem.buffers) {
      size_t created = position[buffer.creator];
      size_t lastUse = created;
      for (uint32_t user : buffer.users)
        lastUse = std::max(lastUse, position[user]);
      if (created <= p && p <= lastUse)
        memory += buffer.size;
    }
    peak = std::max(peak, memory);
  }
  return peak;
}

/// A random DAG of `n` ops in which op i reads buffers of earlier ops:
/// `layered` draws readers from the previous few ops (chains with skip
/// connections, like transformer layers), otherwise from any earlier op
/// (irregular cells). Some ops have a second output or scratch; some ops
/// are ordered by an extra edge (a memory effect).
ScheduleProblem randomProblem(std::mt19937_64 &rng, size_t n, bool layered) {
  ScheduleProblem problem;
  problem.ops.resize(n);
  auto size = [&] { return uint64_t(1) << (rng() % 8); };
  for (uint32_t op = 0; op < n; ++op) {
    if (rng() % 4 == 0)
      problem.ops[op].scratch = size();
    unsigned outputs = rng() % 5 == 0 ? 2 : 1;
    for (unsigned o = 0; o < outputs; ++o)
      problem.buffers.push_back({size(), op, {}});
  }
  for (uint32_t b = 0; b < problem.buffers.size(); ++b) {
    uint32_t creator = problem.buffers[b].creator;
    for (uint32_t op = creator + 1; op < n; ++op) {
      bool near = op - creator <= 3;
      unsigned odds = layered ? (near ? 2 : 12) : 4;
      if (rng() % odds == 0)
        problem.buffers[b].users.push_back(op);
    }
  }
  for (uint32_t op = 0; op < n; ++op) {
    std::vector<uint32_t> &predecessors = problem.ops[op].predecessors;
    for (const ScheduleProblem::Buffer &buffer : problem.buffers)
      if (std::count(buffer.users.begin(), buffer.users.end(), op) &&
          std::find(predecessors.begin(), predecessors.end(), buffer.creator) ==
              predecessors.end())
        predecessors.push_back(buffer.creator);
    if (op > 0 && rng() % 6 == 0)
      predecessors.push_back(uint32_t(rng() % op));
  }
  return problem;
}

uint64_t exhaustiveOptimum(const ScheduleProblem &problem) {
  Schedule order(problem.ops.size());
  for (uint32_t op = 0; op < order.size(); ++op)
    order[op] = op;
  uint64_t best = UINT64_MAX;
  do {
    if (replayable(problem, order))
      best = std::min(best, replayPeak(problem, order));
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

TEST(Scheduling, ExactMatchesExhaustiveEnumeration) {
  std::mt19937_64 rng(20261123);
  for (int trial = 0; trial < 120; ++trial) {
    size_t n = 3 + trial % 6; // 3..8 ops: 8! orders at most
    ScheduleProblem problem = randomProblem(rng, n, trial % 2 == 0);
    std::optional<Schedule> exact = scheduleExact(problem);
    ASSERT_TRUE(exact.has_value());
    ASSERT_TRUE(replayable(problem, *exact)) << "trial " << trial;
    EXPECT_EQ(replayPeak(problem, *exact), exhaustiveOptimum(problem))
        << "trial " << trial;
  }
}

TEST(Scheduling, HeuristicsAreValidAndMeasuredAlike) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    size_t n = 5 + trial % 60;
    ScheduleProblem problem = randomProblem(rng, n, trial % 3 != 0);
    std::vector<ScheduleCandidate> candidates =
        scheduleCandidates(problem, /*exactMaxOps=*/16);
    ASSERT_GE(candidates.size(), 5u) << "trial " << trial;
    for (const ScheduleCandidate &candidate : candidates) {
      ASSERT_TRUE(replayable(problem, candidate.order))
          << candidate.name << ", trial " << trial;
      EXPECT_EQ(candidate.peak, replayPeak(problem, candidate.order))
          << candidate.name << ", trial " << trial;
    }
    // The exact schedule, where it runs, is no worse than any heuristic.
    for (const ScheduleCandidate &exact : candidates)
      if (exact.provenOptimal)
        for (const ScheduleCandidate &other : candidates)
          EXPECT_LE(exact.peak, other.peak) << other.name;
  }
}

TEST(Scheduling, RejectsInvalidOrders) {
  ScheduleProblem problem;
  problem.ops.resize(3);
  problem.ops[1].predecessors = {0};
  problem.ops[2].predecessors = {1};
  EXPECT_TRUE(isValidSchedule(problem, {0, 1, 2}));
  EXPECT_FALSE(isValidSchedule(problem, {1, 0, 2})); // before a predecessor
  EXPECT_FALSE(isValidSchedule(problem, {0, 1}));    // an op missing
  EXPECT_FALSE(isValidSchedule(problem, {0, 1, 1})); // an op twice
  EXPECT_FALSE(isValidSchedule(problem, {0, 1, 3})); // no such op
}

/// Two independent chains, each a big buffer consumed by a small op; in
/// the input order both big buffers are created before either is consumed.
/// Finishing one chain first halves the peak, and every scheduler but the
/// input order finds it.
TEST(Scheduling, FinishesAChainBeforeStartingTheNext) {
  ScheduleProblem problem;
  problem.ops.resize(5); // 0: big A, 1: big B, 2: use A, 3: use B, 4: join
  problem.buffers = {{100, 0, {2}}, {100, 1, {3}}, {1, 2, {4}}, {1, 3, {4}}};
  problem.ops[2].predecessors = {0};
  problem.ops[3].predecessors = {1};
  problem.ops[4].predecessors = {2, 3};
  EXPECT_EQ(computeSchedulePeak(problem, scheduleInOrder(problem)), 201u);
  for (const Schedule &order :
       {scheduleLeastPeakFirst(problem), scheduleMostFreedFirst(problem),
        scheduleDepthFirst(problem), *scheduleExact(problem)}) {
    ASSERT_TRUE(replayable(problem, order));
    EXPECT_EQ(replayPeak(problem, order), 102u);
  }
}

/// Deep chains (10,000 ops) schedule without recursion.
TEST(Scheduling, DeepChains) {
  ScheduleProblem problem;
  size_t n = 10000;
  problem.ops.resize(n);
  for (uint32_t op = 0; op < n; ++op) {
    problem.buffers.push_back({8, op, {}});
    if (op > 0) {
      problem.ops[op].predecessors = {op - 1};
      problem.buffers[op - 1].users = {op};
    }
  }
  Schedule order = scheduleDepthFirst(problem);
  ASSERT_TRUE(replayable(problem, order));
  EXPECT_EQ(computeSchedulePeak(problem, order), 16u);
}

} // namespace
