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
#include <vector>

namespace memplan::gen {

/// GPT-2 (learned positions, LayerNorm, GELU MLP, tied LM head); the
/// LLaMA family of decoders (LLaMA, Mistral, Qwen2 and 3, Gemma 1-3, Granite:
/// RMSNorm,
/// rotary positions, gated MLP, grouped-query attention); BERT (an encoder).
enum class Family { Gpt2, Llama, Bert };

/// The MLP's activation (in the LLaMA family, the gate's).
enum class Activation { Gelu, Silu };

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
  Activation activation;
  /// Width of one attention head; 0: hidden / heads. Gemma's heads are
  /// wider (heads x headDim != hidden).
  int64_t headDim = 0;
  /// LLaMA family: the LM head is the token embedding (Gemma, small Qwen2
  /// models). GPT-2 and BERT always tie theirs.
  bool tiedEmbeddings = false;
  /// LLaMA family: biases on the query/key/value projections (Qwen2), on
  /// the attention output, on the MLP's three projections.
  bool qkvBias = false;
  bool outputBias = false;
  bool mlpBias = false;
  /// LLaMA family: the embeddings are multiplied by a scalar, a tensor of
  /// their own (Gemma's sqrt(hidden), Granite's embedding_multiplier).
  bool scaledEmbeddings = false;
  /// LLaMA family: the attention's and the MLP's outputs multiplied by a
  /// scalar before each residual add, and the logits divided by one, each a
  /// tensor of its own (Granite's residual_multiplier and logits_scaling).
  bool scaledResiduals = false;
  bool scaledLogits = false;
  /// LLaMA family: each head's query and key RMS-normalised over the head's
  /// width, with a weight of that width, before the rotary embedding
  /// (Qwen3's q_norm and k_norm).
  bool qkNorm = false;
  /// LLaMA family: q, k and v are views of one fused projection's output
  /// (Phi-3's qkv_proj, sliced in PyTorch), so a fused attention's backward,
  /// which keeps v as given, keeps all of that output alive, q's and k's
  /// parts too. The graph's three projections stand for the fused one
  /// (the same bytes); the MLP's fused gate_up_proj needs nothing of the
  /// kind (its two views are kept anyway, as the separate gate and up).
  bool qkvViews = false;
  /// LLaMA family: RMSNorms on the attention's and the MLP's outputs too,
  /// before each residual add (Gemma 2 and 3's post-attention and
  /// post-feedforward norms).
  bool sandwichNorms = false;
  /// LLaMA family: the attention scores and the logits through
  /// cap x tanh(x / cap) (Gemma 2's soft-capping); 0: none.
  double attentionSoftcap = 0;
  double logitSoftcap = 0;
  /// LLaMA family: the layers that attend to the last `slidingWindow` tokens
  /// only and whose decode caches keep only those, as transformers' hybrid
  /// cache does (Gemma 2 and 3); empty: every layer attends to every token.
  /// Layers past the config's count (--layers above it) are global.
  int64_t slidingWindow = 0;
  std::vector<bool> slidingLayers;
  bool isSliding(int64_t layer) const {
    return layer >= 0 && size_t(layer) < slidingLayers.size() &&
           slidingLayers[size_t(layer)];
  }
  /// The GELU is Hugging Face's gelu_new (NewGELUActivation: the tanh
  /// approximation written as eager PyTorch ops), as GPT-2's configs name
  /// it; GeneratorOptions::eagerGeluNew builds it op by op.
  bool geluNew = false;
  /// BERT: rows of the token-type embedding.
  int64_t typeVocab = 2;
  /// A Hugging Face config's `dtype` (or `torch_dtype`) as written, the
  /// precision its checkpoint stores ("bfloat16", "float32"); empty where it
  /// names none. The graph's dtypes are the tool's options, not this.
  std::string storedDtype;

  /// The dropout probability a stack preset trains with: a config's own
  /// (resid_pdrop, hidden_dropout_prob, attention_dropout); none: the
  /// family's default (GPT-2 and BERT 0.1, the LLaMA family 0).
  std::optional<double> dropout;

  int64_t attentionHeadDim() const {
    return headDim ? headDim : hidden / heads;
  }
  double trainingDropout() const {
    return dropout.value_or(family == Family::Llama ? 0.0 : 0.1);
  }
};

/// gpt2-small, gpt2-medium, gpt2-large, gpt2-xl, llama-7b, llama-13b,
/// llama-70b, bert-base, bert-large.
std::optional<ModelConfig> lookupModel(llvm::StringRef name);
std::string modelNames();

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_MODELCONFIG_H
