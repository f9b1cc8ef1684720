//===- Npy.cpp - .npy reader and writer -----------------------------------===//
//
// Format reference: numpy/lib/format.py. A file is the magic string
// "\x93NUMPY", a major and a minor version byte, a little-endian header
// length (2 bytes in 1.0, 4 bytes in 2.0/3.0), the header (a Python dict
// literal with keys 'descr', 'fortran_order' and 'shape', padded with spaces
// and a newline) and the raw array data.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "ToolSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace llvm;

namespace mlir::posenc::run {

static constexpr StringLiteral kMagic("\x93NUMPY");

/// Header text quoted in an error message, non-printable bytes escaped.
static std::string escaped(StringRef text) {
  std::string result;
  raw_string_ostream os(result);
  printEscapedString(text, os);
  return result;
}

std::string formatNpyShape(ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (auto [i, dim] : enumerate(shape)) {
    if (i)
      text += ", ";
    text += std::to_string(dim);
  }
  if (shape.size() == 1)
    text += ",";
  return text + ")";
}

Expected<uint64_t> getCheckedByteSize(ArrayRef<int64_t> shape,
                                      uint64_t elementSize) {
  constexpr uint64_t limit = std::numeric_limits<int64_t>::max();
  uint64_t bytes = elementSize;
  for (int64_t dim : shape) {
    if (dim < 0)
      return createStringError("negative dimension in shape " +
                               formatNpyShape(shape));
    bool overflow = false;
    bytes = SaturatingMultiply(bytes, static_cast<uint64_t>(dim), &overflow);
    if (overflow || bytes > limit)
      return createStringError("shape " + formatNpyShape(shape) + " with " +
                               Twine(elementSize) +
                               "-byte elements is too large: its byte size "
                               "overflows 63 bits");
  }
  return bytes;
}

namespace {
/// A recursive-descent parser of the header's dict literal.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : rest(text) {}

  /// Parses the dict into `header` (all but `dataOffset`).
  Error parse(NpyHeader &header);

private:
  void skipSpace() { rest = rest.ltrim(" \t\r\n"); }
  bool consume(StringRef token) {
    skipSpace();
    return rest.consume_front(token);
  }
  Error expect(StringRef token, StringRef where) {
    if (consume(token))
      return Error::success();
    return createStringError("malformed header: expected '" + token + "' " +
                             where + ", found '" +
                             escaped(rest.take_front(16)) + "'");
  }
  Expected<std::string> parseString(StringRef where);
  Expected<bool> parseBool();
  Expected<SmallVector<int64_t>> parseShape();
  Error parseDescr(NpyHeader &header);

  StringRef rest;
};
} // namespace

Expected<std::string> HeaderParser::parseString(StringRef where) {
  skipSpace();
  if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
    return createStringError("malformed header: expected a string " + where);
  char quote = rest.front();
  size_t end = rest.find(quote, 1);
  if (end == StringRef::npos)
    return createStringError("malformed header: unterminated string " + where);
  StringRef value = rest.slice(1, end);
  if (value.contains('\\'))
    return createStringError(
        "malformed header: escapes in strings are not supported");
  rest = rest.drop_front(end + 1);
  return value.str();
}

Expected<bool> HeaderParser::parseBool() {
  if (consume("True"))
    return true;
  if (consume("False"))
    return false;
  return createStringError(
      "malformed header: 'fortran_order' must be True or False");
}

Expected<SmallVector<int64_t>> HeaderParser::parseShape() {
  if (Error err = expect("(", "to open 'shape'"))
    return std::move(err);
  SmallVector<int64_t> shape;
  while (!consume(")")) {
    skipSpace();
    StringRef digits = rest.take_while(isDigit);
    if (digits.empty())
      return createStringError(
          "malformed header: expected a non-negative integer in "
          "'shape', found '" +
          escaped(rest.take_front(16)) + "'");
    uint64_t dim = 0;
    if (digits.getAsInteger(10, dim) ||
        dim > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return createStringError("dimension " + digits +
                               " in 'shape' is too large");
    shape.push_back(static_cast<int64_t>(dim));
    rest = rest.drop_front(digits.size());
    rest.consume_front("L"); // Python 2 longs, written by old numpy.
    if (!consume(",")) {
      if (Error err = expect(")", "to close 'shape'"))
        return std::move(err);
      break;
    }
  }
  return shape;
}

Error HeaderParser::parseDescr(NpyHeader &header) {
  skipSpace();
  if (rest.starts_with("["))
    return createStringError("structured dtypes are not supported");
  Expected<std::string> descr = parseString("for 'descr'");
  if (!descr)
    return descr.takeError();
  StringRef text = *descr;
  if (text.size() >= 2 && text[1] == 'O')
    return createStringError("object arrays are not supported");
  uint64_t size = 0;
  if (text.size() < 3 || !StringRef("<>=|").contains(text[0]) ||
      !isAlpha(text[1]) || text.drop_front(2).getAsInteger(10, size) ||
      size == 0 || size > 64)
    return createStringError("unsupported dtype '" + escaped(text) + "'");
  char order = text[0];
  char kind = text[1];
  if (order == '>' && size > 1)
    return createStringError("big-endian dtype '" + text +
                             "' is not supported; save the array with a "
                             "little-endian dtype");
  // numpy spells native order '=' and byte-order-free types '|'; this host
  // is little-endian, so both compare equal to '<' forms below.
  if (size > 1)
    order = '<';
  else
    order = '|';
  header.descr = (Twine(order) + Twine(kind) + Twine(size)).str();
  header.elementSize = kind == 'U' ? size * 4 : size;
  return Error::success();
}

Error HeaderParser::parse(NpyHeader &header) {
  if (Error err = expect("{", "at the start of the header"))
    return err;
  bool seenDescr = false, seenOrder = false, seenShape = false;
  while (!consume("}")) {
    Expected<std::string> key = parseString("as a header key");
    if (!key)
      return key.takeError();
    if (Error err = expect(":", "after key '" + escaped(*key) + "'"))
      return err;
    if (*key == "descr" && !seenDescr) {
      seenDescr = true;
      if (Error err = parseDescr(header))
        return err;
    } else if (*key == "fortran_order" && !seenOrder) {
      seenOrder = true;
      Expected<bool> fortran = parseBool();
      if (!fortran)
        return fortran.takeError();
      if (*fortran)
        return createStringError(
            "Fortran-order arrays are not supported; save a "
            "C-contiguous array (np.ascontiguousarray)");
    } else if (*key == "shape" && !seenShape) {
      seenShape = true;
      Expected<SmallVector<int64_t>> shape = parseShape();
      if (!shape)
        return shape.takeError();
      header.shape = std::move(*shape);
    } else {
      return createStringError(
          "malformed header: unexpected or repeated key '" + escaped(*key) +
          "'");
    }
    if (!consume(",")) {
      if (Error err = expect("}", "to close the header"))
        return err;
      break;
    }
  }
  skipSpace();
  if (!rest.empty())
    return createStringError(
        "malformed header: trailing characters after the dict");
  if (!seenDescr || !seenOrder || !seenShape)
    return createStringError(Twine("malformed header: missing key '") +
                             (!seenDescr   ? "descr"
                              : !seenOrder ? "fortran_order"
                                           : "shape") +
                             "'");
  return Error::success();
}

Expected<NpyHeader> parseNpyHeader(StringRef file) {
  // A file shorter than the magic string is truncated if it is a prefix of it.
  if (!kMagic.starts_with(file.take_front(kMagic.size())))
    return createStringError("not a .npy file (bad magic string)");
  if (file.size() < kMagic.size() + 2)
    return createStringError("truncated header: the file has only " +
                             Twine(file.size()) + " bytes");
  unsigned major = static_cast<uint8_t>(file[6]);
  unsigned minor = static_cast<uint8_t>(file[7]);
  if (major < 1 || major > 3 || minor != 0)
    return createStringError("unsupported .npy format version " + Twine(major) +
                             "." + Twine(minor) +
                             " (supported: 1.0, 2.0, 3.0)");
  uint64_t lengthBytes = major == 1 ? 2 : 4;
  uint64_t preamble = kMagic.size() + 2 + lengthBytes;
  if (file.size() < preamble)
    return createStringError("truncated header: the file has only " +
                             Twine(file.size()) + " bytes");
  const char *lengthPtr = file.data() + kMagic.size() + 2;
  uint64_t headerLength = major == 1 ? support::endian::read16le(lengthPtr)
                                     : support::endian::read32le(lengthPtr);
  if (headerLength > kNpyMaxHeaderSize)
    return createStringError("header length " + Twine(headerLength) +
                             " exceeds the limit of " +
                             Twine(kNpyMaxHeaderSize) + " bytes");
  if (file.size() - preamble < headerLength)
    return createStringError(
        "truncated header: it declares " + Twine(headerLength) +
        " bytes but the file has only " + Twine(file.size() - preamble) +
        " after the preamble");

  NpyHeader header;
  HeaderParser parser(file.substr(preamble, headerLength));
  if (Error err = parser.parse(header))
    return std::move(err);
  header.dataOffset = preamble + headerLength;
  return header;
}

/// Reads into `out` until it is full or the file ends; returns the count.
static Expected<size_t> readFully(int file, MutableArrayRef<char> out) {
  size_t done = 0;
  while (done < out.size()) {
    Expected<size_t> read = sys::fs::readNativeFile(file, out.drop_front(done));
    if (!read)
      return read.takeError();
    if (*read == 0)
      break;
    done += *read;
  }
  return done;
}

Expected<NpyReader> NpyReader::open(StringRef path) {
  auto cannotRead = [&](const Twine &reason) {
    return createStringError("cannot read '" + path + "': " + reason);
  };
  Expected<sys::fs::file_t> opened = sys::fs::openNativeFileForRead(path);
  if (!opened)
    return cannotRead(toString(opened.takeError()));
  NpyReader reader;
  reader.path = path.str();
  reader.file = *opened;
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(reader.file, status))
    return cannotRead(ec.message());
  if (status.type() == sys::fs::file_type::directory_file)
    return cannotRead(
        std::make_error_code(std::errc::is_a_directory).message());

  // The header ends within the longest preamble plus the largest header.
  std::string head(kMagic.size() + 2 + 4 + kNpyMaxHeaderSize, '\0');
  Expected<size_t> read = readFully(reader.file, head);
  if (!read)
    return cannotRead(toString(read.takeError()));
  reader.headReachedEnd = *read < head.size();
  head.resize(*read);
  Expected<NpyHeader> header = parseNpyHeader(head);
  if (!header)
    return createStringError(path + ": " + toString(header.takeError()));
  Expected<uint64_t> bytes =
      getCheckedByteSize(header->shape, header->elementSize);
  if (!bytes)
    return createStringError(path + ": " + toString(bytes.takeError()));
  reader.header = std::move(*header);
  reader.dataSize = *bytes;
  reader.prefetched = head.substr(reader.header.dataOffset);
  // A regular file's size is known: compare before any data is read.
  if (status.type() == sys::fs::file_type::regular_file &&
      status.getSize() - reader.header.dataOffset != reader.dataSize) {
    uint64_t available = status.getSize() - reader.header.dataOffset;
    return reader.dataSizeError(available < reader.dataSize,
                                std::to_string(available));
  }
  return std::move(reader);
}

NpyReader::NpyReader(NpyReader &&other) noexcept
    : path(std::move(other.path)), file(other.file),
      header(std::move(other.header)), dataSize(other.dataSize),
      prefetched(std::move(other.prefetched)),
      headReachedEnd(other.headReachedEnd) {
  other.file = -1;
}

NpyReader::~NpyReader() {
  if (file >= 0)
    sys::fs::closeFile(file);
}

Error NpyReader::dataSizeError(bool truncated, StringRef found) const {
  return createStringError(
      path + ": " + (truncated ? "truncated data" : "extra data") + ": shape " +
      formatNpyShape(header.shape) + " of '" + header.descr + "' needs " +
      Twine(dataSize) + " bytes, the file has " + found);
}

Error NpyReader::readData(MutableArrayRef<char> out) {
  assert(out.size() == dataSize && "buffer of the wrong size");
  if (prefetched.size() > dataSize)
    return dataSizeError(/*truncated=*/false,
                         headReachedEnd
                             ? std::to_string(prefetched.size())
                             : "more than " + std::to_string(dataSize));
  llvm::copy(prefetched, out.begin());
  Expected<size_t> read = readFully(file, out.drop_front(prefetched.size()));
  if (!read)
    return createStringError("cannot read '" + path +
                             "': " + toString(read.takeError()));
  uint64_t total = prefetched.size() + *read;
  if (total < dataSize)
    return dataSizeError(/*truncated=*/true, std::to_string(total));
  // The file (it may have grown, or be a pipe) must end here.
  char extra;
  Expected<size_t> more = readFully(file, MutableArrayRef<char>(&extra, 1));
  if (!more)
    return createStringError("cannot read '" + path +
                             "': " + toString(more.takeError()));
  if (*more)
    return dataSizeError(/*truncated=*/false,
                         "more than " + std::to_string(dataSize));
  return Error::success();
}

Error writeNpy(StringRef path, StringRef descr, ArrayRef<int64_t> shape,
               ArrayRef<char> data) {
  std::string dict =
      "{'descr': '" + descr.str() +
      "', 'fortran_order': False, 'shape': " + formatNpyShape(shape) + ", }";
  // Pad with spaces so that the data starts on a 64-byte boundary; the
  // header ends with a newline.
  uint64_t preamble = kMagic.size() + 2 + 2;
  if (alignTo(preamble + dict.size() + 1, 64) - preamble > 0xffff)
    preamble += 2; // Format 2.0: 4-byte header length.
  uint64_t headerLength = alignTo(preamble + dict.size() + 1, 64) - preamble;
  dict.append(headerLength - dict.size() - 1, ' ');
  dict.push_back('\n');

  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return createStringError("cannot write '" + path + "': " + ec.message());
  char lengthBytes[4];
  os << kMagic;
  if (preamble == kMagic.size() + 4) {
    os << '\x01' << '\x00';
    support::endian::write16le(lengthBytes, headerLength);
    os.write(lengthBytes, 2);
  } else {
    os << '\x02' << '\x00';
    support::endian::write32le(lengthBytes, headerLength);
    os.write(lengthBytes, 4);
  }
  os << dict;
  os.write(data.data(), data.size());
  return tools::finishOutput(os, path);
}

} // namespace mlir::posenc::run
