//===- NpyFuzzer.cpp - libFuzzer target: posenc-run's .npy reader ---------===//
//
// Input: the bytes of a .npy file, as posenc-run reads them. The reader is
// tools/posenc-run/Npy.cpp (compiled into this target). Oracles besides
// crashes and sanitizer reports:
// - a rejected file has a non-empty error message (Npy.h: "every malformed
//   file is an llvm::Error naming what is wrong");
// - an accepted header has its data inside the file, and the header that
//   writeNpy would write for the same dtype and shape parses back to them.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::posenc::run;

namespace {

[[noreturn]] void fail(const llvm::Twine &what) {
  llvm::errs() << "posenc-npy-fuzzer: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}

/// The header writeNpy writes (format 1.0), in memory.
std::string writeHeader(llvm::StringRef descr, llvm::ArrayRef<int64_t> shape) {
  std::string dict =
      "{'descr': '" + descr.str() +
      "', 'fortran_order': False, 'shape': " + formatNpyShape(shape) + ", }";
  uint64_t preamble = 10;
  uint64_t headerLength =
      llvm::alignTo(preamble + dict.size() + 1, 64) - preamble;
  dict.append(headerLength - dict.size() - 1, ' ');
  dict.push_back('\n');
  char length[2];
  llvm::support::endian::write16le(length, headerLength);
  return std::string("\x93NUMPY\x01\x00", 8) + std::string(length, 2) + dict;
}

} // namespace

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef file(reinterpret_cast<const char *>(data), size);
  llvm::Expected<NpyHeader> header = parseNpyHeader(file);
  if (!header) {
    if (llvm::toString(header.takeError()).empty())
      fail("rejected without a message");
    return 0;
  }
  if (header->dataOffset > file.size())
    fail("accepted a header whose data starts past the end of the file");
  llvm::Expected<uint64_t> bytes =
      getCheckedByteSize(header->shape, header->elementSize);
  if (!bytes) {
    if (llvm::toString(bytes.takeError()).empty())
      fail("size check failed without a message");
    return 0;
  }
  // writeNpy's spelling of the shape may be longer than the input's: past
  // the reader's header limit there is nothing to compare.
  std::string rewritten = writeHeader(header->descr, header->shape);
  if (rewritten.size() - 10 > kNpyMaxHeaderSize)
    return 0;
  llvm::Expected<NpyHeader> reparsed = parseNpyHeader(rewritten);
  if (!reparsed)
    fail("the written header of an accepted one does not parse: " +
         llvm::toString(reparsed.takeError()));
  if (reparsed->descr != header->descr || reparsed->shape != header->shape)
    fail("the written header parses to another dtype or shape");
  return 0;
}
