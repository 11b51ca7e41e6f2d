//===- RematerializationTest.cpp - Recomputation checked by replay --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The oracle is written apart from Rematerialization.cpp: the decisions are
// replayed on a plain list of ops (clones inserted before their user, uses
// rewired), the program is then "run" symbolically (every op's result is a
// hash of the op it copies and of what it read, and an op that writes an
// argument in place bumps that argument's version), and its peak is summed
// step by step. A correct recomputation leaves every original op's results
// exactly as before (the same hashes), and the peak is what the planner
// says.
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Rematerialization.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

using namespace memplan;

namespace {

using Op = RematProblem::Op;
using Value = RematProblem::Value;

/// A program to replay: ops by id (clones appended), their order, which
/// original op each copies, and the values' storages.
struct Replay {
  std::vector<Op> ops;
  std::vector<uint32_t> root; ///< the original op an op computes again
  std::vector<Value> values;
  std::vector<RematProblem::Storage> storages;
  std::vector<uint32_t> order;
};

Replay replayDecisions(const RematProblem &problem,
                       const std::vector<RematDecision> &decisions) {
  Replay replay{problem.ops, {}, problem.values, problem.storages, {}};
  // A copy from an earlier round computes what the op it copies does.
  for (uint32_t op = 0; op < problem.ops.size(); ++op) {
    uint32_t of = problem.ops[op].copyOf;
    replay.root.push_back(of == Op::kNotACopy ? op : of);
    replay.order.push_back(op);
  }
  for (const RematDecision &decision : decisions) {
    for (const RematClone &clone : decision.clones) {
      EXPECT_EQ(clone.id, replay.ops.size());
      const Op &source = replay.ops[clone.source];
      Op op = source;
      op.operands = clone.operands;
      op.results = clone.results;
      for (size_t r = 0; r < clone.results.size(); ++r) {
        const Value &original = replay.values[source.results[r]];
        Value fresh;
        fresh.definingOp = clone.id;
        fresh.viewOfOperand = original.viewOfOperand;
        if (original.viewOfOperand >= 0) {
          fresh.storage =
              replay.values[clone.operands[original.viewOfOperand]].storage;
        } else {
          fresh.storage = uint32_t(replay.storages.size());
          replay.storages.push_back(replay.storages[original.storage]);
        }
        EXPECT_EQ(clone.results[r], replay.values.size());
        replay.values.push_back(fresh);
      }
      replay.ops.push_back(op);
      replay.root.push_back(replay.root[clone.source]);
      auto at =
          std::find(replay.order.begin(), replay.order.end(), clone.before);
      EXPECT_NE(at, replay.order.end());
      replay.order.insert(at, clone.id);
    }
    for (const RematRewire &rewire : decision.rewires)
      replay.ops[rewire.op].operands[rewire.operand] = rewire.value;
    // A view made after the peak of a dropped value is a view of the copy.
    for (const auto &[value, storage] : decision.movedValues) {
      const Value &moved = replay.values[value];
      EXPECT_GE(moved.viewOfOperand, 0);
      EXPECT_EQ(storage, replay
                             .values[replay.ops[moved.definingOp]
                                         .operands[moved.viewOfOperand]]
                             .storage);
      replay.values[value].storage = storage;
    }
  }
  return replay;
}

/// Runs the program symbolically: the hash of every value, or an empty
/// vector if some op reads a value not yet defined.
std::vector<uint64_t> run(const Replay &replay) {
  std::vector<uint64_t> hash(replay.values.size(), 0);
  std::vector<bool> defined(replay.values.size(), false);
  std::vector<uint64_t> version(replay.storages.size(), 0);
  for (uint32_t v = 0; v < replay.values.size(); ++v)
    if (replay.values[v].definingOp == Value::kNoOp) {
      defined[v] = true;
      hash[v] = 0x9e3779b97f4a7c15ull * (v + 1);
    }
  for (uint32_t id : replay.order) {
    const Op &op = replay.ops[id];
    uint64_t h = 1469598103934665603ull ^ replay.root[id];
    for (uint32_t operand : op.operands) {
      if (!defined[operand])
        return {};
      const Value &value = replay.values[operand];
      h = (h ^ hash[operand]) * 1099511628211ull;
      if (replay.storages[value.storage].external)
        h = (h ^ version[value.storage]) * 1099511628211ull;
    }
    for (uint32_t s : op.writes)
      ++version[s];
    for (size_t r = 0; r < op.results.size(); ++r) {
      hash[op.results[r]] = (h ^ (r + 7)) * 1099511628211ull;
      defined[op.results[r]] = true;
    }
  }
  return hash;
}

/// The peak, step by step: a storage counts from the first op that
/// defines a value in it through the last op that reads one.
uint64_t replayPeak(const Replay &replay) {
  std::map<uint32_t, std::pair<size_t, size_t>> span;
  for (size_t p = 0; p < replay.order.size(); ++p) {
    const Op &op = replay.ops[replay.order[p]];
    auto touch = [&](uint32_t value) {
      uint32_t s = replay.values[value].storage;
      auto [it, inserted] = span.try_emplace(s, p, p);
      it->second.second = std::max(it->second.second, p);
    };
    for (uint32_t v : op.results)
      touch(v);
    for (uint32_t v : op.operands)
      touch(v);
    for (uint32_t v : op.nestedUses)
      touch(v);
  }
  uint64_t peak = 0;
  for (size_t p = 0; p < replay.order.size(); ++p) {
    uint64_t bytes = replay.ops[replay.order[p]].scratch;
    for (const auto &[s, range] : span)
      if (!replay.storages[s].external && range.first <= p && p <= range.second)
        bytes += replay.storages[s].size;
    peak = std::max(peak, bytes);
  }
  return peak;
}

/// Builds problems op by op.
struct Builder {
  RematProblem problem;
  uint32_t argument(uint64_t size = 0) {
    problem.storages.push_back({size, true});
    problem.values.push_back({uint32_t(problem.storages.size() - 1)});
    return uint32_t(problem.values.size() - 1);
  }
  uint32_t op(std::vector<uint32_t> operands, uint64_t size, uint64_t flops,
              bool recomputable, int32_t viewOf = -1) {
    Op op;
    op.flops = flops;
    op.recomputable = recomputable;
    op.operands = std::move(operands);
    Value value;
    value.definingOp = uint32_t(problem.ops.size());
    value.viewOfOperand = viewOf;
    if (viewOf >= 0) {
      value.storage = problem.values[op.operands[viewOf]].storage;
    } else {
      problem.storages.push_back({size, false});
      value.storage = uint32_t(problem.storages.size() - 1);
    }
    problem.values.push_back(value);
    op.results = {uint32_t(problem.values.size() - 1)};
    problem.ops.push_back(op);
    return op.results[0];
  }
};

void expectSound(const RematProblem &problem, const RematResult &result,
                 uint64_t budget) {
  Replay original = replayDecisions(problem, {});
  Replay replay = replayDecisions(problem, result.decisions);
  std::vector<uint64_t> before = run(original), after = run(replay);
  ASSERT_FALSE(after.empty()) << "an op reads a value before it is defined";
  for (uint32_t v = 0; v < problem.values.size(); ++v)
    ASSERT_EQ(before[v], after[v]) << "value " << v << " changed";
  // Every use of a recomputed value reads the same as the original would.
  EXPECT_EQ(replayPeak(original), result.peakBefore);
  EXPECT_EQ(replayPeak(replay), result.peakAfter);
  EXPECT_LE(result.peakAfter, result.peakBefore);
  EXPECT_EQ(result.fits, result.peakAfter <= budget);
  uint64_t flops = 0, clones = 0;
  for (const RematDecision &decision : result.decisions) {
    for (const RematClone &clone : decision.clones)
      flops += replay.ops[clone.id].flops;
    clones += decision.clones.size();
  }
  EXPECT_EQ(flops, result.recomputedFlops);
  EXPECT_EQ(clones, result.recomputedOps);
  EXPECT_EQ(computeRematPeak(applyRematDecisions(problem, result.decisions)),
            result.peakAfter);
}

/// At `budget`, one copy per op does not fit and two do, recomputing
/// `flops` operations; both sound. Returns the run with one copy.
RematResult expectFitsWithTwoCopiesOnly(const RematProblem &problem,
                                        uint64_t budget, uint64_t flops) {
  RematResult once = rematerializeToBudget(problem, budget);
  EXPECT_FALSE(once.fits);
  expectSound(problem, once, budget);
  RematLimits twice;
  twice.maxCopiesPerOp = 2;
  RematResult both = rematerializeToBudget(problem, budget, twice);
  EXPECT_TRUE(both.fits);
  EXPECT_EQ(both.recomputedFlops, flops);
  expectSound(problem, both, budget);
  return once;
}

/// h1 = f1(x) costs 100, h2 = f2(h1) costs 1; both are kept for the
/// backward ops past a 20-byte temporary. To fit 31 bytes one of them must
/// go: h2, recomputed from h1 (which the backward keeps anyway) for 1.
TEST(Rematerialization, RecomputesTheCheapestKeptValue) {
  Builder b;
  uint32_t x = b.argument(10);
  uint32_t h1 = b.op({x}, 10, 100, true);
  uint32_t h2 = b.op({h1}, 10, 1, true);
  uint32_t y = b.op({h2}, 1, 1, true);
  uint32_t t = b.op({y}, 20, 1, false);
  uint32_t s = b.op({t}, 1, 1, false);
  uint32_t d2 = b.op({s, h2}, 1, 1, false);
  b.op({d2, h1}, 1, 1, false);
  EXPECT_EQ(computeRematPeak(b.problem), 41u);
  RematResult result = rematerializeToBudget(b.problem, 31);
  ASSERT_EQ(result.decisions.size(), 1u);
  ASSERT_EQ(result.decisions[0].clones.size(), 1u);
  EXPECT_EQ(result.decisions[0].clones[0].source, 1u); // f2
  EXPECT_EQ(result.decisions[0].clones[0].before, 5u); // the backward op
  EXPECT_EQ(result.recomputedFlops, 1u);
  EXPECT_TRUE(result.fits);
  EXPECT_EQ(result.peakAfter, 31u);
  expectSound(b.problem, result, 31);
  // 21 bytes: h1 must not be live at the first backward op either (with
  // s, h2 and d2 it would make 22), so it is computed twice more: once for
  // f2's copy, once for the second backward op. By default an op is copied
  // at most once, so that does not fit; with two copies allowed it does.
  RematResult once = expectFitsWithTwoCopiesOnly(b.problem, 21, 201);
  EXPECT_LE(once.recomputedFlops, 100u + 1u); // each op at most once
  // Nothing fits 20 bytes (the temporary alone): as low as it gets.
  RematResult none = rematerializeToBudget(b.problem, 20);
  EXPECT_FALSE(none.fits);
  expectSound(b.problem, none, 20);
}

/// A second round (the pass reorders between rounds) starts from the
/// first round's output, where some ops are copies (`copyOf`): they count
/// against the limit of copies per op. f has a copy already (read early);
/// dropping h across the peak needs another, which one copy per op
/// forbids and two allow; unmarked, the copy would be an op like any
/// other and f could run a third time under the limit of one.
TEST(Rematerialization, CopiesFromEarlierRoundsCount) {
  Builder b;
  uint32_t x = b.argument(10);
  uint32_t h = b.op({x}, 10, 5, true);    // op 0: f
  uint32_t copy = b.op({x}, 10, 5, true); // op 1: f again
  b.problem.ops[1].copyOf = 0;
  uint32_t early = b.op({copy}, 1, 1, false);  // op 2 reads the copy
  uint32_t t = b.op({early}, 20, 1, false);    // op 3: the peak
  uint32_t s = b.op({t}, 1, 1, false);         // op 4
  b.op({s, h}, 1, 1, false);                   // op 5 reads h
  EXPECT_EQ(computeRematPeak(b.problem), 31u); // h, early, t
  RematResult once = expectFitsWithTwoCopiesOnly(b.problem, 21, 5);
  EXPECT_TRUE(once.decisions.empty());
  RematLimits twice;
  twice.maxCopiesPerOp = 2;
  RematResult allowed = rematerializeToBudget(b.problem, 21, twice);
  RematProblem unmarked = b.problem;
  unmarked.ops[1].copyOf = Op::kNotACopy;
  EXPECT_TRUE(rematerializeToBudget(unmarked, 21).fits);
  // applyRematDecisions marks what it adds: replayed, the clone of f is a
  // copy of op 0 (renumbered with the program order).
  RematProblem replayed = applyRematDecisions(b.problem, allowed.decisions);
  unsigned copiesOfF = 0;
  for (const Op &op : replayed.ops)
    copiesOfF += op.copyOf == 0;
  EXPECT_EQ(copiesOfF, 2u);
}

/// A chain through a view: the value kept is a view of a buffer; the
/// buffer, the view and what made the buffer are recomputed together.
TEST(Rematerialization, RecomputesThroughViews) {
  Builder b;
  uint32_t x = b.argument(8);
  uint32_t a = b.op({x}, 8, 5, true);       // dies in the forward
  uint32_t q = b.op({a}, 8, 0, true);       // a copy (transpose)
  uint32_t view = b.op({q}, 0, 0, true, 0); // reshape of q
  uint32_t t = b.op({x}, 16, 1, false);
  uint32_t s = b.op({t}, 1, 1, false);
  b.op({s, view}, 1, 1, false);
  RematResult result = rematerializeToBudget(b.problem, 17);
  EXPECT_TRUE(result.fits);
  EXPECT_EQ(result.recomputedOps, 3u); // a, q, the view
  EXPECT_EQ(result.recomputedFlops, 5u);
  expectSound(b.problem, result, 17);
}

/// An argument written in place (an optimizer step) between a forward op
/// and the backward use: a copy of the op must read the argument before
/// the write, so it goes right before the write, after the peak.
TEST(Rematerialization, RecomputesBeforeAWrite) {
  Builder b;
  uint32_t w = b.argument(4);
  uint32_t h = b.op({w}, 10, 1, true);
  uint32_t t = b.op({w}, 20, 1, false);
  uint32_t s = b.op({t}, 1, 1, false);
  Op update; // writes w
  update.operands = {s};
  update.writes = {b.problem.values[w].storage};
  b.problem.ops.push_back(update);
  b.op({s, h}, 1, 1, false);
  RematResult result = rematerializeToBudget(b.problem, 21);
  EXPECT_TRUE(result.fits);
  ASSERT_EQ(result.decisions.size(), 1u);
  EXPECT_EQ(result.decisions[0].clones[0].before, 3u); // the write
  expectSound(b.problem, result, 21);
}

/// When the write comes before the peak, no copy can read the old value
/// after the peak: nothing is recomputed.
TEST(Rematerialization, NoRecomputationAcrossAWrite) {
  Builder b;
  uint32_t w = b.argument(4);
  uint32_t h = b.op({w}, 10, 1, true);
  Op update; // writes w
  update.operands = {h};
  update.writes = {b.problem.values[w].storage};
  b.problem.ops.push_back(update);
  uint32_t t = b.op({w}, 20, 1, false);
  uint32_t s = b.op({t}, 1, 1, false);
  b.op({s, h}, 1, 1, false);
  RematResult result = rematerializeToBudget(b.problem, 21);
  EXPECT_FALSE(result.fits);
  EXPECT_TRUE(result.decisions.empty());
  expectSound(b.problem, result, 21);
}

/// A training-shaped program: `layers` layers of forward ops (each reading
/// the previous value, sometimes one from earlier in the layer, and a
/// weight), a loss, backward ops in reverse reading gradients and the
/// forward values they need, and an update per layer writing its weight
/// after its backward; sizes, costs and which forward values the backward
/// keeps are random.
RematProblem randomTraining(std::mt19937_64 &rng, unsigned layers,
                            unsigned perLayer) {
  Builder b;
  auto size = [&] { return uint64_t(1) << (rng() % 6); };
  std::vector<uint32_t> weights;
  for (unsigned l = 0; l < layers; ++l)
    weights.push_back(b.argument(64));
  uint32_t x = b.argument(8);
  std::vector<std::vector<uint32_t>> saved(layers);
  uint32_t current = x;
  for (unsigned l = 0; l < layers; ++l) {
    std::vector<uint32_t> inLayer{current};
    for (unsigned i = 0; i < perLayer; ++i) {
      std::vector<uint32_t> operands{inLayer.back()};
      if (rng() % 3 == 0)
        operands.push_back(inLayer[rng() % inLayer.size()]);
      if (rng() % 2 == 0)
        operands.push_back(weights[l]);
      bool view = rng() % 6 == 0;
      uint32_t v =
          b.op(operands, size(), rng() % 50, rng() % 8 != 0, view ? 0 : -1);
      inLayer.push_back(v);
      if (rng() % 2 == 0)
        saved[l].push_back(v);
    }
    current = inLayer.back();
  }
  uint32_t gradient = b.op({current}, size(), 1, false);
  for (unsigned l = layers; l-- > 0;) {
    for (uint32_t v : saved[l])
      gradient = b.op({gradient, v}, size(), 1, false);
    Op update;
    update.operands = {gradient, weights[l]};
    update.writes = {b.problem.values[weights[l]].storage};
    b.problem.ops.push_back(update);
  }
  return b.problem;
}

TEST(Rematerialization, RandomTrainingStepsReplayExactly) {
  std::mt19937_64 rng(20261123);
  unsigned runs = 0, recomputed = 0, fitted = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RematProblem problem = randomTraining(rng, 1 + trial % 5, 2 + trial % 7);
    uint64_t peak = computeRematPeak(problem);
    uint64_t everyOpOnce = 0;
    for (const Op &op : problem.ops)
      if (op.recomputable)
        everyOpOnce += op.flops;
    for (uint64_t fraction : {90u, 70u, 50u, 30u}) {
      uint64_t budget = peak * fraction / 100;
      RematLimits limits;
      limits.maxCopiesPerOp = 1 + trial % 3;
      RematResult result = rematerializeToBudget(problem, budget, limits);
      // One copy per op at most: at most one run of every recomputable op.
      if (limits.maxCopiesPerOp == 1) {
        EXPECT_LE(result.recomputedFlops, everyOpOnce);
      }
      SCOPED_TRACE(testing::Message()
                   << "trial " << trial << ", budget " << budget);
      expectSound(problem, result, budget);
      if (HasFatalFailure())
        return;
      // A second round from the first one's output (as the pass runs
      // after reordering), aiming lower: sound as well, and across both
      // rounds no op is copied more than the limit.
      RematProblem next = applyRematDecisions(problem, result.decisions);
      RematResult again =
          rematerializeToBudget(next, result.peakAfter * 8 / 10, limits);
      expectSound(next, again, result.peakAfter * 8 / 10);
      if (HasFatalFailure())
        return;
      RematProblem last = applyRematDecisions(next, again.decisions);
      std::vector<unsigned> copies(last.ops.size(), 0);
      for (const Op &op : last.ops)
        if (op.copyOf != Op::kNotACopy)
          ++copies[op.copyOf];
      for (uint32_t op = 0; op < last.ops.size(); ++op)
        EXPECT_LE(copies[op], limits.maxCopiesPerOp) << "op " << op;
      ++runs;
      recomputed += !result.decisions.empty();
      fitted += result.fits;
    }
  }
  // The generator exercises the planner: most runs recompute something,
  // and many reach their budget.
  std::printf("%u runs: %u recompute, %u fit\n", runs, recomputed, fitted);
  EXPECT_GT(recomputed, runs / 2);
  EXPECT_GT(fitted, runs / 5);
}

} // namespace
