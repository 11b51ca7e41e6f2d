//===- HfConfig.h - Models from a Hugging Face config.json ------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_HFCONFIG_H
#define MEMPLAN_TOOLS_MEMPLANGEN_HFCONFIG_H

#include "ModelConfig.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace memplan::gen {

/// A model read from a Hugging Face `config.json`, and the fields the
/// reader did not know (ignored; the tool warns about each).
struct HfConfig {
  ModelConfig model;
  std::vector<std::string> unknownFields;
};

/// The model_type values read: llama, mistral, qwen2, gemma (the LLaMA
/// family), gpt2, bert.
std::string hfModelTypes();

/// Reads the text of a config.json as the model named `name`. The shape
/// fields are required; the others default as the model type's
/// configuration class in transformers does. A field whose value would
/// change the graph in a way memplan-gen does not build (experts, cross
/// attention, pre-quantized weights, an activation it has no op for) is an
/// error naming it; fields that do not change memory (token ids, rope
/// parameters, dropout probabilities) are accepted.
llvm::Expected<HfConfig> parseHfConfig(llvm::StringRef text,
                                       llvm::StringRef name);

/// Reads the config.json at `path` ("-": standard input), bounded like the
/// tools' other inputs; the model is named after the file's stem. Errors
/// start with the path.
llvm::Expected<HfConfig> readHfConfig(llvm::StringRef path);

/// The model a tool's command line names: a built-in model `name` or the
/// config.json at `hfConfigPath`, exactly one of them. The fields of a
/// config that are not used are warned about on `warnings`, each as
/// "TOOL: warning: PATH: ignoring 'FIELD', ...".
llvm::Expected<ModelConfig> selectModel(llvm::StringRef name,
                                        llvm::StringRef hfConfigPath,
                                        llvm::StringRef tool,
                                        llvm::raw_ostream &warnings);

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_HFCONFIG_H
