//===- MemPlanDialect.h - The memplan dialect -------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H

#include "mlir/IR/Dialect.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanOpsDialect.h.inc"

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H
