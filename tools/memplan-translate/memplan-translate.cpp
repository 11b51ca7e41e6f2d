//===- memplan-translate.cpp - memplan translations -----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   memplan-translate --memplan-to-cuda planned.mlir -o model.cu
//
// The driver of mlir-translate, for memplan's translations, with its input
// read within bounds (InputBounds.h): a stream past --max-input-bytes or
// brackets nested deeper than the parser's stack allows are one error and
// exit code 1, never a crash. (mlirTranslateMain opens its input itself,
// with no way to bound it, so the driver is written out here: the options
// it takes are mlir-translate's, -split-input-file and -verify-diagnostics
// included.)
//
//===----------------------------------------------------------------------===//

#include "memplan/Support/InputBounds.h"
#include "memplan/Support/OutputFiles.h"
#include "memplan/Target/Cuda/TranslateToCuda.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static int fail(const llvm::Twine &message) {
  llvm::errs() << "memplan-translate: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  memplan::registerToCudaTranslation();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();

  llvm::cl::opt<std::string> inputPath(llvm::cl::Positional,
                                       llvm::cl::desc("<input file>"),
                                       llvm::cl::init("-"));
  llvm::cl::opt<std::string> outputPath("o", llvm::cl::desc("Output filename"),
                                        llvm::cl::value_desc("filename"),
                                        llvm::cl::init("-"));
  llvm::cl::opt<bool> allowUnregistered(
      "allow-unregistered-dialect",
      llvm::cl::desc("Allow operation with no registered dialects"),
      llvm::cl::init(false));
  llvm::cl::opt<std::string> splitInputFile(
      "split-input-file", llvm::cl::ValueOptional,
      llvm::cl::callback([&](const std::string &value) {
        if (value.empty())
          splitInputFile = kDefaultSplitMarker;
      }),
      llvm::cl::desc("Split the input file into chunks translated one by "
                     "one (the marker defaults to '// -----')"),
      llvm::cl::init(""));
  llvm::cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      llvm::cl::desc("Check that emitted diagnostics match expected-* lines "
                     "in the input"),
      llvm::cl::init(false));
  llvm::cl::opt<uint64_t> maxInputBytes(
      "max-input-bytes",
      llvm::cl::desc("Read at most this many bytes of an input that is not "
                     "a regular file (a pipe, a device)"),
      llvm::cl::init(memplan::kDefaultMaxStreamedInputBytes));
  llvm::cl::opt<const Translation *, false, TranslationParser> translation(
      llvm::cl::desc("Translation to perform"), llvm::cl::Required);
  llvm::cl::ParseCommandLineOptions(argc, argv, "memplan translation driver\n");

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> input =
      memplan::readBoundedMlirInput(inputPath, maxInputBytes);
  if (!input)
    return fail(llvm::toString(input.takeError()));

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputPath, &error);
  if (!output)
    return fail(error);

  // One chunk: a context of its own, diagnostics printed (or, with
  // -verify-diagnostics, checked against the chunk's expected-* lines).
  auto processChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                          llvm::raw_ostream &os) -> LogicalResult {
    MLIRContext context;
    context.allowUnregisteredDialects(allowUnregistered);
    context.printOpOnDiagnostic(!verifyDiagnostics);
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    if (!verifyDiagnostics) {
      SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
      return (*translation)(sourceMgr, os, &context);
    }
    SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context);
    // The translation's own result does not matter here: the diagnostics
    // it emits are what is checked.
    (void)(*translation)(sourceMgr, os, &context);
    return handler.verify();
  };
  if (failed(splitAndProcessBuffer(std::move(*input), processChunk,
                                   output->os(), splitInputFile,
                                   splitInputFile)))
    return 1;
  if (llvm::Error unwritten = memplan::keepOutput(*output))
    return fail(llvm::toString(std::move(unwritten)));
  return 0;
}
