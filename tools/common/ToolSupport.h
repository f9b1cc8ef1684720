//===- ToolSupport.h - Pieces shared by the posenc tools --------*- C++ -*-===//
//
// Reading inputs with a size cap (a device such as /dev/zero never ends) and
// running a tool on a thread with a large stack (MLIR's parser, printer,
// verifier walks and destructors recurse once per nesting level of regions).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_COMMON_TOOLSUPPORT_H
#define POSENC_TOOLS_COMMON_TOOLSUPPORT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace mlir::posenc::tools {

/// Stack of the thread runOnLargeStack starts. MLIR recurses once per
/// nesting level of regions, with about 700 bytes of frames per level in the
/// parser: the usual 8 MiB main-thread stack overflows below 12000 levels,
/// 512 MiB lasts beyond 500000. It is reserved address space; only the pages
/// a deep input touches are committed.
constexpr size_t kLargeStackSize = size_t(512) << 20;

/// Runs `body` on a thread with a kLargeStackSize stack and returns its
/// result (`main` runs its body this way). When no such thread can be
/// created (a tight `ulimit -v`), runs it on the calling thread.
int runOnLargeStack(llvm::function_ref<int()> body);

/// Inputs of MLIR text or bytecode read from a pipe or device are capped at
/// this size (regular files are mapped, whatever their size).
constexpr uint64_t kMaxStreamedMlirBytes = uint64_t(1) << 30;

/// Reads `path` (`-`: stdin) into a null-terminated buffer named after it.
/// Never reads more than `maxBytes`: a regular file larger than that is
/// rejected from its size (unless `limitRegularFiles` is false, then it is
/// mapped whatever its size), and anything else (a pipe, a terminal, a
/// device such as /dev/zero) is read in chunks and rejected as soon as it
/// exceeds the limit. `what` names the input in that error ("a config",
/// "MLIR input from a pipe or device"). Errors are one line naming the path.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, uint64_t maxBytes, llvm::StringRef what,
              bool limitRegularFiles = true);

/// Flushes `os` (an output file of the tool) and returns a write error (a
/// full disk, /dev/full) as one line naming `path`, clearing it from the
/// stream: a raw_fd_ostream destroyed with an error pending aborts the
/// process with "LLVM ERROR: IO failure on output stream".
llvm::Error finishOutput(llvm::raw_fd_ostream &os, llvm::StringRef path);

} // namespace mlir::posenc::tools

#endif // POSENC_TOOLS_COMMON_TOOLSUPPORT_H
