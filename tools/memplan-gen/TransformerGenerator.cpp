//===- TransformerGenerator.cpp - GPT-2, LLaMA and BERT graphs ------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One function per invocation: the whole model (embeddings, every layer, the
// head) for one step. Prefill runs the prompt; decode runs one new token per
// sequence against per-layer KV caches (arguments, written in place); train
// runs the forward pass, a cross-entropy loss, the backward pass
// (GraphBuilder's recorded steps) and an AdamW step that updates weights,
// moments and f32 master weights in place. Linear weights may be int8/int4
// (inference only) with per-output-channel scales; embeddings, norms, biases
// and the LM head stay in the activation type.
//
//===----------------------------------------------------------------------===//

#include "TransformerGenerator.h"

#include "DataParallel.h"
#include "GraphBuilder.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <deque>

using namespace mlir;
using memplan::ArgumentRole;
using memplan::ResultRole;
using namespace memplan::gen;

namespace {

struct Linear {
  Value weight;
  Value scale;       ///< per output channel, for quantized weights
  Value groupScales; ///< [in / group, out], for group-wise quantized weights
  SmallVector<Value> nf4State; ///< QLoRA: the NF4 weight's absmax (and more)
  Value bias;
  Value loraA, loraB; ///< LoRA adapter: [in, rank], [rank, out]
};

class TransformerGenerator {
public:
  TransformerGenerator(GraphBuilder &g, const GeneratorOptions &o,
                       Type activation, Type weight)
      : g(g), o(o), m(o.model), act(activation), weightType(weight),
        quantized(isa<IntegerType>(weight)) {}

  Value buildForward(Value received = nullptr);
  Value loss(Value logits);
  /// The loss's forward ops: the loss value, and the value the backward
  /// pass starts from (the logits, or their f32 log-probabilities).
  std::pair<Value, Value> lossForward(Value logits);
  /// The loss's gradient with respect to `from`.
  Value lossGradient(Value from);
  /// A pipeline stage's training step (or inference pass): 1F1B over the
  /// micro-batches, as Megatron-LM and DeepSpeed schedule them; returns
  /// what the function returns.
  Value pipelineStep();
  /// The end of a training step from the weights' gradients: gradient
  /// buffers, data-parallel reduction and the optimizer.
  void finishStep(SmallVector<std::pair<Value, Value>> gradients);
  /// The same from gradients already in their buffers (if any).
  void reduceAndUpdate(SmallVector<std::pair<Value, Value>> gradients);
  void optimizerStep(ArrayRef<std::pair<Value, Value>> gradients);
  /// Each weight's gradient added into its persistent buffer, if the step
  /// keeps them; the pairs then name the buffers.
  SmallVector<std::pair<Value, Value>>
  accumulate(SmallVector<std::pair<Value, Value>> gradients);

private:
  /// The function's argument `name`, made on first use: a pipeline stage
  /// builds the forward pass of every micro-batch from the same weights and
  /// inputs.
  Value arg(ArrayRef<int64_t> shape, Type element, ArgumentRole role,
            const std::string &name) {
    Value &argument = arguments[name];
    if (!argument)
      argument = g.argument(shape, element, role, name);
    return argument;
  }

  /// A weight of the model (frozen under LoRA).
  Value param(ArrayRef<int64_t> shape, const std::string &name) {
    Value weight = arg(shape, act, ArgumentRole::Weight, name);
    if (o.loraRank > 0)
      g.freeze(weight);
    return weight;
  }
  /// LayerNorm of `x` with its own gain and bias (`<prefix>.g`, `.b`).
  /// Arguments and ops are numbered in the order they are made, so every
  /// call that makes two of them is sequenced here and below, never left to
  /// the compiler's order of evaluating a call's arguments (GCC: right to
  /// left, Clang: left to right; the same source wrote different IR). The
  /// order kept is the one the release builds always wrote: bias first.
  Value layerNorm(Value x, const std::string &prefix) {
    Value beta = param({m.hidden}, prefix + ".b");
    Value gamma = param({m.hidden}, prefix + ".g");
    return g.layerNorm(x, gamma, beta, m.normEpsilon);
  }
  /// A projection; `target` names it for LoRA (0: never adapted).
  Linear linear(int64_t in, int64_t out, const std::string &name, bool bias,
                unsigned target = 0) {
    Linear layer;
    if (o.nf4Weights) {
      // bitsandbytes' NF4: 4-bit codes, an absmax per block of 64; double
      // quantization stores those as 8-bit codes with an f32 scale per 256
      // and one f32 offset.
      Type i4 = IntegerType::get(act.getContext(), 4);
      Type i8 = IntegerType::get(act.getContext(), 8);
      Type f32 = Float32Type::get(act.getContext());
      layer.weight = arg({in, out}, i4, ArgumentRole::Weight, name + ".w");
      if (o.qlora)
        g.freeze(layer.weight);
      int64_t blocks = llvm::divideCeil(in * out, 64);
      auto state = [&](int64_t size, Type element, const char *suffix) {
        layer.nf4State.push_back(arg(
            {size}, element, ArgumentRole::QuantizationScale, name + suffix));
      };
      if (o.doubleQuant) {
        state(blocks, i8, ".absmax");
        state(llvm::divideCeil(blocks, 256), f32, ".absmax_scale");
        state(1, f32, ".absmax_offset");
      } else {
        state(blocks, f32, ".absmax");
      }
    } else if (quantized) {
      layer.weight =
          arg({in, out}, weightType, ArgumentRole::Weight, name + ".w");
      // Per output channel, or (--quant-group) one scale per group of
      // input rows of each column, as GPTQ and AWQ store them.
      if (o.quantGroup > 0)
        layer.groupScales =
            arg({int64_t(llvm::divideCeil(in, o.quantGroup)), out}, act,
                ArgumentRole::QuantizationScale, name + ".scales");
      else
        layer.scale =
            arg({out}, act, ArgumentRole::QuantizationScale, name + ".scale");
    } else {
      layer.weight = param({in, out}, name + ".w");
    }
    if (bias)
      layer.bias = param({out}, name + ".b");
    if (o.loraRank > 0 && (target & o.loraTargets)) {
      layer.loraA =
          arg({in, o.loraRank}, act, ArgumentRole::Weight, name + ".lora_a");
      layer.loraB =
          arg({o.loraRank, out}, act, ArgumentRole::Weight, name + ".lora_b");
    }
    return layer;
  }
  /// `x` times a quantized weight by one fused kernel `kind` that reads the
  /// codes and their scales (`state`) directly, with no dequantized copy.
  Value fusedQuantizedLinear(StringRef kind, const Linear &layer, Value x,
                             ValueRange state) {
    SmallVector<Value> operands = {x, layer.weight};
    llvm::append_range(operands, state);
    SmallVector<int64_t> shape(g.typeOf(x).getShape());
    shape.back() = g.typeOf(layer.weight).getDimSize(1);
    return g
        .generic(kind, operands, {g.tensorType(shape, act)},
                 {ResultRole::Activation})
        .front();
  }
  /// `x` through `layer`; a row-parallel layer's partial sums are reduced
  /// before its bias is added.
  Value apply(const Linear &layer, Value x, bool rowParallel = false) {
    Value y;
    if (layer.groupScales) {
      // Group-wise int8/int4: a fused mixed-precision GEMM, as the Marlin,
      // ExLlama and AWQ kernels run it.
      y = fusedQuantizedLinear("matmul_group_quantized", layer, x,
                               layer.groupScales);
    } else if (layer.nf4State.empty()) {
      y = g.matmul(x, layer.weight);
    } else if (o.mode == Mode::Decode && o.batch == 1) {
      // One token: bitsandbytes' 4-bit GEMV.
      y = fusedQuantizedLinear("gemv_nf4", layer, x, layer.nf4State);
    } else {
      y = g.matmulNf4(x, layer.weight, layer.nf4State, act);
    }
    if (layer.scale)
      y = g.mul(y, layer.scale);
    if (rowParallel)
      y = rowReduce(y);
    if (layer.bias)
      y = g.add(y, layer.bias);
    if (layer.loraA) {
      // PEFT: result + lora_B(lora_A(dropout(x))) * scaling, the dropout's
      // mask and output kept for lora_A's backward.
      if (!loraScaling)
        loraScaling = arg({1}, act, ArgumentRole::Input, "lora.scaling");
      Value adapted = x;
      if (o.loraDropout > 0) {
        // PEFT drops the input in every adapted projection; LitGPT's fused
        // QKV adapter once for q, k and v together (--lora-dropout-shared).
        Value &shared = loraDropped[x];
        if (!o.loraDropoutShared || !shared)
          shared = g.dropout(x, o.loraDropout);
        adapted = shared;
      }
      // Tensor parallelism, as Megatron-based LoRA (NeMo's parallel
      // adapters) splits it: a column-parallel projection's lora_A is whole
      // on every GPU (its gradient, a partial sum, is all-reduced before the
      // step) and lora_B split like the weight's columns; a row-parallel
      // one's lora_A is split like the weight's rows, its r-wide partial
      // sums reduced as the projection's are, and lora_B whole.
      Value down = g.matmul(adapted, layer.loraA);
      if (tp() > 1) {
        if (rowParallel)
          down = rowReduce(down);
        else
          partialGradients.insert(layer.loraA);
      }
      Value update = g.matmul(down, layer.loraB);
      y = g.add(y, g.mul(update, loraScaling));
    }
    return y;
  }

  /// Attention of q [B, nh, Sq, hd] over k, v [B, nkv, Skv, hd], as
  /// [B, Sq, nh, hd]: each query's heads side by side, as the output
  /// projection reads them. Fused, the kernel writes that layout (as
  /// FlashAttention and PyTorch's fused kernels do: the transpose back is a
  /// view there); unfused, it is a transposed copy of the [B, nh, Sq, hd]
  /// product, as `.transpose(1, 2).contiguous()` makes one.
  Value attend(Value q, Value k, Value v, bool causal);
  /// Decode: writes the new k/v [B, nkv, 1, hd] into layer `layer`'s caches
  /// and returns the caches.
  std::pair<Value, Value> cache(Value k, Value v, const std::string &prefix,
                                int64_t layer);

  /// The stage's part of the model; `received` is the previous stage's
  /// output (null on the first stage).
  Value gpt2(Value received);
  Value llama(Value received);
  Value bert(Value received);

  /// Pipeline parallelism: whether this stage has the embeddings, the
  /// head, and its layers [firstLayer, lastLayer).
  /// With interleaving, "stage" is the model chunk being built (`chunk` of
  /// this stage's), chunk x stages + stage of the stages x virtualStages.
  int64_t stages() const { return o.pipeline.stages; }
  int64_t modelChunk() const { return chunk * stages() + o.pipeline.stage; }
  int64_t modelChunks() const { return stages() * o.pipeline.virtualStages; }
  bool firstStage() const { return modelChunk() == 0; }
  bool lastStage() const { return modelChunk() == modelChunks() - 1; }
  int64_t firstLayer() const { return o.layers / modelChunks() * modelChunk(); }
  int64_t lastLayer() const { return firstLayer() + o.layers / modelChunks(); }
  /// Tensor parallelism: weights whole on every GPU whose gradients are
  /// partial sums (a column-parallel projection's lora_A).
  llvm::DenseSet<Value> partialGradients;
  /// The model chunk of this stage being built (interleaved pipelines).
  int64_t chunk = 0;

  /// Full checkpointing: layer `layer`'s ops, from construction to
  /// destruction, in a checkpoint of `checkpointLayers` consecutive layers
  /// (opened by its first layer, closed by its last).
  struct LayerCheckpoint {
    LayerCheckpoint(TransformerGenerator &generator, int64_t layer)
        : g(generator.o.checkpointing == Checkpointing::Full ? &generator.g
                                                             : nullptr) {
      int64_t k = generator.o.checkpointLayers;
      closes = (layer + 1) % k == 0 || layer + 1 == generator.lastLayer();
      if (g && (layer % k == 0 || layer == generator.firstLayer()))
        g->beginCheckpoint();
    }
    ~LayerCheckpoint() {
      if (g && closes)
        g->endCheckpoint();
    }
    GraphBuilder *g;
    bool closes;
  };

  /// The MLP's activation of `x`.
  Value activation(Value x) {
    if (m.activation == Activation::Silu)
      return g.silu(x);
    if (m.geluNew && o.eagerGeluNew)
      return eagerGeluNew(x);
    return g.gelu(x);
  }

  /// Hugging Face's NewGELUActivation as eager PyTorch evaluates it,
  /// `0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 *
  /// torch.pow(x, 3.0))))`, op by op and in that order; its Python scalars
  /// are one-element inputs here (4 bytes each). Autograd keeps x (for the
  /// pow), the tanh's result, and both operands of the last product.
  Value eagerGeluNew(Value x) {
    auto scalar = [&](const std::string &name) {
      return arg({1}, act, ArgumentRole::Input, "gelu_new." + name);
    };
    Value half = g.mul(x, scalar("half"));
    Value inner = g.add(x, g.mul(g.cube(x), scalar("cubic")));
    Value tanh = g.tanh(g.mul(inner, scalar("sqrt_2_over_pi")));
    return g.mul(half, g.add(tanh, scalar("one")));
  }

  /// The LLaMA family's RMSNorm of `x` with the weight named `name`: one
  /// kernel keeping `x` for its backward (fused, as Apex, Transformer Engine
  /// or a compiler run it), or as Hugging Face's LlamaRMSNorm and LitGPT
  /// write it in eager PyTorch: `x` upcast to f32 (the copy autograd keeps),
  /// normalized in f32, cast back, then multiplied by the weight, whose
  /// product keeps the normalized tensor. In f32 the casts are no-ops
  /// (`.to(torch.float32)` returns `x` itself), so the normalized f32 tensor
  /// is the one the product keeps: one tensor of `x`'s size more than the
  /// fused kernel (the allocator's trace of TinyLlama's f32 step has it,
  /// memory-model.md). The norm is over `x`'s last dimension, `width` wide
  /// (0: the hidden size).
  Value rmsNorm(Value x, const std::string &name, int64_t width = 0) {
    Value gamma = param({width ? width : m.hidden}, name);
    Type f32 = Float32Type::get(act.getContext());
    if (!o.eagerRmsNorm)
      return g.rmsNorm(x, gamma, m.normEpsilon);
    if (act == f32)
      return g.mul(g.rmsNormalize(x, m.normEpsilon), gamma);
    Value normalized = g.rmsNormalize(g.cast(x, f32), m.normEpsilon);
    return g.mul(g.cast(normalized, act), gamma);
  }

  /// Gemma 2's soft-capping, cap x tanh(x / cap), as transformers writes it:
  /// the division (here a product by 1 / cap), tanh (whose output its
  /// backward keeps) and the product, each a tensor of `x`'s shape; `name`
  /// prefixes the two scalars.
  Value softcap(Value x, const std::string &name) {
    Value inverse = arg({1}, act, ArgumentRole::Input, name + ".inverse");
    Value cap = arg({1}, act, ArgumentRole::Input, name + ".cap");
    return g.mul(g.tanh(g.mul(x, inverse)), cap);
  }

  /// `x` through dropout when the step drops (train, --dropout > 0).
  Value dropout(Value x) { return o.dropout > 0 ? g.dropout(x, o.dropout) : x; }

  int64_t headDim() const { return m.attentionHeadDim(); }
  /// Tensor parallelism: this rank's heads, KV heads, MLP columns and
  /// vocabulary rows.
  int64_t tp() const { return o.tensorParallel.ranks; }
  int64_t heads() const { return m.heads / tp(); }
  int64_t kvHeads() const { return m.kvHeads / tp(); }
  int64_t ffn() const { return m.ffn / tp(); }
  int64_t vocab() const { return llvm::divideCeil(m.vocab, tp()); }
  /// The tokens of the residual stream on this rank.
  int64_t localTokens() const {
    return o.tensorParallel.sequenceParallel ? queryLen() / tp() : queryLen();
  }
  /// `x` (the residual stream's layout) as column-parallel projections read
  /// it: all of it (Megatron's f), or gathered over the tokens.
  Value columnInput(Value x) {
    if (tp() == 1)
      return x;
    return o.tensorParallel.sequenceParallel ? g.sequenceParallelGather(x, tp())
                                             : g.tensorParallelInput(x, tp());
  }
  /// A row-parallel (or vocabulary-parallel) result's partial sums, reduced
  /// into the residual stream's layout.
  Value rowReduce(Value y) {
    if (tp() == 1)
      return y;
    return o.tensorParallel.sequenceParallel
               ? g.sequenceParallelReduceScatter(y, tp())
               : g.tensorParallelAllReduce(y, tp());
  }
  int64_t queryLen() const { return o.mode == Mode::Decode ? 1 : o.seq; }

  GraphBuilder &g;
  const GeneratorOptions &o;
  const ModelConfig &m;
  Type act, weightType;
  bool quantized;
  Value position, attentionScale, causalMask, loraScaling, labels;
  /// LoRA's dropped inputs by the value dropped, with --lora-dropout-shared.
  llvm::DenseMap<Value, Value> loraDropped;
  llvm::StringMap<Value> arguments;
  /// Each weight's gradient buffer, as last updated.
  llvm::DenseMap<Value, Value> gradientBuffers;
};

Value TransformerGenerator::attend(Value q, Value k, Value v, bool causal) {
  if (!o.unfusedAttention)
    return g.attention(q, k, v, causal);
  // Unfused: the [.., Sq, Skv] scores are materialised.
  int64_t b = o.batch, nh = heads(), nkv = kvHeads(), hd = headDim();
  // The keys: the tokens, or the decode cache (a local layer's is shorter).
  int64_t sq = queryLen(), skv = g.typeOf(k).getShape()[2];
  if (!attentionScale)
    attentionScale = arg({1}, act, ArgumentRole::Input, "attention.scale");
  if (causal && o.mode != Mode::Decode && !causalMask)
    causalMask =
        arg({sq, skv}, act, ArgumentRole::Input, "attention.causal_mask");
  if (o.checkpointing == Checkpointing::Selective)
    g.beginCheckpoint();
  // Grouped key/value heads are copied out to every query head first, as
  // eager PyTorch code does (transformers' repeat_kv, Megatron's
  // repeat_interleave inside its core attention): the copies are what the
  // products keep, and in decode each step copies the whole cache.
  if (nkv != nh) {
    k = g.repeatHeads(k, nh / nkv);
    v = g.repeatHeads(v, nh / nkv);
    nkv = nh;
  }
  Value q5 = g.reshape(q, {b, nkv, nh / nkv, sq, hd});
  // A query that is a view of more (GPT-2's beside a training KV cache) is
  // kept by the scores' product as that storage.
  if (SmallVector<Value> storage = g.keptFor(q);
      storage.size() != 1 || storage.front() != q)
    g.keepAsViewOf(q5, storage);
  Value k5 = g.reshape(k, {b, nkv, 1, skv, hd});
  Value v5 = g.reshape(v, {b, nkv, 1, skv, hd});
  Value scores = g.mul(g.matmul(q5, k5, /*transposeRhs=*/true), attentionScale);
  if (m.attentionSoftcap > 0)
    scores = softcap(scores, "attention.softcap");
  if (causal && o.mode != Mode::Decode)
    scores = g.add(scores, causalMask);
  Value out = g.matmul(dropout(g.softmax(scores, -1)), v5);
  if (o.checkpointing == Checkpointing::Selective)
    g.endCheckpoint();
  return g.transpose(g.reshape(out, {b, nh, sq, hd}), {0, 2, 1, 3});
}

std::pair<Value, Value> TransformerGenerator::cache(Value k, Value v,
                                                    const std::string &prefix,
                                                    int64_t layer) {
  if (!position)
    position = g.indexArgument("cache_position");
  // A local layer's cache holds its window (transformers' hybrid cache: a
  // ring of the last tokens), a global layer's every token.
  int64_t length = o.kvLen;
  if (m.isSliding(layer))
    length = std::min(length, m.slidingWindow);
  SmallVector<int64_t> shape = {o.batch, kvHeads(), length, headDim()};
  Value kCache = arg(shape, act, ArgumentRole::KvCache, prefix + ".k_cache");
  Value vCache = arg(shape, act, ArgumentRole::KvCache, prefix + ".v_cache");
  return {g.kvCacheUpdate(kCache, k, position),
          g.kvCacheUpdate(vCache, v, position)};
}

Value TransformerGenerator::gpt2(Value received) {
  int64_t b = o.batch, s = queryLen(), h = m.hidden, nh = heads(),
          hd = headDim();
  Type i32 = IntegerType::get(act.getContext(), 32);
  Value x = received;
  if (firstStage()) {
    Value ids = arg({b, s}, i32, ArgumentRole::Input, "input_ids");
    Value positionIds =
        arg({b, localTokens()}, i32, ArgumentRole::Input, "position_ids");
    g.beginUnit(); // the embeddings
    Value wte = param({vocab(), h}, "wte");
    Value wpe = param({m.maxPositions, h}, "wpe");
    Value positionEmbedding = g.embedding(wpe, positionIds);
    x = dropout(g.add(rowReduce(g.embedding(wte, ids)), positionEmbedding));
  }
  for (int64_t l = firstLayer(); l < lastLayer(); ++l) {
    g.beginUnit();
    LayerCheckpoint checkpoint(*this, l);
    std::string p = "h." + std::to_string(l);
    Value hidden = columnInput(layerNorm(x, p + ".ln_1"));
    Value qkv = apply(linear(h, 3 * nh * hd, p + ".attn.c_attn", true,
                             LoraQuery | LoraKey | LoraValue),
                      hidden);
    Value heads =
        g.transpose(g.reshape(qkv, {b, s, 3, nh, hd}), {2, 0, 3, 1, 4});
    SmallVector<Value> parts = g.split(heads);
    Value q = g.reshape(parts[0], {b, nh, s, hd});
    Value k = g.reshape(parts[1], {b, nh, s, hd});
    Value v = g.reshape(parts[2], {b, nh, s, hd});
    if (o.mode == Mode::Decode)
      std::tie(k, v) = cache(k, v, p, l);
    if (o.keepsTrainingKvCache())
      // Hugging Face's cache concatenates k and v into tensors of its own,
      // the ones its attention keeps (the split copies here); q stays a
      // view of c_attn's output, so the backward keeps all of that too.
      g.keepAsViewOf(q, {qkv});
    Value a = g.reshape(attend(q, k, v, /*causal=*/true), {b, s, nh * hd});
    x = g.add(x, dropout(apply(
                     linear(nh * hd, h, p + ".attn.c_proj", true, LoraOutput),
                     a, /*rowParallel=*/true)));
    hidden = columnInput(layerNorm(x, p + ".ln_2"));
    Value f = activation(
        apply(linear(h, ffn(), p + ".mlp.c_fc", true, LoraUp), hidden));
    x = g.add(
        x, dropout(apply(linear(ffn(), h, p + ".mlp.c_proj", true, LoraDown), f,
                         /*rowParallel=*/true)));
  }
  if (!lastStage())
    return x;
  g.beginUnit(); // the head
  Value hidden = columnInput(layerNorm(x, "ln_f"));
  // Tied: the embeddings' wte (param gives the argument it made), or, in a
  // pipeline, the last stage's own copy of it (Megatron keeps one on the
  // first and the last stage and all-reduces their gradients).
  return g.matmul(hidden, param({vocab(), h}, "wte"), /*transposeRhs=*/true);
}

Value TransformerGenerator::llama(Value received) {
  int64_t b = o.batch, s = queryLen(), h = m.hidden, nh = heads(),
          nkv = kvHeads(), hd = headDim();
  Type i32 = IntegerType::get(act.getContext(), 32);
  Type i64 = IntegerType::get(act.getContext(), 64);
  Value x = received, ids;
  if (firstStage())
    ids = arg({b, s}, i32, ArgumentRole::Input, "input_ids");
  Value positions = arg({s}, i64, ArgumentRole::Input, "positions");
  if (firstStage()) {
    g.beginUnit(); // the embeddings
    x = rowReduce(g.embedding(param({vocab(), h}, "tok_embeddings"), ids));
    // Gemma multiplies the embeddings by sqrt(hidden), Granite by its
    // embedding_multiplier: a tensor of its own.
    if (m.scaledEmbeddings)
      x = g.mul(x, arg({1}, act, ArgumentRole::Input, "embedding.scale"));
  }
  // Granite scales each residual branch before its add.
  Value residualScale;
  if (m.scaledResiduals && lastLayer() > firstLayer())
    residualScale = arg({1}, act, ArgumentRole::Input, "residual.multiplier");
  auto scaleResidual = [&](Value branch) {
    return residualScale ? g.mul(branch, residualScale) : branch;
  };
  for (int64_t l = firstLayer(); l < lastLayer(); ++l) {
    g.beginUnit();
    LayerCheckpoint checkpoint(*this, l);
    std::string p = "layers." + std::to_string(l);
    Value hidden = columnInput(rmsNorm(x, p + ".attention_norm"));
    Value q = apply(
        linear(h, nh * hd, p + ".attention.wq", m.qkvBias, LoraQuery), hidden);
    Value k = apply(
        linear(h, nkv * hd, p + ".attention.wk", m.qkvBias, LoraKey), hidden);
    Value v = apply(
        linear(h, nkv * hd, p + ".attention.wv", m.qkvBias, LoraValue), hidden);
    Value projected[] = {q, k, v};
    q = g.reshape(q, {b, s, nh, hd});
    k = g.reshape(k, {b, s, nkv, hd});
    if (m.qkNorm) { // Qwen3, Gemma 3: each head normalised, then rotated
      q = rmsNorm(q, p + ".attention.q_norm", hd);
      k = rmsNorm(k, p + ".attention.k_norm", hd);
    }
    q = g.rope(q, positions);
    k = g.rope(k, positions);
    v = g.reshape(v, {b, s, nkv, hd});
    q = g.transpose(q, {0, 2, 1, 3});
    k = g.transpose(k, {0, 2, 1, 3});
    v = g.transpose(v, {0, 2, 1, 3});
    if (o.fusedQkv && nkv != nh) {
      // LitGPT copies grouped key/value heads out to every query head
      // before its SDPA call (expand + reshape), which keeps the copies.
      k = g.repeatHeads(k, nh / nkv);
      v = g.repeatHeads(v, nh / nkv);
    } else if (o.fusedQkv || (m.qkvViews && !o.unfusedAttention)) {
      // LitGPT's and Phi-3's v is a view of a fused QKV projection's
      // output (q and k are rotated copies): what a fused attention keeps
      // of v is all of it. Unfused, the P x V product keeps a contiguous
      // copy of v (a batched matmul's reshape of the strided view), as
      // here.
      g.keepAsViewOf(v, projected);
    }
    if (o.mode == Mode::Decode)
      std::tie(k, v) = cache(k, v, p, l);
    Value a = g.reshape(attend(q, k, v, /*causal=*/true), {b, s, nh * hd});
    Value attended = apply(
        linear(nh * hd, h, p + ".attention.wo", m.outputBias, LoraOutput), a,
        /*rowParallel=*/true);
    if (m.sandwichNorms) // Gemma 2 and 3
      attended = rmsNorm(attended, p + ".post_attention_norm");
    x = g.add(x, scaleResidual(attended));
    hidden = columnInput(rmsNorm(x, p + ".ffn_norm"));
    Value gate = apply(
        linear(h, ffn(), p + ".feed_forward.w1", m.mlpBias, LoraGate), hidden);
    gate = activation(gate);
    Value up = apply(
        linear(h, ffn(), p + ".feed_forward.w3", m.mlpBias, LoraUp), hidden);
    Value fed =
        apply(linear(ffn(), h, p + ".feed_forward.w2", m.mlpBias, LoraDown),
              g.mul(gate, up), /*rowParallel=*/true);
    if (m.sandwichNorms)
      fed = rmsNorm(fed, p + ".post_ffn_norm");
    x = g.add(x, scaleResidual(fed));
  }
  if (!lastStage())
    return x;
  g.beginUnit(); // the head
  Value hidden = columnInput(rmsNorm(x, "norm"));
  Value logits =
      m.tiedEmbeddings // the embeddings' table, or the last stage's copy
          ? g.matmul(hidden, param({vocab(), h}, "tok_embeddings"),
                     /*transposeRhs=*/true)
          : g.matmul(hidden, param({h, vocab()}, "output"));
  // Granite divides the logits by its logits_scaling (here a product by the
  // inverse), a tensor of the logits' shape.
  if (m.scaledLogits)
    logits = g.mul(
        logits, arg({1}, act, ArgumentRole::Input, "logits.inverse_scaling"));
  return m.logitSoftcap > 0 ? softcap(logits, "logits.softcap") : logits;
}

Value TransformerGenerator::bert(Value received) {
  // Tensor parallelism as Megatron-LM's BERT runs it: a vocabulary-parallel
  // word embedding and masked-LM head, column-parallel query/key/value and
  // intermediate projections, row-parallel outputs (the GPT-2 layout with
  // BERT's post-norm); with sequence parallelism the residual stream and
  // the position and type embeddings hold this GPU's tokens. Pipeline
  // parallelism as Megatron-LM splits it: the embeddings on the first
  // stage, the head (and for the masked-LM head its own copy of the tied
  // word embedding) on the last.
  int64_t b = o.batch, s = o.seq, h = m.hidden, nh = heads(), hd = headDim(),
          local = localTokens();
  Type i32 = IntegerType::get(act.getContext(), 32);
  Value x = received;
  if (firstStage()) {
    Value ids = arg({b, s}, i32, ArgumentRole::Input, "input_ids");
    Value typeIds = arg({b, local}, i32, ArgumentRole::Input, "token_type_ids");
    Value positionIds =
        arg({b, local}, i32, ArgumentRole::Input, "position_ids");
    g.beginUnit(); // the embeddings
    Value wordTable = param({vocab(), h}, "embeddings.word");
    Value typeEmbedding =
        g.embedding(param({m.typeVocab, h}, "embeddings.token_type"), typeIds);
    Value positionEmbedding = g.embedding(
        param({m.maxPositions, h}, "embeddings.position"), positionIds);
    Value wordEmbedding = rowReduce(g.embedding(wordTable, ids));
    x = g.add(g.add(wordEmbedding, positionEmbedding), typeEmbedding);
    x = dropout(layerNorm(x, "embeddings.ln"));
  }
  for (int64_t l = firstLayer(); l < lastLayer(); ++l) {
    g.beginUnit();
    LayerCheckpoint checkpoint(*this, l);
    std::string p = "encoder." + std::to_string(l);
    auto heads = [&](Value y) {
      return g.transpose(g.reshape(y, {b, s, nh, hd}), {0, 2, 1, 3});
    };
    Value hidden = columnInput(x);
    Value q = heads(apply(
        linear(h, nh * hd, p + ".attention.query", true, LoraQuery), hidden));
    Value k = heads(
        apply(linear(h, nh * hd, p + ".attention.key", true, LoraKey), hidden));
    Value v = heads(apply(
        linear(h, nh * hd, p + ".attention.value", true, LoraValue), hidden));
    Value a = g.reshape(attend(q, k, v, /*causal=*/false), {b, s, nh * hd});
    a = dropout(
        apply(linear(nh * hd, h, p + ".attention.output", true, LoraOutput), a,
              /*rowParallel=*/true));
    x = layerNorm(g.add(x, a), p + ".attention.ln");
    Value f = activation(apply(
        linear(h, ffn(), p + ".intermediate", true, LoraUp), columnInput(x)));
    f = dropout(apply(linear(ffn(), h, p + ".output", true, LoraDown), f,
                      /*rowParallel=*/true));
    x = layerNorm(g.add(x, f), p + ".output.ln");
  }
  if (!lastStage() || o.mode != Mode::Train)
    return x;
  g.beginUnit(); // the head
  if (o.bertHead == BertHead::Classification) {
    Value first = g.reshape(g.slice(x, {0, 0, 0}, {b, 1, h}), {b, h});
    Value pooled = g.tanh(apply(linear(h, h, "pooler.dense", true), first));
    return apply(linear(h, o.numLabels, "classifier", true), dropout(pooled));
  }
  // Masked-language-model head as BertForMaskedLM's: a transform (dense,
  // the activation, LayerNorm; whole on every tensor-parallel GPU, on its
  // tokens under sequence parallelism, as Megatron-LM's BertLMHead), then
  // the decoder tied to the word embeddings with a bias of its own per
  // vocabulary entry (this GPU's share of the vocabulary; the last stage's
  // copy of the embeddings in a pipeline).
  Value transformed =
      layerNorm(activation(apply(linear(h, h, "cls.transform.dense", true), x)),
                "cls.transform.ln");
  Value logits =
      g.matmul(columnInput(transformed), param({vocab(), h}, "embeddings.word"),
               /*transposeRhs=*/true);
  return g.add(logits, param({vocab()}, "cls.decoder.b"));
}

Value TransformerGenerator::buildForward(Value received) {
  switch (m.family) {
  case Family::Gpt2:
    return gpt2(received);
  case Family::Llama:
    return llama(received);
  case Family::Bert:
    return bert(received);
  }
  return nullptr;
}

std::pair<Value, Value> TransformerGenerator::lossForward(Value logits) {
  Type i32 = IntegerType::get(act.getContext(), 32);
  // One label per row of logits (a token's, or a sequence's).
  labels = arg(cast<RankedTensorType>(logits.getType()).getShape().drop_back(),
               i32, ArgumentRole::Input, "labels");
  Type f32 = Float32Type::get(act.getContext());
  if (o.loss == Loss::F32) {
    // Hugging Face: logits.float(), then cross_entropy = log_softmax + NLL;
    // log_softmax keeps its f32 output for its backward.
    Value upcast = act.isF32() ? logits : g.cast(logits, f32);
    Value logProbabilities = g.logSoftmax(upcast);
    Value value =
        g.generic("nll_loss", {logProbabilities, labels},
                  {RankedTensorType::get({}, f32)}, {ResultRole::Loss})
            .front();
    return {value, logProbabilities};
  }
  Value value = g.generic("cross_entropy", {logits, labels},
                          {RankedTensorType::get({}, f32)}, {ResultRole::Loss})
                    .front();
  return {value, logits};
}

Value TransformerGenerator::lossGradient(Value from) {
  return g
      .generic(o.loss == Loss::F32 ? "nll_loss_backward"
                                   : "cross_entropy_backward",
               {from, labels}, {from.getType()}, {ResultRole::Activation})
      .front();
}

Value TransformerGenerator::loss(Value logits) {
  auto [value, from] = lossForward(logits);
  Value gradient = lossGradient(from);
  finishStep(g.backward(from, gradient));
  return value;
}

Value TransformerGenerator::pipelineStep() {
  MLIRContext *context = act.getContext();
  // Point-to-point transfers pass a token along (an empty tensor), so that
  // they stay in the schedule's order: a receive made earlier would hold
  // its buffer longer.
  auto tokenType = RankedTensorType::get({0}, IntegerType::get(context, 8));
  Value token;
  auto receive = [&](RankedTensorType type) {
    SmallVector<Value> operands;
    if (token)
      operands.push_back(token);
    SmallVector<Value> results = g.communicate(
        GraphBuilder::Transfer::Receive, memplan::ProcessGroup::Pipeline,
        stages(), operands, {type, tokenType},
        {ResultRole::Activation, ResultRole::Activation});
    token = results[1];
    return results[0];
  };
  auto send = [&](Value value) {
    SmallVector<Value> operands = {value};
    if (token)
      operands.push_back(token);
    token = g.communicate(GraphBuilder::Transfer::Send,
                          memplan::ProcessGroup::Pipeline, stages(), operands,
                          {tokenType}, {ResultRole::Activation})
                .front();
  };
  RankedTensorType activation =
      g.tensorType({o.batch, localTokens(), m.hidden}, act);
  bool train = o.mode == Mode::Train;
  int64_t microBatches = train ? o.microBatches : 1;
  const int64_t p = stages(), v = o.pipeline.virtualStages;
  int64_t warmup = std::min(p - o.pipeline.stage - 1, microBatches);
  if (v > 1)
    warmup = !train || microBatches == p
                 ? microBatches * v
                 : std::min((p - o.pipeline.stage - 1) * 2 + (v - 1) * p,
                            microBatches * v);
  struct InFlight {
    size_t tape = 0;
    Value input, from;
  };
  // One queue per model chunk: each chunk's backward passes run its
  // micro-batches in the order of its forward passes.
  std::vector<std::deque<InFlight>> inFlight(v);
  Value result;
  SmallVector<std::pair<Value, Value>> gradients;
  // Interleaved: every chunk's gradients, the latest value of each.
  llvm::MapVector<Value, Value> chunkGradients;
  // The model chunk of the i-th forward or backward pass (Megatron's
  // get_model_chunk_id): groups of p micro-batches per chunk, backward
  // passes from the last chunk.
  auto chunkOf = [&](int64_t i, bool forwardPass) {
    int64_t id = i % (p * v) / p;
    return forwardPass ? id : v - 1 - id;
  };
  int64_t forwards = 0, backwards = 0;
  auto forward = [&] {
    chunk = chunkOf(forwards++, /*forwardPass=*/true);
    InFlight step;
    if (train)
      step.tape = g.startRecording();
    if (!firstStage()) {
      step.input = receive(activation);
      if (train)
        g.markRequiresGradient(step.input);
    }
    Value output = buildForward(step.input);
    if (!lastStage()) {
      send(output);
      step.from = output;
    } else if (train) {
      std::tie(result, step.from) = lossForward(output);
    } else {
      result = output;
    }
    if (train)
      inFlight[chunk].push_back(step);
  };
  auto backward = [&] {
    chunk = chunkOf(backwards++, /*forwardPass=*/false);
    InFlight step = inFlight[chunk].front();
    inFlight[chunk].pop_front();
    Value gradient =
        lastStage() ? lossGradient(step.from) : receive(g.typeOf(step.from));
    gradients = accumulate(g.backward(step.from, gradient, step.tape));
    if (v > 1)
      for (auto [weight, value] : gradients)
        chunkGradients[weight] = value;
    if (!firstStage())
      if (Value inputGradient = g.getGradient(step.input))
        send(inputGradient);
  };
  const int64_t passes = microBatches * v;
  for (int64_t i = 0; i < warmup; ++i)
    forward();
  for (int64_t i = warmup; i < passes; ++i) {
    forward();
    if (train)
      backward();
  }
  while (train && backwards < passes)
    backward();
  if (train && v > 1)
    gradients.assign(chunkGradients.begin(), chunkGradients.end());
  if (train)
    reduceAndUpdate(std::move(gradients));
  return result ? result : token;
}

SmallVector<std::pair<Value, Value>> TransformerGenerator::accumulate(
    SmallVector<std::pair<Value, Value>> gradients) {
  if (o.gradientBuffer == GradientBuffer::None)
    return gradients;
  for (auto &[weight, gradient] : gradients) {
    auto type = cast<RankedTensorType>(weight.getType());
    Type element = o.gradientBuffer == GradientBuffer::F32
                       ? Float32Type::get(act.getContext())
                       : type.getElementType();
    std::string name =
        "w" + std::to_string(cast<BlockArgument>(weight).getArgNumber());
    Value &buffer = gradientBuffers[weight];
    if (!buffer) {
      buffer = g.argument(type.getShape(), element,
                          ArgumentRole::GradientAccumulator, name + ".grad");
      // PyTorch's .grad, in the weight's type, is made by autograd from the
      // first gradient; an f32 buffer is a framework's, made before.
      if (o.marksCreatedInFirstStep() &&
          o.gradientBuffer == GradientBuffer::WeightType)
        g.createInFirstStep(buffer);
    }
    buffer = g.accumulateInto(buffer, gradient);
    gradient = buffer;
  }
  return gradients;
}

void TransformerGenerator::finishStep(
    SmallVector<std::pair<Value, Value>> gradients) {
  // ZeRO-2/3 reduce into the gradient partition, never full buffers.
  if (o.dataParallel.zeroStage < 2)
    gradients = accumulate(std::move(gradients));
  reduceAndUpdate(std::move(gradients));
}

void TransformerGenerator::reduceAndUpdate(
    SmallVector<std::pair<Value, Value>> gradients) {
  // Weights whole on every tensor-parallel GPU whose gradients are partial
  // sums: all-reduced over those GPUs first.
  for (auto &[weight, gradient] : gradients)
    if (partialGradients.contains(weight))
      gradient =
          g.communicate(GraphBuilder::Transfer::AllReduce,
                        memplan::ProcessGroup::Tensor, tp(), {gradient},
                        {gradient.getType()}, {ResultRole::Gradient}, {0})
              .front();
  const DataParallelOptions &dp = o.dataParallel;
  if (dp.zeroStage > 0)
    return zeroStep(g, o, act, std::move(gradients));
  if (dp.ranks > 1)
    gradients = allReduceBuckets(g, o, std::move(gradients));
  optimizerStep(gradients);
}

void TransformerGenerator::optimizerStep(
    ArrayRef<std::pair<Value, Value>> gradients) {
  // Mixed precision: f32 moments, and f32 master weights unless the
  // weights are f32 already. The step writes every state in place.
  Type f32 = Float32Type::get(act.getContext());
  bool master = !act.isF32();
  struct Update {
    const char *kind = "adamw";
    SmallVector<Value> operands;
    SmallVector<Type> types;
    SmallVector<int64_t> aliases;
    int64_t scratch = 0;
    Value secondMoment; ///< AdamW's v, for the foreach temporaries
  };
  SmallVector<Update> updates;
  for (auto [weight, gradient] : gradients) {
    auto type = cast<RankedTensorType>(weight.getType());
    std::string name =
        "w" + std::to_string(cast<BlockArgument>(weight).getArgNumber());
    Update &update = updates.emplace_back();
    update.operands = {weight, gradient};
    update.types = {type};
    update.aliases = {0};
    auto state = [&](ArgumentRole role, const std::string &suffix,
                     ArrayRef<int64_t> shape, Type element) {
      update.operands.push_back(
          g.argument(shape, element, role, name + suffix));
      if (role == ArgumentRole::OptimizerState && o.marksCreatedInFirstStep())
        g.createInFirstStep(update.operands.back());
      update.types.push_back(update.operands.back().getType());
      update.aliases.push_back(update.operands.size() - 1);
    };
    auto full = [&](const std::string &suffix) {
      state(ArgumentRole::OptimizerState, suffix, type.getShape(), f32);
    };
    switch (o.optimizer) {
    case Optimizer::AdamW:
      full(".adam_m");
      full(".adam_v");
      update.secondMoment = update.operands.back();
      // PyTorch's single-tensor AdamW makes the denominator sqrt(v) + eps
      // as a new tensor, one weight at a time.
      if (o.optimizerImpl == OptimizerImpl::ForLoop)
        update.scratch = type.getNumElements() * 4;
      break;
    case Optimizer::Sgd:
      update.kind = "sgd";
      full(".momentum");
      break;
    case Optimizer::Adafactor: {
      update.kind = "adafactor";
      ArrayRef<int64_t> shape = type.getShape();
      if (shape.size() < 2) {
        full(".adafactor_v");
        break;
      }
      // Row statistics over the last axis, column statistics over the one
      // before it (leading axes kept).
      state(ArgumentRole::OptimizerState, ".adafactor_row", shape.drop_back(),
            f32);
      SmallVector<int64_t> column(shape.drop_back(2));
      column.push_back(shape.back());
      state(ArgumentRole::OptimizerState, ".adafactor_col", column, f32);
      break;
    }
    case Optimizer::AdamW8Bit: {
      update.kind = "adamw_8bit";
      Type i8 = IntegerType::get(act.getContext(), 8);
      int64_t blocks = llvm::divideCeil(type.getNumElements(), 256);
      state(ArgumentRole::OptimizerState, ".adam_m", type.getShape(), i8);
      state(ArgumentRole::OptimizerState, ".adam_m_absmax", {blocks}, f32);
      state(ArgumentRole::OptimizerState, ".adam_v", type.getShape(), i8);
      state(ArgumentRole::OptimizerState, ".adam_v_absmax", {blocks}, f32);
      break;
    }
    }
    if (master)
      state(ArgumentRole::MasterWeight, ".master", type.getShape(), f32);
  }
  // PyTorch's multi-tensor ("foreach") AdamW, its default on CUDA, updates
  // every moment first (the gradients all still held), then makes the
  // denominators of all weights at once, `_foreach_sqrt(exp_avg_sqs)`: one
  // new f32 tensor per weight, live together, each freed once its weight is
  // updated.
  if (o.optimizer == Optimizer::AdamW &&
      o.optimizerImpl == OptimizerImpl::Foreach && !updates.empty()) {
    SmallVector<Value> moments;
    SmallVector<Type> types;
    for (const Update &update : updates) {
      moments.push_back(update.secondMoment);
      types.push_back(update.secondMoment.getType());
    }
    SmallVector<Value> denominators = g.generic(
        "adamw_foreach_denominators", moments, types,
        SmallVector<ResultRole>(types.size(), ResultRole::Activation));
    for (auto [update, denominator] : llvm::zip(updates, denominators))
      update.operands.push_back(denominator);
  }
  for (const Update &update : updates) {
    SmallVector<ResultRole> roles(update.types.size(), ResultRole::Activation);
    g.generic(update.kind, update.operands, update.types, roles, update.scratch,
              update.aliases);
  }
}

std::optional<Type> parseType(MLIRContext *context, StringRef name) {
  if (name == "f32")
    return Float32Type::get(context);
  if (name == "f16")
    return Float16Type::get(context);
  if (name == "bf16")
    return BFloat16Type::get(context);
  if (name == "int8")
    return IntegerType::get(context, 8);
  if (name == "int4")
    return IntegerType::get(context, 4);
  return std::nullopt;
}

} // namespace

/// The first tensor of the graph whose bytes would not fit in 63 bits (at 8
/// bytes an element, the widest type the graph uses), named for the error;
/// empty when every tensor fits. The graph's shapes are products of the
/// options (batch x tokens x width), and an overflowing product is
/// undefined behaviour in the generator and a wrapped shape in its output.
static std::string findOversizedTensor(const GeneratorOptions &o) {
  const ModelConfig &m = o.model;
  int64_t queries = o.mode == Mode::Decode ? 1 : o.seq;
  int64_t keys = o.mode == Mode::Decode ? o.kvLen : o.seq;
  int64_t width =
      std::max({m.hidden, m.ffn, m.vocab, m.heads * m.attentionHeadDim()});
  struct Term {
    const char *name;
    std::initializer_list<int64_t> dims;
  };
  std::initializer_list<Term> terms = {
      {"activation (batch x tokens x width)", {o.batch, queries, width, 8}},
      {"KV cache (batch x kv-len x hidden)", {o.batch, keys, m.hidden, 8}},
      {"attention scores (batch x heads x tokens x keys)",
       {o.batch, m.heads, queries, keys, 8}},
      {"embedding (vocabulary x hidden)", {m.vocab, m.hidden, 8}},
      {"position embedding (positions x hidden)",
       {m.maxPositions, m.hidden, 8}},
      {"token-type embedding (types x hidden)", {m.typeVocab, m.hidden, 8}},
      {"MLP weight (hidden x intermediate)", {m.hidden, m.ffn, 8}},
      {"attention weight (hidden x heads x head width)",
       {m.hidden, m.heads, m.attentionHeadDim(), 8}},
  };
  for (const Term &term : terms) {
    int64_t product = 1;
    for (int64_t dim : term.dims)
      if (llvm::MulOverflow(product, dim, product))
        return term.name;
  }
  return "";
}

/// Why the pipeline options cannot split this model's step; empty if they
/// can. Runs once the layer count is known.
static std::string checkPipeline(const GeneratorOptions &o) {
  const PipelineOptions &pp = o.pipeline;
  if (pp.stages < 1)
    return "a pipeline has at least 1 stage";
  if (std::string error =
          checkIndex("stage", pp.stage, pp.stages, "pipeline stages");
      !error.empty())
    return error;
  if (pp.virtualStages < 1)
    return "an interleaved pipeline has at least 1 model chunk per stage";
  if (pp.virtualStages > 1 && pp.stages == 1)
    return "--virtual-stages interleaves the stages of a pipeline: give "
           "--pipeline-parallel N with N above 1";
  if (pp.stages == 1)
    return "";
  if (o.layers % (pp.stages * pp.virtualStages))
    return std::to_string(o.layers) + " layers do not split into " +
           std::to_string(pp.stages * pp.virtualStages) + " equal " +
           (pp.virtualStages > 1 ? "model chunks" : "stages");
  if (pp.virtualStages > 1 && o.mode == Mode::Train &&
      o.microBatches % pp.stages)
    return "the interleaved schedule runs micro-batches in groups of the " +
           std::to_string(pp.stages) + " stages: --grad-accum " +
           std::to_string(o.microBatches) +
           " is not a multiple (Megatron-LM "
           "requires it too)";
  if (o.dataParallel.zeroStage >= 2)
    return "ZeRO-2 and ZeRO-3 partition the gradients that pipeline "
           "parallelism accumulates over micro-batches (DeepSpeed's pipeline "
           "engine takes ZeRO-1 at most)";
  return "";
}

/// Why the tensor-parallel options cannot split this model's step; empty
/// if they can. Runs after the sequence length's default is set.
static std::string checkTensorParallel(const GeneratorOptions &o) {
  const TensorParallelOptions &tp = o.tensorParallel;
  const ModelConfig &m = o.model;
  if (tp.ranks < 1)
    return "tensor parallelism needs at least 1 GPU";
  if (tp.sequenceParallel && tp.ranks == 1)
    return "--sequence-parallel splits the tokens over the tensor-parallel "
           "GPUs: give --tensor-parallel N with N above 1";
  if (tp.ranks == 1)
    return "";
  std::string over = " over " + std::to_string(tp.ranks) + " GPUs";
  if (m.family == Family::Bert && tp.sequenceParallel &&
      o.bertHead == BertHead::Classification && o.mode == Mode::Train)
    return "--sequence-parallel splits BERT's tokens, and its classification "
           "head reads the first token's whole hidden state: not modelled";
  if (m.heads % tp.ranks)
    return std::to_string(m.heads) + " attention heads do not split" + over;
  if (m.kvHeads % tp.ranks)
    return std::to_string(m.kvHeads) + " key/value heads do not split" + over +
           " (Megatron copies them to each GPU then; not modelled)";
  if (m.ffn % tp.ranks)
    return "an intermediate size of " + std::to_string(m.ffn) +
           " does not split" + over;
  if (o.nf4Weights) // set from --weight-dtype nf4 and --qlora by now
    return "NF4 weights are not split by tensor parallelism here";
  if (tp.sequenceParallel) {
    if (o.mode != Mode::Train)
      return "--sequence-parallel splits a training step's tokens; "
             "inference runs tensor parallelism without it";
    if (o.seq % tp.ranks)
      return std::to_string(o.seq) + " tokens do not split" + over;
  }
  return "";
}

namespace memplan::gen {
int64_t defaultSequenceLength(const ModelConfig &model) {
  // Decoders with rotary positions default to 4096 tokens (or their
  // context, if shorter); the others to their learned positions.
  return model.family == Family::Llama
             ? std::min<int64_t>(4096, model.maxPositions)
             : model.maxPositions;
}

OwningOpRef<ModuleOp> generateTransformer(MLIRContext *context,
                                          GeneratorOptions options,
                                          std::string &error) {
  options.optimizerImpl = options.effectiveOptimizerImpl();
  const ModelConfig &model = options.model;
  // NF4 (bitsandbytes' 4-bit inference) quantizes the layers' linear
  // weights; the others keep the activation type, as with int8/int4.
  bool nf4 = options.weightType == "nf4";
  std::optional<Type> weight =
      parseType(context, nf4 ? options.activationType : options.weightType);
  std::optional<Type> activation = parseType(context, options.activationType);
  if (!weight) {
    error = "unknown weight dtype '" + options.weightType +
            "'; expected f32, bf16, f16, int8, int4 or nf4";
    return nullptr;
  }
  if (!activation || isa<IntegerType>(*activation)) {
    error = "unknown activation dtype '" + options.activationType +
            "'; expected f32, bf16 or f16";
    return nullptr;
  }
  if (isa<FloatType>(*weight) && *weight != *activation) {
    error = "float weights must have the activation dtype (" +
            options.activationType +
            "); in training, f32 master weights are optimizer state";
    return nullptr;
  }
  if (options.quantGroup < 0) {
    error = "a quantization group holds at least 1 weight";
    return nullptr;
  }
  if (options.quantGroup > 0 && !isa<IntegerType>(*weight)) {
    error = "--quant-group gives int8 and int4 weights a scale per group; "
            "the weights are " +
            options.weightType +
            (nf4 ? " (NF4's absmax is per 64 already)" : "");
    return nullptr;
  }
  if (options.mode == Mode::Train && (isa<IntegerType>(*weight) || nf4)) {
    error = "train mode needs float weights, not " + options.weightType +
            (nf4 ? " (QLoRA's 4-bit base is --lora-rank R --qlora)" : "");
    return nullptr;
  }
  options.nf4Weights = nf4 || options.qlora;
  if (options.checkpointing != Checkpointing::None &&
      options.mode != Mode::Train) {
    error = "checkpointing applies to train mode (it recomputes what a "
            "training step keeps for its backward pass)";
    return nullptr;
  }
  if (options.loraRank < 0) {
    error = "the LoRA rank must be 1 or more (0: no adapters)";
    return nullptr;
  }
  if (options.loraRank > 0 && options.mode != Mode::Train) {
    error = "LoRA adapters are trained: use --mode train (inference with "
            "merged adapters is the base model)";
    return nullptr;
  }
  if (options.loraRank > 0 && model.family != Family::Llama &&
      (options.loraTargets & LoraGate)) {
    error = model.name + " has no gate projection (gated MLPs are the "
                         "LLaMA family's)";
    return nullptr;
  }
  if (options.bertHead != BertHead::MaskedLm &&
      (model.family != Family::Bert || options.mode != Mode::Train)) {
    error = "--head classification is BERT's training head "
            "(BertForSequenceClassification)";
    return nullptr;
  }
  if (options.numLabels < 1) {
    error = "a classifier needs at least 1 label";
    return nullptr;
  }
  if (options.loraDropout != 0 && options.loraRank == 0) {
    error = "--lora-dropout drops the adapters' input: give --lora-rank";
    return nullptr;
  }
  if (options.optimizerImpl != OptimizerImpl::Fused &&
      options.optimizer != Optimizer::AdamW) {
    error = "--optimizer-impl chooses how PyTorch runs AdamW; it needs "
            "--optimizer adamw";
    return nullptr;
  }
  if (options.loraDropoutShared && options.loraDropout == 0) {
    error = "--lora-dropout-shared says how LoRA's dropout is applied: give "
            "--lora-dropout";
    return nullptr;
  }
  if (!(options.loraDropout >= 0 && options.loraDropout < 1)) {
    error = "the LoRA dropout must be a probability in [0, 1)";
    return nullptr;
  }
  if (options.qlora && options.loraRank == 0) {
    error = "QLoRA trains LoRA adapters on a 4-bit base: give --lora-rank";
    return nullptr;
  }
  if (options.doubleQuant && !options.nf4Weights) {
    error = "--double-quant quantizes NF4's absmax values: use it with "
            "--qlora or --weight-dtype nf4";
    return nullptr;
  }
  if (options.fusedQkv) {
    std::string why;
    if (options.mode != Mode::Train)
      why = "it needs --mode train";
    else if (model.family != Family::Llama)
      why = "it is for the LLaMA family (GPT-2's and BERT's q, k and v are "
            "kept whole already), not " +
            model.name;
    else if (options.unfusedAttention)
      why = "it needs fused attention (LitGPT calls SDPA)";
    if (!why.empty()) {
      error = "--fused-qkv models what LitGPT's attention keeps for its "
              "backward pass: " +
              why;
      return nullptr;
    }
  }
  if (options.checkpointLayers < 1) {
    error = "a checkpoint spans at least 1 layer";
    return nullptr;
  }
  if (options.checkpointLayers != 1 &&
      options.checkpointing != Checkpointing::Full) {
    error = "--checkpoint-layers groups the layers of full checkpointing; "
            "use it with --checkpointing full";
    return nullptr;
  }
  if (options.checkpointing == Checkpointing::Selective &&
      !options.unfusedAttention) {
    error = "selective checkpointing recomputes the attention scores, which "
            "fused attention never keeps: use --attention unfused, or "
            "--checkpointing full";
    return nullptr;
  }
  if (!(options.dropout >= 0 && options.dropout < 1)) {
    error = "dropout must be a probability in [0, 1)";
    return nullptr;
  }
  if (options.mode != Mode::Train &&
      (options.dropout > 0 || options.loss != Loss::Fused ||
       options.optimizer != Optimizer::AdamW ||
       options.optimizerImpl != OptimizerImpl::Fused ||
       options.microBatches != 1 ||
       options.gradientBuffer != GradientBuffer::None)) {
    error = "dropout, the loss, the optimizer and gradient buffers apply to "
            "train mode (inference runs none of them)";
    return nullptr;
  }
  if (options.microBatches < 1) {
    error = "gradient accumulation needs at least 1 micro-batch";
    return nullptr;
  }
  DataParallelOptions &dp = options.dataParallel;
  if (std::string problem = checkDataParallel(options); !problem.empty()) {
    error = problem;
    return nullptr;
  }
  // Stage 1 keeps full gradients in buffers; stages 2 and 3 accumulate in
  // the gradient partition.
  if (dp.zeroStage == 1 && options.gradientBuffer == GradientBuffer::None)
    options.gradientBuffer = GradientBuffer::WeightType;
  if (dp.bucketBytes == 0)
    dp.bucketBytes = defaultBucketBytes(options);
  if (options.microBatches > 1 && dp.zeroStage < 2 &&
      options.gradientBuffer == GradientBuffer::None) {
    error = "accumulating " + std::to_string(options.microBatches) +
            " micro-batches needs a gradient buffer (--grad-buffer weight or "
            "f32)";
    return nullptr;
  }
  if (options.mode == Mode::Decode && model.family == Family::Bert) {
    error = "decode mode needs a decoder; " + model.name + " is an encoder";
    return nullptr;
  }
  if (options.layers == 0)
    options.layers = model.layers;
  int64_t defaultSeq = defaultSequenceLength(model);
  if (options.seq == 0)
    options.seq = defaultSeq;
  if (options.kvLen == 0)
    options.kvLen = defaultSeq;
  if (options.layers < 1 || options.batch < 1 || options.seq < 1 ||
      options.kvLen < 1) {
    error = "layers, batch, seq and kv-len must be at least 1";
    return nullptr;
  }
  int64_t positions =
      options.mode == Mode::Decode ? options.kvLen : options.seq;
  if (model.family != Family::Llama && positions > model.maxPositions) {
    error = model.name + " has " + std::to_string(model.maxPositions) +
            " learned positions; " + std::to_string(positions) +
            " tokens do not fit";
    return nullptr;
  }

  if (std::string problem = checkTensorParallel(options); !problem.empty()) {
    error = problem;
    return nullptr;
  }
  if (std::string problem = checkPipeline(options); !problem.empty()) {
    error = problem;
    return nullptr;
  }
  if (std::string tensor = findOversizedTensor(options); !tensor.empty()) {
    error = "the " + tensor + " tensor would exceed 2^63 bytes with batch " +
            std::to_string(options.batch) + ", seq " +
            std::to_string(options.seq) + " and kv-len " +
            std::to_string(options.kvLen);
    return nullptr;
  }

  const char *mode = options.mode == Mode::Prefill  ? "prefill"
                     : options.mode == Mode::Decode ? "decode"
                                                    : "train";
  // A function name from the model's (a config file's stem may hold dots).
  std::string name = model.name + "_" + mode;
  for (char &c : name)
    if (!llvm::isAlnum(c))
      c = '_';
  GraphBuilder builder(context, name);
  builder.setMatmulWorkspace(options.matmulWorkspace);
  if (dp.zeroStage == 3)
    builder.shardWeights(dp.ranks, dp.rank, dp.prefetch, dp.fsdp);
  TransformerGenerator generator(builder, options, *activation, *weight);
  Value output;
  if (options.pipeline.stages > 1) {
    output = generator.pipelineStep();
  } else {
    if (options.mode == Mode::Train)
      builder.startRecording();
    output = generator.buildForward();
    if (options.mode == Mode::Train)
      output = generator.loss(output);
  }
  OwningOpRef<ModuleOp> module = builder.finish(output);
  if (!module)
    error = "internal error: the generated graph does not verify";
  return module;
}
} // namespace memplan::gen
