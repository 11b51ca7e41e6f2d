//===- BufferLiveness.cpp - Lifetimes of the tensors of a function --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/BufferLiveness.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace memplan;

namespace {

/// Values the planner cares about: tensors.
bool isPlannable(Value value) { return isa<TensorType>(value.getType()); }

/// A memref in a function planned with tensor semantics: memrefs alias,
/// escape and are freed in ways that value liveness does not see, so
/// bufferized IR goes through the memref alias model instead.
LogicalResult rejectMemRef(Value value, Location loc) {
  if (!isa<BaseMemRefType>(value.getType()))
    return success();
  return emitError(loc)
         << "this function holds memrefs (" << value.getType()
         << "): --plan-offsets plans the value-semantic tensors of memplan "
            "graphs; plan bufferized IR with --memplan-pack-allocs, which "
            "follows memref aliases and escapes";
}

/// The operand whose buffer `result` is a view of, if any.
std::optional<unsigned> getAliasedOperand(OpResult result) {
  Operation *op = result.getOwner();
  if (auto planning = dyn_cast<BufferPlanningOpInterface>(op))
    return planning.getAliasedOperand(result.getResultNumber());
  if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
    if (view.getViewDest() != result)
      return std::nullopt;
    Value source = view.getViewSource();
    for (OpOperand &operand : op->getOpOperands())
      if (operand.get() == source)
        return operand.getOperandNumber();
  }
  return std::nullopt;
}

/// The byte size of a value's type, or a diagnostic naming `what`.
FailureOr<uint64_t> getBytesOrEmitError(Value value, Location loc,
                                        const Twine &what) {
  ByteSize size = getByteSize(value.getType());
  if (size.ok())
    return size.bytes;
  emitError(loc) << what << " of type " << value.getType() << " "
                 << describeByteSizeFailure(size.status)
                 << "; memplan plans statically shaped tensors of sized "
                    "element types only";
  return failure();
}

} // namespace

FailureOr<BufferLiveness>
BufferLiveness::compute(Region &body, const InPlacePolicy &inPlace,
                        const DestinationPolicy &destinations) {
  BufferLiveness liveness;
  if (body.empty())
    return liveness;
  if (!body.hasOneBlock()) {
    emitError(body.getLoc())
        << "memplan plans function bodies of one block; this one has "
        << body.getBlocks().size() << " blocks";
    return failure();
  }
  Block &block = body.front();

  // Positions, and the last position at which each value of the block is
  // used (uses in nested regions count at their ancestor in the block).
  DenseMap<Value, int64_t> lastUse;
  int64_t position = 0;
  for (Operation &op : block) {
    liveness.positions[&op] = position;
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (operand.getParentBlock() == &block)
          lastUse[operand] = std::max(lastUse.lookup(operand), position);
    });
    ++position;
  }
  liveness.numPositions = position;

  // The values in each external's memory, in the order they are found
  // (an in-place write below checks them all; looking them up through
  // externalOf would cost every value per write, and an optimizer step
  // writes every weight).
  SmallVector<SmallVector<Value, 2>> valuesOfExternal;
  auto addExternal = [&](Value value, ExternalValue::Kind kind,
                         uint64_t bytes) {
    liveness.externalOf[value] = liveness.externals.size();
    liveness.externals.push_back({kind, value, bytes});
    valuesOfExternal.push_back({value});
  };

  for (BlockArgument argument : block.getArguments()) {
    if (failed(rejectMemRef(argument, argument.getLoc())))
      return failure();
    if (!isPlannable(argument))
      continue;
    FailureOr<uint64_t> bytes =
        getBytesOrEmitError(argument, argument.getLoc(),
                            "argument #" + Twine(argument.getArgNumber()));
    if (failed(bytes))
      return failure();
    addExternal(argument, ExternalValue::Kind::Argument, *bytes);
  }

  // The last position at which a value of each buffer is used.
  SmallVector<int64_t> lastUseOfBuffer;
  auto currentEnd = [&](unsigned index) { return lastUseOfBuffer[index]; };
  auto join = [&](Value value, unsigned index, BufferValue::Role role) {
    liveness.bufferOf[value] = index;
    liveness.buffers[index].values.push_back({value, role});
    lastUseOfBuffer[index] =
        std::max(lastUseOfBuffer[index], lastUse.lookup(value));
  };

  // Results written into their operand's memory (KV-cache updates), and
  // where: nothing may read the value they overwrite after that.
  SmallVector<std::pair<OpResult, int64_t>> writesInPlace;

  for (Operation &op : block) {
    int64_t here = liveness.positions[&op];
    bool isConstant = op.hasTrait<OpTrait::ConstantLike>();
    llvm::SmallSet<unsigned, 4> takenInPlace;
    for (OpResult result : op.getResults()) {
      if (failed(rejectMemRef(result, op.getLoc())))
        return failure();
      if (!isPlannable(result))
        continue;
      FailureOr<uint64_t> bytes = getBytesOrEmitError(
          result, op.getLoc(), "result #" + Twine(result.getResultNumber()));
      if (failed(bytes))
        return failure();
      if (isConstant) {
        addExternal(result, ExternalValue::Kind::Constant, *bytes);
        continue;
      }

      // A view joins its source, in the arena or outside it.
      if (std::optional<unsigned> aliased = getAliasedOperand(result)) {
        Value source = op.getOperand(*aliased);
        auto planning = dyn_cast<BufferPlanningOpInterface>(op);
        if (planning && planning.writesAliasedOperand(result.getResultNumber()))
          writesInPlace.push_back({result, here});
        if (std::optional<unsigned> index = liveness.getBufferIndex(source)) {
          join(result, *index, BufferValue::Role::View);
          continue;
        }
        if (liveness.isExternal(source)) {
          unsigned external = liveness.externalOf.lookup(source);
          liveness.externalOf[result] = external;
          valuesOfExternal[external].push_back(result);
          continue;
        }
        // A view of something not planned (a value of another block): it is
        // planned as a buffer of its own below, which over-approximates.
      }

      // In place over an operand whose buffer dies here.
      std::optional<unsigned> reused;
      if (inPlace) {
        if (auto planning = dyn_cast<BufferPlanningOpInterface>(op)) {
          for (unsigned operandIndex :
               planning.getInPlaceOperands(result.getResultNumber())) {
            std::optional<unsigned> index =
                liveness.getBufferIndex(op.getOperand(operandIndex));
            if (!index || takenInPlace.contains(*index))
              continue;
            const LiveBuffer &candidate = liveness.buffers[*index];
            if (candidate.kind != LiveBuffer::Kind::Result ||
                candidate.bytes < *bytes || currentEnd(*index) != here)
              continue;
            if (inPlace(result, operandIndex)) {
              reused = *index;
              break;
            }
          }
        }
      }
      if (reused) {
        takenInPlace.insert(*reused);
        join(result, *reused, BufferValue::Role::InPlace);
        continue;
      }

      LiveBuffer buffer;
      buffer.kind = LiveBuffer::Kind::Result;
      buffer.op = &op;
      buffer.bytes = *bytes;
      buffer.start = here;
      liveness.buffers.push_back(buffer);
      lastUseOfBuffer.push_back(here);
      join(result, liveness.buffers.size() - 1, BufferValue::Role::Defines);
    }

    if (auto planning = dyn_cast<BufferPlanningOpInterface>(op)) {
      FailureOr<uint64_t> scratch = planning.getScratchBytes();
      if (failed(scratch)) {
        op.emitError("scratch byte size overflows 64 bits");
        return failure();
      }
      if (*scratch > 0) {
        LiveBuffer buffer;
        buffer.kind = LiveBuffer::Kind::Scratch;
        buffer.op = &op;
        buffer.bytes = *scratch;
        buffer.start = here;
        buffer.end = here + 1;
        liveness.buffers.push_back(buffer);
        lastUseOfBuffer.push_back(here);
      }
    }
  }

  // A write into an operand's memory destroys the value there: every value
  // of that memory defined before the write must be dead after it.
  for (auto [result, here] : writesInPlace) {
    SmallVector<Value> sameMemory;
    if (std::optional<unsigned> index = liveness.getBufferIndex(result)) {
      for (const BufferValue &value : liveness.buffers[*index].values)
        sameMemory.push_back(value.value);
    } else if (liveness.isExternal(result)) {
      sameMemory.append(
          valuesOfExternal[liveness.externalOf.lookup(result)]);
    }
    for (Value value : sameMemory) {
      Operation *defining = value.getDefiningOp();
      bool definedBefore =
          !defining || liveness.positions.lookup(
                           block.findAncestorOpInBlock(*defining)) < here;
      if (!definedBefore || lastUse.lookup(value) <= here)
        continue;
      Operation *reader = nullptr;
      for (Operation *user : value.getUsers()) {
        Operation *inBlock = block.findAncestorOpInBlock(*user);
        if (inBlock && liveness.positions.lookup(inBlock) > here &&
            (!reader || inBlock->isBeforeInBlock(reader)))
          reader = inBlock;
      }
      // lastUse counts the same users, so there is one; never dereference
      // null if that ever changes.
      if (!reader)
        reader = result.getOwner();
      InFlightDiagnostic diag =
          reader->emitError()
          << "reads a value that '" << result.getOwner()->getName()
          << "' has already overwritten in place (it writes its result into "
             "the memory of that operand)";
      diag.attachNote(result.getOwner()->getLoc())
          << "the write in place; to keep the old value, copy it before";
      return failure();
    }
  }

  // A buffer lives until the last use of any value stored in it.
  for (unsigned index = 0; index < liveness.buffers.size(); ++index) {
    LiveBuffer &buffer = liveness.buffers[index];
    if (buffer.kind == LiveBuffer::Kind::Result)
      buffer.end = currentEnd(index) + 1;
  }

  // Returned values computed in the caller's buffers.
  if (destinations && !block.empty() &&
      block.back().hasTrait<OpTrait::IsTerminator>()) {
    for (auto [resultIndex, returned] :
         llvm::enumerate(block.back().getOperands())) {
      std::optional<unsigned> index = liveness.getBufferIndex(returned);
      if (!index)
        continue; // external (an argument, a constant, a view of one)
      LiveBuffer &buffer = liveness.buffers[*index];
      ByteSize size = getByteSize(returned.getType());
      if (buffer.destination || !size.ok() || buffer.bytes > size.bytes)
        continue; // taken by an earlier result, or larger than this one
      if (destinations(buffer.values.front().value, returned, resultIndex))
        buffer.destination = resultIndex;
    }
  }
  return liveness;
}

std::optional<unsigned> BufferLiveness::getBufferIndex(Value value) const {
  auto it = bufferOf.find(value);
  if (it == bufferOf.end())
    return std::nullopt;
  return it->second;
}

uint64_t BufferLiveness::getExternalBytes() const {
  // Saturates at UINT64_MAX rather than wrapping.
  uint64_t total = 0;
  for (const ExternalValue &external : externals)
    total = llvm::SaturatingAdd(total, external.bytes);
  return total;
}

Problem BufferLiveness::toProblem(uint64_t alignment) const {
  Problem problem;
  problem.buffers.reserve(buffers.size());
  for (const LiveBuffer &buffer : buffers)
    problem.buffers.push_back({buffer.destination ? 0 : buffer.bytes,
                               buffer.start, buffer.end, alignment});
  return problem;
}

bool LiveBuffer::isLibraryWorkspace() const {
  if (kind != Kind::Scratch)
    return false;
  auto planning = dyn_cast<BufferPlanningOpInterface>(op);
  return planning && planning.isScratchLibraryWorkspace();
}

InPlacePolicy memplan::inPlaceWhereAllowed(bool enabled) {
  if (!enabled)
    return nullptr;
  return [](OpResult, unsigned) { return true; };
}

DestinationPolicy memplan::resultsInCallerBuffers(bool enabled) {
  if (!enabled)
    return nullptr;
  return [](Value, Value, unsigned) { return true; };
}
