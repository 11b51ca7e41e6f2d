//===- ModelConfig.h - Shapes of real transformer models --------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_MODELCONFIG_H
#define MEMPLAN_TOOLS_MEMPLANGEN_MODELCONFIG_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace memplan::gen {

enum class Family { Gpt2, Llama, Bert };

/// The published shapes of a model.
struct ModelConfig {
  std::string name;
  Family family;
  int64_t layers;
  int64_t hidden;
  int64_t heads;
  int64_t kvHeads; ///< == heads without grouped-query attention
  int64_t ffn;
  int64_t vocab;
  int64_t maxPositions; ///< context length (learned position tables' size)
  double normEpsilon;
};

/// gpt2-small, gpt2-medium, gpt2-large, gpt2-xl, llama-7b, llama-13b,
/// llama-70b, bert-base, bert-large.
std::optional<ModelConfig> lookupModel(llvm::StringRef name);
std::string modelNames();

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_MODELCONFIG_H
