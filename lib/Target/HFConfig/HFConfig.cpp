//===- HFConfig.cpp - Hugging Face config.json importer -------------------===//
//
// Reads the attention-relevant keys of a Hugging Face `config.json` with the
// semantics of transformers v5 (`RotaryEmbeddingConfigMixin`,
// `modeling_rope_utils.py`, the BLOOM/MPT/DeepSeek-V3/gpt-oss model files) and
// emits one posenc function. Every key is validated here, before any attribute
// is built, so that bad input is a diagnostic naming the key and never an
// assertion inside an attribute constructor.
//
//===----------------------------------------------------------------------===//

#include "posenc/Target/HFConfig.h"

#include "posenc/IR/PosEncAttrs.h"
#include "posenc/IR/PosEncDialect.h"
#include "posenc/IR/PosEncNumerics.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::posenc;
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
                  tensor::TensorDialect>();
}

//===----------------------------------------------------------------------===//
// Formatting values for diagnostics
//===----------------------------------------------------------------------===//

/// The shortest decimal form of `value` that reads back exactly (`0.3`, not
/// `0.29999999999999999`).
static std::string formatNumber(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  std::string text;
  for (int precision = 1; precision <= 17; ++precision) {
    text.clear();
    llvm::raw_string_ostream os(text);
    os << llvm::format("%.*g", precision, value);
    if (std::strtod(text.c_str(), nullptr) == value)
      break;
  }
  return text;
}

/// A JSON value as quoted in a diagnostic: `"abc"`, `[1, 2]`, `null`, `inf`.
static std::string describe(const json::Value &value) {
  if (std::optional<double> number = value.getAsNumber())
    return formatNumber(*number);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  constexpr size_t maxChars = 60;
  if (text.size() > maxChars)
    text = text.substr(0, maxChars - 3) + "...";
  return text;
}

static std::string quote(StringRef text) { return ("\"" + text + "\"").str(); }

namespace {

//===----------------------------------------------------------------------===//
// Typed, validated access to the config
//===----------------------------------------------------------------------===//

/// A JSON object of the config and the dotted path that names its keys in
/// diagnostics ("" for the top level, "rope_scaling", "attn_config").
struct Section {
  const json::Object *object = nullptr;
  std::string path;

  std::string keyPath(StringRef key) const {
    return path.empty() ? key.str() : path + "." + key.str();
  }
  /// The value of `key`; std::nullopt when absent or null (transformers reads
  /// both with `.get()` and treats them alike).
  const json::Value *find(StringRef key) const {
    if (!object)
      return nullptr;
    const json::Value *value = object->get(key);
    if (!value || value->kind() == json::Value::Null)
      return nullptr;
    return value;
  }
  bool has(StringRef key) const { return find(key) != nullptr; }
  bool isEmpty() const { return !object || object->empty(); }
};

/// Range a number must fall in; each has a fixed wording in diagnostics.
enum class NumberRule { Finite, NonNegative, Positive, AboveOne, UnitInterval };

static StringRef describeRule(NumberRule rule) {
  switch (rule) {
  case NumberRule::Finite:
    return "a finite number";
  case NumberRule::NonNegative:
    return "a number >= 0";
  case NumberRule::Positive:
    return "a number > 0";
  case NumberRule::AboveOne:
    return "a number > 1";
  case NumberRule::UnitInterval:
    return "a number in (0, 1]";
  }
  llvm_unreachable("unknown rule");
}

static bool satisfies(NumberRule rule, double value) {
  switch (rule) {
  case NumberRule::Finite:
    return true;
  case NumberRule::NonNegative:
    return value >= 0.0;
  case NumberRule::Positive:
    return value > 0.0;
  case NumberRule::AboveOne:
    return value > 1.0;
  case NumberRule::UnitInterval:
    return value > 0.0 && value <= 1.0;
  }
  llvm_unreachable("unknown rule");
}

/// Reads keys of config sections and reports every problem as one error at
/// the config's location, naming the key: `'rope_scaling.factor' must be a
/// number > 0, got "abc"`. Readers leave `out` empty for absent or null keys.
class Reader {
public:
  explicit Reader(Location loc) : loc(loc) {}

  InFlightDiagnostic error() { return emitError(loc); }
  /// Starts a diagnostic `'path.key' ...`.
  InFlightDiagnostic error(const Section &section, StringRef key) {
    return emitError(loc) << "'" << section.keyPath(key) << "' ";
  }
  InFlightDiagnostic warning(const Section &section, StringRef key) {
    return emitWarning(loc) << "'" << section.keyPath(key) << "' ";
  }
  /// A required key that is absent or null.
  InFlightDiagnostic missing(const Section &section, StringRef key) {
    bool isNull = section.object && section.object->get(key);
    return error(section, key) << (isNull ? "is null" : "is missing");
  }

  LogicalResult readNumber(const Section &section, StringRef key,
                           NumberRule rule, std::optional<double> &out) {
    out.reset();
    const json::Value *value = section.find(key);
    if (!value)
      return success();
    std::optional<double> number = value->getAsNumber();
    // JSON has no NaN or Inf literal, but overflowing literals (1e999) parse
    // to Inf.
    if (number && !std::isfinite(*number))
      return error(section, key)
             << "must be a finite number, got " << describe(*value);
    if (!number || !satisfies(rule, *number))
      return error(section, key) << "must be " << describeRule(rule) << ", got "
                                 << describe(*value);
    out = *number;
    return success();
  }

  /// Reads an integer in [`min`, 2^40] (`min` is 1 unless told); `4096.0` is
  /// accepted. The cap keeps sums and products of sizes far from overflow.
  LogicalResult readInt(const Section &section, StringRef key,
                        std::optional<int64_t> &out, int64_t min = 1) {
    constexpr int64_t max = int64_t{1} << 40;
    out.reset();
    const json::Value *value = section.find(key);
    if (!value)
      return success();
    std::optional<int64_t> number = value->getAsInteger();
    if (!number || *number < min || *number > max) {
      InFlightDiagnostic diag = error(section, key);
      if (min == 1)
        diag << "must be a positive integer";
      else
        diag << "must be an integer >= " << min;
      if (number && *number > max)
        diag << " <= 2^40";
      return diag << ", got " << describe(*value);
    }
    out = *number;
    return success();
  }

  LogicalResult readBool(const Section &section, StringRef key,
                         std::optional<bool> &out) {
    out.reset();
    const json::Value *value = section.find(key);
    if (!value)
      return success();
    std::optional<bool> flag = value->getAsBoolean();
    if (!flag)
      return error(section, key)
             << "must be true or false, got " << describe(*value);
    out = *flag;
    return success();
  }

  LogicalResult readString(const Section &section, StringRef key,
                           std::optional<std::string> &out) {
    out.reset();
    const json::Value *value = section.find(key);
    if (!value)
      return success();
    std::optional<StringRef> text = value->getAsString();
    if (!text)
      return error(section, key)
             << "must be a string, got " << describe(*value);
    out = text->str();
    return success();
  }

  /// Reads a nested object; null and absent leave `out` empty.
  LogicalResult readSection(const Section &section, StringRef key,
                            std::optional<Section> &out) {
    out.reset();
    const json::Value *value = section.find(key);
    if (!value)
      return success();
    const json::Object *object = value->getAsObject();
    if (!object)
      return error(section, key)
             << "must be an object or null, got " << describe(*value);
    out = Section{object, section.keyPath(key)};
    return success();
  }

  /// Reads a list of numbers > 0 (LongRoPE factors).
  LogicalResult readPositiveList(const Section &section, StringRef key,
                                 std::optional<SmallVector<double>> &out) {
    out.reset();
    const json::Value *value = section.find(key);
    if (!value)
      return success();
    const json::Array *array = value->getAsArray();
    if (!array)
      return error(section, key)
             << "must be a list of numbers, got " << describe(*value);
    SmallVector<double> numbers;
    for (auto [index, element] : llvm::enumerate(*array)) {
      std::optional<double> number = element.getAsNumber();
      if (!number || !std::isfinite(*number) || *number <= 0.0)
        return error() << "'" << section.keyPath(key) << "[" << index
                       << "]' must be a finite number > 0, got "
                       << describe(element);
      numbers.push_back(*number);
    }
    out = std::move(numbers);
    return success();
  }

private:
  Location loc;
};

//===----------------------------------------------------------------------===//
// What the importer extracts
//===----------------------------------------------------------------------===//

struct AttentionConfig {
  std::string modelType;
  std::string architecture;
  int64_t numHeads = 0;
  int64_t numKvHeads = 0;
  /// Head dim of q and k, and of v (they differ for DeepSeek MLA).
  int64_t qkHeadDim = 0;
  int64_t vHeadDim = 0;
  Type elementType;
  /// The keys the head dim came from, for diagnostics.
  std::string headDimSource;
  /// Softmax scale when it is not 1/sqrt(qkHeadDim).
  std::optional<double> scale;

  // RoPE (rotaryDim > 0).
  int64_t rotaryDim = 0;
  /// First channel of the rotary part inside a q/k head: 0, except for
  /// DeepSeek MLA where the rope sub-head follows the nope part.
  int64_t rotaryOffset = 0;
  RotaryLayout layout = RotaryLayout::half_split;
  double base = 10000.0;
  std::string ropeType = "default";
  RopeScalingAttrInterface scaling;
  /// The scaling factor `s` the scheme ended up with (DeepSeek's softmax
  /// scale depends on it).
  std::optional<double> scalingFactor;

  // ALiBi.
  AlibiSlopesAttr alibi;
};

/// transformers' `get_mscale` (YaRN magnitude, DeepSeek softmax scale).
static double getMscale(double scale, double mscale) {
  return scale <= 1.0 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0;
}

class Importer {
public:
  Importer(MLIRContext *ctx, const HFImportOptions &opts, Location loc)
      : ctx(ctx), opts(opts), loc(loc), r(loc) {}

  FailureOr<OwningOpRef<ModuleOp>> import(const json::Object &root);

private:
  LogicalResult readMetadata();
  LogicalResult readElementType();
  LogicalResult rejectForeignKeys();
  LogicalResult readHeads(StringRef headsKey, StringRef hiddenKey,
                          bool llamaKeys);
  LogicalResult readDeepseekHeads();
  LogicalResult readRope();
  LogicalResult readRotaryDim(const Section &rope);
  /// Reads the scaling scheme of `cfg.ropeType` from the RoPE dict `rope`
  /// (whose type key is `typeKey`) into `cfg.scaling`.
  LogicalResult readScaling(const Section &rope, StringRef typeKey);
  LogicalResult readLinear(const Section &rope);
  LogicalResult readNtk(const Section &rope, StringRef typeKey);
  LogicalResult readDynamic(const Section &rope, StringRef typeKey);
  LogicalResult readYarn(const Section &rope);
  LogicalResult readLlama3(const Section &rope);
  LogicalResult readLongRope(const Section &rope);
  LogicalResult requirePositive(const Section &rope, StringRef key,
                                std::optional<double> &out);
  LogicalResult requireMaxPos(std::optional<int64_t> &out);
  LogicalResult requireNtkRotaryDim(const Section &rope, StringRef typeKey);
  LogicalResult resolveOriginalMax(const Section &rope,
                                   std::optional<int64_t> &out);
  LogicalResult readDeepseekScale(const Section &rope);
  LogicalResult readBloom();
  LogicalResult readMpt();
  LogicalResult checkGqa(StringRef headsKey, StringRef kvKey);
  OwningOpRef<ModuleOp> emit();
  DictionaryAttr summary();

  /// emitError callback for attribute `getChecked` (a backstop: the values
  /// were validated already).
  auto attrError(const Section &section) {
    return [this, path = section.path]() {
      return emitError(loc) << "invalid '" << path << "': ";
    };
  }

  /// `AttrT::getChecked` for an attribute read from `section`. Its verifier
  /// names parameters (`'mscale' ...`); those are the section's keys, so the
  /// error is re-emitted as `'rope_scaling.mscale' ...` like the importer's
  /// own.
  template <typename AttrT, typename... Args>
  AttrT getChecked(const Section &section, Args &&...args) {
    std::optional<std::string> message;
    AttrT attr;
    {
      ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
        if (!message)
          message = diag.str();
        return success();
      });
      attr = AttrT::getChecked([&] { return emitError(loc); }, ctx,
                               std::forward<Args>(args)...);
    }
    if (attr || !message)
      return attr;
    StringRef text = *message;
    if (text.consume_front("'"))
      emitError(loc) << "'" << section.keyPath(text.take_until([](char c) {
        return c == '\'';
      })) << text.drop_until([](char c) { return c == '\''; });
    else
      emitError(loc) << "invalid '" << section.path << "': " << text;
    return attr;
  }

  MLIRContext *ctx;
  const HFImportOptions &opts;
  Location loc;
  Reader r;
  Section top;
  AttentionConfig cfg;
};

} // namespace

//===----------------------------------------------------------------------===//
// Common keys
//===----------------------------------------------------------------------===//

LogicalResult Importer::readMetadata() {
  std::optional<std::string> modelType;
  if (failed(r.readString(top, "model_type", modelType)))
    return failure();
  cfg.modelType = modelType.value_or("");
  // `architectures` is informational only: take the first name if there is
  // one, ignore anything else.
  if (const json::Value *archs = top.find("architectures"))
    if (const json::Array *list = archs->getAsArray(); list && !list->empty())
      if (std::optional<StringRef> name = list->front().getAsString())
        cfg.architecture = name->str();
  return success();
}

LogicalResult Importer::readElementType() {
  HFElementType kind = HFElementType::f32;
  if (opts.elementType) {
    kind = *opts.elementType;
  } else {
    // transformers v5 writes `dtype`; older configs `torch_dtype`.
    StringRef key = top.has("dtype") ? "dtype" : "torch_dtype";
    std::optional<std::string> name;
    if (failed(r.readString(top, key, name)))
      return failure();
    if (name) {
      StringRef dtype = StringRef(*name);
      dtype.consume_front("torch.");
      std::optional<HFElementType> parsed =
          llvm::StringSwitch<std::optional<HFElementType>>(dtype)
              .Cases({"float32", "float"}, HFElementType::f32)
              .Cases({"float16", "half"}, HFElementType::f16)
              .Case("bfloat16", HFElementType::bf16)
              .Default(std::nullopt);
      if (!parsed)
        return r.error(top, key)
               << "= " << quote(*name)
               << " is not supported (supported: float32, float16, bfloat16; "
                  "the element type can also be chosen explicitly)";
      kind = *parsed;
    }
  }
  switch (kind) {
  case HFElementType::f32:
    cfg.elementType = Float32Type::get(ctx);
    break;
  case HFElementType::f16:
    cfg.elementType = Float16Type::get(ctx);
    break;
  case HFElementType::bf16:
    cfg.elementType = BFloat16Type::get(ctx);
    break;
  }
  return success();
}

/// Keys of other naming schemes that the generic Llama-style reader would
/// otherwise silently ignore, producing a plausible but wrong function.
LogicalResult Importer::rejectForeignKeys() {
  for (auto [key, meaning] :
       {std::pair<StringRef, StringRef>{"rotary_pct", "GPT-NeoX rotary "
                                                      "fraction"},
        {"rotary_emb_base", "GPT-NeoX rotary base"},
        {"rotary_dim", "GPT-J rotary dimension"}})
    if (top.has(key))
      return r.error(top, key)
             << "(" << meaning
             << ") is not supported; use 'partial_rotary_factor' and "
                "'rope_theta'";
  std::optional<bool> alibi;
  if (failed(r.readBool(top, "alibi", alibi)))
    return failure();
  if (alibi && *alibi)
    return r.error(top, "alibi")
           << "= true is only supported for model_type \"bloom\" and \"mpt\"";
  if (top.has("qk_rope_head_dim"))
    return r.error(top, "qk_rope_head_dim")
           << "(multi-head latent attention) is only supported for "
              "model_type \"deepseek_v3\"";
  return success();
}

LogicalResult Importer::checkGqa(StringRef headsKey, StringRef kvKey) {
  if (cfg.numHeads % cfg.numKvHeads != 0)
    return r.error(top, headsKey)
           << "(" << cfg.numHeads << ") must be a multiple of '" << kvKey
           << "' (" << cfg.numKvHeads << ")";
  return success();
}

/// Heads and head dim. With `llamaKeys`, also `num_key_value_heads` (default:
/// all heads) and `head_dim` (explicit null falls back, as transformers'
/// `getattr(config, "head_dim", None) or ...`); the head dim is otherwise
/// hidden / heads.
LogicalResult Importer::readHeads(StringRef headsKey, StringRef hiddenKey,
                                  bool llamaKeys) {
  std::optional<int64_t> heads, kvHeads, headDim;
  if (failed(r.readInt(top, headsKey, heads)))
    return failure();
  if (!heads)
    return r.missing(top, headsKey);
  cfg.numHeads = *heads;

  if (llamaKeys) {
    if (failed(r.readInt(top, "num_key_value_heads", kvHeads)))
      return failure();
    if (failed(r.readInt(top, "head_dim", headDim)))
      return failure();
  }
  cfg.numKvHeads = kvHeads.value_or(cfg.numHeads);
  if (failed(checkGqa(headsKey, "num_key_value_heads")))
    return failure();

  if (!headDim) {
    std::optional<int64_t> hidden;
    if (failed(r.readInt(top, hiddenKey, hidden)))
      return failure();
    if (!hidden)
      return r.missing(top, hiddenKey)
             << (llamaKeys ? " (and 'head_dim' is not given)" : "");
    if (*hidden % cfg.numHeads != 0)
      return r.error(top, hiddenKey)
             << "(" << *hidden << ") is not divisible by '" << headsKey << "' ("
             << cfg.numHeads << ")";
    headDim = *hidden / cfg.numHeads;
    cfg.headDimSource = ("'" + hiddenKey + "' / '" + headsKey + "'").str();
  } else {
    cfg.headDimSource = "'head_dim'";
  }
  cfg.qkHeadDim = cfg.vHeadDim = *headDim;
  return success();
}

//===----------------------------------------------------------------------===//
// RoPE
//===----------------------------------------------------------------------===//

/// DeepSeek-V3 multi-head latent attention: q/k heads are
/// `[nope (qk_nope_head_dim) | rope (qk_rope_head_dim)]`, v heads
/// `v_head_dim`, and only the rope part is rotated.
LogicalResult Importer::readDeepseekHeads() {
  std::optional<int64_t> heads, kvHeads, ropeDim, nopeDim, vDim;
  if (failed(r.readInt(top, "num_attention_heads", heads)) ||
      failed(r.readInt(top, "num_key_value_heads", kvHeads)) ||
      failed(r.readInt(top, "qk_rope_head_dim", ropeDim)) ||
      failed(r.readInt(top, "qk_nope_head_dim", nopeDim, /*min=*/0)) ||
      failed(r.readInt(top, "v_head_dim", vDim)))
    return failure();
  for (auto [key, value] : {std::pair<StringRef, std::optional<int64_t> &>{
                                "num_attention_heads", heads},
                            {"qk_rope_head_dim", ropeDim},
                            {"qk_nope_head_dim", nopeDim},
                            {"v_head_dim", vDim}})
    if (!value)
      return r.missing(top, key);
  if (*ropeDim % 2 != 0)
    return r.error(top, "qk_rope_head_dim")
           << "(" << *ropeDim
           << ") must be even: RoPE rotates pairs of channels";
  cfg.numHeads = *heads;
  cfg.numKvHeads = kvHeads.value_or(*heads);
  if (failed(checkGqa("num_attention_heads", "num_key_value_heads")))
    return failure();
  cfg.qkHeadDim = *nopeDim + *ropeDim;
  cfg.vHeadDim = *vDim;
  cfg.rotaryDim = *ropeDim;
  cfg.rotaryOffset = *nopeDim;
  return success();
}

/// rotary_dim = int(head_dim * partial_rotary_factor). transformers v5 moves a
/// top-level `partial_rotary_factor` into the RoPE dict, overriding one there.
LogicalResult Importer::readRotaryDim(const Section &rope) {
  const Section &prfSection = top.has("partial_rotary_factor") ? top : rope;
  std::optional<double> prf;
  if (failed(r.readNumber(prfSection, "partial_rotary_factor",
                          NumberRule::UnitInterval, prf)))
    return failure();
  int64_t headDim = cfg.qkHeadDim;
  // Python's int() truncates: 80 * 0.4 = 32.00000000000001 -> 32.
  cfg.rotaryDim =
      prf ? static_cast<int64_t>(static_cast<double>(headDim) * *prf) : headDim;
  if (prf && (cfg.rotaryDim <= 0 || cfg.rotaryDim % 2 != 0))
    return r.error(prfSection, "partial_rotary_factor")
           << formatNumber(*prf) << " gives "
           << (cfg.rotaryDim <= 0 ? "" : "odd ") << "rotary_dim "
           << cfg.rotaryDim << " (head_dim " << headDim
           << "); RoPE needs a positive, even number of channels";
  if (cfg.rotaryDim % 2 != 0)
    return r.error() << "head_dim " << headDim << " (" << cfg.headDimSource
                     << ") is odd: RoPE rotates pairs of channels (a "
                        "'partial_rotary_factor' can select an even part)";
  return success();
}

/// `original_max_position_embeddings` of llama3/yarn/longrope: a top-level
/// key wins (Phi-3 style, transformers v5 `standardize_rope_params`), then the
/// RoPE dict, then `max_position_embeddings`.
LogicalResult Importer::resolveOriginalMax(const Section &rope,
                                           std::optional<int64_t> &out) {
  constexpr StringRef key = "original_max_position_embeddings";
  for (const Section *section : {static_cast<const Section *>(&top), &rope}) {
    if (failed(r.readInt(*section, key, out)))
      return failure();
    if (out)
      return success();
  }
  if (failed(r.readInt(top, "max_position_embeddings", out)))
    return failure();
  if (!out)
    return r.missing(rope, key)
           << " (and 'max_position_embeddings' is not given either)";
  return success();
}

LogicalResult Importer::requirePositive(const Section &rope, StringRef key,
                                        std::optional<double> &out) {
  if (failed(r.readNumber(rope, key, NumberRule::Positive, out)))
    return failure();
  if (!out)
    return r.missing(rope, key)
           << " (required by rope_type " << quote(cfg.ropeType) << ")";
  return success();
}

LogicalResult Importer::requireMaxPos(std::optional<int64_t> &out) {
  if (failed(r.readInt(top, "max_position_embeddings", out)))
    return failure();
  if (!out)
    return r.missing(top, "max_position_embeddings")
           << " (required by rope_type " << quote(cfg.ropeType) << ")";
  return success();
}

/// NTK variants raise to d/(d-2), which has no value for d = 2.
LogicalResult Importer::requireNtkRotaryDim(const Section &rope,
                                            StringRef typeKey) {
  if (cfg.rotaryDim <= 2)
    return r.error(rope, typeKey)
           << "= " << quote(cfg.ropeType) << " needs rotary_dim > 2, got "
           << cfg.rotaryDim;
  return success();
}

LogicalResult Importer::readLinear(const Section &rope) {
  std::optional<double> factor;
  if (failed(requirePositive(rope, "factor", factor)))
    return failure();
  cfg.scalingFactor = factor;
  cfg.scaling = getChecked<LinearAttr>(rope, Real(*factor));
  return success(cfg.scaling != nullptr);
}

/// transformers <= v4 static NTK (not in v5). vLLM's "ntk" is a different
/// formula (`#posenc.ntk<form = vllm>`) and not what a transformers config
/// means.
LogicalResult Importer::readNtk(const Section &rope, StringRef typeKey) {
  std::optional<double> factor;
  if (failed(requirePositive(rope, "factor", factor)) ||
      failed(requireNtkRotaryDim(rope, typeKey)))
    return failure();
  cfg.scalingFactor = factor;
  cfg.scaling = getChecked<NtkAttr>(rope, Real(*factor), NtkForm::hf);
  return success(cfg.scaling != nullptr);
}

/// HF dynamic NTK: the base grows with the runtime length beyond
/// `max_position_embeddings`.
LogicalResult Importer::readDynamic(const Section &rope, StringRef typeKey) {
  std::optional<double> factor;
  std::optional<int64_t> maxPos;
  if (failed(requirePositive(rope, "factor", factor)) ||
      failed(requireMaxPos(maxPos)) ||
      failed(requireNtkRotaryDim(rope, typeKey)))
    return failure();
  cfg.scalingFactor = factor;
  cfg.scaling = getChecked<DynamicNtkAttr>(rope, Real(*factor), *maxPos,
                                           DynamicNtkRule::hf);
  return success(cfg.scaling != nullptr);
}

LogicalResult Importer::readYarn(const Section &rope) {
  std::optional<int64_t> originalMax, maxPos;
  std::optional<double> factor, betaFast, betaSlow, mscale, mscaleAllDim,
      attentionFactor;
  std::optional<bool> truncate;
  if (failed(resolveOriginalMax(rope, originalMax)) ||
      failed(r.readNumber(rope, "factor", NumberRule::Positive, factor)) ||
      failed(
          r.readNumber(rope, "beta_fast", NumberRule::NonNegative, betaFast)) ||
      failed(
          r.readNumber(rope, "beta_slow", NumberRule::NonNegative, betaSlow)) ||
      failed(r.readBool(rope, "truncate", truncate)) ||
      failed(r.readNumber(rope, "mscale", NumberRule::Finite, mscale)) ||
      failed(r.readNumber(rope, "mscale_all_dim", NumberRule::Finite,
                          mscaleAllDim)) ||
      failed(r.readNumber(rope, "attention_factor", NumberRule::Positive,
                          attentionFactor)))
    return failure();
  // `factor` null: transformers uses max_position_embeddings / original.
  if (!factor) {
    if (failed(r.readInt(top, "max_position_embeddings", maxPos)))
      return failure();
    if (!maxPos)
      return r.missing(rope, "factor")
             << " (and 'max_position_embeddings' is not given to derive it)";
    factor = static_cast<double>(*maxPos) / static_cast<double>(*originalMax);
  }
  // `rope_parameters.get("beta_fast") or 32`: 0 and null mean the default.
  double fast = betaFast && *betaFast != 0.0 ? *betaFast : 32.0;
  double slow = betaSlow && *betaSlow != 0.0 ? *betaSlow : 1.0;
  if (fast < slow)
    return r.error(rope, "beta_fast")
           << "(" << formatNumber(fast) << ") must be >= '"
           << rope.keyPath("beta_slow") << "' (" << formatNumber(slow)
           << "): swapping them inverts which frequencies are interpolated";
  // gpt-oss trains with an un-truncated correction range.
  bool truncateRange = truncate.value_or(cfg.modelType != "gpt_oss");
  auto real = [](std::optional<double> v) -> std::optional<Real> {
    if (!v)
      return std::nullopt;
    return Real(*v);
  };
  cfg.scalingFactor = factor;
  cfg.scaling = getChecked<YarnAttr>(
      rope, Real(*factor), *originalMax, Real(fast), Real(slow), truncateRange,
      real(mscale), real(mscaleAllDim), real(attentionFactor),
      YarnFactorRule::explicit_factor, std::optional<int64_t>());
  return success(cfg.scaling != nullptr);
}

LogicalResult Importer::readLlama3(const Section &rope) {
  std::optional<double> factor, low, high;
  std::optional<int64_t> originalMax;
  if (failed(requirePositive(rope, "factor", factor)) ||
      failed(requirePositive(rope, "low_freq_factor", low)) ||
      failed(requirePositive(rope, "high_freq_factor", high)) ||
      failed(resolveOriginalMax(rope, originalMax)))
    return failure();
  if (*low > *high)
    return r.error(rope, "low_freq_factor")
           << "(" << formatNumber(*low) << ") must be <= '"
           << rope.keyPath("high_freq_factor") << "' (" << formatNumber(*high)
           << ")";
  cfg.scalingFactor = factor;
  cfg.scaling = getChecked<Llama3Attr>(rope, Real(*factor), Real(*low),
                                       Real(*high), *originalMax);
  return success(cfg.scaling != nullptr);
}

LogicalResult Importer::readLongRope(const Section &rope) {
  std::optional<SmallVector<double>> shortFactor, longFactor;
  std::optional<int64_t> originalMax, maxPos;
  std::optional<double> factor, attentionFactor;
  if (failed(r.readPositiveList(rope, "short_factor", shortFactor)) ||
      failed(r.readPositiveList(rope, "long_factor", longFactor)) ||
      failed(resolveOriginalMax(rope, originalMax)) ||
      failed(requireMaxPos(maxPos)) ||
      failed(r.readNumber(rope, "factor", NumberRule::Positive, factor)) ||
      failed(r.readNumber(rope, "attention_factor", NumberRule::Positive,
                          attentionFactor)))
    return failure();
  for (auto [key, list] :
       {std::pair<StringRef, std::optional<SmallVector<double>> &>{
            "short_factor", shortFactor},
        {"long_factor", longFactor}}) {
    if (!list)
      return r.missing(rope, key)
             << " (required by rope_type " << quote(cfg.ropeType) << ")";
    int64_t expected = cfg.rotaryDim / 2;
    if (static_cast<int64_t>(list->size()) != expected)
      return r.error(rope, key)
             << "has " << list->size()
             << " entries, expected rotary_dim/2 = " << expected
             << " (rotary_dim " << cfg.rotaryDim << ")";
  }
  // transformers: s = factor, else max_position_embeddings / original;
  // attention factor sqrt(1 + ln(s) / ln(original)) unless given.
  double s = factor.value_or(static_cast<double>(*maxPos) /
                             static_cast<double>(*originalMax));
  cfg.scalingFactor = s;
  double derived =
      s <= 1.0
          ? 1.0
          : std::sqrt(1.0 + std::log(s) /
                                std::log(static_cast<double>(*originalMax)));
  if (!attentionFactor && !std::isfinite(derived))
    return r.error(rope, "original_max_position_embeddings")
           << "(" << *originalMax
           << ") gives no finite LongRoPE attention factor; give "
              "'attention_factor' explicitly";
  // The attribute's default derives s from max_position_embeddings /
  // original; an explicit `factor` is spelled out as the attention factor.
  if (!attentionFactor && factor)
    attentionFactor = derived;
  SmallVector<Real> shortReal(shortFactor->begin(), shortFactor->end());
  SmallVector<Real> longReal(longFactor->begin(), longFactor->end());
  std::optional<Real> af;
  if (attentionFactor)
    af = Real(*attentionFactor);
  cfg.scaling = getChecked<LongRopeAttr>(rope, ArrayRef<Real>(shortReal),
                                         ArrayRef<Real>(longReal), *originalMax,
                                         *maxPos, af, LongRopeSelect::hf);
  return success(cfg.scaling != nullptr);
}

LogicalResult Importer::readScaling(const Section &rope, StringRef typeKey) {
  StringRef type = cfg.ropeType;
  if (type == "default")
    return success();
  if (type == "linear")
    return readLinear(rope);
  if (type == "ntk")
    return readNtk(rope, typeKey);
  if (type == "dynamic")
    return readDynamic(rope, typeKey);
  if (type == "yarn")
    return readYarn(rope);
  if (type == "llama3")
    return readLlama3(rope);
  if (type == "longrope")
    return readLongRope(rope);
  return r.error(rope, typeKey)
         << "= " << quote(type)
         << " is not supported (supported: default, linear, dynamic, ntk, "
            "yarn, llama3, longrope, su)";
}

/// DeepSeek-V3 softmax scale: qk_head_dim^-0.5, times
/// get_mscale(s, mscale_all_dim)^2 when a scaling scheme and a non-zero
/// `mscale_all_dim` are given (transformers `DeepseekV3Attention`).
LogicalResult Importer::readDeepseekScale(const Section &rope) {
  double scale = 1.0 / std::sqrt(static_cast<double>(cfg.qkHeadDim));
  if (cfg.ropeType != "default") {
    std::optional<double> mscaleAllDim;
    if (failed(r.readNumber(rope, "mscale_all_dim", NumberRule::Finite,
                            mscaleAllDim)))
      return failure();
    if (mscaleAllDim && *mscaleAllDim != 0.0) {
      if (!cfg.scalingFactor)
        return r.missing(rope, "factor")
               << " (the DeepSeek softmax scale needs it with "
                  "'mscale_all_dim')";
      double m = getMscale(*cfg.scalingFactor, *mscaleAllDim);
      scale *= m * m;
    }
  }
  if (!std::isfinite(scale) || scale <= 0.0)
    return r.error(rope, "mscale_all_dim")
           << "gives a softmax scale of " << formatNumber(scale)
           << "; it must be finite and > 0";
  cfg.scale = scale;
  return success();
}

LogicalResult Importer::readRope() {
  // transformers v5: a truthy `rope_scaling` (legacy name) replaces
  // `rope_parameters`.
  std::optional<Section> scaling, params;
  if (failed(r.readSection(top, "rope_scaling", scaling)) ||
      failed(r.readSection(top, "rope_parameters", params)))
    return failure();
  Section rope{nullptr, "rope_parameters"};
  if (scaling && !scaling->isEmpty()) {
    rope = *scaling;
    if (params && !params->isEmpty())
      r.warning(top, "rope_parameters")
          << "is ignored: 'rope_scaling' is also given and takes precedence "
             "(as in transformers)";
  } else if (params) {
    rope = *params;
  }

  // Per-layer-type RoPE (`{"full_attention": {...}, "sliding_attention":
  // {...}}`) would need one function per layer type.
  if (!rope.isEmpty() &&
      llvm::all_of(*rope.object, [](const json::Object::value_type &entry) {
        return entry.second.getAsObject() != nullptr;
      })) {
    SmallVector<std::string> keys;
    for (const auto &entry : *rope.object)
      keys.push_back(quote(entry.first.str()));
    llvm::sort(keys);
    return r.error() << "'" << rope.path
                     << "' holds per-layer-type parameters ("
                     << llvm::join(keys, ", ")
                     << "); only a single RoPE configuration is supported";
  }

  // `rope_type` wins over the legacy `type`; neither means "default".
  std::optional<std::string> ropeType, legacyType;
  if (failed(r.readString(rope, "rope_type", ropeType)) ||
      failed(r.readString(rope, "type", legacyType)))
    return failure();
  StringRef typeKey = ropeType ? "rope_type" : "type";
  if (ropeType && legacyType && *ropeType != *legacyType)
    r.warning(rope, "type")
        << "= " << quote(*legacyType) << " differs from '"
        << rope.keyPath("rope_type") << "' = " << quote(*ropeType)
        << "; using 'rope_type'";
  cfg.ropeType = ropeType ? *ropeType : legacyType.value_or("default");
  if (!ropeType && !legacyType && rope.has("factor"))
    r.warning(rope, "factor")
        << "is ignored: '" << rope.path
        << "' has no 'rope_type' (or 'type'), which means \"default\" (no "
           "scaling)";
  // Phi-3 shipped LongRoPE as "su" before it was renamed.
  if (cfg.ropeType == "su")
    cfg.ropeType = "longrope";

  // rope_theta: the RoPE dict's own value wins, then the top level.
  const Section &thetaSection = rope.has("rope_theta") ? rope : top;
  std::optional<double> theta;
  if (failed(r.readNumber(thetaSection, "rope_theta", NumberRule::AboveOne,
                          theta)))
    return failure();
  cfg.base = theta.value_or(10000.0);

  bool deepseek = cfg.modelType == "deepseek_v3";
  if (!deepseek && failed(readRotaryDim(rope)))
    return failure();

  std::optional<bool> interleave;
  if (failed(r.readBool(top, "rope_interleave", interleave)))
    return failure();
  // DeepSeek-V3 checkpoints keep Meta's interleaved q/k layout
  // (transformers' `rope_interleave` defaults to true there).
  cfg.layout = interleave.value_or(deepseek) ? RotaryLayout::interleaved
                                             : RotaryLayout::half_split;

  if (failed(readScaling(rope, typeKey)))
    return failure();
  if (cfg.scaling &&
      failed(cfg.scaling.verifyRotaryDim(attrError(rope), cfg.rotaryDim)))
    return failure();
  // A factor valid on its own can still overflow the table (1e-320 divides
  // by almost 0); larger tables are rejected when lowered.
  if (cfg.scaling && cfg.rotaryDim / 2 <= kMaxConstantElements) {
    Builder b(ctx);
    FloatType freqType =
        opts.f64Frequencies ? FloatType(b.getF64Type()) : b.getF32Type();
    if (std::optional<NonFiniteFrequency> bad = findNonFiniteFrequency(
            cfg.scaling, cfg.rotaryDim, cfg.base, freqType))
      return r.error(rope, bad->parameter)
             << "(" << formatNumber(bad->value) << ") " << bad->describe();
  }
  if (deepseek && failed(readDeepseekScale(rope)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ALiBi
//===----------------------------------------------------------------------===//

/// BLOOM: ALiBi with max_bias 8 on `n_head` heads; hidden size `n_embed` (old
/// name) or `hidden_size`.
LogicalResult Importer::readBloom() {
  StringRef headsKey = top.has("n_head") ? "n_head" : "num_attention_heads";
  StringRef hiddenKey = top.has("n_embed") ? "n_embed" : "hidden_size";
  if (failed(readHeads(headsKey, hiddenKey, /*llamaKeys=*/false)))
    return failure();
  cfg.alibi =
      AlibiSlopesAttr::getChecked(attrError(top), ctx, cfg.numHeads,
                                  /*head_offset=*/int64_t{0}, Real(8.0));
  return success(cfg.alibi != nullptr);
}

/// MPT (llm-foundry): `attn_config.alibi`, `alibi_bias_max` (default 8),
/// `n_heads`, `d_model`, `attn_type` (multi-head / multi-query / grouped).
LogicalResult Importer::readMpt() {
  std::optional<Section> attn;
  if (failed(r.readSection(top, "attn_config", attn)))
    return failure();
  Section attnConfig = attn.value_or(Section{nullptr, "attn_config"});
  std::optional<bool> alibi, prefixLm;
  if (failed(r.readBool(attnConfig, "alibi", alibi)) ||
      failed(r.readBool(attnConfig, "prefix_lm", prefixLm)))
    return failure();
  if (!alibi || !*alibi)
    return r.error(attnConfig, "alibi")
           << (alibi ? "is false" : "is missing")
           << ": MPT without ALiBi (learned absolute positions) is not "
              "supported";
  if (prefixLm && *prefixLm)
    return r.error(attnConfig, "prefix_lm")
           << "is true: prefix-LM (bidirectional prefix) attention is not "
              "supported";

  if (failed(readHeads("n_heads", "d_model", /*llamaKeys=*/false)))
    return failure();

  std::optional<std::string> attnType;
  if (failed(r.readString(attnConfig, "attn_type", attnType)))
    return failure();
  StringRef kind = attnType ? StringRef(*attnType) : "multihead_attention";
  if (kind == "multiquery_attention") {
    cfg.numKvHeads = 1;
  } else if (kind == "grouped_query_attention") {
    std::optional<int64_t> kvHeads;
    if (failed(r.readInt(attnConfig, "kv_n_heads", kvHeads)))
      return failure();
    if (!kvHeads)
      return r.missing(attnConfig, "kv_n_heads")
             << " (required by attn_type \"grouped_query_attention\")";
    cfg.numKvHeads = *kvHeads;
    if (cfg.numHeads % cfg.numKvHeads != 0)
      return r.error(top, "n_heads")
             << "(" << cfg.numHeads << ") must be a multiple of '"
             << attnConfig.keyPath("kv_n_heads") << "' (" << cfg.numKvHeads
             << ")";
  } else if (kind != "multihead_attention") {
    return r.error(attnConfig, "attn_type")
           << "= " << quote(kind)
           << " is not supported (supported: multihead_attention, "
              "multiquery_attention, grouped_query_attention)";
  }

  std::optional<double> maxBias, softmaxScale;
  if (failed(r.readNumber(attnConfig, "alibi_bias_max", NumberRule::Positive,
                          maxBias)) ||
      failed(r.readNumber(attnConfig, "softmax_scale", NumberRule::Positive,
                          softmaxScale)))
    return failure();
  cfg.scale = softmaxScale;
  cfg.alibi = AlibiSlopesAttr::getChecked(
      attrError(attnConfig), ctx, cfg.numHeads,
      /*head_offset=*/int64_t{0}, Real(maxBias.value_or(8.0)));
  return success(cfg.alibi != nullptr);
}

//===----------------------------------------------------------------------===//
// IR emission
//===----------------------------------------------------------------------===//

/// Summary of the source model, attached to the module as
/// `posenc.hf_config`.
DictionaryAttr Importer::summary() {
  Builder b(ctx);
  SmallVector<NamedAttribute> entries;
  auto add = [&](StringRef name, Attribute value) {
    entries.push_back(b.getNamedAttr(name, value));
  };
  if (!cfg.modelType.empty())
    add("model_type", b.getStringAttr(cfg.modelType));
  if (!cfg.architecture.empty())
    add("architecture", b.getStringAttr(cfg.architecture));
  add("num_attention_heads", b.getI64IntegerAttr(cfg.numHeads));
  add("num_key_value_heads", b.getI64IntegerAttr(cfg.numKvHeads));
  add("head_dim", b.getI64IntegerAttr(cfg.qkHeadDim));
  if (cfg.vHeadDim != cfg.qkHeadDim)
    add("v_head_dim", b.getI64IntegerAttr(cfg.vHeadDim));
  if (cfg.alibi) {
    add("position_encoding", b.getStringAttr("alibi"));
  } else {
    add("position_encoding", b.getStringAttr("rope"));
    add("rope_type", b.getStringAttr(cfg.ropeType));
    add("rope_theta", b.getF64FloatAttr(cfg.base));
    add("rotary_dim", b.getI64IntegerAttr(cfg.rotaryDim));
  }
  return b.getDictionaryAttr(entries);
}

/// `[x[..., split:] | x[..., :split]]` on the last axis of a rank-4 tensor.
static Value moveTailToFront(OpBuilder &b, Location loc, Value x,
                             int64_t split) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t width = type.getShape().back();
  SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  offsets[3] = b.getIndexAttr(split);
  sizes[3] = b.getIndexAttr(width - split);
  Value tail =
      tensor::ExtractSliceOp::create(b, loc, x, offsets, sizes, strides);
  offsets[3] = b.getIndexAttr(0);
  sizes[3] = b.getIndexAttr(split);
  Value head =
      tensor::ExtractSliceOp::create(b, loc, x, offsets, sizes, strides);
  return tensor::ConcatOp::create(b, loc, /*dim=*/3, ValueRange{tail, head});
}

OwningOpRef<ModuleOp> Importer::emit() {
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  (*module)->setAttr("posenc.hf_config", summary());
  b.setInsertionPointToEnd(module->getBody());

  int64_t batch = opts.batch;
  int64_t seq = opts.seqLen ? *opts.seqLen : ShapedType::kDynamic;
  Type elt = cfg.elementType;
  auto qType =
      RankedTensorType::get({batch, cfg.numHeads, seq, cfg.qkHeadDim}, elt);
  auto kType =
      RankedTensorType::get({batch, cfg.numKvHeads, seq, cfg.qkHeadDim}, elt);
  auto vType =
      RankedTensorType::get({batch, cfg.numKvHeads, seq, cfg.vHeadDim}, elt);
  auto posType = RankedTensorType::get({batch, seq}, b.getI64Type());
  auto outType =
      RankedTensorType::get({batch, cfg.numHeads, seq, cfg.vHeadDim}, elt);

  auto func = func::FuncOp::create(
      b, loc, "attention",
      b.getFunctionType({qType, kType, vType, posType}, {outType}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value q = entry->getArgument(0), k = entry->getArgument(1),
        v = entry->getArgument(2), positions = entry->getArgument(3);

  FloatAttr scale = cfg.scale ? b.getF64FloatAttr(*cfg.scale) : FloatAttr();
  Value result;
  if (cfg.alibi) {
    result = AttentionOp::create(b, loc, outType, q, k, v, /*inv_freq=*/Value(),
                                 /*attention_factor=*/Value(),
                                 /*alibi_slopes=*/Value(), positions, positions,
                                 scale, /*causal=*/true, /*rope=*/RopeAttr(),
                                 cfg.alibi, AlibiForm::key_linear);
  } else {
    Value seqLen;
    if (cfg.scaling && cfg.scaling.needsSeqLen()) {
      // transformers feeds max(position_ids) + 1; for a prefill from
      // position 0 that is the sequence length.
      if (opts.seqLen)
        seqLen = arith::ConstantIndexOp::create(b, loc, *opts.seqLen);
      else
        seqLen = tensor::DimOp::create(b, loc, q, 2);
    }
    Type freqElt = opts.f64Frequencies ? Type(b.getF64Type()) : b.getF32Type();
    auto freqs = RopeFrequenciesOp::create(
        b, loc, RankedTensorType::get({cfg.rotaryDim / 2}, freqElt),
        b.getF32Type(), b.getI64IntegerAttr(cfg.rotaryDim),
        b.getF64FloatAttr(cfg.base), cfg.scaling, seqLen);
    // posenc.attention rotates the first rotary_dim channels. DeepSeek's rope
    // sub-head sits after the nope part; q.k is invariant under one channel
    // permutation applied to both q and k, so rotate the rope part to the
    // front of both.
    if (cfg.rotaryOffset > 0) {
      q = moveTailToFront(b, loc, q, cfg.rotaryOffset);
      k = moveTailToFront(b, loc, k, cfg.rotaryOffset);
    }
    result = AttentionOp::create(
        b, loc, outType, q, k, v, freqs.getInvFreq(),
        freqs.getAttentionFactor(), /*alibi_slopes=*/Value(), positions,
        positions, scale, /*causal=*/true,
        RopeAttr::get(ctx, cfg.layout, cfg.rotaryDim), /*alibi=*/nullptr);
  }
  func::ReturnOp::create(b, loc, result);
  return module;
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

FailureOr<OwningOpRef<ModuleOp>> Importer::import(const json::Object &root) {
  top = Section{&root, ""};
  if (failed(readMetadata()) || failed(readElementType()))
    return failure();

  if (cfg.modelType == "bloom") {
    if (failed(readBloom()))
      return failure();
  } else if (cfg.modelType == "mpt") {
    if (failed(readMpt()))
      return failure();
  } else if (cfg.modelType == "deepseek_v3") {
    if (failed(readDeepseekHeads()) || failed(readRope()))
      return failure();
  } else {
    if (failed(rejectForeignKeys()) ||
        failed(readHeads("num_attention_heads", "hidden_size",
                         /*llamaKeys=*/true)) ||
        failed(readRope()))
      return failure();
  }

  OwningOpRef<ModuleOp> module = emit();
  if (failed(verify(*module)))
    return emitError(loc) << "internal error: the imported module does not "
                             "verify (please report this config)";
  return module;
}

/// `[line:column, byte=N]: message` from llvm::json::ParseError.
static void reportParseError(Location loc, MLIRContext *ctx,
                             StringRef sourceName, llvm::Error err) {
  std::string text = llvm::toString(std::move(err));
  llvm::Regex pattern("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$");
  SmallVector<StringRef> groups;
  if (pattern.match(text, &groups)) {
    unsigned line = 0, column = 0;
    if (!groups[1].getAsInteger(10, line) &&
        !groups[2].getAsInteger(10, column)) {
      // llvm::json counts columns from 0.
      emitError(FileLineColLoc::get(ctx, sourceName, line, column + 1))
          << "malformed JSON: " << groups[3];
      return;
    }
  }
  emitError(loc) << "malformed JSON: " << text;
}

/// llvm::json::parse recurses once per nesting level, so a deeply nested
/// file ("[[[[...") would overflow the stack. Real configs nest 2-4 levels.
static constexpr int kMaxJsonDepth = 128;

/// Offset of the bracket that opens nesting level kMaxJsonDepth + 1, if any
/// (brackets inside strings do not count).
static std::optional<size_t> findExcessiveNesting(StringRef json) {
  int depth = 0;
  bool inString = false, escaped = false;
  for (auto [offset, c] : llvm::enumerate(json)) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return offset;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::posenc::importHFConfig(StringRef json, MLIRContext *ctx,
                             const HFImportOptions &opts) {
  DialectRegistry registry;
  registerHFImportDialects(registry);
  ctx->appendDialectRegistry(registry);
  ctx->loadDialect<PosEncDialect, func::FuncDialect, arith::ArithDialect,
                   tensor::TensorDialect>();

  Location loc = FileLineColLoc::get(ctx, opts.sourceName, 0, 0);
  if (opts.batch <= 0)
    return emitError(loc) << "batch must be > 0, got " << opts.batch;
  if (opts.seqLen && *opts.seqLen <= 0)
    return emitError(loc) << "sequence length must be > 0, got "
                          << *opts.seqLen;

  if (std::optional<size_t> offset = findExcessiveNesting(json)) {
    StringRef before = json.take_front(*offset);
    unsigned line = before.count('\n') + 1;
    unsigned column = *offset - (before.rfind('\n') + 1) + 1;
    return emitError(FileLineColLoc::get(ctx, opts.sourceName, line, column))
           << "JSON nested deeper than " << kMaxJsonDepth << " levels";
  }
  llvm::Expected<json::Value> parsed = json::parse(json);
  if (!parsed) {
    reportParseError(loc, ctx, opts.sourceName, parsed.takeError());
    return failure();
  }
  const json::Object *root = parsed->getAsObject();
  if (!root)
    return emitError(loc) << "the top-level JSON value must be an object, got "
                          << describe(*parsed);
  return Importer(ctx, opts, loc).import(*root);
}
