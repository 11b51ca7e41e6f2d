//===- TransformerGenerator.h - GPT-2, LLaMA and BERT graphs ----*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_TRANSFORMERGENERATOR_H
#define MEMPLAN_TOOLS_MEMPLANGEN_TRANSFORMERGENERATOR_H

#include "ModelConfig.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace memplan::gen {

enum class Mode { Prefill, Decode, Train };

/// Activation checkpointing of a training step: none; every layer (keep
/// each layer's input, recompute the layer before its backward); or the
/// core attention only (scores, softmax and the product with V: Megatron's
/// selective recomputation, for unfused attention).
enum class Checkpointing { None, Full, Selective };

/// The loss of a training step: one fused cross-entropy op whose gradient
/// is in the activation type (fused kernels: Liger, Megatron's fused
/// cross-entropy, memplan's own step); or as Hugging Face's causal-LM loss
/// runs it in PyTorch: logits upcast to f32, log-softmax in f32 (kept for
/// its backward), NLL, and the f32 gradient cast back.
enum class Loss { Fused, F32 };

/// BERT's head in training: the masked-LM head tied to the word embeddings
/// (BertForMaskedLM), or a sequence classifier over the first token
/// (BertForSequenceClassification: pooler dense + tanh, dropout, a linear
/// layer to the labels).
enum class BertHead { MaskedLm, Classification };

/// The optimizer of a training step, each updating the weight and its
/// states in place (f32 master weights too, unless the weights are f32):
/// AdamW (two f32 moments); SGD with momentum (one f32 buffer); Adafactor
/// as Hugging Face's defaults run it (no first moment; for a matrix, f32
/// row and column statistics of the second moment, for a vector the full
/// second moment); bitsandbytes' 8-bit AdamW (both moments in 8 bits, an
/// f32 absmax per block of 256 elements of each).
enum class Optimizer { AdamW, Sgd, Adafactor, AdamW8Bit };

/// Persistent gradient buffers of a training step, one per weight, that
/// live through the forward pass (arguments, role gradient_accumulator):
/// none (each gradient goes from the backward pass to the optimizer); in
/// the weights' type (PyTorch's `.grad` while accumulating micro-batches);
/// or f32 (DeepSpeed's bf16 optimizer, Megatron's main_grad buffer).
enum class GradientBuffer { None, WeightType, F32 };

/// How AdamW's step runs: one fused kernel per weight or for all of them
/// (Apex, DeepSpeed, `fused=True`: no temporaries), PyTorch's multi-tensor
/// "foreach" implementation (its default on CUDA: the denominators of every
/// weight at once), or its single-tensor for-loop (one weight's denominator
/// at a time).
enum class OptimizerImpl { Fused, Foreach, ForLoop };

/// The projections LoRA adapters may sit on (a bit set). GPT-2's fused
/// query/key/value projection gets one adapter if any of q, k, v is asked.
enum LoraTarget : unsigned {
  LoraQuery = 1,
  LoraKey = 2,
  LoraValue = 4,
  LoraOutput = 8,
  LoraGate = 16,
  LoraUp = 32,
  LoraDown = 64,
};

/// Data parallelism, the step of one rank of `ranks`:
/// - ZeRO stage 0 is PyTorch's DistributedDataParallel: a full replica,
///   each gradient copied into a bucket (persistent, in the gradient's
///   type; the first bucket closes at 1 MiB, the others at `bucketBytes`,
///   filled in reverse parameter order), each bucket all-reduced once its
///   last gradient is in. The gradients stay allocated to the optimizer
///   step (PyTorch copies the reduced bucket back into `.grad`) unless
///   `gradientAsBucketView`, where the bucket is the gradient.
/// - Stage 1 (DeepSpeed's P_os): full gradient buffers (--grad-buffer, the
///   weights' type by default), all-reduced after the backward pass; the
///   optimizer states and f32 master weights are this rank's share of one
///   flat partition of the trainable weights; the step updates that share
///   and all-gathers the weights in place.
/// - Stage 2 (P_os+g): each gradient is copied into one reduction bucket
///   (`bucketBytes`, DeepSpeed's reduce_bucket_size of 5e8 elements by
///   default) and reduce-scattered into this rank's gradient partition
///   whenever the next one does not fit.
/// - Stage 3 (P_os+g+p): the weights too are a flat partition, gathered per
///   unit (the embeddings, each layer, the head) for the forward pass and
///   again for the backward pass (GraphBuilder::shardWeights).
struct DataParallelOptions {
  int64_t ranks = 1;
  int64_t rank = 0;
  int64_t zeroStage = 0;
  int64_t bucketBytes = 0; ///< 0: the default of the stage
  bool gradientAsBucketView = false;
  bool prefetch = true; ///< stage 3: gather the next unit while one runs
  /// ZeRO-Offload (DeepSpeed's offload_optimizer to the CPU): the f32
  /// master share, the optimizer states and an f32 gradient partition live
  /// in the host's memory (memplan.host arguments), and the step runs there
  /// (DeepSpeed's CPU Adam). The reduced gradients are copied to the host
  /// (copy_to_host), the updated share back (copy_to_device).
  bool offloadOptimizer = false;
  /// Stage 3 as PyTorch FSDP (FULL_SHARD, mixed precision in the weights'
  /// type, one unit per layer and one for the rest) runs it instead of
  /// DeepSpeed: the flat parameter's shard is f32 (`fsdp.params`, the
  /// optimizer's parameter: no master copy), each unit's share is cast to
  /// the weights' type before its all-gather, each unit's gradients are
  /// reduce-scattered together once its backward pass is done (no bucket)
  /// into an f32 gradient shard, and the step has no scratch.
  bool fsdp = false;
};

/// Tensor parallelism as Megatron-LM runs it, the graph of one of `ranks`
/// GPUs: column-parallel query/key/value and MLP input projections (this
/// rank's heads and intermediate columns), row-parallel output and MLP
/// output projections whose partial sums are all-reduced (biases added
/// after), a vocabulary-parallel embedding and LM head (the logits and the
/// loss over this rank's vocabulary share). With `sequenceParallel` the
/// residual stream, norms and dropouts hold this rank's tokens only: an
/// all-gather before each column-parallel projection (again in the backward
/// pass), a reduce-scatter after each row-parallel one.
struct TensorParallelOptions {
  int64_t ranks = 1;
  bool sequenceParallel = false;
};

/// Pipeline parallelism: the graph of stage `stage` of `stages`, which
/// holds layers [stage L / stages, (stage + 1) L / stages), the embeddings
/// on the first stage, the head and the loss on the last. A training step
/// runs GeneratorOptions::microBatches micro-batches in the 1F1B order (the
/// stage's warm-up forward passes, then one forward and one backward at a
/// time, then the remaining backward passes): stage k keeps the activations
/// of min(stages - k, micro-batches) micro-batches at once. Activations and
/// their gradients come from and go to the neighbouring stages through
/// `recv` and `send` ops, ordered by a token they pass along.
///
/// With `virtualStages` v above 1, Megatron-LM's interleaved schedule: the
/// layers are split into p x v chunks and stage k holds chunks k, k + p, ...
/// (the embeddings on chunk 0, the head on the last); its forward and
/// backward passes run chunk by chunk, micro-batches in groups of p
/// (forward_backward_pipelining_with_interleaving: (p - k - 1) x 2 +
/// (v - 1) x p warm-up forward passes, all of them when m = p).
struct PipelineOptions {
  int64_t stages = 1;
  int64_t stage = 0;
  int64_t virtualStages = 1;
};

struct GeneratorOptions {
  ModelConfig model;
  int64_t layers = 0; ///< 0: the model's
  int64_t batch = 1;
  int64_t seq = 0;   ///< tokens of this step (prefill, train); 0: default
  int64_t kvLen = 0; ///< decode: the KV cache length; 0: default
  std::string weightType = "f16"; ///< f32, bf16, f16, int8, int4
  /// int8/int4 weights: 0 for a scale per output channel, else one scale
  /// (in the activation type) per group of this many input rows of each
  /// output column (GPTQ, AWQ: 128), applied inside a fused GEMM.
  int64_t quantGroup = 0;
  std::string activationType = "f16"; ///< f32, bf16, f16
  Mode mode = Mode::Prefill;
  bool unfusedAttention = false;
  Checkpointing checkpointing = Checkpointing::None;
  /// Full checkpointing: layers per checkpoint. The input of every k-th
  /// layer is kept and k layers are recomputed together before their
  /// backward (Megatron's uniform recomputation, --recompute-num-layers;
  /// Chen et al.'s segments of sqrt(n) layers).
  int64_t checkpointLayers = 1;
  /// Train: dropout probability (0: none). GPT-2 and BERT drop the
  /// embeddings' sum, each residual branch and, with unfused attention, the
  /// attention probabilities, as Hugging Face's models do; LLaMA only the
  /// attention probabilities (its only dropout). Fused attention keeps no
  /// mask (the kernel draws it again in its backward from the RNG state).
  double dropout = 0;
  Loss loss = Loss::Fused;
  BertHead bertHead = BertHead::MaskedLm;
  int64_t numLabels = 2; ///< the classifier's outputs
  Optimizer optimizer = Optimizer::AdamW;
  OptimizerImpl optimizerImpl = OptimizerImpl::Fused;
  /// optimizerImpl is a --stack preset's, which describes the stack's step
  /// without ZeRO: with DeepSpeed's ZeRO (dataParallel.zeroStage above 0,
  /// no FSDP) the stack runs DeepSpeed's fused step on the flat partition
  /// instead (the Hugging Face Trainer hands DeepSpeed the optimizer), as
  /// an explicit choice may not. Under FSDP the stack's own optimizer
  /// (torch.optim) steps the shards, as the preset says.
  bool optimizerImplFromStack = false;
  /// Train: micro-batches per optimizer step. With more than one, gradients
  /// accumulate in `gradientBuffer` (which must not be None); the graph is
  /// the last micro-batch, the one that runs the optimizer (earlier ones run
  /// the same forward and backward with the same buffers live).
  int64_t microBatches = 1;
  GradientBuffer gradientBuffer = GradientBuffer::None;
  /// Train: LoRA adapters of this rank (0: full fine-tuning) on the
  /// projections in `loraTargets`. Every other weight is frozen: no
  /// gradient, optimizer state or master copy, and nothing kept for one.
  int64_t loraRank = 0;
  unsigned loraTargets = LoraQuery | LoraValue;
  /// Train with LoRA: PEFT's lora_dropout, applied to each adapted
  /// projection's input on its own (a mask and an output per projection,
  /// both kept for lora_A's backward); 0: none.
  double loraDropout = 0;
  /// With LoRA dropout: one dropout per input for all the projections that
  /// read it (LitGPT's fused QKV adapter), not one per projection (PEFT).
  bool loraDropoutShared = false;
  /// Train, LLaMA family with fused attention: the attention as LitGPT
  /// computes it. Its q, k and v come from one fused projection, sliced by
  /// views. With multi-head attention the value heads SDPA keeps are a view
  /// of that output, so the attention's backward keeps all of it (its q and
  /// k parts too), not v alone: modelled by the three projections, whose
  /// outputs the attention's backward keeps. With grouped key/value heads
  /// LitGPT copies k and v out to every query head first (expand +
  /// reshape), and the attention keeps those copies.
  bool fusedQkv = false;
  /// Train, GPT-2, no checkpointing: the KV cache Hugging Face's model
  /// fills in training too (use_cache=True, its config's default; it is
  /// turned off under gradient checkpointing). The cache's update
  /// concatenates k and v into tensors of its own, and the attention's
  /// backward keeps those; q stays a view of the fused c_attn output,
  /// which so stays whole: 3 + 2 sbh per layer kept where the split heads
  /// alone are 3. (The LLaMA family's k and v are copies either way, and
  /// BERT has no cache.)
  bool trainingKvCache = false;
  /// Whether the step keeps that cache: asked for, in training, without
  /// checkpointing.
  bool keepsTrainingKvCache() const {
    return trainingKvCache && mode == Mode::Train &&
           checkpointing == Checkpointing::None;
  }
  /// Whether the step's optimizer states and gradient buffers are marked
  /// as made in its first step: asked for, in training, without DeepSpeed's
  /// ZeRO (whose partitions exist before it). Under FSDP torch.optim makes
  /// its states for the shards in the first step, and FSDP the gradient
  /// shard from the first backward pass.
  bool marksCreatedInFirstStep() const {
    return createdInFirstStep && mode == Mode::Train &&
           (dataParallel.zeroStage == 0 || dataParallel.fsdp);
  }
  /// The AdamW implementation the step runs: optimizerImpl, except that a
  /// preset's gives way to DeepSpeed's fused step under ZeRO
  /// (optimizerImplFromStack).
  OptimizerImpl effectiveOptimizerImpl() const {
    return optimizerImplFromStack && dataParallel.zeroStage > 0 &&
                   !dataParallel.fsdp
               ? OptimizerImpl::Fused
               : optimizerImpl;
  }
  /// A model whose GELU is gelu_new (ModelConfig::geluNew) computes it as
  /// Hugging Face's NewGELUActivation does in eager PyTorch,
  /// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), op by op: the
  /// backward keeps x, the tanh, 1 + tanh and 0.5 x (three tensors of x's
  /// size more than one GELU op keeps), and the forward makes each
  /// intermediate. Otherwise one GELU op, as gelu_pytorch_tanh runs.
  bool eagerGeluNew = false;
  /// Train: the optimizer is torch.optim's, which makes a weight's states
  /// (AdamW's moments, SGD's momentum, ...) in its first step, all of them
  /// before the first update, and the gradient buffers (`gradientBuffer`
  /// WeightType) are autograd's .grad, made from each weight's first
  /// gradient, not before the step: those arguments are marked
  /// memplan.created_in_first_step, and the caching-allocator model of the
  /// memory report allocates them there, as PyTorch's allocator sees them.
  /// Under FSDP the states are the shards' and the gradient buffer FSDP's
  /// f32 gradient shard; DeepSpeed's ZeRO makes its partitions before the
  /// first step (marksCreatedInFirstStep).
  bool createdInFirstStep = false;
  /// The LLaMA family's RMSNorm as eager PyTorch code runs it (Hugging
  /// Face's LlamaRMSNorm, LitGPT): the input upcast to f32 and that copy
  /// kept for the backward pass, instead of one fused kernel keeping the
  /// input in its own type. No change with f32 activations.
  bool eagerRmsNorm = false;
  /// Train with LoRA: QLoRA's base, every layer's linear weights in NF4
  /// (4 bits, an f32 absmax per 64 weights), dequantized for each GEMM into
  /// a buffer of the activation type, in the forward and again in the
  /// backward pass (bitsandbytes' Linear4bit). With double quantization the
  /// absmax values are 8-bit, with an f32 scale per 256 of them.
  bool qlora = false;
  bool doubleQuant = false;
  /// Set by the generator: the layers' linear weights are NF4 (QLoRA, or
  /// --weight-dtype nf4 for inference, where one token per step at batch 1
  /// runs bitsandbytes' fused 4-bit GEMV, `gemv_nf4`, without a copy).
  bool nf4Weights = false;
  /// Bytes of the math library's workspace (cuBLAS) given to every matmul.
  int64_t matmulWorkspace = 0;
  DataParallelOptions dataParallel;
  TensorParallelOptions tensorParallel;
  PipelineOptions pipeline;
};

/// Builds the graph; on bad options returns null and sets `error`.
/// The tokens of a step when none are given (and the KV cache's length in
/// decode): 4096 for rotary decoders (their context if shorter), the
/// learned positions of the others.
int64_t defaultSequenceLength(const ModelConfig &model);

mlir::OwningOpRef<mlir::ModuleOp>
generateTransformer(mlir::MLIRContext *context, GeneratorOptions options,
                    std::string &error);

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_TRANSFORMERGENERATOR_H
