//===- RunnerTensors.cpp - The buffers posenc-run owns --------------------===//

#include "RunnerTensors.h"

#include "DType.h"
#include "Npy.h"
#include "Options.h"
#include "TensorData.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace mlir;
using llvm::Error;
using llvm::Expected;
using llvm::Twine;

namespace mlir::posenc::run {

/// "1 argument", "2 arguments".
static std::string pluralize(size_t n, StringRef noun) {
  return std::to_string(n) + " " + noun.str() + (n == 1 ? "" : "s");
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Parses `IDX=PATH`, checking IDX against the `size` `what`s of the entry.
static Expected<std::pair<unsigned, std::string>>
parseIndexedPath(StringRef flag, StringRef spec, unsigned size, StringRef what,
                 StringRef entry) {
  auto [indexText, path] = spec.split('=');
  unsigned index = 0;
  if (!spec.contains('=') || path.empty() || indexText.getAsInteger(10, index))
    return llvm::createStringError("invalid --" + flag + "=" + spec +
                                   ": expected IDX=PATH");
  if (index >= size)
    return llvm::createStringError("--" + flag + "=" + spec + ": @" + entry +
                                   " has no " + what + " " + Twine(index) +
                                   " (it has " + pluralize(size, what) + ")");
  return std::make_pair(index, path.str());
}

Expected<SmallVector<std::string>>
getInputPaths(const EntrySignature &signature) {
  unsigned numInputs = signature.inputs.size();
  SmallVector<std::string> paths(numInputs);
  if (!inputList.empty() && !inputSpecs.empty())
    return llvm::createStringError("use either --inputs or --input, not both");
  if (!inputList.empty()) {
    if (inputList.size() != numInputs)
      return llvm::createStringError(
          "@" + signature.name + " takes " + pluralize(numInputs, "argument") +
          " but --inputs names " + pluralize(inputList.size(), "file"));
    if (llvm::is_contained(inputList, ""))
      return llvm::createStringError("--inputs has an empty path");
    llvm::copy(inputList, paths.begin());
  }
  for (const std::string &spec : inputSpecs) {
    auto parsed =
        parseIndexedPath("input", spec, numInputs, "argument", signature.name);
    if (!parsed)
      return parsed.takeError();
    auto &[index, path] = *parsed;
    if (!paths[index].empty())
      return llvm::createStringError("argument " + Twine(index) +
                                     " is given twice");
    paths[index] = path;
  }
  return paths;
}

Expected<SmallVector<std::pair<unsigned, std::string>>>
getOutputPaths(const EntrySignature &signature) {
  unsigned numResults = signature.results.size();
  SmallVector<std::pair<unsigned, std::string>> paths;
  for (const std::string &spec : outputSpecs) {
    auto parsed =
        parseIndexedPath("output", spec, numResults, "result", signature.name);
    if (!parsed)
      return parsed.takeError();
    paths.push_back(std::move(*parsed));
  }
  if (!outputsDir.empty())
    for (unsigned i = 0; i < numResults; ++i) {
      llvm::SmallString<128> path(outputsDir);
      llvm::sys::path::append(path, "out" + Twine(i) + ".npy");
      paths.emplace_back(i, path.str().str());
    }
  return paths;
}

/// Allocates the buffer of argument `index` and fills it from `path`, or
/// with random data when `path` is empty.
static Expected<HostBuffer> loadInput(const EntrySignature &signature,
                                      unsigned index, StringRef path) {
  const TensorSpec &spec = signature.inputs[index];
  std::string what = "argument " + std::to_string(index) + " of @" +
                     signature.name + " (" + typeToString(spec.type) + ")";
  std::optional<NpyReader> reader;
  if (!path.empty()) {
    Expected<NpyReader> opened = NpyReader::open(path);
    if (!opened)
      return opened.takeError();
    const NpyHeader &header = opened->getHeader();
    StringRef expected = getNpyDescr(spec.dtype);
    if (header.descr != expected)
      return llvm::createStringError(
          path + ": dtype '" + header.descr + "' does not match " + what +
          ", which needs '" + expected + "'" +
          (spec.dtype == DType::BF16
               ? " (bf16 is stored as raw bits, np.uint16)"
               : ""));
    if (ArrayRef<int64_t>(header.shape) != spec.type.getShape())
      return llvm::createStringError(
          path + ": shape " + formatNpyShape(header.shape) +
          " does not match " + what + ", which needs " +
          formatNpyShape(spec.type.getShape()));
    reader.emplace(std::move(*opened));
  } else if (!isFloat(spec.dtype) && intMax.getNumOccurrences() &&
             intMax > getIntegerBound(spec.dtype)) {
    return llvm::createStringError("--int-max=" + Twine(intMax) +
                                   " does not fit " + what);
  }

  Expected<HostBuffer> buffer = HostBuffer::allocate(spec.byteSize);
  if (!buffer)
    return buffer.takeError();
  // The header matched the argument: read exactly its bytes, in place.
  if (!reader)
    // The default bound is clamped to narrow types (i1: 0 or 1).
    fillRandom(buffer->bytes(), spec.dtype, seed, index,
               isFloat(spec.dtype)
                   ? intMax
                   : std::min<uint64_t>(intMax, getIntegerBound(spec.dtype)));
  else if (Error err = reader->readData(buffer->bytes()))
    return std::move(err);
  return buffer;
}

Error checkMemory(const EntrySignature &signature) {
  // Each size is below 2^63; saturate the sum.
  uint64_t total = 0;
  for (const TensorSpec &spec : signature.inputs)
    total =
        llvm::SaturatingAdd(total, llvm::SaturatingMultiply<uint64_t>(
                                       spec.byteSize, writableInputs ? 2 : 1));
  for (const TensorSpec &spec : signature.results)
    total = llvm::SaturatingAdd(total, spec.byteSize);
  uint64_t physical = getPhysicalMemorySize();
  if (physical && total > physical)
    return llvm::createStringError(
        "the buffers of @" + signature.name + " need " + Twine(total) +
        " bytes, more than the machine's " + Twine(physical));
  return Error::success();
}

Expected<SmallVector<RunnerTensor>>
allocateTensors(const EntrySignature &signature,
                ArrayRef<std::string> inputPaths) {
  SmallVector<RunnerTensor> tensors;
  for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
    Expected<HostBuffer> buffer = loadInput(signature, i, inputPaths[i]);
    if (!buffer)
      return buffer.takeError();
    tensors.push_back({&spec, std::move(*buffer)});
  }
  for (const TensorSpec &spec : signature.results) {
    Expected<HostBuffer> buffer = HostBuffer::allocate(spec.byteSize);
    if (!buffer)
      return buffer.takeError();
    tensors.push_back({&spec, std::move(*buffer)});
  }
  return tensors;
}

static Error
writeOutputs(ArrayRef<RunnerTensor> outputs,
             ArrayRef<std::pair<unsigned, std::string>> outputPaths) {
  if (!outputsDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(outputsDir))
      return llvm::createStringError("cannot create '" + outputsDir +
                                     "': " + ec.message());
  for (const auto &[index, path] : outputPaths) {
    const RunnerTensor &tensor = outputs[index];
    if (Error err =
            writeNpy(path, getNpyDescr(tensor.spec->dtype),
                     tensor.spec->type.getShape(), tensor.buffer.bytes()))
      return err;
  }
  return Error::success();
}

Error reportResults(StringRef entry, const TimingStats &stats,
                    uint64_t bytesMoved, ArrayRef<RunnerTensor> outputs,
                    ArrayRef<std::pair<unsigned, std::string>> outputPaths,
                    ArrayRef<std::string> extraLines,
                    ArrayRef<std::pair<std::string, std::string>> extraKeys) {
  llvm::raw_ostream &os = llvm::outs();
  std::optional<double> flopsPerCall;
  if (flops.getNumOccurrences())
    flopsPerCall = flops;
  printTiming(os, entry, stats, warmup, iterations, bytesMoved, flopsPerCall,
              extraLines, extraKeys);
  if (printOutput)
    for (auto [i, tensor] : llvm::enumerate(outputs)) {
      os << "output " << i << ": " << tensor.spec->type << "\n";
      printTensor(os, tensor.buffer.bytes(), tensor.spec->dtype,
                  tensor.spec->type.getShape());
    }
  os.flush();
  return writeOutputs(outputs, outputPaths);
}

uint64_t getBytesMoved(ArrayRef<RunnerTensor> tensors) {
  uint64_t bytesMoved = 0;
  for (const RunnerTensor &tensor : tensors)
    bytesMoved += tensor.spec->byteSize;
  return bytesMoved;
}

} // namespace mlir::posenc::run
