//===- MemPlanInterfaces.h - What the planner asks an op --------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANINTERFACES_H
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANINTERFACES_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace memplan {
/// Elements of every ranked tensor result of `op` together (saturating at
/// 2^64 - 1): the default FLOP count of a RecomputableOpInterface op.
uint64_t countResultElements(mlir::Operation *op);
} // namespace memplan

#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h.inc"

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANINTERFACES_H
