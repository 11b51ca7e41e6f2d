//===- TypeByteSize.cpp - Bytes a shaped value occupies -------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Dialect/MemPlan/IR/TypeByteSize.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace memplan;

std::optional<uint64_t> memplan::getElementBitWidth(Type elementType) {
  if (elementType.isIntOrFloat())
    return elementType.getIntOrFloatBitWidth();
  if (isa<IndexType>(elementType))
    return IndexType::kInternalStorageBitWidth;
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    std::optional<uint64_t> part = getElementBitWidth(complex.getElementType());
    if (!part)
      return std::nullopt;
    return 2 * *part;
  }
  if (auto vector = dyn_cast<VectorType>(elementType)) {
    ByteSize size = getByteSize(vector);
    if (!size.ok() || size.bytes > UINT64_MAX / 8)
      return std::nullopt;
    return size.bytes * 8;
  }
  return std::nullopt;
}

ByteSize memplan::getByteSize(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || (!isa<TensorType, BaseMemRefType, VectorType>(type)))
    return {ByteSizeStatus::NotShaped, 0};
  if (!shaped.hasStaticShape())
    return {ByteSizeStatus::DynamicShape, 0};
  std::optional<uint64_t> bits = getElementBitWidth(shaped.getElementType());
  if (!bits)
    return {ByteSizeStatus::UnsizedElementType, 0};
  // A zero-sized dimension gives zero bytes, which is valid, whatever the
  // other dimensions are.
  if (llvm::is_contained(shaped.getShape(), 0))
    return {ByteSizeStatus::Ok, 0};
  // Count bits in 128 bits, stopping as soon as the count is past the most
  // bits that round up to a 64-bit byte count.
  using uint128 = unsigned __int128;
  const uint128 maxBits = uint128(UINT64_MAX) * 8;
  uint128 totalBits = *bits;
  for (int64_t dim : shaped.getShape()) {
    if (totalBits > maxBits / static_cast<uint64_t>(dim))
      return {ByteSizeStatus::Overflow, 0};
    totalBits *= static_cast<uint64_t>(dim);
  }
  if (totalBits > maxBits)
    return {ByteSizeStatus::Overflow, 0};
  return {ByteSizeStatus::Ok, static_cast<uint64_t>((totalBits + 7) / 8)};
}

llvm::StringRef memplan::describeByteSizeFailure(ByteSizeStatus status) {
  switch (status) {
  case ByteSizeStatus::Ok:
    return "has a size";
  case ByteSizeStatus::NotShaped:
    return "is not a tensor or memref";
  case ByteSizeStatus::DynamicShape:
    return "has a dynamic shape";
  case ByteSizeStatus::UnsizedElementType:
    return "has an element type without a size";
  case ByteSizeStatus::Overflow:
    return "has a byte size that overflows 64 bits";
  }
  return "has an unknown size";
}
