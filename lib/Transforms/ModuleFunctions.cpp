//===- ModuleFunctions.cpp - The functions a module pass visits -----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModuleFunctions.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"

#include <atomic>

using namespace mlir;
using namespace memplan;

SmallVector<FunctionOpInterface>
memplan::collectModuleFunctions(ModuleOp module) {
  SmallVector<FunctionOpInterface> functions;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == module.getOperation() || isa<ModuleOp>(op))
      return WalkResult::advance();
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      if (isa<ModuleOp>(op->getParentOp()) && !function.isExternal())
        functions.push_back(function);
    // Only modules are entered: functions are not nested in other ops here.
    return WalkResult::skip();
  });
  return functions;
}

SmallVector<FunctionOpInterface>
memplan::collectFunctionsToVisit(Operation *root) {
  if (auto function = dyn_cast<FunctionOpInterface>(root)) {
    if (function.isExternal())
      return {};
    return {function};
  }
  return collectModuleFunctions(cast<ModuleOp>(root));
}

bool memplan::canRunOnModuleOrFunction(RegisteredOperationName name) {
  return name.getStringRef() == ModuleOp::getOperationName() ||
         name.hasInterface<FunctionOpInterface>();
}

LogicalResult memplan::forEachFunctionInParallel(
    MLIRContext *context, ArrayRef<FunctionOpInterface> functions,
    function_ref<LogicalResult(size_t, FunctionOpInterface)> body) {
  if (functions.size() <= 1 || !context->isMultithreadingEnabled()) {
    bool failedAny = false;
    for (auto [index, function] : llvm::enumerate(functions))
      failedAny |= failed(body(index, function));
    return failure(failedAny);
  }
  ParallelDiagnosticHandler diagnostics(context);
  std::atomic<bool> failedAny(false);
  parallelFor(context, 0, functions.size(), [&](size_t index) {
    diagnostics.setOrderIDForThread(index);
    if (failed(body(index, functions[index])))
      failedAny = true;
    diagnostics.eraseOrderIDForThread();
  });
  return failure(failedAny.load());
}
