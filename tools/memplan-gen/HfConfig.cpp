//===- HfConfig.cpp - Model shapes from a Hugging Face config.json --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Field names and defaults are those of the configuration classes in
// Hugging Face transformers (LlamaConfig, MistralConfig, Qwen2Config,
// Qwen3Config, GemmaConfig, Gemma2Config, Gemma3TextConfig, GPT2Config,
// BertConfig), read with LLVM's JSON library.
//
//===----------------------------------------------------------------------===//

#include "HfConfig.h"

#include "memplan/Support/InputBounds.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <charconv>
#include <cmath>

using namespace llvm;
using namespace memplan::gen;

namespace {

/// A config nests a few levels (rope_scaling, id2label); the bound keeps
/// the recursive JSON parser far from the stack's end on hostile input.
constexpr unsigned kMaxConfigNesting = 64;

/// The largest dimension accepted: products of three of them stay within
/// 63 bits, so the generator's own overflow checks see every shape.
constexpr int64_t kMaxDimension = (int64_t(1) << 31) - 1;

/// Fields that do not change the graph's memory: identifiers and token ids,
/// numerics of ops whose tensors keep their shapes (rope parameters, the
/// sliding window's mask contents, initialisation), the dropout
/// probabilities not read (one per model is: a stack preset's) and
/// bookkeeping.
const char *const kFieldsWithoutMemoryEffect[] = {
    "_name_or_path",
    "architectures",
    "auto_map",
    "torch_dtype",
    "dtype",
    "transformers_version",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "sep_token_id",
    "decoder_start_token_id",
    "initializer_range",
    "use_cache",
    "rope_theta",
    "rope_scaling",
    "rope_parameters",
    "original_max_position_embeddings",
    "pretraining_tp",
    "sliding_window",
    "use_sliding_window",
    "max_window_layers",
    "layer_types",
    "query_pre_attn_scalar",
    "rope_local_base_freq",
    "cache_implementation",
    "sliding_window_pattern",
    "embd_pdrop",
    "attn_pdrop",
    "attention_probs_dropout_prob",
    "classifier_dropout",
    "summary_type",
    "summary_use_proj",
    "summary_activation",
    "summary_proj_to_labels",
    "summary_first_dropout",
    "task_specific_params",
    "scale_attn_weights",
    "scale_attn_by_inverse_layer_idx",
    "reorder_and_upcast_attn",
    "n_ctx",
    "gradient_checkpointing",
    "id2label",
    "label2id",
    "problem_type",
    "finetuning_task",
    "is_decoder",
    "output_attentions",
    "output_hidden_states",
    "return_dict",
    "chunk_size_feed_forward",
    "hidden_act" // Gemma: legacy, hidden_activation is read
};

/// Fields whose presence (with a value that turns the feature on) means a
/// graph memplan-gen does not build.
struct UnsupportedField {
  const char *key;
  const char *what; ///< what memplan-gen builds instead
};
const UnsupportedField kUnsupportedFields[] = {
    {"num_local_experts", "dense models (no mixture of experts)"},
    {"num_experts", "dense models (no mixture of experts)"},
    {"n_routed_experts", "dense models (no mixture of experts)"},
    {"moe_intermediate_size", "dense models (no mixture of experts)"},
    {"num_experts_per_tok", "dense models (no mixture of experts)"},
    {"add_cross_attention", "decoder-only and encoder-only models"},
    {"is_encoder_decoder", "decoder-only and encoder-only models"},
    {"quantization_config",
     "unquantized checkpoints; quantized weights are --weight-dtype int8 or "
     "int4"}};

/// `value` as an error message shows it: its JSON, with a fractional
/// number in the fewest digits that read back to it (0.1, where LLVM's JSON
/// writer prints 17 significant digits, 0.10000000000000001).
std::string shown(const json::Value &value) {
  if (value.kind() == json::Value::Number && !value.getAsInteger()) {
    char text[32];
    auto [end, error] =
        std::to_chars(text, text + sizeof(text), *value.getAsNumber());
    if (error == std::errc())
      return std::string(text, end);
  }
  return formatv("{0}", value).str();
}

/// One config object. Remembers the fields read, so that the rest can be
/// reported, and the first bad field: each accessor returns a placeholder
/// after an error, and the caller asks failed() once it has read them all.
class ConfigReader {
public:
  explicit ConfigReader(const json::Object &object) : object(object) {}

  /// A positive integer field; `fallback` when absent or null (none: the
  /// field is required).
  int64_t dimension(StringRef key, std::optional<int64_t> fallback = {}) {
    const json::Value *value = lookup(key);
    if (!value || value->kind() == json::Value::Null) {
      if (!fallback)
        fail("no '" + key + "' (the model's shape needs it)");
      return fallback.value_or(1);
    }
    std::optional<int64_t> number = value->getAsInteger();
    if (!number || *number < 1 || *number > kMaxDimension) {
      fail(formatv("'{0}' must be an integer from 1 to {1}, got {2}", key,
                   kMaxDimension, shown(*value)));
      return 1;
    }
    return *number;
  }

  /// A probability in [0, 1); `fallback` when absent or null.
  double probability(StringRef key, double fallback) {
    return optionalField<double>(
        key, fallback, [](const json::Value &v) { return v.getAsNumber(); },
        [](double p) { return p >= 0 && p < 1; }, "a probability in [0, 1)");
  }

  /// A positive finite number; `fallback` when absent or null.
  double positiveNumber(StringRef key, double fallback) {
    return optionalField<double>(
        key, fallback, [](const json::Value &v) { return v.getAsNumber(); },
        [](double e) { return std::isfinite(e) && e > 0; },
        "a positive number");
  }

  /// A number in (0, 1]; `fallback` when absent or null.
  double fraction(StringRef key, double fallback) {
    return optionalField<double>(
        key, fallback, [](const json::Value &v) { return v.getAsNumber(); },
        [](double f) { return f > 0 && f <= 1; }, "a number in (0, 1]");
  }

  /// A probability memplan-gen builds only as 0 (absent and null read as
  /// 0): a dropout it does not build; `where` says which it does.
  void zeroProbability(StringRef key, StringRef where) {
    optionalField<double>(
        key, 0.0, [](const json::Value &v) { return v.getAsNumber(); },
        [](double p) { return p == 0; }, ("0 (" + where + ")").str());
  }

  /// A soft-capping constant: `absent` when the field is absent, 0 (none)
  /// when it is null, else a positive number.
  double softcap(StringRef key, double absent) {
    if (isNull(key))
      return 0;
    return optionalField<double>(
        key, absent, [](const json::Value &v) { return v.getAsNumber(); },
        [](double c) { return std::isfinite(c) && c > 0; },
        "a positive number or null");
  }

  /// Which of `layers` layers attend through a sliding window, from
  /// `layer_types` ("sliding_attention" or "full_attention" per layer) when
  /// the config has it, else `pattern(layer)`.
  std::vector<bool> slidingLayers(int64_t layers,
                                  llvm::function_ref<bool(int64_t)> pattern) {
    std::vector<bool> sliding;
    const json::Value *value = lookup("layer_types");
    if (!value || value->kind() == json::Value::Null) {
      for (int64_t layer = 0; layer < layers; ++layer)
        sliding.push_back(pattern(layer));
      return sliding;
    }
    const json::Array *types = value->getAsArray();
    if (!types || int64_t(types->size()) != layers) {
      fail(formatv("'layer_types' must list one type per layer ({0}), got {1}",
                   layers, shown(*value)));
      return {};
    }
    for (const json::Value &type : *types) {
      std::optional<StringRef> name = type.getAsString();
      if (!name ||
          (*name != "sliding_attention" && *name != "full_attention")) {
        fail(formatv("'layer_types' holds {0}; memplan-gen reads "
                     "\"sliding_attention\" and \"full_attention\"",
                     type));
        return {};
      }
      sliding.push_back(*name == "sliding_attention");
    }
    return sliding;
  }

  /// A positive integer field that null turns off: `absent` when the field
  /// is absent, none when it is null.
  std::optional<int64_t> nullableDimension(StringRef key, int64_t absent) {
    if (isNull(key))
      return std::nullopt;
    return dimension(key, absent);
  }

  bool flag(StringRef key, bool fallback) {
    return optionalField<bool>(
        key, fallback, [](const json::Value &v) { return v.getAsBoolean(); },
        [](bool) { return true; }, "true or false");
  }

  /// A string field; `fallback` when absent or null.
  std::string string(StringRef key, StringRef fallback) {
    return optionalField<StringRef>(
               key, fallback,
               [](const json::Value &v) { return v.getAsString(); },
               [](StringRef) { return true; }, "a string")
        .str();
  }

  /// The MLP activation named by `key`: GELU in any of its forms, or SiLU;
  /// `geluNew` says whether it is Hugging Face's gelu_new.
  Activation activation(StringRef key, StringRef fallback, bool &geluNew) {
    std::string name = string(key, fallback);
    geluNew = name == "gelu_new";
    if (name == "silu" || name == "swish")
      return Activation::Silu;
    if (!StringRef(name).starts_with("gelu"))
      fail("'" + key + "' is '" + name +
           "'; memplan-gen builds GELU (gelu, gelu_new, gelu_pytorch_tanh, "
           "...) and SiLU (silu, swish) MLPs");
    return Activation::Gelu;
  }

  /// Records a failure if a field turns on a feature memplan-gen does not
  /// build.
  void checkUnsupported() {
    for (const UnsupportedField &field : kUnsupportedFields) {
      const json::Value *value = lookup(field.key);
      if (!value || value->kind() == json::Value::Null)
        continue;
      std::optional<bool> boolean = value->getAsBoolean();
      std::optional<int64_t> number = value->getAsInteger();
      if ((boolean && !*boolean) || (number && *number == 0))
        continue;
      fail(formatv("'{0}' is {1}: memplan-gen builds {2}", field.key,
                   shown(*value), field.what));
    }
  }

  /// Fields neither read nor known to leave memory alone.
  std::vector<std::string> unknownFields() const {
    StringSet<> known;
    for (StringRef key : kFieldsWithoutMemoryEffect)
      known.insert(key);
    std::vector<std::string> unknown;
    for (const auto &entry : object)
      if (!read.contains(entry.first) && !known.contains(entry.first))
        unknown.push_back(entry.first.str());
    llvm::sort(unknown);
    return unknown;
  }

  /// Records `message` about the config unless a failure came first.
  void fail(const Twine &message) {
    if (firstError.empty())
      firstError = message.str();
  }
  bool failed() const { return !firstError.empty(); }
  Error takeError() const {
    return createStringError(inconvertibleErrorCode(), firstError);
  }

private:
  /// A field that may be absent or null (`fallback`); else `get` must read
  /// it and `valid` accept it, or the failure says it must be `expected`.
  template <typename T, typename Get, typename Valid>
  T optionalField(StringRef key, T fallback, Get get, Valid valid,
                  StringRef expected) {
    const json::Value *value = lookup(key);
    if (!value || value->kind() == json::Value::Null)
      return fallback;
    std::optional<T> read = get(*value);
    if (!read || !valid(*read)) {
      fail(formatv("'{0}' must be {1}, got {2}", key, expected, shown(*value)));
      return fallback;
    }
    return *read;
  }

  /// Whether the config has `key`, as null (the accessors above read null
  /// as absent; a few fields are turned off by it).
  bool isNull(StringRef key) {
    const json::Value *value = lookup(key);
    return value && value->kind() == json::Value::Null;
  }

  const json::Value *lookup(StringRef key) {
    read.insert(key);
    return object.get(key);
  }

  const json::Object &object;
  StringSet<> read;
  std::string firstError;
};

/// The LLaMA family's differences, as their configuration classes default
/// them.
struct DecoderDefaults {
  const char *activation = "silu";
  const char *activationKey = "hidden_act"; ///< Gemma: hidden_activation
  int64_t maxPositions = 2048;
  int64_t headDim = 0; ///< 0: hidden / heads; Qwen3: 128
  bool tiedEmbeddings = false;
  bool qkvBias = false;            ///< Qwen2: always
  bool readsAttentionBias = false; ///< attention_bias (q, k, v and o)
  bool readsMlpBias = false;       ///< LLaMA: mlp_bias
  bool scaledEmbeddings = false;   ///< Gemma
  bool qkNorm = false;             ///< Qwen3, Gemma 3
  /// Gemma 2 and 3: post-attention and post-feedforward norms, soft-capping
  /// (Gemma 2's defaults; Gemma 3 has none), local layers with sliding-window
  /// caches every `slidingPattern`-th layer but the last of each group
  /// (Gemma 2: 2, every even layer; Gemma 3: 6, five of six); 0: none.
  bool sandwichNorms = false;
  double attentionSoftcap = 0;
  double logitSoftcap = 0;
  int64_t slidingPattern = 0;
  bool readsSlidingPattern = false; ///< Gemma 3: sliding_window_pattern
  /// Granite: the embeddings, the attention's and the MLP's outputs scaled
  /// and the logits divided, by the config's multipliers.
  bool graniteMultipliers = false;
  /// Phi-3: fused QKV and gate/up projections sliced by views (qkvViews),
  /// dropout on the embeddings and the residual branches too (only 0 is
  /// built), partial rotary embeddings (the same tensors).
  bool phi3 = false;
};

std::optional<DecoderDefaults> decoderDefaults(StringRef modelType) {
  DecoderDefaults d; // LLaMA's, but for its bias flags
  if (modelType == "llama") {
    d.readsAttentionBias = d.readsMlpBias = true;
    return d;
  }
  if (modelType == "mistral") {
    d.maxPositions = 4096 * 32;
    return d;
  }
  if (modelType == "qwen2") {
    d.maxPositions = 32768;
    d.qkvBias = true;
    return d;
  }
  if (modelType == "qwen3") {
    d.maxPositions = 32768;
    d.headDim = 128;
    d.readsAttentionBias = true;
    d.qkNorm = true;
    return d;
  }
  if (modelType == "phi3") {
    d.maxPositions = 4096;
    d.phi3 = true;
    return d;
  }
  if (modelType == "granite") {
    d.readsAttentionBias = d.readsMlpBias = true;
    d.graniteMultipliers = true;
    return d;
  }
  if (modelType == "gemma" || modelType == "gemma2" ||
      modelType == "gemma3_text") {
    d.activation = "gelu_pytorch_tanh";
    d.activationKey = "hidden_activation";
    d.maxPositions = 8192;
    d.tiedEmbeddings = true;
    d.scaledEmbeddings = true;
    if (modelType == "gemma")
      return d;
    d.headDim = 256;
    d.readsAttentionBias = true;
    d.sandwichNorms = true;
    if (modelType == "gemma2") {
      d.attentionSoftcap = 50;
      d.logitSoftcap = 30;
      d.slidingPattern = 2;
      return d;
    }
    d.maxPositions = 131072;
    d.qkNorm = true;
    d.slidingPattern = 6;
    d.readsSlidingPattern = true;
    return d;
  }
  return std::nullopt;
}

void readDecoder(ConfigReader &r, const DecoderDefaults &d, ModelConfig &m) {
  m.family = Family::Llama;
  m.hidden = r.dimension("hidden_size");
  m.ffn = r.dimension("intermediate_size");
  m.heads = r.dimension("num_attention_heads");
  m.kvHeads = r.dimension("num_key_value_heads", m.heads);
  m.headDim = r.dimension("head_dim", d.headDim);
  m.layers = r.dimension("num_hidden_layers");
  m.vocab = r.dimension("vocab_size");
  m.maxPositions = r.dimension("max_position_embeddings", d.maxPositions);
  m.normEpsilon = r.positiveNumber("rms_norm_eps", 1e-6);
  m.tiedEmbeddings = r.flag("tie_word_embeddings", d.tiedEmbeddings);
  m.activation = r.activation(d.activationKey, d.activation, m.geluNew);
  m.dropout = r.probability("attention_dropout", 0.0);
  m.qkvBias = d.qkvBias;
  m.scaledEmbeddings = d.scaledEmbeddings;
  m.qkNorm = d.qkNorm;
  if (d.readsAttentionBias)
    m.qkvBias = m.outputBias = r.flag("attention_bias", false);
  if (d.readsMlpBias)
    m.mlpBias = r.flag("mlp_bias", false);
  m.sandwichNorms = d.sandwichNorms;
  if (d.graniteMultipliers) {
    // transformers' Granite multiplies (and divides) by every one of them,
    // 1.0 included: the tensors exist whatever the values, which change no
    // shape (attention_multiplier replaces 1 / sqrt(head_dim) inside the
    // attention, no tensor of its own). Read to check them.
    for (StringRef key : {"embedding_multiplier", "residual_multiplier",
                          "attention_multiplier", "logits_scaling"})
      r.positiveNumber(key, 1.0);
    m.scaledEmbeddings = m.scaledResiduals = m.scaledLogits = true;
  }
  if (d.phi3) {
    m.qkvViews = true;
    // Rotating part of each head rotates a slice and concatenates it with
    // the rest: a new q and k, as a whole rotation makes.
    r.fraction("partial_rotary_factor", 1.0);
    // transformers' Phi-3 drops the embeddings and both residual branches
    // too; memplan-gen's LLaMA family drops the attention probabilities
    // only (the released configs have 0).
    for (StringRef key : {"embd_pdrop", "resid_pdrop"})
      r.zeroProbability(key, "memplan-gen drops only the LLaMA family's "
                             "attention probabilities");
  }
  if (d.slidingPattern == 0)
    return;
  m.attentionSoftcap = r.softcap("attn_logit_softcapping", d.attentionSoftcap);
  m.logitSoftcap = r.softcap("final_logit_softcapping", d.logitSoftcap);
  // Layer i is local unless i + 1 is a multiple of the pattern: Gemma 2's
  // even layers, Gemma 3's five of six (sliding_window_pattern in older
  // configs; newer ones list layer_types). A null window makes every layer
  // global.
  std::optional<int64_t> window = r.nullableDimension("sliding_window", 4096);
  if (!window)
    return;
  m.slidingWindow = *window;
  int64_t pattern =
      d.readsSlidingPattern
          ? r.dimension("sliding_window_pattern", d.slidingPattern)
          : d.slidingPattern;
  m.slidingLayers = r.slidingLayers(
      m.layers, [&](int64_t layer) { return (layer + 1) % pattern != 0; });
}

void readGpt2(ConfigReader &r, ModelConfig &m) {
  m.family = Family::Gpt2;
  m.hidden = r.dimension("n_embd");
  m.heads = m.kvHeads = r.dimension("n_head");
  m.layers = r.dimension("n_layer");
  m.vocab = r.dimension("vocab_size");
  m.maxPositions = r.dimension("n_positions");
  m.ffn = r.dimension("n_inner", 4 * m.hidden);
  m.normEpsilon = r.positiveNumber("layer_norm_epsilon", 1e-5);
  m.activation = r.activation("activation_function", "gelu_new", m.geluNew);
  m.dropout = r.probability("resid_pdrop", 0.1);
}

void readBert(ConfigReader &r, ModelConfig &m) {
  m.family = Family::Bert;
  m.hidden = r.dimension("hidden_size");
  m.ffn = r.dimension("intermediate_size");
  m.heads = m.kvHeads = r.dimension("num_attention_heads");
  m.layers = r.dimension("num_hidden_layers");
  m.vocab = r.dimension("vocab_size");
  m.maxPositions = r.dimension("max_position_embeddings");
  m.typeVocab = r.dimension("type_vocab_size", int64_t(2));
  m.normEpsilon = r.positiveNumber("layer_norm_eps", 1e-12);
  m.activation = r.activation("hidden_act", "gelu", m.geluNew);
  m.dropout = r.probability("hidden_dropout_prob", 0.1);
  std::string positions = r.string("position_embedding_type", "absolute");
  if (positions != "absolute")
    r.fail("'position_embedding_type' is '" + positions +
           "'; memplan-gen builds BERT's absolute position embeddings");
}

/// The shape checks every family shares.
void checkShapes(ConfigReader &r, const ModelConfig &m) {
  if (m.heads % m.kvHeads != 0)
    r.fail(formatv("the {0} attention heads are not a multiple of the {1} "
                   "key/value heads",
                   m.heads, m.kvHeads));
  else if (m.headDim == 0 && m.hidden % m.heads != 0)
    r.fail(formatv("the hidden size {0} is not a multiple of the {1} "
                   "attention heads, and there is no 'head_dim'",
                   m.hidden, m.heads));
  else if (m.family == Family::Llama && m.attentionHeadDim() % 2 != 0)
    r.fail(formatv("the attention heads are {0} wide; rotary embeddings "
                   "rotate pairs, so the width must be even",
                   m.attentionHeadDim()));
}

} // namespace

std::string memplan::gen::hfModelTypes() {
  return "llama, mistral, qwen2, qwen3, gemma, gemma2, gemma3_text, granite, "
         "phi3, gpt2 or bert";
}

Expected<HfConfig> memplan::gen::parseHfConfig(StringRef text, StringRef name) {
  if (Error deep = memplan::checkInputNesting(text, kMaxConfigNesting))
    return std::move(deep);
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return createStringError(inconvertibleErrorCode(),
                             "not JSON: " + toString(parsed.takeError()));
  const json::Object *object = parsed->getAsObject();
  if (!object)
    return createStringError(inconvertibleErrorCode(),
                             "a config must be a JSON object");
  ConfigReader reader(*object);
  HfConfig config;
  ModelConfig &m = config.model;
  m.name = name.str();
  reader.checkUnsupported();
  std::string modelType = reader.string("model_type", "");
  if (reader.failed())
    return reader.takeError();
  if (std::optional<DecoderDefaults> defaults = decoderDefaults(modelType))
    readDecoder(reader, *defaults, m);
  else if (modelType == "gpt2")
    readGpt2(reader, m);
  else if (modelType == "bert")
    readBert(reader, m);
  else if (modelType == "gemma3")
    reader.fail("'model_type' is 'gemma3', Gemma 3's vision-language model; "
                "memplan-gen builds its language model: give the config's "
                "'text_config' (model_type gemma3_text) as the config");
  else if (modelType.empty())
    reader.fail("no 'model_type'; memplan-gen reads " + hfModelTypes());
  else
    reader.fail("'model_type' is '" + modelType + "'; memplan-gen reads " +
                hfModelTypes());
  if (!reader.failed())
    checkShapes(reader, m);
  if (reader.failed())
    return reader.takeError();
  config.unknownFields = reader.unknownFields();
  // transformers 5 writes `dtype`, earlier versions `torch_dtype`.
  for (StringRef key : {"dtype", "torch_dtype"})
    if (std::optional<StringRef> stored = object->getString(key)) {
      m.storedDtype = stored->str();
      break;
    }
  return config;
}

Expected<HfConfig> memplan::gen::readHfConfig(StringRef path) {
  auto fail = [&](Error error) -> Error {
    return createStringError(inconvertibleErrorCode(),
                             path + ": " + toString(std::move(error)));
  };
  Expected<std::unique_ptr<MemoryBuffer>> input =
      memplan::readBoundedInput(path);
  if (!input)
    return fail(input.takeError());
  StringRef name = path == "-" ? StringRef("hf-config") : sys::path::stem(path);
  Expected<HfConfig> config = parseHfConfig((*input)->getBuffer(), name);
  if (!config)
    return fail(config.takeError());
  return config;
}

llvm::Expected<ModelConfig>
memplan::gen::selectModel(llvm::StringRef name, llvm::StringRef hfConfigPath,
                          llvm::StringRef tool, llvm::raw_ostream &warnings) {
  if (name.empty() == hfConfigPath.empty())
    return llvm::createStringError(
        "give the model as --model NAME or --hf-config FILE (one of them); "
        "models: " +
        modelNames());
  if (!hfConfigPath.empty()) {
    llvm::Expected<HfConfig> config = readHfConfig(hfConfigPath);
    if (!config)
      return config.takeError();
    for (const std::string &field : config->unknownFields)
      warnings << tool << ": warning: " << hfConfigPath << ": ignoring '"
               << field << "', a field memplan-gen does not know\n";
    return config->model;
  }
  if (std::optional<ModelConfig> model = lookupModel(name))
    return *model;
  return llvm::createStringError("unknown model '" + name +
                                 "'; expected one of: " + modelNames());
}
