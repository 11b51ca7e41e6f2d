//===- Rematerialization.cpp - Recompute instead of keep ------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Planner/Rematerialization.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <tuple>

using namespace memplan;

namespace {

using Value = RematProblem::Value;

/// Range add and (maximum, how many steps reach it) over the steps: the
/// live bytes of every step, updated by a candidate and undone.
class StepTree {
public:
  explicit StepTree(const std::vector<int64_t> &bytes) : size(bytes.size()) {
    maximum.assign(4 * size + 4, 0);
    count.assign(4 * size + 4, 0);
    pending.assign(4 * size + 4, 0);
    if (size)
      build(1, 0, size - 1, bytes);
  }
  void add(size_t first, size_t last, int64_t delta) {
    if (size && first <= last && delta)
      add(1, 0, size - 1, first, std::min(last, size - 1), delta);
  }
  int64_t peak() const { return size ? maximum[1] : 0; }
  int64_t peakSteps() const { return size ? count[1] : 0; }
  int64_t at(size_t step) { return query(1, 0, size - 1, step); }

private:
  void build(size_t node, size_t lo, size_t hi,
             const std::vector<int64_t> &bytes) {
    if (lo == hi) {
      maximum[node] = bytes[lo];
      count[node] = 1;
      return;
    }
    size_t mid = (lo + hi) / 2;
    build(2 * node, lo, mid, bytes);
    build(2 * node + 1, mid + 1, hi, bytes);
    pull(node);
  }
  void pull(size_t node) {
    int64_t left = maximum[2 * node], right = maximum[2 * node + 1];
    maximum[node] = std::max(left, right) + pending[node];
    count[node] = (left >= right ? count[2 * node] : 0) +
                  (right >= left ? count[2 * node + 1] : 0);
  }
  void add(size_t node, size_t lo, size_t hi, size_t first, size_t last,
           int64_t delta) {
    if (last < lo || hi < first)
      return;
    if (first <= lo && hi <= last) {
      maximum[node] += delta;
      pending[node] += delta;
      return;
    }
    size_t mid = (lo + hi) / 2;
    add(2 * node, lo, mid, first, last, delta);
    add(2 * node + 1, mid + 1, hi, first, last, delta);
    pull(node);
  }
  int64_t query(size_t node, size_t lo, size_t hi, size_t step) {
    if (lo == hi)
      return maximum[node];
    size_t mid = (lo + hi) / 2;
    return pending[node] + (step <= mid
                                ? query(2 * node, lo, mid, step)
                                : query(2 * node + 1, mid + 1, hi, step));
  }

  size_t size;
  std::vector<int64_t> maximum, count, pending;
};

/// A use of a value as an op's operand.
struct Use {
  int64_t position;
  uint32_t op;
  uint32_t operand;
};

/// The working problem: ops by id (clones appended), and their order.
struct State {
  std::vector<RematProblem::Op> ops;
  std::vector<Value> values;
  std::vector<RematProblem::Storage> storages;
  std::vector<uint32_t> order;
  /// The problem's op each op computes (itself, or the op a clone copies),
  /// and how many copies of each problem op there are.
  std::vector<uint32_t> root;
  std::vector<unsigned> copies;
  /// The problem's value each value computes, and the latest copy of each
  /// problem value.
  std::vector<uint32_t> valueRoot;
  llvm::DenseMap<uint32_t, uint32_t> latestCopy;

  // Recounted by analyse().
  std::vector<int64_t> position;
  std::vector<int64_t> start, end;
  std::vector<bool> pinned;
  std::vector<std::vector<uint32_t>> valuesOf; ///< per storage
  std::vector<std::vector<Use>> uses;          ///< per storage, by position
  std::vector<std::vector<int64_t>> writes;    ///< per storage, sorted
  std::vector<int64_t> live;
  /// Bytes at a step that are not there just before it: the storages it
  /// creates and its scratch.
  std::vector<int64_t> born;

  explicit State(const RematProblem &problem)
      : ops(problem.ops), values(problem.values), storages(problem.storages) {
    order.resize(ops.size());
    root.resize(ops.size());
    copies.assign(ops.size(), 0);
    for (uint32_t op = 0; op < ops.size(); ++op)
      order[op] = root[op] = op;
    valueRoot.resize(values.size());
    for (uint32_t v = 0; v < values.size(); ++v)
      valueRoot[v] = v;
    // Copies made earlier, in program order (the latest copy last).
    for (uint32_t op = 0; op < ops.size(); ++op) {
      uint32_t of = ops[op].copyOf;
      if (of == RematProblem::Op::kNotACopy || of >= ops.size() ||
          ops[of].copyOf != RematProblem::Op::kNotACopy ||
          ops[of].results.size() != ops[op].results.size())
        continue;
      root[op] = of;
      ++copies[of];
      for (size_t r = 0; r < ops[op].results.size(); ++r) {
        uint32_t original = ops[of].results[r];
        valueRoot[ops[op].results[r]] = original;
        latestCopy[original] = ops[op].results[r];
      }
    }
  }

  void analyse() {
    size_t numStorages = storages.size();
    position.assign(ops.size(), -1);
    for (size_t p = 0; p < order.size(); ++p)
      position[order[p]] = int64_t(p);
    start.assign(numStorages, -1);
    end.assign(numStorages, -1);
    pinned.assign(numStorages, false);
    valuesOf.assign(numStorages, {});
    for (uint32_t v = 0; v < values.size(); ++v)
      valuesOf[values[v].storage].push_back(v);
    uses.assign(numStorages, {});
    writes.assign(numStorages, {});
    live.assign(order.size(), 0);
    born.assign(order.size(), 0);
    for (size_t p = 0; p < order.size(); ++p) {
      const RematProblem::Op &op = ops[order[p]];
      int64_t at = int64_t(p);
      for (uint32_t v : op.results) {
        uint32_t s = values[v].storage;
        if (values[v].viewOfOperand < 0 && start[s] < 0)
          start[s] = at;
        end[s] = std::max(end[s], at);
      }
      for (uint32_t i = 0; i < op.operands.size(); ++i) {
        uint32_t s = values[op.operands[i]].storage;
        uses[s].push_back({at, order[p], i});
        end[s] = std::max(end[s], at);
      }
      for (uint32_t v : op.nestedUses) {
        uint32_t s = values[v].storage;
        pinned[s] = true;
        end[s] = std::max(end[s], at);
      }
      for (uint32_t s : op.writes)
        writes[s].push_back(at);
      live[p] += int64_t(op.scratch);
      born[p] += int64_t(op.scratch);
    }
    std::vector<int64_t> delta(order.size() + 1, 0);
    for (size_t s = 0; s < numStorages; ++s) {
      if (storages[s].external || start[s] < 0 || !storages[s].size)
        continue;
      delta[start[s]] += int64_t(storages[s].size);
      delta[end[s] + 1] -= int64_t(storages[s].size);
      born[start[s]] += int64_t(storages[s].size);
    }
    int64_t running = 0;
    for (size_t p = 0; p < order.size(); ++p) {
      running += delta[p];
      live[p] += running;
    }
  }

  /// The most bytes live at a step (after analyse()).
  uint64_t peak() const {
    return live.empty() ? 0
                        : uint64_t(*std::max_element(live.begin(), live.end()));
  }

  /// The position of the op defining `value`; -1 for arguments.
  int64_t definedAt(uint32_t value) const {
    uint32_t op = values[value].definingOp;
    return op == Value::kNoOp ? -1 : position[op];
  }

  /// Whether storage `s` may be dropped across `peakStep` as far as its
  /// values go: every value defined after the peak is a view of, or was
  /// computed in place over, a value in `s` (it will be in the copy).
  bool latersFollow(uint32_t s, int64_t peakStep) const {
    for (uint32_t v : valuesOf[s]) {
      if (definedAt(v) <= peakStep)
        continue;
      const Value &value = values[v];
      if (value.viewOfOperand < 0)
        return false;
      uint32_t of = ops[value.definingOp].operands[value.viewOfOperand];
      if (values[of].storage != s)
        return false;
    }
    return true;
  }

  /// The first position after `after` at which an op writes storage `s`,
  /// or INT64_MAX.
  int64_t firstWriteAfter(uint32_t s, int64_t after) const {
    const std::vector<int64_t> &at = writes[s];
    auto it = std::upper_bound(at.begin(), at.end(), after);
    return it == at.end() ? INT64_MAX : *it;
  }
};

/// A candidate worked out: the clones that recompute the dropped storages'
/// values at `user`, and what that does to the steps.
struct Candidate {
  std::vector<uint32_t> dropped;
  int64_t user = 0; ///< position of the first use after the peak
  /// Where the clones go: right before `user`, or earlier, right before
  /// the first op that writes memory a clone reads as it is (an optimizer
  /// step updating a weight the recomputed op multiplies by).
  int64_t insertAt = 0;
  /// The last position at which a value the clones read as it is gets
  /// defined: the clones must come after it.
  int64_t earliest = -1;
  // Clones: source op and operands; values and storages numbered from the
  // state's sizes (fresh ones), in creation order.
  struct Clone {
    uint32_t source;
    std::vector<uint32_t> operands;
    std::vector<uint32_t> results;
  };
  std::vector<Clone> clones;
  std::vector<Value> newValues;     ///< numbered from state.values.size()
  std::vector<uint64_t> newStorage; ///< sizes, from state.storages.size()
  llvm::DenseMap<uint32_t, uint32_t> replacement; ///< value -> its clone
  std::map<uint32_t, unsigned> copiesOf;          ///< problem op -> clones
  std::map<uint32_t, int64_t> extended;           ///< storage -> old end
  uint64_t flops = 0;
  uint64_t scratch = 0; ///< largest clone scratch
  /// Bytes the clones add just before the user, over what is live across
  /// into the user: the chain's buffers other than the dropped storages'
  /// copies (which take the dropped storages' place), and the largest
  /// clone scratch. Counted as if all were live at once.
  int64_t transient = 0;
  // Range updates to the steps.
  struct Update {
    int64_t first, last, delta;
  };
  std::vector<Update> updates;
};

class Chooser {
public:
  Chooser(State &state, const RematLimits &limits)
      : state(state), limits(limits) {}

  /// Works out recomputing `dropped` (storages whose next use after the
  /// peak is at `user`); false if some value cannot be recomputed there.
  bool build(Candidate &candidate, int64_t peakStep) {
    candidate.insertAt = candidate.user;
    for (uint32_t s : candidate.dropped)
      droppedSet.push_back(s);
    bool ok = true;
    for (uint32_t s : candidate.dropped) {
      for (const Use &use : state.uses[s]) {
        if (use.position <= peakStep)
          continue;
        uint32_t value = state.ops[use.op].operands[use.operand];
        if (state.definedAt(value) > peakStep)
          continue; // follows the copy (latersFollow)
        if (!materialize(candidate, value)) {
          ok = false;
          break;
        }
      }
      if (!ok)
        break;
    }
    droppedSet.clear();
    // Clones before the peak would not lower it.
    if (!ok || candidate.insertAt <= peakStep ||
        candidate.insertAt <= candidate.earliest)
      return false;

    // The steps: each dropped storage is gone from the step after its last
    // use before the peak to the step before the clones (a recomputed copy
    // of the same size takes its place from there on); storages kept for
    // the chain are extended to the clones. The clones themselves run in a
    // step of their own (see `transient`).
    int64_t user = candidate.insertAt;
    std::vector<bool> replacesDropped(candidate.newStorage.size(), false);
    for (uint32_t s : candidate.dropped) {
      int64_t before = state.start[s];
      for (const Use &use : state.uses[s])
        if (use.position < peakStep)
          before = std::max(before, use.position);
      candidate.updates.push_back(
          {before + 1, user - 1, -int64_t(state.storages[s].size)});
    }
    // (A clone that is a view of a copy kept from earlier lives in that
    // copy's storage, extended above: no new storage replaces the dropped
    // one.)
    for (const auto &[original, clone] : candidate.replacement) {
      uint32_t s = state.values[original].storage;
      if (clone < state.values.size() ||
          !std::count(candidate.dropped.begin(), candidate.dropped.end(), s))
        continue;
      uint32_t fresh = candidate.newValues[clone - state.values.size()].storage;
      if (fresh >= state.storages.size())
        replacesDropped[fresh - state.storages.size()] = true;
    }
    int64_t transient = int64_t(candidate.scratch);
    for (size_t i = 0; i < candidate.newStorage.size(); ++i)
      if (!replacesDropped[i])
        transient += int64_t(candidate.newStorage[i]);
    candidate.transient = transient;
    for (const auto &[s, oldEnd] : candidate.extended)
      candidate.updates.push_back(
          {oldEnd + 1, user, int64_t(state.storages[s].size)});
    return true;
  }

private:
  bool isDropped(uint32_t s) const {
    return std::count(droppedSet.begin(), droppedSet.end(), s) != 0;
  }

  /// When `value`'s op may not be copied again: reads the latest copy of
  /// the value made earlier, kept live up to the clones (no operations,
  /// the bytes of keeping it). False if there is none to read.
  bool useExistingCopy(Candidate &candidate, uint32_t value) {
    auto it = state.latestCopy.find(state.valueRoot[value]);
    if (it == state.latestCopy.end() || it->second == value)
      return false;
    uint32_t copy = it->second;
    uint32_t s = state.values[copy].storage;
    int64_t at = state.definedAt(copy);
    if (isDropped(s) || state.storages[s].external || state.pinned[s] ||
        at < 0 || at >= candidate.user)
      return false;
    if (state.end[s] < candidate.user)
      candidate.extended.emplace(s, state.end[s]);
    candidate.earliest = std::max(candidate.earliest, at);
    candidate.insertAt =
        std::min(candidate.insertAt, state.firstWriteAfter(s, at));
    candidate.replacement[value] = copy;
    return true;
  }

  /// Whether `op` may be copied once more by this candidate.
  bool canCopy(const Candidate &candidate, uint32_t op) const {
    if (op == Value::kNoOp || !state.ops[op].recomputable ||
        candidate.clones.size() >=
            limits.maxChainOps * candidate.dropped.size())
      return false;
    uint32_t root = state.root[op];
    auto it = candidate.copiesOf.find(root);
    unsigned pending = it == candidate.copiesOf.end() ? 0 : it->second;
    return state.copies[root] + pending < limits.maxCopiesPerOp;
  }

  /// The value that stands for `value` at the user: itself, if its storage
  /// is still live there (or kept live), else a clone's result.
  bool materialize(Candidate &candidate, uint32_t value) {
    if (value >= state.values.size() || candidate.replacement.count(value))
      return true;
    const Value &v = state.values[value];
    uint32_t s = v.storage;
    int64_t user = candidate.user;
    if (state.storages[s].external)
      return true;
    if (!isDropped(s)) {
      if (state.start[s] < user && state.end[s] >= user)
        return true; // live at the user
      bool recompute = canCopy(candidate, v.definingOp);
      if (!recompute) {
        if (useExistingCopy(candidate, value))
          return true;
        if (state.pinned[s])
          return false;
        candidate.extended.emplace(s, state.end[s]);
        return true;
      }
    }
    if (!canCopy(candidate, v.definingOp))
      return useExistingCopy(candidate, value);
    uint32_t source = v.definingOp;
    const RematProblem::Op &op = state.ops[source];
    Candidate::Clone clone;
    clone.source = source;
    for (uint32_t operand : op.operands) {
      if (!materialize(candidate, operand))
        return false;
      auto it = candidate.replacement.find(operand);
      if (it != candidate.replacement.end()) {
        clone.operands.push_back(it->second);
        continue;
      }
      // Read as it is: nothing may write it between the op and the user.
      uint32_t read = state.values[operand].storage;
      candidate.insertAt =
          std::min(candidate.insertAt,
                   state.firstWriteAfter(read, state.position[source]));
      uint32_t definer = state.values[operand].definingOp;
      if (definer != Value::kNoOp)
        candidate.earliest =
            std::max(candidate.earliest, state.position[definer]);
      clone.operands.push_back(operand);
    }
    // A clone of a clone in the same chain cannot happen: every operand
    // above was resolved before this op's results are numbered.
    for (uint32_t result : op.results) {
      const Value &original = state.values[result];
      Value fresh;
      fresh.definingOp = uint32_t(state.ops.size() + candidate.clones.size());
      fresh.viewOfOperand = original.viewOfOperand;
      if (original.viewOfOperand >= 0) {
        uint32_t of = clone.operands[original.viewOfOperand];
        fresh.storage =
            of < state.values.size()
                ? state.values[of].storage
                : candidate.newValues[of - state.values.size()].storage;
      } else {
        fresh.storage =
            uint32_t(state.storages.size() + candidate.newStorage.size());
        candidate.newStorage.push_back(state.storages[original.storage].size);
      }
      uint32_t id = uint32_t(state.values.size() + candidate.newValues.size());
      candidate.newValues.push_back(fresh);
      candidate.replacement[result] = id;
      clone.results.push_back(id);
    }
    candidate.flops = llvm::SaturatingAdd(candidate.flops, op.flops);
    candidate.scratch = std::max(candidate.scratch, op.scratch);
    ++candidate.copiesOf[state.root[source]];
    candidate.clones.push_back(std::move(clone));
    return true;
  }

  State &state;
  const RematLimits &limits;
  std::vector<uint32_t> droppedSet;
};

/// Applies `candidate` to the state; returns the decision as recorded.
RematDecision apply(State &state, const Candidate &candidate, int64_t peak) {
  RematDecision decision;
  decision.droppedStorages = candidate.dropped;
  decision.flops = candidate.flops;
  uint32_t firstOp = uint32_t(state.ops.size());
  uint32_t before = state.order[candidate.insertAt];
  for (uint64_t size : candidate.newStorage)
    state.storages.push_back({size, false});
  for (const Value &value : candidate.newValues)
    state.values.push_back(value);
  state.valueRoot.resize(state.values.size());
  for (const Candidate::Clone &clone : candidate.clones)
    for (size_t r = 0; r < clone.results.size(); ++r) {
      uint32_t original = state.valueRoot[state.ops[clone.source].results[r]];
      state.valueRoot[clone.results[r]] = original;
      state.latestCopy[original] = clone.results[r];
    }
  std::vector<uint32_t> inserted;
  for (size_t i = 0; i < candidate.clones.size(); ++i) {
    const Candidate::Clone &clone = candidate.clones[i];
    RematProblem::Op op;
    op.flops = state.ops[clone.source].flops;
    op.scratch = state.ops[clone.source].scratch;
    op.recomputable = true;
    op.operands = clone.operands;
    op.results = clone.results;
    state.ops.push_back(op);
    state.root.push_back(state.root[clone.source]);
    ++state.copies[state.root[clone.source]];
    inserted.push_back(firstOp + uint32_t(i));
    decision.clones.push_back({firstOp + uint32_t(i), clone.source, before,
                               clone.operands, clone.results});
  }
  for (uint32_t s : candidate.dropped) {
    for (const Use &use : state.uses[s]) {
      if (use.position <= peak)
        continue;
      uint32_t &operand = state.ops[use.op].operands[use.operand];
      if (state.definedAt(operand) > peak)
        continue;
      uint32_t replacement = candidate.replacement.lookup(operand);
      decision.rewires.push_back({use.op, use.operand, replacement});
      operand = replacement;
    }
    // Values made after the peak over the dropped storage (views, results
    // in place) are now over the copy, in program order.
    std::vector<uint32_t> later;
    for (uint32_t v : state.valuesOf[s])
      if (state.definedAt(v) > peak)
        later.push_back(v);
    std::sort(later.begin(), later.end(), [&](uint32_t a, uint32_t b) {
      return state.definedAt(a) < state.definedAt(b);
    });
    for (uint32_t v : later) {
      Value &value = state.values[v];
      uint32_t of = state.ops[value.definingOp].operands[value.viewOfOperand];
      value.storage = state.values[of].storage;
      decision.movedValues.push_back({v, value.storage});
    }
  }
  state.order.insert(state.order.begin() + candidate.insertAt, inserted.begin(),
                     inserted.end());
  return decision;
}

} // namespace

uint64_t memplan::computeRematPeak(const RematProblem &problem) {
  State state(problem);
  state.analyse();
  return state.peak();
}

/// The segment of every storage made before `peakStep`, or -1. Cuts are
/// the positions before the peak after which a single storage made
/// earlier is read again before the peak (in a transformer: the residual
/// stream, between attention and MLP and between layers); the stretches
/// of program between cuts are numbered, and `group` consecutive ones,
/// from the `phase`-th, make a segment, with the storages crossing the
/// cuts inside it. A storage crossing a cut between segments is in none:
/// the checkpoints that full activation checkpointing keeps (`group` 2 on
/// memplan-gen's transformers: a layer's input). This is Chen et al.'s
/// (2016) choice of checkpoints among articulation points, found from the
/// order rather than marked by the frontend.
static std::vector<int32_t> segmentsBeforePeak(const State &state,
                                               int64_t peakStep, unsigned group,
                                               unsigned phase) {
  size_t numStorages = state.storages.size();
  std::vector<int32_t> segment(numStorages, -1);
  if (peakStep <= 0 || !group)
    return segment;
  // Per boundary p (between steps p and p + 1): how many storages cross it
  // to a use at or before the peak, and the sum of their ids (the id when
  // one crosses).
  std::vector<int64_t> count(size_t(peakStep) + 1, 0);
  std::vector<uint64_t> idSum(size_t(peakStep) + 1, 0);
  for (uint32_t s = 0; s < numStorages; ++s) {
    int64_t made = state.start[s];
    if (state.storages[s].external || made < 0 || made >= peakStep)
      continue;
    int64_t last = made;
    for (const Use &use : state.uses[s])
      if (use.position <= peakStep)
        last = std::max(last, use.position);
    if (state.pinned[s])
      last = std::max(last, std::min(state.end[s], peakStep));
    if (last <= made)
      continue;
    count[made] += 1;
    count[last] -= 1;
    idSum[made] += s;
    idSum[last] -= s;
  }
  // Cuts in order; a storage crossing several boundaries in a row is one
  // cut (at the first).
  std::vector<int64_t> cuts;
  std::vector<int64_t> firstCut(numStorages, -1), lastCut(numStorages, -1);
  int64_t crossing = 0;
  uint64_t ids = 0;
  uint64_t previous = UINT64_MAX;
  for (int64_t p = 0; p < peakStep; ++p) {
    crossing += count[p];
    ids += idSum[p];
    if (crossing != 1) {
      previous = UINT64_MAX;
      continue;
    }
    if (ids == previous)
      continue;
    previous = ids;
    if (firstCut[ids] < 0)
      firstCut[ids] = int64_t(cuts.size());
    lastCut[ids] = int64_t(cuts.size());
    cuts.push_back(p);
  }
  // Stretch j lies between cuts j - 1 and j; it is in segment
  // (j + phase) / group.
  auto segmentOf = [&](int64_t stretch) {
    return int32_t((stretch + int64_t(phase)) / int64_t(group));
  };
  for (uint32_t s = 0; s < numStorages; ++s) {
    int64_t made = state.start[s];
    if (state.storages[s].external || made < 0 || made >= peakStep)
      continue;
    if (firstCut[s] >= 0) {
      // Inside a segment when the stretches on both sides of its cuts are.
      int32_t before = segmentOf(firstCut[s]);
      if (before == segmentOf(lastCut[s] + 1))
        segment[s] = before;
      continue;
    }
    segment[s] = segmentOf(std::lower_bound(cuts.begin(), cuts.end(), made) -
                           cuts.begin());
  }
  return segment;
}

namespace {
/// What one greedy run may pick from.
struct Way {
  /// 0: single storages and the storages one user reads; W: stretches,
  /// every storage whose next use lies within W steps of a user,
  /// recomputed together before it.
  int64_t stretch = 0;
  /// Non-zero: segments (segmentsBeforePeak with this group and phase)
  /// recomputed together before the first use of any of their storages,
  /// as full activation checkpointing recomputes a layer; single storages
  /// once no segment lowers the peak.
  unsigned segmentGroup = 0;
  unsigned segmentPhase = 0;
};
} // namespace

/// One greedy run, choosing as `way` says.
static RematResult greedy(const RematProblem &problem, uint64_t budget,
                          const RematLimits &limits, Way way) {
  RematResult result;
  State state(problem);
  state.analyse();
  result.peakBefore = state.peak();
  std::vector<int32_t> segment;
  if (way.segmentGroup) {
    int64_t first = std::max_element(state.live.begin(), state.live.end()) -
                    state.live.begin();
    segment =
        segmentsBeforePeak(state, first, way.segmentGroup, way.segmentPhase);
  }

  for (unsigned round = 0; round < limits.maxDecisions; ++round) {
    StepTree tree(state.live);
    int64_t peak = tree.peak(), peakSteps = tree.peakSteps();
    if (uint64_t(peak) <= budget)
      break;
    int64_t peakStep = std::find(state.live.begin(), state.live.end(), peak) -
                       state.live.begin();

    // Storages live across the peak step, unused there, created before it,
    // grouped by their next user.
    std::map<int64_t, std::vector<uint32_t>> byUser;
    for (uint32_t s = 0; s < state.storages.size(); ++s) {
      if (state.storages[s].external || !state.storages[s].size ||
          state.pinned[s] || state.start[s] < 0 || state.start[s] >= peakStep ||
          state.end[s] <= peakStep || !state.latersFollow(s, peakStep))
        continue;
      int64_t next = -1;
      bool usedAtPeak = false;
      for (const Use &use : state.uses[s]) {
        usedAtPeak = usedAtPeak || use.position == peakStep;
        if (use.position > peakStep && (next < 0 || use.position < next))
          next = use.position;
      }
      if (!usedAtPeak && next > peakStep)
        byUser[next].push_back(s);
    }
    auto singles = [&] {
      std::vector<Candidate> candidates;
      for (const auto &[user, storages] : byUser) {
        for (uint32_t s : storages) {
          Candidate single;
          single.dropped = {s};
          single.user = user;
          candidates.push_back(std::move(single));
        }
        if (storages.size() > 1) {
          Candidate group;
          group.dropped = storages;
          group.user = user;
          candidates.push_back(std::move(group));
        }
      }
      return candidates;
    };
    std::vector<Candidate> candidates;
    if (way.stretch) {
      for (const auto &entry : byUser) {
        int64_t user = entry.first;
        Candidate together;
        together.user = user;
        for (auto it = byUser.find(user);
             it != byUser.end() && it->first < user + way.stretch; ++it)
          together.dropped.insert(together.dropped.end(), it->second.begin(),
                                  it->second.end());
        candidates.push_back(std::move(together));
      }
    } else if (way.segmentGroup) {
      std::map<int32_t, Candidate> bySegment;
      for (const auto &[user, storages] : byUser)
        for (uint32_t s : storages) {
          if (s >= segment.size() || segment[s] < 0)
            continue;
          Candidate &together = bySegment[segment[s]];
          if (together.dropped.empty())
            together.user = user; // byUser is by position
          together.dropped.push_back(s);
        }
      for (auto &entry : bySegment)
        candidates.push_back(std::move(entry.second));
    } else {
      candidates = singles();
    }

    // The best by bytes removed at the peak step per operation; it must
    // lower the peak, or the number of steps at it.
    Chooser chooser(state, limits);
    const Candidate *best = nullptr;
    double bestScore = -1;
    int64_t bestGain = 0;
    auto choose = [&](std::vector<Candidate> &candidates) {
      for (Candidate &candidate : candidates) {
        if (!chooser.build(candidate, peakStep)) {
          continue;
        }
        int64_t atPeakBefore = tree.at(size_t(peakStep));
        for (const Candidate::Update &update : candidate.updates)
          tree.add(size_t(update.first), size_t(update.last), update.delta);
        int64_t newPeak = tree.peak(), newSteps = tree.peakSteps();
        int64_t gain = atPeakBefore - tree.at(size_t(peakStep));
        // The clones' step: what crosses into the user, and the chain.
        int64_t user = candidate.insertAt;
        int64_t clonesStep =
            tree.at(size_t(user)) - state.born[user] + candidate.transient;
        if (clonesStep > newPeak) {
          newPeak = clonesStep;
          newSteps = 1;
        } else if (clonesStep == newPeak) {
          ++newSteps;
        }
        for (const Candidate::Update &update : candidate.updates)
          tree.add(size_t(update.first), size_t(update.last), -update.delta);
        bool lower =
            newPeak < peak || (newPeak == peak && newSteps < peakSteps);
        if (!lower || gain <= 0)
          continue;
        double score = double(gain) / (double(candidate.flops) + 1.0);
        if (score > bestScore || (score == bestScore && gain > bestGain)) {
          best = &candidate;
          bestScore = score;
          bestGain = gain;
        }
      }
    };
    choose(candidates);
    std::vector<Candidate> fallback;
    if (!best && way.segmentGroup) {
      fallback = singles();
      choose(fallback);
    }
    if (!best)
      break;
    RematDecision decision = apply(state, *best, peakStep);
    result.recomputedFlops =
        llvm::SaturatingAdd(result.recomputedFlops, decision.flops);
    result.recomputedOps += decision.clones.size();
    result.decisions.push_back(std::move(decision));
    state.analyse();
  }
  result.peakAfter = state.peak();
  result.fits = result.peakAfter <= budget;
  return result;
}

RematResult memplan::rematerializeToBudget(const RematProblem &problem,
                                           uint64_t budget,
                                           const RematLimits &limits) {
  // The greedy's choices depend on what it may pick from; each way is
  // measured under the model, and the best kept: fitting, then the fewest
  // operations, then the lowest peak, then the earliest way (deterministic).
  std::optional<RematResult> best;
  std::vector<Way> ways = {Way()};
  for (int64_t stretch : limits.stretches)
    ways.push_back({stretch, 0, 0});
  for (unsigned group : limits.segmentGroups)
    for (unsigned phase = 0; phase < group; ++phase)
      ways.push_back({0, group, phase});
  for (const Way &way : ways) {
    RematResult result = greedy(problem, budget, limits, way);
    auto key = [](const RematResult &r) {
      return std::make_tuple(!r.fits, r.fits ? r.recomputedFlops : 0,
                             r.peakAfter, r.recomputedFlops);
    };
    if (!best || key(result) < key(*best))
      best = std::move(result);
  }
  return std::move(*best);
}

RematProblem
memplan::applyRematDecisions(const RematProblem &problem,
                             const std::vector<RematDecision> &decisions,
                             std::vector<uint32_t> *order) {
  State state(problem);
  for (const RematDecision &decision : decisions) {
    std::vector<int64_t> position(state.ops.size(), -1);
    for (size_t p = 0; p < state.order.size(); ++p)
      position[state.order[p]] = int64_t(p);
    std::vector<uint32_t> inserted;
    uint32_t before = decision.clones.empty() ? 0 : decision.clones[0].before;
    for (const RematClone &clone : decision.clones) {
      assert(clone.id == state.ops.size() && "clones numbered in order");
      const RematProblem::Op &source = state.ops[clone.source];
      RematProblem::Op op;
      op.flops = source.flops;
      op.scratch = source.scratch;
      op.recomputable = true;
      op.operands = clone.operands;
      op.results = clone.results;
      op.copyOf = source.copyOf != RematProblem::Op::kNotACopy ? source.copyOf
                                                               : clone.source;
      for (size_t r = 0; r < clone.results.size(); ++r) {
        const Value &original = state.values[source.results[r]];
        Value fresh;
        fresh.definingOp = clone.id;
        fresh.viewOfOperand = original.viewOfOperand;
        if (original.viewOfOperand >= 0) {
          fresh.storage =
              state.values[clone.operands[original.viewOfOperand]].storage;
        } else {
          fresh.storage = uint32_t(state.storages.size());
          state.storages.push_back(state.storages[original.storage]);
        }
        assert(clone.results[r] == state.values.size() &&
               "values numbered in order");
        state.values.push_back(fresh);
      }
      state.ops.push_back(op);
      inserted.push_back(clone.id);
    }
    for (const RematRewire &rewire : decision.rewires)
      state.ops[rewire.op].operands[rewire.operand] = rewire.value;
    for (const auto &[value, storage] : decision.movedValues)
      state.values[value].storage = storage;
    if (!inserted.empty())
      state.order.insert(state.order.begin() + position[before],
                         inserted.begin(), inserted.end());
  }
  RematProblem applied;
  std::vector<uint32_t> renumber(state.ops.size());
  for (size_t p = 0; p < state.order.size(); ++p)
    renumber[state.order[p]] = uint32_t(p);
  applied.storages = state.storages;
  applied.values = state.values;
  for (Value &value : applied.values)
    if (value.definingOp != Value::kNoOp)
      value.definingOp = renumber[value.definingOp];
  for (uint32_t id : state.order) {
    applied.ops.push_back(state.ops[id]);
    uint32_t &of = applied.ops.back().copyOf;
    if (of != RematProblem::Op::kNotACopy)
      of = renumber[of];
  }
  if (order)
    *order = state.order;
  return applied;
}
