//===- PlanVerification.cpp - Read and prove a plan written in the IR -----===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/PlanVerification.h"

#include "memplan/Analysis/BufferLiveness.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Planner/Validator.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace memplan;

FailureOr<uint64_t> memplan::getPlannedArenaSize(FunctionOpInterface function) {
  IntegerAttr arena = MemPlanDialect::ArenaSizeAttrHelper(function.getContext())
                          .getAttr(function);
  if (!arena)
    return function.emitError()
           << "function has no '"
           << MemPlanDialect::ArenaSizeAttrHelper::getNameStr()
           << "': it is not planned (run --plan-offsets first)";
  // The dialect verifies it is a non-negative i64.
  return static_cast<uint64_t>(arena.getInt());
}

/// Entry `value`'s result number of the per-result array attribute `attr`
/// on its defining op, if there is one and it is not -1 (the sentinel both
/// memplan.offsets and memplan.destinations use for "none").
static std::optional<int64_t> getRecordedEntry(Value value,
                                               DenseI64ArrayAttr attr) {
  unsigned number = cast<OpResult>(value).getResultNumber();
  if (!attr || attr.size() <= number || attr[number] < 0)
    return std::nullopt;
  return attr[number];
}

std::optional<int64_t> memplan::getRecordedOffset(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  return getRecordedEntry(
      value, MemPlanDialect::OffsetsAttrHelper(op->getContext()).getAttr(op));
}

std::optional<unsigned> memplan::getRecordedDestination(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  std::optional<int64_t> destination = getRecordedEntry(
      value,
      MemPlanDialect::DestinationsAttrHelper(op->getContext()).getAttr(op));
  if (!destination)
    return std::nullopt;
  return static_cast<unsigned>(*destination);
}

FailureOr<BufferLiveness>
memplan::computePlannedLiveness(FunctionOpInterface function) {
  // A result at its operand's offset (or in its operand's caller buffer),
  // where in place is allowed, is in place.
  InPlacePolicy inPlace = [](OpResult result, unsigned operandIndex) {
    Value operand = result.getOwner()->getOperand(operandIndex);
    std::optional<int64_t> offset = getRecordedOffset(result);
    std::optional<unsigned> destination = getRecordedDestination(result);
    return (offset && offset == getRecordedOffset(operand)) ||
           (destination && destination == getRecordedDestination(operand));
  };
  // A returned value's buffer is the caller's where the plan says so.
  DestinationPolicy destinations = [](Value first, Value, unsigned index) {
    return getRecordedDestination(first) == index;
  };
  return BufferLiveness::compute(function.getFunctionBody(), inPlace,
                                 destinations);
}

namespace {

class PlanChecker {
public:
  explicit PlanChecker(FunctionOpInterface function)
      : function(function), state(function) {}

  LogicalResult check() {
    MLIRContext *context = function.getContext();
    FailureOr<uint64_t> arena = getPlannedArenaSize(function);
    if (failed(arena))
      return failure();
    uint64_t alignment = 1;
    if (IntegerAttr attr =
            MemPlanDialect::AlignmentAttrHelper(context).getAttr(function))
      alignment = attr.getInt();

    FailureOr<BufferLiveness> liveness = computePlannedLiveness(function);
    if (failed(liveness))
      return failure();

    Problem problem = liveness->toProblem(alignment);
    Solution solution;
    solution.arenaSize = *arena;
    for (const LiveBuffer &buffer : liveness->getBuffers()) {
      FailureOr<uint64_t> offset = getBufferOffset(buffer);
      if (failed(offset))
        return failure();
      solution.offsets.push_back(*offset);
    }

    std::optional<ValidationError> error = validateSolution(problem, solution);
    if (!error)
      return success();
    const LiveBuffer &first = liveness->getBuffers()[error->first];
    if (error->second) {
      const LiveBuffer &second = liveness->getBuffers()[*error->second];
      uint64_t firstOffset = solution.offsets[error->first];
      uint64_t secondOffset = solution.offsets[*error->second];
      InFlightDiagnostic diag = second.op->emitError();
      diag << "memory conflict: " << describe(second) << " at bytes ["
           << secondOffset << ", " << secondOffset + second.bytes
           << ") overlaps " << describe(first) << " at bytes [" << firstOffset
           << ", " << firstOffset + first.bytes
           << "), and both are live during ["
           << std::max(first.start, second.start) << ", "
           << std::min(first.end, second.end) << ")";
      diag.attachNote(first.op->getLoc())
          << describe(first) << " is defined here";
      return diag;
    }
    if (error->message.find("not aligned") != std::string::npos)
      return first.op->emitError()
             << describe(first) << " at offset "
             << solution.offsets[error->first] << " is not aligned to "
             << alignment << " bytes";
    return function.emitError() << "invalid plan: " << error->message;
  }

private:
  std::string describe(Value value) {
    std::string name;
    llvm::raw_string_ostream os(name);
    value.printAsOperand(os, state);
    return name;
  }
  std::string describe(const LiveBuffer &buffer) {
    if (buffer.kind == LiveBuffer::Kind::Scratch)
      return ("the scratch of '" + buffer.op->getName().getStringRef() + "'")
          .str();
    return describe(buffer.values.front().value);
  }

  FailureOr<uint64_t> getBufferOffset(const LiveBuffer &buffer) {
    if (buffer.kind == LiveBuffer::Kind::Scratch) {
      IntegerAttr offset =
          MemPlanDialect::ScratchOffsetAttrHelper(buffer.op->getContext())
              .getAttr(buffer.op);
      if (!offset)
        return buffer.op->emitError()
               << "needs " << buffer.bytes << " scratch bytes but has no '"
               << MemPlanDialect::ScratchOffsetAttrHelper::getNameStr() << "'";
      return static_cast<uint64_t>(offset.getInt());
    }
    Value owner = buffer.values.front().value;
    if (buffer.destination) {
      // In the caller's buffer: every value of it says so, none has an
      // offset. It takes no arena bytes (toProblem).
      for (const BufferValue &value : buffer.values) {
        if (getRecordedDestination(value.value) == buffer.destination &&
            !getRecordedOffset(value.value))
          continue;
        return value.value.getDefiningOp()->emitError()
               << describe(value.value) << " shares the caller's buffer of "
               << "result #" << *buffer.destination << " with "
               << describe(buffer)
               << " and must have that destination and no arena offset";
      }
      return uint64_t(0);
    }
    for (const BufferValue &value : buffer.values)
      if (std::optional<unsigned> destination =
              getRecordedDestination(value.value))
        return value.value.getDefiningOp()->emitError()
               << describe(value.value) << " has result destination #"
               << *destination << ", but its buffer is not the one returned "
               << "as that result";
    std::optional<int64_t> offset = getRecordedOffset(owner);
    if (!offset)
      return buffer.op->emitError()
             << describe(buffer) << " needs " << buffer.bytes
             << " bytes in the arena but has no offset in '"
             << MemPlanDialect::OffsetsAttrHelper::getNameStr() << "'";
    for (const BufferValue &value : ArrayRef(buffer.values).drop_front()) {
      std::optional<int64_t> other = getRecordedOffset(value.value);
      if (other != offset)
        return value.value.getDefiningOp()->emitError()
               << describe(value.value) << " shares the buffer of "
               << describe(buffer) << " (a view) and must be at its offset "
               << *offset << ", not " << (other ? *other : -1);
    }
    return static_cast<uint64_t>(*offset);
  }

  FunctionOpInterface function;
  AsmState state;
};

} // namespace

LogicalResult memplan::verifyFunctionPlan(FunctionOpInterface function) {
  return PlanChecker(function).check();
}
