//===- ClusterFitTest.cpp - memplan-fit's layouts, costs and search -------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Checks what memplan-fit --gpus relies on, against answers known by
// construction rather than by the same arithmetic: planning only the first
// and the last pipeline stage finds the largest (every stage is planned
// here), a layout fits exactly when the GPU holds its planned peak, the
// counted FLOPs of a training step are Kaplan et al.'s 6 N per token (8 N
// with full recomputation) up to attention, a DDP step sends what a ring
// all-reduce of every gradient sends, and the cost model counts a
// micro-batch's work as often as the step runs it.
//
//===----------------------------------------------------------------------===//

#include "CandidateSearch.h"
#include "ClusterLayout.h"
#include "ModelConfig.h"
#include "StepCost.h"
#include "TransformerGenerator.h"

#include "memplan/Analysis/FunctionMemory.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "memplan/Transforms/Pipelines.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace memplan;
using namespace memplan::fit;
using namespace memplan::gen;

namespace {

class ClusterFitTest : public ::testing::Test {
protected:
  ClusterFitTest() {
    context.loadDialect<MemPlanDialect, mlir::func::FuncDialect>();
  }

  mlir::OwningOpRef<mlir::ModuleOp> generate(const GeneratorOptions &options) {
    std::string error;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        generateTransformer(&context, options, error);
    EXPECT_TRUE(module) << error;
    return module;
  }

  mlir::func::FuncOp function(mlir::ModuleOp module) {
    return *module.getOps<mlir::func::FuncOp>().begin();
  }

  /// The memory report of `module`'s step, planned by the --plan-offsets
  /// pipeline (failure, with a test failure, if it does not plan).
  mlir::FailureOr<FunctionMemory> planAndMeasure(mlir::ModuleOp module) {
    mlir::PassManager pm(&context);
    buildPlanOffsetsPipeline(pm);
    if (mlir::failed(pm.run(module))) {
      ADD_FAILURE() << "the step does not plan";
      return mlir::failure();
    }
    mlir::FailureOr<FunctionMemory> memory =
        measureFunctionMemory(function(module));
    EXPECT_TRUE(mlir::succeeded(memory));
    return memory;
  }

  /// The memory report's total of the planned step.
  uint64_t plannedTotal(const GeneratorOptions &options) {
    mlir::OwningOpRef<mlir::ModuleOp> module = generate(options);
    if (!module)
      return 0;
    mlir::FailureOr<FunctionMemory> memory = planAndMeasure(*module);
    return mlir::succeeded(memory) ? memory->total() : 0;
  }

  static GeneratorOptions training(llvm::StringRef model) {
    GeneratorOptions options;
    options.model = *lookupModel(model);
    options.mode = Mode::Train;
    options.seq = 64;
    options.weightType = "bf16";
    options.activationType = "bf16";
    return options;
  }

  /// A LLaMA-shaped model small enough to plan every stage of.
  static GeneratorOptions smallLlama() {
    GeneratorOptions options = training("llama-7b");
    ModelConfig &m = options.model;
    m.name = "llama-small";
    m.layers = 8;
    m.hidden = 256;
    m.heads = 8;
    m.kvHeads = 4;
    m.ffn = 688;
    m.vocab = 4000;
    return options;
  }

  mlir::MLIRContext context;
};

TEST_F(ClusterFitTest, NoMiddlePipelineStageIsLargerThanTheFirstOrLast) {
  for (GeneratorOptions base : {training("gpt2-small"), smallLlama()}) {
    base.layers = 8;
    for (int64_t stages : {4, 8})
      for (int64_t microBatches : {int64_t(1), int64_t(2), stages, stages + 3})
        for (Checkpointing checkpointing :
             {Checkpointing::None, Checkpointing::Full})
          for (int64_t zero : {0, 1}) {
            Layout layout;
            layout.pipeline = stages;
            layout.data = 2;
            layout.zero = zero;
            GeneratorOptions options = base;
            options.checkpointing = checkpointing;
            applyLayout(layout, microBatches, options);
            std::vector<uint64_t> totals;
            for (int64_t stage = 0; stage < stages; ++stage) {
              options.pipeline.stage = stage;
              totals.push_back(plannedTotal(options));
            }
            uint64_t planned = 0;
            for (int64_t stage : plannedStages(layout))
              planned = std::max(planned, totals[stage]);
            EXPECT_EQ(planned, *std::max_element(totals.begin(), totals.end()))
                << base.model.name << ", " << stages << " stages, "
                << microBatches << " micro-batches, zero " << zero;
          }
    // Interleaved: 2 chunks per stage, 4 stages (8 one-layer chunks).
    for (int64_t microBatches : {4, 8, 12})
      for (Checkpointing checkpointing :
           {Checkpointing::None, Checkpointing::Full}) {
        Layout layout;
        layout.pipeline = 4;
        layout.virtualStages = 2;
        layout.data = 2;
        GeneratorOptions options = base;
        options.checkpointing = checkpointing;
        applyLayout(layout, microBatches, options);
        std::vector<uint64_t> totals;
        for (int64_t stage = 0; stage < 4; ++stage) {
          options.pipeline.stage = stage;
          totals.push_back(plannedTotal(options));
        }
        EXPECT_EQ(std::max(totals.front(), totals.back()),
                  *std::max_element(totals.begin(), totals.end()))
            << base.model.name << ", interleaved, " << microBatches
            << " micro-batches";
      }
  }
}

TEST_F(ClusterFitTest, LongPipelineStepsRepeatThePlannedOnes) {
  // A stage's step of m micro-batches is planned with
  // plannedMicroBatches(m) of them and its cost extrapolated from one more
  // (one more group of p, interleaved): both must be the full step's,
  // exactly, on every stage.
  for (GeneratorOptions base : {training("gpt2-small"), smallLlama()}) {
    base.layers = 8;
    for (int64_t stages : {2, 4})
      for (int64_t chunks : {1, 2})
        for (Checkpointing checkpointing :
             {Checkpointing::None, Checkpointing::Full})
          for (int64_t zero : {0, 1, 2}) {
            Layout layout;
            layout.pipeline = stages;
            layout.virtualStages = chunks;
            layout.data = 2;
            layout.zero = std::min<int64_t>(zero, 1);
            layout.offload = zero == 2; // ZeRO-1 with offload
            int64_t group = microBatchGroup(layout);
            for (int64_t microBatches :
                 chunks == 1 ? std::vector<int64_t>{stages + 3, 2 * stages + 5}
                             : std::vector<int64_t>{4 * stages, 6 * stages}) {
              int64_t planned = plannedMicroBatches(layout, microBatches);
              ASSERT_LT(planned, microBatches);
              GeneratorOptions full = base, shorter = base, next = base;
              full.checkpointing = shorter.checkpointing = next.checkpointing =
                  checkpointing;
              applyLayout(layout, microBatches, full);
              applyLayout(layout, planned, shorter);
              applyLayout(layout, planned + group, next);
              for (int64_t stage = 0; stage < stages; ++stage) {
                SCOPED_TRACE(base.model.name + ", stage " +
                             std::to_string(stage) + " of " +
                             std::to_string(stages) + " x " +
                             std::to_string(chunks) + ", " +
                             std::to_string(microBatches) +
                             " micro-batches, zero " + std::to_string(zero));
                full.pipeline.stage = shorter.pipeline.stage =
                    next.pipeline.stage = stage;
                EXPECT_EQ(plannedTotal(shorter), plannedTotal(full));
                mlir::OwningOpRef<mlir::ModuleOp> fullModule = generate(full),
                                                  shortModule =
                                                      generate(shorter),
                                                  nextModule = generate(next);
                ASSERT_TRUE(fullModule && shortModule && nextModule);
                StepCost counted = countStepCost(function(*fullModule));
                StepCost extrapolated = extrapolateStepCost(
                    countStepCost(function(*shortModule)),
                    countStepCost(function(*nextModule)),
                    uint64_t((microBatches - planned) / group));
                EXPECT_EQ(extrapolated.flops, counted.flops);
                EXPECT_EQ(extrapolated.sent, counted.sent);
              }
            }
          }
  }
}

TEST_F(ClusterFitTest, FitsExactlyWhenTheGpuHoldsThePlannedPeak) {
  GeneratorOptions base = training("gpt2-small");
  base.layers = 2;
  Layout layout;
  layout.tensor = 2;
  layout.data = 2;
  layout.zero = 1;
  // Four sequences per replica: micro-batches of 1, 2 or 4.
  Candidate candidate;
  candidate.options = base;
  candidate.layout = layout;
  candidate.samplesPerReplica = 4;
  for (int64_t batch : {1, 2, 4}) {
    GeneratorOptions options = base;
    options.batch = batch;
    applyLayout(layout, 4 / batch, options);
    uint64_t peak = plannedTotal(options);
    BatchSearchOptions search;
    search.costModel = {1e15, 1e11};
    search.gpuMemory = peak;
    Outcome fits = searchCandidate(candidate, search);
    ASSERT_TRUE(fits.largest);
    EXPECT_EQ(fits.largest->batch, batch);
    EXPECT_EQ(fits.largest->peak, peak);
    // Every micro-batch up to it is timed; 3 is not one.
    EXPECT_EQ(fits.timed.size(), size_t(batch == 4 ? 3 : batch));
    ASSERT_TRUE(fits.fastest);
    EXPECT_LE(fits.fastest->peak, peak);
    search.gpuMemory = peak - 1;
    Outcome tooSmall = searchCandidate(candidate, search);
    if (batch == 1)
      EXPECT_FALSE(tooSmall.largest);
    else
      EXPECT_EQ(tooSmall.largest->batch, batch / 2);
  }
}

TEST_F(ClusterFitTest, BoundsBeforePlanningAgreeWithThePlannedStep) {
  // boundFunctionMemory, taken before planning, is what lets the search set
  // a step aside unplanned. Its total must never exceed the planned total:
  // it falls short of it by exactly what the plan's arena holds above the
  // most bytes live at once (the lower bound --plan-offsets records). Its
  // caching-allocator peaks are those the planned step reports.
  std::vector<GeneratorOptions> steps;
  for (GeneratorOptions base : {training("gpt2-small"), smallLlama()}) {
    base.layers = 2;
    steps.push_back(base);
    GeneratorOptions lora = base;
    lora.loraRank = 8;
    steps.push_back(lora);
    GeneratorOptions recomputed = base;
    recomputed.checkpointing = Checkpointing::Full;
    steps.push_back(recomputed);
    Layout tensorData, pipeline, zero3;
    tensorData.tensor = 2;
    tensorData.data = 2;
    tensorData.zero = 1;
    pipeline.pipeline = 2;
    zero3.data = 2;
    zero3.zero = 3;
    for (const Layout &layout : {tensorData, pipeline, zero3})
      for (int64_t stage = 0; stage < layout.pipeline; ++stage) {
        GeneratorOptions options = base;
        applyLayout(layout, 2, options);
        options.pipeline.stage = stage;
        steps.push_back(options);
      }
    GeneratorOptions prefill = base;
    prefill.mode = Mode::Prefill;
    steps.push_back(prefill);
    GeneratorOptions decode = base;
    decode.mode = Mode::Decode;
    decode.kvLen = 64;
    steps.push_back(decode);
  }
  for (auto [index, options] : llvm::enumerate(steps)) {
    SCOPED_TRACE("step " + std::to_string(index));
    mlir::OwningOpRef<mlir::ModuleOp> module = generate(options);
    ASSERT_TRUE(module);
    mlir::FailureOr<FunctionMemoryBounds> bounds =
        boundFunctionMemory(function(*module));
    ASSERT_TRUE(mlir::succeeded(bounds));
    mlir::FailureOr<FunctionMemory> memory = planAndMeasure(*module);
    ASSERT_TRUE(mlir::succeeded(memory));
    EXPECT_LE(bounds->total, memory->total());
    EXPECT_EQ(memory->total() - bounds->total,
              memory->arena - memory->lowerBound);
    EXPECT_EQ(bounds->pytorch.maxAllocated, memory->pytorch.maxAllocated);
    EXPECT_EQ(bounds->pytorch.maxReserved, memory->pytorch.maxReserved);
    EXPECT_EQ(bounds->pytorch.segments, memory->pytorch.segments);
  }
}

TEST_F(ClusterFitTest, CountedFlopsAreSixOrEightTimesTheWeightsPerToken) {
  // Kaplan et al. (2020): a training step takes 6 N FLOPs per token for N
  // weights in GEMMs (2 N forward, 4 N backward), 8 N when each layer's
  // forward pass runs again (full checkpointing); attention adds a few per
  // cent at 64 tokens. Independent of the counts' code: N is read off the
  // weight arguments.
  GeneratorOptions options = training("gpt2-small");
  options.layers = 4;
  mlir::OwningOpRef<mlir::ModuleOp> module = generate(options);
  ASSERT_TRUE(module);
  uint64_t weights = 0;
  mlir::func::FuncOp step = function(*module);
  for (mlir::BlockArgument argument : step.getArguments()) {
    std::optional<ArgumentRole> role =
        getArgumentRole(step, argument.getArgNumber());
    auto type = llvm::cast<mlir::RankedTensorType>(argument.getType());
    // The GEMMs' weights: matrices (the position table is a lookup).
    if (role == ArgumentRole::Weight && type.getRank() == 2 &&
        type.getShape()[0] != 1024)
      weights += type.getNumElements();
  }
  double tokens = 64;
  double plain = double(countStepCost(step).flops);
  EXPECT_GT(plain, 6 * weights * tokens);
  EXPECT_LT(plain, 1.05 * 6 * weights * tokens);
  options.checkpointing = Checkpointing::Full;
  mlir::OwningOpRef<mlir::ModuleOp> recomputed = generate(options);
  ASSERT_TRUE(recomputed);
  double withRecompute = double(countStepCost(function(*recomputed)).flops);
  // The head is not recomputed: 8 N for the layers, 6 N for the head.
  EXPECT_GT(withRecompute, plain);
  EXPECT_LT(withRecompute, 1.05 * 8 * weights * tokens);
}

TEST_F(ClusterFitTest, DdpSendsARingAllReduceOfEveryGradient) {
  // n GPUs: a ring all-reduce sends 2 (n - 1) / n of the buffer; DDP's
  // buckets hold every gradient once, in the weights' type.
  for (int64_t ranks : {2, 4}) {
    GeneratorOptions options = training("gpt2-small");
    options.layers = 2;
    options.dataParallel.ranks = ranks;
    mlir::OwningOpRef<mlir::ModuleOp> module = generate(options);
    ASSERT_TRUE(module);
    mlir::func::FuncOp step = function(*module);
    uint64_t weightBytes = 0;
    for (mlir::BlockArgument argument : step.getArguments()) {
      if (getArgumentRole(step, argument.getArgNumber()) ==
          ArgumentRole::Weight)
        weightBytes += getByteSize(argument.getType()).bytes;
    }
    StepCost cost = countStepCost(step);
    uint64_t sent = cost.sentOver(ProcessGroup::Data, "all_reduce");
    EXPECT_EQ(sent, cost.sentOver(ProcessGroup::Data));
    // Each bucket rounds down on its own: at most one byte each.
    EXPECT_LE(sent, 2 * weightBytes * (ranks - 1) / ranks);
    EXPECT_GE(sent + 64, 2 * weightBytes * (ranks - 1) / ranks);
  }
}

TEST_F(ClusterFitTest, StepTimeCountsWhatEachMicroBatchRuns) {
  StepCost cost;
  cost.flops = 1000;
  cost.sent[{ProcessGroup::Tensor, "all_reduce"}] = 10;
  cost.sent[{ProcessGroup::Data, "reduce_scatter"}] = 100;
  cost.sent[{ProcessGroup::Data, "all_gather"}] = 1000;
  CostModel model{1000, 100};
  Layout layout;
  layout.tensor = 2;
  layout.data = 4;
  // DDP and ZeRO-1: the data-parallel bytes once per step.
  for (int64_t zero : {0, 1}) {
    layout.zero = zero;
    StepTime time = estimateStepTime(layout, 4, cost, model);
    EXPECT_EQ(time.flops, 4000u);
    EXPECT_EQ(time.sent, 4 * 10 + 1100u);
  }
  // ZeRO-2: the reduce-scatter every micro-batch, the gather once.
  layout.zero = 2;
  EXPECT_EQ(estimateStepTime(layout, 4, cost, model).sent, 4 * 110 + 1000u);
  // ZeRO-3: everything every micro-batch.
  layout.zero = 3;
  StepTime zero3 = estimateStepTime(layout, 4, cost, model);
  EXPECT_EQ(zero3.sent, 4 * 1110u);
  EXPECT_DOUBLE_EQ(zero3.compute, 4.0);
  EXPECT_DOUBLE_EQ(zero3.communication, 44.4);
  EXPECT_DOUBLE_EQ(zero3.bubble, 0);
  // Offload: the reduced gradients go to the host each time ZeRO-2 and -3
  // reduce them (every micro-batch), once for ZeRO-1; the update comes
  // back once.
  cost.sent[{ProcessGroup::Host, "copy_to_host"}] = 20;
  cost.sent[{ProcessGroup::Host, "copy_to_device"}] = 200;
  model.hostBytesPerSecond = 10;
  layout.offload = true;
  for (int64_t zero : {1, 2, 3}) {
    layout.zero = zero;
    StepTime time = estimateStepTime(layout, 4, cost, model);
    EXPECT_EQ(time.host, (zero == 1 ? 20u : 4 * 20u) + 200u);
    EXPECT_DOUBLE_EQ(time.hostTransfer, double(time.host) / 10);
  }
  layout.offload = false;
  // A pipeline stage's graph holds every micro-batch; 1F1B idles p - 1 of
  // its m micro-batch times.
  layout.zero = 1;
  layout.pipeline = 4;
  StepTime stage = estimateStepTime(layout, 6, cost, model);
  EXPECT_EQ(stage.flops, 1000u);
  EXPECT_EQ(stage.sent, 1110u);
  EXPECT_EQ(stage.host, 220u);
  EXPECT_DOUBLE_EQ(stage.bubble, (1.0 + 11.1 + 22.0) * 3 / 6);
  // Interleaved over v chunks: the bubble is (p - 1) / (m v).
  layout.virtualStages = 2;
  EXPECT_DOUBLE_EQ(estimateStepTime(layout, 6, cost, model).bubble,
                   (1.0 + 11.1 + 22.0) * 3 / 12);
}

TEST_F(ClusterFitTest, LayoutsAreTheFactorisationsOfTheGpus) {
  // 8 GPUs: tensor x pipeline x data, SP doubling each tensor > 1, ZeRO
  // 0-3 with data > 1 (0-1 with a pipeline).
  // TP 1: (PP 1, DP 8) 4, (2, 4) 2, (4, 2) 2, (8, 1) 1 = 9;
  // TP 2: (1, 4) 4, (2, 2) 2, (4, 1) 1 = 7, twice; TP 4: (1, 2) 4,
  // (2, 1) 1 = 5, twice; TP 8: 1, twice. FSDP beside ZeRO-3 without a
  // pipeline: TP 1, TP 2 twice, TP 4 twice.
  EXPECT_EQ(enumerateLayouts(8, 8, 8, false).size(),
            size_t(9 + 14 + 10 + 2 + 5));
  // Interleaved too: each of the 13 with a pipeline once more.
  EXPECT_EQ(enumerateLayouts(8, 8, 8, false, 2).size(),
            size_t(9 + 14 + 10 + 2 + 5 + 13));
  // With offload, each layout with a ZeRO stage once more: TP 1: (1, 8)
  // 3, (2, 4) 1, (4, 2) 1; TP 2: (1, 4) 3, (2, 2) 1, twice; TP 4: (1, 2)
  // 3, twice.
  std::vector<Layout> offloaded = enumerateLayouts(8, 8, 8, true, 2);
  // (And the 4 offloaded ones with a pipeline interleaved.)
  EXPECT_EQ(offloaded.size(), size_t(53 + 5 + 8 + 6 + 4));
  for (const Layout &layout : offloaded) {
    EXPECT_TRUE(!layout.offload || layout.zero > 0);
    EXPECT_TRUE(!layout.fsdp ||
                (layout.zero == 3 && !layout.offload && layout.pipeline == 1));
  }
  // Data parallelism must divide the global batch of 2: DP 1 or 2.
  for (const Layout &layout : enumerateLayouts(8, 8, 2, true))
    EXPECT_LE(layout.data, 2);
  // At most 2 GPUs per layer.
  for (const Layout &layout : enumerateLayouts(8, 2, 8, true))
    EXPECT_LE(layout.tensor, 2);
  for (const Layout &layout : enumerateLayouts(12, 8, 12, true))
    EXPECT_EQ(layout.tensor * layout.pipeline * layout.data, 12);
}

} // namespace
