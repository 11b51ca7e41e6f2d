//===- ElementwiseKernels.cu - One element per thread ---------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Binary ops with numpy broadcasting, activations, casts, fills and the
// embedding gather: grid-stride loops over the output, consecutive threads
// on consecutive elements (coalesced). Binary ops pick an indexing mode on
// the host: both operands of the output's shape, one operand a row
// broadcast over the leading dimensions (a bias), or general broadcasting.
//
//===----------------------------------------------------------------------===//

#include "DeviceElements.cuh"
#include "Launchers.h"

using namespace memplan::cuda;
using memplan::rt::integerBinary;
using memplan::rt::saturate;
using memplan::rt::saturatingRound;

namespace {

enum class Broadcast { None, RowOfA, RowOfB, General };

struct BinaryShapes {
  Shape a, b, out;
  int rank;
  int64_t count;
  int64_t rowLength; ///< RowOfA / RowOfB: the broadcast row's length
};

__device__ __forceinline__ void operandIndices(Broadcast mode,
                                               const BinaryShapes &s, int64_t i,
                                               int64_t &ai, int64_t &bi) {
  switch (mode) {
  case Broadcast::None:
    ai = bi = i;
    return;
  case Broadcast::RowOfA:
    ai = i % s.rowLength;
    bi = i;
    return;
  case Broadcast::RowOfB:
    ai = i;
    bi = i % s.rowLength;
    return;
  case Broadcast::General:
    break;
  }
  int64_t aStride = 1, bStride = 1, rest = i;
  ai = bi = 0;
  for (int d = s.rank - 1; d >= 0; --d) {
    int64_t index = rest % s.out.dims[d];
    rest /= s.out.dims[d];
    if (s.a.dims[d] != 1)
      ai += index * aStride;
    if (s.b.dims[d] != 1)
      bi += index * bStride;
    aStride *= s.a.dims[d];
    bStride *= s.b.dims[d];
  }
}

template <typename T>
__global__ void binaryFloatKernel(mprt_binary_op op, Broadcast mode,
                                  BinaryShapes s, const T *a, const T *b,
                                  T *out) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < s.count;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t ai, bi;
    operandIndices(mode, s, i, ai, bi);
    float r = memplan::rt::floatBinary(op, toFloat(a[ai]), toFloat(b[bi]));
    out[i] = fromFloat<T>(r);
  }
}

template <typename T>
__global__ void binaryIntegerKernel(mprt_binary_op op, Broadcast mode,
                                    BinaryShapes s, mprt_dtype dtype,
                                    const T *a, const T *b, T *out,
                                    int *errorFlag) {
  int errors = 0;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < s.count;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t ai, bi;
    operandIndices(mode, s, i, ai, bi);
    int64_t r = integerBinary(op, int64_t(a[ai]), int64_t(b[bi]), errors);
    out[i] = T(saturate(dtype, r));
  }
  if (errors)
    atomicOr(errorFlag, errors); // reported by mprt_synchronize
}

template <typename T>
__global__ void unaryKernel(mprt_unary_op op, const T *in, T *out,
                            int64_t count) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    float x = toFloat(in[i]), r = 0;
    switch (op) {
    case MPRT_GELU:
      r = memplan::rt::gelu(x);
      break;
    case MPRT_SILU:
      r = x / (1.0f + expf(-x));
      break;
    case MPRT_RELU:
      r = x > 0 ? x : 0.0f;
      break;
    }
    out[i] = fromFloat<T>(r);
  }
}

template <typename From, typename To>
__global__ void castKernel(const From *in, To *out, mprt_dtype to,
                           int64_t count) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    if constexpr (kIsFloatType<To>) {
      if constexpr (kIsFloatType<From>)
        out[i] = fromFloat<To>(toFloat(in[i]));
      else
        out[i] = fromFloat<To>(float(int64_t(in[i])));
    } else if constexpr (kIsFloatType<From>) {
      out[i] = To(saturate(to, saturatingRound(double(toFloat(in[i])))));
    } else {
      out[i] = To(saturate(to, int64_t(in[i])));
    }
  }
}

template <typename T>
__global__ void fillKernel(T *data, mprt_dtype dtype, int64_t count,
                           int64_t seed) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    if constexpr (kIsFloatType<T>)
      data[i] = fromFloat<T>(
          float(sin(0.37 * double(seed) + 0.0173 * double(i)) * 0.5));
    else
      data[i] = T(saturate(dtype, (seed + i) % 97));
  }
}

template <typename T, typename Id>
__global__ void embeddingKernel(const T *table, const Id *ids, T *out,
                                int64_t count, int64_t vocab, int64_t hidden,
                                int *errorFlag) {
  int errors = 0;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       i < count * hidden; i += int64_t(gridDim.x) * blockDim.x) {
    int64_t id = int64_t(ids[i / hidden]);
    if (id < 0 || id >= vocab) {
      errors |= memplan::rt::kEmbeddingIdOutOfRange;
      out[i] = fromFloat<T>(0.0f);
      continue;
    }
    out[i] = table[id * hidden + i % hidden];
  }
  if (errors)
    atomicOr(errorFlag, errors);
}

/// Whether `operand` is a row of the output's last dimension broadcast over
/// all the others (a bias), and `other` has the output's shape.
bool isRowBroadcast(const int64_t *operand, const int64_t *other,
                    const int64_t *out, int rank) {
  for (int d = 0; d < rank; ++d) {
    if (other[d] != out[d])
      return false;
    if (d < rank - 1 ? operand[d] != 1 : operand[d] != out[d])
      return false;
  }
  return rank > 0;
}

} // namespace

cudaError_t memplan::cuda::launchBinary(cudaStream_t stream, mprt_binary_op op,
                                        mprt_dtype dtype, const void *a,
                                        const int64_t *aShape, const void *b,
                                        const int64_t *bShape, void *out,
                                        const int64_t *outShape, int rank,
                                        int *errorFlag) {
  BinaryShapes s{toShape(aShape, rank),
                 toShape(bShape, rank),
                 toShape(outShape, rank),
                 rank,
                 1,
                 1};
  bool same = true;
  for (int d = 0; d < rank; ++d) {
    s.count *= outShape[d];
    same = same && aShape[d] == outShape[d] && bShape[d] == outShape[d];
  }
  if (s.count == 0)
    return cudaSuccess;
  Broadcast mode = Broadcast::General;
  if (same)
    mode = Broadcast::None;
  else if (isRowBroadcast(bShape, aShape, outShape, rank))
    mode = Broadcast::RowOfB;
  else if (isRowBroadcast(aShape, bShape, outShape, rank))
    mode = Broadcast::RowOfA;
  if (mode == Broadcast::RowOfA || mode == Broadcast::RowOfB)
    s.rowLength = outShape[rank - 1];
  unsigned blocks = blocksFor(s.count);
  bool known =
      dispatchFloat(dtype,
                    [&](auto tag) {
                      using T = decltype(tag);
                      binaryFloatKernel<T><<<blocks, kThreads, 0, stream>>>(
                          op, mode, s, static_cast<const T *>(a),
                          static_cast<const T *>(b), static_cast<T *>(out));
                    }) ||
      dispatchInteger(dtype, [&](auto tag) {
        using T = decltype(tag);
        binaryIntegerKernel<T><<<blocks, kThreads, 0, stream>>>(
            op, mode, s, dtype, static_cast<const T *>(a),
            static_cast<const T *>(b), static_cast<T *>(out), errorFlag);
      });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t memplan::cuda::launchUnary(cudaStream_t stream, mprt_unary_op op,
                                       mprt_dtype dtype, const void *in,
                                       void *out, int64_t count) {
  if (count == 0)
    return cudaSuccess;
  bool known = dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    unaryKernel<T><<<blocksFor(count), kThreads, 0, stream>>>(
        op, static_cast<const T *>(in), static_cast<T *>(out), count);
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t memplan::cuda::launchCast(cudaStream_t stream, mprt_dtype from,
                                      const void *in, mprt_dtype to, void *out,
                                      int64_t count) {
  if (count == 0)
    return cudaSuccess;
  bool known = false;
  dispatchAny(from, [&](auto fromTag) {
    using From = decltype(fromTag);
    known = dispatchAny(to, [&](auto toTag) {
      using To = decltype(toTag);
      castKernel<From, To><<<blocksFor(count), kThreads, 0, stream>>>(
          static_cast<const From *>(in), static_cast<To *>(out), to, count);
    });
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t memplan::cuda::launchFill(cudaStream_t stream, mprt_dtype dtype,
                                      void *data, int64_t count, int64_t seed) {
  if (count == 0)
    return cudaSuccess;
  bool known = dispatchAny(dtype, [&](auto tag) {
    using T = decltype(tag);
    fillKernel<T><<<blocksFor(count), kThreads, 0, stream>>>(
        static_cast<T *>(data), dtype, count, seed);
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t memplan::cuda::launchEmbedding(cudaStream_t stream,
                                           mprt_dtype dtype, const void *table,
                                           mprt_dtype idDtype, const void *ids,
                                           void *out, int64_t count,
                                           int64_t vocab, int64_t hidden,
                                           int *errorFlag) {
  if (count * hidden == 0)
    return cudaSuccess;
  bool known = false;
  dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    known = dispatchInteger(idDtype, [&](auto idTag) {
      using Id = decltype(idTag);
      embeddingKernel<T, Id>
          <<<blocksFor(count * hidden), kThreads, 0, stream>>>(
              static_cast<const T *>(table), static_cast<const Id *>(ids),
              static_cast<T *>(out), count, vocab, hidden, errorFlag);
    });
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}
