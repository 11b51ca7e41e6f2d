//===- FlopCounts.cpp - What recomputing each op costs --------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// RecomputableOpInterface::getFlopCount for the ops that do not count one
// operation per result element. The counts are the usual ones (a multiply
// and an add are two; data movement is free); rematerialisation compares
// them with each other, so what matters is that a matmul or an attention
// dwarfs an elementwise op, as it does on a GPU. docs/planning.md lists them.
// Every count saturates at 2^64 - 1.
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace memplan;

namespace {

uint64_t elementsOf(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  uint64_t elements = 1;
  for (int64_t dim : shaped.getShape())
    elements = llvm::SaturatingMultiply(elements, uint64_t(dim));
  return elements;
}

/// `perElement` operations for each element of the op's results.
uint64_t perResultElement(Operation *op, uint64_t perElement) {
  return llvm::SaturatingMultiply(countResultElements(op), perElement);
}

} // namespace

uint64_t memplan::countResultElements(Operation *op) {
  uint64_t elements = 0;
  for (Type type : op->getResultTypes())
    elements = llvm::SaturatingAdd(elements, elementsOf(type));
  return elements;
}

/// 2 * (result elements) * k: one multiply and one add per term.
uint64_t MatmulOp::getFlopCount() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  int64_t k = lhs.getShape()[lhs.getRank() - (getTransposeLhs() ? 2 : 1)];
  return llvm::SaturatingMultiply(perResultElement(*this, 2), uint64_t(k));
}

/// QK^T and PV, 2 * head_dim and 2 * v_dim per (query, key) pair, plus
/// about 5 per pair for the scaled softmax; a causal mask halves the pairs
/// when queries and keys are the same positions (as FlashAttention counts).
uint64_t AttentionOp::getFlopCount() {
  auto query = cast<RankedTensorType>(getQuery().getType());
  auto key = cast<RankedTensorType>(getKey().getType());
  auto value = cast<RankedTensorType>(getValue().getType());
  uint64_t batch = query.getShape()[0], heads = query.getShape()[1];
  uint64_t queries = query.getShape()[2], keys = key.getShape()[2];
  uint64_t headDim = query.getShape()[3], valueDim = value.getShape()[3];
  uint64_t pairs =
      llvm::SaturatingMultiply(llvm::SaturatingMultiply(batch, heads),
                               llvm::SaturatingMultiply(queries, keys));
  if (getCausal() && queries == keys)
    pairs /= 2;
  return llvm::SaturatingMultiply(pairs, 2 * headDim + 2 * valueDim + 5);
}

// Elementwise, per result element: GELU's tanh form about 8 operations,
// SiLU 4 (exp, add, divide, negate), ReLU 1.
uint64_t GeluOp::getFlopCount() { return perResultElement(*this, 8); }
uint64_t SiluOp::getFlopCount() { return perResultElement(*this, 4); }
uint64_t ReluOp::getFlopCount() { return perResultElement(*this, 1); }
// Softmax: max, subtract, exp, sum, divide.
uint64_t SoftmaxOp::getFlopCount() { return perResultElement(*this, 5); }
// LayerNorm: mean, variance (subtract, square, sum), normalise, scale and
// shift. RMSNorm: square, sum, normalise, scale.
uint64_t LayerNormOp::getFlopCount() { return perResultElement(*this, 8); }
uint64_t RMSNormOp::getFlopCount() { return perResultElement(*this, 5); }
// RoPE: each pair of elements is rotated by two multiplies and an add each,
// with its sine and cosine.
uint64_t RopeOp::getFlopCount() { return perResultElement(*this, 6); }
// Data movement.
uint64_t EmbeddingOp::getFlopCount() { return 0; }
uint64_t TransposeOp::getFlopCount() { return 0; }
uint64_t ReshapeOp::getFlopCount() { return 0; }
uint64_t ConcatOp::getFlopCount() { return 0; }
uint64_t SliceOp::getFlopCount() { return 0; }
