//===- edge-cases.cpp - Runtime results at the edges, printed -------------===//
//
// Part of memplan, under the Apache License v2.0 with LLVM Exceptions.
// See the LICENSE file at the root of the repository.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Calls the runtime interface on inputs where the answer is a choice
// (integer overflow and division, float-to-integer casts, an attention row
// that sees no key, data errors reported at mprt_synchronize) and prints
// every result. The same source builds against the host runtime (run by
// runtime-edge-cases.test) and, with nvcc, against the CUDA runtime (run by
// the GPU check, whose output must be the same).
//
//===----------------------------------------------------------------------===//

#include "memplan/runtime/Runtime.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace {

mprt_context *context = nullptr;
std::vector<void *> allocations; // freed at the end

void check(int status, const char *what) {
  if (status != MPRT_OK) {
    std::printf("%s failed: %s (%s)\n", what, mprt_status_string(status),
                mprt_last_error(context));
    std::exit(1);
  }
}

/// A device copy of `values`.
template <typename T> T *toDevice(const std::vector<T> &values) {
  void *pointer = nullptr;
  if (cudaMalloc(&pointer, values.size() * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(pointer, values.data(), values.size() * sizeof(T),
                 cudaMemcpyHostToDevice) != cudaSuccess) {
    std::printf("device memory failed\n");
    std::exit(1);
  }
  allocations.push_back(pointer);
  return static_cast<T *>(pointer);
}

template <typename T> std::vector<T> toHost(const T *device, size_t count) {
  std::vector<T> values(count);
  if (cudaMemcpy(values.data(), device, count * sizeof(T),
                 cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("copy back failed\n");
    std::exit(1);
  }
  return values;
}

/// Runs `op` elementwise on equal shapes [n] and prints the results.
template <typename T>
void binary(const char *name, mprt_binary_op op, mprt_dtype dtype,
            const std::vector<T> &a, const std::vector<T> &b) {
  int64_t shape[1] = {int64_t(a.size())};
  T *da = toDevice(a), *db = toDevice(b), *out = toDevice(a);
  check(mprt_binary(context, op, dtype, da, shape, db, shape, out, shape, 1),
        name);
  check(mprt_synchronize(context), name);
  std::printf("%s:", name);
  for (T value : toHost(out, a.size()))
    std::printf(" %" PRId64, int64_t(value));
  std::printf("\n");
}

template <typename T>
void cast(const char *name, mprt_dtype to, const std::vector<float> &in) {
  float *din = toDevice(in);
  T *out = toDevice(std::vector<T>(in.size()));
  check(mprt_cast(context, MPRT_F32, din, to, out, int64_t(in.size())), name);
  check(mprt_synchronize(context), name);
  std::printf("%s:", name);
  for (T value : toHost(out, in.size()))
    std::printf(" %" PRId64, int64_t(value));
  std::printf("\n");
}

} // namespace

/// Runs attention described by `d` on `q`, `k` and `v`; returns its output
/// and its statistics (the scratch).
std::pair<std::vector<float>, std::vector<float>>
attention(const mprt_attention_desc &d, const std::vector<float> &q,
          const std::vector<float> &k, const std::vector<float> &v) {
  size_t rows = size_t(d.batch * d.q_heads * d.q_len);
  float *out = toDevice(std::vector<float>(rows * size_t(d.v_dim), -1.0f));
  float *stats = toDevice(std::vector<float>(2 * rows, -1.0f));
  check(mprt_attention(context, &d, toDevice(q), toDevice(k), toDevice(v), out,
                       stats),
        "attention");
  check(mprt_synchronize(context), "attention");
  return {toHost(out, rows * size_t(d.v_dim)), toHost(stats, 2 * rows)};
}

/// Prints `label:` and `values` to 4 decimals.
void printValues(const char *label, const std::vector<float> &values) {
  std::printf("%s:", label);
  for (float value : values)
    std::printf(" %.4f", value);
  std::printf("\n");
}

int main() {
  check(mprt_create(&context), "mprt_create");

  // 64-bit integers wrap around; division truncates toward zero.
  binary<int64_t>("i64 add", MPRT_ADD, MPRT_I64, {INT64_MAX, -5}, {1, 3});
  binary<int64_t>("i64 mul", MPRT_MUL, MPRT_I64, {INT64_MAX, -4}, {2, 3});
  binary<int64_t>("i64 div", MPRT_DIV, MPRT_I64, {INT64_MIN, -7, 7},
                  {-1, 2, -2});
  // Narrower integers saturate.
  binary<int8_t>("i8 add", MPRT_ADD, MPRT_I8, {100, -100, 5}, {100, -100, 6});
  binary<int32_t>("i32 mul", MPRT_MUL, MPRT_I32, {INT32_MAX, INT32_MIN, 7},
                  {2, 2, -3});

  // x / 0 is 0, and the error surfaces at the next mprt_synchronize.
  {
    int64_t shape[1] = {2};
    int32_t *a = toDevice(std::vector<int32_t>{9, 8});
    int32_t *b = toDevice(std::vector<int32_t>{0, 2});
    int32_t *out = toDevice(std::vector<int32_t>{-1, -1});
    check(mprt_binary(context, MPRT_DIV, MPRT_I32, a, shape, b, shape, out,
                      shape, 1),
          "i32 div");
    int status = mprt_synchronize(context);
    std::printf("i32 div by zero: status %s (%s)\n", mprt_status_string(status),
                mprt_last_error(context));
    std::vector<int32_t> values = toHost(out, 2);
    std::printf("i32 div by zero: %d %d\n", values[0], values[1]);
    std::printf("next synchronize: %s\n",
                mprt_status_string(mprt_synchronize(context)));
  }

  // Float to integer: round half to even, saturate, NaN is 0.
  cast<int32_t>("f32 to i32", MPRT_I32,
                {2.5f, 3.5f, -2.5f, NAN, 1e20f, -1e20f, INFINITY});
  cast<int8_t>("f32 to i8", MPRT_I8, {300.0f, -300.0f, 126.5f, -0.4f});

  // Causal attention, 3 queries over 2 keys: query i sees keys
  // j <= i - 1, so the first sees none and is 0.
  {
    mprt_attention_desc d = {MPRT_F32, 1, 1, 1, 3, 2, 2, 2, 1, 1.0, 0};
    auto [out, stats] =
        attention(d, {1, 0, 0, 1, 1, 1}, {1, 0, 0, 1}, {1, 2, 3, 4});
    printValues("attention", out);
    printValues("attention stats", stats);
  }

  // Both output layouts of one causal attention, 2 heads, 2 queries over 2
  // keys, zero queries (so each query averages the values it sees): head 0
  // gives 1 then (1 + 3) / 2, head 1 gives 10 then 20. Head-major is
  // [head][query], token-major [query][head].
  for (int tokenMajor : {0, 1}) {
    mprt_attention_desc d = {MPRT_F32, 1, 2, 2, 2, 2, 1, 1, 1, 1.0, tokenMajor};
    printValues(
        tokenMajor ? "attention token-major" : "attention head-major",
        attention(d, std::vector<float>(4, 0.0f), {1, 2, 3, 4}, {1, 3, 10, 30})
            .first);
  }

  // An embedding id out of range and a division by zero before one
  // synchronisation: both reported, the row is zeros.
  {
    float *table = toDevice(std::vector<float>{1, 2, 3, 4});
    int32_t *ids = toDevice(std::vector<int32_t>{1, 5});
    float *rows = toDevice(std::vector<float>(4, -1.0f));
    check(
        mprt_embedding(context, MPRT_F32, table, MPRT_I32, ids, rows, 2, 2, 2),
        "embedding");
    int64_t shape[1] = {1};
    int64_t *a = toDevice(std::vector<int64_t>{1});
    int64_t *zero = toDevice(std::vector<int64_t>{0});
    check(mprt_binary(context, MPRT_DIV, MPRT_I64, a, shape, zero, shape, a,
                      shape, 1),
          "i64 div");
    int status = mprt_synchronize(context);
    std::printf("two errors: status %s (%s)\n", mprt_status_string(status),
                mprt_last_error(context));
    std::printf("embedding:");
    for (float value : toHost(rows, 4))
      std::printf(" %.1f", value);
    std::printf("\n");
  }

  for (void *pointer : allocations)
    cudaFree(pointer);
  mprt_destroy(context);
  return 0;
}
