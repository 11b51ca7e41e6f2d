//===- ModelConfig.cpp - Shapes of real transformer models ----------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// GPT-2 (Radford et al. 2019; Hugging Face configs), LLaMA (Touvron et al.
// 2023; LLaMA-2 70B with 8 key/value heads), BERT (Devlin et al. 2019).
//
//===----------------------------------------------------------------------===//

#include "ModelConfig.h"

using namespace memplan::gen;

/// A built-in shape: the fields every model sets, the others at their
/// defaults. (A function rather than aggregate initialisers, which would
/// leave the later fields out of every line.)
static ModelConfig shape(const char *name, Family family, int64_t layers,
                         int64_t hidden, int64_t heads, int64_t kvHeads,
                         int64_t ffn, int64_t vocab, int64_t maxPositions,
                         double normEpsilon, Activation activation) {
  ModelConfig m;
  m.name = name;
  m.family = family;
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.kvHeads = kvHeads;
  m.ffn = ffn;
  m.vocab = vocab;
  m.maxPositions = maxPositions;
  m.normEpsilon = normEpsilon;
  m.activation = activation;
  // Hugging Face's GPT-2 configs name gelu_new.
  m.geluNew = family == Family::Gpt2;
  return m;
}

static const ModelConfig kModels[] = {
    shape("gpt2-small", Family::Gpt2, 12, 768, 12, 12, 3072, 50257, 1024, 1e-5,
          Activation::Gelu),
    shape("gpt2-medium", Family::Gpt2, 24, 1024, 16, 16, 4096, 50257, 1024,
          1e-5, Activation::Gelu),
    shape("gpt2-large", Family::Gpt2, 36, 1280, 20, 20, 5120, 50257, 1024, 1e-5,
          Activation::Gelu),
    shape("gpt2-xl", Family::Gpt2, 48, 1600, 25, 25, 6400, 50257, 1024, 1e-5,
          Activation::Gelu),
    shape("llama-7b", Family::Llama, 32, 4096, 32, 32, 11008, 32000, 4096, 1e-6,
          Activation::Silu),
    shape("llama-13b", Family::Llama, 40, 5120, 40, 40, 13824, 32000, 4096,
          1e-6, Activation::Silu),
    shape("llama-70b", Family::Llama, 80, 8192, 64, 8, 28672, 32000, 4096, 1e-5,
          Activation::Silu),
    shape("bert-base", Family::Bert, 12, 768, 12, 12, 3072, 30522, 512, 1e-12,
          Activation::Gelu),
    shape("bert-large", Family::Bert, 24, 1024, 16, 16, 4096, 30522, 512, 1e-12,
          Activation::Gelu),
};

std::optional<ModelConfig> memplan::gen::lookupModel(llvm::StringRef name) {
  for (const ModelConfig &model : kModels)
    if (model.name == name)
      return model;
  return std::nullopt;
}

std::string memplan::gen::modelNames() {
  std::string names;
  for (const ModelConfig &model : kModels)
    names += (names.empty() ? "" : ", ") + model.name;
  return names;
}
