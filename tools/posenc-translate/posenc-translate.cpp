//===- posenc-translate.cpp - posenc translation driver -------------------===//
//
// Imports a Hugging Face config.json as posenc IR:
//
//   posenc-translate --import-hf-config config.json -o attention.mlir
//
// The import itself lives in lib/Target/HFConfig; this driver parses options,
// reads the input and prints the module or the diagnostics.
//
//===----------------------------------------------------------------------===//

#include "posenc/Target/HFConfig.h"

#include "ToolSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory translateCategory("posenc-translate options");

/// Largest config.json read (the largest real ones are a few KiB).
static constexpr uint64_t kMaxConfigBytes = uint64_t(64) << 20;

static cl::opt<bool> importHFConfigFlag(
    "import-hf-config",
    cl::desc("Import the input, a Hugging Face config.json, as a posenc "
             "attention function"),
    cl::cat(translateCategory));

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<config.json or - for "
                                                   "stdin>"),
                                          cl::init("-"),
                                          cl::cat(translateCategory));

static cl::opt<std::string> outputFilename("o", cl::desc("Output filename"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(translateCategory));

static cl::opt<std::string>
    seqLenOption("seq-len",
                 cl::desc("Sequence length of the emitted function: "
                          "'dynamic' (?) or a positive integer"),
                 cl::value_desc("dynamic|N"), cl::init("dynamic"),
                 cl::cat(translateCategory));

static cl::opt<int64_t> batchOption("batch",
                                    cl::desc("Batch size of the emitted "
                                             "function (default 1)"),
                                    cl::value_desc("N"), cl::init(1),
                                    cl::cat(translateCategory));

static cl::opt<std::string> dtypeOption(
    "dtype",
    cl::desc("Element type of q, k, v and the result: f32, f16 or bf16 "
             "(default: the config's 'dtype' / 'torch_dtype', else f32)"),
    cl::value_desc("f32|f16|bf16"), cl::init(""), cl::cat(translateCategory));

static cl::opt<bool> f64FrequenciesOption(
    "f64-frequencies",
    cl::desc("Emit inv_freq as f64 (default f32, as transformers)"),
    cl::init(false), cl::cat(translateCategory));

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

/// Options that are not the importer's concern (usage errors).
static int usageError(const llvm::Twine &message) {
  llvm::errs() << "error: " << message << '\n';
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // libLLVM registers hundreds of codegen options; show only ours.
  cl::HideUnrelatedOptions(translateCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "posenc translation driver\n\n"
      "  posenc-translate --import-hf-config config.json -o out.mlir\n\n"
      "emits func.func @attention(q, k, v, positions) built from "
      "posenc.rope_frequencies and posenc.attention (see docs/hf-import.md)\n");

  if (!importHFConfigFlag)
    return usageError("no translation selected (use --import-hf-config)");

  posenc::HFImportOptions opts;
  if (seqLenOption != "dynamic") {
    int64_t seqLen = 0;
    if (StringRef(seqLenOption).getAsInteger(10, seqLen) || seqLen <= 0)
      return usageError("--seq-len must be 'dynamic' or a positive integer, "
                        "got '" +
                        seqLenOption + "'");
    opts.seqLen = seqLen;
  }
  if (batchOption <= 0)
    return usageError("--batch must be a positive integer, got " +
                      llvm::Twine(static_cast<int64_t>(batchOption)));
  opts.batch = batchOption;
  if (!dtypeOption.empty()) {
    opts.elementType = posenc::parseHFElementType(dtypeOption);
    if (!opts.elementType)
      return usageError("--dtype must be f32, f16 or bf16, got '" +
                        dtypeOption + "'");
  }
  opts.f64Frequencies = f64FrequenciesOption;
  opts.sourceName =
      inputFilename == "-" ? std::string("<stdin>") : inputFilename.getValue();

  // Real configs are a few KiB; a device such as /dev/zero never ends.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> input =
      posenc::tools::readInputFile(inputFilename, kMaxConfigBytes,
                                   "a config.json");
  if (!input)
    return usageError(llvm::toString(input.takeError()));

  MLIRContext context;
  ScopedDiagnosticHandler handler(&context, printDiagnostic);
  FailureOr<OwningOpRef<ModuleOp>> module =
      posenc::importHFConfig((*input)->getBuffer(), &context, opts);
  if (failed(module))
    return 1;

  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return usageError(errorMessage);
  (*module)->print(output->os());
  output->keep();
  return 0;
}
