//===- MemPlanDialect.h - The memplan dialect -------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

// The roles (ArgumentRole, ResultRole) and their attributes, which the
// dialect's discardable-attribute helpers name.
#include "memplan/Dialect/MemPlan/IR/MemPlanEnums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "memplan/Dialect/MemPlan/IR/MemPlanAttributes.h.inc"

#include "memplan/Dialect/MemPlan/IR/MemPlanOpsDialect.h.inc"

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H
