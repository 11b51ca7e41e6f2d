//===- TypeByteSizeTest.cpp - Bytes of shaped types -----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace memplan;

namespace {

class TypeByteSizeTest : public ::testing::Test {
protected:
  MLIRContext context;
  Builder b{&context};
};

TEST_F(TypeByteSizeTest, DenseTensors) {
  ByteSize size =
      getByteSize(RankedTensorType::get({1, 1024, 768}, b.getF16Type()));
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(size.bytes, 1024u * 768u * 2u);
  EXPECT_EQ(getByteSize(RankedTensorType::get({3}, b.getF32Type())).bytes, 12u);
  EXPECT_EQ(getByteSize(RankedTensorType::get({}, b.getI64Type())).bytes, 8u);
  EXPECT_EQ(getByteSize(MemRefType::get({4, 4}, b.getBF16Type())).bytes, 32u);
}

TEST_F(TypeByteSizeTest, SubByteElementsArePacked) {
  EXPECT_EQ(
      getByteSize(RankedTensorType::get({4096, 4096}, b.getIntegerType(4)))
          .bytes,
      4096u * 4096u / 2u);
  // An odd count of i4 rounds up to a whole byte; i1 packs eight per byte.
  EXPECT_EQ(getByteSize(RankedTensorType::get({3}, b.getIntegerType(4))).bytes,
            2u);
  EXPECT_EQ(getByteSize(RankedTensorType::get({9}, b.getI1Type())).bytes, 2u);
}

TEST_F(TypeByteSizeTest, ZeroSizedIsValid) {
  ByteSize size = getByteSize(RankedTensorType::get({0, 768}, b.getF16Type()));
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(size.bytes, 0u);
}

TEST_F(TypeByteSizeTest, LargestSizesFit) {
  // 2^62 bytes of i8, and 2^65 elements of i1 (2^62 bytes): both fit 64 bits
  // even though their bit counts do not.
  EXPECT_EQ(
      getByteSize(RankedTensorType::get({int64_t(1) << 62}, b.getI8Type()))
          .bytes,
      uint64_t(1) << 62);
  EXPECT_EQ(
      getByteSize(RankedTensorType::get({int64_t(1) << 62, 8}, b.getI1Type()))
          .bytes,
      uint64_t(1) << 62);
  // A zero dimension makes any shape empty.
  EXPECT_EQ(
      getByteSize(RankedTensorType::get({int64_t(1) << 62, int64_t(1) << 62, 0},
                                        b.getF32Type()))
          .status,
      ByteSizeStatus::Ok);
}

TEST_F(TypeByteSizeTest, FailuresAreToldApart) {
  EXPECT_EQ(getByteSize(RankedTensorType::get({ShapedType::kDynamic, 4},
                                              b.getF32Type()))
                .status,
            ByteSizeStatus::DynamicShape);
  EXPECT_EQ(getByteSize(UnrankedTensorType::get(b.getF32Type())).status,
            ByteSizeStatus::DynamicShape);
  EXPECT_EQ(getByteSize(b.getF32Type()).status, ByteSizeStatus::NotShaped);
  EXPECT_EQ(getByteSize(RankedTensorType::get({4}, b.getNoneType())).status,
            ByteSizeStatus::UnsizedElementType);
  // 2^62 elements of 4 bytes is 2^64 bytes: one past the largest count.
  EXPECT_EQ(
      getByteSize(RankedTensorType::get({int64_t(1) << 62}, b.getF32Type()))
          .status,
      ByteSizeStatus::Overflow);
  EXPECT_EQ(
      getByteSize(RankedTensorType::get({int64_t(1) << 40, int64_t(1) << 30},
                                        b.getI8Type()))
          .status,
      ByteSizeStatus::Overflow);
}

TEST_F(TypeByteSizeTest, ElementWidths) {
  EXPECT_EQ(getElementBitWidth(b.getIndexType()), 64u);
  EXPECT_EQ(getElementBitWidth(ComplexType::get(b.getF32Type())), 64u);
  EXPECT_EQ(getElementBitWidth(VectorType::get({4}, b.getF16Type())), 64u);
  EXPECT_FALSE(getElementBitWidth(b.getNoneType()).has_value());
}

} // namespace
