//===- StackOptions.h - The command line of a --stack preset ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The options memplan-gen and memplan-fit both take for a training stack
// (--stack and the choices of its preset a command line may make itself),
// declared once with one description each. A tool constructs one, as a
// static, in its option category; `given` reads what was given into
// StackOverrides for applyStack (StackPresets.h). Header-only: cl::opt
// registers with the tool that constructs it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_STACKOPTIONS_H
#define MEMPLAN_TOOLS_MEMPLANGEN_STACKOPTIONS_H

#include "GeneratorChoices.h"
#include "StackPresets.h"

#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>

namespace memplan::gen {

struct StackOptions {
  explicit StackOptions(llvm::cl::OptionCategory &category)
      : stack(
            "stack",
            llvm::cl::desc("Train: the training stack whose choices are the "
                           "defaults (memplan, the default, hf-trainer, "
                           "deepspeed-zero0, megatron or litgpt; see "
                           "docs/generator.md); options given explicitly win"),
            llvm::cl::init("memplan"), llvm::cl::cat(category)),
        rmsNorm("rms-norm",
                llvm::cl::desc(
                    "LLaMA family: fused (one kernel keeps the norm's "
                    "input) or eager (as Hugging Face's and LitGPT's "
                    "PyTorch code: the input upcast to f32, that copy kept "
                    "for the backward pass); default: the stack's"),
                llvm::cl::cat(category)),
        optimizerImpl(
            "optimizer-impl",
            llvm::cl::desc(
                "Train, AdamW: fused (no temporaries, as Apex, DeepSpeed "
                "or fused=True), foreach (PyTorch's default on CUDA: an "
                "f32 denominator for every weight at once) or for-loop "
                "(PyTorch's single-tensor step: one weight's denominator at "
                "a time); default: the stack's"),
            llvm::cl::cat(category)),
        fusedQkv("fused-qkv",
                 llvm::cl::desc(
                     "Train, LLaMA family, fused attention: q, k and v as "
                     "LitGPT computes them, from one projection whose "
                     "output the value heads are a view of (the "
                     "attention's backward keeps all of it, not v alone), "
                     "or, with grouped key/value heads, copied out to "
                     "every query head; default: the stack's"),
                 llvm::cl::cat(category)),
        loraDropoutShared(
            "lora-dropout-shared",
            llvm::cl::desc("With --lora-dropout: drop an input once for "
                           "every adapted projection that reads it "
                           "(LitGPT's fused QKV adapter), not once per "
                           "projection (PEFT); default: the stack's"),
            llvm::cl::cat(category)),
        createdInFirstStep(
            "created-in-first-step",
            llvm::cl::desc(
                "Train, without DeepSpeed's ZeRO: the optimizer's states "
                "and the gradient buffers in the weights' type (or FSDP's "
                "gradient shard) are made in the first step, as torch.optim "
                "(all states before its first update), autograd (.grad from "
                "the first gradient) and FSDP make them, not before the "
                "step; the memory report's caching-allocator model then "
                "allocates them there (default: the stack's, on with "
                "hf-trainer and litgpt)"),
            llvm::cl::cat(category)) {}

  /// The preset --stack names; none, with `error` set, for an unknown one.
  std::optional<StackPreset> preset(std::string &error) const {
    return parseChoice<StackPreset>("stack", stack, kStacks, error);
  }
  /// Whether --stack was given (memplan's own preset applies without it).
  bool stackGiven() const { return stack.getNumOccurrences() > 0; }

  /// The choices given explicitly; an unknown name sets `error` (the first
  /// one only, as parseChoice does).
  StackOverrides given(std::string &error) const {
    StackOverrides overrides;
    if (rmsNorm.getNumOccurrences())
      overrides.eagerRmsNorm =
          parseChoice<bool>("RMSNorm", rmsNorm, kRmsNormKinds, error);
    if (optimizerImpl.getNumOccurrences())
      overrides.optimizerImpl = parseChoice<OptimizerImpl>(
          "optimizer implementation", optimizerImpl, kOptimizerImpls, error);
    if (fusedQkv.getNumOccurrences())
      overrides.fusedQkv = fusedQkv;
    if (loraDropoutShared.getNumOccurrences())
      overrides.loraDropoutShared = loraDropoutShared;
    if (createdInFirstStep.getNumOccurrences())
      overrides.createdInFirstStep = createdInFirstStep;
    return overrides;
  }

  llvm::cl::opt<std::string> stack;
  llvm::cl::opt<std::string> rmsNorm;
  llvm::cl::opt<std::string> optimizerImpl;
  llvm::cl::opt<bool> fusedQkv;
  llvm::cl::opt<bool> loraDropoutShared;
  llvm::cl::opt<bool> createdInFirstStep;
};

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_STACKOPTIONS_H
