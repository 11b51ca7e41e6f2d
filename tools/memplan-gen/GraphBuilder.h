//===- GraphBuilder.h - Graphs with a backward pass ----------- -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Creates one func.func of memplan ops through MLIR builders (every op is
// verified), computing result types from operand shapes. Arguments carry
// their role and name (memplan.role, memplan.name) for the memory report.
//
// With recording on, every op also records how to compute the gradients of
// its operands; `backward` replays those steps in reverse from a loss
// gradient, as reverse-mode differentiation does, emitting the backward ops
// (mostly generic `memplan.op "<kind>_backward"`: their shapes and lifetimes
// are what the planner needs). Forward values used by backward ops stay
// alive until then, exactly like the activations a training step saves.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_MEMPLANGEN_GRAPHBUILDER_H
#define MEMPLAN_TOOLS_MEMPLANGEN_GRAPHBUILDER_H

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace memplan::gen {

class GraphBuilder {
public:
  GraphBuilder(mlir::MLIRContext *context, llvm::StringRef functionName);

  /// A function argument with a role (weight, input, kv_cache,
  /// optimizer_state, master_weight) and a name.
  /// A new argument; `host`: in the host's memory (memplan.host), not the
  /// GPU's.
  mlir::Value argument(llvm::ArrayRef<int64_t> shape, mlir::Type element,
                       memplan::ArgumentRole role, llvm::StringRef name,
                       bool host = false);
  mlir::Value indexArgument(llvm::StringRef name);
  /// Marks `argument` as made by the framework during the first step
  /// (memplan.created_in_first_step): torch.optim's optimizer states,
  /// autograd's .grad.
  void createInFirstStep(mlir::Value argument);
  /// Makes a weight argument frozen (LoRA's base weights): it gets no
  /// gradient, and nothing is kept or computed for one.
  void freeze(mlir::Value weight);

  /// The math library's workspace every matmul (and every backward GEMM)
  /// gets from now on, as planned scratch; 0: none.
  void setMatmulWorkspace(int64_t bytes) { matmulWorkspace = bytes; }

  // Forward ops: result types follow the operands.
  mlir::Value matmul(mlir::Value lhs, mlir::Value rhs,
                     bool transposeRhs = false);
  /// `lhs` times a frozen 4-bit weight: `dequantize_nf4`(`packed`,
  /// `quantState`...) makes the weight in `element` for the GEMM, as
  /// bitsandbytes does; the backward dequantizes again (nothing but `lhs`'s
  /// gradient is computed, and the dequantized weight is not kept).
  mlir::Value matmulNf4(mlir::Value lhs, mlir::Value packed,
                        mlir::ValueRange quantState, mlir::Type element);
  mlir::Value add(mlir::Value lhs, mlir::Value rhs);
  mlir::Value mul(mlir::Value lhs, mlir::Value rhs);
  mlir::Value gelu(mlir::Value input);
  mlir::Value silu(mlir::Value input);
  /// tanh as a generic op (BERT's pooler); its backward reads the output.
  mlir::Value tanh(mlir::Value input);
  /// input^3 as a generic op (torch.pow(x, 3.0)); its backward reads the
  /// input.
  mlir::Value cube(mlir::Value input);
  /// The elementwise generic op `name` of `input`, whose backward op
  /// (`name`_backward) reads the result or the input.
  mlir::Value unaryGeneric(llvm::StringRef name, mlir::Value input,
                           bool backwardReadsResult);
  /// `heads` [B, kvHeads, S, D] with each head repeated `times` times side
  /// by side, [B, kvHeads x times, S, D] (head h of the result is head
  /// h / times of the input): a new tensor, as PyTorch's expand + reshape
  /// copies it for grouped-query attention (LitGPT, transformers'
  /// repeat_kv). Its backward sums each group's gradients (`dy` alone).
  mlir::Value repeatHeads(mlir::Value heads, int64_t times);
  /// `input[offsets ...]` of shape `sizes`; its backward scatters the
  /// gradient into zeros of the input's shape (`slice_backward`).
  mlir::Value slice(mlir::Value input, llvm::ArrayRef<int64_t> offsets,
                    llvm::ArrayRef<int64_t> sizes);
  mlir::Value softmax(mlir::Value input, int64_t axis);
  /// Training dropout as PyTorch's native_dropout: the output, and a mask
  /// of one byte per element (a bool tensor) that the backward step reads
  /// (dropout_backward(dy, mask)); `probability` is kept on the op as `p`.
  mlir::Value dropout(mlir::Value input, double probability);
  /// Log-softmax over the last axis, as a generic op whose backward step
  /// reads its output (log_softmax_backward(dy, output)).
  mlir::Value logSoftmax(mlir::Value input);
  /// Element type conversion; the backward step converts the gradient back.
  mlir::Value cast(mlir::Value input, mlir::Type element);
  mlir::Value layerNorm(mlir::Value input, mlir::Value gamma, mlir::Value beta,
                        double epsilon);
  mlir::Value rmsNorm(mlir::Value input, mlir::Value gamma, double epsilon);
  /// x / sqrt(mean(x^2) + epsilon) over the last dimension, without a
  /// weight: the middle of an RMSNorm written as tensor operations (its
  /// backward reads the input).
  mlir::Value rmsNormalize(mlir::Value input, double epsilon);
  mlir::Value embedding(mlir::Value table, mlir::Value ids);
  mlir::Value rope(mlir::Value input, mlir::Value positions);
  mlir::Value transpose(mlir::Value input, llvm::ArrayRef<int64_t> permutation);
  mlir::Value reshape(mlir::Value input, llvm::ArrayRef<int64_t> shape);
  /// Splits `input` along dimension 0 into equal slices of size 1 (the fused
  /// QKV projection); its backward concatenates the slices' gradients.
  llvm::SmallVector<mlir::Value> split(mlir::Value input);
  /// Fused attention, its result token-major, [B, Sq, nh, hd]
  /// (FlashAttention's layout).
  mlir::Value attention(mlir::Value query, mlir::Value key, mlir::Value value,
                        bool causal);
  mlir::Value kvCacheUpdate(mlir::Value cache, mlir::Value update,
                            mlir::Value position);
  // Tensor parallelism (Megatron-LM's communication, as differentiable ops).
  /// The partial sums of a row-parallel projection, all-reduced in place;
  /// the gradient passes through (Megatron's g).
  /// `ranks` is the tensor-parallel GPUs, here and below.
  mlir::Value tensorParallelAllReduce(mlir::Value partial, int64_t ranks);
  /// The input of column-parallel projections: the same tensor forward (an
  /// in-place no-op, `tp_input`), and its gradient all-reduced in place
  /// backward (Megatron's f).
  mlir::Value tensorParallelInput(mlir::Value input, int64_t ranks);
  /// Sequence parallelism: `input`'s dimension 1 (the tokens), split over
  /// `ranks`, all-gathered for column-parallel projections; the gradient is
  /// reduce-scattered back. The backward pass gathers `input` again rather
  /// than keep the gathered copy, as Megatron does.
  mlir::Value sequenceParallelGather(mlir::Value input, int64_t ranks);
  /// Sequence parallelism: a row-parallel projection's partial sums,
  /// reduce-scattered over the tokens; the gradient is all-gathered.
  mlir::Value sequenceParallelReduceScatter(mlir::Value partial, int64_t ranks);

  /// What a communication op does, for the bytes it sends.
  enum class Transfer {
    AllReduce,
    AllGather,
    ReduceScatter,
    Send,
    Receive,
    ToHost,
    ToDevice
  };
  /// A generic op that communicates: `transfer` over the `ranks` GPUs of
  /// `group`, named all_reduce, all_gather, reduce_scatter, send or recv,
  /// and marked (`comm`) with the bytes this GPU sends as NCCL's ring
  /// algorithms do: 2 (n - 1) / n of its results for an all-reduce,
  /// (n - 1) / n of its results (the whole) for an all-gather and of its
  /// first operand (the whole) for a reduce-scatter, its first operand for
  /// a send, nothing for a receive (its sender counts it). `wholeBytes`,
  /// when not negative, is the whole instead, for a buffer that runs
  /// partly filled (ZeRO's reduction bucket). ToHost (copy_to_host) and
  /// ToDevice (copy_to_device) move their first operand's bytes or their
  /// results' (or `wholeBytes`) over the `host` link.
  llvm::SmallVector<mlir::Value>
  communicate(Transfer transfer, memplan::ProcessGroup group, int64_t ranks,
              mlir::ValueRange operands, mlir::TypeRange resultTypes,
              llvm::ArrayRef<memplan::ResultRole> roles,
              llvm::ArrayRef<int64_t> aliases = {}, int64_t wholeBytes = -1);

  /// A generic op; `roles` (activation, gradient, loss) label its results.
  llvm::SmallVector<mlir::Value>
  generic(llvm::StringRef name, mlir::ValueRange operands,
          mlir::TypeRange resultTypes,
          llvm::ArrayRef<memplan::ResultRole> roles, int64_t scratch = 0,
          llvm::ArrayRef<int64_t> aliases = {});

  /// Says that in the framework modelled `view` is a view into the bytes of
  /// `storage` (tensors of this graph that hold them together): a backward
  /// step that keeps `view` keeps `storage` instead, so all of it stays
  /// alive as long as the view does. LitGPT's value heads are a view of its
  /// fused QKV projection's output, and the attention's backward keeps the
  /// whole output through them; so does Hugging Face's GPT-2 through its
  /// query heads when it fills a KV cache in training. Asked by the
  /// attention's backward.
  void keepAsViewOf(mlir::Value view, llvm::ArrayRef<mlir::Value> storage);
  /// What a backward step keeps for the forward value `saved`: `saved`, or
  /// the storage `keepAsViewOf` gave for it.
  llvm::SmallVector<mlir::Value> keptFor(mlir::Value saved) const;

  /// Records backward steps from now on, on a new tape (the forward pass of
  /// one micro-batch); returns its number for `backward`. Tapes recorded
  /// before and not yet run back stay as they are (a pipeline stage keeps
  /// several micro-batches in flight).
  size_t startRecording();
  /// Autograd's requires_grad on a value no weight produced (a pipeline
  /// stage's received activations): its gradient is computed, and read
  /// with `getGradient` after the backward pass.
  void markRequiresGradient(mlir::Value value) {
    gradientInputs.push_back(value);
  }
  /// The gradient the last backward pass computed for `value` (null if
  /// none).
  mlir::Value getGradient(mlir::Value value) const {
    return gradients.lookup(value);
  }
  /// Activation checkpointing: the forward ops built between these two
  /// calls (a layer, or its core attention) are computed again, by clones
  /// inserted before the backward steps recorded between them run, and
  /// those steps read the clones; so no value made inside is kept for the
  /// backward pass except through the clones (the segment's inputs are).
  /// Clones carry `memplan.recomputed`; no-ops while not recording.
  void beginCheckpoint();
  void endCheckpoint();
  /// Sharding units (ZeRO-3, FSDP's wrapped modules): the ops built from
  /// this call to the next one (or to the backward pass, or to `finish`)
  /// form one unit. Recorded always; used by `shardWeights`.
  void beginUnit();
  /// ZeRO-3 on `ranks` GPUs, as rank `rank` runs it: every float weight
  /// argument (trainable or frozen) lives only as this rank's share of one
  /// flat partition of all of them (argument `zero.params`, elements
  /// [floor(r W / N), floor((r + 1) W / N)) of the W weights' elements in
  /// argument order). Each unit reads the weights it uses from one
  /// `all_gather` op made before the unit runs (before the unit before it,
  /// with `prefetch`: the next unit's weights are gathered while one runs)
  /// and released by a `release` op after its last op; its backward steps
  /// gather them again the same way, in reverse. The full weight arguments
  /// go. Applied when the backward pass starts, or by `finish`. With
  /// `fsdp` (PyTorch FSDP with mixed precision) the partition is f32
  /// (`fsdp.params`) and each unit's share is cast to the weights' type
  /// (`cast_shard`) before it is gathered.
  void shardWeights(int64_t ranks, int64_t rank, bool prefetch,
                    bool fsdp = false);
  /// The unit whose ops read sharded weight `weight`, once sharding is
  /// applied.
  std::optional<size_t> unitOf(mlir::Value weight) const;
  /// The `zero.params` argument once the weights are sharded (null before,
  /// or without float weights).
  mlir::Value getShardedPartition() const {
    return sharding ? sharding->partition : mlir::Value();
  }
  /// Runs `build` with new ops placed just after `value`'s producer (at the
  /// end of the function for an argument), in order, and after the ops
  /// earlier calls placed there (one op may make several gradients).
  void buildAfter(mlir::Value value, llvm::function_ref<void()> build);
  /// The elements of rank `rank`'s share of `total` over `ranks` ranks.
  static int64_t shareOf(int64_t total, int64_t ranks, int64_t rank) {
    return shareBegin(total, ranks, rank + 1) - shareBegin(total, ranks, rank);
  }
  /// Where rank `rank`'s share begins: floor(total rank / ranks), without
  /// overflow for any int64 total (quotient and remainder apart).
  static int64_t shareBegin(int64_t total, int64_t ranks, int64_t rank) {
    return total / ranks * rank + total % ranks * rank / ranks;
  }
  /// Operations the checkpoints' clones perform (RecomputableOpInterface).
  uint64_t getRecomputedFlops() const { return recomputedFlops; }
  /// Runs the steps of tape `tape` (the last one recorded by default) in
  /// reverse from `gradient` = d(loss)/d(`output`); returns the gradient of
  /// every weight argument that received one in this pass, in argument
  /// order.
  llvm::SmallVector<std::pair<mlir::Value, mlir::Value>>
  backward(mlir::Value output, mlir::Value gradient,
           std::optional<size_t> tape = std::nullopt);

  /// A weight's final `gradient` added into `buffer` (a persistent gradient
  /// buffer, converting to its type) by a `grad_accumulate` op placed just
  /// after the op that made the gradient, as PyTorch's AccumulateGrad does:
  /// the gradient dies there. Returns the updated buffer (in place).
  mlir::Value accumulateInto(mlir::Value buffer, mlir::Value gradient);

  /// Returns `results`, sets the function type and argument attributes.
  mlir::OwningOpRef<mlir::ModuleOp> finish(mlir::ValueRange results);

  size_t getNumArguments() const { return arguments.size(); }
  mlir::RankedTensorType typeOf(mlir::Value value) const {
    return llvm::cast<mlir::RankedTensorType>(value.getType());
  }
  mlir::RankedTensorType tensorType(llvm::ArrayRef<int64_t> shape,
                                    mlir::Type element) const {
    return mlir::RankedTensorType::get(shape, element);
  }

private:
  /// Whether `value` gets a gradient: trainable weights, and float results
  /// of ops that depend on one (as autograd's requires_grad).
  bool needsGradient(mlir::Value value) const;
  void accumulate(mlir::Value value, mlir::Value gradient);
  mlir::Value gradientOf(mlir::Value value) const {
    return gradients.lookup(value);
  }
  /// `gradient` reduced to `target`'s shape (a broadcast operand).
  mlir::Value reduceTo(mlir::Value gradient, mlir::Value target);
  void record(std::function<void()> step) {
    if (recording)
      tape.push_back(std::move(step));
  }
  /// The matmul op alone (with the library workspace), and the backward
  /// GEMMs' generic op (on the same workspace).
  mlir::Value forwardMatmul(mlir::Value lhs, mlir::Value rhs,
                            bool transposeRhs);
  llvm::SmallVector<mlir::Value>
  matmulBackward(mlir::ValueRange operands, mlir::TypeRange types,
                 llvm::ArrayRef<memplan::ResultRole> roles,
                 uint64_t forwardFlops);
  /// A tensor-parallel collective `forward` of `input` into `resultType`
  /// over `ranks` GPUs, whose backward step is the collective `backward` of
  /// the incoming gradient.
  mlir::Value collective(Transfer forward, Transfer backward, mlir::Value input,
                         mlir::RankedTensorType resultType, int64_t ranks);
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value, 3>> viewStorage;
  /// What a backward step reads for the forward value `saved`: `saved`,
  /// or a sequence-parallel gather made again just before, once `after`
  /// (the step's incoming gradient) exists.
  mlir::Value savedForBackward(mlir::Value saved, mlir::Value after);
  /// Sequence-parallel gathers by their results: what they gathered, and
  /// over how many GPUs.
  llvm::DenseMap<mlir::Value, std::pair<mlir::Value, int64_t>> regatherable;
  /// Whether `value` is a trainable (not frozen) weight argument.
  bool isWeight(mlir::Value value) const;
  /// Records the backward step of a one-input op: a generic op `backward`
  /// (dy, saved) -> d input, where `saved` is what the forward kept for it
  /// (the input of GELU and SiLU, the output of softmax, dropout's mask);
  /// null: nothing, the backward reads `dy` alone (a slice, a copy).
  void recordUnaryBackward(mlir::Value input, mlir::Value result,
                           mlir::Value saved, llvm::StringRef backwardName);

  mlir::MLIRContext *context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp function;
  mlir::OpBuilder builder;
  mlir::Location loc;
  /// What the function's argument attributes say, by argument number.
  struct ArgumentInfo {
    memplan::ArgumentRole role;
    std::string name;
    bool host = false;
    bool createdInFirstStep = false;
  };
  std::vector<ArgumentInfo> arguments;
  llvm::DenseSet<unsigned> frozenArguments;
  /// Op results that depend on a trainable weight, found when the backward
  /// pass starts.
  llvm::DenseSet<mlir::Value> requiresGradient;
  bool recording = false;
  int64_t matmulWorkspace = 0;
  std::vector<std::function<void()>> tape;
  /// A checkpointed stretch: its tape steps [firstStep, endStep) and its
  /// forward ops, the ops after `before` through `last`.
  struct Checkpoint {
    size_t firstStep = 0, endStep = 0;
    mlir::Operation *before = nullptr, *last = nullptr;
  };
  std::vector<Checkpoint> checkpoints;
  std::optional<Checkpoint> openCheckpoint;
  /// Tapes other than the current one (`tape`, `checkpoints`), by number.
  struct StoredTape {
    std::vector<std::function<void()>> steps;
    std::vector<Checkpoint> checkpoints;
  };
  std::map<size_t, StoredTape> storedTapes;
  size_t currentTape = 0, tapeCount = 0;
  /// Makes tape `number` the current one, storing the current one.
  void switchTape(size_t number);
  llvm::SmallVector<mlir::Value> gradientInputs;
  uint64_t recomputedFlops = 0;
  /// Clones the ops of `checkpoint` at the insertion point.
  void recompute(const Checkpoint &checkpoint, mlir::IRMapping &mapping,
                 llvm::SmallVectorImpl<mlir::Operation *> &clones);
  llvm::DenseMap<mlir::Value, mlir::Value> gradients;

  /// A sharding unit: its forward ops follow `before` (null: from the
  /// block's start); its backward steps are [firstStep, endStep); the
  /// sharded weights it reads, in the order of first use, and their copies
  /// gathered for the forward pass.
  struct Unit {
    mlir::Operation *before = nullptr;
    size_t firstStep = 0, endStep = 0;
    llvm::SmallVector<mlir::Value> weights;
    llvm::SmallVector<mlir::Value> gathered;
  };
  std::vector<Unit> units;
  struct Sharding {
    int64_t ranks = 1, rank = 0;
    bool prefetch = true;
    bool fsdp = false;
    mlir::Value partition;
    bool applied = false;
  };
  std::optional<Sharding> sharding;
  /// buildAfter: the last op placed after each producer.
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> placedAfter;
  /// Whether `value` is a weight argument that `shardWeights` shards.
  bool isShardedWeight(mlir::Value value) const;
  /// Rewrites the forward pass: each unit reads its weights from an
  /// all_gather op, released after the unit.
  void gatherForward();
  /// An all_gather op of `unit`'s weights at the insertion point (none if it
  /// has no weights); its results in the unit's weight order.
  llvm::SmallVector<mlir::Value> gatherUnit(const Unit &unit);
  /// A `release` op of gathered weights at the insertion point: they live
  /// to it, as long as DeepSpeed keeps a module's gathered weights.
  mlir::Operation *release(mlir::ValueRange gathered);
  /// The function's arguments `shardWeights` replaced, erased.
  void eraseShardedArguments();
};

} // namespace memplan::gen

#endif // MEMPLAN_TOOLS_MEMPLANGEN_GRAPHBUILDER_H
