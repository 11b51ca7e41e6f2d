//===- MemPlanDialect.h - The memplan dialect -------------------*- C++ -*-===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H

#include "mlir/IR/Dialect.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanOpsDialect.h.inc"

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANDIALECT_H
