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
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace memplan;

//===----------------------------------------------------------------------===//
// Verifier and inference helpers
//===----------------------------------------------------------------------===//

namespace {

/// Where a check reports. An op whose result type is inferred computes it in
/// one function, run by its verifier (errors on the op: "'memplan.add' op
/// ...", with the op attached) and by its builders through
/// InferTypeOpInterface (errors at the location of the op being built, or
/// nowhere when inference is asked without a location: it just fails).
using EmitErrorFn = llvm::function_ref<InFlightDiagnostic()>;

template <typename OpTy>
auto locationEmitter(std::optional<Location> location) {
  return [location]() -> InFlightDiagnostic {
    if (!location)
      return InFlightDiagnostic();
    return mlir::emitError(*location)
           << "'" << OpTy::getOperationName() << "' op ";
  };
}

/// Stores an inferred type for InferTypeOpInterface.
LogicalResult storeInferred(FailureOr<RankedTensorType> type,
                            SmallVectorImpl<Type> &types) {
  if (failed(type))
    return failure();
  types.assign({*type});
  return success();
}

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

/// The ranked tensor type of an operand named `name`; inference may be asked
/// about operands that were never verified.
FailureOr<RankedTensorType> rankedOperand(EmitErrorFn emitError, StringRef name,
                                          Value value) {
  if (auto type = value ? dyn_cast<RankedTensorType>(value.getType())
                        : RankedTensorType())
    return type;
  return emitError() << name << " must be a ranked tensor";
}

/// Checks that the result has the inferred type; the message names the part
/// that differs (shape or element type).
LogicalResult verifyResult(Operation *op, Value result,
                           RankedTensorType expected,
                           bool checkElementType = true) {
  RankedTensorType type = tensorOf(result);
  if (type.getShape() != expected.getShape())
    return op->emitOpError("result shape ")
           << formatShape(type.getShape()) << " does not match the expected "
           << formatShape(expected.getShape());
  if (checkElementType && type.getElementType() != expected.getElementType())
    return op->emitOpError("result element type ")
           << type.getElementType() << " does not match the expected "
           << expected.getElementType();
  return success();
}

/// The verifier of an op whose result type is inferred: fails where the
/// inference did (it has said why), else checks the result against it.
LogicalResult verifyInferredResult(Operation *op,
                                   FailureOr<RankedTensorType> expected) {
  if (failed(expected))
    return failure();
  return verifyResult(op, op->getResult(0), *expected);
}

/// Checks that two operands have one element type.
LogicalResult verifySameElementType(EmitErrorFn emitError, StringRef lhsName,
                                    RankedTensorType lhs, StringRef rhsName,
                                    RankedTensorType rhs) {
  if (lhs.getElementType() != rhs.getElementType())
    return emitError() << "element types differ: " << lhsName << " has "
                       << lhs.getElementType() << ", " << rhsName << " has "
                       << rhs.getElementType();
  return success();
}

/// Checks that `type` has rank `rank`.
LogicalResult verifyRank(EmitErrorFn emitError, StringRef name,
                         RankedTensorType type, int64_t rank,
                         StringRef layout) {
  if (type.getRank() != rank)
    return emitError() << name << " must have rank " << rank << " (" << layout
                       << "), got shape " << formatShape(type.getShape());
  return success();
}

/// Numpy broadcasting of two shapes aligned at the trailing dimension
/// (upstream's OpTrait::util::getBroadcastedShape); the error names the
/// first dimension of the result where they disagree.
FailureOr<SmallVector<int64_t>>
broadcastShapes(EmitErrorFn emitError, StringRef lhsName, ArrayRef<int64_t> lhs,
                StringRef rhsName, ArrayRef<int64_t> rhs, StringRef what) {
  SmallVector<int64_t> shape;
  if (OpTrait::util::getBroadcastedShape(lhs, rhs, shape))
    return shape;
  size_t rank = std::max(lhs.size(), rhs.size());
  InFlightDiagnostic diag =
      emitError() << what << " are not broadcast-compatible: " << lhsName
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
FailureOr<int64_t> normalizeAxis(EmitErrorFn emitError, int64_t axis,
                                 int64_t rank, ArrayRef<int64_t> shape) {
  if (axis < -rank || axis >= rank)
    return emitError() << "axis " << axis << " is out of range for shape "
                       << formatShape(shape) << " (rank " << rank << ")";
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
  return verifySameElementType([op] { return op->emitOpError(); }, "input",
                               inputType, paramName, paramType);
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

//===----------------------------------------------------------------------===//
// Result types (one function per op, for its verifier and its builders)
//===----------------------------------------------------------------------===//

FailureOr<RankedTensorType> inferMatmulType(EmitErrorFn emitError, Value lhs,
                                            Value rhs, bool transposeLhs,
                                            bool transposeRhs) {
  FailureOr<RankedTensorType> lhsType = rankedOperand(emitError, "lhs", lhs);
  if (failed(lhsType))
    return failure();
  FailureOr<RankedTensorType> rhsType = rankedOperand(emitError, "rhs", rhs);
  if (failed(rhsType))
    return failure();
  if (lhsType->getRank() < 2)
    return emitError() << "lhs must have rank >= 2, got shape "
                       << formatShape(lhsType->getShape());
  if (rhsType->getRank() < 2)
    return emitError() << "rhs must have rank >= 2, got shape "
                       << formatShape(rhsType->getShape());

  Type lhsElement = lhsType->getElementType();
  Type rhsElement = rhsType->getElementType();
  Type resultElement = lhsElement;
  if (isFloat(lhsElement)) {
    // A float activation times a float weight of the same type, or a
    // quantized (integer) weight dequantized in the kernel.
    if (isFloat(rhsElement) && rhsElement != lhsElement)
      return emitError() << "element types differ: lhs has " << lhsElement
                         << ", rhs has " << rhsElement;
  } else {
    // Integer matmul: i8 x i8 accumulating in i32.
    if (!lhsElement.isInteger(8) || !rhsElement.isInteger(8))
      return emitError() << "integer matmul needs i8 operands, got lhs "
                         << lhsElement << " and rhs " << rhsElement;
    resultElement = IntegerType::get(lhsElement.getContext(), 32);
  }

  ArrayRef<int64_t> lhsShape = lhsType->getShape();
  ArrayRef<int64_t> rhsShape = rhsType->getShape();
  int64_t lhsRank = lhsType->getRank(), rhsRank = rhsType->getRank();
  int64_t m = lhsShape[lhsRank - (transposeLhs ? 1 : 2)];
  int64_t lhsK = lhsShape[lhsRank - (transposeLhs ? 2 : 1)];
  int64_t rhsK = rhsShape[rhsRank - (transposeRhs ? 1 : 2)];
  int64_t n = rhsShape[rhsRank - (transposeRhs ? 2 : 1)];
  if (lhsK != rhsK)
    return emitError() << "contracting dimensions differ: lhs has " << lhsK
                       << ", rhs has " << rhsK;

  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(emitError, "lhs", lhsShape.drop_back(2), "rhs",
                      rhsShape.drop_back(2), "batch dimensions");
  if (failed(shape))
    return failure();
  shape->append({m, n});
  return RankedTensorType::get(*shape, resultElement);
}

FailureOr<RankedTensorType> inferBinaryType(EmitErrorFn emitError, Value lhs,
                                            Value rhs) {
  FailureOr<RankedTensorType> lhsType = rankedOperand(emitError, "lhs", lhs);
  if (failed(lhsType))
    return failure();
  FailureOr<RankedTensorType> rhsType = rankedOperand(emitError, "rhs", rhs);
  if (failed(rhsType) || failed(verifySameElementType(
                             emitError, "lhs", *lhsType, "rhs", *rhsType)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(emitError, "lhs", lhsType->getShape(), "rhs",
                      rhsType->getShape(), "operands");
  if (failed(shape))
    return failure();
  return RankedTensorType::get(*shape, lhsType->getElementType());
}

/// The binary ops' verifier and inference, defined once for the four ops by
/// their ODS class (MemPlan_BinaryOp).
LogicalResult verifyBinaryOp(Operation *op) {
  return verifyInferredResult(
      op, inferBinaryType([op] { return op->emitOpError(); }, op->getOperand(0),
                          op->getOperand(1)));
}

template <typename OpTy>
LogicalResult inferBinaryReturnTypes(std::optional<Location> location,
                                     typename OpTy::Adaptor adaptor,
                                     SmallVectorImpl<Type> &types) {
  return storeInferred(inferBinaryType(locationEmitter<OpTy>(location),
                                       adaptor.getLhs(), adaptor.getRhs()),
                       types);
}

FailureOr<RankedTensorType> inferTransposeType(EmitErrorFn emitError,
                                               Value input,
                                               DenseI64ArrayAttr permutation) {
  FailureOr<RankedTensorType> inputType =
      rankedOperand(emitError, "input", input);
  if (failed(inputType))
    return failure();
  if (!permutation)
    return emitError() << "needs a permutation";
  ArrayRef<int64_t> perm = permutation.asArrayRef();
  int64_t rank = inputType->getRank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return emitError() << "permutation has " << perm.size()
                       << " entries, but input shape "
                       << formatShape(inputType->getShape()) << " has rank "
                       << rank;
  llvm::SmallBitVector seen(rank);
  SmallVector<int64_t> shape;
  for (int64_t dim : perm) {
    if (dim < 0 || dim >= rank || seen.test(dim))
      return emitError() << "permutation ["
                         << llvm::make_range(perm.begin(), perm.end())
                         << "] is not a permutation of 0.." << rank - 1;
    seen.set(dim);
    shape.push_back(inputType->getDimSize(dim));
  }
  return RankedTensorType::get(shape, inputType->getElementType());
}

FailureOr<RankedTensorType> inferConcatType(EmitErrorFn emitError,
                                            ValueRange inputs,
                                            IntegerAttr axisAttr) {
  if (inputs.empty())
    return emitError() << "needs at least one input";
  if (!axisAttr)
    return emitError() << "needs an axis";
  FailureOr<RankedTensorType> first =
      rankedOperand(emitError, "input #0", inputs.front());
  if (failed(first))
    return failure();
  int64_t rank = first->getRank();
  FailureOr<int64_t> axis =
      normalizeAxis(emitError, axisAttr.getInt(), rank, first->getShape());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first->getShape());
  shape[*axis] = 0;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    std::string name = "input #" + std::to_string(index);
    FailureOr<RankedTensorType> type = rankedOperand(emitError, name, input);
    if (failed(type) || failed(verifySameElementType(emitError, "input #0",
                                                     *first, name, *type)))
      return failure();
    if (type->getRank() != rank)
      return emitError() << "ranks differ: input #0 has shape "
                         << formatShape(first->getShape()) << ", " << name
                         << " has shape " << formatShape(type->getShape());
    for (int64_t d = 0; d < rank; ++d) {
      if (d != *axis && type->getDimSize(d) != first->getDimSize(d))
        return emitError() << "dimension " << d
                           << " differs off the concat axis " << *axis
                           << ": input #0 has shape "
                           << formatShape(first->getShape()) << ", " << name
                           << " has shape " << formatShape(type->getShape());
    }
    if (llvm::AddOverflow(shape[*axis], type->getDimSize(*axis), shape[*axis]))
      return emitError() << "the concatenated dimension " << *axis
                         << " has more than 2^63 - 1 elements";
  }
  return RankedTensorType::get(shape, first->getElementType());
}

FailureOr<RankedTensorType> inferSliceType(EmitErrorFn emitError, Value input,
                                           DenseI64ArrayAttr offsetsAttr,
                                           DenseI64ArrayAttr sizesAttr) {
  FailureOr<RankedTensorType> inputType =
      rankedOperand(emitError, "input", input);
  if (failed(inputType))
    return failure();
  if (!offsetsAttr || !sizesAttr)
    return emitError() << "needs offsets and sizes";
  ArrayRef<int64_t> shape = inputType->getShape();
  ArrayRef<int64_t> offsets = offsetsAttr.asArrayRef();
  ArrayRef<int64_t> sizes = sizesAttr.asArrayRef();
  if (offsets.size() != shape.size() || sizes.size() != shape.size())
    return emitError() << "offsets and sizes need " << shape.size()
                       << " entries each for input shape " << formatShape(shape)
                       << ", got " << offsets.size() << " and " << sizes.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (offsets[d] < 0 || sizes[d] < 0 || offsets[d] > shape[d] ||
        sizes[d] > shape[d] - offsets[d])
      return emitError() << "slice [" << offsets[d] << ", " << offsets[d]
                         << " + " << sizes[d] << ") leaves dimension " << d
                         << " of input shape " << formatShape(shape);
  }
  return RankedTensorType::get(sizes, inputType->getElementType());
}

FailureOr<RankedTensorType>
inferAttentionType(EmitErrorFn emitError, Value query, Value key, Value value,
                   bool causal, FloatAttr scale, bool tokenMajor) {
  constexpr StringLiteral layout = "[batch, heads, seq, head_dim]";
  FailureOr<RankedTensorType> queryType =
      rankedOperand(emitError, "query", query);
  if (failed(queryType))
    return failure();
  FailureOr<RankedTensorType> keyType = rankedOperand(emitError, "key", key);
  if (failed(keyType))
    return failure();
  FailureOr<RankedTensorType> valueType =
      rankedOperand(emitError, "value", value);
  if (failed(valueType))
    return failure();
  if (failed(verifyRank(emitError, "query", *queryType, 4, layout)) ||
      failed(verifyRank(emitError, "key", *keyType, 4, layout)) ||
      failed(verifyRank(emitError, "value", *valueType, 4, layout)) ||
      failed(verifySameElementType(emitError, "query", *queryType, "key",
                                   *keyType)) ||
      failed(verifySameElementType(emitError, "query", *queryType, "value",
                                   *valueType)))
    return failure();
  ArrayRef<int64_t> q = queryType->getShape();
  ArrayRef<int64_t> k = keyType->getShape();
  ArrayRef<int64_t> v = valueType->getShape();
  auto fail = [&](StringRef what) -> InFlightDiagnostic {
    return emitError() << what;
  };
  auto shapes = [&](InFlightDiagnostic diag) -> InFlightDiagnostic {
    diag << " (query " << formatShape(q) << ", key " << formatShape(k)
         << ", value " << formatShape(v) << ")";
    return diag;
  };
  if (q[0] != k[0] || k[0] != v[0])
    return shapes(fail("batch sizes differ"));
  if (q[3] != k[3])
    return shapes(fail("head_dim differs between query and key"));
  if (k[1] != v[1] || k[2] != v[2])
    return shapes(fail("key and value differ in heads or seq"));
  if (k[1] == 0 ? q[1] != 0 : q[1] % k[1] != 0)
    return shapes(fail("query heads (")
                  << q[1] << ") must be a multiple of key/value heads (" << k[1]
                  << ")");
  if (causal && q[2] > k[2])
    return shapes(fail("causal attention needs query seq (")
                  << q[2] << ") <= key seq (" << k[2] << ")");
  if (scale && !(scale.getValueAsDouble() > 0))
    return emitError() << "scale must be positive, got "
                       << scale.getValueAsDouble();
  int64_t heads = q[1], queries = q[2];
  if (tokenMajor)
    std::swap(heads, queries);
  return RankedTensorType::get({q[0], heads, queries, v[3]},
                               queryType->getElementType());
}

} // namespace

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  return verifyInferredResult(
      *this, inferMatmulType([this] { return emitOpError(); }, getLhs(),
                             getRhs(), getTransposeLhs(), getTransposeRhs()));
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return storeInferred(inferMatmulType(locationEmitter<MatmulOp>(location),
                                       adaptor.getLhs(), adaptor.getRhs(),
                                       adaptor.getTransposeLhs(),
                                       adaptor.getTransposeRhs()),
                       types);
}

FailureOr<uint64_t> MatmulOp::getScratchBytes() {
  IntegerAttr workspace = getWorkspaceBytesAttr();
  return workspace ? static_cast<uint64_t>(workspace.getInt()) : uint64_t(0);
}

bool MatmulOp::isScratchLibraryWorkspace() { return true; }

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
  return normalizeAxis([this] { return emitOpError(); }, getAxis(),
                       type.getRank(), type.getShape());
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
  return verifyResult(*this, getResult(),
                      RankedTensorType::get(expected, element),
                      /*checkElementType=*/isFloat(element));
}

LogicalResult RopeOp::verify() {
  if (failed(verifyRank([this] { return emitOpError(); }, "input",
                        getInput().getType(), 4,
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
  return verifyInferredResult(
      *this, inferTransposeType([this] { return emitOpError(); }, getInput(),
                                getPermutationAttr()));
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return storeInferred(
      inferTransposeType(locationEmitter<TransposeOp>(location),
                         adaptor.getInput(), adaptor.getPermutationAttr()),
      types);
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
/// A view: it reads its operand's memory and writes nothing.
bool ReshapeOp::writesAliasedOperand(unsigned) { return false; }

LogicalResult ConcatOp::verify() {
  return verifyInferredResult(*this,
                              inferConcatType([this] { return emitOpError(); },
                                              getInputs(), getAxisAttr()));
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return storeInferred(inferConcatType(locationEmitter<ConcatOp>(location),
                                       adaptor.getInputs(),
                                       adaptor.getAxisAttr()),
                       types);
}

LogicalResult SliceOp::verify() {
  return verifyInferredResult(
      *this, inferSliceType([this] { return emitOpError(); }, getInput(),
                            getOffsetsAttr(), getSizesAttr()));
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  return storeInferred(
      inferSliceType(locationEmitter<SliceOp>(location), adaptor.getInput(),
                     adaptor.getOffsetsAttr(), adaptor.getSizesAttr()),
      types);
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
  return verifyInferredResult(
      *this, inferAttentionType([this] { return emitOpError(); }, getQuery(),
                                getKey(), getValue(), getCausal(),
                                getScaleAttr(), getTokenMajor()));
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return storeInferred(
      inferAttentionType(locationEmitter<AttentionOp>(location),
                         adaptor.getQuery(), adaptor.getKey(),
                         adaptor.getValue(), adaptor.getCausal(),
                         adaptor.getScaleAttr(), adaptor.getTokenMajor()),
      types);
}

FailureOr<uint64_t> AttentionOp::getScratchBytes() {
  // Running max and sum per query row, f32 each.
  uint64_t bytes = 8;
  for (int64_t dim : getQuery().getType().getShape().drop_back())
    if (std::optional<uint64_t> product =
            llvm::checkedMulUnsigned(bytes, static_cast<uint64_t>(dim)))
      bytes = *product;
    else
      return failure();
  return bytes;
}

//===----------------------------------------------------------------------===//
// KVCacheUpdateOp
//===----------------------------------------------------------------------===//

LogicalResult KVCacheUpdateOp::verify() {
  constexpr StringLiteral layout = "[batch, kv_heads, seq, head_dim]";
  auto emitError = [this] { return emitOpError(); };
  if (failed(verifyRank(emitError, "cache", getCache().getType(), 4, layout)) ||
      failed(
          verifyRank(emitError, "update", getUpdate().getType(), 4, layout)) ||
      failed(verifySameElementType(emitError, "cache", getCache().getType(),
                                   "update", getUpdate().getType())))
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
  if (getLibraryWorkspace() && !getScratchAttr())
    return emitOpError("has library_workspace but no scratch: the workspace's "
                       "bytes are its scratch");
  if (getViews() && !getAliases())
    return emitOpError("has views but no aliases: the views are the aliased "
                       "results");
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

bool GenericOp::writesAliasedOperand(unsigned resultIndex) {
  return getAliasedOperand(resultIndex).has_value() && !getViews();
}

FailureOr<uint64_t> GenericOp::getScratchBytes() {
  IntegerAttr scratch = getScratchAttr();
  return scratch ? static_cast<uint64_t>(scratch.getInt()) : uint64_t(0);
}

bool GenericOp::isScratchLibraryWorkspace() { return getLibraryWorkspace(); }

#define GET_OP_CLASSES
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.cpp.inc"
