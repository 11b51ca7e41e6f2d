//===- MemPlanInterfaces.cpp - What the planner asks an op ----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"

using namespace mlir;

#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.cpp.inc"
