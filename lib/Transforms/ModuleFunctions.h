//===- ModuleFunctions.h - The functions a module pass visits - -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the passes. memplan's passes anchor on `builtin.module`, so
// that `--plan-offsets` and the others work as plain command-line flags
// (an InterfacePass<FunctionOpInterface> cannot be scheduled on a module
// without an explicit `any(...)` nesting, and would not reach functions in
// nested modules). They visit the functions of the module and of every
// module nested in it, and those that only read other functions run on them
// in parallel, the way the pass manager runs function passes: on MLIR's
// thread pool, with diagnostics reordered to follow the functions' order
// (ParallelDiagnosticHandler), so output does not depend on scheduling.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_MODULEFUNCTIONS_H
#define MEMPLAN_LIB_TRANSFORMS_MODULEFUNCTIONS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace memplan {

/// The functions with a body that are direct children of `module` or of a
/// `builtin.module` nested in it, in program order. (Functions in other
/// symbol tables, such as `gpu.module` kernels, are not memplan's.)
llvm::SmallVector<mlir::FunctionOpInterface>
collectModuleFunctions(mlir::ModuleOp module);

/// The functions a pass that plans or reads one function at a time visits
/// from the op it runs on: that function itself when the pass manager runs it
/// per function (`func.func(plan-offsets)`: MLIR's pass manager then plans
/// the functions in parallel), else the functions of the module as above.
llvm::SmallVector<mlir::FunctionOpInterface>
collectFunctionsToVisit(mlir::Operation *root);

/// Where such a pass can be scheduled: a `builtin.module` (the plain flag,
/// `memplan-opt --plan-offsets`) or any function.
bool canRunOnModuleOrFunction(mlir::RegisteredOperationName name);

/// Calls `body` on every function of `functions`, in parallel where the
/// context allows threads. `body` may read any function and write the one it
/// is given (and nothing else: not its module). Diagnostics come out in the
/// order of `functions`. Fails when any call fails; every call runs.
mlir::LogicalResult forEachFunctionInParallel(
    mlir::MLIRContext *context,
    llvm::ArrayRef<mlir::FunctionOpInterface> functions,
    llvm::function_ref<mlir::LogicalResult(size_t index,
                                           mlir::FunctionOpInterface)>
        body);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_MODULEFUNCTIONS_H
