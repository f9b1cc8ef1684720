//===- ToolSupport.cpp - Pieces shared by the posenc tools ----------------===//

#include "ToolSupport.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <pthread.h>

using namespace llvm;

namespace mlir::posenc::tools {

int runOnLargeStack(function_ref<int()> body) {
  struct Call {
    function_ref<int()> body;
    int result = 0;
  } call{body, 0};
  auto run = [](void *arg) -> void * {
    auto *call = static_cast<Call *>(arg);
    call->result = call->body();
    return nullptr;
  };
  // pthread rather than llvm::thread, which aborts when it cannot start one:
  // a tool that cannot get the large stack still runs (shallow inputs fit).
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0)
    return body();
  pthread_t thread;
  bool started = pthread_attr_setstacksize(&attr, kLargeStackSize) == 0 &&
                 pthread_create(&thread, &attr, run, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return body();
  pthread_join(thread, nullptr);
  return call.result;
}

namespace {
/// A heap buffer read from a stream, null-terminated as the MLIR and JSON
/// parsers expect.
class StreamBuffer : public MemoryBuffer {
public:
  StreamBuffer(SmallVector<char, 0> bytes, StringRef name)
      : bytes(std::move(bytes)), name(name.str()) {
    size_t size = this->bytes.size();
    this->bytes.push_back('\0');
    init(this->bytes.data(), this->bytes.data() + size,
         /*RequiresNullTerminator=*/true);
  }
  StringRef getBufferIdentifier() const override { return name; }
  BufferKind getBufferKind() const override { return MemoryBuffer_Malloc; }

private:
  SmallVector<char, 0> bytes;
  std::string name;
};
} // namespace

Expected<std::unique_ptr<MemoryBuffer>> readInputFile(StringRef path,
                                                      uint64_t maxBytes,
                                                      StringRef what,
                                                      bool limitRegularFiles) {
  bool isStdin = path == "-";
  std::string name = isStdin ? "<stdin>" : path.str();
  auto cannotOpen = [&](const Twine &reason) {
    return createStringError("cannot open input file '" + name +
                             "': " + reason);
  };
  auto tooLarge = [&] {
    return createStringError("'" + name + "' is larger than " +
                             Twine(maxBytes) + " bytes, the limit for " + what);
  };

  sys::fs::file_t file = sys::fs::getStdinHandle();
  if (!isStdin) {
    Expected<sys::fs::file_t> opened = sys::fs::openNativeFileForRead(path);
    if (!opened)
      return cannotOpen(toString(opened.takeError()));
    file = *opened;
  }
  scope_exit closeFile([&] {
    if (!isStdin)
      sys::fs::closeFile(file);
  });
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(file, status))
    return cannotOpen(ec.message());
  if (status.type() == sys::fs::file_type::directory_file)
    return cannotOpen(
        std::make_error_code(std::errc::is_a_directory).message());

  if (status.type() == sys::fs::file_type::regular_file) {
    if (limitRegularFiles && status.getSize() > maxBytes)
      return tooLarge();
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
        MemoryBuffer::getOpenFile(file, name, status.getSize());
    if (!buffer)
      return cannotOpen(buffer.getError().message());
    return std::move(*buffer);
  }

  // A pipe or device has no size to check: read up to one byte past the cap.
  constexpr uint64_t kChunk = uint64_t(1) << 20;
  SmallVector<char, 0> bytes;
  while (true) {
    uint64_t chunk = std::min<uint64_t>(kChunk, maxBytes + 1 - bytes.size());
    size_t offset = bytes.size();
    // Grow by doubling, but never reserve past the cap.
    if (offset + chunk > bytes.capacity())
      bytes.reserve(std::min<uint64_t>(
          maxBytes + 1, std::max<uint64_t>(2 * bytes.capacity(), kChunk)));
    bytes.resize_for_overwrite(offset + chunk);
    Expected<size_t> read = sys::fs::readNativeFile(
        file, MutableArrayRef<char>(bytes.data() + offset, chunk));
    if (!read)
      return createStringError("cannot read '" + name +
                               "': " + toString(read.takeError()));
    bytes.truncate(offset + *read);
    if (*read == 0)
      break;
    if (bytes.size() > maxBytes)
      return tooLarge();
  }
  return std::make_unique<StreamBuffer>(std::move(bytes), name);
}

Error finishOutput(raw_fd_ostream &os, StringRef path) {
  os.flush();
  if (!os.has_error())
    return Error::success();
  std::error_code ec = os.error();
  os.clear_error();
  return createStringError("cannot write '" + path + "': " + ec.message());
}

} // namespace mlir::posenc::tools
