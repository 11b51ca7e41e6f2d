//===- Rematerialization.h - Recompute instead of keep ----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// When the most bytes live at once exceed a budget, some buffer that is live
// across the peak but not used there (an activation the forward pass keeps
// for the backward pass) can be dropped after its last use before the peak
// and computed again, by clones of the ops that made it, right before its
// next use. This file chooses such recomputations, fewest operations first,
// until the peak fits the budget or no recomputation lowers it. Plain C++17,
// no MLIR; --memplan-fit-budget builds the problem from IR and applies the
// choices.
//
// The model is the one BufferLiveness plans without in-place reuse: a
// storage is live from the op that creates it through the last op that
// reads any of its values (a view's value lives in its source's storage);
// an op's scratch is live at that op; external storages (arguments) are
// never counted and always available, unless an op writes them in place.
//
// Choosing what to recompute under a budget with the fewest operations is
// NP-hard (Checkmate solves it as an integer program). This is a greedy
// heuristic: at the first step of the current peak, every storage live
// there and not used there is a candidate, alone and grouped with the
// others its next user reads (or, in other runs, with all whose next use
// is near: stretches; or with the rest of its segment of the program, cut
// where a single storage crosses, as full activation checkpointing keeps
// a layer's input and recomputes the layer); a candidate recomputes the
// chain of ops back to values still live at that user (at most
// `maxChainOps` clones per value), and its effect on every step is
// evaluated exactly under the model (a segment tree over the steps); the
// candidate that removes the most bytes at the peak per operation is
// applied, and the steps are recounted.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_PLANNER_REMATERIALIZATION_H
#define MEMPLAN_PLANNER_REMATERIALIZATION_H

#include <cstdint>
#include <vector>

namespace memplan {

struct RematProblem {
  struct Op {
    uint64_t flops = 0;
    uint64_t scratch = 0;
    /// Whether a clone of the op, reading the same operand values, computes
    /// the same results (pure and deterministic).
    bool recomputable = false;
    /// Values the op reads as operands (rewritable), in operand order.
    std::vector<uint32_t> operands;
    /// Values read from inside the op's regions: they keep their storages
    /// live, and such storages are never dropped.
    std::vector<uint32_t> nestedUses;
    std::vector<uint32_t> results;
    /// Storages the op writes in place (an optimizer step, a cache update):
    /// no clone that reads one of them moves across the op.
    std::vector<uint32_t> writes;
    /// For a copy made earlier (by a previous round): the op it copies, an
    /// op of the problem that is not a copy. Copies count against
    /// `RematLimits::maxCopiesPerOp`, and a value that may not be copied
    /// again is read from its latest copy before the user.
    static constexpr uint32_t kNotACopy = UINT32_MAX;
    uint32_t copyOf = kNotACopy;
  };
  struct Value {
    uint32_t storage = 0;
    /// The op that defines the value; none for arguments and values that
    /// need no memory.
    static constexpr uint32_t kNoOp = UINT32_MAX;
    uint32_t definingOp = kNoOp;
    /// For a view: the operand of `definingOp` whose storage it shares.
    int32_t viewOfOperand = -1;
  };
  struct Storage {
    uint64_t size = 0;
    /// Outside the arena: never counted, never dropped.
    bool external = false;
  };
  /// In program order.
  std::vector<Op> ops;
  std::vector<Value> values;
  std::vector<Storage> storages;
};

/// One clone, inserted right before op `before`: op `source` (an op of the
/// problem or an earlier clone) reading `operands`; its results are new
/// values numbered `results` (one per result of `source`). Clones are
/// numbered after the problem's ops, values after its values, in the order
/// of the clones.
struct RematClone {
  uint32_t id = 0;
  uint32_t source = 0;
  uint32_t before = 0;
  std::vector<uint32_t> operands;
  std::vector<uint32_t> results;
};

/// Operand `operand` of op `op` reads `value` instead.
struct RematRewire {
  uint32_t op = 0;
  uint32_t operand = 0;
  uint32_t value = 0;
};

/// One recomputation: storages dropped across the peak, the clones that
/// recompute them, and the uses moved onto the clones.
struct RematDecision {
  std::vector<uint32_t> droppedStorages;
  std::vector<RematClone> clones;
  std::vector<RematRewire> rewires;
  /// Values made after the peak over a dropped storage (views of it,
  /// results computed in place over it), now over its copy: value, storage.
  /// (IR needs nothing for them: its liveness follows the rewired uses.)
  std::vector<std::pair<uint32_t, uint32_t>> movedValues;
  uint64_t flops = 0;
};

struct RematLimits {
  /// Most clones one decision may add (the depth of a recomputed chain).
  unsigned maxChainOps = 12;
  /// Most copies of one op of the problem. With 1, no op runs more than
  /// twice, so the operations recomputed are at most one run of every
  /// recomputable op (in a training step: one forward pass, what full
  /// activation checkpointing recomputes, plus at most the head); more may
  /// reach lower bounds at a higher cost (an op recomputed for two users
  /// far apart).
  unsigned maxCopiesPerOp = 1;
  /// Most decisions in all.
  unsigned maxDecisions = 100000;
  /// Besides the greedy over single values, greedy runs whose candidates
  /// are stretches: every value whose next use lies within W steps of a
  /// user, recomputed together before it (how checkpointing recomputes a
  /// layer before its backward; no layers need be marked). The best run is
  /// kept.
  std::vector<int64_t> stretches = {8, 16, 24, 32, 48, 64, 96, 128};
  /// And greedy runs whose candidates are segments: the program before the
  /// first peak is cut where a single storage made earlier is read again
  /// before the peak (as the residual stream between a transformer's
  /// layers and sublayers); G consecutive stretches between cuts make a
  /// segment (one run per G here and per phase), and a candidate recomputes
  /// a segment's kept values together from the storages crossing its ends,
  /// before the first use of any, as full activation checkpointing
  /// recomputes a layer from its input; then single values.
  std::vector<unsigned> segmentGroups = {1, 2, 3, 4};
};

struct RematResult {
  std::vector<RematDecision> decisions; ///< in the order to apply them
  uint64_t peakBefore = 0;              ///< under the model
  uint64_t peakAfter = 0;
  uint64_t recomputedFlops = 0;
  uint64_t recomputedOps = 0;
  bool fits = false; ///< peakAfter <= budget
};

/// The peak of `problem` under the model.
uint64_t computeRematPeak(const RematProblem &problem);

/// Chooses recomputations until the model's peak is at most `budget` or no
/// candidate lowers it: the best of the greedy runs (see `stretches` and
/// `segmentGroups`): one
/// that fits with the fewest operations, else the lowest peak.
/// Deterministic.
RematResult rematerializeToBudget(const RematProblem &problem, uint64_t budget,
                                  const RematLimits &limits = {});

/// `problem` with `decisions` applied: clones inserted (each with `copyOf`
/// set, so that a later round counts it), uses rewired (the pass does the
/// same to IR; tests replay with it).
RematProblem applyRematDecisions(const RematProblem &problem,
                                 const std::vector<RematDecision> &decisions,
                                 std::vector<uint32_t> *order = nullptr);

} // namespace memplan

#endif // MEMPLAN_PLANNER_REMATERIALIZATION_H
