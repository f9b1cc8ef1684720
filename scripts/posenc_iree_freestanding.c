// What posenc's kernels call in IREE's embedded ELF, which has no libc:
// LLVM lowers large or variable-size copies and fills (memref.copy,
// linalg.fill) to memcpy and memset calls. Weak, so that the objects of
// several kernels link together. Compiled with -ffreestanding -fno-builtin
// by scripts/posenc_iree_kernels.py (the loops must not become calls to
// themselves).
#include <stddef.h>

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
