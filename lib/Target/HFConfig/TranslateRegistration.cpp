//===- TranslateRegistration.cpp - The import-hf-config translation -------===//
//
// Registers importHFConfig as the mlir-translate translation
// `import-hf-config`, with its options as llvm::cl options.
//
//===----------------------------------------------------------------------===//

#include "posenc/Target/HFConfig.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::posenc;
namespace cl = llvm::cl;

namespace {
/// The translation's command-line options.
struct ImportOptionsCL {
  explicit ImportOptionsCL(cl::OptionCategory &category)
      : seqLen("seq-len",
               cl::desc("Sequence length of the emitted function: "
                        "'dynamic' (?) or a positive integer"),
               cl::value_desc("dynamic|N"), cl::init("dynamic"),
               cl::cat(category)),
        batch("batch",
              cl::desc("Batch size of the emitted function (default 1)"),
              cl::value_desc("N"), cl::init(1), cl::cat(category)),
        dtype("dtype",
              cl::desc("Element type of q, k, v and the result: f32, f16 or "
                       "bf16 (default: the config's 'dtype' / "
                       "'torch_dtype', else f32)"),
              cl::value_desc("f32|f16|bf16"), cl::init(""), cl::cat(category)),
        f64Frequencies(
            "f64-frequencies",
            cl::desc("Emit inv_freq as f64 (default f32, as transformers)"),
            cl::init(false), cl::cat(category)) {}

  /// HFImportOptions for a config named `sourceName`; an invalid option is
  /// an error diagnostic (`--batch must be a positive integer, got 0`).
  FailureOr<HFImportOptions> get(MLIRContext *ctx, StringRef sourceName) const;

  cl::opt<std::string> seqLen;
  cl::opt<int64_t> batch;
  cl::opt<std::string> dtype;
  cl::opt<bool> f64Frequencies;
};
} // namespace

FailureOr<HFImportOptions> ImportOptionsCL::get(MLIRContext *ctx,
                                                StringRef sourceName) const {
  Location loc = UnknownLoc::get(ctx);
  HFImportOptions opts;
  if (seqLen != "dynamic") {
    int64_t value = 0;
    if (StringRef(seqLen).getAsInteger(10, value) || value <= 0)
      return emitError(loc)
             << "--seq-len must be 'dynamic' or a positive integer, got '"
             << seqLen.getValue() << "'";
    opts.seqLen = value;
  }
  if (batch <= 0)
    return emitError(loc) << "--batch must be a positive integer, got "
                          << static_cast<int64_t>(batch);
  opts.batch = batch;
  if (!dtype.empty()) {
    opts.elementType = parseHFElementType(dtype);
    if (!opts.elementType)
      return emitError(loc) << "--dtype must be f32, f16 or bf16, got '"
                            << dtype.getValue() << "'";
  }
  opts.f64Frequencies = f64Frequencies;
  opts.sourceName = sourceName.str();
  return opts;
}

void mlir::posenc::registerImportHFConfigTranslation(
    cl::OptionCategory *category) {
  static const ImportOptionsCL options(category ? *category
                                                : cl::getGeneralCategory());
  TranslateToMLIRRegistration registration(
      "import-hf-config",
      "Import the input, a Hugging Face config.json, as a posenc attention "
      "function",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *ctx) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *input =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        FailureOr<HFImportOptions> opts =
            options.get(ctx, input->getBufferIdentifier());
        if (failed(opts))
          return nullptr;
        FailureOr<OwningOpRef<ModuleOp>> module =
            importHFConfig(input->getBuffer(), ctx, *opts);
        if (failed(module))
          return nullptr;
        return OwningOpRef<Operation *>(module->release());
      },
      registerHFImportDialects);
}
