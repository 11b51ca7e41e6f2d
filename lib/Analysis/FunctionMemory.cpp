//===- FunctionMemory.cpp - Every byte a planned function needs -----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What is outside the arena (arguments by memplan.role, outputs) and what is
// inside it (activations, scratch, gradients), from the plan written in the
// IR.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/FunctionMemory.h"

#include "memplan/Analysis/PlanVerification.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "memplan/Planner/Problem.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>

using namespace mlir;
using namespace memplan;

namespace {

/// The first op of `body` that uses `argument` (its top-level ancestor, in
/// program order), if any.
Operation *firstUser(Block &body, BlockArgument argument,
                     const BufferLiveness &liveness) {
  Operation *first = nullptr;
  for (Operation *user : argument.getUsers())
    if (Operation *op = body.findAncestorOpInBlock(*user))
      if (!first || liveness.getPosition(op) < liveness.getPosition(first))
        first = op;
  return first;
}

/// The function's tensors as PyTorch's eager mode holds them, each its own
/// allocation: the arguments first, in order, kept for good; then each
/// buffer over its planned lifetime, a returned one held through the next
/// step (a loop holds the last result until the next has returned); the
/// library workspace once, at its first use, for good (PyTorch keeps one
/// cuBLAS workspace per handle).
///
/// Arguments the framework makes in the first step
/// (memplan.created_in_first_step) are made there, as PyTorch makes them:
/// optimizer states all together, before the first op that uses one of
/// them (torch.optim's `_init_group` makes every state before the first
/// update); a gradient accumulator (`.grad`) out of the first gradient it
/// receives, whose memory it takes over (AccumulateGrad keeps that tensor
/// as `.grad`): from that gradient's start, which is then not allocated
/// in the first step. The gradient is found without knowing the op by
/// name: it is the operand of the accumulator's first op held in a buffer
/// of the accumulator's size (if none is, the accumulator is made at that
/// op).
std::vector<TensorLifetime> eagerTensors(FunctionOpInterface function,
                                         const BufferLiveness &liveness) {
  Block &body = function.getFunctionBody().front();
  auto createdInFirstStep = [&](BlockArgument argument) {
    return isCreatedInFirstStep(function, argument.getArgNumber());
  };
  auto role = [&](BlockArgument argument) {
    return getArgumentRole(function, argument.getArgNumber());
  };
  std::optional<int64_t> statesMade;
  for (BlockArgument argument : function.getArguments())
    if (createdInFirstStep(argument) &&
        role(argument) != ArgumentRole::GradientAccumulator)
      if (Operation *op = firstUser(body, argument, liveness))
        statesMade =
            std::min(statesMade.value_or(INT64_MAX), liveness.getPosition(op));

  std::vector<TensorLifetime> tensors;
  llvm::DenseSet<unsigned> takenOver; // buffers a .grad takes over
  for (BlockArgument argument : function.getArguments()) {
    ByteSize size = getByteSize(argument.getType());
    if (!size.ok() || isHostArgument(function, argument.getArgNumber()))
      continue;
    // An argument created in the first step that no op uses is made by
    // nothing in it: there from the start, as the others.
    int64_t start = -1;
    if (createdInFirstStep(argument) &&
        role(argument) == ArgumentRole::GradientAccumulator) {
      if (Operation *op = firstUser(body, argument, liveness)) {
        start = liveness.getPosition(op);
        for (Value operand : op->getOperands()) {
          std::optional<unsigned> index = liveness.getBufferIndex(operand);
          if (operand == argument || !index ||
              liveness.getBuffers()[*index].bytes != size.bytes ||
              takenOver.contains(*index))
            continue;
          start = liveness.getBuffers()[*index].start;
          takenOver.insert(*index);
          break;
        }
      }
    } else if (createdInFirstStep(argument)) {
      start = statesMade.value_or(-1);
    }
    tensors.push_back({size.bytes, start, kKeptForGood});
  }
  std::optional<size_t> workspace;
  for (auto [index, buffer] : llvm::enumerate(liveness.getBuffers())) {
    if (buffer.isLibraryWorkspace()) {
      if (!workspace) {
        workspace = tensors.size();
        tensors.push_back({buffer.bytes, buffer.start, kKeptForGood});
      }
      tensors[*workspace].bytes =
          std::max(tensors[*workspace].bytes, buffer.bytes);
      continue;
    }
    TensorLifetime tensor{buffer.bytes, buffer.start,
                          buffer.destination ? kHeldThroughTheNextStep
                                             : buffer.end};
    tensor.fromTheSecondStep = takenOver.contains(index);
    tensors.push_back(tensor);
  }
  return tensors;
}

/// What the caching-allocator model reports for `function`: its tensors
/// (eagerTensors) over `steps` steps, the peaks of the last (by default the
/// second, as a training loop shows them from its second step on: the
/// first step leaves its segments, and the arguments it made, in the
/// allocator's cache).
CachingAllocatorPeaks
modelCachingAllocator(FunctionOpInterface function,
                      const BufferLiveness &liveness,
                      unsigned steps = kCachingAllocatorSteps) {
  return simulateCachingAllocator(eagerTensors(function, liveness), steps);
}

/// Adds `function`'s arguments to `memory`: by role those in the device's
/// memory, the others to `host`.
void countArguments(FunctionOpInterface function, FunctionMemory &memory) {
  for (BlockArgument argument : function.getArguments()) {
    ByteSize size = getByteSize(argument.getType());
    if (!size.ok())
      continue; // index positions and other scalars
    if (isHostArgument(function, argument.getArgNumber())) {
      memory.host += size.bytes;
      continue;
    }
    std::optional<ArgumentRole> role =
        getArgumentRole(function, argument.getArgNumber());
    if (!role) {
      memory.otherArguments += size.bytes;
      continue;
    }
    switch (*role) {
    case ArgumentRole::Weight:
    case ArgumentRole::QuantizationScale: {
      // Scales are weight bytes, not parameters.
      auto type = cast<ShapedType>(argument.getType());
      std::string element;
      llvm::raw_string_ostream os(element);
      os << type.getElementType();
      memory.weightsByType[element] += size.bytes;
      memory.weights += size.bytes;
      if (*role == ArgumentRole::Weight)
        memory.parameters += type.getNumElements();
      break;
    }
    case ArgumentRole::KvCache:
      memory.kvCache += size.bytes;
      break;
    case ArgumentRole::Input:
      memory.inputs += size.bytes;
      break;
    case ArgumentRole::OptimizerState:
      memory.optimizerStates += size.bytes;
      break;
    case ArgumentRole::MasterWeight:
      memory.masterWeights += size.bytes;
      break;
    case ArgumentRole::GradientAccumulator:
      memory.gradientAccumulators += size.bytes;
      break;
    case ArgumentRole::CommunicationBuffer:
      memory.communicationBuffers += size.bytes;
      break;
    }
  }
}

/// The bytes of the caller's result buffers: each returned value that is
/// not in an argument's memory (an updated KV cache is the caller's cache,
/// counted with the arguments). Values computed in a result buffer take no
/// arena bytes, so each byte is counted once.
uint64_t countOutputs(FunctionOpInterface function,
                      const BufferLiveness &liveness) {
  uint64_t outputs = 0;
  // Liveness accepted a body of one block.
  Region &body = function.getFunctionBody();
  if (!body.empty())
    if (Operation *terminator = body.front().getTerminator())
      for (Value value : terminator->getOperands()) {
        if (liveness.isExternal(value) &&
            liveness.getExternal(value).kind == ExternalValue::Kind::Argument)
          continue;
        if (ByteSize size = getByteSize(value.getType()); size.ok())
          outputs += size.bytes;
      }
  return outputs;
}

} // namespace

FailureOr<FunctionMemory>
memplan::measureFunctionMemory(FunctionOpInterface function,
                               unsigned allocatorSteps) {
  // A report counts what the plan claims, so the claim is proven first (a
  // hand-edited plan with a buffer outside its arena would report an arena
  // too small).
  if (failed(verifyFunctionPlan(function)))
    return failure();
  FunctionMemory memory;
  memory.name = function.getName().str();
  MLIRContext *context = function.getContext();
  memory.arena = *getPlannedArenaSize(function);
  if (IntegerAttr bound =
          MemPlanDialect::LowerBoundAttrHelper(context).getAttr(function))
    memory.lowerBound = bound.getInt();
  if (IntegerAttr bound =
          MemPlanDialect::UnscheduledLowerBoundAttrHelper(context).getAttr(
              function))
    memory.unscheduledLowerBound = bound.getInt();
  if (IntegerAttr bound =
          MemPlanDialect::UnrematerializedLowerBoundAttrHelper(context).getAttr(
              function))
    memory.unrematerializedLowerBound = bound.getInt();
  if (IntegerAttr flops =
          MemPlanDialect::RecomputedFlopsAttrHelper(context).getAttr(function))
    memory.recomputedFlops = flops.getInt();

  countArguments(function, memory);

  FailureOr<BufferLiveness> liveness = computePlannedLiveness(function);
  if (failed(liveness))
    return failure();
  // The same buffers without the library workspaces, for their share of the
  // lower bound (sizes do not depend on the alignment).
  Problem withWorkspaces = liveness->toProblem(/*alignment=*/1);
  Problem withoutWorkspaces = withWorkspaces;
  for (auto [index, buffer] : llvm::enumerate(liveness->getBuffers())) {
    if (buffer.destination)
      continue; // in the caller's result buffer: an output below
    memory.withoutReuse += buffer.bytes;
    ++memory.bufferCount;
    if (buffer.kind == LiveBuffer::Kind::Scratch) {
      memory.scratch += buffer.bytes;
      if (buffer.isLibraryWorkspace()) {
        memory.libraryWorkspace =
            std::max(memory.libraryWorkspace, buffer.bytes);
        withoutWorkspaces.buffers[index].size = 0;
      }
    } else {
      ResultRole role =
          getResultRole(cast<OpResult>(buffer.values.front().value));
      if (role == ResultRole::Gradient)
        memory.gradients += buffer.bytes;
      else if (role == ResultRole::Gathered)
        memory.gathered += buffer.bytes;
    }
  }
  memory.libraryWorkspaceAtPeak =
      computeLowerBound(withWorkspaces) - computeLowerBound(withoutWorkspaces);
  memory.pytorch = modelCachingAllocator(function, *liveness, allocatorSteps);
  memory.outputs = countOutputs(function, *liveness);
  return memory;
}

FailureOr<FunctionMemoryBounds>
memplan::boundFunctionMemory(FunctionOpInterface function, bool inPlace,
                             bool resultsInCallerBuffers) {
  // The buffers --plan-offsets would place (planFunction's liveness, with
  // the same policies), and what lies outside them as measureFunctionMemory
  // counts it.
  FailureOr<BufferLiveness> liveness = BufferLiveness::compute(
      function.getFunctionBody(), inPlaceWhereAllowed(inPlace),
      memplan::resultsInCallerBuffers(resultsInCallerBuffers));
  if (failed(liveness))
    return failure();
  FunctionMemory memory;
  countArguments(function, memory);
  // No arena holds less than the most bytes live at once (sizes do not
  // depend on the alignment).
  memory.arena = computeLowerBound(liveness->toProblem(/*alignment=*/1));
  memory.outputs = countOutputs(function, *liveness);
  FunctionMemoryBounds bounds;
  bounds.total = memory.total();
  bounds.pytorch = modelCachingAllocator(function, *liveness);
  return bounds;
}
