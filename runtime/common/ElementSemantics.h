//===- ElementSemantics.h - Results both runtimes share ---------*- C++ -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The host runtime (runtime/host) and the CUDA runtime (runtime/cuda) include
// this one header for their status strings and element sizes, binary
// arithmetic, and every result that is not plain float arithmetic, so
// that they agree by construction where C++ leaves the answer open or a GPU
// cannot stop and report: integer overflow and division, float-to-integer
// conversion, attention rows that see no key and where each row goes,
// RoPE's inverse frequencies,
// and the errors kernels find in data (reported at mprt_synchronize, never by
// waiting inside a step). runtime-edge-cases.test pins each case.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_RUNTIME_COMMON_ELEMENTSEMANTICS_H
#define MEMPLAN_RUNTIME_COMMON_ELEMENTSEMANTICS_H

#include "memplan/runtime/Runtime.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define MPRT_HOST_DEVICE __host__ __device__
#else
#define MPRT_HOST_DEVICE
#endif

namespace memplan::rt {

/// mprt_status_string of both runtimes.
inline const char *statusString(int status) {
  switch (status) {
  case MPRT_OK:
    return "ok";
  case MPRT_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case MPRT_ERROR_CUDA:
    return "CUDA error";
  case MPRT_ERROR_CUBLAS:
    return "cuBLAS error";
  case MPRT_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case MPRT_ERROR_UNSUPPORTED:
    return "unsupported";
  }
  return "unknown status";
}

/// mprt_dtype_bytes of both runtimes.
inline size_t dtypeBytes(mprt_dtype dtype) {
  switch (dtype) {
  case MPRT_F32:
  case MPRT_I32:
    return 4;
  case MPRT_F16:
  case MPRT_BF16:
    return 2;
  case MPRT_I8:
    return 1;
  case MPRT_I64:
    return 8;
  }
  return 0;
}

/// Errors a kernel finds in data, as bits of the context's error word.
enum DataError : int {
  kEmbeddingIdOutOfRange = 1,
  kIntegerDivisionByZero = 2,
};

/// The message mprt_synchronize reports for the error bits `errors`.
inline const char *dataErrorMessage(int errors) {
  switch (errors & 3) {
  case kEmbeddingIdOutOfRange:
    return "embedding id out of range (found on the device since the last "
           "mprt_synchronize)";
  case kIntegerDivisionByZero:
    return "integer division by zero (found on the device since the last "
           "mprt_synchronize)";
  case kEmbeddingIdOutOfRange | kIntegerDivisionByZero:
    return "embedding id out of range; integer division by zero (found on "
           "the device since the last mprt_synchronize)";
  }
  return nullptr;
}

/// A float binary op, in float.
MPRT_HOST_DEVICE inline float floatBinary(mprt_binary_op op, float x, float y) {
  switch (op) {
  case MPRT_ADD:
    return x + y;
  case MPRT_SUB:
    return x - y;
  case MPRT_MUL:
    return x * y;
  case MPRT_DIV:
    return x / y;
  }
  return 0;
}

/// add, sub and mul wrap around in 64-bit two's complement (computed on
/// unsigned values: no undefined behaviour); division truncates toward zero,
/// INT64_MIN / -1 wraps to INT64_MIN, and x / 0 is 0 with
/// kIntegerDivisionByZero set in `errors`. The result is then saturated to
/// the stored type (saturate).
MPRT_HOST_DEVICE inline int64_t integerBinary(mprt_binary_op op, int64_t x,
                                              int64_t y, int &errors) {
  uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  switch (op) {
  case MPRT_ADD:
    return static_cast<int64_t>(ux + uy);
  case MPRT_SUB:
    return static_cast<int64_t>(ux - uy);
  case MPRT_MUL:
    return static_cast<int64_t>(ux * uy);
  case MPRT_DIV:
    if (y == 0) {
      errors |= kIntegerDivisionByZero;
      return 0;
    }
    if (y == -1)
      return static_cast<int64_t>(0 - ux); // INT64_MIN / -1 wraps
    return x / y;
  }
  return 0;
}

/// `value` clamped to the range of the integer type `dtype`.
MPRT_HOST_DEVICE inline int64_t saturate(mprt_dtype dtype, int64_t value) {
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (dtype == MPRT_I8) {
    lo = -128;
    hi = 127;
  } else if (dtype == MPRT_I32) {
    lo = INT32_MIN;
    hi = INT32_MAX;
  }
  return value < lo ? lo : value > hi ? hi : value;
}

/// Float to integer: round half to even, saturate to 64 bits; NaN is 0.
MPRT_HOST_DEVICE inline int64_t saturatingRound(double value) {
  if (value != value)
    return 0;
  if (value >= 9.2233720368547758e18)
    return INT64_MAX;
  if (value <= -9.2233720368547758e18)
    return INT64_MIN;
  return static_cast<int64_t>(rint(value));
}

/// An attention row's output from its weighted sum and its softmax
/// denominator: a row that sees no key (causal, more queries than keys) is
/// 0, not 0 / 0.
MPRT_HOST_DEVICE inline float attentionOutput(float accumulator, float sum) {
  return sum > 0 ? accumulator / sum : 0.0f;
}

/// The output row of query `i` of head `head` in batch `b`: [b, q_heads,
/// q_len] order, or [b, q_len, q_heads] with token_major.
MPRT_HOST_DEVICE inline int64_t attentionOutputRow(const mprt_attention_desc &d,
                                                   int64_t b, int64_t head,
                                                   int64_t i) {
  return d.token_major ? (b * d.q_len + i) * d.q_heads + head
                       : (b * d.q_heads + head) * d.q_len + i;
}

/// RoPE's inverse frequency of pair `i` of a head of `headDim`:
/// theta^(-2i / headDim), computed in double and rounded to float once, as
/// Hugging Face's `inv_freq` buffer holds it; a rotation angle is then
/// float(position) * inverseFrequency, in float.
MPRT_HOST_DEVICE inline float ropeInverseFrequency(int64_t i, int64_t headDim,
                                                   double theta) {
  return static_cast<float>(
      pow(theta, -2.0 * static_cast<double>(i) / static_cast<double>(headDim)));
}

/// GELU, tanh approximation (GPT-2's).
MPRT_HOST_DEVICE inline float gelu(float x) {
  const float k = 0.7978845608028654f; // sqrt(2 / pi)
  return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
}

} // namespace memplan::rt

#endif // MEMPLAN_RUNTIME_COMMON_ELEMENTSEMANTICS_H
