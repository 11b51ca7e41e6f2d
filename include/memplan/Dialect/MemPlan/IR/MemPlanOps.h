//===- MemPlanOps.h - memplan ops -------------------------------*- C++ -*-===//

#ifndef MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANOPS_H
#define MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANOPS_H

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h.inc"

#endif // MEMPLAN_DIALECT_MEMPLAN_IR_MEMPLANOPS_H
