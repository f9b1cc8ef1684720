//===- RunGPU.cpp - posenc-run --gpu --------------------------------------===//
//
// With --gpu, posenc-run copies the inputs to the device, times the entry
// there with CUDA events (whole calls and kernels alone), copies the results
// back, and reports like the CPU path, with the kernels' time, the copy
// baseline and the CPU comparison added.
//
//===----------------------------------------------------------------------===//

#include "RunGPU.h"

#include "Compile.h"
#include "GPURuntime.h"
#include "Options.h"
#include "TensorData.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>
#include <utility>

using namespace mlir;
using llvm::Error;
using llvm::Expected;
using llvm::Twine;

namespace mlir::posenc::run {

char NoGPUError::ID = 0;

Error checkGPUFlags() {
  for (const cl::Option *flag : std::initializer_list<const cl::Option *>{
           &chip, &compareCPU, &copyBaseline})
    if (flag->getNumOccurrences() && !useGPU)
      return llvm::createStringError("--" + flag->ArgStr + " needs --gpu");
  if (tolerance.getNumOccurrences() && !compareCPU)
    return llvm::createStringError("--tolerance needs --compare-cpu");
  if (tolerance.getNumOccurrences() && !(tolerance >= 0))
    return llvm::createStringError("--tolerance must be at least 0");
  if (chip.getNumOccurrences() && !pipelineOpt.empty())
    return llvm::createStringError(
        "--chip sets the target of the default GPU pipeline; with "
        "--pipeline, give chip= in the pipeline");
  return Error::success();
}

Error initializeGPU() {
  posencGpuSetProgramName("posenc-run");
  int status = posencGpuInit(0);
  if (status == POSENC_GPU_NO_DRIVER || status == POSENC_GPU_STUB_LIBRARY ||
      status == POSENC_GPU_NO_DEVICE)
    return llvm::make_error<NoGPUError>(posencGpuMessage());
  if (status != POSENC_GPU_READY)
    return llvm::createStringError(Twine("cannot use the CUDA driver: ") +
                                   posencGpuMessage());
  int driver = posencGpuDriverVersion();
  llvm::outs() << llvm::format(
      "gpu: %s, sm_%d, %d SMs, %.1f GiB, CUDA driver %d.%d\n",
      posencGpuDeviceName(), posencGpuComputeCapability(),
      posencGpuMultiprocessors(),
      static_cast<double>(posencGpuTotalMemory()) / (1ull << 30), driver / 1000,
      driver % 1000 / 10);
  return Error::success();
}

namespace {
/// Device memory owned by the runner.
struct DeviceBuffer {
  void *pointer = nullptr;
  uint64_t size = 0;
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&other) noexcept
      : pointer(std::exchange(other.pointer, nullptr)), size(other.size) {}
  DeviceBuffer &operator=(DeviceBuffer &&) = delete;
  ~DeviceBuffer() { posencGpuFree(pointer); }
};

/// Restores device inputs from pristine device copies (--writable-inputs).
struct RestoreInputs {
  ArrayRef<DeviceBuffer> pristine;
  ArrayRef<DeviceBuffer> inputs;
  bool failed = false;
};
} // namespace

static void restoreDeviceInputs(void *context) {
  auto *restore = static_cast<RestoreInputs *>(context);
  for (auto [copy, input] : llvm::zip(restore->pristine, restore->inputs))
    restore->failed |=
        posencGpuCopyOnDevice(input.pointer, copy.pointer, copy.size) != 0;
}

static Error gpuError(const Twine &what) {
  return llvm::createStringError(what + ": " + posencGpuMessage());
}

static Expected<DeviceBuffer> allocateOnDevice(uint64_t size) {
  DeviceBuffer buffer;
  buffer.pointer = posencGpuAlloc(size);
  buffer.size = size;
  if (!buffer.pointer)
    return gpuError("device memory");
  return std::move(buffer);
}

/// Runs the CPU pipeline's code once on the same (host) inputs and compares
/// every result with the GPU's.
static Expected<SmallVector<TensorDifference>>
compareWithCPU(ModuleOp cpuModule, const EntrySignature &signature,
               ArrayRef<RunnerTensor> tensors) {
  Expected<func::FuncOp> entry = findEntry(cpuModule, signature.name);
  if (!entry)
    return entry.takeError();
  CompileMode mode{getCPUPipeline(), /*forGPU=*/false, " for the CPU",
                   /*dump=*/false};
  Expected<JitEntry> jit = compile(cpuModule, *entry, mode);
  if (!jit)
    return jit.takeError();
  size_t numInputs = signature.inputs.size();
  SmallVector<HostBuffer> cpuOutputs;
  SmallVector<BufferRef> buffers;
  for (const RunnerTensor &input : tensors.take_front(numInputs))
    buffers.push_back({input.buffer.data(), input.spec->type.getShape()});
  for (const TensorSpec &spec : signature.results) {
    Expected<HostBuffer> buffer = HostBuffer::allocate(spec.byteSize);
    if (!buffer)
      return buffer.takeError();
    buffers.push_back({buffer->data(), spec.type.getShape()});
    cpuOutputs.push_back(std::move(*buffer));
  }
  EntryCall call(jit->fn, buffers);
  {
    KernelAbortGuard abortGuard;
    call();
  }
  SmallVector<TensorDifference> differences;
  for (auto [gpuOutput, cpuOutput] :
       llvm::zip(tensors.drop_front(numInputs), cpuOutputs))
    differences.push_back(compareTensors(
        gpuOutput.buffer.bytes(), cpuOutput.bytes(), gpuOutput.spec->dtype));
  return differences;
}

namespace {
/// The device copies of the runner's tensors (inputs, then outputs), and
/// pristine copies of the inputs with --writable-inputs.
struct DeviceTensors {
  SmallVector<DeviceBuffer> buffers, pristine;
};

/// What --gpu adds to the report: lines under the summary and keys at the
/// end of the RESULT line.
struct GPUReport {
  SmallVector<std::string> lines;
  SmallVector<std::pair<std::string, std::string>> keys;
};
} // namespace

static std::string formatNumber(double value) {
  return llvm::formatv("{0}", llvm::format("%.6g", value)).str();
}

/// GB/s of `bytes` moved in `ms` milliseconds.
static double rate(double ms, uint64_t bytes) {
  return ms > 0 ? static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0.0;
}

/// Checks that the buffers fit in device memory, allocates them and copies
/// the tensors there, into `device`, outside the timing; outputs start as
/// zeros.
static Error copyToDevice(const EntrySignature &signature,
                          ArrayRef<RunnerTensor> tensors, uint64_t bytesMoved,
                          DeviceTensors &device) {
  size_t numInputs = signature.inputs.size();
  uint64_t deviceBytes = bytesMoved;
  if (writableInputs)
    for (const TensorSpec &spec : signature.inputs)
      deviceBytes += spec.byteSize;
  if (deviceBytes > posencGpuTotalMemory())
    return llvm::createStringError(
        "the buffers of @" + signature.name + " need " + Twine(deviceBytes) +
        " bytes of device memory, more than the device's " +
        Twine(posencGpuTotalMemory()));

  for (const RunnerTensor &tensor : tensors) {
    Expected<DeviceBuffer> buffer = allocateOnDevice(tensor.buffer.size());
    if (!buffer)
      return buffer.takeError();
    if (posencGpuCopyToDevice(buffer->pointer, tensor.buffer.data(),
                              tensor.buffer.size()))
      return gpuError("copying to the device");
    device.buffers.push_back(std::move(*buffer));
  }
  if (writableInputs)
    for (const DeviceBuffer &input :
         ArrayRef(device.buffers).take_front(numInputs)) {
      Expected<DeviceBuffer> copy = allocateOnDevice(input.size);
      if (!copy)
        return copy.takeError();
      if (posencGpuCopyOnDevice(copy->pointer, input.pointer, input.size))
        return gpuError("copying on the device");
      device.pristine.push_back(std::move(*copy));
    }
  return Error::success();
}

/// Times the entry on `device` with CUDA events (`callMs`, `kernelMs` and
/// the kernel `launches` of a call), then copies the results back into
/// `tensors`.
static Error timeOnDevice(const EntrySignature &signature, JitEntry &jit,
                          MutableArrayRef<RunnerTensor> tensors,
                          const DeviceTensors &device,
                          MutableArrayRef<double> callMs,
                          MutableArrayRef<double> kernelMs,
                          unsigned &launches) {
  size_t numInputs = signature.inputs.size();
  ArrayRef<DeviceBuffer> buffers = device.buffers;
  SmallVector<BufferRef> refs;
  for (auto [buffer, tensor] : llvm::zip(buffers, tensors))
    refs.push_back({buffer.pointer, tensor.spec->type.getShape()});
  EntryCall call(jit.fn, refs);

  RestoreInputs restore{device.pristine, buffers.take_front(numInputs)};
  if (posencGpuTimeCalls(call.getFunction(), call.getArgs(), warmup, iterations,
                         writableInputs ? restoreDeviceInputs : nullptr,
                         &restore, callMs.data(), kernelMs.data(), &launches))
    return gpuError("running @" + signature.name + " on the GPU");
  if (restore.failed)
    return gpuError("restoring the inputs on the device");
  for (auto [buffer, tensor] :
       llvm::zip(buffers.drop_front(numInputs), tensors.drop_front(numInputs)))
    if (posencGpuCopyToHost(tensor.buffer.data(), buffer.pointer, buffer.size))
      return gpuError("copying from the device");
  return Error::success();
}

/// The kernels' line and keys of the report.
static void reportKernels(GPUReport &report, ArrayRef<double> kernelMs,
                          unsigned launches, uint64_t bytesMoved) {
  TimingStats kernels = summarize(kernelMs);
  report.lines.push_back(
      llvm::formatv("kernels: {0} launch{1} per call, median "
                    "{2} ms  min {3} ms  max {4} ms  {5} GB/s",
                    launches, launches == 1 ? "" : "es",
                    formatNumber(kernels.medianMs), formatNumber(kernels.minMs),
                    formatNumber(kernels.maxMs),
                    llvm::format("%.4g", rate(kernels.medianMs, bytesMoved)))
          .str());
  report.keys.push_back(
      {"chip", "sm_" + std::to_string(posencGpuComputeCapability())});
  report.keys.push_back({"kernel_ms", formatNumber(kernels.medianMs)});
  report.keys.push_back(
      {"kernel_gbps", formatNumber(rate(kernels.medianMs, bytesMoved))});
  report.keys.push_back({"launches", std::to_string(launches)});
}

/// --copy-baseline: times a device-to-device copy moving `bytesMoved`.
static Error reportCopyBaseline(GPUReport &report, uint64_t bytesMoved) {
  // A copy of half the bytes reads and writes them all.
  uint64_t copied = bytesMoved / 2 / 4 * 4;
  SmallVector<double> copyMs(iterations);
  if (copied > 0 &&
      posencGpuTimeCopy(copied, warmup, iterations, copyMs.data()))
    return gpuError("timing the device copy");
  TimingStats copy = summarize(copyMs);
  double copyRate = rate(copy.medianMs, 2 * copied);
  report.lines.push_back(
      llvm::formatv("device copy of {0} bytes (cuMemcpyDtoD): "
                    "median {1} ms  {2} GB/s",
                    copied, formatNumber(copy.medianMs),
                    llvm::format("%.4g", copyRate))
          .str());
  report.keys.push_back({"copy_ms", formatNumber(copy.medianMs)});
  report.keys.push_back({"copy_gbps", formatNumber(copyRate)});
  return Error::success();
}

/// --compare-cpu: the error of every output against the CPU's; returns the
/// largest and sets `worstOutput` to its output.
static Expected<TensorDifference>
reportComparison(GPUReport &report, ModuleOp cpuModule,
                 const EntrySignature &signature,
                 ArrayRef<RunnerTensor> tensors, unsigned &worstOutput) {
  Expected<SmallVector<TensorDifference>> differences =
      compareWithCPU(cpuModule, signature, tensors);
  if (!differences)
    return differences.takeError();
  std::optional<TensorDifference> worst;
  for (auto [i, difference] : llvm::enumerate(*differences)) {
    report.lines.push_back(
        llvm::formatv("compare-cpu: output {0}: max abs error "
                      "{1} (max |cpu| {2})",
                      i, formatNumber(difference.maxAbsError),
                      formatNumber(difference.maxAbsExpected))
            .str());
    if (!worst || difference.maxAbsError > worst->maxAbsError) {
      worst = difference;
      worstOutput = i;
    }
  }
  report.keys.push_back({"max_abs_err", formatNumber(worst->maxAbsError)});
  return *worst;
}

Error runOnGPU(const EntrySignature &signature, JitEntry &jit,
               MutableArrayRef<RunnerTensor> tensors,
               OwningOpRef<ModuleOp> cpuModule,
               ArrayRef<std::pair<unsigned, std::string>> outputPaths) {
  size_t numInputs = signature.inputs.size();
  uint64_t bytesMoved = getBytesMoved(tensors);
  DeviceTensors device;
  if (Error err = copyToDevice(signature, tensors, bytesMoved, device))
    return err;
  SmallVector<double> callMs(iterations), kernelMs(iterations);
  unsigned launches = 0;
  if (Error err = timeOnDevice(signature, jit, tensors, device, callMs,
                               kernelMs, launches))
    return err;

  GPUReport report;
  reportKernels(report, kernelMs, launches, bytesMoved);
  if (copyBaseline)
    if (Error err = reportCopyBaseline(report, bytesMoved))
      return err;
  std::optional<TensorDifference> worst;
  unsigned worstOutput = 0;
  if (compareCPU) {
    Expected<TensorDifference> difference =
        reportComparison(report, *cpuModule, signature, tensors, worstOutput);
    if (!difference)
      return difference.takeError();
    worst = *difference;
  }
  if (Error err = reportResults(signature.name, summarize(callMs), bytesMoved,
                                tensors.drop_front(numInputs), outputPaths,
                                report.lines, report.keys))
    return err;
  if (worst && tolerance.getNumOccurrences() &&
      !(worst->maxAbsError <= tolerance))
    return llvm::createStringError(
        "--compare-cpu: output " + Twine(worstOutput) +
        " differs from the "
        "CPU's by " +
        formatNumber(worst->maxAbsError) + " at element " +
        Twine(worst->worstIndex) +
        ", more than --tolerance=" + formatNumber(tolerance));
  return Error::success();
}

} // namespace mlir::posenc::run
