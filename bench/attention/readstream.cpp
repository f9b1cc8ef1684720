//===- readstream.cpp - bench/attention's read-only ceiling for decode ----===//
//
// How fast this host's cores read a decode step's K and V when they do
// nothing else: the ceiling of any decode kernel, which must read every K/V
// byte once. K and V are f32 [HEADS, ROWS, DIM] on transparent huge pages
// (as posenc-run allocates its inputs); work items are (head, chunk of
// ROWS / 16 rows), split statically over the threads (as posenc's decode
// splits the keys). Each item sums its K and V rows into vector registers,
// in one of four patterns:
//
//   0  64 K rows, then the same 64 V rows (a flash step's two bursts)
//   1  K and V rows interleaved, row by row (two streams in flight)
//   2, 3  as 0, 1 with software prefetches 2 KiB ahead of each stream
//
// Usage: readstream THREADS ITERATIONS HEADS ROWS DIM
// Prints one line per pattern, `pattern=P median_ms=... gbps=...`, then
// `best median_ms=... gbps=...` (the fastest pattern: the ceiling).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <omp.h>
#include <sys/mman.h>

namespace {

// 64-byte vectors: one zmm register on AVX-512, two ymm on AVX2.
typedef float Vec16 __attribute__((vector_size(64), aligned(64)));

constexpr size_t kChunks = 16, kStep = 64, kAheadBytes = 2048;

float *allocate(size_t bytes) {
  size_t huge = 2 << 20, size = (bytes + huge - 1) / huge * huge;
  void *p = nullptr;
  if (posix_memalign(&p, huge, size) != 0) {
    std::fprintf(stderr, "readstream: out of memory\n");
    std::exit(1);
  }
  (void)madvise(p, size, MADV_HUGEPAGE);
  std::memset(p, 1, size);
  return static_cast<float *>(p);
}

// Adds row `r` (dim floats, a multiple of 16) into the accumulators.
inline void addRow(const float *x, size_t r, size_t dim, Vec16 &a, Vec16 &b) {
  const Vec16 *row = reinterpret_cast<const Vec16 *>(x + r * dim);
  for (size_t c = 0; c + 1 < dim / 16; c += 2) {
    a += row[c];
    b += row[c + 1];
  }
}

inline void prefetchRow(const float *x, size_t r, size_t dim, size_t rows) {
  size_t step = std::max<size_t>(1, kAheadBytes / (dim * sizeof(float)));
  size_t ahead = std::min(rows - 1, r + step);
  for (size_t c = 0; c < dim; c += 16)
    __builtin_prefetch(x + ahead * dim + c, 0, 3);
}

float readItem(const float *k, const float *v, size_t rows, size_t dim,
               int pattern) {
  Vec16 a = {}, b = {};
  bool prefetch = pattern >= 2, interleave = pattern % 2 == 1;
  for (size_t s = 0; s < rows; s += kStep) {
    size_t end = std::min(rows, s + kStep);
    if (interleave) {
      for (size_t r = s; r < end; ++r) {
        if (prefetch) {
          prefetchRow(k, r, dim, rows);
          prefetchRow(v, r, dim, rows);
        }
        addRow(k, r, dim, a, b);
        addRow(v, r, dim, a, b);
      }
      continue;
    }
    for (const float *x : {k, v})
      for (size_t r = s; r < end; ++r) {
        if (prefetch)
          prefetchRow(x, r, dim, rows);
        addRow(x, r, dim, a, b);
      }
  }
  a += b;
  float sum = 0;
  for (int l = 0; l < 16; ++l)
    sum += a[l];
  return sum;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr,
                 "usage: readstream THREADS ITERATIONS HEADS ROWS DIM\n");
    return 2;
  }
  int threads = std::atoi(argv[1]), iterations = std::atoi(argv[2]);
  size_t heads = std::strtoull(argv[3], nullptr, 10),
         rows = std::strtoull(argv[4], nullptr, 10),
         dim = std::strtoull(argv[5], nullptr, 10);
  if (threads < 1 || iterations < 1 || heads < 1 || rows % kChunks != 0 ||
      rows < kChunks || dim % 32 != 0) {
    std::fprintf(stderr, "readstream: bad arguments (ROWS a multiple of 16, "
                         "DIM a multiple of 32)\n");
    return 2;
  }
  omp_set_num_threads(threads);
  size_t bytes = heads * rows * dim * sizeof(float);
  float *k = allocate(bytes), *v = allocate(bytes);
  size_t chunkRows = rows / kChunks;
  double bestMs = 0;
  volatile float sink = 0;
  for (int pattern = 0; pattern < 4; ++pattern) {
    std::vector<double> ms;
    for (int it = 0; it < iterations + 1; ++it) {
      auto start = std::chrono::steady_clock::now();
      float total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
      for (size_t w = 0; w < heads * kChunks; ++w) {
        size_t offset = (w / kChunks * rows + w % kChunks * chunkRows) * dim;
        total += readItem(k + offset, v + offset, chunkRows, dim, pattern);
      }
      sink = sink + total;
      std::chrono::duration<double, std::milli> t =
          std::chrono::steady_clock::now() - start;
      if (it > 0) // the first call warms up
        ms.push_back(t.count());
    }
    std::sort(ms.begin(), ms.end());
    double median = ms[ms.size() / 2];
    std::printf("pattern=%d median_ms=%.4f gbps=%.3f\n", pattern, median,
                2.0 * bytes / median / 1e6);
    if (pattern == 0 || median < bestMs)
      bestMs = median;
  }
  std::printf("best median_ms=%.4f gbps=%.3f\n", bestMs,
              2.0 * bytes / bestMs / 1e6);
  return 0;
}
