//===- ConfigReader.h - Bounded JSON parsing, validated key access -*- C++ -*-//
//
// The JSON layer of the Hugging Face config importer: parsing with a nesting
// limit and line/column diagnostics, and typed reads of config keys that
// report every problem as one error naming the key by its dotted path
// (`'rope_scaling.factor' must be a number > 0, got "abc"`).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_LIB_TARGET_HFCONFIG_CONFIGREADER_H
#define POSENC_LIB_TARGET_HFCONFIG_CONFIGREADER_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::posenc::hf {

/// The shortest decimal form of `value` that reads back exactly (`0.3`, not
/// `0.29999999999999999`); `inf`, `-inf`, `nan`.
std::string formatNumber(double value);
/// A JSON value as quoted in a diagnostic: `"abc"`, `[1, 2]`, `null`, `inf`
/// (at most 60 characters).
std::string describe(const llvm::json::Value &value);
/// `"text"`.
std::string quote(StringRef text);

/// Parses `json`, the text of a config named `sourceName`. Deeper nesting
/// than real configs have, malformed JSON (with line and column) and a
/// top-level value that is not an object are one error diagnostic each.
FailureOr<llvm::json::Value> parseConfigJson(StringRef json, MLIRContext *ctx,
                                             StringRef sourceName);

/// A JSON object of the config and the dotted path that names its keys in
/// diagnostics ("" for the top level, "rope_scaling", "attn_config").
struct Section {
  const llvm::json::Object *object = nullptr;
  std::string path;

  std::string keyPath(StringRef key) const;
  /// The value of `key`; nullptr when absent or null (transformers reads
  /// both with `.get()` and treats them alike).
  const llvm::json::Value *find(StringRef key) const;
  bool has(StringRef key) const { return find(key) != nullptr; }
  bool isEmpty() const { return !object || object->empty(); }
};

/// Range a number must fall in; each has a fixed wording in diagnostics.
enum class NumberRule { Finite, NonNegative, Positive, AboveOne, UnitInterval };

/// Reads keys of config sections and reports every problem as one error at
/// the config's location, naming the key. Readers leave `out` empty for
/// absent or null keys.
class ConfigReader {
public:
  explicit ConfigReader(Location loc) : loc(loc) {}

  InFlightDiagnostic error() { return emitError(loc); }
  /// Starts a diagnostic `'path.key' ...`.
  InFlightDiagnostic error(const Section &section, StringRef key);
  InFlightDiagnostic warning(const Section &section, StringRef key);
  /// A required key that is absent (`is missing`) or null (`is null`).
  InFlightDiagnostic missing(const Section &section, StringRef key);

  LogicalResult readNumber(const Section &section, StringRef key,
                           NumberRule rule, std::optional<double> &out);
  /// Reads an integer in [`min`, `max`]; `4096.0` is accepted. The default
  /// cap keeps sums and products of sizes far from overflow.
  static constexpr int64_t kMaxInt = int64_t{1} << 40;
  LogicalResult readInt(const Section &section, StringRef key,
                        std::optional<int64_t> &out, int64_t min = 1,
                        int64_t max = kMaxInt);
  LogicalResult readBool(const Section &section, StringRef key,
                         std::optional<bool> &out);
  LogicalResult readString(const Section &section, StringRef key,
                           std::optional<std::string> &out);
  /// Reads a nested object.
  LogicalResult readSection(const Section &section, StringRef key,
                            std::optional<Section> &out);
  /// Reads a list of finite numbers > 0 (LongRoPE factors).
  LogicalResult readPositiveList(const Section &section, StringRef key,
                                 std::optional<SmallVector<double>> &out);

private:
  Location loc;
};

} // namespace mlir::posenc::hf

#endif // POSENC_LIB_TARGET_HFCONFIG_CONFIGREADER_H
