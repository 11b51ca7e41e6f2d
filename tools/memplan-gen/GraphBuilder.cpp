//===- GraphBuilder.cpp - Build memplan graphs, with a backward pass ------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace memplan;
using namespace memplan::gen;

GraphBuilder::GraphBuilder(MLIRContext *context, StringRef functionName)
    : context(context), builder(context), loc(UnknownLoc::get(context)) {
  module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  function = func::FuncOp::create(builder, loc, functionName,
                                  builder.getFunctionType({}, {}));
  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToStart(entry);
}

Value GraphBuilder::argument(ArrayRef<int64_t> shape, Type element,
                             ArgumentRole role, StringRef name, bool host) {
  arguments.push_back({role, name.str(), host});
  return function.getBody().front().addArgument(
      RankedTensorType::get(shape, element), loc);
}

Value GraphBuilder::indexArgument(StringRef name) {
  arguments.push_back({ArgumentRole::Input, name.str()});
  return function.getBody().front().addArgument(builder.getIndexType(), loc);
}

void GraphBuilder::createInFirstStep(Value argument) {
  arguments[llvm::cast<BlockArgument>(argument).getArgNumber()]
      .createdInFirstStep = true;
}

void GraphBuilder::freeze(Value weight) {
  frozenArguments.insert(llvm::cast<BlockArgument>(weight).getArgNumber());
}

bool GraphBuilder::isWeight(Value value) const {
  auto argument = dyn_cast<BlockArgument>(value);
  return argument &&
         arguments[argument.getArgNumber()].role == ArgumentRole::Weight &&
         !frozenArguments.contains(argument.getArgNumber());
}

bool GraphBuilder::needsGradient(Value value) const {
  if (!isa<FloatType>(getElementTypeOrSelf(value.getType())))
    return false;
  return isWeight(value) || requiresGradient.contains(value);
}

/// The result role of the gradient of `value`.
static ResultRole gradientRole(bool isWeight) {
  return isWeight ? ResultRole::Gradient : ResultRole::Activation;
}

void GraphBuilder::accumulate(Value value, Value gradient) {
  if (!gradient || !needsGradient(value))
    return;
  Value &slot = gradients[value];
  if (!slot) {
    slot = gradient;
    return;
  }
  Value sum = add(slot, gradient);
  if (isWeight(value))
    setResultRoles(sum.getDefiningOp(), {ResultRole::Gradient});
  gradients[value] = sum;
}

Value GraphBuilder::reduceTo(Value gradient, Value target) {
  if (typeOf(gradient) == typeOf(target))
    return gradient;
  return generic("reduce_to_shape", {gradient}, {typeOf(target)},
                 {gradientRole(isWeight(target))})
      .front();
}

SmallVector<Value> GraphBuilder::generic(StringRef name, ValueRange operands,
                                         TypeRange resultTypes,
                                         ArrayRef<ResultRole> roles,
                                         int64_t scratch,
                                         ArrayRef<int64_t> aliases) {
  SmallVector<NamedAttribute> attributes;
  attributes.push_back(
      builder.getNamedAttr("name", builder.getStringAttr(name)));
  if (scratch)
    attributes.push_back(
        builder.getNamedAttr("scratch", builder.getI64IntegerAttr(scratch)));
  if (!aliases.empty())
    attributes.push_back(
        builder.getNamedAttr("aliases", builder.getDenseI64ArrayAttr(aliases)));
  auto op = GenericOp::create(builder, loc, resultTypes, operands, attributes);
  if (!roles.empty())
    setResultRoles(op, roles);
  return SmallVector<Value>(op->getResults());
}

/// (ranks - 1) / ranks of `bytes`, rounded down, without overflow.
static int64_t ringShare(int64_t bytes, int64_t ranks) {
  return bytes / ranks * (ranks - 1) + bytes % ranks * (ranks - 1) / ranks;
}

static int64_t bytesOf(TypeRange types) {
  int64_t bytes = 0;
  for (Type type : types)
    bytes += int64_t(getByteSize(type).bytes);
  return bytes;
}

SmallVector<Value>
GraphBuilder::communicate(Transfer transfer, ProcessGroup group, int64_t ranks,
                          ValueRange operands, TypeRange resultTypes,
                          ArrayRef<ResultRole> roles, ArrayRef<int64_t> aliases,
                          int64_t wholeBytes) {
  StringRef name;
  int64_t sent = 0;
  switch (transfer) {
  case Transfer::AllReduce:
    name = "all_reduce";
    sent = 2 * ringShare(bytesOf(resultTypes), ranks);
    break;
  case Transfer::AllGather:
    name = "all_gather";
    sent = ringShare(bytesOf(resultTypes), ranks);
    break;
  case Transfer::ReduceScatter:
    name = "reduce_scatter";
    sent = ringShare(wholeBytes >= 0 ? wholeBytes
                                     : bytesOf(operands.front().getType()),
                     ranks);
    break;
  case Transfer::Send:
    name = "send";
    sent = bytesOf(operands.front().getType());
    break;
  case Transfer::Receive:
    name = "recv";
    break;
  case Transfer::ToHost:
    name = "copy_to_host";
    sent = wholeBytes >= 0 ? wholeBytes : bytesOf(operands.front().getType());
    break;
  case Transfer::ToDevice:
    name = "copy_to_device";
    sent = wholeBytes >= 0 ? wholeBytes : bytesOf(resultTypes);
    break;
  }
  SmallVector<Value> results =
      generic(name, operands, resultTypes, roles, 0, aliases);
  Operation *op = results.empty() ? nullptr : results.front().getDefiningOp();
  if (op)
    op->setAttr("comm", CommunicationAttr::get(builder.getContext(), group,
                                               ranks, sent));
  return results;
}

Value GraphBuilder::tensorParallelAllReduce(Value partial, int64_t ranks) {
  Value result =
      communicate(Transfer::AllReduce, ProcessGroup::Tensor, ranks, {partial},
                  {partial.getType()}, {ResultRole::Activation}, {0})
          .front();
  record([=] {
    if (Value dy = gradientOf(result); dy && needsGradient(partial))
      accumulate(partial, dy);
  });
  return result;
}

Value GraphBuilder::tensorParallelInput(Value input, int64_t ranks) {
  // Forward, the identity: a view, so that the input stays readable (a
  // residual stream that also enters the region, as BERT's does).
  Value result = generic("tp_input", {input}, {input.getType()},
                         {ResultRole::Activation}, 0, {0})
                     .front();
  result.getDefiningOp()->setAttr("views", builder.getUnitAttr());
  record([=] {
    Value dy = gradientOf(result);
    if (!dy || !needsGradient(input))
      return;
    accumulate(input,
               communicate(Transfer::AllReduce, ProcessGroup::Tensor, ranks,
                           {dy}, {dy.getType()}, {ResultRole::Activation}, {0})
                   .front());
  });
  return result;
}

/// `type` with dimension 1 multiplied by `factor` (divided, for a negative
/// one).
static RankedTensorType scaleTokens(RankedTensorType type, int64_t factor) {
  SmallVector<int64_t> shape(type.getShape());
  shape[1] = factor > 0 ? shape[1] * factor : shape[1] / -factor;
  return RankedTensorType::get(shape, type.getElementType());
}

Value GraphBuilder::collective(Transfer forward, Transfer backward, Value input,
                               RankedTensorType resultType, int64_t ranks) {
  Value result = communicate(forward, ProcessGroup::Tensor, ranks, {input},
                             {resultType}, {ResultRole::Activation})
                     .front();
  record([=] {
    Value dy = gradientOf(result);
    if (!dy || !needsGradient(input))
      return;
    accumulate(input, communicate(backward, ProcessGroup::Tensor, ranks, {dy},
                                  {input.getType()}, {ResultRole::Activation})
                          .front());
  });
  return result;
}

Value GraphBuilder::sequenceParallelGather(Value input, int64_t ranks) {
  Value result = collective(Transfer::AllGather, Transfer::ReduceScatter, input,
                            scaleTokens(typeOf(input), ranks), ranks);
  regatherable[result] = {input, ranks};
  return result;
}

Value GraphBuilder::sequenceParallelReduceScatter(Value partial,
                                                  int64_t ranks) {
  return collective(Transfer::ReduceScatter, Transfer::AllGather, partial,
                    scaleTokens(typeOf(partial), -ranks), ranks);
}

Value GraphBuilder::savedForBackward(Value saved, Value after) {
  auto it = regatherable.find(saved);
  if (it == regatherable.end())
    return saved;
  // The backward step issues the gather: it reads the incoming gradient
  // too, so that no reordering (--memplan-schedule) hoists it into the
  // forward pass, where the full copy would live through the step.
  auto [input, ranks] = it->second;
  return communicate(Transfer::AllGather, ProcessGroup::Tensor, ranks,
                     {input, after}, {saved.getType()},
                     {ResultRole::Activation})
      .front();
}

Value GraphBuilder::forwardMatmul(Value lhs, Value rhs, bool transposeRhs) {
  IntegerAttr workspace = matmulWorkspace
                              ? builder.getI64IntegerAttr(matmulWorkspace)
                              : IntegerAttr();
  return MatmulOp::create(builder, loc, lhs, rhs,
                          /*transpose_lhs=*/false, transposeRhs, workspace);
}

SmallVector<Value> GraphBuilder::matmulBackward(ValueRange operands,
                                                TypeRange types,
                                                ArrayRef<ResultRole> roles,
                                                uint64_t forwardFlops) {
  // Its GEMMs run one after another on one library workspace.
  SmallVector<Value> grads =
      generic("matmul_backward", operands, types, roles, matmulWorkspace);
  Operation *op = grads.front().getDefiningOp();
  if (matmulWorkspace)
    op->setAttr("library_workspace", builder.getUnitAttr());
  // Each gradient is one GEMM as large as the forward one.
  op->setAttr("flops", builder.getI64IntegerAttr(int64_t(std::min<uint64_t>(
                           llvm::SaturatingMultiply(forwardFlops, types.size()),
                           INT64_MAX))));
  return grads;
}

Value GraphBuilder::matmul(Value lhs, Value rhs, bool transposeRhs) {
  Value result = forwardMatmul(lhs, rhs, transposeRhs);
  record([=] {
    Value dy = gradientOf(result);
    bool lhsGrad = needsGradient(lhs), rhsGrad = needsGradient(rhs);
    if (!dy || (!lhsGrad && !rhsGrad))
      return;
    SmallVector<Type> types;
    SmallVector<ResultRole> roles;
    if (lhsGrad) {
      types.push_back(lhs.getType());
      roles.push_back(gradientRole(isWeight(lhs)));
    }
    if (rhsGrad) {
      types.push_back(rhs.getType());
      roles.push_back(gradientRole(isWeight(rhs)));
    }
    // d lhs = dy rhs^T reads rhs, d rhs = lhs^T dy reads lhs: an operand is
    // kept only for the other one's gradient (a frozen weight's input is
    // not kept for it).
    SmallVector<Value> operands = {dy};
    if (rhsGrad)
      llvm::append_range(operands, keptFor(savedForBackward(lhs, dy)));
    if (lhsGrad)
      llvm::append_range(operands, keptFor(rhs));
    SmallVector<Value> grads = matmulBackward(
        operands, types, roles,
        llvm::cast<RecomputableOpInterface>(result.getDefiningOp())
            .getFlopCount());
    if (lhsGrad)
      accumulate(lhs, grads.front());
    if (rhsGrad)
      accumulate(rhs, grads.back());
  });
  return result;
}

Value GraphBuilder::matmulNf4(Value lhs, Value packed, ValueRange quantState,
                              Type element) {
  SmallVector<Value> operands = {packed};
  llvm::append_range(operands, quantState);
  Type weightType = tensorType(typeOf(packed).getShape(), element);
  auto dequantize = [=] {
    return generic("dequantize_nf4", operands, {weightType},
                   {ResultRole::Activation})
        .front();
  };
  Value result = forwardMatmul(lhs, dequantize(), /*transposeRhs=*/false);
  record([=] {
    Value dy = gradientOf(result);
    if (!dy || !needsGradient(lhs))
      return;
    // bitsandbytes' MatMul4Bit keeps its input for the backward pass
    // whenever the input needs a gradient (`ctx.tensors = (A, B)`), though
    // the frozen weight's gradient, the one use of it, is never computed:
    // the backward reads it here so that it lives as long.
    accumulate(lhs, matmulBackward({dy, dequantize(), lhs}, {lhs.getType()},
                                   {ResultRole::Activation},
                                   llvm::cast<RecomputableOpInterface>(
                                       result.getDefiningOp())
                                       .getFlopCount())
                        .front());
  });
  return result;
}

Value GraphBuilder::add(Value lhs, Value rhs) {
  Value result = AddOp::create(builder, loc, lhs, rhs);
  record([=] {
    Value dy = gradientOf(result);
    if (!dy)
      return;
    if (needsGradient(lhs))
      accumulate(lhs, reduceTo(dy, lhs));
    if (needsGradient(rhs))
      accumulate(rhs, reduceTo(dy, rhs));
  });
  return result;
}

Value GraphBuilder::mul(Value lhs, Value rhs) {
  Value result = MulOp::create(builder, loc, lhs, rhs);
  record([=] {
    Value dy = gradientOf(result);
    if (!dy)
      return;
    if (needsGradient(lhs))
      accumulate(lhs, reduceTo(mul(dy, rhs), lhs));
    if (needsGradient(rhs))
      accumulate(rhs, reduceTo(mul(dy, lhs), rhs));
  });
  return result;
}

void GraphBuilder::recordUnaryBackward(Value input, Value result, Value saved,
                                       StringRef backwardName) {
  // Run later, when the backward pass is built: keep the name's own copy.
  record([=, backward = backwardName.str()] {
    Value dy = gradientOf(result);
    if (!dy || !needsGradient(input))
      return;
    SmallVector<Value, 2> operands = {dy};
    if (saved)
      operands.push_back(saved);
    accumulate(input, generic(backward, operands, {input.getType()},
                              {ResultRole::Activation})
                          .front());
  });
}

Value GraphBuilder::gelu(Value input) {
  Value result = GeluOp::create(builder, loc, input);
  recordUnaryBackward(input, result, input, "gelu_backward");
  return result;
}

Value GraphBuilder::silu(Value input) {
  Value result = SiluOp::create(builder, loc, input);
  recordUnaryBackward(input, result, input, "silu_backward");
  return result;
}

Value GraphBuilder::unaryGeneric(StringRef name, Value input,
                                 bool backwardReadsResult) {
  Value result =
      generic(name, {input}, {input.getType()}, {ResultRole::Activation})
          .front();
  recordUnaryBackward(input, result, backwardReadsResult ? result : input,
                      (name + "_backward").str());
  return result;
}

Value GraphBuilder::tanh(Value input) {
  return unaryGeneric("tanh", input, /*backwardReadsResult=*/true);
}

Value GraphBuilder::cube(Value input) {
  return unaryGeneric("pow3", input, /*backwardReadsResult=*/false);
}

Value GraphBuilder::repeatHeads(Value heads, int64_t times) {
  RankedTensorType type = typeOf(heads);
  SmallVector<int64_t> shape(type.getShape());
  shape[1] *= times;
  Value result =
      generic("repeat_kv", {heads}, {tensorType(shape, type.getElementType())},
              {ResultRole::Activation})
          .front();
  recordUnaryBackward(heads, result, /*saved=*/nullptr, "repeat_kv_backward");
  return result;
}

Value GraphBuilder::slice(Value input, ArrayRef<int64_t> offsets,
                          ArrayRef<int64_t> sizes) {
  Value result = SliceOp::create(builder, loc, input, offsets, sizes);
  recordUnaryBackward(input, result, /*saved=*/nullptr, "slice_backward");
  return result;
}

Value GraphBuilder::softmax(Value input, int64_t axis) {
  Value result = SoftmaxOp::create(builder, loc, input, axis);
  recordUnaryBackward(input, result, result, "softmax_backward");
  return result;
}

Value GraphBuilder::dropout(Value input, double probability) {
  RankedTensorType type = typeOf(input);
  SmallVector<Value> results =
      generic("dropout", {input},
              {type, tensorType(type.getShape(), builder.getIntegerType(8))},
              {ResultRole::Activation, ResultRole::Activation});
  results[0].getDefiningOp()->setAttr("p",
                                      builder.getF64FloatAttr(probability));
  recordUnaryBackward(input, results[0], results[1], "dropout_backward");
  return results[0];
}

Value GraphBuilder::logSoftmax(Value input) {
  Value result = generic("log_softmax", {input}, {input.getType()},
                         {ResultRole::Activation})
                     .front();
  recordUnaryBackward(input, result, result, "log_softmax_backward");
  return result;
}

Value GraphBuilder::cast(Value input, Type element) {
  RankedTensorType type = typeOf(input);
  Value result =
      CastOp::create(builder, loc, tensorType(type.getShape(), element), input);
  record([=] {
    if (Value dy = gradientOf(result); dy && needsGradient(input))
      accumulate(input, CastOp::create(builder, loc, type, dy));
  });
  return result;
}

Value GraphBuilder::layerNorm(Value input, Value gamma, Value beta,
                              double epsilon) {
  Value result = LayerNormOp::create(builder, loc, input, gamma, beta,
                                     builder.getF64FloatAttr(epsilon));
  record([=] {
    Value dy = gradientOf(result);
    if (!dy)
      return;
    SmallVector<Value> grads =
        generic("layer_norm_backward", {dy, input, gamma},
                {input.getType(), gamma.getType(), beta.getType()},
                {ResultRole::Activation, gradientRole(isWeight(gamma)),
                 gradientRole(isWeight(beta))});
    if (needsGradient(input))
      accumulate(input, grads[0]);
    if (needsGradient(gamma))
      accumulate(gamma, grads[1]);
    if (needsGradient(beta))
      accumulate(beta, grads[2]);
  });
  return result;
}

Value GraphBuilder::rmsNorm(Value input, Value gamma, double epsilon) {
  Value result = RMSNormOp::create(builder, loc, input, gamma,
                                   builder.getF64FloatAttr(epsilon));
  record([=] {
    Value dy = gradientOf(result);
    if (!dy)
      return;
    SmallVector<Value> grads =
        generic("rms_norm_backward", {dy, input, gamma},
                {input.getType(), gamma.getType()},
                {ResultRole::Activation, gradientRole(isWeight(gamma))});
    if (needsGradient(input))
      accumulate(input, grads[0]);
    if (needsGradient(gamma))
      accumulate(gamma, grads[1]);
  });
  return result;
}

Value GraphBuilder::rmsNormalize(Value input, double epsilon) {
  Value result = generic("rms_normalize", {input}, {input.getType()},
                         {ResultRole::Activation})
                     .front();
  result.getDefiningOp()->setAttr("epsilon", builder.getF64FloatAttr(epsilon));
  recordUnaryBackward(input, result, input, "rms_normalize_backward");
  return result;
}

Value GraphBuilder::embedding(Value table, Value ids) {
  SmallVector<int64_t> shape(typeOf(ids).getShape());
  shape.push_back(typeOf(table).getDimSize(1));
  Value result = EmbeddingOp::create(
      builder, loc,
      RankedTensorType::get(shape, typeOf(table).getElementType()), table, ids);
  record([=] {
    Value dy = gradientOf(result);
    if (dy && needsGradient(table))
      accumulate(table, generic("embedding_backward", {dy, ids},
                                {table.getType()}, {ResultRole::Gradient})
                            .front());
  });
  return result;
}

Value GraphBuilder::rope(Value input, Value positions) {
  Value result = RopeOp::create(builder, loc, input, positions,
                                builder.getF64FloatAttr(10000.0));
  record([=] {
    if (Value dy = gradientOf(result); dy && needsGradient(input))
      accumulate(input, generic("rope_backward", {dy, positions},
                                {input.getType()}, {ResultRole::Activation})
                            .front());
  });
  return result;
}

Value GraphBuilder::transpose(Value input, ArrayRef<int64_t> permutation) {
  SmallVector<int64_t> inverse(permutation.size());
  for (auto [index, dim] : llvm::enumerate(permutation))
    inverse[dim] = index;
  Value result = TransposeOp::create(builder, loc, input, permutation);
  record([=] {
    if (Value dy = gradientOf(result); dy && needsGradient(input))
      accumulate(input, transpose(dy, inverse));
  });
  return result;
}

Value GraphBuilder::reshape(Value input, ArrayRef<int64_t> shape) {
  Value result = ReshapeOp::create(
      builder, loc,
      RankedTensorType::get(shape, typeOf(input).getElementType()), input);
  SmallVector<int64_t> original(typeOf(input).getShape());
  record([=] {
    if (Value dy = gradientOf(result); dy && needsGradient(input))
      accumulate(input, reshape(dy, original));
  });
  return result;
}

SmallVector<Value> GraphBuilder::split(Value input) {
  ArrayRef<int64_t> shape = typeOf(input).getShape();
  SmallVector<int64_t> sizes(shape);
  sizes[0] = 1;
  SmallVector<Value> slices;
  for (int64_t i = 0; i < shape[0]; ++i) {
    SmallVector<int64_t> offsets(shape.size(), 0);
    offsets[0] = i;
    slices.push_back(SliceOp::create(builder, loc, input, offsets, sizes));
  }
  record([=] {
    if (!needsGradient(input))
      return;
    SmallVector<Value> pieces;
    for (Value slice : slices) {
      Value dy = gradientOf(slice);
      if (!dy)
        return; // every slice of the QKV projection is used
      pieces.push_back(dy);
    }
    Value joined = ConcatOp::create(builder, loc, pieces, /*axis=*/0);
    accumulate(input, joined);
  });
  return slices;
}

Value GraphBuilder::attention(Value query, Value key, Value value,
                              bool causal) {
  ArrayRef<int64_t> q = typeOf(query).getShape();
  Value result = AttentionOp::create(builder, loc, query, key, value, causal,
                                     /*scale=*/nullptr, /*token_major=*/true);
  record([=] {
    Value dy = gradientOf(result);
    if (!dy)
      return;
    // The kernel computes all three gradients; those not needed are
    // dropped (accumulate skips them). FlashAttention-2's backward
    // (flash_attn 2.x, PyTorch's SDPA) allocates, with the query length
    // rounded up to its 128-row blocks: D = rowsum(dO * O) per query row and
    // the f32 accumulator of dQ (flash_attn_bwd: softmax_d, dq_accum); with
    // grouped-query attention, dK and dV for every query head before they
    // are summed per KV head (dk_expanded, dv_expanded).
    ArrayRef<int64_t> k = typeOf(key).getShape();
    int64_t rows = llvm::alignTo(q[2], 128);
    int64_t scratch = q[0] * q[1] * rows * (4 + q[3] * 4);
    if (k[1] != q[1])
      scratch += 2 * q[0] * q[1] * k[2] * k[3] *
                 (typeOf(key).getElementTypeBitWidth() / 8);
    // It reads q, k and v, or what each is a view of (keepAsViewOf).
    SmallVector<Value> kept = {dy};
    for (Value input : {query, key, value})
      llvm::append_range(kept, keptFor(input));
    kept.push_back(result);
    SmallVector<Value> grads =
        generic("attention_backward", kept,
                {query.getType(), key.getType(), value.getType()},
                {ResultRole::Activation, ResultRole::Activation,
                 ResultRole::Activation},
                scratch);
    // Per (query, key) pair, as AttentionOp counts them: QK^T again (the
    // scores are recomputed), dP = dO V^T, dV = P^T dO, dQ = dS K and
    // dK = dS^T Q, and about 5 for the softmax's gradient.
    uint64_t pairs = llvm::SaturatingMultiply(uint64_t(q[0]) * uint64_t(q[1]),
                                              uint64_t(q[2]) * uint64_t(k[2]));
    if (causal && q[2] == k[2])
      pairs /= 2;
    int64_t valueDim = typeOf(value).getShape()[3];
    uint64_t flops =
        llvm::SaturatingMultiply(pairs, uint64_t(6 * q[3] + 4 * valueDim + 5));
    grads.front().getDefiningOp()->setAttr(
        "flops", builder.getI64IntegerAttr(
                     int64_t(std::min<uint64_t>(flops, INT64_MAX))));
    accumulate(query, grads[0]);
    accumulate(key, grads[1]);
    accumulate(value, grads[2]);
  });
  return result;
}

void GraphBuilder::keepAsViewOf(Value view, ArrayRef<Value> storage) {
  viewStorage[view].assign(storage.begin(), storage.end());
}

SmallVector<Value> GraphBuilder::keptFor(Value saved) const {
  auto it = viewStorage.find(saved);
  if (it == viewStorage.end())
    return {saved};
  return SmallVector<Value>(it->second.begin(), it->second.end());
}

Value GraphBuilder::kvCacheUpdate(Value cache, Value update, Value position) {
  return KVCacheUpdateOp::create(builder, loc, cache, update, position);
}

void GraphBuilder::beginCheckpoint() {
  if (!recording)
    return;
  Block *body = builder.getInsertionBlock();
  Checkpoint checkpoint;
  checkpoint.firstStep = tape.size();
  checkpoint.before = body->empty() ? nullptr : &body->back();
  openCheckpoint = checkpoint;
}

void GraphBuilder::endCheckpoint() {
  if (!openCheckpoint)
    return;
  Checkpoint checkpoint = *openCheckpoint;
  openCheckpoint.reset();
  checkpoint.endStep = tape.size();
  Block *body = builder.getInsertionBlock();
  checkpoint.last = body->empty() ? nullptr : &body->back();
  if (checkpoint.last && checkpoint.last != checkpoint.before)
    checkpoints.push_back(checkpoint);
}

void GraphBuilder::recompute(const Checkpoint &checkpoint, IRMapping &mapping,
                             SmallVectorImpl<Operation *> &clones) {
  Block *body = builder.getInsertionBlock();
  Operation *op =
      checkpoint.before ? checkpoint.before->getNextNode() : &body->front();
  for (;; op = op->getNextNode()) {
    Operation *clone = builder.clone(*op, mapping);
    MemPlanDialect::RecomputedAttrHelper(context).setAttr(
        clone, builder.getUnitAttr());
    clones.push_back(clone);
    if (op == checkpoint.last)
      break;
  }
}

void GraphBuilder::buildAfter(Value value, function_ref<void()> build) {
  Operation *producer = value.getDefiningOp();
  if (!producer)
    return build();
  OpBuilder::InsertionGuard guard(builder);
  Operation *anchor = placedAfter.lookup(producer);
  if (!anchor)
    anchor = producer;
  builder.setInsertionPointAfter(anchor);
  Block *block = builder.getBlock();
  Block::iterator point = builder.getInsertionPoint();
  build();
  Operation *placed =
      point == block->end() ? &block->back() : point->getPrevNode();
  if (placed != anchor)
    placedAfter[producer] = placed;
}

void GraphBuilder::beginUnit() {
  Block *body = builder.getInsertionBlock();
  if (!units.empty())
    units.back().endStep = tape.size();
  Unit unit;
  unit.before = body->empty() ? nullptr : &body->back();
  unit.firstStep = tape.size();
  units.push_back(unit);
}

void GraphBuilder::shardWeights(int64_t ranks, int64_t rank, bool prefetch,
                                bool fsdp) {
  Sharding settings;
  settings.ranks = ranks;
  settings.rank = rank;
  settings.prefetch = prefetch;
  settings.fsdp = fsdp;
  sharding = settings;
}

std::optional<size_t> GraphBuilder::unitOf(Value weight) const {
  for (size_t u = 0; u < units.size(); ++u)
    if (llvm::is_contained(units[u].weights, weight))
      return u;
  return std::nullopt;
}

bool GraphBuilder::isShardedWeight(Value value) const {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!sharding || !argument || value == sharding->partition)
    return false;
  if (arguments[argument.getArgNumber()].role != ArgumentRole::Weight)
    return false;
  // Float weights, and 4-bit codes (NF4): bitsandbytes packs those into the
  // float storage type (bnb_4bit_quant_storage), which is what lets DeepSpeed
  // shard a QLoRA model's quantized layers like any parameter
  // (checkDataParallel keeps int4 weights and FSDP's f32 shards out).
  Type element = getElementTypeOrSelf(value.getType());
  return isa<FloatType>(element) || element.isInteger(4);
}

SmallVector<Value> GraphBuilder::gatherUnit(const Unit &unit) {
  if (unit.weights.empty())
    return {};
  SmallVector<Type> types;
  int64_t elements = 0;
  for (Value weight : unit.weights) {
    types.push_back(weight.getType());
    elements += typeOf(weight).getNumElements();
  }
  Value source = sharding->partition;
  if (sharding->fsdp) {
    // FSDP's mixed precision: the unit's share of the f32 flat parameter
    // cast to param_dtype, then gathered.
    Type element = typeOf(unit.weights.front()).getElementType();
    source =
        generic(
            "cast_shard", {sharding->partition},
            {tensorType({shareOf(elements, sharding->ranks, sharding->rank)},
                        element)},
            {ResultRole::Activation})
            .front();
  }
  return communicate(
      Transfer::AllGather, ProcessGroup::Data, sharding->ranks, {source}, types,
      SmallVector<ResultRole>(types.size(), ResultRole::Gathered));
}

Operation *GraphBuilder::release(ValueRange gathered) {
  return GenericOp::create(
      builder, loc, TypeRange(), gathered,
      {builder.getNamedAttr("name", builder.getStringAttr("release"))});
}

void GraphBuilder::gatherForward() {
  if (!sharding || sharding->applied)
    return;
  sharding->applied = true;
  Block *body = &function.getBody().front();
  if (!units.empty())
    units.back().endStep = tape.size();
  // The partition: this rank's share of every sharded weight's elements,
  // counted in the float storage type (4-bit codes packed into it).
  Type element;
  for (BlockArgument argument : function.getArguments())
    if (isShardedWeight(argument) &&
        isa<FloatType>(typeOf(argument).getElementType()))
      element = typeOf(argument).getElementType();
  if (!element)
    return; // no float weights
  int64_t storageBits = element.getIntOrFloatBitWidth(), total = 0;
  for (BlockArgument argument : function.getArguments())
    if (isShardedWeight(argument)) {
      RankedTensorType type = typeOf(argument);
      total += llvm::divideCeil(
          type.getNumElements() * type.getElementTypeBitWidth(), storageBits);
    }
  if (sharding->fsdp)
    element = Float32Type::get(builder.getContext());
  sharding->partition = argument(
      {shareOf(total, sharding->ranks, sharding->rank)}, element,
      ArgumentRole::Weight, sharding->fsdp ? "fsdp.params" : "zero.params");
  freeze(sharding->partition); // gradients are taken per weight, not of it

  // Each unit's ops, found before anything is inserted among them.
  std::vector<SmallVector<Operation *>> ranges(units.size());
  for (size_t u = 0; u < units.size(); ++u) {
    Operation *op = units[u].before
                        ? units[u].before->getNextNode()
                        : (body->empty() ? nullptr : &body->front());
    Operation *end = u + 1 < units.size() && units[u + 1].before
                         ? units[u + 1].before->getNextNode()
                         : nullptr;
    if (u + 1 < units.size() && units[u + 1].before == units[u].before)
      continue; // empty
    for (; op && op != end; op = op->getNextNode())
      ranges[u].push_back(op);
  }
  // Where a unit starts: its first op, or the next unit's (null: the end).
  std::vector<Operation *> starts(units.size() + 1, nullptr);
  for (size_t u = units.size(); u-- > 0;)
    starts[u] = ranges[u].empty() ? starts[u + 1] : ranges[u].front();

  OpBuilder::InsertionGuard guard(builder);
  auto insertBefore = [&](Operation *op) {
    if (op)
      builder.setInsertionPoint(op);
    else
      builder.setInsertionPointToEnd(body);
  };
  llvm::DenseSet<Operation *> inserted;
  for (size_t u = 0; u < units.size(); ++u) {
    Unit &unit = units[u];
    llvm::SetVector<Value> weights;
    for (Operation *op : ranges[u])
      for (Value operand : op->getOperands())
        if (isShardedWeight(operand))
          weights.insert(operand);
    unit.weights.assign(weights.begin(), weights.end());
    if (unit.weights.empty())
      continue;
    insertBefore(starts[sharding->prefetch && u > 0 ? u - 1 : u]);
    unit.gathered = gatherUnit(unit);
    inserted.insert(unit.gathered.front().getDefiningOp());
    for (Operation *op : ranges[u])
      for (OpOperand &operand : op->getOpOperands())
        if (auto *it = llvm::find(unit.weights, operand.get());
            it != unit.weights.end())
          operand.set(unit.gathered[it - unit.weights.begin()]);
    // DeepSpeed frees a module's gathered weights after its forward (a
    // post-forward hook): all of them live to the unit's end.
    insertBefore(starts[u + 1]);
    inserted.insert(release(unit.gathered));
  }
  // Checkpoints recompute their own ops, not the gathers and releases placed
  // at their start.
  for (Checkpoint &checkpoint : checkpoints)
    while (Operation *next = checkpoint.before
                                 ? checkpoint.before->getNextNode()
                                 : &body->front())
      if (inserted.contains(next))
        checkpoint.before = next;
      else
        break;
}

void GraphBuilder::eraseShardedArguments() {
  if (!sharding || !sharding->applied)
    return;
  Block &entry = function.getBody().front();
  llvm::BitVector erase(entry.getNumArguments());
  for (BlockArgument argument : entry.getArguments())
    if (isShardedWeight(argument) && argument.use_empty())
      erase.set(argument.getArgNumber());
  entry.eraseArguments(erase);
  for (unsigned i = erase.size(); i-- > 0;)
    if (erase.test(i))
      arguments.erase(arguments.begin() + i);
  frozenArguments.clear(); // numbers changed; no gradient is taken anymore
}

size_t GraphBuilder::startRecording() {
  switchTape(tapeCount++);
  recording = true;
  return currentTape;
}

void GraphBuilder::switchTape(size_t number) {
  if (number == currentTape)
    return;
  if (!tape.empty() || !checkpoints.empty())
    storedTapes[currentTape] = {std::move(tape), std::move(checkpoints)};
  tape.clear();
  checkpoints.clear();
  if (auto it = storedTapes.find(number); it != storedTapes.end()) {
    tape = std::move(it->second.steps);
    checkpoints = std::move(it->second.checkpoints);
    storedTapes.erase(it);
  }
  currentTape = number;
}

SmallVector<std::pair<Value, Value>>
GraphBuilder::backward(Value output, Value gradient,
                       std::optional<size_t> tapeNumber) {
  gatherForward();
  recording = false;
  if (tapeNumber)
    switchTape(*tapeNumber);
  gradients.clear(); // each pass computes its own
  // What autograd's requires_grad says: results of ops with an operand that
  // is a trainable weight or such a result (a gathered trainable weight is
  // one).
  requiresGradient.clear();
  requiresGradient.insert(gradientInputs.begin(), gradientInputs.end());
  for (const Unit &unit : units)
    for (auto [weight, gathered] : llvm::zip(unit.weights, unit.gathered))
      if (isWeight(weight))
        requiresGradient.insert(gathered);
  for (Operation &op : function.getBody().front())
    if (llvm::any_of(op.getOperands(), [&](Value operand) {
          return isWeight(operand) || requiresGradient.contains(operand);
        }))
      requiresGradient.insert(op.result_begin(), op.result_end());
  gradients[output] = gradient;
  // The checkpoint whose steps are running, the clones of its ops, and the
  // last op before its backward ops.
  auto checkpoint = checkpoints.rbegin();
  IRMapping mapping;
  SmallVector<Operation *> clones;
  Operation *beforeBackward = nullptr;
  Block *body = builder.getInsertionBlock();
  // Sharded units with backward steps, last first; each one's weights
  // gathered again (and the last op before its backward ops).
  SmallVector<size_t> stepUnits;
  if (sharding && sharding->partition)
    for (size_t u = units.size(); u-- > 0;)
      if (units[u].firstStep < units[u].endStep)
        stepUnits.push_back(u);
  DenseMap<size_t, SmallVector<Value>> regathered;
  DenseMap<size_t, Operation *> unitMark;
  auto regather = [&](size_t u) {
    if (!regathered.count(u))
      regathered[u] = gatherUnit(units[u]);
  };
  size_t nextUnit = 0;
  for (size_t step = tape.size(); step-- > 0;) {
    if (nextUnit < stepUnits.size() &&
        step + 1 == units[stepUnits[nextUnit]].endStep) {
      // A unit's backward: its weights gathered before it, and the next
      // unit's with prefetch (as DeepSpeed's pre-backward hooks do).
      regather(stepUnits[nextUnit]);
      if (sharding->prefetch && nextUnit + 1 < stepUnits.size())
        regather(stepUnits[nextUnit + 1]);
      unitMark[stepUnits[nextUnit]] = &body->back();
    }
    if (checkpoint != checkpoints.rend() && step + 1 == checkpoint->endStep) {
      mapping.clear();
      clones.clear();
      recompute(*checkpoint, mapping, clones);
      beforeBackward = &body->back();
    }
    tape[step]();
    if (checkpoint != checkpoints.rend() && step == checkpoint->firstStep) {
      // The backward ops of the stretch read the clones.
      for (Operation *op = beforeBackward->getNextNode(); op;
           op = op->getNextNode())
        for (OpOperand &operand : op->getOpOperands())
          if (Value clone = mapping.lookupOrNull(operand.get()))
            operand.set(clone);
      // Clones nobody reads (the stretch's own output, say) go.
      for (Operation *clone : llvm::reverse(clones)) {
        if (clone->use_empty()) {
          clone->erase();
          continue;
        }
        if (auto recomputable = dyn_cast<RecomputableOpInterface>(clone))
          recomputedFlops += recomputable.getFlopCount();
      }
      ++checkpoint;
    }
    if (nextUnit < stepUnits.size() &&
        step == units[stepUnits[nextUnit]].firstStep) {
      // The unit's backward ops (and recomputed forward ops) read the
      // weights gathered again, then release them.
      size_t u = stepUnits[nextUnit++];
      const Unit &unit = units[u];
      SmallVector<Value> &copies = regathered[u];
      for (Operation *op = unitMark[u]->getNextNode(); op;
           op = op->getNextNode())
        for (OpOperand &operand : op->getOpOperands())
          for (size_t w = 0; w < unit.weights.size(); ++w)
            if (operand.get() == unit.weights[w] ||
                operand.get() == unit.gathered[w])
              operand.set(copies[w]);
      if (copies.empty())
        continue;
      if (llvm::all_of(copies, [](Value copy) { return copy.use_empty(); })) {
        copies.front().getDefiningOp()->erase();
        copies.clear();
        continue;
      }
      release(copies);
    }
  }
  tape.clear();
  checkpoints.clear();
  SmallVector<std::pair<Value, Value>> weightGradients;
  for (BlockArgument argument : function.getArguments())
    if (isWeight(argument))
      if (Value grad = gradientOf(argument))
        weightGradients.emplace_back(argument, grad);
  return weightGradients;
}

Value GraphBuilder::accumulateInto(Value buffer, Value gradient) {
  OpBuilder::InsertionGuard guard(builder);
  if (Operation *producer = gradient.getDefiningOp())
    builder.setInsertionPointAfter(producer);
  return generic("grad_accumulate", {buffer, gradient}, {buffer.getType()},
                 {ResultRole::Gradient}, /*scratch=*/0, /*aliases=*/{0})
      .front();
}

OwningOpRef<ModuleOp> GraphBuilder::finish(ValueRange results) {
  gatherForward(); // inference; training gathered when its backward began
  func::ReturnOp::create(builder, loc, results);
  eraseShardedArguments();
  Block &entry = function.getBody().front();
  function.setFunctionType(builder.getFunctionType(
      entry.getArgumentTypes(), TypeRange(results.getTypes())));
  // All argument attributes at once: setArgAttr rebuilds the whole array of
  // argument dictionaries on every call, quadratic in the arguments (1,000
  // layers took 8.8 s and 2.3 GB).
  SmallVector<DictionaryAttr> argumentAttrs;
  argumentAttrs.reserve(entry.getNumArguments());
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    SmallVector<NamedAttribute> attributes = {
        builder.getNamedAttr(
            MemPlanDialect::RoleAttrHelper::getNameStr(),
            ArgumentRoleAttr::get(builder.getContext(), arguments[i].role)),
        builder.getNamedAttr(MemPlanDialect::NameAttrHelper::getNameStr(),
                             builder.getStringAttr(arguments[i].name))};
    if (arguments[i].host)
      attributes.push_back(builder.getNamedAttr(
          MemPlanDialect::HostAttrHelper::getNameStr(), builder.getUnitAttr()));
    if (arguments[i].createdInFirstStep)
      attributes.push_back(builder.getNamedAttr(
          MemPlanDialect::CreatedInFirstStepAttrHelper::getNameStr(),
          builder.getUnitAttr()));
    argumentAttrs.push_back(builder.getDictionaryAttr(attributes));
  }
  function.setAllArgAttrs(argumentAttrs);
  if (recomputedFlops)
    MemPlanDialect::RecomputedFlopsAttrHelper(context).setAttr(
        function, builder.getI64IntegerAttr(
                      int64_t(std::min<uint64_t>(recomputedFlops, INT64_MAX))));
  if (failed(verify(*module)))
    return nullptr;
  return std::move(module);
}
