//===- BufferLivenessTest.cpp - Lifetimes from IR -------------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/BufferLiveness.h"

#include "memplan/Dialect/MemPlan/IR/MemPlanDialect.h"
#include "memplan/Dialect/MemPlan/IR/MemPlanInterfaces.h"
#include "memplan/Planner/Algorithms.h"
#include "memplan/Planner/Validator.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace memplan;

namespace {

class BufferLivenessTest : public ::testing::Test {
protected:
  BufferLivenessTest() {
    context.loadDialect<MemPlanDialect, func::FuncDialect,
                        memref::MemRefDialect>();
  }

  /// Parses a module with one function and analyses it.
  FailureOr<BufferLiveness> analyse(StringRef text, bool inPlace = true) {
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    if (!module)
      return failure();
    function = *module->getOps<func::FuncOp>().begin();
    InPlacePolicy policy;
    if (inPlace)
      policy = [](OpResult, unsigned) { return true; };
    return BufferLiveness::compute(function.getBody(), policy);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp function;
};

TEST_F(BufferLivenessTest, IntervalsAreHalfOpenOpPositions) {
  FailureOr<BufferLiveness> liveness = analyse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = memplan.gelu %x : tensor<4xf32>
      %1 = memplan.transpose %0 permutation = [0] : tensor<4xf32> -> tensor<4xf32>
      %2 = memplan.transpose %x permutation = [0] : tensor<4xf32> -> tensor<4xf32>
      %3 = memplan.add %1, %2 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %3 : tensor<4xf32>
    })mlir",
                                               /*inPlace=*/false);
  ASSERT_TRUE(succeeded(liveness));
  ArrayRef<LiveBuffer> buffers = liveness->getBuffers();
  ASSERT_EQ(buffers.size(), 4u);
  std::pair<int64_t, int64_t> expected[] = {{0, 2}, {1, 4}, {2, 4}, {3, 5}};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(buffers[i].start, expected[i].first) << i;
    EXPECT_EQ(buffers[i].end, expected[i].second) << i;
    EXPECT_EQ(buffers[i].bytes, 16u);
  }
  EXPECT_EQ(liveness->getNumPositions(), 5);
  ASSERT_EQ(liveness->getExternals().size(), 1u);
  EXPECT_EQ(liveness->getExternalBytes(), 16u);
}

TEST_F(BufferLivenessTest, InPlaceNeedsTheOperandToDie) {
  FailureOr<BufferLiveness> liveness = analyse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = memplan.gelu %x : tensor<4xf32>
      %1 = memplan.relu %0 : tensor<4xf32>
      %2 = memplan.silu %1 : tensor<4xf32>
      %3 = memplan.add %0, %2 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %3 : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(succeeded(liveness));
  // %1 cannot overwrite %0 (used again by %3); %2 overwrites %1; %3
  // overwrites %0, its first operand, which dies there.
  ArrayRef<LiveBuffer> buffers = liveness->getBuffers();
  ASSERT_EQ(buffers.size(), 2u);
  ASSERT_EQ(buffers[0].values.size(), 2u);
  EXPECT_EQ(buffers[0].values[1].role, BufferValue::Role::InPlace);
  EXPECT_EQ(buffers[0].start, 0);
  EXPECT_EQ(buffers[0].end, 5);
  ASSERT_EQ(buffers[1].values.size(), 2u);
  EXPECT_EQ(buffers[1].start, 1);
  EXPECT_EQ(buffers[1].end, 4);
}

TEST_F(BufferLivenessTest, InPlacePolicyIsConsulted) {
  int asked = 0;
  module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = memplan.gelu %x : tensor<4xf32>
      %1 = memplan.relu %0 : tensor<4xf32>
      return %1 : tensor<4xf32>
    })mlir",
                                       &context);
  ASSERT_TRUE(module);
  function = *module->getOps<func::FuncOp>().begin();
  FailureOr<BufferLiveness> liveness = BufferLiveness::compute(
      function.getBody(), [&](OpResult, unsigned operand) {
        ++asked;
        EXPECT_EQ(operand, 0u);
        return false;
      });
  ASSERT_TRUE(succeeded(liveness));
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(liveness->getBuffers().size(), 2u);
}

// A downstream op (here tensor.concat and tensor.extract_slice, given the
// interface by an external model) may offer any operand for in-place reuse;
// the interface's contract is that the operand's buffer is used only when it
// is at least as large as the result. No memplan op offers a smaller one, so
// only a model like this reaches the check.
struct OffersItsFirstOperand
    : BufferPlanningOpInterface::ExternalModel<OffersItsFirstOperand,
                                               tensor::ConcatOp> {
  SmallVector<unsigned> getInPlaceOperands(Operation *, unsigned) const {
    return {0};
  }
};
struct SliceOffersItsSource
    : BufferPlanningOpInterface::ExternalModel<SliceOffersItsSource,
                                               tensor::ExtractSliceOp> {
  SmallVector<unsigned> getInPlaceOperands(Operation *, unsigned) const {
    return {0};
  }
};

TEST_F(BufferLivenessTest, InPlaceNeedsALargeEnoughBuffer) {
  context.loadDialect<tensor::TensorDialect>();
  tensor::ConcatOp::attachInterface<OffersItsFirstOperand>(context);
  tensor::ExtractSliceOp::attachInterface<SliceOffersItsSource>(context);
  // The same shape of program twice: a 16-byte buffer that dies at an op
  // offering it in place. The concat's result (32 bytes) does not fit in
  // it and gets a buffer of its own; the slice's (8 bytes) does and takes it.
  FailureOr<BufferLiveness> grows = analyse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {
      %a = memplan.gelu %x : tensor<4xf32>
      %c = tensor.concat dim(0) %a, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
      return %c : tensor<8xf32>
    })mlir");
  ASSERT_TRUE(succeeded(grows));
  ASSERT_EQ(grows->getBuffers().size(), 2u);
  EXPECT_EQ(grows->getBuffers()[0].bytes, 16u);
  EXPECT_EQ(grows->getBuffers()[1].bytes, 32u);

  FailureOr<BufferLiveness> shrinks = analyse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<2xf32> {
      %a = memplan.gelu %x : tensor<4xf32>
      %s = tensor.extract_slice %a[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
      return %s : tensor<2xf32>
    })mlir");
  ASSERT_TRUE(succeeded(shrinks));
  ASSERT_EQ(shrinks->getBuffers().size(), 1u);
  EXPECT_EQ(shrinks->getBuffers()[0].bytes, 16u);
  EXPECT_EQ(shrinks->getBuffers()[0].values.size(), 2u);
}

TEST_F(BufferLivenessTest, CastsShareABufferOnlyBetweenEqualWidths) {
  // The f32 -> f16 cast of an argument gets a buffer of its own; the casts
  // between f16 and bf16 (one width) after it take that buffer in place.
  FailureOr<BufferLiveness> liveness = analyse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf16> {
      %0 = memplan.cast %x : tensor<4xf32> -> tensor<4xf16>
      %1 = memplan.cast %0 : tensor<4xf16> -> tensor<4xbf16>
      %2 = memplan.cast %1 : tensor<4xbf16> -> tensor<4xf16>
      return %2 : tensor<4xf16>
    })mlir");
  ASSERT_TRUE(succeeded(liveness));
  ASSERT_EQ(liveness->getBuffers().size(), 1u);
  EXPECT_EQ(liveness->getBuffers()[0].values.size(), 3u);
}

// Memrefs alias and escape in ways value liveness does not see: the tensor
// analysis refuses them and names the pass that plans them
// (MemRefAliasModelTest covers their views).
TEST_F(BufferLivenessTest, MemRefsAreRefused) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    message = diagnostic.str();
    return success();
  });
  FailureOr<BufferLiveness> liveness = analyse(R"mlir(
    func.func @f() {
      %a = memref.alloc() : memref<16x4xf32>
      %v = memref.collapse_shape %a [[0, 1]] : memref<16x4xf32> into memref<64xf32>
      return
    })mlir");
  EXPECT_TRUE(failed(liveness));
  EXPECT_NE(message.find("--memplan-pack-allocs"), std::string::npos)
      << message;
}

TEST_F(BufferLivenessTest, ProblemPlansAndValidates) {
  FailureOr<BufferLiveness> liveness = analyse(R"mlir(
    func.func @f(%q: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
      %0 = memplan.attention %q, %q, %q : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
      %1 = memplan.gelu %0 : tensor<1x2x8x16xf32>
      return %1 : tensor<1x2x8x16xf32>
    })mlir");
  ASSERT_TRUE(succeeded(liveness));
  memplan::Problem problem = liveness->toProblem(256);
  ASSERT_EQ(problem.buffers.size(), 2u);
  EXPECT_EQ(problem.buffers[1].size, 128u); // scratch
  EXPECT_EQ(problem.buffers[1].start, 0);
  EXPECT_EQ(problem.buffers[1].end, 1);
  memplan::PlanResult result =
      memplan::plan(problem, memplan::Algorithm::GreedyBySize);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(memplan::validateSolution(problem, result.solution));
  EXPECT_EQ(result.solution.arenaSize, 1024u + 128u);
}

TEST_F(BufferLivenessTest, DynamicShapesFail) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  FailureOr<BufferLiveness> liveness = analyse(R"mlir(
    func.func @f(%x: tensor<4xf32>) {
      %0 = memplan.op "dyn"(%x) : (tensor<4xf32>) -> tensor<?xf32>
      return
    })mlir");
  EXPECT_TRUE(failed(liveness));
  EXPECT_NE(message.find("has a dynamic shape"), std::string::npos) << message;
}

} // namespace
