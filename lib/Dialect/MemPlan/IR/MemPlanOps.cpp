//===- MemPlanOps.cpp - memplan op verifiers and interfaces ---------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every verifier names the offending operand and the shapes involved, so that
// a user who wrote a wrong graph sees what to fix without reading this file.
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"

#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace memplan;

//===----------------------------------------------------------------------===//
// Verifier helpers
//===----------------------------------------------------------------------===//

namespace {

/// "1x1024x768"; "scalar" for rank 0.
std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

RankedTensorType tensorOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// Checks that the result has `shape` and `elementType`.
LogicalResult verifyResult(Operation *op, Value result, ArrayRef<int64_t> shape,
                           Type elementType) {
  RankedTensorType type = tensorOf(result);
  if (type.getShape() != shape)
    return op->emitOpError("result shape ")
           << formatShape(type.getShape()) << " does not match the expected "
           << formatShape(shape);
  if (elementType && type.getElementType() != elementType)
    return op->emitOpError("result element type ")
           << type.getElementType() << " does not match the expected "
           << elementType;
  return success();
}

/// Checks that two operands have one element type.
LogicalResult verifySameElementType(Operation *op, StringRef lhsName, Value lhs,
                                    StringRef rhsName, Value rhs) {
  Type lhsType = tensorOf(lhs).getElementType();
  Type rhsType = tensorOf(rhs).getElementType();
  if (lhsType != rhsType)
    return op->emitOpError("element types differ: ")
           << lhsName << " has " << lhsType << ", " << rhsName << " has "
           << rhsType;
  return success();
}

/// Checks that `value` has rank `rank`.
LogicalResult verifyRank(Operation *op, StringRef name, Value value,
                         int64_t rank, StringRef layout) {
  RankedTensorType type = tensorOf(value);
  if (type.getRank() != rank)
    return op->emitOpError()
           << name << " must have rank " << rank << " (" << layout
           << "), got shape " << formatShape(type.getShape());
  return success();
}

/// Numpy broadcasting of two shapes aligned at the trailing dimension
/// (upstream's OpTrait::util::getBroadcastedShape); the error names the
/// first dimension of the result where they disagree.
FailureOr<SmallVector<int64_t>>
broadcastShapes(Operation *op, StringRef lhsName, ArrayRef<int64_t> lhs,
                StringRef rhsName, ArrayRef<int64_t> rhs, StringRef what) {
  SmallVector<int64_t> shape;
  if (OpTrait::util::getBroadcastedShape(lhs, rhs, shape))
    return shape;
  size_t rank = std::max(lhs.size(), rhs.size());
  InFlightDiagnostic diag =
      op->emitOpError() << what << " are not broadcast-compatible: " << lhsName
                        << " has shape " << formatShape(lhs) << ", " << rhsName
                        << " has shape " << formatShape(rhs);
  for (size_t i = 0; i < rank; ++i) {
    int64_t l = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t r = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    if (l != r && l != 1 && r != 1) {
      diag << " (dimension " << (rank - 1 - i) << " of the result: " << l
           << " vs " << r << ")";
      break;
    }
  }
  return diag;
}

/// Maps a possibly negative `axis` into [0, rank).
FailureOr<int64_t> normalizeAxis(Operation *op, int64_t axis, int64_t rank,
                                 ArrayRef<int64_t> shape) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for shape " << formatShape(shape)
           << " (rank " << rank << ")";
  return axis < 0 ? axis + rank : axis;
}

/// Norm ops: a 1-D `paramName` of the input's last dimension and element type.
LogicalResult verifyNormParameter(Operation *op, Value input,
                                  StringRef paramName, Value param) {
  RankedTensorType inputType = tensorOf(input);
  RankedTensorType paramType = tensorOf(param);
  if (inputType.getRank() < 1)
    return op->emitOpError("input must have rank >= 1, got a scalar");
  int64_t hidden = inputType.getShape().back();
  if (paramType.getRank() != 1 || paramType.getDimSize(0) != hidden)
    return op->emitOpError() << paramName << " must have shape " << hidden
                             << " (the last dimension of input "
                             << formatShape(inputType.getShape()) << "), got "
                             << formatShape(paramType.getShape());
  return verifySameElementType(op, "input", input, paramName, param);
}

bool isFloat(Type type) { return isa<FloatType>(type); }

/// Operand indices among `candidates` whose type equals the result's: an
/// elementwise result may only overwrite an operand of its own shape and
/// element type (a broadcast operand is read more than once).
SmallVector<unsigned> sameTypeOperands(Operation *op,
                                       ArrayRef<unsigned> candidates) {
  SmallVector<unsigned> result;
  for (unsigned index : candidates)
    if (op->getOperand(index).getType() == op->getResult(0).getType())
      result.push_back(index);
  return result;
}

} // namespace

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  RankedTensorType lhsType = getLhs().getType();
  RankedTensorType rhsType = getRhs().getType();
  if (lhsType.getRank() < 2)
    return emitOpError("lhs must have rank >= 2, got shape ")
           << formatShape(lhsType.getShape());
  if (rhsType.getRank() < 2)
    return emitOpError("rhs must have rank >= 2, got shape ")
           << formatShape(rhsType.getShape());

  Type lhsElement = lhsType.getElementType();
  Type rhsElement = rhsType.getElementType();
  Type resultElement = lhsElement;
  if (isFloat(lhsElement)) {
    // A float activation times a float weight of the same type, or a
    // quantized (integer) weight dequantized in the kernel.
    if (isFloat(rhsElement) && rhsElement != lhsElement)
      return emitOpError("element types differ: lhs has ")
             << lhsElement << ", rhs has " << rhsElement;
  } else {
    // Integer matmul: i8 x i8 accumulating in i32.
    if (!lhsElement.isInteger(8) || !rhsElement.isInteger(8))
      return emitOpError("integer matmul needs i8 operands, got lhs ")
             << lhsElement << " and rhs " << rhsElement;
    resultElement = IntegerType::get(getContext(), 32);
  }

  ArrayRef<int64_t> lhsShape = lhsType.getShape();
  ArrayRef<int64_t> rhsShape = rhsType.getShape();
  int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
  int64_t m = lhsShape[lhsRank - (getTransposeLhs() ? 1 : 2)];
  int64_t lhsK = lhsShape[lhsRank - (getTransposeLhs() ? 2 : 1)];
  int64_t rhsK = rhsShape[rhsRank - (getTransposeRhs() ? 1 : 2)];
  int64_t n = rhsShape[rhsRank - (getTransposeRhs() ? 2 : 1)];
  if (lhsK != rhsK)
    return emitOpError("contracting dimensions differ: lhs has ")
           << lhsK << ", rhs has " << rhsK;

  FailureOr<SmallVector<int64_t>> batch =
      broadcastShapes(*this, "lhs", lhsShape.drop_back(2), "rhs",
                      rhsShape.drop_back(2), "batch dimensions");
  if (failed(batch))
    return failure();
  SmallVector<int64_t> expected = *batch;
  expected.append({m, n});
  return verifyResult(*this, getResult(), expected, resultElement);
}

FailureOr<uint64_t> MatmulOp::getScratchBytes() {
  IntegerAttr workspace = getWorkspaceBytesAttr();
  return workspace ? static_cast<uint64_t>(workspace.getInt()) : uint64_t(0);
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyBinaryOp(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  if (failed(verifySameElementType(op, "lhs", lhs, "rhs", rhs)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(op, "lhs", tensorOf(lhs).getShape(), "rhs",
                      tensorOf(rhs).getShape(), "operands");
  if (failed(shape))
    return failure();
  return verifyResult(op, op->getResult(0), *shape,
                      tensorOf(lhs).getElementType());
}

LogicalResult AddOp::verify() { return verifyBinaryOp(*this); }
LogicalResult SubOp::verify() { return verifyBinaryOp(*this); }
LogicalResult MulOp::verify() { return verifyBinaryOp(*this); }
LogicalResult DivOp::verify() { return verifyBinaryOp(*this); }

SmallVector<unsigned> AddOp::getInPlaceOperands(unsigned) {
  return sameTypeOperands(*this, {0, 1});
}
SmallVector<unsigned> SubOp::getInPlaceOperands(unsigned) {
  return sameTypeOperands(*this, {0, 1});
}
SmallVector<unsigned> MulOp::getInPlaceOperands(unsigned) {
  return sameTypeOperands(*this, {0, 1});
}
SmallVector<unsigned> DivOp::getInPlaceOperands(unsigned) {
  return sameTypeOperands(*this, {0, 1});
}

//===----------------------------------------------------------------------===//
// Activations and normalisation (results of the input's type)
//===----------------------------------------------------------------------===//

SmallVector<unsigned> GeluOp::getInPlaceOperands(unsigned) { return {0}; }
SmallVector<unsigned> SiluOp::getInPlaceOperands(unsigned) { return {0}; }
SmallVector<unsigned> ReluOp::getInPlaceOperands(unsigned) { return {0}; }
SmallVector<unsigned> SoftmaxOp::getInPlaceOperands(unsigned) { return {0}; }
SmallVector<unsigned> LayerNormOp::getInPlaceOperands(unsigned) { return {0}; }
SmallVector<unsigned> RMSNormOp::getInPlaceOperands(unsigned) { return {0}; }
SmallVector<unsigned> RopeOp::getInPlaceOperands(unsigned) { return {0}; }

LogicalResult SoftmaxOp::verify() {
  RankedTensorType type = getInput().getType();
  return normalizeAxis(*this, getAxis(), type.getRank(), type.getShape());
}

LogicalResult LayerNormOp::verify() {
  return verifyNormParameter(*this, getInput(), "gamma", getGamma());
}

LogicalResult RMSNormOp::verify() {
  return verifyNormParameter(*this, getInput(), "gamma", getGamma());
}

//===----------------------------------------------------------------------===//
// EmbeddingOp and RopeOp
//===----------------------------------------------------------------------===//

LogicalResult EmbeddingOp::verify() {
  RankedTensorType tableType = getTable().getType();
  if (tableType.getRank() != 2)
    return emitOpError("table must have rank 2 ([vocab, hidden]), got shape ")
           << formatShape(tableType.getShape());
  SmallVector<int64_t> expected(getIds().getType().getShape());
  expected.push_back(tableType.getDimSize(1));
  // A float table gives rows of its own type; a quantized table is
  // dequantized to the float type written on the result.
  Type element = tableType.getElementType();
  return verifyResult(*this, getResult(), expected,
                      isFloat(element) ? element : Type());
}

LogicalResult RopeOp::verify() {
  if (failed(verifyRank(*this, "input", getInput(), 4,
                        "[batch, seq, heads, head_dim]")))
    return failure();
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  if (shape[3] % 2 != 0)
    return emitOpError("head_dim must be even to rotate pairs, got ")
           << shape[3] << " in input shape " << formatShape(shape);
  ArrayRef<int64_t> positions = getPositions().getType().getShape();
  if (positions.size() != 1 || positions[0] != shape[1])
    return emitOpError("positions must have shape ")
           << shape[1] << " (the seq dimension of input " << formatShape(shape)
           << "), got " << formatShape(positions);
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  RankedTensorType inputType = getInput().getType();
  ArrayRef<int64_t> perm = getPermutation();
  int64_t rank = inputType.getRank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return emitOpError("permutation has ")
           << perm.size() << " entries, but input shape "
           << formatShape(inputType.getShape()) << " has rank " << rank;
  llvm::SmallBitVector seen(rank);
  SmallVector<int64_t> expected;
  for (int64_t dim : perm) {
    if (dim < 0 || dim >= rank || seen.test(dim))
      return emitOpError("permutation [")
             << llvm::make_range(perm.begin(), perm.end())
             << "] is not a permutation of 0.." << rank - 1;
    seen.set(dim);
    expected.push_back(inputType.getDimSize(dim));
  }
  return verifyResult(*this, getResult(), expected, inputType.getElementType());
}

/// The element count of `shape`, or nullopt when it exceeds 2^63 - 1
/// (ShapedType::getNumElements wraps around, and a wrapped count once made
/// a reshape of 2^62 x 4 elements report "0 elements").
static std::optional<int64_t> countElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    if (llvm::MulOverflow(count, dim, count))
      return std::nullopt;
  return count;
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType inputType = getInput().getType();
  RankedTensorType resultType = getResult().getType();
  std::optional<int64_t> inputCount = countElements(inputType.getShape());
  std::optional<int64_t> resultCount = countElements(resultType.getShape());
  if (!inputCount || !resultCount)
    return emitOpError("the ")
           << (inputCount ? "result " : "input ")
           << formatShape((inputCount ? resultType : inputType).getShape())
           << " has more than 2^63 - 1 elements";
  if (*inputCount != *resultCount)
    return emitOpError("reshape changes the element count: input ")
           << formatShape(inputType.getShape()) << " has " << *inputCount
           << " elements, result " << formatShape(resultType.getShape())
           << " has " << *resultCount;
  if (inputType.getElementType() != resultType.getElementType())
    return emitOpError("reshape changes the element type from ")
           << inputType.getElementType() << " to "
           << resultType.getElementType() << "; use memplan.cast";
  return success();
}

std::optional<unsigned> ReshapeOp::getAliasedOperand(unsigned) { return 0; }

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  RankedTensorType first = tensorOf(getInputs().front());
  int64_t rank = first.getRank();
  FailureOr<int64_t> axis =
      normalizeAxis(*this, getAxis(), rank, first.getShape());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> expected(first.getShape());
  expected[*axis] = 0;
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    RankedTensorType type = tensorOf(input);
    std::string name = "input #" + std::to_string(index);
    if (failed(verifySameElementType(*this, "input #0", getInputs().front(),
                                     name, input)))
      return failure();
    if (type.getRank() != rank)
      return emitOpError("ranks differ: input #0 has shape ")
             << formatShape(first.getShape()) << ", " << name << " has shape "
             << formatShape(type.getShape());
    for (int64_t d = 0; d < rank; ++d) {
      if (d != *axis && type.getDimSize(d) != first.getDimSize(d))
        return emitOpError("dimension ")
               << d << " differs off the concat axis " << *axis
               << ": input #0 has shape " << formatShape(first.getShape())
               << ", " << name << " has shape " << formatShape(type.getShape());
    }
    expected[*axis] += type.getDimSize(*axis);
  }
  return verifyResult(*this, getResult(), expected, first.getElementType());
}

LogicalResult SliceOp::verify() {
  RankedTensorType inputType = getInput().getType();
  ArrayRef<int64_t> shape = inputType.getShape();
  ArrayRef<int64_t> offsets = getOffsets(), sizes = getSizes();
  if (offsets.size() != shape.size() || sizes.size() != shape.size())
    return emitOpError("offsets and sizes need ")
           << shape.size() << " entries each for input shape "
           << formatShape(shape) << ", got " << offsets.size() << " and "
           << sizes.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (offsets[d] < 0 || sizes[d] < 0 || offsets[d] > shape[d] ||
        sizes[d] > shape[d] - offsets[d])
      return emitOpError("slice [") << offsets[d] << ", " << offsets[d] << " + "
                                    << sizes[d] << ") leaves dimension " << d
                                    << " of input shape " << formatShape(shape);
  }
  return verifyResult(*this, getResult(), sizes, inputType.getElementType());
}

LogicalResult CastOp::verify() {
  RankedTensorType inputType = getInput().getType();
  RankedTensorType resultType = getResult().getType();
  if (inputType.getShape() != resultType.getShape())
    return emitOpError("cast changes the shape from ")
           << formatShape(inputType.getShape()) << " to "
           << formatShape(resultType.getShape()) << "; use memplan.reshape";
  return success();
}

SmallVector<unsigned> CastOp::getInPlaceOperands(unsigned) {
  // Only between element types of one width: with a narrower result, the
  // threads of a parallel kernel would overwrite elements not yet read.
  if (getElementBitWidth(getInput().getType().getElementType()) ==
      getElementBitWidth(getResult().getType().getElementType()))
    return {0};
  return {};
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::verify() {
  constexpr StringLiteral layout = "[batch, heads, seq, head_dim]";
  if (failed(verifyRank(*this, "query", getQuery(), 4, layout)) ||
      failed(verifyRank(*this, "key", getKey(), 4, layout)) ||
      failed(verifyRank(*this, "value", getValue(), 4, layout)) ||
      failed(
          verifySameElementType(*this, "query", getQuery(), "key", getKey())) ||
      failed(verifySameElementType(*this, "query", getQuery(), "value",
                                   getValue())))
    return failure();
  ArrayRef<int64_t> q = getQuery().getType().getShape();
  ArrayRef<int64_t> k = getKey().getType().getShape();
  ArrayRef<int64_t> v = getValue().getType().getShape();
  auto shapes = [&](InFlightDiagnostic diag) -> InFlightDiagnostic {
    diag << " (query " << formatShape(q) << ", key " << formatShape(k)
         << ", value " << formatShape(v) << ")";
    return diag;
  };
  if (q[0] != k[0] || k[0] != v[0])
    return shapes(emitOpError("batch sizes differ"));
  if (q[3] != k[3])
    return shapes(emitOpError("head_dim differs between query and key"));
  if (k[1] != v[1] || k[2] != v[2])
    return shapes(emitOpError("key and value differ in heads or seq"));
  if (k[1] == 0 ? q[1] != 0 : q[1] % k[1] != 0)
    return shapes(emitOpError("query heads (")
                  << q[1] << ") must be a multiple of key/value heads (" << k[1]
                  << ")");
  if (getCausal() && q[2] > k[2])
    return shapes(emitOpError("causal attention needs query seq (")
                  << q[2] << ") <= key seq (" << k[2] << ")");
  if (FloatAttr scale = getScaleAttr();
      scale && !(scale.getValueAsDouble() > 0))
    return emitOpError("scale must be positive, got ")
           << scale.getValueAsDouble();
  return verifyResult(*this, getResult(), {q[0], q[1], q[2], v[3]},
                      getQuery().getType().getElementType());
}

FailureOr<uint64_t> AttentionOp::getScratchBytes() {
  // Running max and sum per query row, f32 each.
  uint64_t bytes = 8;
  for (int64_t dim : getQuery().getType().getShape().drop_back())
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(dim), &bytes))
      return failure();
  return bytes;
}

//===----------------------------------------------------------------------===//
// KVCacheUpdateOp
//===----------------------------------------------------------------------===//

LogicalResult KVCacheUpdateOp::verify() {
  constexpr StringLiteral layout = "[batch, kv_heads, seq, head_dim]";
  if (failed(verifyRank(*this, "cache", getCache(), 4, layout)) ||
      failed(verifyRank(*this, "update", getUpdate(), 4, layout)) ||
      failed(verifySameElementType(*this, "cache", getCache(), "update",
                                   getUpdate())))
    return failure();
  ArrayRef<int64_t> cache = getCache().getType().getShape();
  ArrayRef<int64_t> update = getUpdate().getType().getShape();
  if (cache[0] != update[0] || cache[1] != update[1] || cache[3] != update[3] ||
      update[2] > cache[2])
    return emitOpError("update of shape ")
           << formatShape(update) << " does not fit cache of shape "
           << formatShape(cache)
           << " (batch, kv_heads and head_dim must match, new seq <= max seq)";
  return success();
}

std::optional<unsigned> KVCacheUpdateOp::getAliasedOperand(unsigned) {
  return 0;
}

//===----------------------------------------------------------------------===//
// GenericOp
//===----------------------------------------------------------------------===//

LogicalResult GenericOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  if (std::optional<ArrayRef<int64_t>> aliases = getAliases()) {
    if (aliases->size() != getNumResults())
      return emitOpError("aliases has ") << aliases->size() << " entries for "
                                         << getNumResults() << " results";
    for (auto [index, operand] : llvm::enumerate(*aliases)) {
      if (operand == -1)
        continue;
      if (operand < 0 || operand >= static_cast<int64_t>(getNumOperands()))
        return emitOpError("result #")
               << index << " aliases operand #" << operand << ", but there are "
               << getNumOperands() << " operands";
      Type resultType = getResult(index).getType();
      Type operandType = getOperand(operand).getType();
      if (resultType != operandType)
        return emitOpError("result #")
               << index << " of type " << resultType << " aliases operand #"
               << operand << " of another type, " << operandType;
    }
  }
  return success();
}

std::optional<unsigned> GenericOp::getAliasedOperand(unsigned resultIndex) {
  std::optional<ArrayRef<int64_t>> aliases = getAliases();
  if (!aliases || resultIndex >= aliases->size() || (*aliases)[resultIndex] < 0)
    return std::nullopt;
  return static_cast<unsigned>((*aliases)[resultIndex]);
}

FailureOr<uint64_t> GenericOp::getScratchBytes() {
  IntegerAttr scratch = getScratchAttr();
  return scratch ? static_cast<uint64_t>(scratch.getInt()) : uint64_t(0);
}

#define GET_OP_CLASSES
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.cpp.inc"
