//===- HostRuntime.cpp - Reference kernels on the CPU ---------------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime interface of Runtime.h, implemented with plain loops. It is the
// reference the CUDA runtime is compared with, and it lets generated code run
// on a machine without a GPU. Single-threaded and deterministic: the same
// inputs give the same bits, whatever the memory plan.
//
//===----------------------------------------------------------------------===//

#include "memplan/runtime/Runtime.h"

#include "../common/ElementSemantics.h"
#include "ElementAccess.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <vector>

using namespace memplan::rt;

struct mprt_context {
  const char *lastError = "";
  /// Errors found in data (DataError bits: an embedding id, an integer
  /// division by zero), reported by mprt_synchronize as the CUDA runtime
  /// reports its device word.
  int dataErrors = 0;
};

namespace {

int invalid(mprt_context *context, const char *message) {
  if (context)
    context->lastError = message;
  return MPRT_ERROR_INVALID_ARGUMENT;
}

/// Row-major strides of `shape`.
void stridesOf(const int64_t *shape, int rank, int64_t *strides) {
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= shape[d];
  }
}

int64_t countOf(const int64_t *shape, int rank) {
  int64_t count = 1;
  for (int d = 0; d < rank; ++d)
    count *= shape[d];
  return count;
}

} // namespace

extern "C" {

int mprt_create(mprt_context **context) {
  *context = new (std::nothrow) mprt_context();
  return *context ? MPRT_OK : MPRT_ERROR_OUT_OF_MEMORY;
}

void mprt_destroy(mprt_context *context) { delete context; }

int mprt_synchronize(mprt_context *context) {
  if (!context || !context->dataErrors)
    return MPRT_OK;
  const char *message = dataErrorMessage(context->dataErrors);
  context->dataErrors = 0;
  return invalid(context, message);
}

const char *mprt_status_string(int status) {
  return memplan::rt::statusString(status);
}

const char *mprt_last_error(mprt_context *context) {
  return context ? context->lastError : "";
}

size_t mprt_dtype_bytes(mprt_dtype dtype) {
  return memplan::rt::dtypeBytes(dtype);
}

int mprt_copy(mprt_context *, void *dst, const void *src, size_t bytes) {
  if (bytes)
    std::memmove(dst, src, bytes);
  return MPRT_OK;
}

int mprt_matmul(mprt_context *context, const mprt_matmul_desc *desc,
                const void *a, const void *b, void *c, void *workspace,
                size_t workspaceBytes) {
  if (!isFloat(desc->dtype))
    return invalid(context, "matmul needs a float dtype");
  if (!workspace && workspaceBytes)
    return invalid(context, "matmul workspace is null but has bytes");
  // cuBLAS may write any byte of its workspace before it reads the
  // operands; so does this runtime, so that a plan placing a live value in
  // the workspace computes wrong results here, not only on a GPU.
  if (workspaceBytes)
    std::memset(workspace, 0xA5, workspaceBytes);
  const int64_t m = desc->m, n = desc->n, k = desc->k;
  // Accumulate a whole output before storing it, so `c` may not alias the
  // operands (the planner never makes it: matmul is not in place).
  std::vector<float> row(static_cast<size_t>(n));
  for (int64_t batch = 0; batch < desc->batch; ++batch) {
    int64_t aBase = batch * desc->stride_a, bBase = batch * desc->stride_b;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          int64_t ai = desc->transpose_a ? p * m + i : i * k + p;
          int64_t bi = desc->transpose_b ? j * k + p : p * n + j;
          sum += load(desc->dtype, a, aBase + ai) *
                 load(desc->dtype, b, bBase + bi);
        }
        row[j] = sum;
      }
      for (int64_t j = 0; j < n; ++j)
        store(desc->dtype, c, (batch * m + i) * n + j, row[j]);
    }
  }
  return MPRT_OK;
}

int mprt_binary(mprt_context *context, mprt_binary_op op, mprt_dtype dtype,
                const void *a, const int64_t *aShape, const void *b,
                const int64_t *bShape, void *out, const int64_t *outShape,
                int rank) {
  if (rank > MPRT_MAX_RANK)
    return invalid(context, "rank too large");
  int64_t aStrides[MPRT_MAX_RANK], bStrides[MPRT_MAX_RANK],
      outStrides[MPRT_MAX_RANK];
  stridesOf(aShape, rank, aStrides);
  stridesOf(bShape, rank, bStrides);
  stridesOf(outShape, rank, outStrides);
  int64_t count = countOf(outShape, rank);
  for (int64_t i = 0; i < count; ++i) {
    int64_t ai = 0, bi = 0, rest = i;
    for (int d = 0; d < rank; ++d) {
      int64_t index = rest / outStrides[d];
      rest %= outStrides[d];
      if (aShape[d] != 1)
        ai += index * aStrides[d];
      if (bShape[d] != 1)
        bi += index * bStrides[d];
    }
    if (isFloat(dtype)) {
      float r = floatBinary(op, load(dtype, a, ai), load(dtype, b, bi));
      store(dtype, out, i, r);
    } else {
      // As on the device: x / 0 is 0, reported at mprt_synchronize.
      int errors = 0;
      int64_t r = integerBinary(op, loadInteger(dtype, a, ai),
                                loadInteger(dtype, b, bi), errors);
      if (errors && context)
        context->dataErrors |= errors;
      storeInteger(dtype, out, i, r);
    }
  }
  return MPRT_OK;
}

int mprt_unary(mprt_context *context, mprt_unary_op op, mprt_dtype dtype,
               const void *in, void *out, int64_t count) {
  if (!isFloat(dtype))
    return invalid(context, "activations need a float dtype");
  for (int64_t i = 0; i < count; ++i) {
    float x = load(dtype, in, i), r = 0;
    switch (op) {
    case MPRT_GELU:
      r = gelu(x);
      break;
    case MPRT_SILU:
      r = x / (1.0f + std::exp(-x));
      break;
    case MPRT_RELU:
      r = x > 0 ? x : 0.0f;
      break;
    }
    store(dtype, out, i, r);
  }
  return MPRT_OK;
}

int mprt_softmax(mprt_context *, mprt_dtype dtype, const void *in, void *out,
                 int64_t outer, int64_t axis, int64_t inner) {
  std::vector<float> values(static_cast<size_t>(axis));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t base = o * axis * inner + i;
      float maximum = -INFINITY;
      for (int64_t a = 0; a < axis; ++a) {
        values[a] = load(dtype, in, base + a * inner);
        maximum = std::max(maximum, values[a]);
      }
      float sum = 0;
      for (int64_t a = 0; a < axis; ++a) {
        values[a] = std::exp(values[a] - maximum);
        sum += values[a];
      }
      for (int64_t a = 0; a < axis; ++a)
        store(dtype, out, base + a * inner, values[a] / sum);
    }
  }
  return MPRT_OK;
}

int mprt_norm(mprt_context *, mprt_dtype dtype, int rms, const void *in,
              const void *gamma, const void *beta, void *out, int64_t rows,
              int64_t cols, double epsilon) {
  std::vector<float> values(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    float mean = 0, squares = 0;
    for (int64_t c = 0; c < cols; ++c) {
      values[c] = load(dtype, in, r * cols + c);
      mean += values[c];
    }
    mean = rms ? 0.0f : mean / float(cols);
    for (int64_t c = 0; c < cols; ++c)
      squares += (values[c] - mean) * (values[c] - mean);
    float inverse = 1.0f / std::sqrt(squares / float(cols) + float(epsilon));
    for (int64_t c = 0; c < cols; ++c) {
      float y = (values[c] - mean) * inverse * load(dtype, gamma, c);
      if (beta)
        y += load(dtype, beta, c);
      store(dtype, out, r * cols + c, y);
    }
  }
  return MPRT_OK;
}

int mprt_embedding(mprt_context *context, mprt_dtype dtype, const void *table,
                   mprt_dtype idDtype, const void *ids, void *out,
                   int64_t count, int64_t vocab, int64_t hidden) {
  if (!isFloat(dtype))
    return MPRT_ERROR_UNSUPPORTED;
  for (int64_t i = 0; i < count; ++i) {
    int64_t id = loadInteger(idDtype, ids, i);
    if (id < 0 || id >= vocab) {
      // As on the device: a row of zeros, and the error at the next
      // mprt_synchronize.
      if (context)
        context->dataErrors |= kEmbeddingIdOutOfRange;
      for (int64_t h = 0; h < hidden; ++h)
        store(dtype, out, i * hidden + h, 0.0);
      continue;
    }
    for (int64_t h = 0; h < hidden; ++h)
      store(dtype, out, i * hidden + h, load(dtype, table, id * hidden + h));
  }
  return MPRT_OK;
}

int mprt_rope(mprt_context *, mprt_dtype dtype, const void *in,
              mprt_dtype positionDtype, const void *positions, void *out,
              int64_t batch, int64_t seq, int64_t heads, int64_t headDim,
              double theta) {
  std::vector<float> inverseFrequency(static_cast<size_t>(headDim / 2));
  for (int64_t i = 0; i < headDim / 2; ++i)
    inverseFrequency[size_t(i)] = ropeInverseFrequency(i, headDim, theta);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t s = 0; s < seq; ++s) {
      float position = float(loadInteger(positionDtype, positions, s));
      for (int64_t h = 0; h < heads; ++h)
        for (int64_t i = 0; i < headDim / 2; ++i) {
          int64_t base = ((b * seq + s) * heads + h) * headDim + 2 * i;
          float angle = position * inverseFrequency[size_t(i)];
          float c = std::cos(angle), sn = std::sin(angle);
          float x0 = load(dtype, in, base), x1 = load(dtype, in, base + 1);
          store(dtype, out, base, x0 * c - x1 * sn);
          store(dtype, out, base + 1, x0 * sn + x1 * c);
        }
    }
  return MPRT_OK;
}

int mprt_transpose(mprt_context *context, size_t elementBytes, const void *in,
                   const int64_t *inShape, const int64_t *perm, int rank,
                   void *out) {
  if (rank > MPRT_MAX_RANK)
    return invalid(context, "rank too large");
  int64_t inStrides[MPRT_MAX_RANK], outShape[MPRT_MAX_RANK],
      outStrides[MPRT_MAX_RANK];
  stridesOf(inShape, rank, inStrides);
  for (int d = 0; d < rank; ++d)
    outShape[d] = inShape[perm[d]];
  stridesOf(outShape, rank, outStrides);
  int64_t count = countOf(outShape, rank);
  const char *src = static_cast<const char *>(in);
  char *dst = static_cast<char *>(out);
  for (int64_t i = 0; i < count; ++i) {
    int64_t source = 0, rest = i;
    for (int d = 0; d < rank; ++d) {
      source += (rest / outStrides[d]) * inStrides[perm[d]];
      rest %= outStrides[d];
    }
    std::memcpy(dst + i * elementBytes, src + source * elementBytes,
                elementBytes);
  }
  return MPRT_OK;
}

int mprt_slice(mprt_context *context, size_t elementBytes, const void *in,
               const int64_t *inShape, const int64_t *offsets,
               const int64_t *outShape, int rank, void *out) {
  if (rank > MPRT_MAX_RANK)
    return invalid(context, "rank too large");
  int64_t inStrides[MPRT_MAX_RANK], outStrides[MPRT_MAX_RANK];
  stridesOf(inShape, rank, inStrides);
  stridesOf(outShape, rank, outStrides);
  int64_t count = countOf(outShape, rank);
  const char *src = static_cast<const char *>(in);
  char *dst = static_cast<char *>(out);
  for (int64_t i = 0; i < count; ++i) {
    int64_t source = 0, rest = i;
    for (int d = 0; d < rank; ++d) {
      source += (rest / outStrides[d] + offsets[d]) * inStrides[d];
      rest %= outStrides[d];
    }
    std::memcpy(dst + i * elementBytes, src + source * elementBytes,
                elementBytes);
  }
  return MPRT_OK;
}

int mprt_concat_part(mprt_context *, size_t elementBytes, const void *in,
                     void *out, int64_t outer, int64_t inAxis, int64_t outAxis,
                     int64_t at, int64_t inner) {
  const char *src = static_cast<const char *>(in);
  char *dst = static_cast<char *>(out);
  size_t rowBytes = size_t(inAxis * inner) * elementBytes;
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(dst + size_t((o * outAxis + at) * inner) * elementBytes,
                src + size_t(o) * rowBytes, rowBytes);
  return MPRT_OK;
}

int mprt_cast(mprt_context *, mprt_dtype from, const void *in, mprt_dtype to,
              void *out, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if (isFloat(to))
      store(to, out, i,
            isFloat(from) ? load(from, in, i)
                          : float(loadInteger(from, in, i)));
    else
      storeInteger(to, out, i,
                   isFloat(from) ? saturatingRound(load(from, in, i))
                                 : loadInteger(from, in, i));
  }
  return MPRT_OK;
}

int mprt_attention(mprt_context *context, const mprt_attention_desc *d,
                   const void *q, const void *k, const void *v, void *out,
                   void *scratch) {
  if (d->kv_heads <= 0 || d->q_heads % d->kv_heads != 0)
    return invalid(context, "query heads must be a multiple of kv heads");
  float *stats = static_cast<float *>(scratch);
  std::vector<float> scores(static_cast<size_t>(d->kv_len));
  std::vector<float> accumulator(static_cast<size_t>(d->v_dim));
  const int64_t group = d->q_heads / d->kv_heads;
  for (int64_t b = 0; b < d->batch; ++b)
    for (int64_t h = 0; h < d->q_heads; ++h) {
      int64_t kvHead = h / group;
      for (int64_t i = 0; i < d->q_len; ++i) {
        // Query i sits at key position i + (kv_len - q_len).
        int64_t visible =
            d->causal ? i + (d->kv_len - d->q_len) + 1 : d->kv_len;
        int64_t qBase = ((b * d->q_heads + h) * d->q_len + i) * d->head_dim;
        float maximum = -INFINITY;
        for (int64_t j = 0; j < visible; ++j) {
          int64_t kBase =
              ((b * d->kv_heads + kvHead) * d->kv_len + j) * d->head_dim;
          float dot = 0;
          for (int64_t c = 0; c < d->head_dim; ++c)
            dot += load(d->dtype, q, qBase + c) * load(d->dtype, k, kBase + c);
          scores[j] = dot * float(d->scale);
          maximum = std::max(maximum, scores[j]);
        }
        float sum = 0;
        std::fill(accumulator.begin(), accumulator.end(), 0.0f);
        for (int64_t j = 0; j < visible; ++j) {
          float p = std::exp(scores[j] - maximum);
          sum += p;
          int64_t vBase =
              ((b * d->kv_heads + kvHead) * d->kv_len + j) * d->v_dim;
          for (int64_t c = 0; c < d->v_dim; ++c)
            accumulator[c] += p * load(d->dtype, v, vBase + c);
        }
        int64_t row = (b * d->q_heads + h) * d->q_len + i;
        stats[2 * row] = maximum;
        stats[2 * row + 1] = sum;
        int64_t outRow = attentionOutputRow(*d, b, h, i);
        for (int64_t c = 0; c < d->v_dim; ++c)
          store(d->dtype, out, outRow * d->v_dim + c,
                attentionOutput(accumulator[c], sum));
      }
    }
  return MPRT_OK;
}

int mprt_kv_cache_update(mprt_context *context, size_t elementBytes,
                         void *cache, const void *update, int64_t batch,
                         int64_t heads, int64_t maxLen, int64_t newLen,
                         int64_t headDim, int64_t position) {
  if (position < 0 || position > maxLen - newLen)
    return invalid(context, "KV-cache position out of range");
  size_t rowBytes = size_t(newLen * headDim) * elementBytes;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h) {
      char *dst = static_cast<char *>(cache) +
                  size_t(((b * heads + h) * maxLen + position) * headDim) *
                      elementBytes;
      const char *src =
          static_cast<const char *>(update) + size_t(b * heads + h) * rowBytes;
      std::memcpy(dst, src, rowBytes);
    }
  return MPRT_OK;
}

int mprt_fill(mprt_context *, mprt_dtype dtype, void *data, int64_t count,
              int64_t seed) {
  for (int64_t i = 0; i < count; ++i) {
    if (isFloat(dtype))
      store(dtype, data, i,
            float(std::sin(0.37 * double(seed) + 0.0173 * double(i)) * 0.5));
    else
      storeInteger(dtype, data, i, (seed + i) % 97);
  }
  return MPRT_OK;
}

int mprt_checksum(mprt_context *, const void *data, size_t bytes,
                  uint64_t *hash) {
  uint64_t h = 1469598103934665603ull;
  const unsigned char *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  *hash = h;
  return MPRT_OK;
}

} // extern "C"
