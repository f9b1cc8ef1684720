//===- ConfigReader.cpp - Bounded JSON parsing, validated key access ------===//

#include "ConfigReader.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::posenc::hf;
namespace json = llvm::json;

//===----------------------------------------------------------------------===//
// Formatting values for diagnostics
//===----------------------------------------------------------------------===//

std::string mlir::posenc::hf::formatNumber(double value) {
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

std::string mlir::posenc::hf::describe(const json::Value &value) {
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

std::string mlir::posenc::hf::quote(StringRef text) {
  return ("\"" + text + "\"").str();
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

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

/// Reports llvm::json::ParseError (`[line:column, byte=N]: message`) at its
/// line and column.
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

FailureOr<json::Value> mlir::posenc::hf::parseConfigJson(StringRef json,
                                                         MLIRContext *ctx,
                                                         StringRef sourceName) {
  Location loc = FileLineColLoc::get(ctx, sourceName, 0, 0);
  if (std::optional<size_t> offset = findExcessiveNesting(json)) {
    StringRef before = json.take_front(*offset);
    unsigned line = before.count('\n') + 1;
    unsigned column = *offset - (before.rfind('\n') + 1) + 1;
    return emitError(FileLineColLoc::get(ctx, sourceName, line, column))
           << "JSON nested deeper than " << kMaxJsonDepth << " levels";
  }
  llvm::Expected<json::Value> parsed = json::parse(json);
  if (!parsed) {
    reportParseError(loc, ctx, sourceName, parsed.takeError());
    return failure();
  }
  if (!parsed->getAsObject())
    return emitError(loc) << "the top-level JSON value must be an object, got "
                          << describe(*parsed);
  return std::move(*parsed);
}

//===----------------------------------------------------------------------===//
// Sections
//===----------------------------------------------------------------------===//

std::string Section::keyPath(StringRef key) const {
  return path.empty() ? key.str() : path + "." + key.str();
}

const json::Value *Section::find(StringRef key) const {
  if (!object)
    return nullptr;
  const json::Value *value = object->get(key);
  if (!value || value->kind() == json::Value::Null)
    return nullptr;
  return value;
}

//===----------------------------------------------------------------------===//
// Typed reads
//===----------------------------------------------------------------------===//

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

InFlightDiagnostic ConfigReader::error(const Section &section, StringRef key) {
  return emitError(loc) << "'" << section.keyPath(key) << "' ";
}

InFlightDiagnostic ConfigReader::warning(const Section &section,
                                         StringRef key) {
  return emitWarning(loc) << "'" << section.keyPath(key) << "' ";
}

InFlightDiagnostic ConfigReader::missing(const Section &section,
                                         StringRef key) {
  bool isNull = section.object && section.object->get(key);
  return error(section, key) << (isNull ? "is null" : "is missing");
}

LogicalResult ConfigReader::readNumber(const Section &section, StringRef key,
                                       NumberRule rule,
                                       std::optional<double> &out) {
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
    return error(section, key)
           << "must be " << describeRule(rule) << ", got " << describe(*value);
  out = *number;
  return success();
}

LogicalResult ConfigReader::readInt(const Section &section, StringRef key,
                                    std::optional<int64_t> &out, int64_t min,
                                    int64_t max) {
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
    if (number && *number > max) {
      if (max == kMaxInt)
        diag << " <= 2^40";
      else
        diag << " <= " << max;
    }
    return diag << ", got " << describe(*value);
  }
  out = *number;
  return success();
}

/// Reads `key` as the `T` that `convert` makes of its value; std::nullopt from
/// `convert` is a wrong type: `'key' must be <expected>, got <value>`.
template <typename T, typename Convert>
static LogicalResult readAs(ConfigReader &r, const Section &section,
                            StringRef key, std::optional<T> &out,
                            StringRef expected, Convert convert) {
  out.reset();
  const json::Value *value = section.find(key);
  if (!value)
    return success();
  std::optional<T> converted = convert(*value);
  if (!converted)
    return r.error(section, key)
           << "must be " << expected << ", got " << describe(*value);
  out = std::move(converted);
  return success();
}

LogicalResult ConfigReader::readBool(const Section &section, StringRef key,
                                     std::optional<bool> &out) {
  return readAs(*this, section, key, out, "true or false",
                [](const json::Value &v) { return v.getAsBoolean(); });
}

LogicalResult ConfigReader::readString(const Section &section, StringRef key,
                                       std::optional<std::string> &out) {
  return readAs(*this, section, key, out, "a string",
                [](const json::Value &v) -> std::optional<std::string> {
                  if (std::optional<StringRef> text = v.getAsString())
                    return text->str();
                  return std::nullopt;
                });
}

LogicalResult ConfigReader::readSection(const Section &section, StringRef key,
                                        std::optional<Section> &out) {
  return readAs(*this, section, key, out, "an object or null",
                [&](const json::Value &v) -> std::optional<Section> {
                  if (const json::Object *object = v.getAsObject())
                    return Section{object, section.keyPath(key)};
                  return std::nullopt;
                });
}

LogicalResult
ConfigReader::readPositiveList(const Section &section, StringRef key,
                               std::optional<SmallVector<double>> &out) {
  out.reset();
  std::optional<const json::Array *> array;
  if (failed(readAs(
          *this, section, key, array, "a list of numbers",
          [](const json::Value &v) -> std::optional<const json::Array *> {
            if (const json::Array *list = v.getAsArray())
              return list;
            return std::nullopt;
          })))
    return failure();
  if (!array)
    return success();
  SmallVector<double> numbers;
  for (auto [index, element] : llvm::enumerate(**array)) {
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
