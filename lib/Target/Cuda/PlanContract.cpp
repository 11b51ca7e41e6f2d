//===- PlanContract.cpp - What generated code needs of a plan -------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The model, kept simpler than the planner's on purpose (PlanContract.h says
// why it is separate):
//
// * Positions are op indices in the body's one block. A value is live from
//   the op that defines it to its last reader (an op in the block, or the
//   block op containing the reader); a returned value to the end; an unread
//   value at its own op. Arguments are live from before the first op.
// * A *storage* is memory holding one value and the views of it (results of
//   ops with an aliased operand): it is live while any of its values is, and
//   a view takes its source's place. Every other tensor result has a place of
//   its own, written in the plan: an arena offset (memplan.offsets) or a
//   result destination (memplan.destinations), exactly one.
// * Two storages in the same memory (the arena, or one result's buffer)
//   whose bytes intersect must not be live at once, with one exception: a
//   result computed in place at op P over an operand that the op allows
//   (BufferPlanningOpInterface::getInPlaceOperands) when that operand's
//   storage ends at P, starts where the result starts and is not smaller.
//   Scratch is live at its op only and never shares.
// * An op that writes a result into its operand's memory
//   (writesAliasedOperand: a KV-cache update) must be the last reader of
//   every value of that storage defined before it.
//
// Sweeps are over storages sorted by start, with the ones still live kept
// aside, so the cost follows the number of values live at once.
//
//===----------------------------------------------------------------------===//

#include "PlanContract.h"

#include "memplan/Analysis/PlanVerification.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace memplan;

namespace memplan {

class PlanContractChecker {
public:
  explicit PlanContractChecker(FunctionOpInterface function)
      : function(function), state(function) {}

  FailureOr<PlanContract> check();

private:
  /// Memory holding one value and its views.
  struct Storage {
    Place location;
    uint64_t bytes = 0;
    int64_t begin = 0; ///< position of the defining op (-1: an argument)
    int64_t end = 0;   ///< last position it is live at (inclusive)
    Value root;        ///< the value that gave it its place
    Operation *scratchOf = nullptr; ///< for scratch, the op that needs it
    /// Values in it: (value, position defined).
    SmallVector<std::pair<Value, int64_t>, 1> values;
  };

  LogicalResult placeValues();
  LogicalResult placeResult(OpResult result);
  LogicalResult checkAlignmentAndBounds(const Storage &storage);
  LogicalResult checkWritesIntoOperands();
  LogicalResult checkOverlaps();
  LogicalResult checkReturnedValues();
  bool isInPlaceOver(const Storage &result, const Storage &operand);
  InFlightDiagnostic conflict(const Storage &later, const Storage &earlier);

  int64_t lastUse(Value value) {
    int64_t last = -1;
    for (Operation *user : value.getUsers()) {
      Operation *inBlock = body->findAncestorOpInBlock(*user);
      if (inBlock)
        last = std::max(last, positions.lookup(inBlock));
    }
    return last;
  }
  std::string describe(Value value) {
    std::string text;
    llvm::raw_string_ostream os(text);
    value.printAsOperand(os, state);
    return text;
  }
  std::string describe(const Storage &storage) {
    if (storage.scratchOf)
      return ("the scratch of '" + storage.scratchOf->getName().getStringRef() +
              "'")
          .str();
    return describe(storage.root);
  }
  static StringRef memoryName(const Place &location) {
    return location.kind == Place::Kind::Arena ? "arena" : "result buffer";
  }

  FunctionOpInterface function;
  AsmState state;
  Block *body = nullptr;
  PlanContract contract;
  llvm::DenseMap<Operation *, int64_t> positions;
  std::vector<Storage> storages;
  llvm::DenseMap<Value, unsigned> storageOf;
  SmallVector<uint64_t> resultBytes;
};

} // namespace memplan

/// Bytes an element of `type` must be aligned to in device memory: its size,
/// rounded up to a power of two.
static uint64_t naturalAlignment(Type type) {
  std::optional<uint64_t> bits = getElementBitWidth(getElementTypeOrSelf(type));
  uint64_t bytes = bits ? std::max<uint64_t>(1, (*bits + 7) / 8) : 1;
  return llvm::PowerOf2Ceil(bytes);
}

/// The cuBLAS workspace pointer must be 256-byte aligned
/// (cublasSetWorkspace); the generated code passes scratch to cuBLAS and to
/// kernels that use it as float arrays, so all scratch is held to that.
static constexpr uint64_t kScratchAlignment = 256;

FailureOr<PlanContract> PlanContractChecker::check() {
  body = &function.getFunctionBody().front();
  FailureOr<uint64_t> arena = getPlannedArenaSize(function);
  if (failed(arena))
    return failure();
  contract.arenaBytes = *arena;
  for (auto [index, type] : llvm::enumerate(function.getResultTypes())) {
    ByteSize size = getByteSize(type);
    if (!isa<RankedTensorType>(type) || !size.ok())
      return function.emitError()
             << "result #" << index << " of type " << type
             << " has no lowering: results are statically shaped tensors";
    resultBytes.push_back(size.bytes);
  }
  for (auto [position, op] : llvm::enumerate(*body))
    positions[&op] = static_cast<int64_t>(position);

  if (failed(placeValues()) || failed(checkWritesIntoOperands()) ||
      failed(checkOverlaps()) || failed(checkReturnedValues()))
    return failure();
  return std::move(contract);
}

LogicalResult PlanContractChecker::checkReturnedValues() {
  // Returned values not already in their result's buffer are copied there
  // at the end, in order. A value in another result's buffer is only safe
  // to copy from if that buffer keeps it: if it is returned there too.
  Operation *terminator = body->getTerminator();
  for (auto [index, value] : llvm::enumerate(terminator->getOperands())) {
    Place at = contract.getPlace(value);
    if (at.kind != Place::Kind::Result || at.index == index)
      continue;
    if (at.index >= terminator->getNumOperands() ||
        storageOf.lookup(terminator->getOperand(at.index)) !=
            storageOf.lookup(value))
      return terminator->emitError()
             << "returns " << describe(value) << " as result #" << index
             << " from the caller's result #" << at.index
             << " buffer, which holds another value at the end";
  }
  return success();
}

LogicalResult PlanContractChecker::placeValues() {
  for (BlockArgument argument : body->getArguments()) {
    if (!isa<RankedTensorType>(argument.getType()))
      continue;
    Storage storage;
    storage.location = {Place::Kind::Argument, argument.getArgNumber(), 0};
    storage.bytes = getByteSize(argument.getType()).bytes;
    storage.begin = -1;
    storage.root = argument;
    storage.values.push_back({argument, -1});
    contract.locations[argument] = storage.location;
    storageOf[argument] = storages.size();
    storages.push_back(storage);
  }
  MLIRContext *context = function.getContext();
  for (Operation &op : *body) {
    for (OpResult result : op.getResults())
      if (failed(placeResult(result)))
        return failure();
    auto planning = dyn_cast<BufferPlanningOpInterface>(op);
    FailureOr<uint64_t> scratch =
        planning ? planning.getScratchBytes() : FailureOr<uint64_t>(0);
    if (failed(scratch))
      return op.emitError("its scratch size overflows 64 bits");
    IntegerAttr offset =
        MemPlanDialect::ScratchOffsetAttrHelper(context).getAttr(&op);
    if (*scratch == 0)
      continue;
    if (!offset)
      return op.emitError()
             << "needs " << *scratch << " scratch bytes but has no '"
             << MemPlanDialect::ScratchOffsetAttrHelper::getNameStr() << "'";
    Storage storage;
    storage.location = {Place::Kind::Arena, 0,
                        static_cast<uint64_t>(offset.getInt())};
    storage.bytes = *scratch;
    storage.begin = storage.end = positions.lookup(&op);
    storage.scratchOf = &op;
    if (failed(checkAlignmentAndBounds(storage)))
      return failure();
    contract.scratchOffsets[&op] = storage.location.offset;
    storages.push_back(storage);
  }
  // Lifetimes: a storage lives until its last value's last reader.
  for (Storage &storage : storages) {
    if (storage.scratchOf)
      continue;
    storage.end = storage.begin;
    for (auto [value, defined] : storage.values)
      storage.end = std::max({storage.end, defined, lastUse(value)});
  }
  return success();
}

LogicalResult PlanContractChecker::placeResult(OpResult result) {
  Operation *op = result.getOwner();
  MLIRContext *context = op->getContext();
  unsigned number = result.getResultNumber();
  DenseI64ArrayAttr offsets =
      MemPlanDialect::OffsetsAttrHelper(context).getAttr(op);
  DenseI64ArrayAttr destinations =
      MemPlanDialect::DestinationsAttrHelper(context).getAttr(op);
  // The dialect verified one entry per result, each >= -1.
  int64_t offset = offsets ? offsets[number] : -1;
  int64_t destination = destinations ? destinations[number] : -1;
  int64_t position = positions.lookup(op);

  if (!isa<RankedTensorType>(result.getType())) {
    if (offset >= 0 || destination >= 0)
      return op->emitError()
             << describe(result) << " of type " << result.getType()
             << " is not a tensor but has a place in the plan";
    return success();
  }
  ByteSize size = getByteSize(result.getType());
  if (!size.ok())
    return op->emitError() << describe(result) << " "
                           << describeByteSizeFailure(size.status);

  auto planning = dyn_cast<BufferPlanningOpInterface>(op);
  std::optional<unsigned> aliased =
      planning ? planning.getAliasedOperand(number) : std::nullopt;
  if (aliased) {
    // A view (or an update written in place): its source's memory. A place
    // of its own in the plan must be that same place.
    unsigned source = storageOf.lookup(op->getOperand(*aliased));
    if (!storageOf.count(op->getOperand(*aliased)))
      return op->emitError()
             << describe(result) << " is a view of a value with no memory";
    Storage &storage = storages[source];
    const Place &at = storage.location;
    bool sameOffset =
        offset < 0 || (at.kind == Place::Kind::Arena &&
                       static_cast<uint64_t>(offset) == at.offset);
    bool sameDestination = destination < 0 || (at.kind == Place::Kind::Result &&
                                               at.index == destination);
    if (!sameOffset || !sameDestination) {
      InFlightDiagnostic diag =
          op->emitError() << describe(result) << " is a view of "
                          << describe(storage.root) << ", whose memory is ";
      if (at.kind == Place::Kind::Argument)
        diag << "the caller's argument #" << at.index;
      else if (at.kind == Place::Kind::Result)
        diag << "the caller's result #" << at.index;
      else
        diag << "arena offset " << at.offset;
      diag << ", but the plan gives it "
           << (offset >= 0 ? "arena offset " + std::to_string(offset)
                           : "result #" + std::to_string(destination));
      return diag;
    }
    if (size.bytes > storage.bytes)
      return op->emitError()
             << describe(result) << " (" << size.bytes
             << " bytes) is a view of " << describe(storage.root)
             << ", which has only " << storage.bytes << " bytes";
    storage.values.push_back({result, position});
    storageOf[result] = source;
    contract.locations[result] = at;
    if (planning.writesAliasedOperand(number) &&
        at.kind == Place::Kind::Argument)
      contract.writtenArguments.insert(at.index);
    return success();
  }

  Storage storage;
  storage.bytes = size.bytes;
  storage.begin = position;
  storage.root = result;
  storage.values.push_back({result, position});
  if (offset >= 0 && destination >= 0)
    return op->emitError() << describe(result) << " has both arena offset "
                           << offset << " and result destination #"
                           << destination << "; a value has one place";
  if (offset >= 0) {
    storage.location = {Place::Kind::Arena, 0, static_cast<uint64_t>(offset)};
  } else if (destination >= 0) {
    if (static_cast<uint64_t>(destination) >= resultBytes.size())
      return op->emitError()
             << describe(result) << " has result destination #" << destination
             << ", but the function has " << resultBytes.size() << " results";
    storage.location = {Place::Kind::Result, static_cast<unsigned>(destination),
                        0};
  } else {
    return op->emitError()
           << describe(result) << " has no memory in the plan (no offset in '"
           << MemPlanDialect::OffsetsAttrHelper::getNameStr()
           << "', no destination in '"
           << MemPlanDialect::DestinationsAttrHelper::getNameStr()
           << "' and not a view)";
  }
  if (failed(checkAlignmentAndBounds(storage)))
    return failure();
  storageOf[result] = storages.size();
  contract.locations[result] = storage.location;
  storages.push_back(std::move(storage));
  return success();
}

LogicalResult
PlanContractChecker::checkAlignmentAndBounds(const Storage &storage) {
  const Place &at = storage.location;
  uint64_t capacity = at.kind == Place::Kind::Arena ? contract.arenaBytes
                                                    : resultBytes[at.index];
  Operation *op =
      storage.scratchOf ? storage.scratchOf : storage.root.getDefiningOp();
  if (at.offset > capacity || storage.bytes > capacity - at.offset) {
    InFlightDiagnostic diag =
        op->emitError() << describe(storage) << " at bytes [" << at.offset
                        << ", " << at.offset + storage.bytes << ") is outside ";
    if (at.kind == Place::Kind::Arena)
      diag << "the arena of " << capacity << " bytes";
    else
      diag << "the caller's result #" << at.index << " of " << capacity
           << " bytes";
    return diag;
  }
  // The arena and the caller's buffers start 256-byte aligned.
  uint64_t alignment = storage.scratchOf
                           ? kScratchAlignment
                           : naturalAlignment(storage.root.getType());
  if (at.offset % alignment != 0)
    return op->emitError() << describe(storage) << " at " << memoryName(at)
                           << " offset " << at.offset
                           << " is not aligned to the " << alignment
                           << " bytes its "
                           << (storage.scratchOf ? "scratch" : "elements")
                           << " need on the device";
  return success();
}

LogicalResult PlanContractChecker::checkWritesIntoOperands() {
  for (Operation &op : *body) {
    auto planning = dyn_cast<BufferPlanningOpInterface>(op);
    if (!planning)
      continue;
    int64_t position = positions.lookup(&op);
    for (OpResult result : op.getResults()) {
      std::optional<unsigned> aliased =
          planning.getAliasedOperand(result.getResultNumber());
      if (!aliased || !planning.writesAliasedOperand(result.getResultNumber()))
        continue;
      const Storage &storage = storages[storageOf.lookup(result)];
      for (auto [value, defined] : storage.values) {
        if (defined >= position)
          continue;
        int64_t read = lastUse(value);
        if (read <= position)
          continue;
        // The first reader after the write, for the message.
        Operation *reader = nullptr;
        for (Operation *user : value.getUsers()) {
          Operation *inBlock = body->findAncestorOpInBlock(*user);
          if (inBlock && positions.lookup(inBlock) > position &&
              (!reader || positions.lookup(inBlock) < positions.lookup(reader)))
            reader = inBlock;
        }
        if (!reader) // lastUse() counts the same users; defensive only
          reader = &op;
        InFlightDiagnostic diag = reader->emitError()
                                  << "reads " << describe(value) << " after '"
                                  << op.getName() << "' wrote "
                                  << describe(result) << " into its memory";
        diag.attachNote(op.getLoc())
            << "the write in place is here; the op has value semantics, so "
               "a later reader of the old value needs a copy made before it";
        return diag;
      }
    }
  }
  return success();
}

bool PlanContractChecker::isInPlaceOver(const Storage &result,
                                        const Storage &operand) {
  if (result.scratchOf || operand.scratchOf || operand.end != result.begin)
    return false;
  if (result.location.offset != operand.location.offset ||
      result.bytes > operand.bytes)
    return false;
  auto owner = cast<OpResult>(result.root);
  auto planning = dyn_cast<BufferPlanningOpInterface>(owner.getOwner());
  if (!planning)
    return false;
  for (unsigned index : planning.getInPlaceOperands(owner.getResultNumber())) {
    Value input = owner.getOwner()->getOperand(index);
    auto it = storageOf.find(input);
    if (it != storageOf.end() && &storages[it->second] == &operand)
      return true;
  }
  return false;
}

InFlightDiagnostic PlanContractChecker::conflict(const Storage &later,
                                                 const Storage &earlier) {
  Operation *laterOp =
      later.scratchOf ? later.scratchOf : later.root.getDefiningOp();
  InFlightDiagnostic diag = laterOp->emitError();
  diag << "memory conflict: " << describe(later) << " at "
       << memoryName(later.location) << " bytes [" << later.location.offset
       << ", " << later.location.offset + later.bytes << ") overlaps "
       << describe(earlier) << " at [" << earlier.location.offset << ", "
       << earlier.location.offset + earlier.bytes
       << ") while both are live, at op #" << later.begin;
  Place::Kind kind = later.location.kind;
  if (kind == Place::Kind::Result)
    diag << " (in the caller's result #" << later.location.index << ")";
  if (earlier.scratchOf)
    diag.attachNote(earlier.scratchOf->getLoc()) << "the scratch is used here";
  else if (Operation *defining = earlier.root.getDefiningOp())
    diag.attachNote(defining->getLoc())
        << describe(earlier) << " is defined here";
  return diag;
}

LogicalResult PlanContractChecker::checkOverlaps() {
  // Storages with a place in the plan, by memory, then by first position.
  SmallVector<unsigned> order;
  for (auto [index, storage] : llvm::enumerate(storages))
    if (storage.location.kind != Place::Kind::Argument)
      order.push_back(index);
  auto memoryKey = [&](unsigned index) {
    const Place &at = storages[index].location;
    return at.kind == Place::Kind::Arena ? int64_t(-1) : int64_t(at.index);
  };
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(memoryKey(a), storages[a].begin) <
           std::make_pair(memoryKey(b), storages[b].begin);
  });
  SmallVector<unsigned> live;
  int64_t memory = -2;
  for (unsigned index : order) {
    const Storage &current = storages[index];
    if (memoryKey(index) != memory) {
      memory = memoryKey(index);
      live.clear();
    }
    llvm::erase_if(live, [&](unsigned other) {
      return storages[other].end < current.begin;
    });
    for (unsigned other : live) {
      const Storage &earlier = storages[other];
      uint64_t a = current.location.offset, b = earlier.location.offset;
      bool intersect = a < b + earlier.bytes && b < a + current.bytes &&
                       current.bytes && earlier.bytes;
      if (intersect && !isInPlaceOver(current, earlier))
        return conflict(current, earlier);
    }
    live.push_back(index);
  }
  return success();
}

FailureOr<PlanContract>
PlanContract::check(mlir::FunctionOpInterface function) {
  return PlanContractChecker(function).check();
}
