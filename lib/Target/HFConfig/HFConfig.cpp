//===- HFConfig.cpp - Hugging Face config.json importer -------------------===//
//
// The importer's entry point: checks the options, parses the JSON, reads the
// config's metadata and element type, hands the rest to the model family
// (ModelFamilies.cpp) and emits the module (EmitAttention.cpp). Semantics are
// those of transformers v5; every key is validated before any attribute is
// built, so bad input is a diagnostic naming the key and never an assertion
// inside an attribute constructor. Importer.h describes the stages.
//
//===----------------------------------------------------------------------===//

#include "posenc/Target/HFConfig.h"

#include "Importer.h"

#include "posenc/IR/PosEncDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::posenc;
using namespace mlir::posenc::hf;
namespace json = llvm::json;

std::optional<HFElementType> mlir::posenc::parseHFElementType(StringRef name) {
  return llvm::StringSwitch<std::optional<HFElementType>>(name)
      .Case("f32", HFElementType::f32)
      .Case("f16", HFElementType::f16)
      .Case("bf16", HFElementType::bf16)
      .Default(std::nullopt);
}

void mlir::posenc::registerHFImportDialects(DialectRegistry &registry) {
  registry.insert<PosEncDialect, func::FuncDialect, arith::ArithDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect>();
}

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

/// `--dtype`, else `dtype` (v5) or `torch_dtype` (older configs), else f32.
static FailureOr<HFElementType> readElementKind(ImportContext &ic) {
  if (ic.opts.elementType)
    return *ic.opts.elementType;
  StringRef key = ic.top.has("dtype") ? "dtype" : "torch_dtype";
  std::optional<std::string> name;
  if (failed(ic.r.readString(ic.top, key, name)))
    return failure();
  if (!name)
    return HFElementType::f32;
  StringRef dtype = StringRef(*name);
  dtype.consume_front("torch.");
  std::optional<HFElementType> parsed =
      llvm::StringSwitch<std::optional<HFElementType>>(dtype)
          .Cases({"float32", "float"}, HFElementType::f32)
          .Cases({"float16", "half"}, HFElementType::f16)
          .Case("bfloat16", HFElementType::bf16)
          .Default(std::nullopt);
  if (!parsed)
    return ic.r.error(ic.top, key)
           << "= " << quote(*name)
           << " is not supported (supported: float32, float16, bfloat16; the "
              "element type can also be chosen explicitly)";
  return *parsed;
}

static Type getElementType(MLIRContext *ctx, HFElementType kind) {
  switch (kind) {
  case HFElementType::f32:
    return Float32Type::get(ctx);
  case HFElementType::f16:
    return Float16Type::get(ctx);
  case HFElementType::bf16:
    return BFloat16Type::get(ctx);
  }
  llvm_unreachable("unknown element type");
}

LogicalResult mlir::posenc::hf::readMetadata(ImportContext &ic,
                                             AttentionConfig &cfg) {
  std::optional<std::string> modelType;
  if (failed(ic.r.readString(ic.top, "model_type", modelType)))
    return failure();
  cfg.modelType = modelType.value_or("");
  // `architectures` is informational only: take the first name if there is
  // one, ignore anything else.
  if (const json::Value *archs = ic.top.find("architectures"))
    if (const json::Array *list = archs->getAsArray(); list && !list->empty())
      if (std::optional<StringRef> name = list->front().getAsString())
        cfg.architecture = name->str();
  FailureOr<HFElementType> kind = readElementKind(ic);
  if (failed(kind))
    return failure();
  cfg.elementType = getElementType(ic.ctx, *kind);
  return success();
}

/// Multimodal configs (Gemma 3, Llama 4) keep the language model's keys in
/// `text_config` (transformers' `get_text_config()`): the attention is read
/// from there, with its own `model_type` (`gemma3_text`, `llama4_text`).
static LogicalResult enterTextConfig(ImportContext &ic, AttentionConfig &cfg) {
  std::optional<Section> text;
  if (failed(ic.r.readSection(ic.top, "text_config", text)))
    return failure();
  if (!text)
    return success();
  ic.top = *text;
  std::optional<std::string> modelType;
  if (failed(ic.r.readString(ic.top, "model_type", modelType)))
    return failure();
  if (modelType)
    cfg.modelType = *modelType;
  else if (cfg.modelType == "gemma3" || cfg.modelType == "llama4")
    cfg.modelType += "_text";
  return success();
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

FailureOr<OwningOpRef<ModuleOp>>
mlir::posenc::importHFConfig(StringRef json, MLIRContext *ctx,
                             const HFImportOptions &opts) {
  DialectRegistry registry;
  registerHFImportDialects(registry);
  ctx->appendDialectRegistry(registry);
  ctx->loadDialect<PosEncDialect, func::FuncDialect, arith::ArithDialect,
                   linalg::LinalgDialect, math::MathDialect,
                   tensor::TensorDialect>();

  Location loc = FileLineColLoc::get(ctx, opts.sourceName, 0, 0);
  if (opts.batch <= 0)
    return emitError(loc) << "batch must be > 0, got " << opts.batch;
  if (opts.seqLen && *opts.seqLen <= 0)
    return emitError(loc) << "sequence length must be > 0, got "
                          << *opts.seqLen;

  FailureOr<json::Value> root = parseConfigJson(json, ctx, opts.sourceName);
  if (failed(root))
    return failure();
  ImportContext ic(ctx, opts, loc, *root->getAsObject());
  AttentionConfig cfg;
  if (failed(readMetadata(ic, cfg)) || failed(enterTextConfig(ic, cfg)))
    return failure();
  applyFamilyDefaults(ic, cfg);
  if (failed(readModelFamily(ic, cfg)) || failed(readLayerKinds(ic, cfg)))
    return failure();

  OwningOpRef<ModuleOp> module = emitAttentionModule(ctx, loc, opts, cfg);
  if (failed(verify(*module)))
    return emitError(loc) << "internal error: the imported module does not "
                             "verify (please report this config)";
  return module;
}
