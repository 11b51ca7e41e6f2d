//===- reference.cpp - Independent reference for the tiny models ----------===//
//
// Computes the tiny GPT-2 block and LLaMA layers of this directory with its
// own straightforward float code (no memplan runtime), from the argument
// pattern documented in docs/codegen.md, and compares with a dump written by
// a generated `main`:
//
//   reference gpt2|llama|qwen3 results.bin
//
// Prints the largest error; exits 1 if any element differs by more than
// 1e-4 * (1 + |expected|).
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using Matrix = std::vector<float>; // row-major

static Matrix argument(int seed, size_t count) {
  Matrix values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = float(std::sin(0.37 * seed + 0.0173 * double(i)) * 0.5);
  return values;
}

/// x [rows, in] @ w [in, out] (+ bias).
static Matrix linear(const Matrix &x, const Matrix &w, int rows, int in,
                     int out, const Matrix *bias = nullptr) {
  Matrix y(size_t(rows) * out, 0.0f);
  for (int r = 0; r < rows; ++r)
    for (int o = 0; o < out; ++o) {
      double sum = 0;
      for (int i = 0; i < in; ++i)
        sum += double(x[r * in + i]) * double(w[i * out + o]);
      y[r * out + o] = float(sum) + (bias ? (*bias)[o] : 0.0f);
    }
  return y;
}

static Matrix layerNorm(const Matrix &x, const Matrix &g, const Matrix &b,
                        int rows, int cols, double eps) {
  Matrix y(x.size());
  for (int r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < cols; ++c)
      mean += x[r * cols + c];
    mean /= cols;
    for (int c = 0; c < cols; ++c)
      var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    var /= cols;
    for (int c = 0; c < cols; ++c)
      y[r * cols + c] =
          float((x[r * cols + c] - mean) / std::sqrt(var + eps) * g[c] + b[c]);
  }
  return y;
}

static Matrix rmsNorm(const Matrix &x, const Matrix &g, int rows, int cols,
                      double eps) {
  Matrix y(x.size());
  for (int r = 0; r < rows; ++r) {
    double squares = 0;
    for (int c = 0; c < cols; ++c)
      squares += double(x[r * cols + c]) * x[r * cols + c];
    double inverse = 1.0 / std::sqrt(squares / cols + eps);
    for (int c = 0; c < cols; ++c)
      y[r * cols + c] = float(x[r * cols + c] * inverse * g[c]);
  }
  return y;
}

/// Causal attention of token-major q [t, heads * dim] with k, v
/// [t, kvHeads * dim]; query head h reads key/value head h / (heads /
/// kvHeads). Returns [t, heads * dim].
static Matrix causalAttention(const Matrix &q, const Matrix &k, const Matrix &v,
                              int tokens, int heads, int kvHeads, int dim) {
  Matrix out(size_t(tokens) * heads * dim, 0.0f);
  for (int h = 0; h < heads; ++h) {
    int kvh = h / (heads / kvHeads);
    for (int i = 0; i < tokens; ++i) {
      std::vector<double> p(i + 1);
      double maximum = -1e300, sum = 0;
      for (int j = 0; j <= i; ++j) {
        double dot = 0;
        for (int d = 0; d < dim; ++d)
          dot += double(q[i * heads * dim + h * dim + d]) *
                 k[j * kvHeads * dim + kvh * dim + d];
        p[j] = dot / std::sqrt(double(dim));
        maximum = std::max(maximum, p[j]);
      }
      for (int j = 0; j <= i; ++j)
        sum += p[j] = std::exp(p[j] - maximum);
      for (int d = 0; d < dim; ++d) {
        double acc = 0;
        for (int j = 0; j <= i; ++j)
          acc += p[j] * v[j * kvHeads * dim + kvh * dim + d];
        out[i * heads * dim + h * dim + d] = float(acc / sum);
      }
    }
  }
  return out;
}

static Matrix gpt2() {
  const int T = 8, H = 32, heads = 4, dim = 8, F = 128;
  Matrix x = argument(0, T * H);
  Matrix h = layerNorm(x, argument(1, H), argument(2, H), T, H, 1e-5);
  Matrix bqkv = argument(4, 3 * H);
  Matrix qkv = linear(h, argument(3, H * 3 * H), T, H, 3 * H, &bqkv);
  // [t, 3, heads, dim]: q, k and v are the three column blocks.
  Matrix q(T * H), k(T * H), v(T * H);
  for (int t = 0; t < T; ++t)
    for (int c = 0; c < H; ++c) {
      q[t * H + c] = qkv[t * 3 * H + c];
      k[t * H + c] = qkv[t * 3 * H + H + c];
      v[t * H + c] = qkv[t * 3 * H + 2 * H + c];
    }
  Matrix a = causalAttention(q, k, v, T, heads, heads, dim);
  Matrix bproj = argument(6, H);
  Matrix p = linear(a, argument(5, H * H), T, H, H, &bproj);
  Matrix r1(T * H);
  for (int i = 0; i < T * H; ++i)
    r1[i] = x[i] + p[i];
  Matrix h2 = layerNorm(r1, argument(7, H), argument(8, H), T, H, 1e-5);
  Matrix bfc = argument(10, F);
  Matrix f = linear(h2, argument(9, H * F), T, H, F, &bfc);
  for (float &value : f)
    value = float(0.5 * value *
                  (1 + std::tanh(std::sqrt(2 / M_PI) *
                                 (value + 0.044715 * value * value * value))));
  Matrix bout = argument(12, H);
  Matrix o = linear(f, argument(11, F * H), T, F, H, &bout);
  Matrix out(T * H);
  for (int i = 0; i < T * H; ++i)
    out[i] = r1[i] + o[i];
  return out;
}

/// The tiny LLaMA layer; with `qkNorm`, Qwen3's: each head's query and key
/// RMS-normalised (weights: arguments 11 and 12) before the rotation.
static Matrix llama(bool qkNorm) {
  const int T = 8, H = 32, heads = 4, kvHeads = 2, dim = 8, F = 64;
  Matrix x = argument(0, T * H);
  std::vector<long> positions(T);
  for (int t = 0; t < T; ++t)
    positions[t] = (1 + t) % 97;
  Matrix h = rmsNorm(x, argument(2, H), T, H, 1e-6);
  Matrix q = linear(h, argument(3, H * H), T, H, H);
  Matrix k = linear(h, argument(4, H * kvHeads * dim), T, H, kvHeads * dim);
  Matrix v = linear(h, argument(5, H * kvHeads * dim), T, H, kvHeads * dim);
  if (qkNorm) {
    q = rmsNorm(q, argument(11, dim), T * heads, dim, 1e-6);
    k = rmsNorm(k, argument(12, dim), T * kvHeads, dim, 1e-6);
  }
  auto rope = [&](Matrix &m, int n) {
    for (int t = 0; t < T; ++t)
      for (int hh = 0; hh < n; ++hh)
        for (int i = 0; i < dim / 2; ++i) {
          double angle = positions[t] * std::pow(10000.0, -2.0 * i / dim);
          float *pair = &m[t * n * dim + hh * dim + 2 * i];
          double x0 = pair[0], x1 = pair[1];
          pair[0] = float(x0 * std::cos(angle) - x1 * std::sin(angle));
          pair[1] = float(x0 * std::sin(angle) + x1 * std::cos(angle));
        }
  };
  rope(q, heads);
  rope(k, kvHeads);
  Matrix a = causalAttention(q, k, v, T, heads, kvHeads, dim);
  Matrix o = linear(a, argument(6, H * H), T, H, H);
  Matrix r1(T * H);
  for (int i = 0; i < T * H; ++i)
    r1[i] = x[i] + o[i];
  Matrix h2 = rmsNorm(r1, argument(7, H), T, H, 1e-6);
  Matrix g = linear(h2, argument(8, H * F), T, H, F);
  Matrix u = linear(h2, argument(9, H * F), T, H, F);
  for (int i = 0; i < T * F; ++i)
    g[i] = float(g[i] / (1 + std::exp(-double(g[i]))) * u[i]);
  Matrix d = linear(g, argument(10, F * H), T, F, H);
  Matrix out(T * H);
  for (int i = 0; i < T * H; ++i)
    out[i] = r1[i] + d[i];
  return out;
}

int main(int argc, char **argv) {
  std::string model = argc == 3 ? argv[1] : "";
  if (model != "gpt2" && model != "llama" && model != "qwen3") {
    std::fprintf(stderr, "usage: reference gpt2|llama|qwen3 results.bin\n");
    return 2;
  }
  Matrix expected = model == "gpt2" ? gpt2() : llama(model == "qwen3");
  Matrix actual(expected.size());
  FILE *file = std::fopen(argv[2], "rb");
  if (!file || std::fread(actual.data(), sizeof(float), actual.size(), file) !=
                   actual.size()) {
    std::fprintf(stderr, "cannot read %zu floats from %s\n", actual.size(),
                 argv[2]);
    return 2;
  }
  std::fclose(file);
  double worst = 0;
  bool ok = true;
  for (size_t i = 0; i < expected.size(); ++i) {
    double error = std::fabs(double(actual[i]) - expected[i]);
    worst = std::max(worst, error);
    if (!(error <= 1e-4 * (1 + std::fabs(expected[i])))) {
      if (ok)
        std::printf("mismatch at %zu: expected %.8g, got %.8g\n", i,
                    expected[i], actual[i]);
      ok = false;
    }
  }
  std::printf("%s: %zu values, max abs error %.3g: %s\n", argv[1],
              expected.size(), worst, ok ? "within tolerance" : "MISMATCH");
  return ok ? 0 : 1;
}
