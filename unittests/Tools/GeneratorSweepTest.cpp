//===- GeneratorSweepTest.cpp - Random generator options, end to end ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Draws generator options at random (model, mode, precisions, stacks,
// checkpointing, LoRA/QLoRA, optimizers, data, tensor and pipeline
// parallelism, ZeRO and FSDP) and takes each through what memplan-gen and
// memplan-fit do with it: the generator either refuses it with a message
// or writes a module that verifies, and that module plans through the
// --plan-offsets pipeline (whose --memplan-verify-plan proves the plan)
// and is measured by the memory report (which proves it again). Never a
// crash, never a module that does not plan, never a refusal without a
// reason. CI runs 400 draws; MEMPLAN_SWEEP_DRAWS=N runs N, and
// docs/reliability.md records the long runs.
//
//===----------------------------------------------------------------------===//

#include "GeneratorChoices.h"
#include "ModelConfig.h"
#include "StackPresets.h"
#include "TransformerGenerator.h"

#include "memplan/Analysis/FunctionMemory.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Transforms/Pipelines.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <random>

using namespace memplan;
using namespace memplan::gen;

namespace {

/// One draw: options a command line could give, in the ranges where the
/// generator has choices to make (one to four layers, short sequences).
class Draw {
public:
  explicit Draw(uint64_t seed) : rng(seed) {}

  GeneratorOptions options(std::string &description) {
    GeneratorOptions o;
    static const char *const kModels[] = {"gpt2-small", "llama-7b", "llama-70b",
                                          "bert-base"};
    std::string model = pick(kModels);
    o.model = *lookupModel(model);
    static const Mode kModeChoices[] = {Mode::Train, Mode::Train, Mode::Train,
                                        Mode::Prefill, Mode::Decode};
    o.mode = pick(kModeChoices);
    o.layers = 1 + below(4);
    o.seq = 8 * (1 + below(3));
    o.batch = 1 + below(2);
    o.activationType = chance(0.3) ? "f32" : "bf16";
    o.weightType = o.activationType;
    description = model + " layers=" + std::to_string(o.layers);
    if (o.mode != Mode::Train) {
      static const char *const kWeights[] = {"int8", "int4", "nf4", "bf16"};
      if (chance(0.4))
        o.weightType = pick(kWeights);
      if (o.mode == Mode::Decode)
        o.kvLen = 8 * (1 + below(2));
      if (chance(0.2))
        o.tensorParallel.ranks = 2;
      description += " inference " + o.weightType;
      return o;
    }
    static const Checkpointing kCheckpointing[] = {
        Checkpointing::None, Checkpointing::Full, Checkpointing::Selective};
    o.checkpointing = pick(kCheckpointing);
    o.unfusedAttention = chance(0.3);
    if (chance(0.3)) {
      o.loraRank = 4;
      o.loraDropout = chance(0.5) ? 0.1 : 0.0;
      o.qlora = chance(0.3);
      if (chance(0.3))
        o.loraTargets = LoraQuery | LoraKey | LoraValue | LoraOutput |
                        LoraGate | LoraUp | LoraDown;
    }
    if (chance(0.3))
      o.microBatches = 2 + below(2);
    static const Optimizer kOptimizers[] = {
        Optimizer::AdamW, Optimizer::AdamW, Optimizer::Sgd,
        Optimizer::AdamW8Bit, Optimizer::Adafactor};
    o.optimizer = pick(kOptimizers);
    double layout = unit();
    if (layout < 0.3) {
      o.dataParallel.ranks = chance(0.5) ? 2 : 4;
      o.dataParallel.rank = 1;
      o.dataParallel.zeroStage = below(4);
      o.dataParallel.fsdp = o.dataParallel.zeroStage == 3 && chance(0.4);
      o.dataParallel.offloadOptimizer = chance(0.2);
    } else if (layout < 0.45) {
      o.pipeline.stages = 2;
      o.pipeline.stage = below(2);
      o.microBatches = 4;
    } else if (layout < 0.6) {
      o.tensorParallel.ranks = 2;
      o.tensorParallel.sequenceParallel = chance(0.5);
    }
    // A stack as memplan-gen applies it, with some choices given.
    const auto &[stackName, stack] = kStacks[below(std::size(kStacks))];
    StackOverrides given;
    if (chance(0.2))
      given.optimizerImpl =
          chance(0.5) ? OptimizerImpl::Foreach : OptimizerImpl::ForLoop;
    if (chance(0.2))
      given.dropout = 0.1;
    if (chance(0.2))
      given.loss = Loss::F32;
    applyStack(o, stack, given);
    description += " train stack=" + stackName.str() +
                   " zero=" + std::to_string(o.dataParallel.zeroStage) +
                   (o.dataParallel.fsdp ? " fsdp" : "") +
                   " tp=" + std::to_string(o.tensorParallel.ranks) +
                   " pp=" + std::to_string(o.pipeline.stages) +
                   " lora=" + std::to_string(o.loraRank) +
                   (o.qlora ? " qlora" : "");
    return o;
  }

private:
  template <typename T, size_t N> const T &pick(const T (&choices)[N]) {
    return choices[below(N)];
  }
  size_t below(size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  }
  double unit() { return std::uniform_real_distribution<double>(0, 1)(rng); }
  bool chance(double p) { return unit() < p; }

  std::mt19937_64 rng;
};

TEST(GeneratorSweep, EveryDrawIsRefusedWithAReasonOrPlans) {
  // MEMPLAN_SWEEP_DRAWS sets the number for a long run.
  uint64_t draws = 400;
  if (const char *text = std::getenv("MEMPLAN_SWEEP_DRAWS"))
    draws = std::strtoull(text, nullptr, 10);
  unsigned planned = 0, refused = 0;
  for (uint64_t seed = 1; seed <= draws; ++seed) {
    std::string description;
    GeneratorOptions options = Draw(seed).options(description);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + description);
    mlir::MLIRContext context;
    context.loadDialect<MemPlanDialect, mlir::func::FuncDialect>();
    std::string error;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        generateTransformer(&context, options, error);
    if (!module) {
      EXPECT_FALSE(error.empty()) << "refused without a reason";
      ++refused;
      continue;
    }
    ASSERT_TRUE(mlir::succeeded(mlir::verify(*module)));
    mlir::PassManager pm(&context);
    buildPlanOffsetsPipeline(pm);
    ASSERT_TRUE(mlir::succeeded(pm.run(*module))) << "does not plan";
    for (auto function : module->getOps<mlir::func::FuncOp>()) {
      mlir::FailureOr<FunctionMemory> memory = measureFunctionMemory(function);
      ASSERT_TRUE(mlir::succeeded(memory)) << "no memory report";
      // The plan lies between its bounds: no arena below the most bytes
      // live at once, none above no reuse at all.
      EXPECT_GE(memory->arena, memory->lowerBound);
      EXPECT_LE(memory->arena, memory->withoutReuse);
      EXPECT_GE(memory->total(), memory->arena);
    }
    ++planned;
  }
  // The sweep must exercise both sides (a generator that refused
  // everything would pass the loop).
  EXPECT_GE(planned, draws / 4);
  EXPECT_GE(refused, draws / 20);
}

} // namespace
