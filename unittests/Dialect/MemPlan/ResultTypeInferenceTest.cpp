//===- ResultTypeInferenceTest.cpp - Ops built without result types -------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ops whose result type follows from their operands implement
// InferTypeOpInterface: builders take no result type, and the type they
// infer is the one the verifier accepts. The expected types here are written
// out by hand from each op's documented semantics, not computed.
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace memplan;

namespace {

class ResultTypeInferenceTest : public ::testing::Test {
protected:
  ResultTypeInferenceTest() : builder(&context) {
    context.loadDialect<MemPlanDialect, func::FuncDialect>();
    loc = builder.getUnknownLoc();
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A function whose arguments have `types`; the builder inserts into it.
  ValueRange arguments(ArrayRef<Type> types) {
    auto function = func::FuncOp::create(builder, loc, "f",
                                         builder.getFunctionType(types, {}));
    Block *body = function.addEntryBlock();
    builder.setInsertionPointToEnd(body);
    return body->getArguments();
  }

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }

  /// Terminates the function and verifies the module (the verifier compares
  /// each result with the type the op infers).
  bool verifies() {
    func::ReturnOp::create(builder, loc);
    return succeeded(verify(*module));
  }

  MLIRContext context;
  OpBuilder builder;
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module;
};

// The ops that take their result type from the writer, and why: the rest
// must infer theirs, so that a new op cannot silently skip the interface.
TEST_F(ResultTypeInferenceTest, EveryOpInfersItsResultTypeOrSaysWhyNot) {
  llvm::StringSet<> writerChosen = {
      "memplan.embedding", // a quantized table's rows: the float type written
      "memplan.reshape",   // the target shape
      "memplan.cast",      // the target element type
      "memplan.op",        // anything
  };
  unsigned inferred = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != MemPlanDialect::getDialectNamespace())
      continue;
    bool infers = name.hasInterface<InferTypeOpInterface>();
    EXPECT_EQ(infers, !writerChosen.contains(name.getStringRef()))
        << name.getStringRef().str();
    inferred += infers;
  }
  EXPECT_EQ(inferred, 17u);
}

TEST_F(ResultTypeInferenceTest, BuildersInferTheDocumentedTypes) {
  Type f16 = builder.getF16Type(), f32 = builder.getF32Type();
  Type i4 = builder.getIntegerType(4), i8 = builder.getI8Type();
  ValueRange args = arguments({
      tensor({2, 1, 16, 8}, f16),        // 0: x, batched
      tensor({8, 32}, f16),              // 1: w
      tensor({3, 16, 8}, f16),           // 2: a broadcast batch
      tensor({32, 8}, i4),               // 3: quantized weight, [n, k]
      tensor({4, 8}, i8),                // 4
      tensor({8, 5}, i8),                // 5
      tensor({8}, f16),                  // 6: a broadcast row
      tensor({1, 8, 6, 16}, f32),        // 7: query, 8 heads
      tensor({1, 2, 10, 16}, f32),       // 8: key, 2 kv heads
      tensor({1, 2, 10, 4}, f32),        // 9: value
      tensor({1, 2, 10, 4}, f32),        // 10: kv cache
      tensor({1, 2, 1, 4}, f32),         // 11: update
      builder.getIndexType(),            // 12
      tensor({6}, builder.getI64Type()), // 13: positions
      tensor({1, 6, 8, 16}, f32),        // 14: rope input
      tensor({2, 4}, f16),               // 15
      tensor({5, 4}, f16),               // 16
  });
  auto typeOf = [](Value value) { return value.getType(); };

  EXPECT_EQ(typeOf(MatmulOp::create(builder, loc, args[0], args[1], false,
                                    false, nullptr)),
            tensor({2, 1, 16, 32}, f16));
  EXPECT_EQ(typeOf(MatmulOp::create(builder, loc, args[0], args[2], false, true,
                                    nullptr)),
            tensor({2, 3, 16, 16}, f16));
  EXPECT_EQ(typeOf(MatmulOp::create(builder, loc, args[0], args[3], false, true,
                                    nullptr)),
            tensor({2, 1, 16, 32}, f16));
  EXPECT_EQ(typeOf(MatmulOp::create(builder, loc, args[4], args[5], false,
                                    false, nullptr)),
            tensor({4, 5}, builder.getI32Type()));
  EXPECT_EQ(typeOf(AddOp::create(builder, loc, args[0], args[6])),
            tensor({2, 1, 16, 8}, f16));
  EXPECT_EQ(typeOf(MulOp::create(builder, loc, args[6], args[2])),
            tensor({3, 16, 8}, f16));
  EXPECT_EQ(typeOf(SubOp::create(builder, loc, args[2], args[0])),
            tensor({2, 3, 16, 8}, f16));
  EXPECT_EQ(typeOf(DivOp::create(builder, loc, args[6], args[6])),
            tensor({8}, f16));
  EXPECT_EQ(typeOf(GeluOp::create(builder, loc, args[1])), args[1].getType());
  EXPECT_EQ(typeOf(SoftmaxOp::create(builder, loc, args[7], -1)),
            args[7].getType());
  EXPECT_EQ(typeOf(RMSNormOp::create(builder, loc, args[0], args[6],
                                     builder.getF64FloatAttr(1e-6))),
            args[0].getType());
  EXPECT_EQ(typeOf(RopeOp::create(builder, loc, args[14], args[13],
                                  builder.getF64FloatAttr(10000.0))),
            args[14].getType());
  EXPECT_EQ(typeOf(TransposeOp::create(builder, loc, args[7],
                                       ArrayRef<int64_t>{0, 2, 1, 3})),
            tensor({1, 6, 8, 16}, f32));
  EXPECT_EQ(
      typeOf(SliceOp::create(builder, loc, args[1], ArrayRef<int64_t>{2, 8},
                             ArrayRef<int64_t>{3, 24})),
      tensor({3, 24}, f16));
  EXPECT_EQ(typeOf(ConcatOp::create(builder, loc,
                                    ValueRange{args[15], args[16], args[15]},
                                    /*axis=*/-2)),
            tensor({9, 4}, f16));
  EXPECT_EQ(typeOf(AttentionOp::create(builder, loc, args[7], args[8], args[9],
                                       /*causal=*/true, nullptr)),
            tensor({1, 8, 6, 4}, f32));
  EXPECT_EQ(typeOf(AttentionOp::create(builder, loc, args[7], args[8], args[9],
                                       /*causal=*/true, nullptr,
                                       /*token_major=*/true)),
            tensor({1, 6, 8, 4}, f32));
  EXPECT_EQ(typeOf(KVCacheUpdateOp::create(builder, loc, args[10], args[11],
                                           args[12])),
            args[10].getType());
  EXPECT_TRUE(verifies());
}

// Inference on operands that do not fit: with a location it reports what
// the verifier reports (and fails), without one it fails silently; it never
// returns a type.
TEST_F(ResultTypeInferenceTest,
       InferenceOnBadOperandsFailsWithTheVerifierText) {
  Type f16 = builder.getF16Type();
  ValueRange args = arguments({tensor({4, 8}, f16), tensor({7, 2}, f16)});
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    messages.push_back(diag.str());
    return success();
  });
  SmallVector<Type> types;
  SmallVector<Value> operands = {args[0], args[1]};
  MatmulOp::Adaptor adaptor(operands, builder.getDictionaryAttr({}));
  EXPECT_TRUE(
      failed(MatmulOp::inferReturnTypes(&context, loc, adaptor, types)));
  EXPECT_TRUE(types.empty());
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0], "'memplan.matmul' op contracting dimensions differ: "
                         "lhs has 8, rhs has 7");

  messages.clear();
  EXPECT_TRUE(failed(
      MatmulOp::inferReturnTypes(&context, std::nullopt, adaptor, types)));
  EXPECT_TRUE(messages.empty());

  // An operand that is not a ranked tensor (never verified) is refused, not
  // cast.
  Value index = arguments({builder.getIndexType()})[0];
  SmallVector<Value> addOperands = {index, args[0]};
  AddOp::Adaptor addAdaptor(addOperands, builder.getDictionaryAttr({}));
  EXPECT_TRUE(
      failed(AddOp::inferReturnTypes(&context, loc, addAdaptor, types)));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0], "'memplan.add' op lhs must be a ranked tensor");
}

} // namespace
