//===- TranslateToCuda.cpp - Planned graphs to CUDA C++ -------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One C function per planned function: every intermediate at
// `base + offset` of the arena the planner sized, every kernel a call into
// the memplan runtime whose status is checked. See docs/codegen.md.
//
//===----------------------------------------------------------------------===//

#include "memplan/Target/Cuda/TranslateToCuda.h"

#include "PlanContract.h"
#include "memplan/Analysis/PlanVerification.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"
#include "memplan/Dialect/MemPlan/IR/PlanAttributes.h"
#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace memplan;

namespace {

std::string join(ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(values, os);
  return text;
}

int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t value : values)
    result *= value;
  return result;
}

/// A double as a C++ literal that reads back to the same value.
std::string doubleLiteral(double value) {
  char text[64];
  snprintf(text, sizeof(text), "%.17g", value);
  std::string result(text);
  if (result.find_first_of(".eEn") == std::string::npos)
    result += ".0";
  return result;
}

/// The C identifier that the names generated for function `name` start
/// with (`<id>_run`, `<id>_arena_bytes`, ...): every character outside
/// [A-Za-z0-9_] becomes '_', and `f_` goes in front of one that would start
/// with a digit or an underscore (C++ reserves `_X` and `__` names). Two
/// symbols can map to one identifier; translateToCuda rejects that.
std::string identifierOf(StringRef name) {
  std::string result;
  for (char c : name)
    result += (llvm::isAlnum(c) || c == '_') ? c : '_';
  if (result.empty() || llvm::isDigit(result[0]) || result[0] == '_')
    result = "f_" + result;
  return result;
}

/// `text` as printable ASCII that is safe inside a C++ comment or string
/// literal: a backslash, a quote, '?' and every byte outside ' '..'~' become
/// three-digit octal escapes (which, unlike \x, end where they should), so
/// a symbol name cannot end a comment line or a literal.
std::string escaped(StringRef text) {
  std::string result;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= ' ' && byte <= '~' && c != '\\' && c != '"' && c != '?') {
      result += c;
      continue;
    }
    char octal[5];
    snprintf(octal, sizeof(octal), "\\%03o", byte);
    result += octal;
  }
  return result;
}

RankedTensorType tensorOf(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

/// Writes one function.
class FunctionEmitter {
public:
  FunctionEmitter(FunctionOpInterface function, const PlanContract &contract,
                  raw_ostream &os)
      : function(function), contract(contract), os(os), state(function),
        name(identifierOf(function.getName())),
        symbol(escaped(function.getName())) {}

  LogicalResult emit();
  LogicalResult emitMain();

private:
  LogicalResult emitSignature();
  LogicalResult emitOp(Operation &op);

  /// The runtime dtype of `type`'s elements, or an error at `op`.
  FailureOr<std::string> dtypeOf(Type type, Operation *op);
  /// Bytes of one element of `type`.
  uint64_t elementBytes(Type type) {
    return getElementBitWidth(cast<ShapedType>(type).getElementType())
               .value_or(8) /
           8;
  }
  /// The C expression of the memory holding `value`.
  FailureOr<std::string> pointerOf(Value value);
  /// The value returned as result `index`.
  Value returned(unsigned index) {
    return function.getFunctionBody().front().getTerminator()->getOperand(
        index);
  }
  /// Whether result `index` is in the memory of a caller's argument.
  bool isArgumentResult(unsigned index) {
    return contract.getPlace(returned(index)).kind == Place::Kind::Argument;
  }
  /// A local array `const int64_t <name>[] = {...};`; returns its name.
  std::string shapeArray(ArrayRef<int64_t> values);
  std::string nameOf(Value value) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    value.printAsOperand(stream, state);
    return escaped(text);
  }
  void call(const std::string &expression) {
    os << "  MEMPLAN_CHECK(" << expression << ");\n";
  }

  FunctionOpInterface function;
  const PlanContract &contract;
  raw_ostream &os;
  AsmState state;
  std::string name;   ///< the C identifier of the function's names
  std::string symbol; ///< its symbol name, escaped for comments and strings
  unsigned arrayCounter = 0;
};

FailureOr<std::string> FunctionEmitter::dtypeOf(Type type, Operation *op) {
  Type element = getElementTypeOrSelf(type);
  if (element.isF32())
    return std::string("MPRT_F32");
  if (element.isF16())
    return std::string("MPRT_F16");
  if (element.isBF16())
    return std::string("MPRT_BF16");
  if (element.isInteger(8))
    return std::string("MPRT_I8");
  if (element.isInteger(32))
    return std::string("MPRT_I32");
  if (element.isInteger(64))
    return std::string("MPRT_I64");
  return op->emitError("element type ")
         << element << " has no lowering to the memplan runtime";
}

FailureOr<std::string> FunctionEmitter::pointerOf(Value value) {
  // Every tensor has a place the contract checked.
  Place at = contract.getPlace(value);
  switch (at.kind) {
  case Place::Kind::Arena:
    return "(base + " + std::to_string(at.offset) + ")";
  case Place::Kind::Result:
    return "result" + std::to_string(at.index);
  case Place::Kind::Argument:
    return "arg" + std::to_string(at.index);
  }
  llvm_unreachable("every location kind is handled");
}

std::string FunctionEmitter::shapeArray(ArrayRef<int64_t> values) {
  std::string array = "shape" + std::to_string(arrayCounter++);
  os << "  const int64_t " << array << "[] = {"
     << (values.empty() ? "0" : join(values)) << "};\n";
  return array;
}

LogicalResult FunctionEmitter::emitSignature() {
  os << "extern \"C\" int " << name << "_run(mprt_context *ctx, void *arena";
  for (BlockArgument argument : function.getArguments()) {
    unsigned index = argument.getArgNumber();
    if (isa<IndexType>(argument.getType())) {
      os << ", int64_t arg" << index;
    } else if (isa<RankedTensorType>(argument.getType())) {
      os << (contract.writesArgument(index) ? ", void *arg"
                                            : ", const void *arg")
         << index;
    } else {
      return emitError(argument.getLoc())
             << "argument #" << index << " of type " << argument.getType()
             << " has no lowering: arguments are tensors or index";
    }
  }
  // A result in the memory of an argument (an updated KV cache) is that
  // argument: the caller has it, so it has no parameter of its own.
  for (auto [index, type] : llvm::enumerate(function.getResultTypes()))
    if (!isArgumentResult(index))
      os << ", void *result" << index;
  os << ")";
  return success();
}

LogicalResult FunctionEmitter::emit() {
  // The plan was proven (PlanContract) before any code is written.
  uint64_t arenaBytes = contract.getArenaBytes();
  StringRef fn = symbol;

  os << "// ---- @" << fn << " "
     << std::string(std::max<int>(0, 70 - int(fn.size())), '-') << "\n\n";
  os << "/// Bytes of the arena of @" << fn
     << ": memplan.arena_size, as planned.\n";
  os << "static constexpr size_t " << name
     << "_arena_bytes_value = " << arenaBytes << ";\n";
  os << "extern \"C\" size_t " << name << "_arena_bytes(void) { return " << name
     << "_arena_bytes_value; }\n\n";
  os << "/// Allocates the arena of @" << fn
     << ": one device allocation (none if it is empty).\n";
  os << "extern \"C\" int " << name << "_arena_create(void **arena) {\n";
  os << "  *arena = nullptr;\n";
  os << "  if (" << name << "_arena_bytes_value == 0)\n    return MPRT_OK;\n";
  os << "  return cudaMalloc(arena, " << name
     << "_arena_bytes_value) == cudaSuccess ? MPRT_OK : MPRT_ERROR_CUDA;\n";
  os << "}\n";
  os << "extern \"C\" int " << name << "_arena_destroy(void *arena) {\n";
  os << "  return cudaFree(arena) == cudaSuccess ? MPRT_OK : "
        "MPRT_ERROR_CUDA;\n";
  os << "}\n\n";

  os << "/// Runs @" << fn << ". `arena`: at least " << name
     << "_arena_bytes() bytes of device memory,\n"
        "/// 256-byte aligned (from "
     << name
     << "_arena_create or the caller). Arguments and results:\n"
        "/// device pointers owned by the caller.\n";
  if (failed(emitSignature()))
    return failure();
  os << " {\n";
  os << "  char *base = static_cast<char *>(arena);\n";
  os << "  (void)base;\n";
  for (Operation &op : function.getFunctionBody().front())
    if (failed(emitOp(op)))
      return failure();
  os << "  return MPRT_OK;\n}\n\n";
  return success();
}

LogicalResult FunctionEmitter::emitOp(Operation &op) {
  // A comment with the value and where the plan put it, then the call.
  if (!isa<func::ReturnOp>(op)) {
    os << "  // ";
    for (Value result : op.getResults())
      os << nameOf(result) << " ";
    os << "= " << escaped(op.getName().getStringRef());
    for (Value result : op.getResults()) {
      if (!isa<RankedTensorType>(result.getType()))
        continue;
      Place at = contract.getPlace(result);
      if (at.kind == Place::Kind::Arena)
        os << " at offset " << at.offset;
      else if (at.kind == Place::Kind::Result)
        os << " in result " << at.index;
      else
        os << " in argument " << at.index;
    }
    if (std::optional<uint64_t> scratch = contract.getScratchOffset(&op))
      os << ", scratch at " << *scratch;
    os << "\n";
  }
  auto pointer = [&](Value value) -> std::string {
    FailureOr<std::string> expression = pointerOf(value);
    return succeeded(expression) ? *expression : std::string();
  };
  // Every pointer is resolved before any text that uses it; an empty one has
  // emitted its diagnostic.
  auto pointers = [&](std::initializer_list<Value> values)
      -> FailureOr<SmallVector<std::string>> {
    SmallVector<std::string> result;
    for (Value value : values) {
      result.push_back(pointer(value));
      if (result.back().empty())
        return failure();
    }
    return result;
  };
  auto scratchOf = [&](Operation *owner) -> std::string {
    std::optional<uint64_t> offset = contract.getScratchOffset(owner);
    return offset ? "(base + " + std::to_string(*offset) + ")"
                  : std::string("nullptr");
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](MatmulOp matmul) -> LogicalResult {
        auto ptrs =
            pointers({matmul.getLhs(), matmul.getRhs(), matmul.getResult()});
        FailureOr<std::string> dtype = dtypeOf(matmul.getType(), &op);
        if (failed(ptrs) || failed(dtype))
          return failure();
        Type lhsElement = matmul.getLhs().getType().getElementType();
        if (lhsElement != matmul.getRhs().getType().getElementType() ||
            !isa<FloatType>(lhsElement))
          return op.emitError("the CUDA lowering runs matmuls on float "
                              "operands of one type; quantized and integer "
                              "matmuls have no lowering yet");
        ArrayRef<int64_t> lhs = matmul.getLhs().getType().getShape();
        ArrayRef<int64_t> rhs = matmul.getRhs().getType().getShape();
        ArrayRef<int64_t> out = matmul.getType().getShape();
        int64_t m = out[out.size() - 2], n = out.back();
        int64_t k = matmul.getTransposeLhs() ? lhs[lhs.size() - 2] : lhs.back();
        ArrayRef<int64_t> batch = out.drop_back(2);
        // A batch stride per operand: a full batch, or 0 for a shared one.
        auto strideOf = [&](ArrayRef<int64_t> shape,
                            int64_t matrix) -> std::optional<int64_t> {
          ArrayRef<int64_t> own = shape.drop_back(2);
          if (product(own) == 1)
            return 0;
          SmallVector<int64_t> padded(batch.size() - own.size(), 1);
          padded.append(own.begin(), own.end());
          if (ArrayRef<int64_t>(padded) == batch)
            return matrix;
          return std::nullopt;
        };
        std::optional<int64_t> strideA = strideOf(lhs, m * k);
        std::optional<int64_t> strideB = strideOf(rhs, k * n);
        if (!strideA || !strideB)
          return op.emitError("the CUDA lowering broadcasts a matmul operand "
                              "over all batch dimensions or none");
        FailureOr<uint64_t> workspace =
            cast<BufferPlanningOpInterface>(op).getScratchBytes();
        os << "  {\n    const mprt_matmul_desc desc = {" << *dtype << ", "
           << product(batch) << ", " << m << ", " << n << ", " << k << ", "
           << (matmul.getTransposeLhs() ? 1 : 0) << ", "
           << (matmul.getTransposeRhs() ? 1 : 0) << ", " << *strideA << ", "
           << *strideB << "};\n  ";
        call("mprt_matmul(ctx, &desc, " + (*ptrs)[0] + ", " + (*ptrs)[1] +
             ", " + (*ptrs)[2] + ", " + scratchOf(&op) + ", " +
             std::to_string(succeeded(workspace) ? *workspace : 0) + ")");
        os << "  }\n";
        return success();
      })
      .Case<AddOp, SubOp, MulOp, DivOp>([&](auto binary) -> LogicalResult {
        auto ptrs =
            pointers({binary.getLhs(), binary.getRhs(), binary.getResult()});
        FailureOr<std::string> dtype = dtypeOf(binary.getType(), &op);
        if (failed(ptrs) || failed(dtype))
          return failure();
        ArrayRef<int64_t> out = binary.getType().getShape();
        auto padded = [&](Value value) {
          ArrayRef<int64_t> shape = tensorOf(value).getShape();
          SmallVector<int64_t> result(out.size() - shape.size(), 1);
          result.append(shape.begin(), shape.end());
          return shapeArray(result);
        };
        std::string a = padded(binary.getLhs()), b = padded(binary.getRhs());
        std::string o = shapeArray(out);
        const char *kind = isa<AddOp>(op)   ? "MPRT_ADD"
                           : isa<SubOp>(op) ? "MPRT_SUB"
                           : isa<MulOp>(op) ? "MPRT_MUL"
                                            : "MPRT_DIV";
        call(std::string("mprt_binary(ctx, ") + kind + ", " + *dtype + ", " +
             (*ptrs)[0] + ", " + a + ", " + (*ptrs)[1] + ", " + b + ", " +
             (*ptrs)[2] + ", " + o + ", " + std::to_string(out.size()) + ")");
        return success();
      })
      .Case<GeluOp, SiluOp, ReluOp>([&](auto unary) -> LogicalResult {
        auto ptrs = pointers({unary.getInput(), unary.getResult()});
        FailureOr<std::string> dtype = dtypeOf(unary.getType(), &op);
        if (failed(ptrs) || failed(dtype))
          return failure();
        const char *kind = isa<GeluOp>(op)   ? "MPRT_GELU"
                           : isa<SiluOp>(op) ? "MPRT_SILU"
                                             : "MPRT_RELU";
        call(std::string("mprt_unary(ctx, ") + kind + ", " + *dtype + ", " +
             (*ptrs)[0] + ", " + (*ptrs)[1] + ", " +
             std::to_string(unary.getType().getNumElements()) + ")");
        return success();
      })
      .Case([&](SoftmaxOp softmax) -> LogicalResult {
        auto ptrs = pointers({softmax.getInput(), softmax.getResult()});
        FailureOr<std::string> dtype = dtypeOf(softmax.getType(), &op);
        if (failed(ptrs) || failed(dtype))
          return failure();
        ArrayRef<int64_t> shape = softmax.getType().getShape();
        int64_t axis = softmax.getAxis();
        if (axis < 0)
          axis += shape.size();
        call("mprt_softmax(ctx, " + *dtype + ", " + (*ptrs)[0] + ", " +
             (*ptrs)[1] + ", " +
             std::to_string(product(shape.take_front(axis))) + ", " +
             std::to_string(shape[axis]) + ", " +
             std::to_string(product(shape.drop_front(axis + 1))) + ")");
        return success();
      })
      .Case<LayerNormOp, RMSNormOp>([&](auto norm) -> LogicalResult {
        constexpr bool isRms = std::is_same_v<decltype(norm), RMSNormOp>;
        auto ptrs =
            pointers({norm.getInput(), norm.getGamma(), norm.getResult()});
        FailureOr<std::string> dtype = dtypeOf(norm.getType(), &op);
        if (failed(ptrs) || failed(dtype))
          return failure();
        std::string beta = "nullptr";
        if constexpr (!isRms) {
          beta = pointer(norm.getBeta());
          if (beta.empty())
            return failure();
        }
        ArrayRef<int64_t> shape = norm.getType().getShape();
        call("mprt_norm(ctx, " + *dtype + ", " + (isRms ? "1" : "0") + ", " +
             (*ptrs)[0] + ", " + (*ptrs)[1] + ", " + beta + ", " + (*ptrs)[2] +
             ", " + std::to_string(product(shape.drop_back())) + ", " +
             std::to_string(shape.back()) + ", " +
             doubleLiteral(norm.getEpsilon().convertToDouble()) + ")");
        return success();
      })
      .Case([&](EmbeddingOp embedding) -> LogicalResult {
        auto ptrs = pointers(
            {embedding.getTable(), embedding.getIds(), embedding.getResult()});
        FailureOr<std::string> dtype = dtypeOf(embedding.getType(), &op);
        FailureOr<std::string> ids = dtypeOf(embedding.getIds().getType(), &op);
        if (failed(ptrs) || failed(dtype) || failed(ids))
          return failure();
        if (embedding.getTable().getType().getElementType() !=
            embedding.getType().getElementType())
          return op.emitError("the CUDA lowering reads float embedding "
                              "tables; quantized tables have no lowering yet");
        ArrayRef<int64_t> table = embedding.getTable().getType().getShape();
        call("mprt_embedding(ctx, " + *dtype + ", " + (*ptrs)[0] + ", " + *ids +
             ", " + (*ptrs)[1] + ", " + (*ptrs)[2] + ", " +
             std::to_string(embedding.getIds().getType().getNumElements()) +
             ", " + std::to_string(table[0]) + ", " + std::to_string(table[1]) +
             ")");
        return success();
      })
      .Case([&](RopeOp rope) -> LogicalResult {
        auto ptrs =
            pointers({rope.getInput(), rope.getPositions(), rope.getResult()});
        FailureOr<std::string> dtype = dtypeOf(rope.getType(), &op);
        FailureOr<std::string> positions =
            dtypeOf(rope.getPositions().getType(), &op);
        if (failed(ptrs) || failed(dtype) || failed(positions))
          return failure();
        ArrayRef<int64_t> s = rope.getType().getShape();
        call("mprt_rope(ctx, " + *dtype + ", " + (*ptrs)[0] + ", " +
             *positions + ", " + (*ptrs)[1] + ", " + (*ptrs)[2] + ", " +
             join(s) + ", " + doubleLiteral(rope.getTheta().convertToDouble()) +
             ")");
        return success();
      })
      .Case([&](TransposeOp transpose) -> LogicalResult {
        auto ptrs = pointers({transpose.getInput(), transpose.getResult()});
        if (failed(ptrs) || failed(dtypeOf(transpose.getType(), &op)))
          return failure();
        std::string in = shapeArray(transpose.getInput().getType().getShape());
        std::string perm = shapeArray(transpose.getPermutation());
        call("mprt_transpose(ctx, " +
             std::to_string(elementBytes(transpose.getType())) + ", " +
             (*ptrs)[0] + ", " + in + ", " + perm + ", " +
             std::to_string(transpose.getPermutation().size()) + ", " +
             (*ptrs)[1] + ")");
        return success();
      })
      .Case([&](ReshapeOp reshape) -> LogicalResult {
        // A view: the same memory, nothing to run.
        return success(!pointer(reshape.getResult()).empty());
      })
      .Case([&](ConcatOp concat) -> LogicalResult {
        std::string out = pointer(concat.getResult());
        if (out.empty() || failed(dtypeOf(concat.getType(), &op)))
          return failure();
        ArrayRef<int64_t> shape = concat.getType().getShape();
        int64_t axis = concat.getAxis();
        if (axis < 0)
          axis += shape.size();
        int64_t outer = product(shape.take_front(axis));
        int64_t inner = product(shape.drop_front(axis + 1));
        int64_t at = 0;
        for (Value input : concat.getInputs()) {
          std::string in = pointer(input);
          if (in.empty())
            return failure();
          int64_t size = tensorOf(input).getDimSize(axis);
          call("mprt_concat_part(ctx, " +
               std::to_string(elementBytes(concat.getType())) + ", " + in +
               ", " + out + ", " + std::to_string(outer) + ", " +
               std::to_string(size) + ", " + std::to_string(shape[axis]) +
               ", " + std::to_string(at) + ", " + std::to_string(inner) + ")");
          at += size;
        }
        return success();
      })
      .Case([&](SliceOp slice) -> LogicalResult {
        auto ptrs = pointers({slice.getInput(), slice.getResult()});
        if (failed(ptrs) || failed(dtypeOf(slice.getType(), &op)))
          return failure();
        std::string in = shapeArray(slice.getInput().getType().getShape());
        std::string offsets = shapeArray(slice.getOffsets());
        std::string sizes = shapeArray(slice.getSizes());
        call("mprt_slice(ctx, " +
             std::to_string(elementBytes(slice.getType())) + ", " + (*ptrs)[0] +
             ", " + in + ", " + offsets + ", " + sizes + ", " +
             std::to_string(slice.getSizes().size()) + ", " + (*ptrs)[1] + ")");
        return success();
      })
      .Case([&](CastOp castOp) -> LogicalResult {
        auto ptrs = pointers({castOp.getInput(), castOp.getResult()});
        FailureOr<std::string> from = dtypeOf(castOp.getInput().getType(), &op);
        FailureOr<std::string> to = dtypeOf(castOp.getType(), &op);
        if (failed(ptrs) || failed(from) || failed(to))
          return failure();
        call("mprt_cast(ctx, " + *from + ", " + (*ptrs)[0] + ", " + *to + ", " +
             (*ptrs)[1] + ", " +
             std::to_string(castOp.getType().getNumElements()) + ")");
        return success();
      })
      .Case([&](AttentionOp attention) -> LogicalResult {
        auto ptrs = pointers({attention.getQuery(), attention.getKey(),
                              attention.getValue(), attention.getResult()});
        FailureOr<std::string> dtype = dtypeOf(attention.getType(), &op);
        if (failed(ptrs) || failed(dtype))
          return failure();
        ArrayRef<int64_t> q = attention.getQuery().getType().getShape();
        ArrayRef<int64_t> k = attention.getKey().getType().getShape();
        ArrayRef<int64_t> v = attention.getValue().getType().getShape();
        double scale = 1.0 / std::sqrt(double(q[3]));
        if (FloatAttr attr = attention.getScaleAttr())
          scale = attr.getValueAsDouble();
        os << "  {\n    const mprt_attention_desc desc = {" << *dtype << ", "
           << q[0] << ", " << q[1] << ", " << k[1] << ", " << q[2] << ", "
           << k[2] << ", " << q[3] << ", " << v[3] << ", "
           << (attention.getCausal() ? 1 : 0) << ", " << doubleLiteral(scale)
           << ", " << (attention.getTokenMajor() ? 1 : 0) << "};\n  ";
        call("mprt_attention(ctx, &desc, " + (*ptrs)[0] + ", " + (*ptrs)[1] +
             ", " + (*ptrs)[2] + ", " + (*ptrs)[3] + ", " + scratchOf(&op) +
             ")");
        os << "  }\n";
        return success();
      })
      .Case([&](KVCacheUpdateOp update) -> LogicalResult {
        auto ptrs = pointers({update.getCache(), update.getUpdate()});
        if (failed(ptrs) || failed(dtypeOf(update.getType(), &op)))
          return failure();
        auto position = dyn_cast<BlockArgument>(update.getPosition());
        if (!position)
          return op.emitError("the CUDA lowering takes a KV-cache position "
                              "from a function argument");
        ArrayRef<int64_t> cache = update.getCache().getType().getShape();
        ArrayRef<int64_t> newShape = update.getUpdate().getType().getShape();
        call("mprt_kv_cache_update(ctx, " +
             std::to_string(elementBytes(update.getType())) + ", " +
             (*ptrs)[0] + ", " + (*ptrs)[1] + ", " + std::to_string(cache[0]) +
             ", " + std::to_string(cache[1]) + ", " + std::to_string(cache[2]) +
             ", " + std::to_string(newShape[2]) + ", " +
             std::to_string(cache[3]) + ", arg" +
             std::to_string(position.getArgNumber()) + ")");
        return success();
      })
      .Case([&](func::ReturnOp ret) -> LogicalResult {
        for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
          Place at = contract.getPlace(value);
          if (at.kind == Place::Kind::Result && at.index == index) {
            os << "  // result " << index << " = " << nameOf(value)
               << ", computed in the caller's buffer\n";
            continue;
          }
          if (at.kind == Place::Kind::Argument) {
            os << "  // result " << index << " = " << nameOf(value)
               << ", the caller's argument " << at.index << "\n";
            continue;
          }
          std::string source = pointer(value);
          if (source.empty())
            return failure();
          os << "  // result " << index << " = " << nameOf(value)
             << ", copied\n";
          call("mprt_copy(ctx, result" + std::to_string(index) + ", " + source +
               ", " + std::to_string(getByteSize(value.getType()).bytes) + ")");
        }
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        InFlightDiagnostic diag = other->emitError()
                                  << "'" << other->getName()
                                  << "' has no CUDA lowering";
        if (auto generic = dyn_cast<GenericOp>(other))
          diag << " (\"" << generic.getName()
               << "\": the generic op carries sizes only)";
        return diag;
      });
}

LogicalResult FunctionEmitter::emitMain() {
  os << "// ---- main: a deterministic run of @" << symbol << " ----\n\n";
  os << "#include <chrono>\n#include <cstdio>\n#include <cstdlib>\n"
        "#include <vector>\n\n";
  os << "#define MEMPLAN_MAIN_CHECK(call, what)                                "
        " \\\n"
        "  do {                                                                "
        "\\\n"
        "    int status_ = (call);                                             "
        "\\\n"
        "    if (status_ != MPRT_OK) {                                         "
        "\\\n"
        "      fprintf(stderr, \"%s failed: %s (%s)\\n\", what,                "
        "  \\\n"
        "              mprt_status_string(status_), mprt_last_error(ctx));     "
        " \\\n"
        "      return 1;                                                       "
        "\\\n"
        "    }                                                                 "
        "\\\n"
        "  } while (0)\n\n";
  os << "/// Fills every argument with the pattern of mprt_fill (seed: the "
        "argument's\n/// index), runs once, prints the arena, device memory "
        "in use and a checksum\n/// of every result, and with a path "
        "argument writes the results there.\n";
  os << "int main(int argc, char **argv) {\n";
  // Device memory by stage: after the CUDA context exists (cudaMemGetInfo
  // creates it), after mprt_create (the cuBLAS handle, the stream, the
  // error word), after the arguments and results, after the arena and the
  // run. What the step asked for, in bytes, is printed beside each.
  os << "  size_t freeBytes = 0, totalBytes = 0;\n";
  os << "  cudaMemGetInfo(&freeBytes, &totalBytes);\n";
  os << "  size_t atStart = totalBytes - freeBytes;\n";
  os << "  mprt_context *ctx = nullptr;\n";
  os << "  MEMPLAN_MAIN_CHECK(mprt_create(&ctx), \"mprt_create\");\n";
  os << "  cudaMemGetInfo(&freeBytes, &totalBytes);\n";
  os << "  size_t withContext = totalBytes - freeBytes;\n";
  os << "  std::vector<void *> buffers;\n";
  os << "  auto allocate = [&](size_t bytes) -> void * {\n"
        "    void *pointer = nullptr;\n"
        "    if (cudaMalloc(&pointer, bytes ? bytes : 1) != cudaSuccess)\n"
        "      return nullptr;\n"
        "    buffers.push_back(pointer);\n"
        "    return pointer;\n"
        "  };\n";
  std::string callArgs = "ctx, arena";
  uint64_t argumentAndResultBytes = 0; // what `allocate` is asked for
  for (BlockArgument argument : function.getArguments()) {
    std::string arg = "arg" + std::to_string(argument.getArgNumber());
    if (isa<IndexType>(argument.getType())) {
      os << "  int64_t " << arg << " = 0;\n";
    } else {
      auto type = cast<RankedTensorType>(argument.getType());
      FailureOr<std::string> dtype = dtypeOf(type, function.getOperation());
      if (failed(dtype))
        return failure();
      os << "  void *" << arg << " = allocate(" << getByteSize(type).bytes
         << ");\n";
      argumentAndResultBytes += std::max<uint64_t>(getByteSize(type).bytes, 1);
      os << "  if (!" << arg
         << ") {\n    fprintf(stderr, \"cudaMalloc failed\\n\");\n    return "
            "1;\n  }\n";
      os << "  MEMPLAN_MAIN_CHECK(mprt_fill(ctx, " << *dtype << ", " << arg
         << ", " << type.getNumElements() << ", " << argument.getArgNumber()
         << "), \"mprt_fill\");\n";
    }
    callArgs += ", " + arg;
  }
  for (auto [index, type] : llvm::enumerate(function.getResultTypes())) {
    std::string result = "result" + std::to_string(index);
    if (isArgumentResult(index)) {
      os << "  void *" << result << " = arg"
         << contract.getPlace(returned(index)).index << ";\n";
      continue;
    }
    os << "  void *" << result << " = allocate(" << getByteSize(type).bytes
       << ");\n";
    argumentAndResultBytes += std::max<uint64_t>(getByteSize(type).bytes, 1);
    os << "  if (!" << result
       << ") {\n    fprintf(stderr, \"cudaMalloc failed\\n\");\n    return "
          "1;\n  }\n";
    callArgs += ", " + result;
  }
  os << "  MEMPLAN_MAIN_CHECK(mprt_synchronize(ctx), \"synchronize\");\n";
  os << "  cudaMemGetInfo(&freeBytes, &totalBytes);\n";
  os << "  size_t before = totalBytes - freeBytes;\n";
  os << "  void *arena = nullptr;\n";
  os << "  MEMPLAN_MAIN_CHECK(" << name
     << "_arena_create(&arena), \"arena\");\n";
  // The step, run once checked and again when timed.
  std::string runStep = "MEMPLAN_MAIN_CHECK(" + name + "_run(" + callArgs +
                        "), \"@" + symbol + "\");\n";
  os << "  " << runStep;
  os << "  MEMPLAN_MAIN_CHECK(mprt_synchronize(ctx), \"synchronize\");\n";
  os << "  cudaMemGetInfo(&freeBytes, &totalBytes);\n";
  os << "  size_t after = totalBytes - freeBytes;\n";
  os << "  printf(\"arena bytes: %zu\\n\", " << name << "_arena_bytes());\n";
  os << "  printf(\"device memory in use: %zu bytes before the arena, %zu "
        "after the run (+%zu)\\n\",\n         before, after, after - "
        "before);\n";
  os << "  printf(\"device memory by stage: runtime context +%zu, arguments "
        "and results +%zu (asked "
     << argumentAndResultBytes
     << "), arena and run +%zu (asked %zu)\\n\",\n         withContext - "
        "atStart, before - withContext, after - before, "
     << name << "_arena_bytes());\n";
  os << "  FILE *dump = argc > 1 ? fopen(argv[1], \"wb\") : nullptr;\n";
  os << "  if (argc > 1 && !dump) {\n    fprintf(stderr, \"cannot write "
        "%s\\n\", argv[1]);\n    return 1;\n  }\n";
  for (auto [index, type] : llvm::enumerate(function.getResultTypes())) {
    uint64_t bytes = getByteSize(type).bytes;
    std::string result = "result" + std::to_string(index);
    os << "  {\n    uint64_t hash = 0;\n";
    os << "    MEMPLAN_MAIN_CHECK(mprt_checksum(ctx, " << result << ", "
       << bytes << ", &hash), \"checksum\");\n";
    os << "    printf(\"result " << index
       << " checksum: %016llx\\n\", (unsigned long long)hash);\n";
    os << "    std::vector<char> host(" << bytes << ");\n";
    os << "    if (dump && (cudaMemcpy(host.data(), " << result << ", " << bytes
       << ", cudaMemcpyDeviceToHost) != cudaSuccess ||\n"
          "                 fwrite(host.data(), 1, host.size(), dump) != "
          "host.size())) {\n"
          "      fprintf(stderr, \"cannot dump result "
       << index << "\\n\");\n      return 1;\n    }\n  }\n";
  }
  os << "  if (dump)\n    fclose(dump);\n";
  // MEMPLAN_TIMED_RUNS=N: the step N more times after the checked one, its
  // mean wall time (each run queued back to back, one synchronisation at the
  // end), to compare with another implementation of the same step.
  os << "  if (const char *timed = getenv(\"MEMPLAN_TIMED_RUNS\")) {\n"
        "    int runs = atoi(timed);\n"
        "    auto start = std::chrono::steady_clock::now();\n"
        "    for (int i = 0; i < runs; ++i)\n"
        "      "
     << runStep
     << "    MEMPLAN_MAIN_CHECK(mprt_synchronize(ctx), \"synchronize\");\n"
        "    double ms = std::chrono::duration<double, std::milli>(\n"
        "                    std::chrono::steady_clock::now() - start)\n"
        "                    .count();\n"
        "    if (runs > 0)\n"
        "      printf(\"timed runs: %d, %.3f ms each\\n\", runs, ms / runs);\n"
        "  }\n";
  os << "  " << name << "_arena_destroy(arena);\n";
  os << "  for (void *buffer : buffers)\n    cudaFree(buffer);\n";
  os << "  mprt_destroy(ctx);\n  return 0;\n}\n";
  return success();
}

} // namespace

LogicalResult memplan::translateToCuda(Operation *module, raw_ostream &output,
                                       const CudaEmitterOptions &options) {
  SmallVector<FunctionOpInterface> functions;
  WalkResult walk = module->walk([&](FunctionOpInterface function) {
    if (function.isExternal())
      return WalkResult::advance();
    if (function->getParentOp() != module) {
      function.emitError("the CUDA lowering translates the functions of the "
                         "top-level module; this one is in a nested module");
      return WalkResult::interrupt();
    }
    functions.push_back(function);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Every generated name is `<identifier>_<suffix>`, with suffixes none of
  // which ends another, so distinct identifiers give distinct names.
  llvm::StringMap<FunctionOpInterface> byIdentifier;
  for (FunctionOpInterface function : functions) {
    std::string identifier = identifierOf(function.getName());
    auto [it, inserted] = byIdentifier.try_emplace(identifier, function);
    if (inserted)
      continue;
    InFlightDiagnostic diag =
        function.emitError()
        << "the C names of this function would start with '" << identifier
        << "', as those of another function do; rename one (symbols map to "
           "C identifiers with every character outside [A-Za-z0-9_] as '_')";
    diag.attachNote(it->second.getLoc()) << "the other function";
    return diag;
  }
  // Check every plan before writing anything: the translator's own contract,
  // then the planner's validator as a second, independent opinion.
  SmallVector<PlanContract> contracts;
  for (FunctionOpInterface function : functions) {
    if (!function.getFunctionBody().hasOneBlock())
      return function.emitError("the CUDA lowering needs a body of one block");
    FailureOr<PlanContract> contract = PlanContract::check(function);
    if (failed(contract) || failed(verifyFunctionPlan(function)))
      return failure();
    contracts.push_back(std::move(*contract));
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by memplan-translate --memplan-to-cuda. Do not edit.\n"
        "// Every intermediate lives in one arena at the offset memplan "
        "planned; kernels\n// are calls into the memplan runtime "
        "(memplan/runtime/Runtime.h). See\n// docs/codegen.md.\n\n";
  os << "#include \"memplan/runtime/Runtime.h\"\n\n";
  os << "#define MEMPLAN_CHECK(call)                                           "
        " \\\n"
        "  do {                                                                "
        "\\\n"
        "    int status_ = (call);                                             "
        "\\\n"
        "    if (status_ != MPRT_OK)                                           "
        "\\\n"
        "      return status_;                                                 "
        "\\\n"
        "  } while (0)\n\n";
  std::optional<size_t> mainFunction;
  for (auto [index, function] : llvm::enumerate(functions)) {
    if (failed(FunctionEmitter(function, contracts[index], os).emit()))
      return failure();
    if (options.emitMain && !mainFunction &&
        (options.mainFunction.empty() ||
         function.getName() == options.mainFunction))
      mainFunction = index;
  }
  if (options.emitMain) {
    if (!mainFunction)
      return module->emitError("no function with a body named '")
             << options.mainFunction << "' to run from main";
    if (failed(FunctionEmitter(functions[*mainFunction],
                               contracts[*mainFunction], os)
                   .emitMain()))
      return failure();
  }
  output << text;
  return success();
}

void memplan::registerToCudaTranslation() {
  static llvm::cl::opt<bool> emitMain(
      "memplan-cuda-main",
      llvm::cl::desc("Also emit a main that runs one function on "
                     "deterministic inputs (see docs/codegen.md)"),
      llvm::cl::init(false));
  static llvm::cl::opt<std::string> mainFunction(
      "memplan-cuda-main-function",
      llvm::cl::desc("The function main runs (default: the first)"),
      llvm::cl::init(""));
  TranslateFromMLIRRegistration registration(
      "memplan-to-cuda", "Translate planned memplan graphs to CUDA C++",
      [](Operation *op, raw_ostream &os) {
        CudaEmitterOptions options;
        options.emitMain = emitMain;
        options.mainFunction = mainFunction;
        return translateToCuda(op, os, options);
      },
      [](DialectRegistry &registry) {
        registry.insert<MemPlanDialect, func::FuncDialect>();
      });
}
