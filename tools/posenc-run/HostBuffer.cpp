//===- HostBuffer.cpp - Runner-owned tensor memory ------------------------===//

#include "HostBuffer.h"

#include "llvm/Support/MathExtras.h"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;

namespace mlir::posenc::run {

/// Buffers of at least this size are aligned to it and advised to use
/// transparent huge pages: first touches of 4 KiB pages are very slow on
/// virtual machines.
static constexpr uint64_t kHugePageSize = 2 << 20;

HostBuffer &HostBuffer::operator=(HostBuffer &&other) noexcept {
  std::swap(mapping, other.mapping);
  std::swap(mappingSize, other.mappingSize);
  std::swap(begin, other.begin);
  std::swap(length, other.length);
  return *this;
}

HostBuffer::~HostBuffer() {
  if (mapping)
    ::munmap(mapping, mappingSize);
}

Expected<HostBuffer> HostBuffer::allocate(uint64_t size) {
  bool huge = size >= kHugePageSize;
  // Never map zero bytes: empty tensors still get a valid pointer.
  uint64_t mapSize = std::max<uint64_t>(size, 64);
  if (huge)
    mapSize = alignTo(size, kHugePageSize) + kHugePageSize;
  void *mapping = ::mmap(nullptr, mapSize, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED)
    return createStringError(inconvertibleErrorCode(),
                             "cannot allocate " + Twine(size) +
                                 " bytes: " + std::strerror(errno));
  HostBuffer buffer;
  buffer.mapping = mapping;
  buffer.mappingSize = mapSize;
  buffer.begin = static_cast<char *>(mapping);
  buffer.length = size;
  if (huge) {
    buffer.begin = reinterpret_cast<char *>(
        alignTo(reinterpret_cast<uintptr_t>(mapping), kHugePageSize));
    // Advisory only: without THP support the buffer simply uses 4 KiB pages.
    (void)::madvise(buffer.begin, alignTo(size, kHugePageSize), MADV_HUGEPAGE);
  }
  std::memset(buffer.begin, 0, size);
  return std::move(buffer);
}

uint64_t getPhysicalMemorySize() {
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
}

} // namespace mlir::posenc::run
