//===- GeneratorChoices.h - Names of generator choices ----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The names memplan-gen and memplan-fit accept for the choices of a
// generated graph (training stacks, LoRA targets) and the one way both look
// a name up, with one error message naming every choice.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_GENERATORCHOICES_H
#define MEMPLAN_TOOLS_MEMPLANGEN_GENERATORCHOICES_H

#include "TransformerGenerator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <optional>
#include <string>
#include <utility>

namespace memplan::gen {

/// The value named `value` among `choices`; none, with `error` naming the
/// choices ("unknown KIND 'VALUE'; expected a, b or c"), if there is none
/// (an earlier error is kept: the first bad option is reported).
template <typename T>
std::optional<T>
parseChoice(llvm::StringRef kind, llvm::StringRef value,
            llvm::ArrayRef<std::pair<llvm::StringRef, T>> choices,
            std::string &error) {
  for (const auto &[name, choice] : choices)
    if (name == value)
      return choice;
  if (error.empty()) {
    error = ("unknown " + kind + " '" + value + "'; expected ").str();
    for (size_t i = 0; i < choices.size(); ++i)
      error += (i == 0                    ? ""
                : i + 1 == choices.size() ? " or "
                                          : ", ") +
               choices[i].first.str();
  }
  return std::nullopt;
}

/// The name `choices` give `value`: the inverse of parseChoice, for
/// writing a choice back (a table, JSON) in the spelling it is read in.
template <typename T>
llvm::StringRef
choiceName(llvm::ArrayRef<std::pair<llvm::StringRef, T>> choices, T value) {
  for (const auto &[name, choice] : choices)
    if (choice == value)
      return name;
  llvm_unreachable("every choice has a name");
}

/// What a training stack runs: the options a --stack preset sets.
struct StackPreset {
  bool modelDropout;             ///< the model's own dropout (else none)
  llvm::StringRef loss;          ///< --loss
  llvm::StringRef gradBuffer;    ///< --grad-buffer; "" : "weight" when
                                 ///< accumulating micro-batches, else "none"
  llvm::StringRef rmsNorm;       ///< --rms-norm: "eager" for a stack that runs
                                 ///< Hugging Face's models as written
  llvm::StringRef optimizerImpl; ///< --optimizer-impl, with AdamW
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
  /// its gelu_new is eager PyTorch code (applyHuggingFaceModel).
  bool huggingFaceModel = false;
  /// The optimizer is torch.optim's and the gradients autograd's .grad,
  /// which are made in the first step, not before it
  /// (GeneratorOptions::createdInFirstStep).
  bool createdInFirstStep = false;
};

/// The presets, documented in docs/generator.md. Every stack here runs
/// fused (SDPA/FlashAttention) attention and AdamW, memplan-gen's defaults;
/// a preset's --optimizer-impl applies when the optimizer is AdamW.
inline const std::pair<llvm::StringRef, StackPreset> kStacks[] = {
    // memplan's own step: no dropout, fused cross-entropy, fused norms.
    {"memplan", {false, "fused", "", "fused", "fused"}},
    // PyTorch eager + Hugging Face Trainer: the model's dropout, the loss on
    // f32 logits, gradients accumulated in .grad (the weights' type), the
    // model's RMSNorm as written (eager, in f32), torch.optim.AdamW's
    // default multi-tensor step, whose states it makes in the first step.
    {"hf-trainer",
     {true, "f32", "", "eager", "foreach", false, false, false, true, true}},
    // DeepSpeed ZeRO-0 with bf16: its optimizer keeps an f32 gradient for
    // every weight, into which each backward pass accumulates; the model is
    // Hugging Face's, so its RMSNorm is eager; its FusedAdam.
    {"deepspeed-zero0",
     {true, "f32", "f32", "eager", "fused", false, false, false, true}},
    // Megatron-LM: the f32 main_grad buffer, the loss on f32 logits, fused
    // (Apex or Transformer Engine) RMSNorm, Apex's FusedAdam.
    {"megatron", {true, "f32", "f32", "fused", "fused"}},
    // LitGPT's fine-tuning scripts (bf16-true): no dropout in its models,
    // its cross-entropy on bf16 logits, its RMSNorm in f32, torch's AdamW
    // (states made in the first step), its attention (a fused QKV
    // projection, SDPA) and its fused QKV adapter's one LoRA dropout.
    {"litgpt",
     {false, "fused", "", "eager", "foreach", true, true, true, false, true}},
};

/// Why the stack `name` cannot run `model` here ("" when it can): a stack
/// whose code is modelled for the LLaMA family only.
inline std::string stackModelMismatch(llvm::StringRef name,
                                      const StackPreset &stack,
                                      const ModelConfig &model) {
  if (!stack.llamaOnly || model.family == Family::Llama)
    return "";
  return ("--stack " + name + " runs the LLaMA family's models here, not " +
          model.name)
      .str();
}

/// What a stack running Hugging Face's model code as written
/// (StackPreset::huggingFaceModel) does to `options`, for memplan-gen and
/// memplan-fit alike (measured on a GPU, docs/memory-model.md, "The GPU
/// check"): GPT-2 fills its KV cache in training (trainingKvCache); a
/// gelu_new is eager PyTorch code (eagerGeluNew); and, unless the attention
/// was `attentionGiven`, an f32 step with grouped key/value heads runs
/// PyTorch's math kernel, which materialises the scores and probabilities
/// as `--attention unfused` does: transformers asks SDPA for grouped-query
/// attention (enable_gqa), which among the fused kernels only
/// FlashAttention takes, and it takes no f32 (TinyLlama's f32 step peaks at
/// the same byte with SDPA as with eager attention, and fails with "No
/// available kernel" when the math kernel is disabled).
inline void applyHuggingFaceModel(GeneratorOptions &options,
                                  bool attentionGiven) {
  options.trainingKvCache = options.model.family == Family::Gpt2;
  options.eagerGeluNew = options.model.geluNew;
  if (!attentionGiven && options.activationType == "f32" &&
      options.model.kvHeads < options.model.heads)
    options.unfusedAttention = true;
}

/// The names of the generator's choices, one table each, for every tool
/// that takes them on its command line.
inline const std::pair<llvm::StringRef, Mode> kModes[] = {
    {"prefill", Mode::Prefill},
    {"decode", Mode::Decode},
    {"train", Mode::Train}};
/// --attention: whether it is unfused.
inline const std::pair<llvm::StringRef, bool> kAttentionKinds[] = {
    {"fused", false}, {"unfused", true}};
inline const std::pair<llvm::StringRef, Checkpointing> kCheckpointings[] = {
    {"none", Checkpointing::None},
    {"full", Checkpointing::Full},
    {"selective", Checkpointing::Selective}};
/// --rms-norm: whether it is eager.
inline const std::pair<llvm::StringRef, bool> kRmsNormKinds[] = {
    {"fused", false}, {"eager", true}};
inline const std::pair<llvm::StringRef, Optimizer> kOptimizers[] = {
    {"adamw", Optimizer::AdamW},
    {"sgd", Optimizer::Sgd},
    {"adafactor", Optimizer::Adafactor},
    {"adamw-8bit", Optimizer::AdamW8Bit}};
inline const std::pair<llvm::StringRef, OptimizerImpl> kOptimizerImpls[] = {
    {"fused", OptimizerImpl::Fused},
    {"foreach", OptimizerImpl::Foreach},
    {"for-loop", OptimizerImpl::ForLoop}};

/// --lora-targets' names of the projections.
inline const std::pair<llvm::StringRef, unsigned> kLoraTargets[] = {
    {"q", LoraQuery},   {"k", LoraKey}, {"v", LoraValue},  {"o", LoraOutput},
    {"gate", LoraGate}, {"up", LoraUp}, {"down", LoraDown}};

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_GENERATORCHOICES_H
