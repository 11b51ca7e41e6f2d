//===- HfConfigTest.cpp - Reading Hugging Face configs --------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HfConfig.h"

#include "gtest/gtest.h"

using namespace memplan::gen;

namespace {

/// The config, which must read.
ModelConfig read(llvm::StringRef json) {
  llvm::Expected<HfConfig> config = parseHfConfig(json, "m");
  if (!config) {
    ADD_FAILURE() << llvm::toString(config.takeError());
    return {};
  }
  return config->model;
}

/// The error reading the config, which must fail.
std::string errorOf(llvm::StringRef json) {
  llvm::Expected<HfConfig> config = parseHfConfig(json, "m");
  if (config) {
    ADD_FAILURE() << "read: " << json.str();
    return "";
  }
  return llvm::toString(config.takeError());
}

constexpr const char *kLlamaShape =
    R"("hidden_size": 64, "intermediate_size": 160,
       "num_attention_heads": 8, "num_hidden_layers": 3,
       "vocab_size": 100)";

std::string decoder(const std::string &type, const std::string &extra = "") {
  return "{\"model_type\": \"" + type + "\", " + kLlamaShape +
         (extra.empty() ? "" : ", " + extra) + "}";
}

TEST(HfConfigTest, LlamaDefaultsAsLlamaConfig) {
  ModelConfig m = read(decoder("llama"));
  EXPECT_EQ(m.family, Family::Llama);
  EXPECT_EQ(m.hidden, 64);
  EXPECT_EQ(m.ffn, 160);
  EXPECT_EQ(m.heads, 8);
  EXPECT_EQ(m.kvHeads, 8); // num_key_value_heads defaults to the heads
  EXPECT_EQ(m.layers, 3);
  EXPECT_EQ(m.vocab, 100);
  EXPECT_EQ(m.attentionHeadDim(), 8);
  EXPECT_EQ(m.maxPositions, 2048);
  EXPECT_DOUBLE_EQ(m.normEpsilon, 1e-6);
  EXPECT_EQ(m.activation, Activation::Silu);
  EXPECT_FALSE(m.tiedEmbeddings);
  EXPECT_FALSE(m.qkvBias || m.outputBias || m.mlpBias || m.scaledEmbeddings);
}

TEST(HfConfigTest, LlamaBiasFlags) {
  ModelConfig m = read(decoder("llama", R"("attention_bias": true)"));
  EXPECT_TRUE(m.qkvBias && m.outputBias);
  EXPECT_FALSE(m.mlpBias);
  m = read(decoder("llama", R"("mlp_bias": true)"));
  EXPECT_TRUE(m.mlpBias);
  EXPECT_FALSE(m.qkvBias || m.outputBias);
}

TEST(HfConfigTest, FamilyDifferences) {
  // Qwen2 always has query/key/value biases, never an output bias.
  ModelConfig qwen = read(decoder("qwen2", R"("tie_word_embeddings": true)"));
  EXPECT_TRUE(qwen.qkvBias);
  EXPECT_FALSE(qwen.outputBias);
  EXPECT_TRUE(qwen.tiedEmbeddings);
  EXPECT_EQ(qwen.maxPositions, 32768);
  // Gemma ties its head, scales its embeddings, gates with GELU; heads may
  // be wider than hidden / heads.
  ModelConfig gemma = read(decoder("gemma", R"("head_dim": 32)"));
  EXPECT_TRUE(gemma.tiedEmbeddings && gemma.scaledEmbeddings);
  EXPECT_EQ(gemma.activation, Activation::Gelu);
  EXPECT_EQ(gemma.attentionHeadDim(), 32);
  // Its activation is hidden_activation; the legacy hidden_act is not read.
  gemma = read(decoder("gemma", R"("hidden_act": "relu",
                                   "hidden_activation": "silu")"));
  EXPECT_EQ(gemma.activation, Activation::Silu);
  // Qwen3 normalises each head's query and key; its heads are 128 wide
  // unless head_dim says otherwise (Qwen3Config's default, not hidden /
  // heads); attention_bias puts biases on q, k, v and o, never on the MLP.
  ModelConfig qwen3 = read(decoder("qwen3"));
  EXPECT_TRUE(qwen3.qkNorm);
  EXPECT_EQ(qwen3.attentionHeadDim(), 128);
  EXPECT_FALSE(qwen3.qkvBias || qwen3.outputBias || qwen3.mlpBias ||
               qwen3.tiedEmbeddings);
  EXPECT_EQ(qwen3.maxPositions, 32768);
  qwen3 = read(decoder("qwen3", R"("head_dim": 16, "attention_bias": true,
                                   "mlp_bias": true, "layer_types":
                                   ["full_attention", "sliding_attention"])"));
  EXPECT_EQ(qwen3.attentionHeadDim(), 16);
  EXPECT_TRUE(qwen3.qkvBias && qwen3.outputBias);
  EXPECT_FALSE(qwen3.mlpBias);
  // No other family normalises the heads.
  for (const char *type : {"llama", "mistral", "qwen2", "gemma"})
    EXPECT_FALSE(read(decoder(type)).qkNorm) << type;
  ModelConfig mistral = read(decoder("mistral", R"("num_key_value_heads": 2,
                                 "sliding_window": 4096)"));
  EXPECT_EQ(mistral.kvHeads, 2);
  EXPECT_EQ(mistral.maxPositions, 4096 * 32);
}

TEST(HfConfigTest, GemmaTwoAndThree) {
  // Gemma 2: norms after the attention and the MLP too, soft-capped scores
  // (50) and logits (30), heads of 256, every even layer local with a
  // window of 4096; a null cap turns capping off.
  ModelConfig gemma2 = read(decoder("gemma2"));
  EXPECT_TRUE(gemma2.sandwichNorms && gemma2.tiedEmbeddings &&
              gemma2.scaledEmbeddings);
  EXPECT_FALSE(gemma2.qkNorm);
  EXPECT_EQ(gemma2.attentionHeadDim(), 256);
  EXPECT_DOUBLE_EQ(gemma2.attentionSoftcap, 50);
  EXPECT_DOUBLE_EQ(gemma2.logitSoftcap, 30);
  EXPECT_EQ(gemma2.slidingWindow, 4096);
  EXPECT_EQ(gemma2.slidingLayers, (std::vector<bool>{true, false, true}));
  gemma2 = read(decoder("gemma2", R"("attn_logit_softcapping": null,
      "final_logit_softcapping": 10, "sliding_window": 128)"));
  EXPECT_DOUBLE_EQ(gemma2.attentionSoftcap, 0);
  EXPECT_DOUBLE_EQ(gemma2.logitSoftcap, 10);
  EXPECT_EQ(gemma2.slidingWindow, 128);
  // A null window: every layer global.
  gemma2 = read(decoder("gemma2", R"("sliding_window": null)"));
  EXPECT_TRUE(gemma2.slidingLayers.empty());
  EXPECT_FALSE(gemma2.isSliding(0));
  // Gemma 3: no capping, query/key norms, five local layers of six (or
  // sliding_window_pattern's), or what layer_types lists.
  ModelConfig gemma3 =
      read(decoder("gemma3_text", R"("num_hidden_layers": 7)"));
  EXPECT_TRUE(gemma3.sandwichNorms && gemma3.qkNorm);
  EXPECT_DOUBLE_EQ(gemma3.attentionSoftcap + gemma3.logitSoftcap, 0);
  EXPECT_EQ(gemma3.slidingLayers,
            (std::vector<bool>{true, true, true, true, true, false, true}));
  gemma3 = read(decoder("gemma3_text", R"("sliding_window_pattern": 2)"));
  EXPECT_EQ(gemma3.slidingLayers, (std::vector<bool>{true, false, true}));
  gemma3 = read(decoder("gemma3_text", R"("layer_types": ["full_attention",
      "sliding_attention", "full_attention"])"));
  EXPECT_EQ(gemma3.slidingLayers, (std::vector<bool>{false, true, false}));
  // Other families keep every token in every layer's cache.
  for (const char *type : {"llama", "mistral", "qwen2", "qwen3", "gemma"}) {
    ModelConfig m = read(decoder(type, R"("sliding_window": 16)"));
    EXPECT_FALSE(m.sandwichNorms || m.isSliding(0)) << type;
  }
}

TEST(HfConfigTest, GraniteMultipliers) {
  // Granite scales the embeddings, both residual branches and the logits
  // whatever its multipliers (1.0 by default), and reads LLaMA's bias flags.
  ModelConfig granite = read(decoder("granite"));
  EXPECT_TRUE(granite.scaledEmbeddings && granite.scaledResiduals &&
              granite.scaledLogits);
  EXPECT_FALSE(granite.tiedEmbeddings || granite.qkvBias || granite.mlpBias);
  EXPECT_EQ(granite.maxPositions, 2048);
  granite = read(decoder("granite", R"("embedding_multiplier": 12.0,
      "residual_multiplier": 0.22, "attention_multiplier": 0.0078125,
      "logits_scaling": 16.0, "attention_bias": true, "mlp_bias": true,
      "tie_word_embeddings": true)"));
  EXPECT_TRUE(granite.qkvBias && granite.outputBias && granite.mlpBias &&
              granite.tiedEmbeddings);
  for (const char *key : {"embedding_multiplier", "residual_multiplier",
                          "attention_multiplier", "logits_scaling"})
    EXPECT_EQ(errorOf(decoder("granite", std::string("\"") + key + "\": 0")),
              std::string("'") + key + "' must be a positive number, got 0");
  // The multipliers belong to Granite: the other families scale nothing.
  for (const char *type : {"llama", "mistral", "qwen2", "qwen3"}) {
    ModelConfig m = read(decoder(type));
    EXPECT_FALSE(m.scaledEmbeddings || m.scaledResiduals || m.scaledLogits)
        << type;
  }
}

TEST(HfConfigTest, Phi3FusedProjections) {
  // Phi-3 is LLaMA whose q, k and v are views of one fused projection's
  // output; its context defaults to 4096.
  ModelConfig phi3 = read(decoder("phi3"));
  EXPECT_EQ(phi3.family, Family::Llama);
  EXPECT_TRUE(phi3.qkvViews);
  EXPECT_EQ(phi3.maxPositions, 4096);
  EXPECT_FALSE(phi3.tiedEmbeddings || phi3.qkvBias || phi3.mlpBias);
  // Partial rotation and zero dropouts build the same graph.
  phi3 = read(decoder("phi3", R"("partial_rotary_factor": 0.75,
      "embd_pdrop": 0.0, "resid_pdrop": 0.0,
      "original_max_position_embeddings": 4096, "sliding_window": 2047,
      "tie_word_embeddings": true)"));
  EXPECT_TRUE(phi3.qkvViews && phi3.tiedEmbeddings);
  EXPECT_EQ(errorOf(decoder("phi3", R"("partial_rotary_factor": 1.5)")),
            "'partial_rotary_factor' must be a number in (0, 1], got 1.5");
  // A fraction is shown as written, not in 17 digits (0.1 is
  // 0.10000000000000001 to LLVM's JSON writer).
  for (const char *key : {"embd_pdrop", "resid_pdrop"})
    EXPECT_EQ(errorOf(decoder("phi3", std::string("\"") + key + "\": 0.1")),
              std::string("'") + key +
                  "' must be 0 (memplan-gen drops only the LLaMA family's "
                  "attention probabilities), got 0.1");
  // The other families' projections are their own.
  for (const char *type :
       {"llama", "mistral", "qwen2", "qwen3", "gemma", "granite"})
    EXPECT_FALSE(read(decoder(type)).qkvViews) << type;
}

TEST(HfConfigTest, Gpt2AndBert) {
  ModelConfig gpt2 = read(R"({"model_type": "gpt2", "n_embd": 48.0,
      "n_head": 4, "n_layer": 2, "n_positions": 64, "vocab_size": 90,
      "n_inner": null, "activation_function": "gelu_new"})");
  EXPECT_EQ(gpt2.family, Family::Gpt2);
  EXPECT_EQ(gpt2.hidden, 48);  // an integral double is an integer
  EXPECT_EQ(gpt2.ffn, 4 * 48); // n_inner null: 4 x n_embd
  EXPECT_EQ(gpt2.kvHeads, 4);
  EXPECT_DOUBLE_EQ(gpt2.normEpsilon, 1e-5);
  ModelConfig bert = read(R"({"model_type": "bert", "hidden_size": 32,
      "intermediate_size": 64, "num_attention_heads": 2,
      "num_hidden_layers": 1, "vocab_size": 50,
      "max_position_embeddings": 40, "type_vocab_size": 3,
      "layer_norm_eps": 1e-7})");
  EXPECT_EQ(bert.family, Family::Bert);
  EXPECT_EQ(bert.typeVocab, 3);
  EXPECT_EQ(bert.maxPositions, 40);
  EXPECT_DOUBLE_EQ(bert.normEpsilon, 1e-7);
  EXPECT_EQ(bert.activation, Activation::Gelu);
}

TEST(HfConfigTest, DropoutAStackTrainsWith) {
  EXPECT_DOUBLE_EQ(read(decoder("llama")).trainingDropout(), 0.0);
  EXPECT_DOUBLE_EQ(
      read(decoder("qwen2", R"("attention_dropout": 0.05)")).trainingDropout(),
      0.05);
  ModelConfig gpt2 = read(R"({"model_type": "gpt2", "n_embd": 48,
      "n_head": 4, "n_layer": 2, "n_positions": 64, "vocab_size": 90})");
  EXPECT_DOUBLE_EQ(gpt2.trainingDropout(), 0.1); // resid_pdrop's default
  EXPECT_EQ(errorOf(decoder("llama", R"("attention_dropout": 1.0)")),
            "'attention_dropout' must be a probability in [0, 1), got 1");
}

TEST(HfConfigTest, StoredDtypeIsKeptAsWritten) {
  EXPECT_EQ(read(decoder("llama")).storedDtype, "");
  EXPECT_EQ(read(decoder("llama", R"("torch_dtype": "float32")")).storedDtype,
            "float32");
  // transformers 5 writes `dtype`; where both are there, it is read.
  EXPECT_EQ(read(decoder("llama", R"("torch_dtype": "float32",
                                     "dtype": "bfloat16")"))
                .storedDtype,
            "bfloat16");
  // Not a string (null in some exported configs): none, and no error.
  EXPECT_EQ(read(decoder("llama", R"("torch_dtype": null)")).storedDtype, "");
}

TEST(HfConfigTest, UnknownFieldsAreListedNotFatal) {
  llvm::Expected<HfConfig> config = parseHfConfig(
      decoder("llama", R"("zeta": 1, "rope_theta": 500000.0, "alpha": [],
                          "bos_token_id": 1)"),
      "m");
  ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
  EXPECT_EQ(config->unknownFields, (std::vector<std::string>{"alpha", "zeta"}));
}

TEST(HfConfigTest, ErrorsNameTheField) {
  EXPECT_EQ(errorOf(R"({"model_type": "llama", "hidden_size": 64})"),
            "no 'intermediate_size' (the model's shape needs it)");
  EXPECT_EQ(errorOf(decoder("llama", R"("num_key_value_heads": 0)")),
            "'num_key_value_heads' must be an integer from 1 to 2147483647, "
            "got 0");
  EXPECT_EQ(errorOf(decoder("llama", R"("rms_norm_eps": "small")")),
            "'rms_norm_eps' must be a positive number, got \"small\"");
  EXPECT_EQ(errorOf(decoder("llama", R"("tie_word_embeddings": 1)")),
            "'tie_word_embeddings' must be true or false, got 1");
  EXPECT_EQ(errorOf(decoder("llama", R"("hidden_act": "relu")")),
            "'hidden_act' is 'relu'; memplan-gen builds GELU (gelu, gelu_new, "
            "gelu_pytorch_tanh, ...) and SiLU (silu, swish) MLPs");
  EXPECT_EQ(errorOf(decoder("mistral", R"("num_local_experts": 8)")),
            "'num_local_experts' is 8: memplan-gen builds dense models (no "
            "mixture of experts)");
  EXPECT_EQ(errorOf(decoder("gemma2", R"("final_logit_softcapping": -1)")),
            "'final_logit_softcapping' must be a positive number or null, got "
            "-1");
  EXPECT_EQ(errorOf(decoder("gemma2", R"("layer_types": ["full_attention"])")),
            "'layer_types' must list one type per layer (3), got "
            "[\"full_attention\"]");
  EXPECT_EQ(
      errorOf(decoder("gemma3_text", R"("layer_types": ["a", "b", "c"])")),
      "'layer_types' holds \"a\"; memplan-gen reads "
      "\"sliding_attention\" and \"full_attention\"");
  EXPECT_EQ(errorOf(decoder("gemma3")),
            "'model_type' is 'gemma3', Gemma 3's vision-language model; "
            "memplan-gen builds its language model: give the config's "
            "'text_config' (model_type gemma3_text) as the config");
  EXPECT_EQ(errorOf(R"({"hidden_size": 64})"),
            "no 'model_type'; memplan-gen reads llama, mistral, qwen2, qwen3, "
            "gemma, gemma2, gemma3_text, granite, phi3, gpt2 or bert");
  EXPECT_EQ(
      errorOf("{\"a\": " + std::string(100, '[') + std::string(100, ']') + "}"),
      "line 1: the input nests brackets more than 64 deep; memplan's "
      "tools refuse such input rather than overflow the parser's stack");
}

TEST(HfConfigTest, FeaturesSwitchedOffAreAccepted) {
  ModelConfig m = read(decoder("llama", R"("num_experts": 0,
                                           "add_cross_attention": false,
                                           "quantization_config": null)"));
  EXPECT_EQ(m.hidden, 64);
}

} // namespace
