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
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::memplan;

#include "memplan/Dialect/MemPlan/IR/MemPlanOpsDialect.cpp.inc"

void MemPlanDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.cpp.inc"
      >();
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

LogicalResult MemPlanDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kOffsetsAttrName) {
    auto offsets = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!offsets)
      return op->emitError()
             << "'" << name << "' must be an array<i64> of offsets";
    if (offsets.size() != static_cast<int64_t>(op->getNumResults()))
      return op->emitError()
             << "'" << name << "' has " << offsets.size() << " entries for "
             << op->getNumResults() << " results";
    for (int64_t offset : offsets.asArrayRef())
      if (offset < -1)
        return op->emitError() << "'" << name << "' has offset " << offset
                               << "; offsets are >= 0, or -1 for results "
                                  "outside the arena";
    return success();
  }
  if (name == kScratchOffsetAttrName || name == kArenaSizeAttrName ||
      name == kLowerBoundAttrName)
    return verifyByteCount(op, attr);
  if (name == kAlignmentAttrName) {
    if (failed(verifyByteCount(op, attr)))
      return failure();
    int64_t alignment = cast<IntegerAttr>(attr.getValue()).getInt();
    if (alignment == 0 || (alignment & (alignment - 1)))
      return op->emitError()
             << "'" << name << "' must be a power of two, got " << alignment;
    return success();
  }
  if (name == kResultRolesAttrName) {
    auto roles = dyn_cast<ArrayAttr>(attr.getValue());
    if (!roles || roles.size() != op->getNumResults())
      return op->emitError()
             << "'" << name << "' must be an array of one role per result";
    for (Attribute role : roles) {
      auto text = dyn_cast<StringAttr>(role);
      if (!text || !llvm::is_contained(kResultRoles, text.getValue()))
        return op->emitError()
               << "'" << name << "' has " << role
               << "; result roles are activation, gradient and loss";
    }
    return success();
  }
  if (name == kArenaAttrName) {
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
  auto text = dyn_cast<StringAttr>(attr.getValue());
  if (name == kNameAttrName) {
    if (!text)
      return op->emitError() << "'" << name << "' of argument #" << argIndex
                             << " must be a string";
    return success();
  }
  if (name == kRoleAttrName) {
    if (!text || !llvm::is_contained(kArgumentRoles, text.getValue()))
      return op->emitError()
             << "'" << name << "' of argument #" << argIndex << " is "
             << attr.getValue()
             << "; roles are weight, quantization_scale, input, kv_cache, "
                "optimizer_state and master_weight";
    return success();
  }
  if (name == kArenaAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' of argument #" << argIndex
                             << " takes no value";
    return success();
  }
  if (name == kArenaAlignmentAttrName) {
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
