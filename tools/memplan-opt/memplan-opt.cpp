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
// It reads its input within bounds (InputBounds.h): a stream that goes on
// past --max-input-bytes, or brackets nested deeper than the parser's stack
// allows, is one error and exit code 1, never a crash.
//
//===----------------------------------------------------------------------===//

#include "memplan/Support/InputBounds.h"
#include "memplan/Support/OutputFiles.h"
#include "memplan/Transforms/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#ifdef MEMPLAN_INCLUDE_TESTS
#include "TestPasses.h"
#endif

static llvm::cl::opt<uint64_t> maxInputBytes(
    "max-input-bytes",
    llvm::cl::desc("Read at most this many bytes of an input that is not a "
                   "regular file (a pipe, a device)"),
    llvm::cl::init(memplan::kDefaultMaxStreamedInputBytes));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "memplan-opt: error: " << message << "\n";
  return 1;
}

/// A misspelt value of an enum pass option (`--plan-offsets=algorithm=x`)
/// is reported by LLVM's option parser on stderr ("for the --algorithm
/// option: Cannot find option named 'x'!"), which leaves upstream's pipeline
/// parser nothing to add but an error with an empty message at an unknown
/// location. That second, blank line is dropped; every other diagnostic of
/// pipeline setup (memplan's own option checks, unknown passes) goes through.
static void dropEmptyPipelineErrors(mlir::MlirOptMainConfig &config) {
  config.setPassPipelineSetupFn(
      [upstream = config](mlir::PassManager &pm) -> mlir::LogicalResult {
        mlir::ScopedDiagnosticHandler handler(
            pm.getContext(), [](mlir::Diagnostic &diagnostic) {
              bool blank =
                  diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error &&
                  llvm::isa<mlir::UnknownLoc>(diagnostic.getLocation()) &&
                  diagnostic.str().empty();
              // success() consumes it; failure() hands it on.
              return mlir::success(blank);
            });
        return upstream.setupPassPipeline(pm);
      });
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::registerAllPasses();
#ifdef MEMPLAN_INCLUDE_TESTS
  memplan::test::registerTestPasses();
#endif

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  memplan::registerMemPlan(registry);

  auto [inputPath, outputPath] = mlir::registerAndParseCLIOptions(
      argc, argv, "memplan optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  dropEmptyPipelineErrors(config);
  // Runs that read no input are mlir-opt's own.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputPath, outputPath, registry));

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> input =
      memplan::readBoundedMlirInput(inputPath, maxInputBytes);
  if (!input)
    return fail(llvm::toString(input.takeError()));

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputPath, &error);
  if (!output)
    return fail(error);
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(*input), registry, config)))
    return 1;
  if (llvm::Error unwritten = memplan::keepOutput(*output))
    return fail(llvm::toString(std::move(unwritten)));
  return 0;
}
