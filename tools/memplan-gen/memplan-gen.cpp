//===- memplan-gen.cpp - Generate transformer graphs ----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   memplan-gen --model llama-70b --mode prefill --seq 4096 -o llama70b.mlir
//
// Writes a memplan graph of a real model's shapes: GPT-2 (small to xl),
// LLaMA (7B, 13B, 70B with grouped-query attention) and BERT (base, large),
// or any model of those families from its Hugging Face config.json, for
// prefill, decode or a training step. See docs/generator.md.
//
//===----------------------------------------------------------------------===//

#include "GeneratorChoices.h"
#include "GpuTarget.h"
#include "HfConfig.h"
#include "ModelConfig.h"
#include "StackOptions.h"
#include "StackPresets.h"
#include "TransformerGenerator.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Support/OutputFiles.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace memplan::gen;

/// Only these appear in --help (not the LLVM libraries' options).
static llvm::cl::OptionCategory toolOptions("memplan-gen options");
static StackOptions stackOptions(toolOptions);

static llvm::cl::opt<std::string>
    modelName("model", llvm::cl::desc("The model (set in main)"),
              llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> hfConfigPath(
    "hf-config",
    llvm::cl::desc("A Hugging Face config.json to build instead of --model "
                   "(model_type llama, mistral, qwen2, qwen3, gemma, gemma2, "
                   "gemma3_text, granite, phi3, gpt2 or bert); the model is "
                   "named after the file"),
    llvm::cl::value_desc("file"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    modeName("mode", llvm::cl::desc("prefill (default), decode or train"),
             llvm::cl::init("prefill"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t>
    layers("layers", llvm::cl::desc("Layers (default: the model's)"),
           llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> batch("batch", llvm::cl::desc("Batch size"),
                                    llvm::cl::init(1),
                                    llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> seq(
    "seq",
    llvm::cl::desc("Tokens per sequence in prefill and train (default: 1024 "
                   "for GPT-2, 512 for BERT, 4096 for LLaMA)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> kvLen(
    "kv-len",
    llvm::cl::desc("Decode: KV cache length (default: as --seq's default)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> weightDtype(
    "weight-dtype",
    llvm::cl::desc("f32, bf16, f16 (default), int8, int4 (per-channel "
                   "scales) or nf4 (bitsandbytes' 4-bit, an "
                   "absmax per 64; inference)"),
    llvm::cl::init("f16"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> quantGroup(
    "quant-group",
    llvm::cl::desc("int8/int4 weights: one scale per group of this many "
                   "input rows of each output column, applied by a fused "
                   "GEMM, as GPTQ and AWQ store them (default 0: one scale "
                   "per output channel)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    activationDtype("activation-dtype",
                    llvm::cl::desc("f32, bf16 or f16 (default)"),
                    llvm::cl::init("f16"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> attentionKind(
    "attention",
    llvm::cl::desc("fused (default) or unfused (materialises S x S scores)"),
    llvm::cl::init("fused"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> checkpointingKind(
    "checkpointing",
    llvm::cl::desc("Train: activation checkpointing, none (default), full "
                   "(recompute each layer before its backward) or selective "
                   "(recompute the core attention; needs --attention "
                   "unfused)"),
    llvm::cl::init("none"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> checkpointLayers(
    "checkpoint-layers",
    llvm::cl::desc("Train, --checkpointing full: layers per checkpoint "
                   "(default 1): keep every k-th layer's input and recompute "
                   "k layers together"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> loraRank(
    "lora-rank",
    llvm::cl::desc("Train: LoRA adapters of this rank on --lora-targets, "
                   "every other weight frozen (default 0: full "
                   "fine-tuning)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::list<std::string> loraTargets(
    "lora-targets",
    llvm::cl::desc("Train: projections with adapters, a comma-separated "
                   "list of q, k, v, o, gate, up, down (default q,v)"),
    llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions));
static llvm::cl::opt<double> loraDropout(
    "lora-dropout",
    llvm::cl::desc("Train, with --lora-rank: PEFT's lora_dropout probability "
                   "(default 0); each adapted projection drops its input on "
                   "its own and keeps the mask and the result"),
    llvm::cl::init(0.0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> trainingKvCache(
    "train-kv-cache",
    llvm::cl::desc("Train, GPT-2: the KV cache Hugging Face's model fills in "
                   "training (use_cache=True, its default; off under "
                   "checkpointing): the attention keeps copies of k and v "
                   "and, through q, all of c_attn's output (default: on "
                   "with --stack hf-trainer and deepspeed-zero0)"),
    llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> eagerGelu(
    "eager-gelu",
    llvm::cl::desc("A model whose GELU is gelu_new (GPT-2): computed op by op "
                   "as Hugging Face's eager code does, which keeps three "
                   "more tensors of the MLP's width per layer for the "
                   "backward pass (default: on with --stack hf-trainer and "
                   "deepspeed-zero0)"),
    llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool>
    qlora("qlora",
          llvm::cl::desc("Train, with --lora-rank: QLoRA's base, every layer's "
                         "linear weights in NF4 with an f32 absmax per 64, "
                         "dequantized for each GEMM (forward and backward)"),
          llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool>
    doubleQuant("double-quant",
                llvm::cl::desc("With --qlora or --weight-dtype nf4: 8-bit "
                               "absmax values with an f32 scale per "
                               "256 (bitsandbytes' double quantization)"),
                llvm::cl::cat(toolOptions));
static llvm::cl::opt<double> dropoutProbability(
    "dropout",
    llvm::cl::desc("Train: dropout probability (default 0: none). GPT-2 and "
                   "BERT drop the embeddings, each residual branch and, with "
                   "--attention unfused, the attention probabilities; LLaMA "
                   "only the attention probabilities. Each drop keeps a "
                   "one-byte-per-element mask for the backward pass"),
    llvm::cl::init(0.0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> lossKind(
    "loss",
    llvm::cl::desc("Train: fused (default: one cross-entropy op, gradient in "
                   "the activation type) or f32 (as Hugging Face in "
                   "PyTorch: logits upcast to f32, f32 log-softmax kept for "
                   "the backward pass, NLL)"),
    llvm::cl::init("fused"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> headKind(
    "head",
    llvm::cl::desc("Train, BERT: mlm (default: the masked-LM head tied to "
                   "the word embeddings) or classification (pooler and "
                   "classifier over the first token)"),
    llvm::cl::init("mlm"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> numLabels(
    "num-labels",
    llvm::cl::desc("Train, BERT --head classification: labels (default 2)"),
    llvm::cl::init(2), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> optimizerKind(
    "optimizer",
    llvm::cl::desc("Train: adamw (default: two f32 moments), sgd (momentum), "
                   "adafactor (factored second moment, no first) or "
                   "adamw-8bit (bitsandbytes: 8-bit moments, f32 absmax per "
                   "256 elements); f32 master weights unless the weights "
                   "are f32"),
    llvm::cl::init("adamw"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> gradAccum(
    "grad-accum",
    llvm::cl::desc("Train: micro-batches per optimizer step (default 1); "
                   "with more, gradients accumulate in --grad-buffer, live "
                   "through the forward pass"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> gradBufferKind(
    "grad-buffer",
    llvm::cl::desc("Train: persistent gradient buffers, none (default with "
                   "one micro-batch), weight (the weights' type, as PyTorch's "
                   ".grad; default with --grad-accum above 1) or f32 "
                   "(DeepSpeed's bf16 optimizer, Megatron's main_grad)"),
    llvm::cl::init("none"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> dataParallel(
    "data-parallel",
    llvm::cl::desc("GPUs the step is data-parallel over (default 1); the "
                   "graph is the one --rank runs (see --zero)"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> rankIndex(
    "rank",
    llvm::cl::desc("With --data-parallel: the rank whose step this is "
                   "(default 0); ZeRO's partitions differ by at most one "
                   "element between ranks"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> zeroStage(
    "zero",
    llvm::cl::desc("ZeRO stage of the data-parallel step: 0 (default: "
                   "PyTorch DDP, a replica with bucketed all-reduce), 1 "
                   "(optimizer states sharded), 2 (and gradients) or 3 (and "
                   "weights, gathered per layer; also for inference)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> bucketSize(
    "bucket-size",
    llvm::cl::desc("Bytes of a gradient bucket: DDP's bucket_cap_mb (default "
                   "25 MiB, the first bucket 1 MiB) or ZeRO-2/3's "
                   "reduce_bucket_size (default 5e8 elements)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> gradAsBucketView(
    "grad-as-bucket-view",
    llvm::cl::desc("DDP: gradients are views of the buckets "
                   "(gradient_as_bucket_view=True): no second copy"),
    llvm::cl::init(false), llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> zeroPrefetch(
    "zero-prefetch",
    llvm::cl::desc("ZeRO-3: gather the next layer's weights while one runs "
                   "(default true; --zero-prefetch=false gathers each layer "
                   "when it starts)"),
    llvm::cl::init(true), llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> offloadOptimizer(
    "offload-optimizer",
    llvm::cl::desc("ZeRO 1-3: the optimizer partition (f32 master share, "
                   "AdamW's states, f32 gradients) in the host's memory and "
                   "the step on the CPU, as DeepSpeed's offload_optimizer "
                   "runs it; reported as host memory, not in the total"),
    llvm::cl::init(false), llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> fsdp(
    "fsdp",
    llvm::cl::desc("With --data-parallel: PyTorch FSDP (FULL_SHARD, mixed "
                   "precision, a unit per layer) instead of DeepSpeed's "
                   "ZeRO-3: f32 shards of the weights and gradients, each "
                   "unit's gradients reduce-scattered together, no bucket"),
    llvm::cl::init(false), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> tensorParallel(
    "tensor-parallel",
    llvm::cl::desc("GPUs each layer is split over, as Megatron-LM does "
                   "(default 1): the graph is one of them (GPT-2 and the "
                   "LLaMA family)"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> sequenceParallel(
    "sequence-parallel",
    llvm::cl::desc("Train, with --tensor-parallel: the residual stream, norms "
                   "and dropouts hold this GPU's share of the tokens "
                   "(Megatron's sequence parallelism)"),
    llvm::cl::init(false), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> pipelineParallel(
    "pipeline-parallel",
    llvm::cl::desc("Pipeline stages the layers are split into (default 1); "
                   "the graph is --stage's, a training step running "
                   "--grad-accum micro-batches in the 1F1B order"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> stageIndex(
    "stage",
    llvm::cl::desc("With --pipeline-parallel: the stage whose graph this is "
                   "(default 0, the first, which keeps the most micro-batches "
                   "in flight)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> virtualStages(
    "virtual-stages",
    llvm::cl::desc("With --pipeline-parallel: model chunks per stage, "
                   "Megatron-LM's interleaved schedule (default 1: none); "
                   "--grad-accum must be a multiple of the stages"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> allStages(
    "all-stages",
    llvm::cl::desc("With --pipeline-parallel: every stage's step, one "
                   "function each (<name>_stage<k>), instead of --stage's; "
                   "the memory report then names the stage that decides"),
    llvm::cl::init(false), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> gpuName(
    "gpu",
    llvm::cl::desc("The GPU the graph is for, as sm_<capability> (sm_80, "
                   "sm_90, ...): sets the default cuBLAS workspace"),
    llvm::cl::init("sm_90"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> matmulWorkspace(
    "matmul-workspace",
    llvm::cl::desc("Bytes of cuBLAS workspace planned for every matmul "
                   "(default: NVIDIA's recommendation for --gpu, 32 MiB on "
                   "sm_90 and newer, 4 MiB before; 0: none)"),
    llvm::cl::init(-1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    outputPath("o", llvm::cl::desc("Output file (default: stdout)"),
               llvm::cl::value_desc("file"), llvm::cl::init("-"),
               llvm::cl::cat(toolOptions));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "memplan-gen: error: " << message << "\n";
  return 1;
}

/// Bytes per element of a checkpoint's dtype as transformers names it, or 0
/// for a name not known here.
static unsigned storedDtypeBytes(llvm::StringRef dtype) {
  return llvm::StringSwitch<unsigned>(dtype)
      .Cases({"float32", "float"}, 4)
      .Cases({"bfloat16", "float16", "half"}, 2)
      .Cases({"float64", "double"}, 8)
      .Default(0);
}

/// A note on stderr where a config's stored precision has other bytes per
/// element than the weights memplan-gen builds because no dtype was given:
/// the graph follows the options, and their default (f16) silently halves
/// an f32 model otherwise.
static void noteStoredDtype(const GeneratorOptions &options) {
  const std::string &stored = options.model.storedDtype;
  if (stored.empty() || weightDtype.getNumOccurrences() ||
      activationDtype.getNumOccurrences())
    return;
  unsigned bytes = storedDtypeBytes(stored);
  unsigned built = llvm::StringSwitch<unsigned>(options.weightType)
                       .Case("f32", 4)
                       .Cases({"f16", "bf16"}, 2)
                       .Default(0); // quantized weights: no note
  if (bytes == 0 || built == 0 || bytes == built)
    return;
  llvm::errs() << "memplan-gen: note: " << hfConfigPath
               << ": the checkpoint stores " << stored << " (" << bytes
               << " bytes per element); the graph's weights are "
               << options.weightType << " and its activations "
               << options.activationType
               << ", the defaults: give --weight-dtype and --activation-dtype "
                  "to plan another precision\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // The description must outlive the parser (cl::desc keeps a StringRef).
  static const std::string modelHelp = "The model: " + modelNames();
  modelName.setDescription(modelHelp);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "memplan-gen: transformer graphs\n");
  GeneratorOptions options;
  llvm::Expected<ModelConfig> model =
      selectModel(modelName, hfConfigPath, "memplan-gen", llvm::errs());
  if (!model)
    return fail(llvm::toString(model.takeError()));
  options.model = *model;
  std::string error;
  std::optional<StackPreset> stack = stackOptions.preset(error);
  std::optional<Mode> mode = parseChoice<Mode>("mode", modeName, kModes, error);
  std::optional<bool> unfused =
      parseChoice<bool>("attention", attentionKind, kAttentionKinds, error);
  std::optional<Checkpointing> checkpointing = parseChoice<Checkpointing>(
      "checkpointing", checkpointingKind, kCheckpointings, error);
  std::optional<BertHead> head =
      parseChoice<BertHead>("head", headKind,
                            {{"mlm", BertHead::MaskedLm},
                             {"classification", BertHead::Classification}},
                            error);
  std::optional<Optimizer> optimizer =
      parseChoice<Optimizer>("optimizer", optimizerKind, kOptimizers, error);
  // What the command line chose of a stack's choices; the rest is the
  // stack's (applyStack), memplan's own without --stack, whose choices are
  // every option's default.
  StackOverrides given = stackOptions.given(error);
  if (lossKind.getNumOccurrences())
    given.loss = parseChoice<Loss>("loss", lossKind, kLosses, error);
  if (gradBufferKind.getNumOccurrences())
    given.gradientBuffer = parseChoice<GradientBuffer>(
        "gradient buffer", gradBufferKind, kGradientBuffers, error);
  if (dropoutProbability.getNumOccurrences())
    given.dropout = dropoutProbability;
  if (trainingKvCache.getNumOccurrences())
    given.trainingKvCache = trainingKvCache;
  if (eagerGelu.getNumOccurrences())
    given.eagerGeluNew = eagerGelu;
  given.attentionGiven = attentionKind.getNumOccurrences() > 0;
  if (!error.empty())
    return fail(error);
  bool trainStack = stackOptions.stackGiven();
  if (trainStack && *mode != Mode::Train)
    return fail("--stack sets how a training step runs; it needs --mode "
                "train");
  if (std::string mismatch =
          trainStack
              ? stackModelMismatch(stackOptions.stack, *stack, options.model)
              : "";
      !mismatch.empty())
    return fail(mismatch);
  if (eagerGelu.getNumOccurrences() && eagerGelu && !options.model.geluNew)
    return fail("--eager-gelu computes gelu_new as Hugging Face's eager code "
                "does; " +
                options.model.name + "'s activation is not gelu_new");
  if (trainingKvCache.getNumOccurrences() && trainingKvCache &&
      options.model.family != Family::Gpt2)
    return fail("--train-kv-cache models what GPT-2's fused c_attn keeps "
                "beside Hugging Face's KV cache; " +
                options.model.name +
                "'s k and v are copies with or without it");
  if (trainingKvCache.getNumOccurrences() && trainingKvCache &&
      *mode != Mode::Train)
    return fail("--train-kv-cache models the cache a training step fills; it "
                "needs --mode train");
  if (stackOptions.rmsNorm.getNumOccurrences() &&
      options.model.family != Family::Llama)
    return fail("--rms-norm chooses how the LLaMA family's RMSNorm runs; " +
                options.model.name + " normalizes with LayerNorm");
  options.mode = *mode;
  options.unfusedAttention = *unfused;
  options.checkpointing = *checkpointing;
  options.optimizer = *optimizer;
  options.bertHead = *head;
  options.numLabels = numLabels;
  options.microBatches = gradAccum;
  options.checkpointLayers = checkpointLayers;
  options.loraRank = loraRank;
  options.qlora = qlora;
  options.loraDropout = loraDropout;
  options.doubleQuant = doubleQuant;
  if (!loraTargets.empty()) {
    options.loraTargets = 0;
    for (const std::string &target : loraTargets) {
      std::optional<unsigned> bit =
          parseChoice<unsigned>("LoRA target", target, kLoraTargets, error);
      if (!bit)
        return fail(error);
      options.loraTargets |= *bit;
    }
    if (!loraRank)
      return fail("--lora-targets needs --lora-rank");
  }
  options.pipeline.stages = pipelineParallel;
  options.pipeline.stage = stageIndex;
  options.pipeline.virtualStages = virtualStages;
  options.tensorParallel.ranks = tensorParallel;
  options.tensorParallel.sequenceParallel = sequenceParallel;
  options.dataParallel.ranks = dataParallel;
  options.dataParallel.rank = rankIndex;
  options.dataParallel.zeroStage = zeroStage;
  options.dataParallel.bucketBytes = bucketSize;
  options.dataParallel.gradientAsBucketView = gradAsBucketView;
  options.dataParallel.prefetch = zeroPrefetch;
  options.dataParallel.offloadOptimizer = offloadOptimizer;
  options.dataParallel.fsdp = fsdp;
  if (fsdp && !zeroStage.getNumOccurrences())
    options.dataParallel.zeroStage = 3;
  if (zeroPrefetch.getNumOccurrences() && options.dataParallel.zeroStage != 3)
    return fail("--zero-prefetch chooses when ZeRO-3 gathers weights; give "
                "--zero 3");
  if (given.createdInFirstStep.value_or(false) && options.mode != Mode::Train)
    return fail("--created-in-first-step models what a training step makes "
                "in its first run: it needs --mode train");
  if (given.createdInFirstStep.value_or(false) &&
      options.dataParallel.zeroStage > 0 && !options.dataParallel.fsdp)
    return fail("--created-in-first-step models what torch.optim, autograd "
                "and FSDP make in a training step; DeepSpeed's ZeRO makes "
                "its partitions before the first step");
  options.layers = layers;
  options.batch = batch;
  options.seq = seq;
  options.kvLen = kvLen;
  options.weightType = weightDtype;
  options.quantGroup = quantGroup;
  options.activationType = activationDtype;
  applyStack(options, *stack, given);
  noteStoredDtype(options);
  if (layers < 0 || batch < 0 || seq < 0 || kvLen < 0)
    return fail("layers, batch, seq and kv-len must be positive");
  std::optional<int> capability = parseComputeCapability(gpuName);
  if (!capability)
    return fail("unknown GPU '" + gpuName +
                "'; expected sm_<compute capability>, such as sm_80 or sm_90");
  if (matmulWorkspace < -1)
    return fail("matmul-workspace must be 0 or more bytes");
  options.matmulWorkspace = matmulWorkspace >= 0
                                ? int64_t(matmulWorkspace)
                                : recommendedCublasWorkspace(*capability);

  mlir::MLIRContext context;
  context.loadDialect<memplan::MemPlanDialect, mlir::func::FuncDialect>();
  if (allStages && pipelineParallel == 1)
    return fail("--all-stages generates every pipeline stage: give "
                "--pipeline-parallel N with N above 1");
  if (allStages && stageIndex.getNumOccurrences())
    return fail("--all-stages and --stage choose the stages two ways; give "
                "one");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      generateTransformer(&context, options, error);
  if (!module)
    return fail(error);
  // Each further stage's function moved into the first module, every one
  // renamed after its stage.
  auto renameForStage = [](mlir::ModuleOp stageModule, int64_t stage) {
    auto function = *stageModule.getOps<mlir::func::FuncOp>().begin();
    function.setSymName(
        (function.getSymName() + "_stage" + llvm::Twine(stage)).str());
    return function;
  };
  if (allStages)
    renameForStage(*module, 0);
  for (int64_t stage = 1; allStages && stage < pipelineParallel; ++stage) {
    options.pipeline.stage = stage;
    mlir::OwningOpRef<mlir::ModuleOp> stageModule =
        generateTransformer(&context, options, error);
    if (!stageModule)
      return fail(error);
    renameForStage(*stageModule, stage)
        ->moveBefore(module->getBody(), module->getBody()->end());
  }

  std::string fileError;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputPath, &fileError);
  if (!output)
    return fail(fileError);
  output->os()
      << "// Generated by memplan-gen "
      << (hfConfigPath.empty() ? "--model " + modelName
                               : "--hf-config " + hfConfigPath)
      << " --mode " << modeName << " --batch " << batch
      << (seq ? " --seq " + std::to_string(seq) : std::string())
      << (kvLen ? " --kv-len " + std::to_string(kvLen) : std::string())
      << (layers ? " --layers " + std::to_string(layers) : std::string())
      << " --weight-dtype " << weightDtype
      << (quantGroup ? " --quant-group " + std::to_string(quantGroup)
                     : std::string())
      << " --activation-dtype " << activationDtype << " --attention "
      << (options.unfusedAttention ? "unfused" : "fused")
      << (checkpointingKind != "none" ? " --checkpointing " + checkpointingKind
                                      : std::string())
      << (checkpointLayers != 1
              ? " --checkpoint-layers " + std::to_string(checkpointLayers)
              : std::string())
      << (headKind != "mlm" ? " --head " + headKind + " --num-labels " +
                                  std::to_string(numLabels)
                            : std::string())
      << (options.loss != Loss::Fused
              ? " --loss " + choiceName<Loss>(kLosses, options.loss).str()
              : std::string())
      << (options.eagerRmsNorm ? " --rms-norm eager" : "")
      << (optimizerKind != "adamw" ? " --optimizer " + optimizerKind
                                   : std::string())
      << (options.effectiveOptimizerImpl() != OptimizerImpl::Fused
              ? " --optimizer-impl " +
                    choiceName<OptimizerImpl>(kOptimizerImpls,
                                              options.effectiveOptimizerImpl())
                        .str()
              : std::string())
      << " --gpu " << gpuName;
  if (trainStack)
    output->os() << " --stack " << stackOptions.stack;
  if (options.dropout != 0)
    output->os() << " --dropout " << llvm::format("%g", options.dropout);
  if (loraRank) {
    output->os() << " --lora-rank " << loraRank << " --lora-targets ";
    llvm::ListSeparator comma(",");
    for (auto [name, bit] : kLoraTargets)
      if (options.loraTargets & bit)
        output->os() << comma << name;
    if (loraDropout != 0)
      output->os() << " --lora-dropout "
                   << llvm::format("%g", double(loraDropout));
    if (options.loraDropoutShared)
      output->os() << " --lora-dropout-shared";
  }
  if (options.fusedQkv)
    output->os() << " --fused-qkv";
  if (options.keepsTrainingKvCache())
    output->os() << " --train-kv-cache";
  if (options.eagerGeluNew)
    output->os() << " --eager-gelu";
  if (options.marksCreatedInFirstStep())
    output->os() << " --created-in-first-step";
  if (qlora)
    output->os() << " --qlora";
  if (doubleQuant)
    output->os() << " --double-quant";
  if (gradAccum != 1)
    output->os() << " --grad-accum " << gradAccum;
  if (options.gradientBuffer != GradientBuffer::None)
    output->os() << " --grad-buffer "
                 << choiceName<GradientBuffer>(kGradientBuffers,
                                               options.gradientBuffer);
  if (pipelineParallel != 1)
    output->os() << " --pipeline-parallel " << pipelineParallel
                 << (virtualStages != 1
                         ? " --virtual-stages " + std::to_string(virtualStages)
                         : std::string())
                 << (allStages ? std::string(" --all-stages")
                               : " --stage " + std::to_string(stageIndex));
  if (tensorParallel != 1)
    output->os() << " --tensor-parallel " << tensorParallel
                 << (sequenceParallel ? " --sequence-parallel" : "");
  const DataParallelOptions &dp = options.dataParallel;
  if (dp.ranks != 1 || dp.zeroStage != 0) {
    output->os() << " --data-parallel " << dp.ranks << " --rank " << dp.rank
                 << " --zero " << dp.zeroStage;
    if (bucketSize)
      output->os() << " --bucket-size " << bucketSize;
    if (dp.gradientAsBucketView)
      output->os() << " --grad-as-bucket-view";
    if (dp.zeroStage == 3 && !dp.prefetch)
      output->os() << " --zero-prefetch=false";
    if (dp.offloadOptimizer)
      output->os() << " --offload-optimizer";
    if (dp.fsdp)
      output->os() << " --fsdp";
  }
  output->os() << " --matmul-workspace " << options.matmulWorkspace << "\n";
  module->print(output->os());
  output->os() << "\n";
  if (llvm::Error unwritten = memplan::keepOutput(*output))
    return fail(llvm::toString(std::move(unwritten)));
  return 0;
}
