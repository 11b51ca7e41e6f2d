//===- ElementAccess.h - Loading and storing any dtype as float -*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the host runtime: the reference kernels compute in float (in
// double for integer casts) and convert at the edges, with IEEE
// round-to-nearest-even for f16 and bf16, as CUDA's __float2half_rn and
// __float2bfloat16_rn do.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_RUNTIME_HOST_ELEMENTACCESS_H
#define MEMPLAN_RUNTIME_HOST_ELEMENTACCESS_H

#include "../common/ElementSemantics.h"
#include "memplan/runtime/Runtime.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace memplan::rt {

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else { // subnormal: normalise
      exponent = 127 - 15 + 1;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        --exponent;
      }
      mantissa &= 0x3ff;
      bits = sign | (exponent << 23) | (mantissa << 13);
    }
  } else if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = (bits >> 16) & 0x8000;
  uint32_t exponent = (bits >> 23) & 0xff;
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff) // inf or nan
    return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  int32_t e = int32_t(exponent) - 127 + 15;
  if (e >= 0x1f)
    return sign | 0x7c00; // overflow to inf
  if (e <= 0) {
    if (e < -10)
      return sign; // underflow to zero
    mantissa |= 0x800000;
    uint32_t shift = uint32_t(14 - e);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return sign | uint16_t(half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, up to inf: correct
  return sign | uint16_t(half);
}

inline float bf16ToFloat(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t floatToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return uint16_t((bits >> 16) | 0x40); // quiet nan
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

inline float load(mprt_dtype dtype, const void *data, int64_t i) {
  switch (dtype) {
  case MPRT_F32:
    return static_cast<const float *>(data)[i];
  case MPRT_F16:
    return halfToFloat(static_cast<const uint16_t *>(data)[i]);
  case MPRT_BF16:
    return bf16ToFloat(static_cast<const uint16_t *>(data)[i]);
  case MPRT_I8:
    return static_cast<const int8_t *>(data)[i];
  case MPRT_I32:
    return float(static_cast<const int32_t *>(data)[i]);
  case MPRT_I64:
    return float(static_cast<const int64_t *>(data)[i]);
  }
  return 0;
}

inline void store(mprt_dtype dtype, void *data, int64_t i, float value) {
  switch (dtype) {
  case MPRT_F32:
    static_cast<float *>(data)[i] = value;
    return;
  case MPRT_F16:
    static_cast<uint16_t *>(data)[i] = floatToHalf(value);
    return;
  case MPRT_BF16:
    static_cast<uint16_t *>(data)[i] = floatToBf16(value);
    return;
  default:
    return; // integers are stored through storeInteger
  }
}

inline bool isFloat(mprt_dtype dtype) {
  return dtype == MPRT_F32 || dtype == MPRT_F16 || dtype == MPRT_BF16;
}

inline int64_t loadInteger(mprt_dtype dtype, const void *data, int64_t i) {
  switch (dtype) {
  case MPRT_I8:
    return static_cast<const int8_t *>(data)[i];
  case MPRT_I32:
    return static_cast<const int32_t *>(data)[i];
  case MPRT_I64:
    return static_cast<const int64_t *>(data)[i];
  default:
    return 0;
  }
}

/// Stores with saturation to the integer type's range.
inline void storeInteger(mprt_dtype dtype, void *data, int64_t i,
                         int64_t value) {
  value = saturate(dtype, value);
  switch (dtype) {
  case MPRT_I8:
    static_cast<int8_t *>(data)[i] = int8_t(value);
    return;
  case MPRT_I32:
    static_cast<int32_t *>(data)[i] = int32_t(value);
    return;
  case MPRT_I64:
    static_cast<int64_t *>(data)[i] = value;
    return;
  default:
    return;
  }
}

} // namespace memplan::rt

#endif // MEMPLAN_RUNTIME_HOST_ELEMENTACCESS_H
