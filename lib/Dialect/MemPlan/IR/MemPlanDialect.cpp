//===- MemPlanDialect.cpp - The memplan dialect ---------------------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"

using namespace mlir;
using namespace mlir::memplan;

#include "memplan/Dialect/MemPlan/IR/MemPlanOpsDialect.cpp.inc"

void MemPlanDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.cpp.inc"
      >();
}
