//===- Npy.h - .npy reader and writer -------------------------*- C++ -*-===//
//
// A strict reader and a writer for NumPy's .npy format (versions 1.0, 2.0 and
// 3.0; C order; little-endian or byte-order-free dtypes). Every malformed
// file is an llvm::Error naming what is wrong, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_NPY_H
#define POSENC_TOOLS_POSENC_RUN_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

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

/// A .npy file read into memory; `data` points into `buffer`.
struct NpyArray {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  NpyHeader header;
  llvm::ArrayRef<char> data;
};

/// Reads `path` and checks that its data size matches the header exactly.
/// Errors are prefixed with the path.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Writes a C-order array of `descr` elements to `path` (format 1.0, or 2.0
/// when the header does not fit in 1.0).
llvm::Error writeNpy(llvm::StringRef path, llvm::StringRef descr,
                     llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<char> data);

/// Formats a shape as numpy does: `()`, `(5,)`, `(4, 8)`.
std::string formatNpyShape(llvm::ArrayRef<int64_t> shape);

} // namespace mlir::posenc::run

#endif // POSENC_TOOLS_POSENC_RUN_NPY_H
