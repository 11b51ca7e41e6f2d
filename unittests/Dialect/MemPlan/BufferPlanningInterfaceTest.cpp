//===- BufferPlanningInterfaceTest.cpp - What ops tell the planner --------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/MemPlanOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace memplan;

namespace {

class BufferPlanningInterfaceTest : public ::testing::Test {
protected:
  BufferPlanningInterfaceTest() {
    context.loadDialect<MemPlanDialect, func::FuncDialect>();
  }

  /// Parses `body` as the body of a function with arguments `args` and
  /// returns its operations in order (without the terminator).
  SmallVector<Operation *> parseBody(StringRef args, StringRef body) {
    std::string text =
        ("func.func @f(" + args + ") {\n" + body + "\n  return\n}\n").str();
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module) << text;
    SmallVector<Operation *> ops;
    if (!module)
      return ops;
    module->walk([&](Operation *op) {
      if (op->getDialect() && isa<MemPlanDialect>(op->getDialect()))
        ops.push_back(op);
    });
    return ops;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// Every op the dialect registers, not a sample: an op added without the
// interface would be planned by nobody.
TEST_F(BufferPlanningInterfaceTest, EveryOpImplementsTheInterface) {
  unsigned count = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != MemPlanDialect::getDialectNamespace())
      continue;
    ++count;
    EXPECT_TRUE(name.hasInterface<BufferPlanningOpInterface>())
        << name.getStringRef().str();
  }
  // The dialect's ops are there to be checked (a loading mistake would
  // leave the loop empty).
  EXPECT_GE(count, 20u);
}

TEST_F(BufferPlanningInterfaceTest, ViewsAliasTheirSource) {
  SmallVector<Operation *> ops = parseBody(
      "%x: tensor<2x8xf16>, %c: tensor<1x2x16x4xf16>, "
      "%u: tensor<1x2x1x4xf16>, %p: index",
      "%0 = memplan.reshape %x : tensor<2x8xf16> -> tensor<16xf16>\n"
      "%1 = memplan.kv_cache_update %c, %u, %p : tensor<1x2x16x4xf16>, "
      "tensor<1x2x1x4xf16>\n"
      "%2 = memplan.transpose %x permutation = [1, 0] : tensor<2x8xf16> -> "
      "tensor<8x2xf16>");
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(cast<BufferPlanningOpInterface>(ops[0]).getAliasedOperand(0), 0u);
  EXPECT_EQ(cast<BufferPlanningOpInterface>(ops[1]).getAliasedOperand(0), 0u);
  EXPECT_EQ(cast<BufferPlanningOpInterface>(ops[2]).getAliasedOperand(0),
            std::nullopt);
}

TEST_F(BufferPlanningInterfaceTest, InPlaceOnlyOverSameTypedOperands) {
  SmallVector<Operation *> ops = parseBody(
      "%x: tensor<2x8xf16>, %b: tensor<8xf16>, %i: tensor<2x8xi16>",
      "%0 = memplan.add %x, %b : tensor<2x8xf16>, tensor<8xf16> -> "
      "tensor<2x8xf16>\n"
      "%1 = memplan.mul %x, %x : tensor<2x8xf16>, tensor<2x8xf16> -> "
      "tensor<2x8xf16>\n"
      "%2 = memplan.silu %x : tensor<2x8xf16>\n"
      "%3 = memplan.cast %x : tensor<2x8xf16> -> tensor<2x8xf32>\n"
      "%4 = memplan.cast %x : tensor<2x8xf16> -> tensor<2x8xbf16>\n"
      "%5 = memplan.transpose %x permutation = [0, 1] : tensor<2x8xf16> -> "
      "tensor<2x8xf16>");
  ASSERT_EQ(ops.size(), 6u);
  auto inPlace = [&](int i) {
    return cast<BufferPlanningOpInterface>(ops[i]).getInPlaceOperands(0);
  };
  EXPECT_EQ(inPlace(0), SmallVector<unsigned>({0}));
  EXPECT_EQ(inPlace(1), SmallVector<unsigned>({0, 1}));
  EXPECT_EQ(inPlace(2), SmallVector<unsigned>({0}));
  EXPECT_TRUE(inPlace(3).empty()); // widening: would overwrite unread input
  EXPECT_EQ(inPlace(4), SmallVector<unsigned>({0}));
  EXPECT_TRUE(inPlace(5).empty()); // a transpose moves elements
}

TEST_F(BufferPlanningInterfaceTest, ScratchBytes) {
  SmallVector<Operation *> ops = parseBody(
      "%q: tensor<2x12x1024x64xf16>, %x: tensor<4xf32>",
      "%0 = memplan.attention %q, %q, %q {causal} : tensor<2x12x1024x64xf16>, "
      "tensor<2x12x1024x64xf16>, tensor<2x12x1024x64xf16> -> "
      "tensor<2x12x1024x64xf16>\n"
      "%1 = memplan.op \"k\"(%x) {scratch = 4096 : i64} : (tensor<4xf32>) -> "
      "tensor<4xf32>\n"
      "%2 = memplan.op \"k\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "%3 = memplan.gelu %x : tensor<4xf32>\n"
      "%4 = memplan.matmul %q, %q {transpose_rhs, workspace_bytes = 65536 : "
      "i64} : tensor<2x12x1024x64xf16>, tensor<2x12x1024x64xf16> -> "
      "tensor<2x12x1024x1024xf16>\n"
      "%5 = memplan.op \"gemm\"(%x) {scratch = 1024 : i64, library_workspace} "
      ": (tensor<4xf32>) -> tensor<4xf32>");
  ASSERT_EQ(ops.size(), 6u);
  auto scratch = [&](int i) {
    FailureOr<uint64_t> bytes =
        cast<BufferPlanningOpInterface>(ops[i]).getScratchBytes();
    EXPECT_TRUE(succeeded(bytes));
    return succeeded(bytes) ? *bytes : ~uint64_t(0);
  };
  EXPECT_EQ(scratch(0), 2u * 12u * 1024u * 8u);
  EXPECT_EQ(scratch(1), 4096u);
  EXPECT_EQ(scratch(2), 0u);
  EXPECT_EQ(scratch(3), 0u);
  EXPECT_EQ(scratch(4), 65536u);
  EXPECT_EQ(scratch(5), 1024u);
  // Whose scratch is a math library's workspace: a matmul's, and a generic
  // op's that says so; an attention's and other generic ops' are their own.
  auto workspace = [&](int i) {
    return cast<BufferPlanningOpInterface>(ops[i]).isScratchLibraryWorkspace();
  };
  EXPECT_FALSE(workspace(0));
  EXPECT_FALSE(workspace(1));
  EXPECT_FALSE(workspace(3));
  EXPECT_TRUE(workspace(4));
  EXPECT_TRUE(workspace(5));
}

} // namespace
