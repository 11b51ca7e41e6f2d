//===- MemPlanDialect.cpp - The memplan dialect ---------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace memplan;

#include "memplan/Dialect/MemPlan/IR/MemPlanEnums.cpp.inc"
#include "memplan/Dialect/MemPlan/IR/MemPlanOpsDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "memplan/Dialect/MemPlan/IR/MemPlanAttributes.cpp.inc"

void MemPlanDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "memplan/Dialect/MemPlan/IR/MemPlanAttributes.cpp.inc"
      >();
}

LogicalResult
CommunicationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ProcessGroup group, int64_t ranks,
                          int64_t sentBytes) {
  if (ranks < 1)
    return emitError() << "a process group has at least 1 GPU, not " << ranks;
  if (sentBytes < 0)
    return emitError() << "sent_bytes must not be negative, not " << sentBytes;
  return success();
}

/// A non-negative i64 integer attribute, or an error naming `attribute`.
static LogicalResult verifyByteCount(Operation *op, NamedAttribute attribute) {
  auto value = dyn_cast<IntegerAttr>(attribute.getValue());
  if (!value || !value.getType().isInteger(64) || value.getInt() < 0)
    return op->emitError() << "'" << attribute.getName().getValue()
                           << "' must be a non-negative i64 integer, got "
                           << attribute.getValue();
  return success();
}

/// A plan's lower bound is the most bytes live at once, so no arena is
/// smaller: a lower bound above the arena is not a plan memplan wrote.
static LogicalResult verifyLowerBoundWithinArena(Operation *op) {
  MLIRContext *context = op->getContext();
  auto bound = MemPlanDialect::LowerBoundAttrHelper(context).getAttr(op);
  auto arena = MemPlanDialect::ArenaSizeAttrHelper(context).getAttr(op);
  if (!bound || !arena || !bound.getType().isInteger(64) ||
      !arena.getType().isInteger(64) || bound.getInt() <= arena.getInt())
    return success();
  return op->emitError() << "'"
                         << MemPlanDialect::LowerBoundAttrHelper::getNameStr()
                         << "' (" << bound.getInt() << ") exceeds '"
                         << MemPlanDialect::ArenaSizeAttrHelper::getNameStr()
                         << "' (" << arena.getInt()
                         << "): no arena is below its lower bound";
}

/// A plan's per-result array (memplan.offsets, memplan.destinations): an
/// array<i64> of one entry per result, each >= 0 or -1 for "none".
static LogicalResult verifyPerResultArray(Operation *op, NamedAttribute attr,
                                          StringRef what, StringRef has,
                                          StringRef rule) {
  StringRef name = attr.getName().getValue();
  auto entries = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
  if (!entries)
    return op->emitError() << "'" << name << "' must be an array<i64> of "
                           << what;
  if (entries.size() != static_cast<int64_t>(op->getNumResults()))
    return op->emitError() << "'" << name << "' has " << entries.size()
                           << " entries for " << op->getNumResults()
                           << " results";
  for (int64_t entry : entries.asArrayRef())
    if (entry < -1)
      return op->emitError() << "'" << name << "' " << has << entry << rule;
  return success();
}

LogicalResult MemPlanDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == OffsetsAttrHelper::getNameStr())
    return verifyPerResultArray(op, attr, "offsets", "has offset ",
                                "; offsets are >= 0, or -1 for results "
                                "outside the arena");
  if (name == DestinationsAttrHelper::getNameStr())
    return verifyPerResultArray(
        op, attr, "result indices", "has ",
        "; entries are the index of a function result, or -1 for values not "
        "in a caller's result buffer");
  if (name == ScratchOffsetAttrHelper::getNameStr() ||
      name == UnscheduledLowerBoundAttrHelper::getNameStr() ||
      name == UnrematerializedLowerBoundAttrHelper::getNameStr() ||
      name == RecomputedFlopsAttrHelper::getNameStr())
    return verifyByteCount(op, attr);
  if (name == ArenaSizeAttrHelper::getNameStr() ||
      name == LowerBoundAttrHelper::getNameStr()) {
    if (failed(verifyByteCount(op, attr)))
      return failure();
    return verifyLowerBoundWithinArena(op);
  }
  if (name == AlignmentAttrHelper::getNameStr()) {
    if (failed(verifyByteCount(op, attr)))
      return failure();
    int64_t alignment = cast<IntegerAttr>(attr.getValue()).getInt();
    if (alignment == 0 || (alignment & (alignment - 1)))
      return op->emitError()
             << "'" << name << "' must be a power of two, got " << alignment;
    return success();
  }
  if (name == ResultRolesAttrHelper::getNameStr()) {
    auto roles = dyn_cast<ArrayAttr>(attr.getValue());
    if (!roles || roles.size() != op->getNumResults())
      return op->emitError()
             << "'" << name << "' must be an array of one role per result";
    for (Attribute role : roles)
      if (!isa<ResultRoleAttr>(role))
        return op->emitError() << "'" << name << "' has " << role
                               << "; result roles are "
                                  "#memplan.result_role<activation>, "
                                  "<gradient>, <loss> and <gathered>";
    return success();
  }
  if (name == ArenaAttrHelper::getNameStr() ||
      name == RecomputedAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' takes no value";
    return success();
  }
  return op->emitError() << "unknown memplan attribute '" << name << "'";
}

LogicalResult MemPlanDialect::verifyRegionArgAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned argIndex,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == NameAttrHelper::getNameStr()) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' of argument #" << argIndex
                             << " must be a string";
    return success();
  }
  if (name == RoleAttrHelper::getNameStr()) {
    if (!isa<ArgumentRoleAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' of argument #" << argIndex << " is "
             << attr.getValue()
             << "; roles are #memplan.role<weight>, <quantization_scale>, "
                "<input>, <kv_cache>, <optimizer_state>, <master_weight>, "
                "<gradient_accumulator> and <communication_buffer>";
    return success();
  }
  if (name == ArenaAttrHelper::getNameStr() ||
      name == RecomputedAttrHelper::getNameStr() ||
      name == HostAttrHelper::getNameStr() ||
      name == CreatedInFirstStepAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' of argument #" << argIndex
                             << " takes no value";
    return success();
  }
  if (name == ArenaAlignmentAttrHelper::getNameStr()) {
    auto alignment = dyn_cast<IntegerAttr>(attr.getValue());
    if (!alignment || alignment.getInt() <= 0 ||
        !llvm::isPowerOf2_64(alignment.getInt()))
      return op->emitError() << "'" << name << "' of argument #" << argIndex
                             << " must be a power of two";
    return success();
  }
  return op->emitError() << "unknown memplan argument attribute '" << name
                         << "'";
}
