//===- peers.cpp - bench/rope's native peers
//--------------------------------===//
//
// The native reference points of bench/rope, on the same shape and bytes as
// posenc's kernel: RoPE on q and k, f32, [1, H, S, D], half-split, all D
// channels rotated, positions 0..S-1.
//
//   ntcopy   a STREAM-style copy of the same bytes (read q and k, write two
//            outputs) with non-temporal (streaming) stores: the bandwidth
//            ceiling of a kernel that reads its input once and writes its
//            output once.
//   cxxloop  the plain C++ loop a programmer writes (HF's form: cos/sin table
//            [S, D/2] computed once in f32, then every head's rows rotated),
//            compiled -O3 -march=native, OpenMP over heads.
//
// Usage: peers MODE THREADS ITERATIONS [H S D THETA]
// Prints one line: `MODE threads=T median_ms=... min_ms=...`.
// Buffers are allocated (64-byte aligned) and touched once before timing.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <immintrin.h>
#include <omp.h>

namespace {

float *allocate(size_t n) {
  void *p = nullptr;
  if (posix_memalign(&p, 2 << 20, n * sizeof(float)) != 0) {
    std::fprintf(stderr, "peers: out of memory\n");
    std::exit(1);
  }
  return static_cast<float *>(p);
}

// Touches (and so faults in) every page, in parallel like the kernels.
void fill(float *p, size_t n, unsigned seed) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i)
    p[i] = static_cast<float>((i * 2654435761u + seed) % 2001) / 1000.f - 1.f;
}

// 32-byte vectors: vmovntps on AVX2 and AVX-512 hosts alike (the stores, not
// the vector width, decide a streaming copy's bandwidth).
typedef float Vec8 __attribute__((vector_size(32), aligned(32)));

void ntCopy(const float *__restrict src, float *__restrict dst, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i += 8)
    __builtin_nontemporal_store(*reinterpret_cast<const Vec8 *>(src + i),
                                reinterpret_cast<Vec8 *>(dst + i));
  _mm_sfence();
}

struct Shape {
  size_t heads, seq, dim;
  double theta;
};

// Plain C++ RoPE of one tensor given the cos/sin table [seq, dim/2].
void rope(const Shape &s, const float *__restrict cosT,
          const float *__restrict sinT, const float *__restrict x,
          float *__restrict out) {
  size_t half = s.dim / 2;
#pragma omp parallel for collapse(2) schedule(static)
  for (size_t h = 0; h < s.heads; ++h)
    for (size_t t = 0; t < s.seq; ++t) {
      const float *row = x + (h * s.seq + t) * s.dim;
      float *o = out + (h * s.seq + t) * s.dim;
      const float *c = cosT + t * half, *sn = sinT + t * half;
      for (size_t i = 0; i < half; ++i) {
        o[i] = row[i] * c[i] - row[i + half] * sn[i];
        o[i + half] = row[i + half] * c[i] + row[i] * sn[i];
      }
    }
}

void table(const Shape &s, float *cosT, float *sinT) {
  size_t half = s.dim / 2;
#pragma omp parallel for schedule(static)
  for (size_t t = 0; t < s.seq; ++t)
    for (size_t i = 0; i < half; ++i) {
      float invFreq = static_cast<float>(
          1.0 / std::pow(s.theta, static_cast<double>(2 * i) / s.dim));
      float angle = static_cast<float>(t) * invFreq;
      cosT[t * half + i] = std::cos(angle);
      sinT[t * half + i] = std::sin(angle);
    }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4 && argc != 8) {
    std::fprintf(stderr, "usage: peers ntcopy|cxxloop THREADS ITERATIONS "
                         "[HEADS SEQ DIM THETA]\n");
    return 2;
  }
  std::string mode = argv[1];
  int threads = std::atoi(argv[2]), iterations = std::atoi(argv[3]);
  Shape s{32, 4096, 128, 500000.0};
  if (argc == 8)
    s = {std::strtoul(argv[4], nullptr, 10), std::strtoul(argv[5], nullptr, 10),
         std::strtoul(argv[6], nullptr, 10), std::strtod(argv[7], nullptr)};
  if ((mode != "ntcopy" && mode != "cxxloop") || threads < 1 ||
      iterations < 1 || s.dim % 32 != 0 || s.heads * s.seq == 0) {
    std::fprintf(stderr, "peers: bad arguments\n");
    return 2;
  }
  omp_set_num_threads(threads);
  size_t n = s.heads * s.seq * s.dim;
  float *q = allocate(n), *k = allocate(n), *qo = allocate(n),
        *ko = allocate(n);
  float *cosT = allocate(s.seq * s.dim / 2),
        *sinT = allocate(s.seq * s.dim / 2);
  fill(q, n, 1);
  fill(k, n, 2);
  fill(qo, n, 3);
  fill(ko, n, 4);
  fill(cosT, s.seq * s.dim / 2, 5);
  fill(sinT, s.seq * s.dim / 2, 6);

  auto once = [&] {
    if (mode == "ntcopy") {
      ntCopy(q, qo, n);
      ntCopy(k, ko, n);
    } else {
      table(s, cosT, sinT);
      rope(s, cosT, sinT, q, qo);
      rope(s, cosT, sinT, k, ko);
    }
  };
  once(); // warm-up
  std::vector<double> ms;
  for (int i = 0; i < iterations; ++i) {
    auto start = std::chrono::steady_clock::now();
    once();
    auto end = std::chrono::steady_clock::now();
    ms.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
  }
  // A result that depends on the outputs, so nothing is optimized away.
  double check = 0;
  for (size_t i = 0; i < n; i += 4093)
    check += qo[i] + ko[i];
  std::sort(ms.begin(), ms.end());
  double median = ms.size() % 2
                      ? ms[ms.size() / 2]
                      : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  std::printf("%s threads=%d median_ms=%.6g min_ms=%.6g check=%.3g\n",
              mode.c_str(), threads, median, ms.front(), check);
  return 0;
}
