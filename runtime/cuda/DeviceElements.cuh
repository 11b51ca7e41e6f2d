//===- DeviceElements.cuh - Typed elements, GPU reductions -----*- CUDA -*-===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kernels are templates over their element type (float, __half,
// __nv_bfloat16; int8_t, int32_t, int64_t): the dtype is switched on once,
// on the host, at launch (dispatchFloat, dispatchInteger, dispatchAny), not
// per element. Arithmetic is in float (integers in 64 bits).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_RUNTIME_CUDA_DEVICEELEMENTS_CUH
#define MEMPLAN_RUNTIME_CUDA_DEVICEELEMENTS_CUH

#include "../common/ElementSemantics.h"
#include "memplan/runtime/Runtime.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace memplan::cuda {

constexpr int kThreads = 256;
constexpr int kWarp = 32;

/// Blocks for one thread per element, capped: kernels stride over the rest.
inline unsigned blocksFor(int64_t count) {
  int64_t blocks = (count + kThreads - 1) / kThreads;
  return unsigned(blocks < 65535 * 16 ? blocks : 65535 * 16);
}

struct Shape {
  int64_t dims[MPRT_MAX_RANK];
};

inline Shape toShape(const int64_t *dims, int rank) {
  Shape shape{};
  for (int d = 0; d < rank; ++d)
    shape.dims[d] = dims[d];
  return shape;
}

template <typename T> __device__ __forceinline__ float toFloat(T x) {
  return float(x);
}
template <> __device__ __forceinline__ float toFloat(__half x) {
  return __half2float(x);
}
template <> __device__ __forceinline__ float toFloat(__nv_bfloat16 x) {
  return __bfloat162float(x);
}

template <typename T> __device__ __forceinline__ T fromFloat(float x) {
  return T(x);
}
template <> __device__ __forceinline__ __half fromFloat(float x) {
  return __float2half_rn(x);
}
template <> __device__ __forceinline__ __nv_bfloat16 fromFloat(float x) {
  return __float2bfloat16_rn(x);
}

template <typename T>
inline constexpr bool kIsFloatType =
    std::is_same_v<T, float> || std::is_same_v<T, __half> ||
    std::is_same_v<T, __nv_bfloat16>;

/// Calls `f(T{})` with the float type of `dtype`; false for other dtypes.
template <typename F> bool dispatchFloat(mprt_dtype dtype, F &&f) {
  switch (dtype) {
  case MPRT_F32:
    f(float{});
    return true;
  case MPRT_F16:
    f(__half{});
    return true;
  case MPRT_BF16:
    f(__nv_bfloat16{});
    return true;
  default:
    return false;
  }
}

/// Calls `f(T{})` with the integer type of `dtype`; false for other dtypes.
template <typename F> bool dispatchInteger(mprt_dtype dtype, F &&f) {
  switch (dtype) {
  case MPRT_I8:
    f(int8_t{});
    return true;
  case MPRT_I32:
    f(int32_t{});
    return true;
  case MPRT_I64:
    f(int64_t{});
    return true;
  default:
    return false;
  }
}

template <typename F> bool dispatchAny(mprt_dtype dtype, F &&f) {
  return dispatchFloat(dtype, f) || dispatchInteger(dtype, f);
}

__device__ __forceinline__ float warpSum(float value) {
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

__device__ __forceinline__ float warpMax(float value) {
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, offset));
  return value;
}

/// The sum over the block (blockDim.x a multiple of 32, at most 1024), for
/// every thread. `shared` holds 32 floats.
__device__ __forceinline__ float blockSum(float value, float *shared) {
  int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  value = warpSum(value);
  __syncthreads(); // `shared` may still be read by a previous reduction
  if (lane == 0)
    shared[warp] = value;
  __syncthreads();
  int warps = blockDim.x / kWarp;
  value = lane < warps ? shared[lane] : 0.0f;
  return warpSum(value);
}

__device__ __forceinline__ float blockMax(float value, float *shared) {
  int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  value = warpMax(value);
  __syncthreads();
  if (lane == 0)
    shared[warp] = value;
  __syncthreads();
  int warps = blockDim.x / kWarp;
  value = lane < warps ? shared[lane] : -INFINITY;
  return warpMax(value);
}

} // namespace memplan::cuda

#endif // MEMPLAN_RUNTIME_CUDA_DEVICEELEMENTS_CUH
