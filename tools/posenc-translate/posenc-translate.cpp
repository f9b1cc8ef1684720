//===- posenc-translate.cpp - posenc translation driver -------------------===//
//
// Runs the translations registered with mlir-translate's registry, today
// `import-hf-config` (lib/Target/HFConfig):
//
//   posenc-translate --import-hf-config config.json -o attention.mlir
//
// It is upstream's mlirTranslateMain in the two places where that driver's
// behaviour is not ours: it reads the input with a cap (ToolSupport.h;
// mlirTranslateMain reads a device such as /dev/zero until memory runs out)
// and prints diagnostics as one `error: <file>[:line:col]: message` line
// (mlirTranslateMain's SourceMgr handler prints `<file>:0:0: error:` and the
// source line). Translations are selected and invoked the same way: the
// TranslationParser flag and Translation::operator().
//
//===----------------------------------------------------------------------===//

#include "posenc/Target/HFConfig.h"

#include "ToolSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory translateCategory("posenc-translate options");

/// Largest input read (the largest real config.json is a few KiB).
static constexpr uint64_t kMaxInputBytes = uint64_t(64) << 20;

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<config.json or - for "
                                                   "stdin>"),
                                          cl::init("-"),
                                          cl::cat(translateCategory));

static cl::opt<std::string> outputFilename("o", cl::desc("Output filename"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(translateCategory));

/// `error: config.json: message`, or `error: config.json:3:14: message` when
/// the location has a line (malformed JSON).
static LogicalResult printDiagnostic(Diagnostic &diag) {
  llvm::raw_ostream &os = llvm::errs();
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case DiagnosticSeverity::Note:
    os << "note: ";
    break;
  case DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  }
  if (auto fileLoc = dyn_cast<FileLineColLoc>(diag.getLocation())) {
    os << fileLoc.getFilename().getValue();
    if (fileLoc.getLine() != 0)
      os << ':' << fileLoc.getLine() << ':' << fileLoc.getColumn();
    os << ": ";
  }
  os << diag << '\n';
  for (Diagnostic &note : diag.getNotes())
    (void)printDiagnostic(note);
  return success();
}

/// Errors that are not a translation's (usage, files).
static int usageError(const llvm::Twine &message) {
  llvm::errs() << "error: " << message << '\n';
  return 1;
}

/// Runs `translation` on the input file and writes its output, which is
/// buffered so that a failed translation leaves an existing output file
/// alone.
static int runTranslation(const Translation &translation) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> input =
      posenc::tools::readInputFile(inputFilename, kMaxInputBytes,
                                   "a config.json");
  if (!input)
    return usageError(llvm::toString(input.takeError()));
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(*input), llvm::SMLoc());

  MLIRContext context;
  ScopedDiagnosticHandler handler(&context, printDiagnostic);
  std::string result;
  llvm::raw_string_ostream resultStream(result);
  if (failed(translation(sourceMgr, resultStream, &context)))
    return 1;

  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return usageError(errorMessage);
  output->os() << result;
  if (llvm::Error err =
          posenc::tools::finishOutput(output->os(), outputFilename))
    return usageError(llvm::toString(std::move(err)));
  output->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  posenc::registerImportHFConfigTranslation(&translateCategory);
  // After the registrations: the parser lists the translations registered
  // when it is constructed.
  cl::opt<const Translation *, /*ExternalStorage=*/false, TranslationParser>
      translation("", cl::desc("Translation to perform"),
                  cl::cat(translateCategory));
  // libLLVM registers hundreds of codegen options; show only ours.
  cl::HideUnrelatedOptions(translateCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "posenc translation driver\n\n"
      "  posenc-translate --import-hf-config config.json -o out.mlir\n\n"
      "emits func.func @attention(q, k, v, positions) built from "
      "posenc.rope_frequencies and posenc.attention (see docs/hf-import.md)\n");

  if (!translation)
    return usageError("no translation selected (use --import-hf-config)");
  return runTranslation(*translation);
}
