//===- StackPresetsTest.cpp - A --stack preset and explicit choices -------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// applyStack is where memplan-gen and memplan-fit turn a --stack preset and
// the choices given on the command line into GeneratorOptions. Checked
// here field by field: memplan's own preset leaves every option at its
// default (memplan-gen applies it when no --stack is given), every choice
// given wins over every preset's, and what a preset decides from the model
// and the other options (the model's dropout, the gradient buffer when
// accumulating, Hugging Face's KV cache and gelu_new, the math kernel for
// f32 grouped-query attention, LitGPT's shared LoRA dropout).
//
//===----------------------------------------------------------------------===//

#include "StackPresets.h"
#include "GeneratorChoices.h"
#include "ModelConfig.h"

#include "gtest/gtest.h"

using namespace memplan::gen;

namespace {

const StackPreset &preset(llvm::StringRef name) {
  for (const auto &[stackName, stack] : kStacks)
    if (stackName == name)
      return stack;
  ADD_FAILURE() << "no stack " << name.str();
  return kStacks[0].second;
}

GeneratorOptions trainingStep(llvm::StringRef model) {
  GeneratorOptions options;
  std::optional<ModelConfig> config = lookupModel(model);
  EXPECT_TRUE(config.has_value()) << model.str();
  if (config)
    options.model = *config;
  options.mode = Mode::Train;
  return options;
}

/// The fields a preset or a given choice sets, for comparing whole options.
auto stackFields(const GeneratorOptions &o) {
  return std::make_tuple(o.dropout, o.loss, o.gradientBuffer, o.eagerRmsNorm,
                         o.optimizerImpl, o.effectiveOptimizerImpl(),
                         o.fusedQkv, o.loraDropoutShared, o.createdInFirstStep,
                         o.trainingKvCache, o.eagerGeluNew, o.unfusedAttention);
}

TEST(StackPresets, MemplansOwnLeavesEveryOptionAtItsDefault) {
  for (llvm::StringRef model : {"gpt2-small", "llama-7b", "bert-base"})
    for (const char *activation : {"bf16", "f32"}) {
      GeneratorOptions defaults = trainingStep(model);
      defaults.activationType = activation;
      GeneratorOptions applied = defaults;
      applyStack(applied, preset("memplan"), {});
      EXPECT_EQ(stackFields(applied), stackFields(defaults))
          << model.str() << " " << activation;
    }
}

TEST(StackPresets, GivenChoicesWinOverEveryPreset) {
  StackOverrides given;
  given.dropout = 0.25;
  given.loss = Loss::Fused;
  given.gradientBuffer = GradientBuffer::None;
  given.eagerRmsNorm = false;
  given.optimizerImpl = OptimizerImpl::ForLoop;
  given.fusedQkv = false;
  given.loraDropoutShared = false;
  given.createdInFirstStep = false;
  given.trainingKvCache = false;
  given.eagerGeluNew = false;
  given.attentionGiven = true;
  for (const auto &[name, stack] : kStacks)
    for (llvm::StringRef model : {"gpt2-small", "llama-70b"}) {
      GeneratorOptions options = trainingStep(model);
      options.activationType = "f32";
      options.loraRank = 8;
      options.loraDropout = 0.05;
      options.dataParallel.zeroStage = 2;
      applyStack(options, stack, given);
      EXPECT_EQ(options.dropout, 0.25) << name.str();
      EXPECT_EQ(options.loss, Loss::Fused) << name.str();
      EXPECT_EQ(options.gradientBuffer, GradientBuffer::None) << name.str();
      EXPECT_FALSE(options.eagerRmsNorm) << name.str();
      EXPECT_FALSE(options.optimizerImplFromStack) << name.str();
      // Given, the step is kept under ZeRO too.
      EXPECT_EQ(options.effectiveOptimizerImpl(), OptimizerImpl::ForLoop)
          << name.str();
      EXPECT_FALSE(options.fusedQkv) << name.str();
      EXPECT_FALSE(options.loraDropoutShared) << name.str();
      EXPECT_FALSE(options.createdInFirstStep) << name.str();
      EXPECT_FALSE(options.trainingKvCache) << name.str();
      EXPECT_FALSE(options.eagerGeluNew) << name.str();
      EXPECT_FALSE(options.unfusedAttention) << name.str();
    }
}

TEST(StackPresets, HuggingFaceTrainerRunsTheModelsCodeAsWritten) {
  GeneratorOptions gpt2 = trainingStep("gpt2-small");
  applyStack(gpt2, preset("hf-trainer"), {});
  EXPECT_EQ(gpt2.dropout, gpt2.model.trainingDropout());
  EXPECT_GT(gpt2.dropout, 0);
  EXPECT_EQ(gpt2.loss, Loss::F32);
  EXPECT_EQ(gpt2.gradientBuffer, GradientBuffer::None);
  EXPECT_TRUE(gpt2.trainingKvCache);
  EXPECT_TRUE(gpt2.eagerGeluNew);
  EXPECT_FALSE(gpt2.eagerRmsNorm); // GPT-2 normalizes with LayerNorm
  EXPECT_TRUE(gpt2.createdInFirstStep);
  // The Trainer's default optimizer with PyTorch 2.8 or later.
  EXPECT_TRUE(gpt2.optimizerImplFromStack);
  EXPECT_EQ(gpt2.optimizerImpl, OptimizerImpl::Fused);
  // torch.optim makes its states in the first step, under FSDP too;
  // DeepSpeed's ZeRO makes its partitions before.
  gpt2.dataParallel.zeroStage = 3;
  gpt2.dataParallel.fsdp = true;
  EXPECT_TRUE(gpt2.marksCreatedInFirstStep());
  gpt2.dataParallel.fsdp = false;
  EXPECT_FALSE(gpt2.marksCreatedInFirstStep());

  // Grouped key/value heads in f32 take the math kernel, unless the
  // attention was chosen; in bf16 FlashAttention takes them.
  for (const char *activation : {"f32", "bf16"})
    for (bool attentionGiven : {false, true}) {
      GeneratorOptions llama = trainingStep("llama-70b");
      ASSERT_LT(llama.model.kvHeads, llama.model.heads);
      llama.activationType = activation;
      StackOverrides given;
      given.attentionGiven = attentionGiven;
      applyStack(llama, preset("hf-trainer"), given);
      EXPECT_EQ(llama.unfusedAttention,
                !attentionGiven && llama.activationType == "f32")
          << activation << " " << attentionGiven;
      EXPECT_TRUE(llama.eagerRmsNorm);
      EXPECT_FALSE(llama.trainingKvCache); // k and v are copies anyway
    }
}

TEST(StackPresets, AStacksAdamWStepGivesWayToDeepSpeedsOnly) {
  // LitGPT's AdamW is torch.optim's foreach step: under DeepSpeed's ZeRO
  // the stack runs DeepSpeed's fused step instead, under FSDP its own
  // steps the shards; given explicitly, the step is kept either way.
  GeneratorOptions llama = trainingStep("llama-7b");
  applyStack(llama, preset("litgpt"), {});
  EXPECT_EQ(llama.effectiveOptimizerImpl(), OptimizerImpl::Foreach);
  llama.dataParallel.zeroStage = 1;
  EXPECT_EQ(llama.effectiveOptimizerImpl(), OptimizerImpl::Fused);
  llama.dataParallel.zeroStage = 3;
  llama.dataParallel.fsdp = true;
  EXPECT_EQ(llama.effectiveOptimizerImpl(), OptimizerImpl::Foreach);
  StackOverrides given;
  given.optimizerImpl = OptimizerImpl::ForLoop;
  applyStack(llama, preset("litgpt"), given);
  llama.dataParallel.fsdp = false;
  EXPECT_EQ(llama.effectiveOptimizerImpl(), OptimizerImpl::ForLoop);
}

TEST(StackPresets, GradientBufferAndOptimizerFollowTheStep) {
  // Accumulating micro-batches needs a buffer: the weights' type, unless
  // the stack keeps an f32 one.
  for (const auto &[name, stack] : kStacks) {
    GeneratorOptions options = trainingStep("llama-7b");
    options.microBatches = 4;
    applyStack(options, stack, {});
    EXPECT_EQ(options.gradientBuffer,
              stack.gradientBuffer.value_or(GradientBuffer::WeightType))
        << name.str();
  }
  // A preset's step is AdamW's: another optimizer has its own.
  GeneratorOptions sgd = trainingStep("llama-7b");
  sgd.optimizer = Optimizer::Sgd;
  applyStack(sgd, preset("litgpt"), {});
  EXPECT_FALSE(sgd.optimizerImplFromStack);
  EXPECT_EQ(sgd.optimizerImpl, OptimizerImpl::Fused);
}

TEST(StackPresets, LitgptSharesOneLoraDropoutWhereThereIsOne) {
  for (double dropout : {0.0, 0.05}) {
    GeneratorOptions options = trainingStep("llama-7b");
    options.loraRank = 8;
    options.loraDropout = dropout;
    applyStack(options, preset("litgpt"), {});
    EXPECT_EQ(options.loraDropoutShared, dropout > 0);
    EXPECT_TRUE(options.fusedQkv);
    EXPECT_EQ(options.dropout, 0); // LitGPT's models have none
  }
}

TEST(StackPresets, OnlyLlamaStacksRefuseOtherModels) {
  GeneratorOptions gpt2 = trainingStep("gpt2-small");
  GeneratorOptions llama = trainingStep("llama-7b");
  for (const auto &[name, stack] : kStacks) {
    EXPECT_EQ(stackModelMismatch(name, stack, gpt2.model).empty(),
              !stack.llamaOnly)
        << name.str();
    EXPECT_EQ(stackModelMismatch(name, stack, llama.model), "") << name.str();
  }
  EXPECT_EQ(stackModelMismatch("litgpt", preset("litgpt"), gpt2.model),
            "--stack litgpt runs the LLaMA family's models here, not " +
                gpt2.model.name);
}

} // namespace
