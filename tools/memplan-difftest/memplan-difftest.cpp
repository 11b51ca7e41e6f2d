//===- memplan-difftest.cpp - Differential execution of packed programs ---===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Generates random bufferized programs (BufferizedProgramGenerator.h), packs
// each with every algorithm of --memplan-pack-allocs (every other one with
// alignment=1, the tightest offsets) (and, for programs
// without deallocs, again after the recommended recipe's
// buffer-results-to-out-params and upstream's deallocation pipeline),
// checks each packing
// with --memplan-verify-packing, lowers it to LLVM and runs it with MLIR's
// ExecutionEngine (the JIT mlir-runner uses), and compares the checksum it
// returns with the unpacked program's. A deliberately corrupted packing
// (the program's first two buffers, live together, moved to one offset)
// must change the checksum and be refused by the checker.
//
// Every run happens in a child process, so a program that corrupts memory
// or crashes is a failure that is reported, not a crash of the driver.
//
//   memplan-difftest --seed 1 --count 200
//   memplan-difftest --print 17 > p.mlir   # one program, for mlir-runner
//
//===----------------------------------------------------------------------===//

#include "BufferizedProgramGenerator.h"

#include "memplan/Transforms/Pipelines.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;

namespace {

llvm::cl::OptionCategory category("memplan-difftest options");
llvm::cl::opt<uint64_t> firstSeed("seed", llvm::cl::desc("First seed"),
                                  llvm::cl::init(1), llvm::cl::cat(category));
llvm::cl::opt<unsigned> count("count", llvm::cl::desc("Programs to run"),
                              llvm::cl::init(20), llvm::cl::cat(category));
llvm::cl::opt<std::string>
    emitDir("emit-dir",
            llvm::cl::desc("Write every program that fails (and its packed "
                           "forms) into this directory"),
            llvm::cl::init(""), llvm::cl::cat(category));
llvm::cl::opt<int64_t>
    printSeed("print",
              llvm::cl::desc("Print the program of this seed and exit"),
              llvm::cl::init(-1), llvm::cl::cat(category));
llvm::cl::opt<unsigned>
    timeoutSeconds("timeout", llvm::cl::desc("Seconds one run may take"),
                   llvm::cl::init(20), llvm::cl::cat(category));

/// Pipelines on the module (no anchor: the pass manager is the module's).
constexpr const char *kLowering =
    "convert-linalg-to-loops, scf-forall-to-parallel, "
    "expand-strided-metadata, lower-affine, convert-scf-to-cf, "
    "finalize-memref-to-llvm, convert-vector-to-llvm, convert-arith-to-llvm, "
    "convert-func-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts";
constexpr const char *kVerifyPacking = "memplan-verify-packing";

/// What running a program gave.
struct Outcome {
  enum class Kind { Value, Crash, Timeout, Failed } kind = Kind::Failed;
  int64_t value = 0;
  std::string detail;

  bool operator==(const Outcome &other) const {
    return kind == Kind::Value && other.kind == Kind::Value &&
           value == other.value;
  }
  std::string describe() const {
    switch (kind) {
    case Kind::Value:
      return "checksum " + std::to_string(value);
    case Kind::Crash:
      return "crash (" + detail + ")";
    case Kind::Timeout:
      return "timeout";
    case Kind::Failed:
      return "failed: " + detail;
    }
    return "?";
  }
};

/// Deliberately corrupted packings: tried, how many changed the checksum,
/// how many the checker refused.
struct Corruptions {
  unsigned tried = 0, differ = 0, refused = 0;
};

struct Totals {
  unsigned programs = 0, runs = 0, mismatches = 0, checkerRefusals = 0,
           packFailures = 0, corruptedNotApplicable = 0, recipePrograms = 0,
           recipeDeallocs = 0, recipeViews = 0;
  Corruptions corrupted, recipeCorrupted;
  memplan::ProgramFeatures features;
  unsigned packedViews = 0;
};

class Runner {
public:
  Runner(MLIRContext &context) : context(context) {}

  /// Runs `text` (its function errors collected, remarks dropped) through
  /// `pipeline`; returns the error text on failure.
  std::string applyPipeline(ModuleOp module, StringRef pipeline) {
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
        errors += diagnostic.str() + "\n";
      return success();
    });
    PassManager pm(&context, ModuleOp::getOperationName());
    if (failed(parsePassPipeline(pipeline, pm)))
      return "bad pipeline: " + pipeline.str();
    if (failed(pm.run(module)) && errors.empty())
      errors = "the pipeline failed";
    return errors;
  }

  /// Lowers a copy of `module` and runs @main in a child process.
  Outcome run(ModuleOp module) {
    OwningOpRef<ModuleOp> lowered = module.clone();
    if (std::string error = applyPipeline(*lowered, kLowering); !error.empty())
      return {Outcome::Kind::Failed, 0, "lowering: " + error};
    // `transformer` is a function_ref: the function must outlive `create`.
    std::function<llvm::Error(llvm::Module *)> optimize =
        makeOptimizingTransformer(1, 0, nullptr);
    ExecutionEngineOptions options;
    options.transformer = optimize;
    auto engine = ExecutionEngine::create(*lowered, options);
    if (!engine)
      return {Outcome::Kind::Failed, 0,
              "JIT: " + llvm::toString(engine.takeError())};
    int pipe[2];
    if (::pipe(pipe) != 0)
      return {Outcome::Kind::Failed, 0, "pipe"};
    pid_t child = fork();
    if (child == 0) {
      ::close(pipe[0]);
      alarm(timeoutSeconds);
      int64_t result = 0;
      llvm::Error error =
          (*engine)->invoke("main", ExecutionEngine::result(result));
      if (error)
        _exit(3);
      ssize_t written = ::write(pipe[1], &result, sizeof(result));
      _exit(written == sizeof(result) ? 0 : 4);
    }
    ::close(pipe[1]);
    int64_t result = 0;
    ssize_t got = ::read(pipe[0], &result, sizeof(result));
    ::close(pipe[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) {
      if (WTERMSIG(status) == SIGALRM)
        return {Outcome::Kind::Timeout, 0, ""};
      return {Outcome::Kind::Crash, 0,
              std::string("signal ") + strsignal(WTERMSIG(status))};
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != sizeof(result))
      return {Outcome::Kind::Crash, 0,
              "exit status " + std::to_string(WEXITSTATUS(status))};
    return {Outcome::Kind::Value, result, ""};
  }

private:
  MLIRContext &context;
};

/// What the recommended recipe (docs/integration.md) runs before packing.
constexpr const char *kRecipe =
    "buffer-results-to-out-params{hoist-static-allocs=true "
    "modify-public-functions=true}, buffer-deallocation-pipeline";

/// Whether upstream's deallocation pipeline can take `module`: no deallocs
/// yet (it places them all) and no buffer outside memory space 0 (which it
/// would free, and the LLVM lowering cannot).
bool takesDeallocationPipeline(ModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (isa<memref::DeallocOp>(op) ||
        (alloc && alloc.getType().getMemorySpace()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// The locations of the first two allocs of @kernel: two buffers live
/// together with different contents (the generator makes them so).
std::pair<Location, Location> firstTwoAllocs(ModuleOp module) {
  auto kernel = module.lookupSymbol<func::FuncOp>("kernel");
  SmallVector<Location> locations;
  kernel.walk(
      [&](memref::AllocOp alloc) { locations.push_back(alloc.getLoc()); });
  return {locations[0], locations[1]};
}

/// Moves the view of the second of those buffers onto the first (a view
/// keeps its alloc's location). False when they were not both packed into
/// one arena at different offsets.
bool corrupt(ModuleOp module, std::pair<Location, Location> targets) {
  auto kernel = module.lookupSymbol<func::FuncOp>("kernel");
  memref::ViewOp first, second;
  kernel.walk([&](memref::ViewOp view) {
    if (view.getLoc() == targets.first)
      first = view;
    else if (view.getLoc() == targets.second)
      second = view;
  });
  if (!first || !second || first.getSource() != second.getSource() ||
      first.getByteShift() == second.getByteShift())
    return false;
  // The first's offset, as a constant of its own right before the second
  // (the first view need not come first: views are made at first uses).
  APInt offset;
  if (!matchPattern(first.getByteShift(), m_ConstantInt(&offset)))
    return false;
  OpBuilder builder(second);
  second.getByteShiftMutable().assign(arith::ConstantIndexOp::create(
      builder, second.getLoc(), offset.getSExtValue()));
  return true;
}

void save(StringRef name, StringRef text) {
  if (emitDir.empty())
    return;
  llvm::sys::fs::create_directories(emitDir);
  SmallString<128> path(emitDir);
  llvm::sys::path::append(path, name);
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (!error)
    os << text;
}

std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

bool runSeed(uint64_t seed, MLIRContext &context, Runner &runner,
             Totals &totals) {
  memplan::ProgramFeatures features;
  std::string text = memplan::generateBufferizedProgram(seed, &features);
  std::string program = "seed-" + std::to_string(seed);
  OwningOpRef<ModuleOp> base = parseSourceString<ModuleOp>(text, &context);
  if (!base) {
    llvm::errs() << program << ": the generator wrote a program that does "
                 << "not parse\n";
    save(program + ".mlir", text);
    return false;
  }
  ++totals.programs;
  totals.features += features;

  bool ok = true;
  auto fail = [&](const Twine &message, ModuleOp module, StringRef suffix) {
    llvm::errs() << program << ": " << message << "\n";
    save(program + ".mlir", text);
    if (module)
      save((program + "." + suffix + ".mlir").str(), print(module));
    ok = false;
  };

  Outcome expected = runner.run(*base);
  ++totals.runs;
  if (expected.kind != Outcome::Kind::Value) {
    fail("the unpacked program " + expected.describe(), nullptr, "");
    return false;
  }
  // Packs `source` with every algorithm, checks each packing and runs it;
  // returns greedy by size's packing. `stage` names the source in messages
  // and file names ("" for the generated program).
  auto packEach = [&](ModuleOp source,
                      const std::string &stage) -> OwningOpRef<ModuleOp> {
    OwningOpRef<ModuleOp> greedy;
    for (auto [index, each] : llvm::enumerate(memplan::kAllAlgorithms)) {
      std::string algorithm(memplan::getAlgorithmName(each));
      // Every other algorithm packs with alignment=1: offsets then keep only
      // what each buffer needs (its element's, its attribute's, what the
      // program assumes), the tightest packing, where a wrong size or
      // alignment is not hidden by rounding to 64 bytes.
      bool tight = index % 2 == 1;
      std::string label = stage.empty() ? algorithm : stage + "." + algorithm;
      std::string what =
          stage.empty() ? algorithm : algorithm + " after the " + stage;
      OwningOpRef<ModuleOp> packed = source.clone();
      std::string pipeline = std::string("memplan-pack-allocs{algorithm=") +
                             algorithm + " search-nodes=2000" +
                             (tight ? " alignment=1}" : "}");
      if (std::string error = runner.applyPipeline(*packed, pipeline);
          !error.empty()) {
        ++totals.packFailures;
        fail(Twine("--memplan-pack-allocs with ") + what + " failed: " + error,
             *packed, label);
        continue;
      }
      if (std::string error = runner.applyPipeline(*packed, kVerifyPacking);
          !error.empty()) {
        ++totals.checkerRefusals;
        fail(Twine("--memplan-verify-packing refused the ") + what +
                 " packing: " + error,
             *packed, label);
      }
      Outcome outcome = runner.run(*packed);
      ++totals.runs;
      if (!(outcome == expected)) {
        ++totals.mismatches;
        fail(Twine("packed with ") + what + ": " + outcome.describe() +
                 ", unpacked: " + expected.describe(),
             *packed, label);
      }
      if (each == memplan::Algorithm::GreedyBySize)
        greedy = std::move(packed);
    }
    return greedy;
  };
  // The oracle can fail: a corrupted packing (of `stage`, "" for the
  // generated program) must change the checksum, and the checker must
  // refuse it. False where there is nothing to corrupt.
  auto tryCorruption = [&](ModuleOp packed, Corruptions &counts,
                           const std::string &stage) {
    if (!corrupt(packed, firstTwoAllocs(*base)))
      return false;
    std::string after = stage.empty() ? "" : " after the " + stage;
    std::string label = stage.empty() ? "corrupted" : stage + ".corrupted";
    ++counts.tried;
    Outcome corrupted = runner.run(packed);
    ++totals.runs;
    if (!(corrupted == expected))
      ++counts.differ;
    else
      fail("a corrupted packing" + after + " printed the same checksum", packed,
           label);
    if (!runner.applyPipeline(packed, kVerifyPacking).empty())
      ++counts.refused;
    else
      fail("--memplan-verify-packing accepted a corrupted packing" + after,
           packed, label);
    return true;
  };

  OwningOpRef<ModuleOp> greedy = packEach(*base, "");
  if (greedy)
    greedy->walk([&](memref::ViewOp) { ++totals.packedViews; });

  // The recommended recipe (docs/integration.md): returned buffers made
  // out-params and upstream's deallocation pipeline run first, then packed.
  // The deallocated program must give the same checksum, and so must each
  // packing of it.
  if (takesDeallocationPipeline(*base)) {
    ++totals.recipePrograms;
    OwningOpRef<ModuleOp> freed = base->clone();
    if (std::string error = runner.applyPipeline(*freed, kRecipe);
        !error.empty()) {
      fail("the deallocation recipe failed: " + error, *freed, "recipe");
    } else {
      Outcome outcome = runner.run(*freed);
      ++totals.runs;
      if (outcome == expected) {
        freed->walk([&](memref::DeallocOp) { ++totals.recipeDeallocs; });
        OwningOpRef<ModuleOp> packed = packEach(*freed, "recipe");
        if (packed) {
          packed->walk([&](memref::ViewOp) { ++totals.recipeViews; });
          tryCorruption(*packed, totals.recipeCorrupted, "recipe");
        }
      } else {
        ++totals.mismatches;
        fail("after the deallocation recipe: " + outcome.describe() +
                 ", before: " + expected.describe(),
             *freed, "recipe");
      }
    }
  }

  if (!greedy || !tryCorruption(*greedy, totals.corrupted, ""))
    ++totals.corruptedNotApplicable;
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "memplan-difftest: random bufferized programs, packed with every "
      "algorithm and run against their unpacked selves\n");
  if (printSeed >= 0) {
    llvm::outs() << memplan::generateBufferizedProgram(
        static_cast<uint64_t>(printSeed));
    return 0;
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllPasses();
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  memplan::registerMemPlan(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // One thread: every run forks, and a fork copies only the calling thread.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();

  Runner runner(context);
  Totals totals;
  unsigned failures = 0;
  for (uint64_t seed = firstSeed; seed < firstSeed + count; ++seed)
    failures += !runSeed(seed, context, runner, totals);

  llvm::outs() << "programs " << totals.programs << " (seeds " << firstSeed
               << "-" << firstSeed + count - 1 << "), runs " << totals.runs
               << ", mismatches " << totals.mismatches << ", failed packings "
               << totals.packFailures << ", correct packings refused by the "
               << "checker " << totals.checkerRefusals << "\n"
               << "corrupted packings: " << totals.corrupted.differ << " of "
               << totals.corrupted.tried << " changed the checksum, "
               << totals.corrupted.refused << " of " << totals.corrupted.tried
               << " refused by the checker (" << totals.corruptedNotApplicable
               << " programs without two packed buffers to corrupt)\n"
               << "buffers " << totals.features.buffers << " ("
               << totals.features.nested << " in regions, "
               << totals.features.spaceOne << " in memory space 1, "
               << totals.features.subByte << " of i1/i4), parallel loops "
               << totals.features.parallel << ", linalg writes "
               << totals.features.linalg << ", affine.for/index_switch/"
               << "execute_region " << totals.features.otherRegions
               << ", last reads in a region op "
               << totals.features.lastUseInRegion << ", nested region ops "
               << totals.features.nestedRegionOps << ", assumed alignments "
               << totals.features.assumedAlignments << ", byte buffers "
               << "viewed as f32/f64 " << totals.features.typedByteViews
               << ", allocs hoisted to their block's start "
               << totals.features.hoistedAllocs
               << ", buffers first written in a loop "
               << totals.features.firstWrittenInLoop << ", addresses taken "
               << totals.features.escapes << ", views and selects "
               << totals.features.views << "; views in the greedy packings "
               << totals.packedViews << "\n"
               << "after upstream's deallocation pipeline (the recipe): "
               << totals.recipePrograms << " programs, "
               << totals.recipeDeallocs << " deallocs placed, "
               << totals.recipeViews << " views in their greedy packings; "
               << "corrupted: " << totals.recipeCorrupted.differ << " of "
               << totals.recipeCorrupted.tried << " changed the checksum, "
               << totals.recipeCorrupted.refused << " of "
               << totals.recipeCorrupted.tried << " refused by the checker\n"
               << (failures ? "FAILED: " : "ok: ") << failures
               << " failing programs\n";
  return failures ? 1 : 0;
}
