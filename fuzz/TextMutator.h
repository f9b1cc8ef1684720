//===- TextMutator.h - token-level mutations for the fuzz targets -*- C++ -*-=//
//
// libFuzzer's byte mutations almost never keep MLIR or JSON text parseable,
// so most inputs would die in the (uninstrumented) parser and never reach
// posenc code. These mutations work on tokens instead: numbers become edge
// values (0, -1, 2^63 - 1, ?, 1e999, ...), identifiers become other
// identifiers of the input or of a keyword list (element types, enum
// keywords, config keys), lines are duplicated, dropped or swapped. The
// result usually still parses, so the verifier, the passes and the importer
// see edge cases instead of syntax errors. A share of the mutations stays
// libFuzzer's own (LLVMFuzzerMutate: bytes, dictionary, cross-over).
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_FUZZ_TEXTMUTATOR_H
#define POSENC_FUZZ_TEXTMUTATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace posenc_fuzz {

struct Token {
  enum Kind { Number, Identifier, String, Other };
  size_t begin, end;
  Kind kind;
};

/// Splits `text` into numbers (decimal, float, hex), identifiers, quoted
/// strings and single other characters. `x` between shape extents
/// (`4x?x8xf32`) is its own token so that the extents are numbers.
inline std::vector<Token> tokenize(llvm::StringRef text) {
  std::vector<Token> tokens;
  size_t i = 0, n = text.size();
  auto isIdent = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
  };
  while (i < n) {
    char c = text[i];
    size_t start = i;
    if (c == '"') {
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      i = std::min(i + 1, n);
      tokens.push_back({start, i, Token::String});
    } else if (llvm::isDigit(c) ||
               (c == '-' && i + 1 < n && llvm::isDigit(text[i + 1]))) {
      ++i;
      if (c == '0' && i + 1 < n && text[i] == 'x' &&
          llvm::isHexDigit(text[i + 1])) {
        for (++i; i < n && llvm::isHexDigit(text[i]); ++i)
          ;
      } else {
        while (i < n && (llvm::isDigit(text[i]) || text[i] == '.' ||
                         ((text[i] == 'e' || text[i] == 'E') && i + 1 < n &&
                          (llvm::isDigit(text[i + 1]) || text[i + 1] == '-' ||
                           text[i + 1] == '+')) ||
                         ((text[i] == '-' || text[i] == '+') &&
                          (text[i - 1] == 'e' || text[i - 1] == 'E'))))
          ++i;
      }
      tokens.push_back({start, i, Token::Number});
    } else if (c == 'x' && ((i + 1 < n && (llvm::isDigit(text[i + 1]) ||
                                           text[i + 1] == '?')) ||
                            (i > 0 && (llvm::isDigit(text[i - 1]) ||
                                       text[i - 1] == '?')))) {
      // The separator of `4x?x8xf32`, so that extents are numbers and the
      // element type an identifier.
      tokens.push_back({start, ++i, Token::Other});
    } else if (llvm::isAlpha(c) || c == '_') {
      while (i < n && isIdent(text[i]) &&
             !(text[i] == 'x' && i > start && i + 1 < n &&
               (llvm::isDigit(text[i + 1]) || text[i + 1] == '?') &&
               llvm::isDigit(text[i - 1])))
        ++i;
      tokens.push_back({start, i, Token::Identifier});
    } else {
      tokens.push_back({start, ++i, Token::Other});
    }
  }
  return tokens;
}

/// Mutates `text` in place with one to three token or line mutations.
/// `numbers` are the replacement candidates of number tokens; `words` those
/// of keywords (identifiers or strings), in classes separated by "" entries:
/// a keyword is replaced by another of its class (an element type by an
/// element type), which keeps most mutants parseable.
inline void mutateTokens(std::string &text, std::mt19937_64 &rng,
                         llvm::ArrayRef<const char *> numbers,
                         llvm::ArrayRef<const char *> words) {
  auto pick = [&](size_t bound) -> size_t {
    return bound ? std::uniform_int_distribution<size_t>(0, bound - 1)(rng) : 0;
  };
  int rounds = 1 + static_cast<int>(pick(3));
  for (int round = 0; round < rounds; ++round) {
    std::vector<Token> tokens = tokenize(text);
    if (tokens.empty())
      return;
    auto tokenText = [&](const Token &t) {
      return text.substr(t.begin, t.end - t.begin);
    };
    auto ofKind = [&](Token::Kind kind) {
      std::vector<size_t> out;
      for (auto [i, t] : llvm::enumerate(tokens))
        if (t.kind == kind)
          out.push_back(i);
      return out;
    };
    auto replace = [&](const Token &t, const std::string &with) {
      text.replace(t.begin, t.end - t.begin, with);
    };
    // Most replacements apply to every token with the same text, so
    // that a type or extent changes consistently (function signature and
    // ops alike) and the IR still verifies.
    bool everywhere = pick(4) != 0;
    auto apply = [&](const Token &t, const std::string &with) {
      if (!everywhere)
        return replace(t, with);
      std::string old = tokenText(t);
      for (const Token &u : llvm::reverse(tokens))
        if (u.kind == t.kind && tokenText(u) == old)
          replace(u, with);
    };
    // Numbers between `x`s or after `<` (`tensor<4x?x8xf32>`) are extents:
    // they stay extents (non-negative or `?`) so that the type still parses.
    auto isExtent = [&](const Token &t) {
      char before = t.begin ? text[t.begin - 1] : ' ';
      char after = t.end < text.size() ? text[t.end] : ' ';
      return after == 'x' || (before == 'x' && (after == '>' || after == 'x'));
    };
    unsigned kind = pick(10);
    if (kind < 5) { // a number becomes an edge value, a neighbour, or `?`
      std::vector<size_t> nums = ofKind(Token::Number);
      if (nums.empty())
        continue;
      const Token &t = tokens[nums[pick(nums.size())]];
      std::string old = tokenText(t);
      long long value = 0;
      bool integer = !llvm::StringRef(old).getAsInteger(0, value);
      bool extent = integer && isExtent(t);
      static constexpr const char *kExtents[] = {"0",
                                                 "1",
                                                 "2",
                                                 "3",
                                                 "4",
                                                 "7",
                                                 "8",
                                                 "16",
                                                 "65",
                                                 "65537",
                                                 "4294967296",
                                                 "4611686018427387904",
                                                 "9223372036854775807",
                                                 "?"};
      switch (pick(4)) {
      case 0:
        if (integer && value > std::numeric_limits<long long>::min() + 1 &&
            value < std::numeric_limits<long long>::max() &&
            !(extent && value == 0)) {
          apply(t, std::to_string(value + (pick(2) ? 1 : -1)));
          break;
        }
        [[fallthrough]];
      case 1:
        if (integer && value > -(1LL << 40) && value < (1LL << 40)) {
          apply(t, std::to_string(value * 2));
          break;
        }
        [[fallthrough]];
      default:
        if (extent)
          apply(t, kExtents[pick(std::size(kExtents))]);
        else
          apply(t, numbers[pick(numbers.size())]);
      }
      continue;
    }
    if (kind < 7) { // a keyword (element type, enum case, parameter name,
                    // config key or value) becomes another one
      std::vector<size_t> known;
      for (auto [i, t] : llvm::enumerate(tokens)) {
        std::string word = tokenText(t);
        if (t.kind == Token::String && word.size() >= 2)
          word = word.substr(1, word.size() - 2);
        if ((t.kind == Token::Identifier || t.kind == Token::String) &&
            !word.empty() && llvm::is_contained(words, llvm::StringRef(word)))
          known.push_back(i);
      }
      if (known.empty())
        continue;
      const Token &t = tokens[known[pick(known.size())]];
      std::string old = tokenText(t);
      if (t.kind == Token::String)
        old = old.substr(1, old.size() - 2);
      // The class of `old`: the run of words between "" separators.
      size_t at = llvm::find(words, llvm::StringRef(old)) - words.begin();
      size_t first = at, last = at;
      while (first > 0 && *words[first - 1])
        --first;
      while (last + 1 < words.size() && *words[last + 1])
        ++last;
      std::string with = words[first + pick(last - first + 1)];
      if (t.kind == Token::String)
        with = "\"" + with + "\"";
      apply(t, with);
      continue;
    }
    switch (kind) {
    case 7: { // drop or duplicate a token
      const Token &t = tokens[pick(tokens.size())];
      if (pick(2))
        replace(t, "");
      else
        text.insert(t.end, tokenText(t));
      break;
    }
    case 8: { // copy a token over another of the same kind
      const Token &a = tokens[pick(tokens.size())];
      const Token &b = tokens[pick(tokens.size())];
      if (a.kind == b.kind)
        replace(a, tokenText(b));
      break;
    }
    default: { // drop, duplicate or swap lines
      llvm::SmallVector<llvm::StringRef> lines;
      llvm::StringRef(text).split(lines, '\n');
      if (lines.size() < 2)
        break;
      std::vector<std::string> out(lines.begin(), lines.end());
      size_t a = pick(out.size()), b = pick(out.size());
      switch (pick(3)) {
      case 0:
        out.erase(out.begin() + a);
        break;
      case 1:
        out.insert(out.begin() + a, out[b]);
        break;
      default:
        std::swap(out[a], out[b]);
      }
      text = llvm::join(out, "\n");
    }
    }
  }
}

/// The custom mutator of a target whose input is one prefix byte of options
/// followed by text: an eighth of the time libFuzzer's own mutations, an
/// eighth of the time a new prefix byte, else token mutations.
inline size_t mutateInput(uint8_t *data, size_t size, size_t maxSize,
                          unsigned seed, llvm::ArrayRef<const char *> numbers,
                          llvm::ArrayRef<const char *> words) {
  std::mt19937_64 rng(seed);
  unsigned choice = rng() % 8;
  if (size < 2 || choice == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  if (choice == 1) {
    data[0] = static_cast<uint8_t>(rng());
    return size;
  }
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  mutateTokens(text, rng, numbers, words);
  if (text.size() + 1 > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data + 1, text.data(), text.size());
  return text.size() + 1;
}

} // namespace posenc_fuzz

#endif // POSENC_FUZZ_TEXTMUTATOR_H
