//===- FunctionSchedule.cpp - Reorder one function's ops ------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Builds a ScheduleProblem (Scheduling.h) from a function body: buffers and
// their users from BufferLiveness (without in-place reuse, so that every
// result's buffer is its own; views join their source), order constraints
// from SSA uses, in-place writers and ops of unknown memory effect. Each
// candidate order is then applied to the block and measured with the
// liveness --plan-offsets will use, so the kept order is the best by the
// exact lower bound, not by the scheduler's model.
//
//===----------------------------------------------------------------------===//

#include "FunctionSchedule.h"

#include "memplan/Analysis/BufferLiveness.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "memplan/Planner/Scheduling.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace memplan;

namespace {

/// The body's ops in order (the terminator last) and the problem over them.
struct BodySchedule {
  SmallVector<Operation *> ops;
  ScheduleProblem problem;
};

/// Ops that state their memory behaviour on tensors through the planning
/// interface (views, writes into operands) are ordered by what they state;
/// any other op with memory effects keeps its place among those like it.
bool isOrderedByEffects(Operation *op) {
  return !isa<BufferPlanningOpInterface>(op) && !isMemoryEffectFree(op);
}

FailureOr<BodySchedule> buildProblem(Block &block, bool inPlace,
                                     bool destinations) {
  BodySchedule body;
  DenseMap<Operation *, uint32_t> index;
  for (Operation &op : block) {
    index[&op] = uint32_t(body.ops.size());
    body.ops.push_back(&op);
  }
  size_t n = body.ops.size();
  body.problem.ops.resize(n);
  // The top-level op of the body holding `user`.
  auto topLevel = [&](Operation *user) -> std::optional<uint32_t> {
    Operation *ancestor = block.findAncestorOpInBlock(*user);
    if (!ancestor)
      return std::nullopt;
    return index.lookup(ancestor);
  };
  llvm::SmallVector<llvm::SetVector<uint32_t>> predecessors(n);
  auto order = [&](uint32_t before, uint32_t after) {
    if (before != after)
      predecessors[after].insert(before);
  };

  // SSA uses, also from nested regions.
  for (uint32_t i = 0; i < n; ++i)
    body.ops[i]->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *definer = operand.getDefiningOp())
          if (definer->getBlock() == &block)
            order(index.lookup(definer), i);
    });
  // The terminator last.
  for (uint32_t i = 0; i + 1 < n; ++i)
    order(i, uint32_t(n - 1));
  // Ops of unknown memory effect keep their relative order.
  std::optional<uint32_t> previous;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    if (!isOrderedByEffects(body.ops[i]))
      continue;
    if (previous)
      order(*previous, i);
    previous = i;
  }
  // A recomputation (memplan.recomputed: a clone --memplan-fit-budget or
  // memplan-gen's checkpointing placed late on purpose) may move later, not
  // earlier than the op before it that is not one: moved to where its
  // operands are ready, it would be the kept value again.
  auto recomputed =
      MemPlanDialect::RecomputedAttrHelper(block.getParent()->getContext());
  std::optional<uint32_t> lastPlain;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    if (!recomputed.isAttrPresent(body.ops[i])) {
      lastPlain = i;
      continue;
    }
    if (lastPlain)
      order(*lastPlain, i);
  }

  FailureOr<BufferLiveness> liveness = BufferLiveness::compute(
      *block.getParent(), nullptr, resultsInCallerBuffers(destinations));
  if (failed(liveness))
    return failure();

  // Users of each storage: a buffer, or an external value with its views.
  auto usersOf = [&](ArrayRef<Value> values) {
    llvm::SetVector<uint32_t> users;
    for (Value value : values)
      for (Operation *user : value.getUsers())
        if (std::optional<uint32_t> at = topLevel(user))
          users.insert(*at);
    return users;
  };
  for (const LiveBuffer &buffer : liveness->getBuffers()) {
    uint32_t creator = index.lookup(buffer.op);
    if (buffer.kind == LiveBuffer::Kind::Scratch) {
      body.problem.ops[creator].scratch += buffer.bytes;
      continue;
    }
    ScheduleProblem::Buffer scheduled;
    scheduled.size = buffer.destination ? 0 : buffer.bytes;
    scheduled.creator = creator;
    SmallVector<Value> values;
    for (const BufferValue &value : buffer.values)
      values.push_back(value.value);
    for (uint32_t user : usersOf(values))
      if (user != creator)
        scheduled.users.push_back(user);
    // Whether the liveness may compute it in place over a buffer its
    // creator reads (BufferLiveness: an in-place operand's buffer that
    // dies there, at least as large).
    if (inPlace)
      if (auto planning = dyn_cast<BufferPlanningOpInterface>(buffer.op))
        for (const BufferValue &value : buffer.values) {
          auto result = dyn_cast<OpResult>(value.value);
          if (!result || result.getOwner() != buffer.op)
            continue;
          for (unsigned operand :
               planning.getInPlaceOperands(result.getResultNumber()))
            if (liveness->getBufferIndex(buffer.op->getOperand(operand)))
              scheduled.mayBeInPlace = true;
        }
    body.problem.buffers.push_back(std::move(scheduled));
  }

  // With in-place reuse and results in the caller's buffers, a buffer may
  // come to share, through results computed in place over it, the storage
  // of a returned value: that storage is then the caller's, and takes no
  // arena bytes. Such buffers are those from which a chain of allowed
  // in-place reuses reaches a returned value; the bound over all orders
  // leaves them out.
  if (inPlace && destinations) {
    // Buffer -> buffers of results that may be computed in place over it,
    // reversed: from a result's buffer to the buffers it may reuse.
    DenseMap<unsigned, SmallVector<unsigned>> reusedBy;
    for (Operation *op : body.ops) {
      auto planning = dyn_cast<BufferPlanningOpInterface>(op);
      if (!planning)
        continue;
      for (OpResult result : op->getResults()) {
        std::optional<unsigned> into = liveness->getBufferIndex(result);
        if (!into)
          continue;
        for (unsigned operand :
             planning.getInPlaceOperands(result.getResultNumber()))
          if (std::optional<unsigned> from =
                  liveness->getBufferIndex(op->getOperand(operand)))
            if (*from != *into)
              reusedBy[*into].push_back(*from);
      }
    }
    SmallVector<unsigned> work;
    llvm::DenseSet<unsigned> leaves;
    for (Value returned : block.getTerminator()->getOperands())
      if (std::optional<unsigned> b = liveness->getBufferIndex(returned))
        if (leaves.insert(*b).second)
          work.push_back(*b);
    while (!work.empty())
      for (unsigned from : reusedBy.lookup(work.pop_back_val()))
        if (leaves.insert(from).second)
          work.push_back(from);
    // Buffers of the model are the liveness's non-scratch buffers, in order.
    unsigned next = 0;
    for (unsigned b = 0; b < liveness->getBuffers().size(); ++b) {
      if (liveness->getBuffers()[b].kind == LiveBuffer::Kind::Scratch)
        continue;
      body.problem.buffers[next++].mayLeaveArena = leaves.contains(b);
    }
  }

  // Around a write into an operand's memory, every other access to that
  // memory stays on its side of the writer.
  DenseMap<Value, SmallVector<Value>> externalViews;
  for (Operation *op : body.ops)
    for (Value operand : op->getOperands())
      if (liveness->isExternal(operand))
        externalViews[liveness->getExternal(operand).value].push_back(operand);
  for (uint32_t w = 0; w < n; ++w) {
    auto planning = dyn_cast<BufferPlanningOpInterface>(body.ops[w]);
    if (!planning)
      continue;
    for (unsigned r = 0; r < body.ops[w]->getNumResults(); ++r) {
      std::optional<unsigned> aliased = planning.getAliasedOperand(r);
      if (!aliased || !planning.writesAliasedOperand(r))
        continue;
      Value written = body.ops[w]->getOperand(*aliased);
      SmallVector<Value> storage;
      if (liveness->isExternal(written)) {
        storage = externalViews.lookup(liveness->getExternal(written).value);
        storage.push_back(liveness->getExternal(written).value);
      } else if (std::optional<unsigned> b =
                     liveness->getBufferIndex(written)) {
        for (const BufferValue &value : liveness->getBuffers()[*b].values)
          storage.push_back(value.value);
      }
      for (uint32_t user : usersOf(storage)) {
        if (user < w)
          order(user, w);
        else
          order(w, user);
      }
    }
  }
  for (uint32_t i = 0; i < n; ++i)
    body.problem.ops[i].predecessors.assign(predecessors[i].begin(),
                                            predecessors[i].end());
  return body;
}

/// Puts the block's ops in `order` (indices into `ops`; the terminator
/// stays last).
void applyOrder(ArrayRef<Operation *> ops, const Schedule &order) {
  Operation *terminator = ops.back();
  for (uint32_t i : order)
    if (ops[i] != terminator)
      ops[i]->moveBefore(terminator);
}

} // namespace

FailureOr<uint64_t> memplan::measureLowerBound(Region &body, bool inPlace,
                                               bool resultsInCallerBuffers) {
  FailureOr<MemoryProfile> profile =
      measureProfile(body, inPlace, resultsInCallerBuffers);
  if (failed(profile))
    return failure();
  return profile->lowerBound;
}

FailureOr<MemoryProfile> memplan::measureProfile(Region &body, bool inPlace,
                                                 bool resultsInCallerBuffers) {
  FailureOr<BufferLiveness> liveness = BufferLiveness::compute(
      body, inPlaceWhereAllowed(inPlace),
      memplan::resultsInCallerBuffers(resultsInCallerBuffers));
  if (failed(liveness))
    return failure();
  Problem problem = liveness->toProblem(/*alignment=*/1);
  MemoryProfile profile;
  profile.lowerBound = computeLowerBound(problem);
  for (const Buffer &buffer : problem.buffers)
    profile.byteSteps = llvm::SaturatingAdd(
        profile.byteSteps,
        llvm::SaturatingMultiply(buffer.size,
                                 uint64_t(buffer.end - buffer.start)));
  return profile;
}

FailureOr<BlockSchedule>
memplan::scheduleBlock(Block &block, const ScheduleSettings &settings) {
  Region &region = *block.getParent();
  FailureOr<BodySchedule> body =
      buildProblem(block, settings.inPlace, settings.resultsInCallerBuffers);
  if (failed(body))
    return failure();
  FailureOr<MemoryProfile> input =
      measureProfile(region, settings.inPlace, settings.resultsInCallerBuffers);
  if (failed(input))
    return failure();
  BlockSchedule outcome;
  outcome.before = outcome.after = *input;

  // Every candidate is a topological order of the same ops, so the liveness
  // that accepted the input accepts it; should it not, its diagnostic is
  // reported, not hidden (silencing the context would also hide other
  // functions' diagnostics when functions are scheduled in parallel).
  std::vector<ScheduleCandidate> candidates =
      scheduleCandidates(body->problem, settings.exactOps);
  const ScheduleCandidate *best = nullptr;
  for (const ScheduleCandidate &candidate : candidates) {
    if (candidate.name == "input")
      continue;
    outcome.proven = outcome.proven || candidate.provenOptimal;
    applyOrder(body->ops, candidate.order);
    FailureOr<MemoryProfile> profile = measureProfile(
        region, settings.inPlace, settings.resultsInCallerBuffers);
    if (failed(profile)) {
      applyOrder(body->ops, scheduleInOrder(body->problem));
      return failure();
    }
    if (std::make_pair(profile->lowerBound, profile->byteSteps) <
        std::make_pair(outcome.after.lowerBound, outcome.after.byteSteps)) {
      outcome.after = *profile;
      best = &candidate;
    }
  }
  applyOrder(body->ops, best ? best->order : scheduleInOrder(body->problem));
  if (best)
    outcome.name = best->name;

  if (!settings.boundOverOrders)
    return outcome;
  // No order goes below the bound; one that seems to is a bug in the
  // bound's reasoning or in the model built here, not a better order.
  ScheduleBound bound = scheduleLowerBound(body->problem, settings.inPlace);
  if (bound.bytes > outcome.after.lowerBound)
    return body->ops[bound.op]->emitError()
           << "memplan internal error: every order was bounded below by "
           << bound.bytes << " bytes at this op, but an order measures "
           << outcome.after.lowerBound << " bytes";
  outcome.boundOverOrders = bound.bytes;
  outcome.boundAt = bound.bytes ? body->ops[bound.op] : nullptr;
  return outcome;
}

FailureOr<bool> memplan::scheduleFunction(FunctionOpInterface function,
                                          const ScheduleSettings &settings) {
  Region &region = function.getFunctionBody();
  if (!llvm::hasSingleElement(region))
    return false; // --plan-offsets says what it cannot plan
  // Moving ops would leave a plan's offsets on the wrong lifetimes.
  if (MemPlanDialect::ArenaSizeAttrHelper(function.getContext())
          .isAttrPresent(function))
    return function.emitError()
           << "@" << function.getName()
           << " is already planned (memplan.arena_size): run "
              "--memplan-schedule before --plan-offsets";
  Block &block = region.front();
  FailureOr<BlockSchedule> scheduled = scheduleBlock(block, settings);
  if (failed(scheduled))
    return failure();
  const MemoryProfile &input = scheduled->before, &kept = scheduled->after;
  bool changed = !scheduled->name.empty();
  // For the memory report: the bound of the order as written.
  MemPlanDialect::UnscheduledLowerBoundAttrHelper(function.getContext())
      .setAttr(function,
               IntegerAttr::get(IntegerType::get(function.getContext(), 64),
                                static_cast<int64_t>(input.lowerBound)));

  // At the return, as --plan-offsets's remark (a generated function's
  // signature can fill a line of megabytes).
  InFlightDiagnostic remark = mlir::emitRemark(block.back().getLoc());
  remark << "memplan: @" << function.getName() << ": ";
  if (changed && kept.lowerBound < input.lowerBound)
    remark << "ops reordered (" << scheduled->name << "): lower bound "
           << input.lowerBound << " -> " << kept.lowerBound << " bytes";
  else if (changed)
    remark << "ops reordered (" << scheduled->name << "): lower bound "
           << input.lowerBound
           << " bytes kept, fewer bytes live over the steps ("
           << input.byteSteps << " -> " << kept.byteSteps << " byte-steps)";
  else
    remark << "input order kept: lower bound " << input.lowerBound
           << " bytes, no candidate lower";
  if (scheduled->proven)
    remark << "; the exact order of the scheduling model was among the "
              "candidates";
  if (scheduled->boundAt && scheduled->boundOverOrders == kept.lowerBound)
    remark << "; optimal: every order keeps " << scheduled->boundOverOrders
           << " bytes live at one op";
  else if (scheduled->boundAt)
    remark << "; every order keeps at least " << scheduled->boundOverOrders
           << " bytes live at one op";
  if (scheduled->boundAt)
    remark.attachNote(scheduled->boundAt->getLoc())
        << "that op: what every order keeps live there (made before it, "
           "read after it) and its own operands, results and scratch";
  return changed;
}
