//===- StackPresets.cpp - How training stacks run a step ------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "StackPresets.h"

using namespace memplan::gen;

std::string memplan::gen::stackModelMismatch(llvm::StringRef name,
                                             const StackPreset &stack,
                                             const ModelConfig &model) {
  if (!stack.llamaOnly || model.family == Family::Llama)
    return "";
  return ("--stack " + name + " runs the LLaMA family's models here, not " +
          model.name)
      .str();
}

void memplan::gen::applyStack(GeneratorOptions &options,
                              const StackPreset &stack,
                              const StackOverrides &given) {
  options.dropout = given.dropout.value_or(
      stack.modelDropout ? options.model.trainingDropout() : 0.0);
  options.loss = given.loss.value_or(stack.loss);
  options.gradientBuffer =
      given.gradientBuffer.value_or(stack.gradientBuffer.value_or(
          options.microBatches > 1 ? GradientBuffer::WeightType
                                   : GradientBuffer::None));
  // Only the LLaMA family has an RMSNorm to run eagerly.
  options.eagerRmsNorm = options.model.family == Family::Llama &&
                         given.eagerRmsNorm.value_or(stack.eagerRmsNorm);
  // A preset's AdamW is its step without ZeRO (GeneratorOptions::
  // effectiveOptimizerImpl); other optimizers have one step.
  options.optimizerImplFromStack =
      !given.optimizerImpl && options.optimizer == Optimizer::AdamW;
  options.optimizerImpl = given.optimizerImpl.value_or(
      options.optimizerImplFromStack ? stack.optimizerImpl
                                     : OptimizerImpl::Fused);
  options.fusedQkv = given.fusedQkv.value_or(stack.fusedQkv);
  options.loraDropoutShared = given.loraDropoutShared.value_or(
      stack.loraDropoutShared && options.loraDropout > 0);
  options.createdInFirstStep =
      given.createdInFirstStep.value_or(stack.createdInFirstStep);
  bool huggingFace = stack.huggingFaceModel;
  options.trainingKvCache = given.trainingKvCache.value_or(
      huggingFace && options.model.family == Family::Gpt2);
  options.eagerGeluNew =
      given.eagerGeluNew.value_or(huggingFace && options.model.geluNew);
  if (huggingFace && !given.attentionGiven && options.activationType == "f32" &&
      options.model.kvHeads < options.model.heads)
    options.unfusedAttention = true;
}
