//===- bf16dot.cpp - vdpbf16ps against vfmadd231ps throughput -------------===//
//
// Why posenc's prefill keeps f32 FMAs for bf16 inputs: on a host with
// AVX-512 BF16, how many 512-bit `vdpbf16ps` (32 bf16 products summed
// pairwise into 16 f32 lanes) and `vfmadd231ps` (16 f32 products) one core
// retires per second, 16 independent accumulators each (no latency bound).
// A compute-bound kernel gains from the BF16 form only if the first rate
// times 2 exceeds the second.
//
// Build and run (x86-64 with avx512bf16):
//   clang++-22 -O2 -mavx512f -mavx512bf16 -o bf16dot bf16dot.cpp && ./bf16dot
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdio>

/// 16 copies of `op zmm30, zmm31, zmmN` for N = 0..15: independent
/// accumulators, so the loop is bound by throughput, not latency.
#define POSENC_OPS16(op)                                                       \
  op " %%zmm30, %%zmm31, %%zmm0\n\t" op " %%zmm30, %%zmm31, %%zmm1\n\t" op     \
     " %%zmm30, %%zmm31, %%zmm2\n\t" op " %%zmm30, %%zmm31, %%zmm3\n\t" op     \
     " %%zmm30, %%zmm31, %%zmm4\n\t" op " %%zmm30, %%zmm31, %%zmm5\n\t" op     \
     " %%zmm30, %%zmm31, %%zmm6\n\t" op " %%zmm30, %%zmm31, %%zmm7\n\t" op     \
     " %%zmm30, %%zmm31, %%zmm8\n\t" op " %%zmm30, %%zmm31, %%zmm9\n\t" op     \
     " %%zmm30, %%zmm31, %%zmm10\n\t" op " %%zmm30, %%zmm31, %%zmm11\n\t" op   \
     " %%zmm30, %%zmm31, %%zmm12\n\t" op " %%zmm30, %%zmm31, %%zmm13\n\t" op   \
     " %%zmm30, %%zmm31, %%zmm14\n\t" op " %%zmm30, %%zmm31, %%zmm15\n\t"

int main() {
  constexpr long iterations = 100000000;
  auto seconds = [](auto start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  auto start = std::chrono::steady_clock::now();
  asm volatile(
      "vpxord %%zmm30, %%zmm30, %%zmm30\n\t"
      "vpxord %%zmm31, %%zmm31, %%zmm31\n\t"
      "mov %0, %%rcx\n1:\n\t" POSENC_OPS16("vdpbf16ps") "dec %%rcx\n\tjnz 1b"
      :
      : "r"(iterations)
      : "rcx", "memory");
  double dot = seconds(start);
  start = std::chrono::steady_clock::now();
  asm volatile(
      "mov %0, %%rcx\n1:\n\t" POSENC_OPS16("vfmadd231ps") "dec %%rcx\n\tjnz 1b"
      :
      : "r"(iterations)
      : "rcx", "memory");
  double fma = seconds(start);
  double dotRate = 16 * iterations / dot / 1e9;
  double fmaRate = 16 * iterations / fma / 1e9;
  std::printf("vdpbf16ps %.2f G/s (%.1f G products/s), vfmadd231ps %.2f G/s "
              "(%.1f G products/s)\n",
              dotRate, 32 * dotRate, fmaRate, 16 * fmaRate);
  return 0;
}
