//===- FunctionRemat.cpp - Recompute to fit one function's budget ---------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Builds a RematProblem (Rematerialization.h) from a function body, with
// storages from the liveness --plan-offsets uses (BufferLiveness with the
// same in-place and destination policies: a view, or a result computed in
// place over a dying operand, stays in its operand's storage), lets the
// planner core choose recomputations, and applies them: each clone is an
// OpBuilder clone of the op it recomputes, inserted before its user, and the
// user reads the clone's result. The choice is checked by measuring the
// body again: recomputation can change which in-place reuses are possible
// (an operand kept longer no longer dies where it did), so the measure may
// differ from the model's; the first round aims at the budget less nothing,
// and should the measure miss it, a second round from the input aims lower
// by the difference.
//===----------------------------------------------------------------------===//

#include "FunctionRemat.h"

#include "FunctionSchedule.h"
#include "memplan/Analysis/BufferLiveness.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "memplan/Planner/Rematerialization.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace memplan;

namespace {

/// The problem over a body, and the IR behind its op and value numbers.
struct BodyProblem {
  RematProblem problem;
  SmallVector<Operation *> ops;
  SmallVector<Value> values;
};

/// Clones made by earlier rounds, each to the op it copies (never a clone).
using CopyOrigins = DenseMap<Operation *, Operation *>;

FailureOr<BodyProblem> buildProblem(Block &block, bool inPlace,
                                    bool destinations,
                                    const CopyOrigins &copies) {
  FailureOr<BufferLiveness> liveness =
      BufferLiveness::compute(*block.getParent(), inPlaceWhereAllowed(inPlace),
                              resultsInCallerBuffers(destinations));
  if (failed(liveness))
    return failure();
  BodyProblem body;
  RematProblem &problem = body.problem;

  // Storages: the arena's buffers, then one per external value, then one
  // for values that need no memory (not tensors).
  for (const LiveBuffer &buffer : liveness->getBuffers())
    problem.storages.push_back(
        {buffer.kind == LiveBuffer::Kind::Result && !buffer.destination
             ? buffer.bytes
             : 0,
         false});
  uint32_t firstExternal = uint32_t(problem.storages.size());
  for (size_t e = 0; e < liveness->getExternals().size(); ++e)
    problem.storages.push_back({0, true});
  uint32_t noMemory = uint32_t(problem.storages.size());
  problem.storages.push_back({0, true});
  auto storageOf = [&](Value value) -> uint32_t {
    if (std::optional<unsigned> buffer = liveness->getBufferIndex(value))
      return *buffer;
    if (liveness->isExternal(value))
      return firstExternal + uint32_t(&liveness->getExternal(value) -
                                      liveness->getExternals().data());
    return noMemory;
  };

  DenseMap<Value, uint32_t> valueId;
  DenseMap<Operation *, uint32_t> opId;
  auto addValue = [&](Value value, uint32_t definingOp, int32_t viewOf) {
    RematProblem::Value v;
    v.storage = storageOf(value);
    v.definingOp = definingOp;
    v.viewOfOperand = viewOf;
    valueId[value] = uint32_t(problem.values.size());
    problem.values.push_back(v);
    body.values.push_back(value);
  };
  for (BlockArgument argument : block.getArguments())
    addValue(argument, RematProblem::Value::kNoOp, -1);

  for (Operation &op : block) {
    uint32_t id = uint32_t(problem.ops.size());
    opId[&op] = id;
    body.ops.push_back(&op);
    RematProblem::Op model;
    for (Value operand : op.getOperands())
      model.operands.push_back(valueId.lookup(operand));
    op.walk([&](Operation *nested) {
      if (nested == &op)
        return;
      for (Value operand : nested->getOperands())
        if (operand.getParentBlock() == &block)
          model.nestedUses.push_back(valueId.lookup(operand));
    });
    for (OpResult result : op.getResults()) {
      // A result in the storage of an operand is a view of it, or computed
      // in place over it (the operand dies there): either way the model
      // keeps it in that storage, as the planner will.
      int32_t viewOf = -1;
      uint32_t storage = storageOf(result);
      std::optional<unsigned> buffer = liveness->getBufferIndex(result);
      bool shares =
          buffer
              ? liveness->getBuffers()[*buffer].values.front().value != result
              : liveness->isExternal(result);
      if (shares)
        for (unsigned i = 0; i < op.getNumOperands(); ++i)
          if (storageOf(op.getOperand(i)) == storage) {
            viewOf = int32_t(i);
            break;
          }
      addValue(result, id, viewOf);
      model.results.push_back(valueId.lookup(result));
    }
    if (auto planning = dyn_cast<BufferPlanningOpInterface>(&op))
      for (unsigned r = 0; r < op.getNumResults(); ++r) {
        std::optional<unsigned> aliased = planning.getAliasedOperand(r);
        if (aliased && planning.writesAliasedOperand(r))
          model.writes.push_back(storageOf(op.getOperand(*aliased)));
      }
    auto recomputable = dyn_cast<RecomputableOpInterface>(&op);
    model.recomputable = recomputable && isMemoryEffectFree(&op) &&
                         op.getNumRegions() == 0 && op.getNumResults() > 0 &&
                         !op.hasTrait<OpTrait::IsTerminator>();
    if (recomputable)
      model.flops = recomputable.getFlopCount();
    if (Operation *origin = copies.lookup(&op))
      if (auto it = opId.find(origin); it != opId.end())
        model.copyOf = it->second;
    problem.ops.push_back(std::move(model));
  }
  for (const LiveBuffer &buffer : liveness->getBuffers())
    if (buffer.kind == LiveBuffer::Kind::Scratch)
      problem.ops[opId.lookup(buffer.op)].scratch += buffer.bytes;
  return body;
}

/// What was done to the IR, to undo it.
struct Applied {
  SmallVector<Operation *> clones;
  SmallVector<std::tuple<Operation *, unsigned, Value>> oldOperands;

  void append(Applied &&later) {
    clones.append(later.clones);
    oldOperands.append(later.oldOperands);
    later = {};
  }
};

void applyDecisions(BodyProblem &body,
                    const std::vector<RematDecision> &decisions,
                    Applied &applied, CopyOrigins &copies) {
  MLIRContext *context = body.ops.front()->getContext();
  for (const RematDecision &decision : decisions) {
    for (const RematClone &clone : decision.clones) {
      Operation *source = body.ops[clone.source];
      OpBuilder builder(body.ops[clone.before]);
      IRMapping mapping;
      for (unsigned i = 0; i < source->getNumOperands(); ++i)
        mapping.map(source->getOperand(i), body.values[clone.operands[i]]);
      Operation *copy = builder.clone(*source, mapping);
      MemPlanDialect::RecomputedAttrHelper(context).setAttr(
          copy, UnitAttr::get(context));
      Operation *origin = copies.lookup(source);
      copies[copy] = origin ? origin : source;
      body.ops.push_back(copy);
      for (Value result : copy->getResults())
        body.values.push_back(result);
      applied.clones.push_back(copy);
    }
    for (const RematRewire &rewire : decision.rewires) {
      Operation *user = body.ops[rewire.op];
      applied.oldOperands.emplace_back(user, rewire.operand,
                                       user->getOperand(rewire.operand));
      user->setOperand(rewire.operand, body.values[rewire.value]);
    }
  }
}

void undo(Applied &applied, CopyOrigins &copies) {
  for (auto &[user, index, value] : llvm::reverse(applied.oldOperands))
    user->setOperand(index, value);
  for (Operation *clone : llvm::reverse(applied.clones)) {
    copies.erase(clone);
    clone->erase();
  }
  applied = {};
}

/// Puts `ops` (every op of their block but the terminator) back in this
/// order.
void restoreOrder(ArrayRef<Operation *> ops) {
  if (ops.empty())
    return;
  Operation *terminator = &ops.front()->getBlock()->back();
  for (Operation *op : ops)
    if (op != terminator)
      op->moveBefore(terminator);
}

/// Rounds of recomputation and reordering at most (each must lower the
/// bound).
constexpr unsigned kMaxSteps = 8;

/// One run of rounds from a body, and what it did to it.
struct Attempt {
  /// The ops as the attempt found them, to put back.
  SmallVector<Operation *> startOrder;
  CopyOrigins copies;
  Applied applied;
  bool reordered = false;
  uint64_t bound = 0, ops = 0, flops = 0;

  bool fits(uint64_t budget) const { return bound <= budget; }
  /// Takes the body back to where the attempt started.
  void undoAll() {
    undo(applied, copies);
    if (reordered)
      restoreOrder(startOrder);
    reordered = false;
    ops = flops = 0;
  }
};

/// Recomputes (and with `schedule`, reorders) until the bound of `block`
/// fits the budget or stops falling; `attempt.bound` starts as the bound
/// of the body as it is. Fails, with the body as it was, only if the
/// liveness cannot be measured.
///
/// The model is the measure's own liveness on the current body;
/// recomputation may change which in-place reuses happen, so each step is
/// measured, and if it misses a budget the model met, a second round from
/// the same body aims lower by the miss. With `schedule`, the ops are
/// reordered after each step and the next step starts from there: a step
/// that lowers one peak can leave the highest where the order was never
/// the bottleneck (gradients kept to the end of a training step because
/// the loss's peak hid them), and only reordering lowers that.
LogicalResult runRounds(Block &block, const RematSettings &settings,
                        Attempt &attempt) {
  Region &region = *block.getParent();
  for (Operation &op : block)
    attempt.startOrder.push_back(&op);
  uint64_t &bound = attempt.bound;
  ScheduleSettings reorder;
  reorder.inPlace = settings.inPlace;
  reorder.resultsInCallerBuffers = settings.resultsInCallerBuffers;
  reorder.boundOverOrders = false;
  for (unsigned step = 0; step < kMaxSteps && bound > settings.budget; ++step) {
    uint64_t start = bound;
    Applied current;
    uint64_t ops = 0, flops = 0;
    uint64_t target = settings.budget;
    for (int round = 0; round < 2; ++round) {
      if (round)
        undo(current, attempt.copies);
      FailureOr<BodyProblem> body =
          buildProblem(block, settings.inPlace, settings.resultsInCallerBuffers,
                       attempt.copies);
      if (failed(body)) {
        undo(current, attempt.copies);
        attempt.undoAll();
        return failure();
      }
      RematLimits limits;
      limits.maxCopiesPerOp = settings.maxCopies;
      RematResult chosen = rematerializeToBudget(body->problem, target, limits);
      applyDecisions(*body, chosen.decisions, current, attempt.copies);
      ops = chosen.recomputedOps;
      flops = chosen.recomputedFlops;
      FailureOr<uint64_t> measured = measureLowerBound(
          region, settings.inPlace, settings.resultsInCallerBuffers);
      if (failed(measured)) {
        undo(current, attempt.copies);
        attempt.undoAll();
        return failure();
      }
      bound = *measured;
      if (!chosen.fits || bound <= settings.budget || bound <= chosen.peakAfter)
        break;
      uint64_t miss = bound - chosen.peakAfter;
      if (miss >= target)
        break;
      target -= miss;
    }
    if (bound < start) {
      attempt.applied.append(std::move(current));
      attempt.ops += ops;
      attempt.flops = llvm::SaturatingAdd(attempt.flops, flops);
    } else {
      undo(current, attempt.copies);
      bound = start;
    }
    if (bound <= settings.budget || !settings.schedule)
      break;
    FailureOr<BlockSchedule> scheduled = scheduleBlock(block, reorder);
    if (failed(scheduled)) {
      attempt.undoAll();
      return failure();
    }
    attempt.reordered = attempt.reordered || !scheduled->name.empty();
    bound = scheduled->after.lowerBound;
    if (bound >= start)
      break; // neither recomputing nor reordering lowers it any more
  }
  return success();
}

/// Whether `candidate` ends better than `kept`: it fits where `kept` does
/// not, or recomputes fewer operations for a fitting bound, or reaches a
/// lower bound where neither fits.
bool isBetter(const Attempt &candidate, const Attempt &kept, uint64_t budget) {
  if (candidate.fits(budget) != kept.fits(budget))
    return candidate.fits(budget);
  if (candidate.fits(budget))
    return candidate.flops < kept.flops ||
           (candidate.flops == kept.flops && candidate.bound < kept.bound);
  return candidate.bound < kept.bound ||
         (candidate.bound == kept.bound && candidate.flops < kept.flops);
}

IntegerAttr byteCount(MLIRContext *context, uint64_t value) {
  return IntegerAttr::get(
      IntegerType::get(context, 64),
      static_cast<int64_t>(std::min<uint64_t>(value, INT64_MAX)));
}

} // namespace

FailureOr<RematOutcome>
memplan::fitFunctionToBudget(FunctionOpInterface function,
                             const RematSettings &settings) {
  RematOutcome outcome;
  Region &region = function.getFunctionBody();
  if (!llvm::hasSingleElement(region))
    return outcome; // --plan-offsets says what it cannot plan
  MLIRContext *context = function.getContext();
  if (MemPlanDialect::ArenaSizeAttrHelper(context).isAttrPresent(function))
    return function.emitError()
           << "@" << function.getName()
           << " is already planned (memplan.arena_size): run "
              "--memplan-fit-budget before --plan-offsets";
  Block &block = region.front();
  FailureOr<uint64_t> input = measureLowerBound(
      region, settings.inPlace, settings.resultsInCallerBuffers);
  if (failed(input))
    return failure();
  outcome.boundBefore = outcome.boundAfter = *input;
  for (Operation &op : block)
    if (auto recomputable = dyn_cast<RecomputableOpInterface>(&op))
      outcome.recomputableFlops = llvm::SaturatingAdd(
          outcome.recomputableFlops, recomputable.getFlopCount());

  Attempt first;
  first.bound = *input;
  if (failed(runRounds(block, settings, first)))
    return failure();
  SmallVector<Operation *> inputOrder = first.startOrder;

  // With `schedule`, the rounds end in an order the first step never saw
  // (updates applied once their gradients are final, say); recomputation
  // chosen from there, with nothing recomputed yet, can need fewer
  // operations than the steps that led to it (which chose while the order
  // still hid the peak the reordering lowered). So the rounds run again on
  // a copy of the input in that order, and the better of the two is kept.
  // The copy is a region of the function's own (not in its list of
  // regions), so that it sees the same data layout and symbols.
  Attempt second;
  Attempt *kept = &first;
  if (settings.schedule && first.reordered &&
      (!first.fits(settings.budget) || first.flops > 0)) {
    Region firstBody(function);
    Region restart(function);
    IRMapping mapping;
    region.cloneInto(&restart, mapping);
    for (auto &[user, index, value] : llvm::reverse(first.applied.oldOperands))
      mapping.lookup(user)->setOperand(index, mapping.lookup(value));
    for (Operation *clone : llvm::reverse(first.applied.clones))
      mapping.lookup(clone)->erase();
    firstBody.takeBody(region);
    region.takeBody(restart);
    FailureOr<uint64_t> start = measureLowerBound(
        region, settings.inPlace, settings.resultsInCallerBuffers);
    if (succeeded(start)) {
      second.bound = *start;
      if (failed(runRounds(region.front(), settings, second)))
        start = failure();
    }
    if (succeeded(start) && isBetter(second, first, settings.budget)) {
      kept = &second;
      second.reordered = true; // it started from a reordered body
      for (Operation *&op : inputOrder)
        op = mapping.lookup(op);
    } else {
      region.takeBody(firstBody);
    }
    if (failed(start)) {
      first.undoAll();
      return failure();
    }
  }

  Attempt &result = *kept;
  uint64_t bound = result.bound;
  bool reordered = result.reordered;
  outcome.recomputedOps = result.ops;
  outcome.recomputedFlops = result.flops;
  outcome.rerunKept = kept == &second;
  bool fits = bound <= settings.budget;
  if (!fits && (!settings.bestEffort || bound >= *input)) {
    uint64_t reached = std::min(bound, *input);
    result.undoAll();
    restoreOrder(inputOrder);
    outcome.boundAfter = *input;
    outcome.recomputedOps = outcome.recomputedFlops = 0;
    outcome.rerunKept = false;
    if (settings.bestEffort) {
      mlir::emitWarning(region.front().back().getLoc())
          << "memplan: @" << function.getName() << ": lower bound " << *input
          << " bytes does not fit the budget of " << settings.budget
          << " bytes, and no recomputation lowers it";
      return outcome;
    }
    // At the return, as the remarks (a generated function's signature can
    // fill a line of megabytes).
    InFlightDiagnostic diag = mlir::emitError(region.front().back().getLoc());
    diag << "@" << function.getName() << ": lower bound " << *input
         << " bytes does not fit the budget of " << settings.budget << " bytes";
    diag.attachNote()
        << "recomputing what can be recomputed"
        << (reordered ? " and reordering the ops" : "") << " reaches "
        << reached
        << " bytes; the rest is live at once and cannot be recomputed "
           "(arguments, gradients, values whose ops are not "
           "RecomputableOpInterface or read memory written in place before "
           "the peak)";
    return failure();
  }
  outcome.boundAfter = bound;
  if (reordered &&
      !MemPlanDialect::UnscheduledLowerBoundAttrHelper(context).isAttrPresent(
          function))
    MemPlanDialect::UnscheduledLowerBoundAttrHelper(context).setAttr(
        function, byteCount(context, *input));
  if (outcome.recomputedOps) {
    MemPlanDialect::UnrematerializedLowerBoundAttrHelper(context).setAttr(
        function, byteCount(context, *input));
    MemPlanDialect::RecomputedFlopsAttrHelper(context).setAttr(
        function, byteCount(context, outcome.recomputedFlops));
  }

  if (!fits) {
    InFlightDiagnostic warning =
        mlir::emitWarning(region.front().back().getLoc());
    warning << "memplan: @" << function.getName() << ": ";
    if (outcome.recomputedOps == 0)
      warning << "ops reordered, nothing recomputed";
    else
      warning << "recomputed " << outcome.recomputedOps << " ops ("
              << outcome.recomputedFlops << " operations)";
    warning << ": lower bound " << *input << " -> " << bound
            << " bytes, over the budget of " << settings.budget
            << " bytes; one run of every recomputable op: "
            << outcome.recomputableFlops << " operations";
    if (outcome.recomputedOps && reordered)
      warning << "; ops reordered between rounds";
    return outcome;
  }
  InFlightDiagnostic remark = emitRemark(region.front().back().getLoc());
  remark << "memplan: @" << function.getName() << ": ";
  if (outcome.recomputedOps == 0 && reordered)
    remark << "ops reordered, nothing recomputed: lower bound " << *input
           << " -> " << bound << " bytes, budget " << settings.budget
           << " bytes";
  else if (outcome.recomputedOps == 0)
    remark << "lower bound " << *input << " bytes fits the budget of "
           << settings.budget << " bytes, nothing recomputed";
  else
    remark << "recomputed " << outcome.recomputedOps << " ops ("
           << outcome.recomputedFlops << " operations): lower bound " << *input
           << " -> " << bound << " bytes, budget " << settings.budget
           << " bytes" << (reordered ? "; ops reordered between rounds" : "");
  return outcome;
}
