//===- MemRefByteSize.cpp - Bytes of a memref as the lowering stores it ---===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/MemRefByteSize.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace memplan;

/// Whether the DataLayout can size `type` without aborting: it reports a
/// fatal error for types it has no rule for.
static bool hasDataLayoutSize(Type type) {
  if (isa<IntegerType, FloatType, IndexType, DataLayoutTypeInterface>(type))
    return true;
  if (auto complex = dyn_cast<ComplexType>(type))
    return hasDataLayoutSize(complex.getElementType());
  if (auto vector = dyn_cast<VectorType>(type))
    return !vector.isScalable() &&
           isa<IntegerType, FloatType, IndexType>(vector.getElementType());
  return false;
}

/// `index` as the integer the lowering turns it into: the DataLayout's own
/// default ABI alignment for index (4 bytes) is not i64's (8).
static Type lowerIndex(Type type, const DataLayout &layout) {
  auto asInteger = [&](Type element) -> Type {
    if (!isa<IndexType>(element))
      return element;
    return IntegerType::get(element.getContext(),
                            layout.getTypeSizeInBits(element).getFixedValue());
  };
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(asInteger(vector.getElementType()));
  return asInteger(type);
}

std::optional<ElementLayout>
memplan::getElementLayout(Type elementType, const DataLayout &layout) {
  if (!hasDataLayoutSize(elementType))
    return std::nullopt;
  elementType = lowerIndex(elementType, layout);
  uint64_t size = layout.getTypeSize(elementType).getFixedValue();
  // MLIR's default DataLayout is LLVM's target-less one (i64 aligned to 4
  // bytes), not the target's (x86-64 and NVPTX align i64 to 8): the natural
  // alignment of each scalar, its power-of-two size up to 16 bytes, is never
  // too small on any target.
  Type scalar = elementType;
  if (auto complex = dyn_cast<ComplexType>(scalar))
    scalar = complex.getElementType();
  uint64_t natural = std::min<uint64_t>(
      16, llvm::PowerOf2Ceil(layout.getTypeSize(scalar).getFixedValue()));
  uint64_t alignment =
      std::max<uint64_t>({1, natural, layout.getTypeABIAlignment(elementType)});
  if (!llvm::isPowerOf2_64(alignment))
    return std::nullopt;
  return ElementLayout{llvm::alignTo(size, alignment), alignment};
}

ByteSize
memplan::getAllocationByteSize(MemRefType type,
                               ArrayRef<std::optional<int64_t>> dynamicSizes,
                               const DataLayout &layout) {
  std::optional<ElementLayout> element =
      getElementLayout(type.getElementType(), layout);
  if (!element)
    return {ByteSizeStatus::UnsizedElementType, 0};
  SmallVector<uint64_t> sizes;
  unsigned dynamic = 0;
  for (int64_t dim : type.getShape()) {
    std::optional<int64_t> size = dim;
    if (ShapedType::isDynamic(dim))
      size = dynamic < dynamicSizes.size() ? dynamicSizes[dynamic++]
                                           : std::nullopt;
    if (!size || *size < 0)
      return {ByteSizeStatus::DynamicShape, 0};
    sizes.push_back(static_cast<uint64_t>(*size));
  }
  // A zero-sized dimension gives zero bytes, whatever the others are.
  if (llvm::is_contained(sizes, 0))
    return {ByteSizeStatus::Ok, 0};
  uint64_t bytes = element->bytes;
  bool overflowed = false;
  for (uint64_t size : sizes)
    bytes = llvm::SaturatingMultiply(bytes, size, &overflowed);
  if (overflowed)
    return {ByteSizeStatus::Overflow, 0};
  return {ByteSizeStatus::Ok, bytes};
}
