//===- Passes.h - memplan passes --------------------------------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_PASSES_H
#define MEMPLAN_TRANSFORMS_PASSES_H

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Support/AlgorithmOption.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace memplan {

/// Who allocates the arenas of --memplan-pack-allocs (`arena-mode=`).
enum class ArenaMode {
  Alloc,    ///< the function allocates and frees them
  Argument, ///< the caller passes them as trailing arguments
};

#define GEN_PASS_DECL
#include "memplan/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "memplan/Transforms/Passes.h.inc"

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_PASSES_H
