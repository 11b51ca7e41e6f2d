//===- TestPrintLiveness.cpp - --memplan-print-liveness -------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//
// A test pass, linked into memplan-opt only where memplan's tests are built
// (not part of any library memplan installs): it prints the lifetime of
// every buffer that BufferLiveness computes, for lit tests to pin.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "memplan/Analysis/BufferLiveness.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace memplan;

namespace {

struct PrintLivenessPass
    : public PassWrapper<PrintLivenessPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrintLivenessPass)

  PrintLivenessPass() = default;
  PrintLivenessPass(const PrintLivenessPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "memplan-print-liveness"; }
  StringRef getDescription() const final {
    return "Print the lifetime of every buffer (a test pass)";
  }

  Option<bool> inPlace{*this, "in-place",
                       llvm::cl::desc("Share buffers in place as "
                                      "--plan-offsets does"),
                       llvm::cl::init(true)};

  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    InPlacePolicy policy;
    if (inPlace)
      policy = [](OpResult, unsigned) { return true; };
    for (auto function : getOperation().getOps<FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      FailureOr<BufferLiveness> liveness =
          BufferLiveness::compute(function.getFunctionBody(), policy);
      if (failed(liveness))
        return signalPassFailure();
      AsmState state(function);
      auto print = [&](Value value) { value.printAsOperand(os, state); };

      os << "liveness of @" << function.getName() << ": "
         << liveness->getNumPositions() << " positions, "
         << liveness->getBuffers().size() << " buffers\n";
      for (const ExternalValue &external : liveness->getExternals()) {
        os << "  external ";
        print(external.value);
        os << " ("
           << (external.kind == ExternalValue::Kind::Argument ? "argument"
                                                              : "constant")
           << "): " << external.bytes << " bytes\n";
      }
      for (auto [index, buffer] : llvm::enumerate(liveness->getBuffers())) {
        os << "  buffer #" << index << ": ";
        if (buffer.kind == LiveBuffer::Kind::Scratch)
          os << "scratch of " << buffer.op->getName();
        else {
          print(buffer.values.front().value);
          os << " = " << buffer.op->getName();
        }
        os << ", " << buffer.bytes << " bytes, live [" << buffer.start << ", "
           << buffer.end << ")\n";
        if (buffer.values.empty())
          continue;
        for (const BufferValue &value : ArrayRef(buffer.values).drop_front()) {
          os << "    "
             << (value.role == BufferValue::Role::View ? "view " : "in place ");
          print(value.value);
          os << "\n";
        }
      }
    }
    markAllAnalysesPreserved();
  }
};

} // namespace

void memplan::test::registerTestPasses() {
  PassRegistration<PrintLivenessPass>();
}
