//===- Npy.h - .npy reader and writer -------------------------*- C++ -*-===//
//
// A strict reader and a writer for NumPy's .npy format (versions 1.0, 2.0 and
// 3.0; C order; little-endian or byte-order-free dtypes). Every malformed
// file is an llvm::Error naming what is wrong, never a crash, and no read is
// larger than the header declares.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_NPY_H
#define POSENC_TOOLS_POSENC_RUN_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mlir::posenc::run {

/// Largest header the reader accepts, as numpy's `np.load` (max_header_size).
constexpr uint64_t kNpyMaxHeaderSize = 10000;

/// The header of a .npy file.
struct NpyHeader {
  /// Normalized dtype descriptor: native byte order `=` is spelled `<`.
  std::string descr;
  llvm::SmallVector<int64_t> shape;
  /// Bytes per element, from the descriptor.
  uint64_t elementSize = 0;
  /// Byte offset of the array data in the file.
  uint64_t dataOffset = 0;
};

/// Parses and validates the header of the .npy file held in `file`. Rejects
/// Fortran order, big-endian and structured dtypes.
llvm::Expected<NpyHeader> parseNpyHeader(llvm::StringRef file);

/// Returns the product of `shape` times `elementSize`, or an error when it
/// does not fit in 63 bits.
llvm::Expected<uint64_t> getCheckedByteSize(llvm::ArrayRef<int64_t> shape,
                                            uint64_t elementSize);

/// A .npy file opened for reading. `open` reads and checks the header only
/// (never more than the preamble plus kNpyMaxHeaderSize bytes), so that the
/// caller can check the dtype and shape before any data is read; `readData`
/// then reads exactly the payload the header declares into the caller's
/// buffer. Devices and pipes work too: /dev/zero is a bad magic string after
/// a few bytes, not an endless read.
class NpyReader {
public:
  /// Opens `path` and reads its header; for a regular file, also checks that
  /// its size matches the header. Errors name the path.
  static llvm::Expected<NpyReader> open(llvm::StringRef path);

  NpyReader(NpyReader &&other) noexcept;
  NpyReader &operator=(NpyReader &&other) = delete;
  NpyReader(const NpyReader &) = delete;
  ~NpyReader();

  const NpyHeader &getHeader() const { return header; }
  /// The payload size the header declares.
  uint64_t getDataSize() const { return dataSize; }

  /// Reads the payload into `out` (of getDataSize() bytes) and checks that
  /// the file ends there.
  llvm::Error readData(llvm::MutableArrayRef<char> out);

private:
  NpyReader() = default;
  llvm::Error dataSizeError(bool truncated, llvm::StringRef found) const;

  std::string path;
  int file = -1;
  NpyHeader header;
  uint64_t dataSize = 0;
  /// Bytes of the payload read along with the header, and whether that read
  /// reached the end of the file.
  std::string prefetched;
  bool headReachedEnd = false;
};

/// Writes a C-order array of `descr` elements to `path` (format 1.0, or 2.0
/// when the header does not fit in 1.0).
llvm::Error writeNpy(llvm::StringRef path, llvm::StringRef descr,
                     llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<char> data);

/// Formats a shape as numpy does: `()`, `(5,)`, `(4, 8)`.
std::string formatNpyShape(llvm::ArrayRef<int64_t> shape);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_NPY_H
