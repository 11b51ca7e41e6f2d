//===- ParallelismTest.cpp - Per-GPU shards add up to one GPU's -----------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Generates every rank's step for ZeRO stages 1-3 and DDP, and checks the
// bytes each holds by role against the single-GPU step with full gradient
// buffers: what is sharded adds up over the ranks to the single GPU's
// (nothing lost, nothing counted twice), what is replicated is whole on
// every rank. The bytes are read off the generated functions' arguments,
// not from the generator's own arithmetic. Tensor parallelism: each weight
// is whole or split in equal shares. ZeRO-3: no gathered weight is read
// after its release.
//
//===----------------------------------------------------------------------===//

#include "ModelConfig.h"
#include "TransformerGenerator.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <map>

using namespace memplan;
using namespace memplan::gen;

namespace {

/// Bytes of the step's arguments by role, and the names of its weights.
struct RoleBytes {
  std::map<ArgumentRole, uint64_t> bytes;
  std::vector<std::string> weightNames;
  std::map<std::string, int64_t> weightElements;
  uint64_t host = 0; ///< arguments in the host's memory, any role
  uint64_t operator[](ArgumentRole role) const {
    auto it = bytes.find(role);
    return it == bytes.end() ? 0 : it->second;
  }
};

class ParallelismTest : public ::testing::Test {
protected:
  ParallelismTest() {
    context.loadDialect<MemPlanDialect, mlir::func::FuncDialect>();
  }

  RoleBytes generate(const GeneratorOptions &options) {
    std::string error;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        generateTransformer(&context, options, error);
    RoleBytes result;
    if (!module) {
      ADD_FAILURE() << error;
      return result;
    }
    auto function = *module->getOps<mlir::func::FuncOp>().begin();
    for (mlir::BlockArgument argument : function.getArguments()) {
      std::optional<ArgumentRole> role =
          getArgumentRole(function, argument.getArgNumber());
      ByteSize size = getByteSize(argument.getType());
      if (!role || !size.ok())
        continue;
      if (isHostArgument(function, argument.getArgNumber())) {
        result.host += size.bytes;
        continue;
      }
      result.bytes[*role] += size.bytes;
      if (*role == ArgumentRole::Weight) {
        std::string name = function
                               .getArgAttrOfType<mlir::StringAttr>(
                                   argument.getArgNumber(), "memplan.name")
                               .str();
        result.weightNames.push_back(name);
        result.weightElements[name] =
            llvm::cast<mlir::ShapedType>(argument.getType()).getNumElements();
      }
    }
    return result;
  }

  /// The options of `model`'s training step, `layers` layers, bf16.
  static GeneratorOptions training(const char *model, int64_t layers) {
    GeneratorOptions options;
    options.model = *lookupModel(model);
    options.layers = layers;
    options.seq = 64;
    options.mode = Mode::Train;
    options.weightType = options.activationType = "bf16";
    return options;
  }

  /// Checks every rank of `ranks` at `stage` against the single GPU.
  void checkShards(GeneratorOptions options, int64_t ranks, int64_t stage) {
    SCOPED_TRACE("stage " + std::to_string(stage) + " over " +
                 std::to_string(ranks));
    GeneratorOptions single = options;
    single.gradientBuffer = GradientBuffer::WeightType;
    RoleBytes reference = generate(single);
    ASSERT_GT(reference[ArgumentRole::OptimizerState], 0u);
    options.dataParallel.ranks = ranks;
    options.dataParallel.zeroStage = stage;
    std::map<ArgumentRole, uint64_t> sums;
    for (int64_t rank = 0; rank < ranks; ++rank) {
      options.dataParallel.rank = rank;
      RoleBytes shard = generate(options);
      for (const auto &[role, bytes] : shard.bytes)
        sums[role] += bytes;
      // Replicated: whole on every rank.
      if (stage < 3) {
        EXPECT_EQ(shard[ArgumentRole::Weight], reference[ArgumentRole::Weight]);
      } else {
        // Only the partition is left of the weights.
        EXPECT_EQ(shard.weightNames, std::vector<std::string>{"zero.params"});
      }
      // Quantization state (NF4's absmax) is never sharded.
      EXPECT_EQ(shard[ArgumentRole::QuantizationScale],
                reference[ArgumentRole::QuantizationScale]);
      if (stage == 1) {
        EXPECT_EQ(shard[ArgumentRole::GradientAccumulator],
                  reference[ArgumentRole::GradientAccumulator]);
      }
    }
    // Sharded: adds up to the single GPU's.
    for (ArgumentRole role :
         {ArgumentRole::OptimizerState, ArgumentRole::MasterWeight})
      EXPECT_EQ(sums[role], reference[role])
          << stringifyArgumentRole(role).str();
    if (stage >= 2) {
      EXPECT_EQ(sums[ArgumentRole::GradientAccumulator],
                reference[ArgumentRole::GradientAccumulator]);
    }
    if (stage == 3) {
      EXPECT_EQ(sums[ArgumentRole::Weight], reference[ArgumentRole::Weight]);
    }
  }

  /// ZeRO-3's discipline: every gathered weight is released once, and read
  /// by nothing after its release (else the released memory would be read,
  /// or the weight would live longer than the plan says DeepSpeed keeps it).
  /// Returns the number of all_gather ops.
  int checkGatherDiscipline(const GeneratorOptions &options) {
    std::string error;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        generateTransformer(&context, options, error);
    if (!module) {
      ADD_FAILURE() << error;
      return 0;
    }
    int gathers = 0;
    module->walk([&](GenericOp op) {
      // ZeRO-3's gathers read the weight partition, an argument, or
      // (FSDP) its cast (sequence parallelism's read activations).
      if (op.getName() != "all_gather" || op->getNumOperands() != 1)
        return;
      mlir::Value source = op->getOperand(0);
      if (auto cast = source.getDefiningOp<GenericOp>();
          cast && cast.getName() == "cast_shard")
        source = cast->getOperand(0);
      if (!llvm::isa<mlir::BlockArgument>(source))
        return;
      ++gathers;
      for (mlir::Value gathered : op->getResults()) {
        EXPECT_EQ(getResultRole(llvm::cast<mlir::OpResult>(gathered)),
                  ResultRole::Gathered);
        mlir::Operation *release = nullptr;
        for (mlir::Operation *user : gathered.getUsers())
          if (auto generic = llvm::dyn_cast<GenericOp>(user);
              generic && generic.getName() == "release") {
            EXPECT_EQ(release, nullptr) << "released twice";
            release = user;
          }
        if (!release) {
          ADD_FAILURE() << "a gathered weight is never released";
          continue;
        }
        for (mlir::Operation *user : gathered.getUsers())
          EXPECT_FALSE(release->isBeforeInBlock(user))
              << "read after its release";
      }
    });
    return gathers;
  }

  mlir::MLIRContext context;
};

TEST_F(ParallelismTest, ZeroShardsAddUpOverRanks) {
  // Five ranks do not divide GPT-2's weights: the shares differ by one.
  for (int64_t ranks : {1, 4, 5})
    for (int64_t stage : {1, 2, 3})
      checkShards(training("gpt2-small", 2), ranks, stage);
}

TEST_F(ParallelismTest, ZeroShardsAddUpWithSgdAndF32Weights) {
  GeneratorOptions options = training("gpt2-small", 1);
  options.optimizer = Optimizer::Sgd;
  options.weightType = options.activationType = "f32";
  for (int64_t stage : {1, 2, 3})
    checkShards(options, 3, stage);
}

TEST_F(ParallelismTest, ZeroShardsAddUpWithLora) {
  // LoRA: only the adapters are trained; ZeRO-3 shards the frozen weights
  // too, ZeRO-1/2 leave them whole.
  GeneratorOptions options = training("llama-7b", 1);
  options.seq = 32;
  options.loraRank = 8;
  for (int64_t stage : {1, 2, 3})
    checkShards(options, 7, stage);
}

TEST_F(ParallelismTest, ZeroShardsAddUpWithQlora) {
  // QLoRA: ZeRO-3 shards the NF4 codes packed into the bf16 storage with
  // the float weights (their bytes add up over the ranks to the codes' and
  // the floats'); the absmax values stay whole on every rank.
  GeneratorOptions options = training("llama-7b", 1);
  options.seq = 32;
  options.loraRank = 8;
  options.qlora = true;
  for (bool doubleQuant : {false, true}) {
    options.doubleQuant = doubleQuant;
    for (int64_t stage : {1, 2, 3})
      checkShards(options, 3, stage);
  }
}

TEST_F(ParallelismTest, OffloadMovesTheOptimizerPartitionToTheHost) {
  // ZeRO-Offload: over all ranks the host holds an f32 gradient partition,
  // AdamW's two states and an f32 master copy, 16 bytes per trained weight;
  // no GPU keeps an optimizer state or a master weight, nor (stages 2 and
  // 3) a gradient partition. Five ranks: uneven shares.
  GeneratorOptions options = training("gpt2-small", 2);
  uint64_t trained = generate(options)[ArgumentRole::Weight] / 2; // bf16
  for (int64_t stage : {1, 2, 3}) {
    SCOPED_TRACE("stage " + std::to_string(stage));
    uint64_t host = 0;
    for (int64_t rank = 0; rank < 5; ++rank) {
      GeneratorOptions sharded = options;
      sharded.dataParallel.ranks = 5;
      sharded.dataParallel.rank = rank;
      sharded.dataParallel.zeroStage = stage;
      sharded.dataParallel.offloadOptimizer = true;
      RoleBytes bytes = generate(sharded);
      EXPECT_EQ(bytes[ArgumentRole::OptimizerState], 0u);
      EXPECT_EQ(bytes[ArgumentRole::MasterWeight], 0u);
      if (stage >= 2) {
        EXPECT_EQ(bytes[ArgumentRole::GradientAccumulator], 0u);
      }
      host += bytes.host;
    }
    EXPECT_EQ(host, 16 * trained);
  }
}

TEST_F(ParallelismTest, FsdpShardsAddUpOverRanks) {
  // FSDP: over the ranks the f32 weight shards hold 4 bytes a weight, the
  // f32 gradient shards 4 and AdamW's moments 8; no master copy and no
  // reduction bucket on any rank. Five ranks: uneven shares.
  for (const char *model : {"gpt2-small", "llama-7b"}) {
    SCOPED_TRACE(model);
    GeneratorOptions options = training(model, 2);
    options.seq = 32;
    uint64_t weights = generate(options)[ArgumentRole::Weight] / 2; // bf16
    std::map<ArgumentRole, uint64_t> sums;
    for (int64_t rank = 0; rank < 5; ++rank) {
      GeneratorOptions sharded = options;
      sharded.dataParallel.ranks = 5;
      sharded.dataParallel.rank = rank;
      sharded.dataParallel.zeroStage = 3;
      sharded.dataParallel.fsdp = true;
      for (const auto &[role, bytes] : generate(sharded).bytes)
        sums[role] += bytes;
    }
    EXPECT_EQ(sums[ArgumentRole::Weight], 4 * weights);
    EXPECT_EQ(sums[ArgumentRole::GradientAccumulator], 4 * weights);
    EXPECT_EQ(sums[ArgumentRole::OptimizerState], 8 * weights);
    EXPECT_EQ(sums[ArgumentRole::MasterWeight], 0u);
    EXPECT_EQ(sums[ArgumentRole::CommunicationBuffer], 0u);
  }
}

TEST_F(ParallelismTest, GatheredWeightsAreReleasedOnceAndNotReadAfter) {
  for (const char *model : {"gpt2-small", "llama-7b", "bert-base"})
    for (Checkpointing checkpointing :
         {Checkpointing::None, Checkpointing::Full, Checkpointing::Selective})
      for (bool prefetch : {true, false})
        for (int64_t lora : {0, 4}) {
          SCOPED_TRACE(std::string(model) + " checkpointing " +
                       std::to_string(int(checkpointing)) + " prefetch " +
                       std::to_string(prefetch) + " lora " +
                       std::to_string(lora) + " fsdp " +
                       std::to_string(lora == 4 && prefetch));
          GeneratorOptions options = training(model, 2);
          options.seq = 32;
          options.checkpointing = checkpointing;
          options.unfusedAttention = checkpointing == Checkpointing::Selective;
          options.loraRank = lora;
          options.dataParallel.ranks = 4;
          options.dataParallel.zeroStage = 3;
          options.dataParallel.prefetch = prefetch;
          options.dataParallel.fsdp = lora == 4 && prefetch;
          // The forward pass gathers the embeddings, 2 layers and the head
          // (BERT's masked-LM head too); the backward pass at least the
          // layers again.
          EXPECT_GE(checkGatherDiscipline(options), 6);
        }
  GeneratorOptions parallel = training("llama-7b", 2);
  parallel.seq = 32;
  parallel.checkpointing = Checkpointing::Full;
  parallel.tensorParallel.ranks = 4;
  parallel.tensorParallel.sequenceParallel = true;
  parallel.dataParallel.ranks = 2;
  parallel.dataParallel.zeroStage = 3;
  EXPECT_GE(checkGatherDiscipline(parallel), 6);
  GeneratorOptions qlora = training("llama-7b", 2);
  qlora.seq = 32;
  qlora.checkpointing = Checkpointing::Full;
  qlora.loraRank = 8;
  qlora.qlora = true;
  qlora.dataParallel.ranks = 2;
  qlora.dataParallel.zeroStage = 3;
  EXPECT_GE(checkGatherDiscipline(qlora), 6);
  GeneratorOptions decode = training("llama-7b", 3);
  decode.mode = Mode::Decode;
  decode.kvLen = 64;
  decode.dataParallel.ranks = 8;
  decode.dataParallel.zeroStage = 3;
  EXPECT_EQ(checkGatherDiscipline(decode), 5);
}

TEST_F(ParallelismTest, TensorParallelShardsAddUpToTheLayer) {
  // Every weight is either whole on each tensor-parallel GPU or split into
  // equal shares (the vocabulary rounded up), and the split ones add up.
  for (const char *model : {"gpt2-small", "llama-7b", "bert-base"})
    for (int64_t ranks : {2, 4}) {
      SCOPED_TRACE(std::string(model) + " over " + std::to_string(ranks));
      GeneratorOptions options = training(model, 2);
      RoleBytes single = generate(options);
      options.tensorParallel.ranks = ranks;
      RoleBytes shard = generate(options);
      ASSERT_EQ(single.weightNames, shard.weightNames);
      int64_t vocab = lookupModel(model)->vocab, split = 0;
      for (const auto &[name, elements] : single.weightElements) {
        int64_t local = shard.weightElements[name];
        if (local == elements)
          continue; // whole on every GPU
        ++split;
        if (local * ranks != elements) {
          // The vocabulary: this GPU's ceil(V / N) rows.
          int64_t width = elements / vocab;
          EXPECT_EQ(elements % vocab, 0) << name;
          EXPECT_EQ(local, (vocab + ranks - 1) / ranks * width) << name;
        }
      }
      // The QKV (GPT-2: fused) and output projections, the MLP's two or
      // three, per layer; the embedding; LLaMA's LM head. BERT: q, k, v
      // (weights and biases), the attention output, the intermediate
      // (weight and bias) and output projections; the word embedding and
      // the masked-LM decoder's bias (its head's transform is whole).
      std::string name = model;
      EXPECT_EQ(split, name == "gpt2-small" ? 2 * (2 + 2 + 2) + 1
                       : name == "llama-7b" ? 2 * 7 + 2
                                            : 2 * (6 + 1 + 2 + 1) + 2);
    }
}

TEST_F(ParallelismTest, TensorParallelSplitsLoraAdaptersWithTheirWeight) {
  // An adapter is split where its base weight is: a column-parallel
  // projection's lora_B by columns (lora_A whole), a row-parallel one's
  // lora_A by rows (lora_B whole).
  for (const char *model : {"gpt2-small", "llama-7b"}) {
    SCOPED_TRACE(model);
    GeneratorOptions options = training(model, 2);
    options.loraRank = 8;
    options.loraTargets =
        LoraQuery | LoraKey | LoraValue | LoraOutput | LoraUp | LoraDown;
    if (std::string(model) == "llama-7b")
      options.loraTargets |= LoraGate;
    RoleBytes single = generate(options);
    options.tensorParallel.ranks = 4;
    RoleBytes shard = generate(options);
    ASSERT_EQ(single.weightNames, shard.weightNames);
    int adapters = 0;
    for (const auto &[name, elements] : single.weightElements) {
      llvm::StringRef adapter(name);
      if (!adapter.ends_with(".lora_a") && !adapter.ends_with(".lora_b"))
        continue;
      ++adapters;
      // The row-parallel projections: GPT-2's c_proj (attention and MLP),
      // LLaMA's wo and w2.
      bool rowParallel = adapter.contains(".c_proj.") ||
                         adapter.contains(".wo.") || adapter.contains(".w2.");
      bool splitHere = adapter.ends_with(rowParallel ? ".lora_a" : ".lora_b");
      EXPECT_EQ(shard.weightElements[name] * (splitHere ? 4 : 1), elements)
          << name;
    }
    EXPECT_EQ(adapters,
              std::string(model) == "gpt2-small" ? 2 * 2 * 4 : 2 * 2 * 7);
  }
}

TEST_F(ParallelismTest, PipelineStagesAddUpToTheModel) {
  // Each weight on exactly one stage (a tied embedding on the first and the
  // last), and so its optimizer states and master weights; interleaved
  // (2 chunks per stage) too.
  for (const char *model : {"llama-7b", "gpt2-small", "bert-base"})
    for (auto [stages, chunks] :
         {std::pair<int64_t, int64_t>{2, 1}, {4, 1}, {2, 2}, {4, 2}}) {
      SCOPED_TRACE(std::string(model) + " in " + std::to_string(stages) +
                   " x " + std::to_string(chunks));
      GeneratorOptions options = training(model, 8);
      options.seq = 32;
      options.microBatches = 4;
      options.gradientBuffer = GradientBuffer::WeightType;
      RoleBytes single = generate(options);
      options.pipeline.stages = stages;
      options.pipeline.virtualStages = chunks;
      std::map<ArgumentRole, uint64_t> sums;
      std::map<std::string, int> holders;
      for (int64_t stage = 0; stage < stages; ++stage) {
        options.pipeline.stage = stage;
        RoleBytes part = generate(options);
        for (const auto &[role, bytes] : part.bytes)
          sums[role] += bytes;
        for (const std::string &name : part.weightNames)
          ++holders[name];
      }
      uint64_t tied = 0;
      for (const auto &[name, count] : holders) {
        EXPECT_TRUE(single.weightElements.count(name)) << name;
        if (count == 2) {
          // GPT-2's and BERT's masked-LM head's tied embeddings.
          EXPECT_EQ(name, std::string(model) == "bert-base" ? "embeddings.word"
                                                            : "wte");
          tied = single.weightElements[name];
        } else {
          EXPECT_EQ(count, 1) << name;
        }
      }
      EXPECT_EQ(holders.size(), single.weightNames.size());
      // Weights (2 bytes each), gradient buffers (2), moments (8) and
      // master weights (4): the tied copy counted once more.
      EXPECT_EQ(sums[ArgumentRole::Weight],
                single[ArgumentRole::Weight] + 2 * tied);
      EXPECT_EQ(sums[ArgumentRole::GradientAccumulator],
                single[ArgumentRole::GradientAccumulator] + 2 * tied);
      EXPECT_EQ(sums[ArgumentRole::OptimizerState],
                single[ArgumentRole::OptimizerState] + 8 * tied);
      EXPECT_EQ(sums[ArgumentRole::MasterWeight],
                single[ArgumentRole::MasterWeight] + 4 * tied);
    }
}

TEST_F(ParallelismTest, DdpBucketsHoldOneGradientCopy) {
  GeneratorOptions options = training("gpt2-small", 2);
  GeneratorOptions single = options;
  single.gradientBuffer = GradientBuffer::WeightType;
  RoleBytes reference = generate(single);
  options.dataParallel.ranks = 8;
  for (bool views : {false, true}) {
    options.dataParallel.gradientAsBucketView = views;
    RoleBytes replica = generate(options);
    EXPECT_EQ(replica[ArgumentRole::CommunicationBuffer],
              reference[ArgumentRole::GradientAccumulator]);
    EXPECT_EQ(replica[ArgumentRole::Weight], reference[ArgumentRole::Weight]);
    EXPECT_EQ(replica[ArgumentRole::OptimizerState],
              reference[ArgumentRole::OptimizerState]);
  }
}

} // namespace
