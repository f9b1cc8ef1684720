// What posenc's kernels call in IREE's embedded ELF, which has no libc:
// LLVM lowers large or variable-size copies and fills (memref.copy,
// linalg.fill) to memcpy and memset calls, and MLIR lowers memref.copy of
// strided views to memrefCopy (libmlir_c_runner_utils' function). Weak, so
// that the objects of several kernels link together. Compiled with
// -ffreestanding -fno-builtin by scripts/posenc_iree_kernels.py (the loops must
// not become calls to themselves).
#include <stddef.h>
#include <stdint.h>

__attribute__((weak)) void *memcpy(void *restrict dst, const void *restrict src,
                                   size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; ++i)
    d[i] = s[i];
  return dst;
}

__attribute__((weak)) void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s)
    for (size_t i = 0; i < n; ++i)
      d[i] = s[i];
  else
    for (size_t i = n; i > 0; --i)
      d[i - 1] = s[i - 1];
  return dst;
}

__attribute__((weak)) void *memset(void *dst, int value, size_t n) {
  unsigned char *d = dst;
  for (size_t i = 0; i < n; ++i)
    d[i] = (unsigned char)value;
  return dst;
}

// An unranked memref as MLIR passes it: the rank and a ranked descriptor
// {allocated, aligned, offset, sizes[rank], strides[rank]} (64-bit fields).
typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

typedef struct {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
} RankedDescriptor;

__attribute__((weak)) void memrefCopy(int64_t elementSize, UnrankedMemRef *src,
                                      UnrankedMemRef *dst) {
  int64_t rank = src->rank;
  const RankedDescriptor *s = src->descriptor;
  const RankedDescriptor *d = dst->descriptor;
  const int64_t *sizes = s->sizesAndStrides;
  const int64_t *srcStrides = s->sizesAndStrides + rank;
  const int64_t *dstStrides = d->sizesAndStrides + rank;
  for (int64_t i = 0; i < rank; ++i)
    if (sizes[i] == 0)
      return;
  const char *from = s->aligned + s->offset * elementSize;
  char *to = d->aligned + d->offset * elementSize;
  if (rank == 0) {
    memcpy(to, from, (size_t)elementSize);
    return;
  }
  // Rows along the last dimension, contiguous when both strides are 1.
  int64_t last = rank - 1;
  int64_t rowLength = sizes[last];
  int contiguous = srcStrides[last] == 1 && dstStrides[last] == 1;
  int64_t index[rank > 0 ? rank : 1];
  for (int64_t i = 0; i < rank; ++i)
    index[i] = 0;
  while (1) {
    int64_t srcOffset = 0, dstOffset = 0;
    for (int64_t i = 0; i < last; ++i) {
      srcOffset += index[i] * srcStrides[i];
      dstOffset += index[i] * dstStrides[i];
    }
    if (contiguous) {
      memcpy(to + dstOffset * elementSize, from + srcOffset * elementSize,
             (size_t)(rowLength * elementSize));
    } else {
      for (int64_t j = 0; j < rowLength; ++j)
        memcpy(to + (dstOffset + j * dstStrides[last]) * elementSize,
               from + (srcOffset + j * srcStrides[last]) * elementSize,
               (size_t)elementSize);
    }
    // The next row: increment the outer index like an odometer.
    int64_t dim = last - 1;
    while (dim >= 0 && ++index[dim] == sizes[dim])
      index[dim--] = 0;
    if (dim < 0)
      return;
  }
}
