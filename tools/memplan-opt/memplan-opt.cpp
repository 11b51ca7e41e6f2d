//===- memplan-opt.cpp - The memplan optimizer driver ---------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// mlir-opt with memplan added: every upstream dialect, dialect extension and
// pass that mlir-opt 22 registers, plus the memplan dialect, its passes and
// pipelines. A whole upstream pipeline (bufferization, deallocation,
// lowering) and memplan's passes run in one invocation, and any IR that
// mlir-opt reads, memplan-opt reads. Built with memplan's tests, it also
// registers the test passes of test/lib (--memplan-print-liveness).
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#ifdef MEMPLAN_INCLUDE_TESTS
#include "TestPasses.h"
#endif

int main(int argc, char **argv) {
  mlir::registerAllPasses();
#ifdef MEMPLAN_INCLUDE_TESTS
  mlir::memplan::test::registerTestPasses();
#endif

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::memplan::registerMemPlan(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "memplan optimizer driver\n", registry));
}
