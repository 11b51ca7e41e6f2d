//===- memplan-fit.cpp - What fits on a GPU, from planned graphs ----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   memplan-fit --model llama-7b --mode train --seq 512 --gpu-memory 24GiB
//
// Answers "will it fit, and how": for each candidate way to run the step
// (full fine-tuning, LoRA or QLoRA; weight precision; activation
// checkpointing), the largest micro-batch whose step fits in the GPU's
// memory, and the cheapest candidate that fits the micro-batch asked for.
// Every number is a generated graph planned by --plan-offsets and measured
// from its proven plan (the memory report's total), never a formula. See
// docs/fit.md.
//
//===----------------------------------------------------------------------===//

#include "CandidateSearch.h"
#include "ClusterLayout.h"
#include "ClusterTable.h"
#include "GeneratorChoices.h"
#include "GpuTarget.h"
#include "HfConfig.h"
#include "ModelConfig.h"
#include "StackOptions.h"
#include "StackPresets.h"
#include "TransformerGenerator.h"

#include "memplan/Support/AlgorithmOption.h"
#include "memplan/Support/FormatBytes.h"
#include "memplan/Support/OutputFiles.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/Threading.h"

#include <cmath>
#include <initializer_list>
#include <memory>

using namespace memplan;
using namespace memplan::gen;
using namespace memplan::fit;

static llvm::cl::OptionCategory toolOptions("memplan-fit options");
static StackOptions stackOptions(toolOptions);

static llvm::cl::opt<std::string>
    modelName("model", llvm::cl::desc("The model (set in main)"),
              llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> hfConfigPath(
    "hf-config",
    llvm::cl::desc("A Hugging Face config.json to weigh instead of --model"),
    llvm::cl::value_desc("file"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    modeName("mode", llvm::cl::desc("train (default), prefill or decode"),
             llvm::cl::init("train"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> gpuMemoryText(
    "gpu-memory",
    llvm::cl::desc("The GPU's memory: bytes, or with a unit (KB, MB, GB, TB "
                   "are powers of 1000; KiB, MiB, GiB, TiB of 1024), such as "
                   "80GB or 24GiB. Required"),
    llvm::cl::value_desc("size"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t>
    seq("seq",
        llvm::cl::desc("Tokens per sequence in prefill and train (default: the "
                       "model's memplan-gen default)"),
        llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t>
    kvLen("kv-len", llvm::cl::desc("Decode: the KV cache length"),
          llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t>
    layers("layers", llvm::cl::desc("Layers (default: the model's)"),
           llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> wantedBatch(
    "batch",
    llvm::cl::desc("The micro-batch the cheapest candidate must fit "
                   "(default 1)"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t>
    maxBatch("max-batch",
             llvm::cl::desc("The largest micro-batch tried (default 1024)"),
             llvm::cl::init(1024), llvm::cl::cat(toolOptions));
static llvm::cl::list<std::string> methodNames(
    "methods",
    llvm::cl::desc("Train: what is trained, in order of preference, from "
                   "full (every weight), lora (adapters on --lora-targets) "
                   "and qlora (adapters on an NF4 base); default "
                   "full,lora,qlora"),
    llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions));
static llvm::cl::list<std::string> weightTypes(
    "weight-dtypes",
    llvm::cl::desc("Weight precisions, in order of preference (default: "
                   "the activation type, int8, nf4, int4 for inference; the "
                   "activation type for train)"),
    llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> quantGroup(
    "quant-group",
    llvm::cl::desc("The int8 and int4 candidates' scales: one per group of "
                   "this many input rows (default 0: per output channel)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::list<std::string> checkpointingNames(
    "checkpointing",
    llvm::cl::desc("Train: activation checkpointing, in order of preference, "
                   "from none, selective (with --attention unfused) and "
                   "full; default none,full (none,selective,full with "
                   "--attention unfused)"),
    llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    activationDtype("activation-dtype",
                    llvm::cl::desc("f32, bf16 (default) or f16"),
                    llvm::cl::init("bf16"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    attentionKind("attention", llvm::cl::desc("fused (default) or unfused"),
                  llvm::cl::init("fused"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> optimizerKind(
    "optimizer",
    llvm::cl::desc("Train: adamw (default), sgd, adafactor or adamw-8bit"),
    llvm::cl::init("adamw"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t>
    loraRank("lora-rank",
             llvm::cl::desc("The rank of LoRA and QLoRA (default 8)"),
             llvm::cl::init(8), llvm::cl::cat(toolOptions));
static llvm::cl::opt<double> loraDropout(
    "lora-dropout",
    llvm::cl::desc("LoRA's and QLoRA's lora_dropout probability (default 0)"),
    llvm::cl::init(0.0), llvm::cl::cat(toolOptions));
static llvm::cl::list<std::string>
    loraTargets("lora-targets",
                llvm::cl::desc("The projections with adapters (default q,v)"),
                llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> gpuName(
    "gpu",
    llvm::cl::desc("The GPU as sm_<capability> (default sm_90): the cuBLAS "
                   "workspace and the CUDA context"),
    llvm::cl::init("sm_90"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> cudaContext(
    "cuda-context",
    llvm::cl::desc("Bytes the CUDA context takes (default: memplan's figure "
                   "for --gpu, 692.81 MiB measured on sm_90, 300 MiB "
                   "elsewhere; 0: leave it out)"),
    llvm::cl::init(-1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> fitOn(
    "fit-on",
    llvm::cl::desc("The number that must fit: plan (default: the memory "
                   "report's total, what memplan's generated code "
                   "allocates) or pytorch (the caching-allocator model's "
                   "max_memory_reserved, for the same step run by PyTorch "
                   "eager)"),
    llvm::cl::init("plan"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<Algorithm> algorithm(
    "algorithm",
    llvm::cl::desc("How each graph is planned: --plan-offsets's algorithm "
                   "(default greedy-by-size, as --plan-offsets; compile with "
                   "the same one for the plan's numbers to hold)"),
    llvm::cl::init(Algorithm::GreedyBySize), algorithmValues(),
    llvm::cl::cat(toolOptions));
static llvm::cl::opt<unsigned> threads(
    "jobs",
    llvm::cl::desc("Candidates weighed at once (default: one per core)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> linearSearch(
    "linear-search",
    llvm::cl::desc("Try every micro-batch from 1 up, not doubling and "
                   "bisecting (slow; a check of the search)"),
    llvm::cl::Hidden, llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> planEveryStep(
    "plan-every-step",
    llvm::cl::desc("Plan every micro-batch the search tries, also one whose "
                   "lower bound alone exceeds the memory (slow; a check "
                   "that the bound changes no answer)"),
    llvm::cl::Hidden, llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> gpus(
    "gpus",
    llvm::cl::desc("GPUs the training step runs on (default 1). With more, "
                   "weighs every layout: tensor x pipeline x data "
                   "parallelism, sequence parallelism, the ZeRO stage"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> globalBatch(
    "global-batch",
    llvm::cl::desc("With --gpus: sequences per optimizer step over all "
                   "replicas (default: the number of GPUs)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> maxTensorParallel(
    "max-tensor-parallel",
    llvm::cl::desc("With --gpus: the most GPUs a layer is split over "
                   "(default 8, one NVLink node)"),
    llvm::cl::init(8), llvm::cl::cat(toolOptions));
static llvm::cl::opt<double> gpuFlops(
    "gpu-flops",
    llvm::cl::desc("With --gpus: one GPU's peak FLOP/s in the cost model "
                   "(default: --gpu's dense 16-bit tensor-core peak)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> linkBandwidth(
    "link-bandwidth",
    llvm::cl::desc("With --gpus: bytes per second one GPU sends, such as "
                   "450GB (default: --gpu's NVLink, or PCIe without it)"),
    llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> hostBandwidth(
    "host-bandwidth",
    llvm::cl::desc("With --gpus: bytes per second between a GPU and its "
                   "host, such as 64GB (default: --gpu's PCIe)"),
    llvm::cl::cat(toolOptions));
static llvm::cl::opt<bool> weighOffload(
    "offload",
    llvm::cl::desc("With --gpus: also weigh each ZeRO stage with its "
                   "optimizer offloaded to the host (default true)"),
    llvm::cl::init(true), llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> virtualStages(
    "virtual-stages",
    llvm::cl::desc("With --gpus: also weigh each pipeline interleaved with "
                   "this many model chunks per stage (Megatron-LM's "
                   "schedule; default 1: not weighed)"),
    llvm::cl::init(1), llvm::cl::cat(toolOptions));
static llvm::cl::opt<unsigned>
    top("top",
        llvm::cl::desc("With --gpus: the layouts shown, fastest first "
                       "(default 10; 0: every one that fits)"),
        llvm::cl::init(10), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    jsonPath("json", llvm::cl::desc("Also write the table as JSON here"),
             llvm::cl::value_desc("file"), llvm::cl::cat(toolOptions));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "memplan-fit: error: " << message << "\n";
  return 1;
}

/// `text` as bytes: digits with an optional fraction and unit; none for
/// anything else, zero, or more than 2^63 bytes.
static std::optional<uint64_t> parseByteSize(llvm::StringRef text) {
  text = text.trim();
  size_t numberEnd = text.find_first_not_of("0123456789.");
  llvm::StringRef number = text.take_front(numberEnd);
  llvm::StringRef unit = text.drop_front(number.size()).trim();
  double value;
  if (number.empty() || number.getAsDouble(value))
    return std::nullopt;
  static const std::pair<llvm::StringRef, double> kUnits[] = {
      {"", 1},         {"B", 1},       {"KB", 1e3},     {"MB", 1e6},
      {"GB", 1e9},     {"TB", 1e12},   {"KiB", 0x1p10}, {"MiB", 0x1p20},
      {"GiB", 0x1p30}, {"TiB", 0x1p40}};
  for (const auto &[name, scale] : kUnits) {
    if (!unit.equals_insensitive(name))
      continue;
    double bytes = std::floor(value * scale);
    if (!(bytes >= 1) || bytes >= 0x1p63)
      return std::nullopt;
    return static_cast<uint64_t>(bytes);
  }
  return std::nullopt;
}

/// What the header says must fit: the caching-allocator model does not
/// depend on the offsets, the plan's arena does (on --algorithm).
static std::string fitOnText(bool onPytorch) {
  if (onPytorch)
    return "PyTorch's max_memory_reserved";
  return "memplan's plan, " + std::string(getAlgorithmName(algorithm));
}

/// Writes `json` to --json (when given), then flushes the table; the exit
/// code.
static int writeJsonAndFlush(std::string json) {
  if (!jsonPath.empty())
    if (llvm::Error written = writeOutputFiles({{jsonPath, std::move(json)}}))
      return fail(llvm::toString(std::move(written)));
  llvm::raw_fd_ostream &os = llvm::outs();
  os.flush();
  if (os.has_error()) {
    os.clear_error();
    return fail("cannot write the table to standard output");
  }
  return 0;
}

/// memplan-fit --gpus: the table of layouts, and the JSON.
static int reportLayouts(const GeneratorOptions &base,
                         const std::vector<Candidate> &candidates,
                         const std::vector<Outcome> &outcomes,
                         uint64_t gpuMemory, uint64_t contextBytes,
                         bool onPytorch, const CostModel &costModel) {
  std::vector<ClusterRow> rows;
  for (size_t index = 0; index < candidates.size(); ++index)
    rows.push_back({&candidates[index], &outcomes[index],
                    describeCandidate(candidates[index], Mode::Train)});
  std::vector<ClusterRow> ranked = rankRows(std::move(rows));
  llvm::raw_fd_ostream &os = llvm::outs();
  os << "memplan-fit: " << base.model.name << ", train, "
     << (seq ? seq : defaultSequenceLength(base.model))
     << " tokens, global batch " << globalBatch << ", on " << gpus << " x "
     << formatBytes(gpuMemory) << " (" << gpuName << "; CUDA context "
     << formatBytes(contextBytes) << "; fit on " << fitOnText(onPytorch)
     << ")\n"
     << "cost model: " << llvm::format("%.0f", costModel.flopsPerSecond / 1e12)
     << " TFLOP/s, " << llvm::format("%.0f", costModel.bytesPerSecond / 1e9)
     << " GB/s between GPUs, "
     << llvm::format("%.0f", costModel.hostBytesPerSecond / 1e9)
     << " GB/s to the host, no overlap, 1F1B bubble\n";
  printClusterTable(os, ranked, top, gpuMemory);
  unsigned graphs = 0, bounded = 0;
  for (const Outcome &outcome : outcomes) {
    graphs += outcome.graphs;
    bounded += outcome.boundedOut;
  }
  os << graphs << (graphs == 1 ? " graph" : " graphs") << " planned";
  if (bounded)
    os << "; " << bounded << (bounded == 1 ? " more step" : " more steps")
       << " not planned: their lower bound exceeds the memory";
  os << "\n";

  if (!jsonPath.empty()) {
    std::string text;
    llvm::raw_string_ostream json(text);
    llvm::json::OStream out(json, 2);
    out.object([&] {
      out.attribute("model", base.model.name);
      out.attribute("mode", "train");
      out.attribute("gpu", gpuName);
      out.attribute("gpus", int64_t(gpus));
      out.attribute("global_batch", int64_t(globalBatch));
      out.attribute("gpu_memory_bytes", gpuMemory);
      out.attribute("cuda_context_bytes", contextBytes);
      out.attribute("fit_on", fitOn);
      out.attribute("algorithm", std::string(getAlgorithmName(algorithm)));
      out.attribute("flops_per_second", costModel.flopsPerSecond);
      out.attribute("link_bytes_per_second", costModel.bytesPerSecond);
      out.attribute("host_bytes_per_second", costModel.hostBytesPerSecond);
      out.attribute("graphs_planned", graphs);
      out.attribute("steps_bounded_out", bounded);
      writeClusterRows(out, ranked, gpuMemory);
    });
    json << "\n";
    return writeJsonAndFlush(std::move(text));
  }
  return writeJsonAndFlush("");
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  static const std::string modelHelp = "The model: " + modelNames();
  modelName.setDescription(modelHelp);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "memplan-fit: the largest micro-batch, and the cheapest way to run a "
      "step, that fits a GPU\n");

  GeneratorOptions base;
  llvm::Expected<ModelConfig> model =
      selectModel(modelName, hfConfigPath, "memplan-fit", llvm::errs());
  if (!model)
    return fail(llvm::toString(model.takeError()));
  base.model = *model;
  if (gpuMemoryText.empty())
    return fail("give the GPU's memory as --gpu-memory SIZE (such as 80GB "
                "or 24GiB)");
  std::optional<uint64_t> gpuMemory = parseByteSize(gpuMemoryText);
  if (!gpuMemory)
    return fail("cannot read --gpu-memory '" + gpuMemoryText +
                "'; expected a positive size such as 81559MiB, 80GB or "
                "24GiB");

  std::string error;
  std::optional<Mode> mode = parseChoice<Mode>("mode", modeName, kModes, error);
  std::optional<bool> unfused =
      parseChoice<bool>("attention", attentionKind, kAttentionKinds, error);
  std::optional<StackPreset> stack = stackOptions.preset(error);
  std::optional<Optimizer> optimizer =
      parseChoice<Optimizer>("optimizer", optimizerKind, kOptimizers, error);
  // What the command line chose of a stack's choices; the rest is the
  // stack's (applyStack, for each candidate).
  StackOverrides given = stackOptions.given(error);
  given.attentionGiven = attentionKind.getNumOccurrences() > 0;
  std::optional<bool> onPytorch = parseChoice<bool>(
      "measure", fitOn, {{"plan", false}, {"pytorch", true}}, error);
  std::vector<Method> methods;
  for (const std::string &name : methodNames)
    if (std::optional<Method> method =
            parseChoice<Method>("method", name, kMethods, error))
      methods.push_back(*method);
  std::vector<Checkpointing> checkpointings;
  for (const std::string &name : checkpointingNames)
    if (std::optional<Checkpointing> checkpointing = parseChoice<Checkpointing>(
            "checkpointing", name, kCheckpointings, error))
      checkpointings.push_back(*checkpointing);
  unsigned targets = 0;
  for (const std::string &target : loraTargets)
    if (std::optional<unsigned> bit =
            parseChoice<unsigned>("LoRA target", target, kLoraTargets, error))
      targets |= *bit;
  if (!error.empty())
    return fail(error);
  std::optional<int> capability = parseComputeCapability(gpuName);
  if (!capability)
    return fail("unknown GPU '" + gpuName +
                "'; expected sm_<compute capability>, such as sm_80 or sm_90");
  if (wantedBatch < 1 || maxBatch < 1)
    return fail("--batch and --max-batch must be at least 1");
  if (wantedBatch > maxBatch)
    return fail("--batch " + llvm::Twine(wantedBatch.getValue()) +
                " is above --max-batch " + llvm::Twine(maxBatch.getValue()));
  if (seq < 0 || kvLen < 0 || layers < 0)
    return fail("seq, kv-len and layers must be positive");
  if (std::string mismatch =
          stack ? stackModelMismatch(stackOptions.stack, *stack, base.model)
                : "";
      !mismatch.empty())
    return fail(mismatch);
  if (stackOptions.rmsNorm.getNumOccurrences() &&
      base.model.family != Family::Llama)
    return fail("--rms-norm chooses how the LLaMA family's RMSNorm runs; " +
                base.model.name + " normalizes with LayerNorm");
  if (cudaContext < -1)
    return fail("--cuda-context must be 0 or more bytes");
  bool train = *mode == Mode::Train;
  if (stackOptions.createdInFirstStep && !train)
    return fail("--created-in-first-step models what a training step "
                "makes in its first run: it needs --mode train");
  if (stackOptions.fusedQkv && !train)
    return fail("--fused-qkv models what LitGPT's attention keeps for its "
                "backward pass: it needs --mode train");
  CostModel costModel;
  if (gpus < 1)
    return fail("--gpus must be at least 1");
  bool cluster = gpus > 1;
  if (!cluster &&
      (globalBatch.getNumOccurrences() ||
       maxTensorParallel.getNumOccurrences() || gpuFlops.getNumOccurrences() ||
       linkBandwidth.getNumOccurrences() || hostBandwidth.getNumOccurrences() ||
       weighOffload.getNumOccurrences() || virtualStages.getNumOccurrences() ||
       top.getNumOccurrences()))
    return fail("--global-batch, --max-tensor-parallel, --gpu-flops, "
                "--link-bandwidth, --host-bandwidth, --offload, "
                "--virtual-stages and --top weigh layouts over several GPUs: "
                "give --gpus N with N above 1");
  if (cluster) {
    if (!train)
      return fail("--gpus weighs the layouts of a training step; give --mode "
                  "train");
    if (wantedBatch.getNumOccurrences())
      return fail("--batch is the micro-batch one GPU must fit; with --gpus, "
                  "give the step's sequences as --global-batch");
    if (!globalBatch.getNumOccurrences())
      globalBatch = gpus;
    if (globalBatch < 1 || maxTensorParallel < 1 || virtualStages < 1)
      return fail("--global-batch, --max-tensor-parallel and --virtual-stages "
                  "must be at least 1");
    costModel.flopsPerSecond =
        gpuFlops > 0 ? double(gpuFlops) : peakFlopsPerSecond(*capability);
    if (gpuFlops.getNumOccurrences() && !(gpuFlops > 0))
      return fail("--gpu-flops must be positive");
    if (costModel.flopsPerSecond == 0)
      return fail("memplan has no peak FLOP/s for " + gpuName +
                  "; give --gpu-flops");
    // A bandwidth option, or the GPU's figure; 0 (and `rateError`) if neither.
    std::string rateError;
    auto bandwidth = [&](const llvm::cl::opt<std::string> &option, double known,
                         llvm::StringRef what,
                         llvm::StringRef example) -> double {
      std::string flag = ("--" + option.ArgStr).str();
      if (option.empty()) {
        if (known == 0)
          rateError = "memplan has no " + what.str() + " for " + gpuName +
                      "; give " + flag;
        return known;
      }
      std::optional<uint64_t> bytes = parseByteSize(option);
      if (!bytes)
        rateError = "cannot read " + flag + " '" + option +
                    "'; expected bytes per second such as " + example.str();
      return bytes ? double(*bytes) : 0;
    };
    costModel.bytesPerSecond =
        bandwidth(linkBandwidth, linkBytesPerSecond(*capability),
                  "link bandwidth", "450GB");
    if (!rateError.empty())
      return fail(rateError);
    costModel.hostBytesPerSecond =
        bandwidth(hostBandwidth, hostBytesPerSecond(*capability),
                  "host link bandwidth", "64GB");
    if (!rateError.empty())
      return fail(rateError);
  }
  if (!train && (!methodNames.empty() || !checkpointingNames.empty()))
    return fail("--methods and --checkpointing choose how a training step "
                "runs; they need --mode train");
  // Every other choice of how a training step runs is refused outside one
  // too, never ignored (--rms-norm applies to inference as well).
  if (!train)
    for (const llvm::cl::Option *option :
         std::initializer_list<const llvm::cl::Option *>{
             &stackOptions.stack, &stackOptions.optimizerImpl,
             &stackOptions.loraDropoutShared, &optimizerKind, &loraRank,
             &loraDropout, std::addressof(loraTargets)})
      if (option->getNumOccurrences())
        return fail("--" + option->ArgStr +
                    " chooses how a training step runs; it needs --mode "
                    "train");

  if (methods.empty())
    methods = {Method::Full, Method::Lora, Method::Qlora};
  if (!train)
    methods = {Method::Full};
  if (checkpointings.empty()) {
    checkpointings.push_back(Checkpointing::None);
    if (*unfused)
      checkpointings.push_back(Checkpointing::Selective);
    checkpointings.push_back(Checkpointing::Full);
  }
  if (!train)
    checkpointings = {Checkpointing::None};
  std::vector<std::string> weightChoices(weightTypes.begin(),
                                         weightTypes.end());
  if (weightChoices.empty())
    // Float weights are in the activation type (bf16 unless told).
    weightChoices = train ? std::vector<std::string>{activationDtype}
                          : std::vector<std::string>{activationDtype, "int8",
                                                     "nf4", "int4"};
  uint64_t contextBytes = cudaContext >= 0
                              ? uint64_t(cudaContext)
                              : uint64_t(typicalCudaContextBytes(*capability));

  // The generator's options every candidate shares.
  base.mode = *mode;
  base.layers = layers;
  base.seq = seq;
  base.kvLen = kvLen;
  base.activationType = activationDtype;
  base.unfusedAttention = *unfused;
  base.matmulWorkspace = recommendedCublasWorkspace(*capability);
  if (train)
    base.optimizer = *optimizer;
  else
    base.eagerRmsNorm = given.eagerRmsNorm.value_or(false);

  // The candidates in order of preference: what is trained first (it changes
  // the model that comes out), then the precision (it changes the numbers),
  // then the recomputation (it costs only time).
  std::vector<Candidate> candidates;
  unsigned preference = 0;
  for (Method method : methods)
    for (const std::string &weightType : weightChoices) {
      ++preference;
      for (Checkpointing checkpointing : checkpointings) {
        Candidate candidate;
        candidate.preference = preference;
        candidate.method = method;
        candidate.weightType = weightType;
        candidate.checkpointing = checkpointing;
        candidate.options = base;
        candidate.options.weightType = weightType;
        candidate.options.checkpointing = checkpointing;
        if (weightType == "int8" || weightType == "int4")
          candidate.options.quantGroup = quantGroup;
        if (method != Method::Full) {
          candidate.options.loraRank = loraRank;
          candidate.options.loraDropout = loraDropout;
          if (targets)
            candidate.options.loraTargets = targets;
          candidate.options.qlora = method == Method::Qlora;
        }
        if (train) {
          // A full fine-tuning has no LoRA dropout to share.
          StackOverrides candidateGiven = given;
          if (method == Method::Full)
            candidateGiven.loraDropoutShared = false;
          applyStack(candidate.options, *stack, candidateGiven);
        }
        candidates.push_back(std::move(candidate));
      }
    }

  // Several GPUs: every candidate in every layout.
  if (cluster) {
    std::vector<Layout> layouts = enumerateLayouts(
        gpus, maxTensorParallel, globalBatch, weighOffload, virtualStages);
    std::vector<Candidate> expanded;
    for (const Layout &layout : layouts)
      for (const Candidate &candidate : candidates) {
        expanded.push_back(candidate);
        expanded.back().layout = layout;
        expanded.back().samplesPerReplica = globalBatch / layout.data;
      }
    candidates = std::move(expanded);
  }

  if (threads)
    llvm::parallel::strategy = llvm::hardware_concurrency(threads);
  std::vector<Outcome> outcomes(candidates.size());
  BatchSearchOptions searchOptions;
  searchOptions.gpuMemory = *gpuMemory;
  searchOptions.contextBytes = contextBytes;
  searchOptions.onPytorch = *onPytorch;
  searchOptions.algorithm = algorithm;
  searchOptions.wantedBatch = cluster ? 0 : wantedBatch;
  searchOptions.maxBatch = maxBatch;
  searchOptions.linear = linearSearch;
  searchOptions.planEvery = planEveryStep;
  searchOptions.costModel = costModel;
  llvm::parallelFor(0, candidates.size(), [&](size_t index) {
    outcomes[index] = searchCandidate(candidates[index], searchOptions);
  });
  if (cluster)
    return reportLayouts(base, candidates, outcomes, *gpuMemory, contextBytes,
                         *onPytorch, costModel);

  // The table.
  llvm::raw_fd_ostream &os = llvm::outs();
  os << "memplan-fit: " << base.model.name << ", " << modeName;
  int64_t tokens = defaultSequenceLength(base.model);
  if (*mode == Mode::Decode)
    os << ", " << (kvLen ? kvLen : tokens) << "-token cache";
  else
    os << ", " << (seq ? seq : tokens) << " tokens";
  os << ", on " << formatBytes(*gpuMemory) << " (" << gpuName
     << "; CUDA context " << formatBytes(contextBytes) << "; fit on "
     << fitOnText(*onPytorch) << ")\n";
  std::vector<std::string> labels;
  size_t width = 9;
  for (const Candidate &candidate : candidates) {
    labels.push_back(describeCandidate(candidate, *mode));
    width = std::max(width, labels.back().size());
  }
  os << llvm::left_justify("candidate", width + 2)
     << llvm::right_justify("micro-batch", 12)
     << llvm::right_justify("peak per GPU", 14)
     << llvm::right_justify("headroom", 12)
     << llvm::right_justify("peak at " + std::to_string(wantedBatch), 12)
     << llvm::right_justify("graphs", 8) << "\n";
  std::optional<size_t> cheapest, widest;
  for (auto [index, outcome] : llvm::enumerate(outcomes)) {
    os << llvm::left_justify(labels[index], width + 2);
    if (!outcome.unavailable.empty()) {
      os << "not available: " << outcome.unavailable << "\n";
      continue;
    }
    if (outcome.largest) {
      const Probe &largest = *outcome.largest;
      std::string batch = std::to_string(largest.batch);
      if (!outcome.firstTooLarge)
        batch = ">=" + batch; // --max-batch still fits
      os << llvm::right_justify(batch, 12)
         << llvm::right_justify(formatBytes(largest.peak), 14)
         << llvm::right_justify(formatBytes(*gpuMemory - largest.peak), 12);
      if (largest.batch >= wantedBatch && !cheapest)
        cheapest = index;
      if (!widest || largest.batch > outcomes[*widest].largest->batch)
        widest = index;
    } else {
      os << llvm::right_justify("none", 12) << llvm::right_justify("", 14)
         << llvm::right_justify("", 12);
    }
    os << llvm::right_justify(
              outcome.wanted ? formatBytes(outcome.wanted->peak) : "-", 12)
       << llvm::right_justify(std::to_string(outcome.graphs), 8) << "\n";
  }
  if (cheapest)
    os << "cheapest that fits micro-batch " << wantedBatch << ": "
       << labels[*cheapest] << " (up to " << outcomes[*cheapest].largest->batch
       << ")\n";
  else
    os << "nothing fits micro-batch " << wantedBatch << " on "
       << formatBytes(*gpuMemory) << "\n";
  if (widest)
    os << "largest micro-batch: " << outcomes[*widest].largest->batch
       << ", with " << labels[*widest] << "\n";

  if (!jsonPath.empty()) {
    std::string text;
    llvm::raw_string_ostream json(text);
    llvm::json::OStream out(json, 2);
    auto probeObject = [&](const Probe &probe) {
      out.object([&] {
        out.attribute("micro_batch", probe.batch);
        out.attribute("peak_bytes", probe.peak);
        out.attribute("headroom_bytes",
                      int64_t(*gpuMemory) - int64_t(probe.peak));
        out.attribute("plan_total_bytes", probe.memory.total());
        out.attribute("arena_bytes", probe.memory.arena);
        out.attribute("lower_bound_bytes", probe.memory.lowerBound);
        out.attribute("pytorch_max_memory_allocated_bytes",
                      probe.memory.pytorch.maxAllocated);
        out.attribute("pytorch_max_memory_reserved_bytes",
                      probe.memory.pytorch.maxReserved);
      });
    };
    out.object([&] {
      out.attribute("model", base.model.name);
      out.attribute("mode", modeName);
      out.attribute("gpu", gpuName);
      out.attribute("gpu_memory_bytes", *gpuMemory);
      out.attribute("cuda_context_bytes", contextBytes);
      out.attribute("fit_on", fitOn);
      out.attribute("algorithm", std::string(getAlgorithmName(algorithm)));
      out.attribute("wanted_micro_batch", int64_t(wantedBatch));
      out.attributeArray("candidates", [&] {
        // An index, not structured bindings: C++17 lambdas cannot capture
        // those.
        for (size_t index = 0; index < outcomes.size(); ++index)
          out.object([&] {
            const Candidate &candidate = candidates[index];
            const Outcome &outcome = outcomes[index];
            out.attribute("label", labels[index]);
            out.attribute("method",
                          choiceName<Method>(kMethods, candidate.method));
            out.attribute("weight_dtype", candidate.weightType);
            out.attribute("checkpointing",
                          choiceName<Checkpointing>(kCheckpointings,
                                                    candidate.checkpointing));
            if (candidate.method != Method::Full)
              out.attribute("lora_rank", candidate.options.loraRank);
            out.attribute("graphs_planned", outcome.graphs);
            out.attribute("steps_bounded_out", outcome.boundedOut);
            if (!outcome.unavailable.empty()) {
              out.attribute("unavailable", outcome.unavailable);
              return;
            }
            if (outcome.largest) {
              out.attributeBegin("largest");
              probeObject(*outcome.largest);
              out.attributeEnd();
            } else {
              out.attribute("largest", nullptr);
            }
            if (outcome.firstTooLarge)
              out.attribute("first_too_large_micro_batch",
                            *outcome.firstTooLarge);
            if (!outcome.tooLargeReason.empty())
              out.attribute("too_large_reason", outcome.tooLargeReason);
            if (outcome.wanted) {
              out.attributeBegin("wanted");
              probeObject(*outcome.wanted);
              out.attributeEnd();
            }
          });
      });
      if (cheapest)
        out.attribute("cheapest", labels[*cheapest]);
      else
        out.attribute("cheapest", nullptr);
    });
    json << "\n";
    return writeJsonAndFlush(std::move(text));
  }
  return writeJsonAndFlush("");
}
