//===- MemPlanInterfaces.cpp - What the planner asks an op ----------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"

using namespace mlir;

#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.cpp.inc"
