//===- DataParallel.cpp - One rank's step: DDP and ZeRO stages 1-3 --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DataParallel.h"

#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using memplan::ArgumentRole;
using memplan::ResultRole;
using namespace memplan::gen;

/// `gradients`' indices in the order their final values are computed.
static SmallVector<size_t> productionOrder(ArrayRef<Gradient> gradients) {
  SmallVector<size_t> order(gradients.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto producer = [&](size_t i) { return gradients[i].second.getDefiningOp(); };
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    Operation *x = producer(a), *y = producer(b);
    if (!x || !y || x == y)
      return x && !y; // arguments last
    return x->isBeforeInBlock(y);
  });
  return order;
}

/// How many elements of each of `gradients`' weights lie in this rank's
/// share of the flat partition of all `trainable` elements, the weights laid
/// out in `gradients`' order (0 for a weight outside it).
static SmallVector<int64_t> elementsInShare(GraphBuilder &g,
                                            ArrayRef<Gradient> gradients,
                                            int64_t trainable,
                                            const DataParallelOptions &dp) {
  int64_t begin = GraphBuilder::shareBegin(trainable, dp.ranks, dp.rank);
  int64_t end = begin + GraphBuilder::shareOf(trainable, dp.ranks, dp.rank);
  SmallVector<int64_t> parts;
  int64_t offset = 0;
  for (const auto &[weight, gradient] : gradients) {
    int64_t elements = g.typeOf(weight).getNumElements();
    parts.push_back(std::max<int64_t>(0, std::min(end, offset + elements) -
                                             std::max(begin, offset)));
    offset += elements;
  }
  return parts;
}

int64_t memplan::gen::reducedGradientBytes(const GeneratorOptions &o) {
  return o.gradientBuffer == GradientBuffer::F32 || o.activationType == "f32"
             ? 4
             : 2;
}

int64_t memplan::gen::defaultBucketBytes(const GeneratorOptions &o) {
  return o.dataParallel.zeroStage == 0
             ? int64_t(25) << 20
             : int64_t(500'000'000) * reducedGradientBytes(o);
}

SmallVector<Gradient>
memplan::gen::allReduceBuckets(GraphBuilder &g, const GeneratorOptions &o,
                               SmallVector<Gradient> gradients) {
  // PyTorch's DistributedDataParallel (reducer.cpp,
  // compute_bucket_assignment_by_size): parameters in reverse order, a
  // bucket closed once it holds at least its limit, 1 MiB for the first
  // (dist._DEFAULT_FIRST_BUCKET_BYTES) and bucket_cap_mb (25 MiB) after.
  constexpr int64_t kFirstBucketBytes = 1 << 20;
  int64_t limit = o.dataParallel.bucketBytes;
  struct Bucket {
    SmallVector<size_t> members;
    int64_t elements = 0, bytes = 0;
    Type element;
    Value value;
    size_t pending = 0;
  };
  SmallVector<Bucket> buckets;
  SmallVector<size_t> bucketOf(gradients.size());
  for (size_t i = gradients.size(); i-- > 0;) {
    auto type = g.typeOf(gradients[i].second);
    if (buckets.empty() ||
        buckets.back().bytes >=
            (buckets.size() == 1 ? kFirstBucketBytes : limit) ||
        buckets.back().element != type.getElementType())
      buckets.emplace_back().element = type.getElementType();
    Bucket &bucket = buckets.back();
    bucket.members.push_back(i);
    bucket.elements += type.getNumElements();
    bucket.bytes += int64_t(getByteSize(type).bytes);
    bucketOf[i] = buckets.size() - 1;
  }
  for (auto [index, bucket] : llvm::enumerate(buckets)) {
    bucket.value = g.argument({bucket.elements}, bucket.element,
                              ArgumentRole::CommunicationBuffer,
                              "ddp.bucket." + std::to_string(index));
    bucket.pending = bucket.members.size();
  }
  // Each gradient into its bucket as it is computed; a full bucket is
  // all-reduced at once, and (unless the gradients are views of the
  // buckets) copied back into the gradients, which the optimizer reads.
  bool views = o.dataParallel.gradientAsBucketView;
  for (size_t i : productionOrder(gradients)) {
    Bucket &bucket = buckets[bucketOf[i]];
    Value gradient = gradients[i].second;
    g.buildAfter(gradient, [&] {
      Type type = bucket.value.getType();
      bucket.value = g.generic("bucket_copy", {bucket.value, gradient}, {type},
                               {ResultRole::Gradient}, 0, {0})
                         .front();
      if (--bucket.pending)
        return;
      bucket.value =
          g.communicate(GraphBuilder::Transfer::AllReduce,
                        memplan::ProcessGroup::Data, o.dataParallel.ranks,
                        {bucket.value}, {type}, {ResultRole::Gradient}, {0})
              .front();
      if (views)
        return;
      for (size_t member : bucket.members) {
        Value &kept = gradients[member].second;
        kept = g.generic("bucket_unpack", {kept, bucket.value},
                         {kept.getType()}, {ResultRole::Gradient}, 0, {0})
                   .front();
      }
    });
  }
  if (views)
    for (size_t i = 0; i < gradients.size(); ++i)
      gradients[i].second = buckets[bucketOf[i]].value;
  return gradients;
}

void memplan::gen::zeroStep(GraphBuilder &g, const GeneratorOptions &o,
                            Type act, SmallVector<Gradient> gradients) {
  const DataParallelOptions &dp = o.dataParallel;
  MLIRContext *context = act.getContext();
  Type f32 = Float32Type::get(context);
  // The gradients' reduced type: the weights' (as the backward pass makes
  // them), or f32 with --grad-buffer f32.
  Type gradientType = o.gradientBuffer == GradientBuffer::F32 ? f32 : act;
  int64_t trainable = 0;
  for (auto &[weight, gradient] : gradients)
    trainable += g.typeOf(weight).getNumElements();
  int64_t share = GraphBuilder::shareOf(trainable, dp.ranks, dp.rank);

  // With ZeRO-Offload the reduced gradients of this rank's share go to an
  // f32 partition in the host's memory (DeepSpeed's CPU copy of the fp32
  // gradients), where the step reads them.
  const bool offload = dp.offloadOptimizer;
  Value hostGradients;
  if (offload)
    hostGradients = g.argument({share}, f32, ArgumentRole::GradientAccumulator,
                               "zero.grads", /*host=*/true);
  auto copyToHost = [&](Value reduced, int64_t bytes) {
    hostGradients =
        g.communicate(GraphBuilder::Transfer::ToHost,
                      memplan::ProcessGroup::Host, 1, {reduced, hostGradients},
                      {hostGradients.getType()}, {ResultRole::Gradient}, {1},
                      bytes)
            .front();
  };

  // The reduction. The step reads `sources`: every full gradient buffer
  // (stage 1) or this rank's gradient partition (stages 2 and 3), or with
  // offload the host's partition.
  SmallVector<Value> sources;
  if (dp.zeroStage == 1) {
    // P_os: full gradients, accumulated in their buffers (by the caller)
    // and all-reduced once the backward pass is done.
    // The part of each gradient in the rank's share of the flat partition.
    SmallVector<int64_t> mine = elementsInShare(g, gradients, trainable, dp);
    for (auto [index, entry] : llvm::enumerate(gradients)) {
      Value gradient = entry.second;
      Value reduced =
          g.communicate(GraphBuilder::Transfer::AllReduce,
                        memplan::ProcessGroup::Data, dp.ranks, {gradient},
                        {gradient.getType()}, {ResultRole::Gradient}, {0})
              .front();
      if (!offload)
        sources.push_back(reduced);
      else if (mine[index])
        copyToHost(reduced, mine[index] * reducedGradientBytes(o));
    }
    if (offload)
      sources.push_back(hostGradients);
  } else if (dp.fsdp) {
    // FSDP: a unit's gradients (views of its flat parameter's gradient)
    // are reduce-scattered together once its backward pass is done, into
    // the f32 gradient shard.
    Value partition = g.argument(
        {share}, f32, ArgumentRole::GradientAccumulator, "fsdp.grads");
    // FSDP makes each unit's gradient shard in the first backward pass.
    if (o.marksCreatedInFirstStep())
      g.createInFirstStep(partition);
    llvm::MapVector<size_t, SmallVector<size_t>> byUnit;
    SmallVector<size_t> alone;
    for (size_t i : productionOrder(gradients)) {
      if (std::optional<size_t> unit = g.unitOf(gradients[i].first))
        byUnit[*unit].push_back(i);
      else
        alone.push_back(i);
    }
    auto reduceScatter = [&](ArrayRef<size_t> members) {
      SmallVector<Value> operands;
      int64_t bytes = 0;
      for (size_t i : members) {
        operands.push_back(gradients[i].second);
        bytes += int64_t(getByteSize(operands.back().getType()).bytes);
      }
      operands.push_back(partition);
      // After the unit's last gradient.
      g.buildAfter(operands[operands.size() - 2], [&] {
        partition =
            g.communicate(GraphBuilder::Transfer::ReduceScatter,
                          memplan::ProcessGroup::Data, dp.ranks, operands,
                          {partition.getType()}, {ResultRole::Gradient},
                          {int64_t(operands.size() - 1)}, bytes)
                .front();
      });
    };
    // Units in the order their last gradient is made.
    SmallVector<ArrayRef<size_t>> order;
    for (auto &[unit, members] : byUnit)
      order.push_back(members);
    llvm::stable_sort(order, [&](ArrayRef<size_t> a, ArrayRef<size_t> b) {
      Operation *x = gradients[a.back()].second.getDefiningOp();
      Operation *y = gradients[b.back()].second.getDefiningOp();
      return x && y && x != y && x->isBeforeInBlock(y);
    });
    for (ArrayRef<size_t> members : order)
      reduceScatter(members);
    for (size_t i : alone)
      reduceScatter({i});
    sources.push_back(partition);
  } else {
    // P_os+g: DeepSpeed's reduction bucket (ipg_buffer, reduce_bucket_size
    // elements, allocated once): each gradient copied in as it is computed;
    // when the next one does not fit, the bucket is reduce-scattered into
    // this rank's gradient partition. A gradient larger than the bucket is
    // reduce-scattered from where it is.
    int64_t capacity = dp.bucketBytes / reducedGradientBytes(o);
    Value partition;
    if (!offload)
      partition = g.argument({share}, gradientType,
                             ArgumentRole::GradientAccumulator, "zero.grads");
    Value bucket = g.argument({capacity}, gradientType,
                              ArgumentRole::CommunicationBuffer, "zero.bucket");
    int64_t filled = 0;
    // The bucket's filled part is what is reduced. With offload the
    // reduction stays in place (the result is what `from` holds next), and
    // this rank's part of it goes to the host.
    auto reduceScatter = [&](Value from, int64_t elements) {
      int64_t bytes = elements * reducedGradientBytes(o);
      if (offload) {
        Value reduced =
            g.communicate(GraphBuilder::Transfer::ReduceScatter,
                          memplan::ProcessGroup::Data, dp.ranks, {from},
                          {from.getType()}, {ResultRole::Gradient}, {0}, bytes)
                .front();
        copyToHost(reduced, GraphBuilder::shareOf(elements, dp.ranks, dp.rank) *
                                reducedGradientBytes(o));
        return reduced;
      }
      partition = g.communicate(GraphBuilder::Transfer::ReduceScatter,
                                memplan::ProcessGroup::Data, dp.ranks,
                                {from, partition}, {partition.getType()},
                                {ResultRole::Gradient}, {1}, bytes)
                      .front();
      return from;
    };
    for (size_t i : productionOrder(gradients)) {
      Value gradient = gradients[i].second;
      int64_t elements = g.typeOf(gradient).getNumElements();
      g.buildAfter(gradient, [&] {
        if (filled > 0 && filled + elements > capacity) {
          bucket = reduceScatter(bucket, filled);
          filled = 0;
        }
        if (elements > capacity) {
          reduceScatter(gradient, elements);
          return;
        }
        bucket = g.generic("bucket_copy", {bucket, gradient},
                           {bucket.getType()}, {ResultRole::Gradient}, 0, {0})
                     .front();
        filled += elements;
      });
    }
    if (filled > 0)
      reduceScatter(bucket, filled);
    sources.push_back(offload ? hostGradients : partition);
  }

  // The optimizer's states for this rank's share, one flat tensor each.
  SmallVector<Value> operands(sources);
  SmallVector<Type> types;
  SmallVector<int64_t> aliases;
  auto state = [&](ArgumentRole role, const char *name, int64_t size,
                   Type element) {
    operands.push_back(g.argument({size}, element, role,
                                  std::string("zero.") + name, offload));
    // torch.optim, stepping FSDP's shards, makes its states in the first
    // step (DeepSpeed makes its partitions before).
    if (role == ArgumentRole::OptimizerState && o.marksCreatedInFirstStep())
      g.createInFirstStep(operands.back());
    types.push_back(operands.back().getType());
    aliases.push_back(operands.size() - 1);
  };
  // The step's kind: its optimizer, run by ZeRO, by ZeRO on the host, or by
  // FSDP (PyTorch's optimizer on the f32 shard).
  const char *optimizer = "adamw";
  switch (o.optimizer) {
  case Optimizer::AdamW:
    state(ArgumentRole::OptimizerState, "adam_m", share, f32);
    state(ArgumentRole::OptimizerState, "adam_v", share, f32);
    break;
  case Optimizer::Sgd:
    optimizer = "sgd";
    state(ArgumentRole::OptimizerState, "momentum", share, f32);
    break;
  case Optimizer::AdamW8Bit: {
    optimizer = "adamw_8bit";
    Type i8 = IntegerType::get(context, 8);
    int64_t blocks = llvm::divideCeil(share, 256);
    state(ArgumentRole::OptimizerState, "adam_m", share, i8);
    state(ArgumentRole::OptimizerState, "adam_m_absmax", blocks, f32);
    state(ArgumentRole::OptimizerState, "adam_v", share, i8);
    state(ArgumentRole::OptimizerState, "adam_v_absmax", blocks, f32);
    break;
  }
  case Optimizer::Adafactor:
    llvm_unreachable("rejected with ZeRO");
  }
  Value master;
  // Offloaded, the host keeps an f32 copy of the share even for f32
  // weights: the step runs there.
  // FSDP's f32 shard is the optimizer's parameter itself.
  if ((!act.isF32() || offload) && !dp.fsdp) {
    state(ArgumentRole::MasterWeight, "master", share, f32);
    master = operands.back();
  }
  // Stage 3 writes its share of the weights in place; stages 1 and 2 write
  // the same share of the full weights, then all-gather them.
  Value partition = g.getShardedPartition();
  if (dp.zeroStage == 3 && partition && !offload) {
    operands.push_back(partition);
    types.push_back(partition.getType());
    aliases.push_back(operands.size() - 1);
  }
  // DeepSpeed's step flattens this rank's averaged gradients and converts
  // them to f32 (stage_1_and_2.py: flatten(averaged_gradients).to(fp32)):
  // a copy in the gradients' type, and one in f32 unless that is f32.
  // Stage 3 steps one sub-group of the share at a time (stage3.py,
  // _prepare_fp32_grad_for_sub_group; sub_group_size, 1e9 elements by
  // default), stages 1 and 2 the whole share at once.
  constexpr int64_t kSubGroupElements = 1'000'000'000;
  int64_t stepped =
      dp.zeroStage == 3 ? std::min(share, kSubGroupElements) : share;
  int64_t scratch = stepped * reducedGradientBytes(o);
  if (!gradientType.isF32())
    scratch += stepped * 4;
  // Offloaded, the step is the host's (its temporaries too). FSDP's is
  // PyTorch's optimizer on the f32 shard, no copy: fused, no temporaries;
  // AdamW's foreach step makes the denominators of the whole shard at once
  // (_foreach_sqrt over every parameter's shard, as without FSDP); its
  // single-tensor step one parameter's at a time.
  std::string step = std::string(offload   ? "zero_cpu_"
                                 : dp.fsdp ? "fsdp_"
                                           : "zero_") +
                     optimizer;
  if (offload || dp.fsdp)
    scratch = 0;
  if (dp.fsdp && o.optimizer == Optimizer::AdamW &&
      o.optimizerImpl == OptimizerImpl::Foreach)
    scratch = 4 * share;
  if (dp.fsdp && o.optimizer == Optimizer::AdamW &&
      o.optimizerImpl == OptimizerImpl::ForLoop) {
    SmallVector<int64_t> parts = elementsInShare(g, gradients, trainable, dp);
    scratch = parts.empty() ? 0 : 4 * *llvm::max_element(parts);
  }
  SmallVector<ResultRole> roles(types.size(), ResultRole::Activation);
  SmallVector<Value> updated =
      g.generic(step, operands, types, roles, scratch, aliases);
  if (master)
    master = updated[llvm::find(operands, master) - operands.begin() -
                     sources.size()];
  if (offload) {
    // The updated share back to the GPU, in the weights' type: into the
    // weight partition (stage 3), or a buffer the all-gather reads.
    int64_t bytes = share * (act.getIntOrFloatBitWidth() / 8);
    if (dp.zeroStage == 3) {
      if (partition)
        g.communicate(GraphBuilder::Transfer::ToDevice,
                      memplan::ProcessGroup::Host, 1, {master, partition},
                      {partition.getType()}, {ResultRole::Activation}, {1},
                      bytes);
      return;
    }
    master =
        g.communicate(GraphBuilder::Transfer::ToDevice,
                      memplan::ProcessGroup::Host, 1, {master},
                      {g.tensorType({share}, act)}, {ResultRole::Activation})
            .front();
  }
  if (dp.zeroStage == 3)
    return;
  SmallVector<Value> weights;
  SmallVector<Type> weightTypes;
  SmallVector<int64_t> weightAliases;
  for (auto &[weight, gradient] : gradients) {
    weights.push_back(weight);
    weightTypes.push_back(weight.getType());
    weightAliases.push_back(weights.size() - 1);
  }
  if (master)
    weights.push_back(master);
  g.communicate(
      GraphBuilder::Transfer::AllGather, memplan::ProcessGroup::Data, dp.ranks,
      weights, weightTypes,
      SmallVector<ResultRole>(weightTypes.size(), ResultRole::Activation),
      weightAliases);
}

/// Why the data-parallel options cannot make a step; empty if they can.
std::string memplan::gen::checkDataParallel(const GeneratorOptions &o) {
  const DataParallelOptions &dp = o.dataParallel;
  bool train = o.mode == Mode::Train;
  if (dp.ranks < 1)
    return "data parallelism needs at least 1 GPU";
  if (std::string error =
          checkIndex("rank", dp.rank, dp.ranks, "data-parallel ranks");
      !error.empty())
    return error;
  if (dp.zeroStage < 0 || dp.zeroStage > 3)
    return "--zero is a ZeRO stage: 0 (DDP), 1, 2 or 3";
  if (!train && dp.zeroStage != 3 && (dp.ranks > 1 || dp.zeroStage != 0))
    return "data-parallel inference runs a full replica on each GPU (plan "
           "one); ZeRO-3 (--zero 3) shards the weights of inference too";
  if (dp.bucketBytes < 0)
    return "a bucket holds at least one gradient element";
  if (dp.bucketBytes > 0 && dp.zeroStage == 1)
    return "--bucket-size sets DDP's buckets or ZeRO-2/3's reduction bucket; "
           "ZeRO-1 all-reduces the full gradient buffers";
  if (dp.bucketBytes > 0 && dp.zeroStage == 0 && dp.ranks == 1)
    return "--bucket-size sets the buckets of data parallelism: give "
           "--data-parallel N with N above 1";
  if (dp.gradientAsBucketView && (dp.zeroStage != 0 || dp.ranks == 1))
    return "--grad-as-bucket-view is DDP's (--data-parallel N, --zero 0)";
  if (dp.offloadOptimizer && (!train || dp.zeroStage == 0))
    return "--offload-optimizer moves ZeRO's optimizer partition to the host: "
           "give --mode train and --zero 1, 2 or 3";
  if (dp.fsdp && dp.zeroStage != 3)
    return "--fsdp is FSDP's FULL_SHARD, stage 3's layout: give --zero 3 or "
           "leave --zero out";
  if (dp.fsdp && dp.offloadOptimizer)
    return "--offload-optimizer is DeepSpeed's; FSDP's CPU offload moves "
           "the parameters too (not modelled)";
  if (dp.offloadOptimizer && o.optimizer != Optimizer::AdamW)
    return "--offload-optimizer runs DeepSpeed's CPU Adam: give --optimizer "
           "adamw";
  if (dp.zeroStage == 0)
    return "";
  if (train && o.optimizer == Optimizer::Adafactor)
    return "ZeRO shards element-wise optimizer states; Adafactor's factored "
           "statistics need whole matrices";
  if (o.optimizerImpl != OptimizerImpl::Fused && !dp.fsdp)
    return "ZeRO runs its fused optimizer on the flat partition: "
           "--optimizer-impl applies to PyTorch's AdamW, without ZeRO or "
           "under --fsdp";
  if (dp.zeroStage >= 2 && dp.bucketBytes > 0 &&
      dp.bucketBytes < reducedGradientBytes(o))
    return "a bucket holds at least one gradient element";
  if (dp.zeroStage == 3) {
    // NF4 codes are packed into the float storage type and sharded with
    // the float weights (bnb_4bit_quant_storage); int8/int4 (GPTQ- and
    // AWQ-style inference) are not.
    if (o.weightType == "int8" || o.weightType == "int4")
      return "ZeRO-3 shards float and NF4 weights; the weights are " +
             o.weightType;
    if (dp.fsdp && (o.qlora || o.weightType == "nf4"))
      return "--fsdp keeps f32 shards; NF4 weights (QLoRA) are sharded in "
             "their float storage by DeepSpeed's ZeRO-3 here: leave --fsdp out";
    if (o.checkpointLayers != 1)
      return "ZeRO-3 gathers one layer at a time: --checkpoint-layers above 1 "
             "would recompute layers whose weights are released";
  }
  return "";
}

std::string memplan::gen::checkIndex(llvm::StringRef flag, int64_t index,
                                     int64_t count, llvm::StringRef what) {
  if (index >= 0 && index < count)
    return "";
  return ("--" + flag + " " + std::to_string(index) + " is not one of the " +
          std::to_string(count) + " " + what + " (0 to " +
          std::to_string(count - 1) + ")")
      .str();
}
