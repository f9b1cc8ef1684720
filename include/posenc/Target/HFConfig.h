//===- HFConfig.h - Hugging Face config.json importer -----------*- C++ -*-===//
//
// Imports the attention configuration of a Hugging Face `config.json` (RoPE
// and its scaling scheme, or ALiBi) as a posenc module: one `func.func
// @attention` whose body is `posenc.rope_frequencies` + `posenc.attention`.
// Semantics follow Hugging Face transformers v5; see docs/hf-import.md.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TARGET_HFCONFIG_H
#define POSENC_TARGET_HFCONFIG_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llvm::cl {
class OptionCategory;
} // namespace llvm::cl

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace posenc {

/// Element type of the emitted q/k/v tensors.
enum class HFElementType { f32, f16, bf16 };

/// Parses `f32`, `f16` or `bf16`.
std::optional<HFElementType> parseHFElementType(StringRef name);

struct HFImportOptions {
  /// Static sequence length of the emitted function, or std::nullopt for a
  /// dynamic (`?`) one.
  std::optional<int64_t> seqLen;
  /// Batch size of the emitted function (> 0).
  int64_t batch = 1;
  /// Element type of q/k/v; std::nullopt reads `dtype` / `torch_dtype` from
  /// the config and falls back to f32.
  std::optional<HFElementType> elementType;
  /// Emit `inv_freq` as f64 instead of f32 (HF computes it in f32).
  bool f64Frequencies = false;
  /// Name of the config in diagnostics and locations.
  std::string sourceName = "config.json";
};

/// Registers the dialects the importer emits (posenc, func, arith, tensor).
void registerHFImportDialects(DialectRegistry &registry);

/// Imports `json`, the text of a Hugging Face `config.json`. Every invalid or
/// unsupported config is reported as one error diagnostic on `ctx` (located at
/// `opts.sourceName`, with line and column for malformed JSON) and yields
/// failure; the importer never asserts on bad input. The returned module
/// verifies.
FailureOr<OwningOpRef<ModuleOp>>
importHFConfig(StringRef json, MLIRContext *ctx, const HFImportOptions &opts);

/// Registers the translation `import-hf-config` (config.json -> posenc module,
/// for mlir-translate-style drivers, e.g. upstream's `mlirTranslateMain`) and
/// its command-line options `--seq-len=dynamic|N`, `--batch=N`,
/// `--dtype=f32|f16|bf16` and `--f64-frequencies`, which fill
/// HFImportOptions; invalid values are error diagnostics of the translation.
/// The options join `category` when one is given (a driver that hides
/// unrelated options passes its own). Call once, before the command line is
/// parsed.
void registerImportHFConfigTranslation(
    llvm::cl::OptionCategory *category = nullptr);

} // namespace posenc
} // namespace mlir

#endif // POSENC_TARGET_HFCONFIG_H
