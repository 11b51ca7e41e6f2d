//===- MlirPlannerFuzzer.cpp - Parsing, planning, verifying, translating --===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Any input is parsed as MLIR (memplan, func, arith). A module that parses
// and verifies is planned with --plan-offsets; a plan that is written must
// then be accepted by --memplan-verify-plan (the independent validator), and
// the CUDA translation must either succeed or fail with a diagnostic. A
// crash, or a plan the verifier rejects, is a failure.
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Target/Cuda/TranslateToCuda.h"
#include "memplan/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DialectRegistry registry;
  registry.insert<memplan::MemPlanDialect, func::FuncDialect,
                  arith::ArithDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  context.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });

  // The MLIR lexer reads up to a terminating null byte, which libFuzzer's
  // buffer does not have: copy it into a string, which does.
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module || failed(verify(*module)))
    return 0;

  static const memplan::Algorithm algorithms[] = {
      memplan::Algorithm::GreedyBySize, memplan::Algorithm::BestFit,
      memplan::Algorithm::SharedObjects};
  memplan::PlanOffsetsOptions options;
  options.algorithm = algorithms[size % 3];
  options.inPlace = size % 2 == 0;
  PassManager plan(&context);
  plan.addPass(memplan::createPlanOffsets(options));
  if (failed(plan.run(*module)))
    return 0; // refused with a diagnostic: fine

  PassManager verifyPlan(&context);
  verifyPlan.addPass(memplan::createVerifyPlan());
  if (failed(verifyPlan.run(*module))) {
    std::fprintf(stderr, "oracle failed: a written plan does not verify\n");
    std::abort();
  }
  std::string code;
  llvm::raw_string_ostream os(code);
  (void)memplan::translateToCuda(*module, os, {});
  return 0;
}
