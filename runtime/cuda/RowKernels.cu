//===- RowKernels.cu - Softmax, normalisations, RoPE ----------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Rows of contiguous elements (softmax over the last axis, LayerNorm and
// RMSNorm over the hidden dimension) are read once into registers by one
// warp (rows of up to 1024 elements, several rows per block) or one block
// (rows up to 16384, 32 elements per thread), reduced with warp shuffles,
// and written once: one read and one write of global memory, as the fused
// softmax and norm kernels of Apex, FasterTransformer and Triton's
// tutorials do. Rows too long for registers stream: softmax with an online
// maximum and sum (Milakov and Gimelshein, 2018) in one read, then the
// write; norms with a read for each statistic. A softmax over an inner axis
// (elements `inner` apart) runs one thread per column, adjacent threads on
// adjacent columns (coalesced), with the same online statistics.
//
// In place (`out == in`) is safe everywhere: each element is read by the
// thread that writes it, before it writes it.
//
//===----------------------------------------------------------------------===//

#include "DeviceElements.cuh"
#include "Launchers.h"

using namespace memplan::cuda;

namespace {

/// Elements one thread keeps in registers.
constexpr int kPerThread = 32;
/// Threads of a block row: with kPerThread floats in registers each, 1024
/// threads would need more registers than an SM has (about 96 a thread).
constexpr int kMaxRowThreads = 512;
/// Rows of at most this many elements take one warp each.
constexpr int64_t kWarpRowLimit = kWarp * kPerThread;
/// Warps (rows) per block for warp rows.
constexpr int kRowsPerBlock = 4;

/// Reduction over the threads sharing a row: a warp, or the whole block.
struct WarpRow {
  __device__ static float sum(float v, float *) { return warpSum(v); }
  __device__ static float max(float v, float *) { return warpMax(v); }
  __device__ static int lane() { return threadIdx.x % kWarp; }
  __device__ static int width() { return kWarp; }
};
struct BlockRow {
  __device__ static float sum(float v, float *shared) {
    return blockSum(v, shared);
  }
  __device__ static float max(float v, float *shared) {
    return blockMax(v, shared);
  }
  __device__ static int lane() { return threadIdx.x; }
  __device__ static int width() { return blockDim.x; }
};

/// The row this thread's group works on, or -1.
template <typename Row> __device__ int64_t rowIndex(int64_t rows) {
  int64_t row = std::is_same_v<Row, WarpRow>
                    ? int64_t(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarp
                    : int64_t(blockIdx.x);
  return row < rows ? row : -1;
}

template <typename T, typename Row>
__global__ void __launch_bounds__(kMaxRowThreads)
    softmaxRowsInRegisters(const T *in, T *out, int64_t rows, int64_t cols) {
  __shared__ float shared[kWarp];
  int64_t row = rowIndex<Row>(rows);
  // A block row never skips: every thread reaches the block reductions.
  if (std::is_same_v<Row, WarpRow> && row < 0)
    return;
  const T *x = in + row * cols;
  float values[kPerThread];
  float maximum = -INFINITY;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int64_t c = Row::lane() + int64_t(k) * Row::width();
    values[k] = c < cols ? toFloat(x[c]) : -INFINITY;
    maximum = fmaxf(maximum, values[k]);
  }
  maximum = Row::max(maximum, shared);
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int64_t c = Row::lane() + int64_t(k) * Row::width();
    values[k] = c < cols ? expf(values[k] - maximum) : 0.0f;
    sum += values[k];
  }
  sum = Row::sum(sum, shared);
  T *y = out + row * cols;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int64_t c = Row::lane() + int64_t(k) * Row::width();
    if (c < cols)
      y[c] = fromFloat<T>(values[k] / sum);
  }
}

/// Merges online softmax statistics (maximum, sum of exp(x - maximum)).
__device__ __forceinline__ void
mergeOnline(float &maximum, float &sum, float otherMaximum, float otherSum) {
  float merged = fmaxf(maximum, otherMaximum);
  if (merged == -INFINITY)
    return; // both empty
  sum = sum * expf(maximum - merged) + otherSum * expf(otherMaximum - merged);
  maximum = merged;
}

/// One block per row of any length: online statistics in one read, then
/// the write.
template <typename T>
__global__ void softmaxRowsStreaming(const T *in, T *out, int64_t cols) {
  __shared__ float maxima[kThreads], sums[kThreads];
  const T *x = in + int64_t(blockIdx.x) * cols;
  float maximum = -INFINITY, sum = 0;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    mergeOnline(maximum, sum, toFloat(x[c]), 1.0f);
  maxima[threadIdx.x] = maximum;
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      float m = maxima[threadIdx.x], s = sums[threadIdx.x];
      mergeOnline(m, s, maxima[threadIdx.x + stride],
                  sums[threadIdx.x + stride]);
      maxima[threadIdx.x] = m;
      sums[threadIdx.x] = s;
    }
    __syncthreads();
  }
  maximum = maxima[0];
  sum = sums[0];
  T *y = out + int64_t(blockIdx.x) * cols;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    y[c] = fromFloat<T>(expf(toFloat(x[c]) - maximum) / sum);
}

/// Softmax over an axis whose elements are `inner` apart: one thread per
/// (outer, inner) column; adjacent threads read adjacent addresses.
template <typename T>
__global__ void softmaxColumns(const T *in, T *out, int64_t outer, int64_t axis,
                               int64_t inner) {
  for (int64_t column = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       column < outer * inner; column += int64_t(gridDim.x) * blockDim.x) {
    int64_t base = (column / inner) * axis * inner + column % inner;
    float maximum = -INFINITY, sum = 0;
    for (int64_t a = 0; a < axis; ++a)
      mergeOnline(maximum, sum, toFloat(in[base + a * inner]), 1.0f);
    for (int64_t a = 0; a < axis; ++a)
      out[base + a * inner] =
          fromFloat<T>(expf(toFloat(in[base + a * inner]) - maximum) / sum);
  }
}

template <typename T, typename Row>
__global__ void __launch_bounds__(kMaxRowThreads)
    normRowsInRegisters(const T *in, const T *gamma, const T *beta, T *out,
                        int64_t rows, int64_t cols, int rms, float epsilon) {
  __shared__ float shared[kWarp];
  int64_t row = rowIndex<Row>(rows);
  if (std::is_same_v<Row, WarpRow> && row < 0)
    return;
  const T *x = in + row * cols;
  float values[kPerThread];
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int64_t c = Row::lane() + int64_t(k) * Row::width();
    values[k] = c < cols ? toFloat(x[c]) : 0.0f;
    sum += values[k];
  }
  float mean = rms ? 0.0f : Row::sum(sum, shared) / float(cols);
  // Two passes over registers: the variance of the centred values.
  float squares = 0;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int64_t c = Row::lane() + int64_t(k) * Row::width();
    float centred = c < cols ? values[k] - mean : 0.0f;
    squares += centred * centred;
  }
  float inverse = rsqrtf(Row::sum(squares, shared) / float(cols) + epsilon);
  T *y = out + row * cols;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int64_t c = Row::lane() + int64_t(k) * Row::width();
    if (c < cols) {
      float value = (values[k] - mean) * inverse * toFloat(gamma[c]);
      if (beta)
        value += toFloat(beta[c]);
      y[c] = fromFloat<T>(value);
    }
  }
}

/// One block per row of any length: a read for the mean, a read for the
/// variance, a read and a write for the output.
template <typename T>
__global__ void normRowsStreaming(const T *in, const T *gamma, const T *beta,
                                  T *out, int64_t cols, int rms,
                                  float epsilon) {
  __shared__ float shared[kWarp];
  const T *x = in + int64_t(blockIdx.x) * cols;
  float sum = 0;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    sum += toFloat(x[c]);
  float mean = rms ? 0.0f : blockSum(sum, shared) / float(cols);
  float squares = 0;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    float centred = toFloat(x[c]) - mean;
    squares += centred * centred;
  }
  float inverse = rsqrtf(blockSum(squares, shared) / float(cols) + epsilon);
  T *y = out + int64_t(blockIdx.x) * cols;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    float value = (toFloat(x[c]) - mean) * inverse * toFloat(gamma[c]);
    if (beta)
      value += toFloat(beta[c]);
    y[c] = fromFloat<T>(value);
  }
}

/// RoPE's inverse frequencies, computed once per call on the host and
/// passed by value (kernel parameters live in constant memory): no device
/// allocation, no pow per element.
struct RopeTable {
  float inverseFrequency[kMaxRopeHeadDim / 2];
};

/// One thread per rotated pair (2i, 2i + 1) of [batch, seq, heads, headDim].
template <typename T, typename Position>
__global__ void ropeKernel(const T *in, const Position *positions, T *out,
                           int64_t seq, int64_t heads, int64_t halfDim,
                           int64_t pairs, RopeTable table) {
  for (int64_t p = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; p < pairs;
       p += int64_t(gridDim.x) * blockDim.x) {
    int64_t i = p % halfDim;
    int64_t s = (p / halfDim / heads) % seq;
    float angle = float(int64_t(positions[s])) * table.inverseFrequency[i];
    float c, sn;
    sincosf(angle, &sn, &c);
    float x0 = toFloat(in[2 * p]), x1 = toFloat(in[2 * p + 1]);
    out[2 * p] = fromFloat<T>(x0 * c - x1 * sn);
    out[2 * p + 1] = fromFloat<T>(x0 * sn + x1 * c);
  }
}

/// Threads for one block per row: enough that each keeps at most
/// kPerThread elements, a multiple of 32, at most kMaxRowThreads; 0 if the
/// row is too long for registers.
int blockThreadsFor(int64_t cols) {
  int64_t threads = kWarp;
  while (threads * kPerThread < cols && threads < kMaxRowThreads)
    threads *= 2;
  return threads * kPerThread >= cols ? int(threads) : 0;
}

unsigned warpRowBlocks(int64_t rows) {
  return unsigned((rows + kRowsPerBlock - 1) / kRowsPerBlock);
}

} // namespace

cudaError_t memplan::cuda::launchSoftmax(cudaStream_t stream, mprt_dtype dtype,
                                         const void *in, void *out,
                                         int64_t outer, int64_t axis,
                                         int64_t inner) {
  if (outer * inner == 0 || axis == 0)
    return cudaSuccess;
  bool known = dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T *x = static_cast<const T *>(in);
    T *y = static_cast<T *>(out);
    if (inner != 1) {
      softmaxColumns<T><<<blocksFor(outer * inner), kThreads, 0, stream>>>(
          x, y, outer, axis, inner);
    } else if (axis <= kWarpRowLimit) {
      softmaxRowsInRegisters<T, WarpRow>
          <<<warpRowBlocks(outer), kRowsPerBlock * kWarp, 0, stream>>>(
              x, y, outer, axis);
    } else if (int threads = blockThreadsFor(axis)) {
      softmaxRowsInRegisters<T, BlockRow>
          <<<unsigned(outer), threads, 0, stream>>>(x, y, outer, axis);
    } else {
      softmaxRowsStreaming<T>
          <<<unsigned(outer), kThreads, 0, stream>>>(x, y, axis);
    }
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t memplan::cuda::launchNorm(cudaStream_t stream, mprt_dtype dtype,
                                      int rms, const void *in,
                                      const void *gamma, const void *beta,
                                      void *out, int64_t rows, int64_t cols,
                                      float epsilon) {
  if (rows == 0 || cols == 0)
    return cudaSuccess;
  bool known = dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T *x = static_cast<const T *>(in);
    const T *g = static_cast<const T *>(gamma);
    const T *b = static_cast<const T *>(beta);
    T *y = static_cast<T *>(out);
    if (cols <= kWarpRowLimit) {
      normRowsInRegisters<T, WarpRow>
          <<<warpRowBlocks(rows), kRowsPerBlock * kWarp, 0, stream>>>(
              x, g, b, y, rows, cols, rms, epsilon);
    } else if (int threads = blockThreadsFor(cols)) {
      normRowsInRegisters<T, BlockRow><<<unsigned(rows), threads, 0, stream>>>(
          x, g, b, y, rows, cols, rms, epsilon);
    } else {
      normRowsStreaming<T><<<unsigned(rows), kThreads, 0, stream>>>(
          x, g, b, y, cols, rms, epsilon);
    }
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t memplan::cuda::launchRope(cudaStream_t stream, mprt_dtype dtype,
                                      const void *in, mprt_dtype positionDtype,
                                      const void *positions, void *out,
                                      int64_t batch, int64_t seq, int64_t heads,
                                      int64_t headDim, double theta) {
  int64_t halfDim = headDim / 2;
  int64_t pairs = batch * seq * heads * halfDim;
  if (pairs == 0)
    return cudaSuccess;
  if (headDim > kMaxRopeHeadDim)
    return cudaErrorInvalidValue;
  RopeTable table{};
  for (int64_t i = 0; i < halfDim; ++i)
    table.inverseFrequency[i] =
        memplan::rt::ropeInverseFrequency(i, headDim, theta);
  bool known = false;
  dispatchFloat(dtype, [&](auto tag) {
    using T = decltype(tag);
    known = dispatchInteger(positionDtype, [&](auto positionTag) {
      using Position = decltype(positionTag);
      ropeKernel<T, Position><<<blocksFor(pairs), kThreads, 0, stream>>>(
          static_cast<const T *>(in), static_cast<const Position *>(positions),
          static_cast<T *>(out), seq, heads, halfDim, pairs, table);
    });
  });
  return known ? cudaGetLastError() : cudaErrorInvalidValue;
}
