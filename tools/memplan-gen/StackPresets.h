//===- StackPresets.h - How training stacks run a step ----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The --stack presets of memplan-gen and memplan-fit: what each training
// stack runs (its loss, norms, optimizer step, gradient buffers, attention
// and when it makes its states), and the one place where a preset and the
// choices a command line made explicitly become GeneratorOptions, so that
// both tools read a stack the same way. Documented in docs/generator.md,
// "Training stacks".
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_STACKPRESETS_H
#define MEMPLAN_TOOLS_MEMPLANGEN_STACKPRESETS_H

#include "TransformerGenerator.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>

namespace memplan::gen {

/// What a training stack runs: the options a --stack preset sets.
struct StackPreset {
  bool modelDropout; ///< the model's own dropout (else none)
  Loss loss;         ///< --loss
  /// --grad-buffer; none: the weights' type when accumulating micro-batches,
  /// else no buffer.
  std::optional<GradientBuffer> gradientBuffer;
  bool eagerRmsNorm;           ///< --rms-norm eager: Hugging Face's models as
                               ///< written, LitGPT's RMSNorm
  OptimizerImpl optimizerImpl; ///< --optimizer-impl, with AdamW
  /// --fused-qkv (LitGPT's attention), and --lora-dropout-shared where
  /// there is a LoRA dropout.
  bool fusedQkv = false;
  bool loraDropoutShared = false;
  /// The stack runs the LLaMA family's models only (of memplan-gen's).
  bool llamaOnly = false;
  /// The stack runs Hugging Face's model code as it is written, which
  /// decides two things measured on a GPU (docs/memory-model.md, "The GPU
  /// check"): its models keep a KV cache in training (use_cache=True, the
  /// configs' default), its SDPA call passes grouped key/value heads as
  /// they are (enable_gqa), which only the math kernel takes in f32, and
  /// its gelu_new is eager PyTorch code (applyStack).
  bool huggingFaceModel = false;
  /// The optimizer is torch.optim's and the gradients autograd's .grad,
  /// which are made in the first step, not before it
  /// (GeneratorOptions::createdInFirstStep).
  bool createdInFirstStep = false;
};

/// The presets, documented in docs/generator.md. Every stack here runs
/// fused (SDPA/FlashAttention) attention and AdamW, memplan-gen's defaults;
/// a preset's --optimizer-impl applies when the optimizer is AdamW. The
/// first, memplan's own step, is every option's default.
inline const std::pair<llvm::StringRef, StackPreset> kStacks[] = {
    // memplan's own step: no dropout, fused cross-entropy, fused norms.
    {"memplan",
     {false, Loss::Fused, std::nullopt, false, OptimizerImpl::Fused}},
    // PyTorch eager + Hugging Face Trainer: the model's dropout, the loss on
    // f32 logits, gradients accumulated in .grad (the weights' type), the
    // model's RMSNorm as written (eager, in f32), and the Trainer's default
    // optimizer, torch.optim.AdamW's fused step (adamw_torch_fused, its
    // default with PyTorch 2.8 or later; adamw_torch's foreach step before),
    // whose states it makes in the first step.
    {"hf-trainer",
     {true, Loss::F32, std::nullopt, true, OptimizerImpl::Fused, false, false,
      false, true, true}},
    // DeepSpeed ZeRO-0 with bf16: its optimizer keeps an f32 gradient for
    // every weight, into which each backward pass accumulates; the model is
    // Hugging Face's, so its RMSNorm is eager; its FusedAdam.
    {"deepspeed-zero0",
     {true, Loss::F32, GradientBuffer::F32, true, OptimizerImpl::Fused, false,
      false, false, true}},
    // Megatron-LM: the f32 main_grad buffer, the loss on f32 logits, fused
    // (Apex or Transformer Engine) RMSNorm, Apex's FusedAdam.
    {"megatron",
     {true, Loss::F32, GradientBuffer::F32, false, OptimizerImpl::Fused}},
    // LitGPT's fine-tuning scripts (bf16-true): no dropout in its models,
    // its cross-entropy on bf16 logits, its RMSNorm in f32, torch's AdamW
    // (states made in the first step), its attention (a fused QKV
    // projection, SDPA) and its fused QKV adapter's one LoRA dropout.
    {"litgpt",
     {false, Loss::Fused, std::nullopt, true, OptimizerImpl::Foreach, true,
      true, true, false, true}},
};

/// Why the stack `name` cannot run `model` here ("" when it can): a stack
/// whose code is modelled for the LLaMA family only.
std::string stackModelMismatch(llvm::StringRef name, const StackPreset &stack,
                               const ModelConfig &model);

/// The choices of a preset that a command line made itself (each one given
/// wins over the stack's), and whether it chose the attention.
struct StackOverrides {
  std::optional<double> dropout;
  std::optional<Loss> loss;
  std::optional<GradientBuffer> gradientBuffer;
  std::optional<bool> eagerRmsNorm;
  std::optional<OptimizerImpl> optimizerImpl;
  std::optional<bool> fusedQkv;
  std::optional<bool> loraDropoutShared;
  std::optional<bool> createdInFirstStep;
  std::optional<bool> trainingKvCache;
  std::optional<bool> eagerGeluNew;
  bool attentionGiven = false;
};

/// Sets in `options` what `stack` runs where `given` says nothing: the
/// loss, the gradient buffer (by the stack, or the weights' type when
/// `options.microBatches` accumulate), the RMSNorm (the LLaMA family's only:
/// the others have none), AdamW's step (marked
/// optimizerImplFromStack where it is the stack's), the model's dropout
/// (`options.model.trainingDropout()`), LitGPT's fused QKV and shared
/// LoRA dropout (where `options.loraDropout` is above 0), when the
/// optimizer's states are made, and, for a stack running Hugging Face's
/// model code as written: GPT-2 fills its KV cache in training
/// (trainingKvCache); a gelu_new is eager PyTorch code (eagerGeluNew); and,
/// unless the attention was given, an f32 step with grouped key/value heads
/// runs PyTorch's math kernel, which materialises the scores and
/// probabilities as `--attention unfused` does: transformers asks SDPA for
/// grouped-query attention (enable_gqa), which among the fused kernels only
/// FlashAttention takes, and it takes no f32 (TinyLlama's f32 step peaks at
/// the same byte with SDPA as with eager attention, and fails with "No
/// available kernel" when the math kernel is disabled; docs/memory-model.md,
/// "The GPU check"). `options` must have its model, activation type,
/// optimizer, micro-batches and LoRA dropout set.
void applyStack(GeneratorOptions &options, const StackPreset &stack,
                const StackOverrides &given);

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_STACKPRESETS_H
