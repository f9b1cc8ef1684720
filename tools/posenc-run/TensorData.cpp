//===- TensorData.cpp - Filling and printing tensor contents --------------===//

#include "TensorData.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llvm;

namespace mlir::posenc::run {

namespace {
/// splitmix64 (Steele, Lea, Flood 2014): fast, and the same on every
/// platform, unlike the std:: distributions.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t state) : state(state) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1), a multiple of 2^-23.
  float nextFloat() {
    return static_cast<float>(next() >> 40) * 0x1p-23f - 1.0f;
  }
  /// Uniform in [-1, 1), a multiple of 2^-52.
  double nextDouble() {
    return static_cast<double>(next() >> 11) * 0x1p-52 - 1.0;
  }

private:
  uint64_t state;
};

template <typename T, typename Generate>
void fillWith(MutableArrayRef<char> data, Generate generate) {
  for (size_t offset = 0; offset + sizeof(T) <= data.size();
       offset += sizeof(T)) {
    T value = generate();
    std::memcpy(data.data() + offset, &value, sizeof(T));
  }
}

template <typename T> T load(ArrayRef<char> data, int64_t index) {
  T value;
  std::memcpy(&value, data.data() + index * sizeof(T), sizeof(T));
  return value;
}
} // namespace

void fillRandom(MutableArrayRef<char> data, DType type, uint64_t seed,
                uint64_t stream, uint64_t intMax) {
  // Each argument has its own stream, so its values do not depend on the
  // sizes of the other arguments.
  SplitMix64 rng(SplitMix64(seed).next() ^ (stream * 0xd1b54a32d192ed03ull));
  switch (type) {
  case DType::F16:
    return fillWith<uint16_t>(data, [&] {
      uint32_t bits = bit_cast<uint32_t>(rng.nextFloat());
      // Truncate to 11 significant bits first: rounding up could reach 1.0.
      return floatToHalfBits(bit_cast<float>(bits & 0xffffe000u));
    });
  case DType::BF16:
    return fillWith<uint16_t>(data, [&] {
      return static_cast<uint16_t>(bit_cast<uint32_t>(rng.nextFloat()) >> 16);
    });
  case DType::F32:
    return fillWith<float>(data, [&] { return rng.nextFloat(); });
  case DType::F64:
    return fillWith<double>(data, [&] { return rng.nextDouble(); });
  case DType::I1:
    return fillWith<uint8_t>(
        data, [&] { return static_cast<uint8_t>(rng.next() % intMax); });
  case DType::I8:
    return fillWith<int8_t>(
        data, [&] { return static_cast<int8_t>(rng.next() % intMax); });
  case DType::I16:
    return fillWith<int16_t>(
        data, [&] { return static_cast<int16_t>(rng.next() % intMax); });
  case DType::I32:
    return fillWith<int32_t>(
        data, [&] { return static_cast<int32_t>(rng.next() % intMax); });
  case DType::I64:
    return fillWith<int64_t>(
        data, [&] { return static_cast<int64_t>(rng.next() % intMax); });
  }
}

static void printElement(raw_ostream &os, ArrayRef<char> data, DType type,
                         int64_t index) {
  switch (type) {
  case DType::F16:
    os << format("%.9g", halfBitsToFloat(load<uint16_t>(data, index)));
    return;
  case DType::BF16:
    os << format("%.9g", bf16BitsToFloat(load<uint16_t>(data, index)));
    return;
  case DType::F32:
    os << format("%.9g", load<float>(data, index));
    return;
  case DType::F64:
    os << format("%.17g", load<double>(data, index));
    return;
  case DType::I1:
    os << (load<uint8_t>(data, index) ? "true" : "false");
    return;
  case DType::I8:
    os << static_cast<int>(load<int8_t>(data, index));
    return;
  case DType::I16:
    os << load<int16_t>(data, index);
    return;
  case DType::I32:
    os << load<int32_t>(data, index);
    return;
  case DType::I64:
    os << load<int64_t>(data, index);
    return;
  }
}

static double loadAsDouble(ArrayRef<char> data, DType type, int64_t index) {
  switch (type) {
  case DType::F16:
    return halfBitsToFloat(load<uint16_t>(data, index));
  case DType::BF16:
    return bf16BitsToFloat(load<uint16_t>(data, index));
  case DType::F32:
    return load<float>(data, index);
  case DType::F64:
    return load<double>(data, index);
  case DType::I1:
    return load<uint8_t>(data, index) != 0;
  case DType::I8:
    return load<int8_t>(data, index);
  case DType::I16:
    return load<int16_t>(data, index);
  case DType::I32:
    return load<int32_t>(data, index);
  case DType::I64:
    return static_cast<double>(load<int64_t>(data, index));
  }
  llvm_unreachable("unknown DType");
}

TensorDifference compareTensors(ArrayRef<char> actual, ArrayRef<char> expected,
                                DType type) {
  TensorDifference difference;
  int64_t count = expected.size() / getByteWidth(type);
  for (int64_t i = 0; i < count; ++i) {
    double a = loadAsDouble(actual, type, i);
    double e = loadAsDouble(expected, type, i);
    difference.maxAbsExpected =
        std::max(difference.maxAbsExpected, std::isnan(e) ? 0.0 : std::fabs(e));
    // NaN where the other side has a number is an infinite error.
    double error = std::isnan(a) && std::isnan(e)   ? 0.0
                   : std::isnan(a) || std::isnan(e) ? HUGE_VAL
                                                    : std::fabs(a - e);
    if (error > difference.maxAbsError) {
      difference.maxAbsError = error;
      difference.worstIndex = i;
    }
  }
  return difference;
}

/// Prints the sub-tensor at dimension `dim` starting at element `first`.
static void printDims(raw_ostream &os, ArrayRef<char> data, DType type,
                      ArrayRef<int64_t> shape, size_t dim, int64_t first) {
  int64_t stride = 1;
  for (int64_t size : shape.drop_front(dim + 1))
    stride *= size;
  os << '[';
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i) {
      os << ',';
      if (dim + 1 == shape.size())
        os << ' ';
      else
        os << '\n' << std::string(dim + 1, ' ');
    }
    if (dim + 1 == shape.size())
      printElement(os, data, type, first + i);
    else
      printDims(os, data, type, shape, dim + 1, first + i * stride);
  }
  os << ']';
}

void printTensor(raw_ostream &os, ArrayRef<char> data, DType type,
                 ArrayRef<int64_t> shape) {
  if (shape.empty())
    printElement(os, data, type, 0);
  else
    printDims(os, data, type, shape, 0, 0);
  os << '\n';
}

} // namespace mlir::posenc::run
