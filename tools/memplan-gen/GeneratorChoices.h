//===- GeneratorChoices.h - Names of generator choices ----------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The names memplan-gen and memplan-fit accept for the choices of a
// generated graph (modes, attention, checkpointing, optimizers, LoRA
// targets; the training stacks are in StackPresets.h) and the one way both
// look a name up, with one error message naming every choice.
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

inline const std::pair<llvm::StringRef, Loss> kLosses[] = {
    {"fused", Loss::Fused}, {"f32", Loss::F32}};
inline const std::pair<llvm::StringRef, GradientBuffer> kGradientBuffers[] = {
    {"none", GradientBuffer::None},
    {"weight", GradientBuffer::WeightType},
    {"f32", GradientBuffer::F32}};

/// --lora-targets' names of the projections.
inline const std::pair<llvm::StringRef, unsigned> kLoraTargets[] = {
    {"q", LoraQuery},   {"k", LoraKey}, {"v", LoraValue},  {"o", LoraOutput},
    {"gate", LoraGate}, {"up", LoraUp}, {"down", LoraDown}};

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_GENERATORCHOICES_H
