//===- HostBuffer.h - Runner-owned tensor memory --------------*- C++ -*-===//
//
// The buffers posenc-run hands to the compiled entry: allocated once, 64-byte
// aligned (2 MiB aligned and backed by transparent huge pages when large),
// and pre-touched so that timed calls never pay first-touch page faults.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_HOSTBUFFER_H
#define POSENC_TOOLS_POSENC_RUN_HOSTBUFFER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::posenc::run {

/// Every HostBuffer starts at a multiple of this (mmap gives whole pages);
/// the entry wrapper tells the compiler so (memref.assume_alignment).
constexpr uint32_t kBufferAlignment = 64;

class HostBuffer {
public:
  HostBuffer() = default;
  HostBuffer(HostBuffer &&other) noexcept { *this = std::move(other); }
  HostBuffer &operator=(HostBuffer &&other) noexcept;
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;
  ~HostBuffer();

  /// Maps `size` bytes and zeroes them (which touches every page).
  static llvm::Expected<HostBuffer> allocate(uint64_t size);

  char *data() const { return begin; }
  uint64_t size() const { return length; }
  llvm::MutableArrayRef<char> bytes() const { return {begin, length}; }

private:
  void *mapping = nullptr;
  uint64_t mappingSize = 0;
  char *begin = nullptr;
  uint64_t length = 0;
};

/// Physical memory of the machine in bytes (0 if unknown).
uint64_t getPhysicalMemorySize();

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_HOSTBUFFER_H
