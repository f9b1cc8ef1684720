//===- GPURuntime.cpp - The mgpu* runtime of lowered host code ------------===//

#include "GPURuntime.h"

#include "CudaDriver.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace mlir::posenc::run::cuda;

namespace {

struct RuntimeState {
  std::string programName = "posenc-gpu-runtime";
  std::string message;
  /// The stream of every mgpuStreamCreate and of the runner's copies.
  CUstream stream = nullptr;
  /// Events around each launch while a call is timed, reused across calls.
  std::vector<std::pair<CUevent, CUevent>> launchEvents;
  bool timingLaunches = false;
  unsigned launchCount = 0;
};

RuntimeState &getRuntime() {
  static RuntimeState state;
  return state;
}

/// Ends the process from inside the host code, which cannot report errors.
[[noreturn]] void fatal(const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\n", getRuntime().programName.c_str(),
               message.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

/// A failed CUDA call of the host code: a device-side assertion (a runtime
/// check in a kernel) gets the CPU path's wording.
void check(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return;
  if (result == CUDA_ERROR_ASSERT)
    fatal("a runtime check of the kernel failed on the GPU (device-side "
          "assertion; " +
          std::string(call) + ": " + describeError(result) + ")");
  fatal(std::string(call) + " failed: " + describeError(result));
}

/// The driver's context is current per thread: make it current on the
/// calling one.
void ensureContext() {
  thread_local bool current = false;
  if (current)
    return;
  if (initializeDriver(0) != DriverStatus::Ready)
    fatal("the host code called the GPU runtime without a usable CUDA "
          "driver: " +
          getDriverMessage());
  check(getDriver().cuCtxSetCurrent(getContext()), "cuCtxSetCurrent");
  current = true;
}

CUstream getStream() {
  RuntimeState &state = getRuntime();
  ensureContext();
  if (!state.stream)
    check(getDriver().cuStreamCreate(&state.stream, CU_STREAM_NON_BLOCKING),
          "cuStreamCreate");
  return state.stream;
}

CUdeviceptr toDevice(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

/// Runner-side failures are returned, not fatal.
int fail(std::string message) {
  getRuntime().message = std::move(message);
  return 1;
}

int checkRunner(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return 0;
  if (result == CUDA_ERROR_ASSERT)
    return fail("a runtime check of the kernel failed on the GPU "
                "(device-side assertion; " +
                std::string(call) + ": " + describeError(result) + ")");
  return fail(std::string(call) + " failed: " + describeError(result));
}

double elapsedMs(CUevent start, CUevent end) {
  float ms = 0;
  check(getDriver().cuEventElapsedTime(&ms, start, end), "cuEventElapsedTime");
  return ms;
}

CUevent createTimingEvent() {
  CUevent event = nullptr;
  check(getDriver().cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
  return event;
}

} // namespace

//===----------------------------------------------------------------------===//
// The mgpu* functions (signatures as gpu-to-llvm and the GPU dialect's LLVM
// IR translation of MLIR 22 declare them)
//===----------------------------------------------------------------------===//

extern "C" {

CUmodule mgpuModuleLoad(void *data, int64_t /*size*/) {
  ensureContext();
  CUmodule module = nullptr;
  check(getDriver().cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

/// PTX (format=isa): the driver compiles it, at the host code's global
/// constructor, outside any timing. Its error log says what it rejected.
CUmodule mgpuModuleLoadJIT(void *data, int32_t optLevel) {
  ensureContext();
  char errorLog[8192] = {};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {errorLog,
                    reinterpret_cast<void *>(uintptr_t(sizeof(errorLog) - 1)),
                    reinterpret_cast<void *>(intptr_t(optLevel))};
  CUmodule module = nullptr;
  CUresult result =
      getDriver().cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS)
    fatal("the CUDA driver cannot load the kernels' PTX: " +
          describeError(result) + (errorLog[0] ? ": " : "") + errorLog);
  return module;
}

void mgpuModuleUnload(CUmodule module) {
  // A module never loaded: the JIT runs the host code's destructors even
  // when its constructors did not run (posenc-run --dry-run).
  if (!module)
    return;
  check(getDriver().cuModuleUnload(module), "cuModuleUnload");
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  CUresult result = getDriver().cuModuleGetFunction(&function, module, name);
  if (result != CUDA_SUCCESS)
    fatal(std::string("no kernel '") + name +
          "' in the loaded module: " + describeError(result));
  return function;
}

void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, CUstream stream,
                      void **params, void **extra, int64_t /*paramsCount*/) {
  // The driver takes 32-bit sizes: a larger grid would wrap silently.
  if (gridX < 1 || gridX > 0x7fffffff || gridY < 1 || gridY > 65535 ||
      gridZ < 1 || gridZ > 65535 || blockX < 1 || blockY < 1 || blockZ < 1 ||
      blockX * blockY * blockZ > 1024 || sharedBytes < 0)
    fatal("kernel launch out of CUDA's limits: grid " + std::to_string(gridX) +
          "x" + std::to_string(gridY) + "x" + std::to_string(gridZ) +
          ", block " + std::to_string(blockX) + "x" + std::to_string(blockY) +
          "x" + std::to_string(blockZ) + ", " + std::to_string(sharedBytes) +
          " bytes of shared memory");
  const CudaDriverAPI &api = getDriver();
  // Beyond 48 KiB, dynamic shared memory must be asked for per function.
  if (sharedBytes > 48 * 1024)
    check(api.cuFuncSetAttribute(
              function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
              sharedBytes),
          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  RuntimeState &state = getRuntime();
  std::pair<CUevent, CUevent> *events = nullptr;
  if (state.timingLaunches) {
    if (state.launchCount == state.launchEvents.size())
      state.launchEvents.emplace_back(createTimingEvent(), createTimingEvent());
    events = &state.launchEvents[state.launchCount++];
    check(api.cuEventRecord(events->first, stream), "cuEventRecord");
  }
  check(api.cuLaunchKernel(
            function, static_cast<unsigned>(gridX),
            static_cast<unsigned>(gridY), static_cast<unsigned>(gridZ),
            static_cast<unsigned>(blockX), static_cast<unsigned>(blockY),
            static_cast<unsigned>(blockZ), static_cast<unsigned>(sharedBytes),
            stream, params, extra),
        "cuLaunchKernel");
  if (events)
    check(api.cuEventRecord(events->second, stream), "cuEventRecord");
}

CUstream mgpuStreamCreate() { return getStream(); }

/// The runner's stream outlives the calls.
void mgpuStreamDestroy(CUstream stream) {
  if (stream != getRuntime().stream)
    check(getDriver().cuStreamDestroy(stream), "cuStreamDestroy");
}

void mgpuStreamSynchronize(CUstream stream) {
  check(getDriver().cuStreamSynchronize(stream), "cuStreamSynchronize");
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  check(getDriver().cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

CUevent mgpuEventCreate() {
  ensureContext();
  CUevent event = nullptr;
  // CU_EVENT_DISABLE_TIMING: these only order work.
  check(getDriver().cuEventCreate(&event, 2), "cuEventCreate");
  return event;
}

void mgpuEventDestroy(CUevent event) {
  check(getDriver().cuEventDestroy(event), "cuEventDestroy");
}

void mgpuEventSynchronize(CUevent event) {
  check(getDriver().cuEventSynchronize(event), "cuEventSynchronize");
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  check(getDriver().cuEventRecord(event, stream), "cuEventRecord");
}

/// Device memory for gpu.alloc and, through posenc-run's rewrite, for the
/// host code's own allocations (its temporaries live on the device).
void *mgpuMemAlloc(uint64_t bytes, CUstream /*stream*/, int8_t hostShared) {
  ensureContext();
  if (hostShared)
    fatal("gpu.alloc host_shared is not supported by posenc-run's GPU "
          "runtime (it allocates device memory only)");
  if (bytes == 0)
    return nullptr;
  CUdeviceptr pointer = 0;
  CUresult result = getDriver().cuMemAlloc(&pointer, bytes);
  if (result != CUDA_SUCCESS)
    fatal("cannot allocate " + std::to_string(bytes) +
          " bytes of device memory for a temporary of the kernel: " +
          describeError(result));
  return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
}

void mgpuMemFree(void *pointer, CUstream /*stream*/) {
  if (pointer)
    check(getDriver().cuMemFree(toDevice(pointer)), "cuMemFree");
}

/// Unified addressing: the driver infers the direction from the pointers.
void mgpuMemcpy(void *dst, void *src, uint64_t bytes, CUstream stream) {
  check(getDriver().cuMemcpyAsync(toDevice(dst), toDevice(src), bytes, stream),
        "cuMemcpyAsync");
}

void mgpuMemset16(void *dst, uint16_t value, uint64_t count, CUstream stream) {
  check(getDriver().cuMemsetD16Async(toDevice(dst), value, count, stream),
        "cuMemsetD16Async");
}

void mgpuMemset32(void *dst, uint32_t value, uint64_t count, CUstream stream) {
  check(getDriver().cuMemsetD32Async(toDevice(dst), value, count, stream),
        "cuMemsetD32Async");
}

void mgpuSetDefaultDevice(int32_t device) {
  if (device != getDeviceInfo().ordinal)
    fatal("the host code asks for CUDA device " + std::to_string(device) +
          "; the runner uses device " +
          std::to_string(getDeviceInfo().ordinal));
}

} // extern "C"

namespace mlir::posenc::run::cuda {

const RuntimeSymbol *getRuntimeSymbols(size_t &count) {
  static const RuntimeSymbol symbols[] = {
      {"mgpuEventCreate", reinterpret_cast<void *>(&mgpuEventCreate), "ptr ()"},
      {"mgpuEventDestroy", reinterpret_cast<void *>(&mgpuEventDestroy),
       "void (ptr)"},
      {"mgpuEventRecord", reinterpret_cast<void *>(&mgpuEventRecord),
       "void (ptr, ptr)"},
      {"mgpuEventSynchronize", reinterpret_cast<void *>(&mgpuEventSynchronize),
       "void (ptr)"},
      {"mgpuLaunchKernel", reinterpret_cast<void *>(&mgpuLaunchKernel),
       "void (ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)"},
      {"mgpuMemAlloc", reinterpret_cast<void *>(&mgpuMemAlloc),
       "ptr (i64, ptr, i8)"},
      {"mgpuMemFree", reinterpret_cast<void *>(&mgpuMemFree),
       "void (ptr, ptr)"},
      {"mgpuMemcpy", reinterpret_cast<void *>(&mgpuMemcpy),
       "void (ptr, ptr, i64, ptr)"},
      {"mgpuMemset16", reinterpret_cast<void *>(&mgpuMemset16),
       "void (ptr, i16, i64, ptr)"},
      {"mgpuMemset32", reinterpret_cast<void *>(&mgpuMemset32),
       "void (ptr, i32, i64, ptr)"},
      {"mgpuModuleGetFunction",
       reinterpret_cast<void *>(&mgpuModuleGetFunction), "ptr (ptr, ptr)"},
      {"mgpuModuleLoad", reinterpret_cast<void *>(&mgpuModuleLoad),
       "ptr (ptr, i64)"},
      {"mgpuModuleLoadJIT", reinterpret_cast<void *>(&mgpuModuleLoadJIT),
       "ptr (ptr, i32)"},
      {"mgpuModuleUnload", reinterpret_cast<void *>(&mgpuModuleUnload),
       "void (ptr)"},
      {"mgpuSetDefaultDevice", reinterpret_cast<void *>(&mgpuSetDefaultDevice),
       "void (i32)"},
      {"mgpuStreamCreate", reinterpret_cast<void *>(&mgpuStreamCreate),
       "ptr ()"},
      {"mgpuStreamDestroy", reinterpret_cast<void *>(&mgpuStreamDestroy),
       "void (ptr)"},
      {"mgpuStreamSynchronize",
       reinterpret_cast<void *>(&mgpuStreamSynchronize), "void (ptr)"},
      {"mgpuStreamWaitEvent", reinterpret_cast<void *>(&mgpuStreamWaitEvent),
       "void (ptr, ptr)"},
  };
  count = sizeof(symbols) / sizeof(symbols[0]);
  return symbols;
}

} // namespace mlir::posenc::run::cuda

//===----------------------------------------------------------------------===//
// The runner's side
//===----------------------------------------------------------------------===//

extern "C" {

int posencGpuInit(int ordinal) {
  DriverStatus status = initializeDriver(ordinal);
  if (status == DriverStatus::Ready && getDeviceInfo().ordinal != ordinal) {
    fail("the CUDA driver is already set up for device " +
         std::to_string(getDeviceInfo().ordinal));
    return POSENC_GPU_FAILED;
  }
  if (status != DriverStatus::Ready)
    getRuntime().message = getDriverMessage();
  switch (status) {
  case DriverStatus::Ready:
    return POSENC_GPU_READY;
  case DriverStatus::NoDriver:
    return POSENC_GPU_NO_DRIVER;
  case DriverStatus::StubLibrary:
    return POSENC_GPU_STUB_LIBRARY;
  case DriverStatus::NoDevice:
    return POSENC_GPU_NO_DEVICE;
  case DriverStatus::Failed:
    break;
  }
  return POSENC_GPU_FAILED;
}

const char *posencGpuMessage(void) { return getRuntime().message.c_str(); }

void posencGpuSetProgramName(const char *name) {
  getRuntime().programName = name;
}

const char *posencGpuDeviceName(void) { return getDeviceInfo().name.c_str(); }

int posencGpuComputeCapability(void) {
  return getDeviceInfo().ccMajor * 10 + getDeviceInfo().ccMinor;
}

int posencGpuMultiprocessors(void) { return getDeviceInfo().multiprocessors; }

uint64_t posencGpuTotalMemory(void) { return getDeviceInfo().totalBytes; }

int posencGpuDriverVersion(void) { return getDeviceInfo().driverVersion; }

void *posencGpuAlloc(uint64_t bytes) {
  ensureContext();
  CUdeviceptr pointer = 0;
  // A zero-byte tensor still gets a distinct, valid pointer.
  CUresult result = getDriver().cuMemAlloc(&pointer, bytes ? bytes : 1);
  if (result != CUDA_SUCCESS) {
    fail("cannot allocate " + std::to_string(bytes) +
         " bytes of device memory: " + describeError(result));
    return nullptr;
  }
  return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
}

int posencGpuFree(void *pointer) {
  if (!pointer)
    return 0;
  ensureContext();
  return checkRunner(getDriver().cuMemFree(toDevice(pointer)), "cuMemFree");
}

/// Every copy goes through the runner's stream and waits for it: a
/// synchronous cuMemcpyHtoD from pageable memory may return before its DMA
/// lands, and it is not ordered with a non-blocking stream's kernels.
static int copyAndWait(void *dst, const void *src, uint64_t bytes) {
  CUstream stream = getStream();
  if (int err = checkRunner(getDriver().cuMemcpyAsync(
                                toDevice(dst), toDevice(src), bytes, stream),
                            "cuMemcpyAsync"))
    return err;
  return checkRunner(getDriver().cuStreamSynchronize(stream),
                     "cuStreamSynchronize");
}

int posencGpuCopyToDevice(void *dst, const void *src, uint64_t bytes) {
  return copyAndWait(dst, src, bytes);
}

int posencGpuCopyToHost(void *dst, const void *src, uint64_t bytes) {
  return copyAndWait(dst, src, bytes);
}

int posencGpuCopyOnDevice(void *dst, const void *src, uint64_t bytes) {
  return copyAndWait(dst, src, bytes);
}

int posencGpuTimeCalls(void (*fn)(void **), void **args, unsigned warmup,
                       unsigned iterations, void (*prepare)(void *),
                       void *prepareContext, double *callMs, double *kernelMs,
                       unsigned *launches) {
  RuntimeState &state = getRuntime();
  const CudaDriverAPI &api = getDriver();
  CUstream stream = getStream();
  CUevent start = createTimingEvent();
  CUevent end = createTimingEvent();
  // Launches are timed in the warmup calls too, so that their events exist
  // before the timed calls.
  state.timingLaunches = true;
  int err = 0;
  for (unsigned i = 0; i < warmup + iterations && !err; ++i) {
    if (prepare)
      prepare(prepareContext);
    state.launchCount = 0;
    if ((err = checkRunner(api.cuEventRecord(start, stream), "cuEventRecord")))
      break;
    fn(args);
    if ((err = checkRunner(api.cuEventRecord(end, stream), "cuEventRecord")) ||
        (err = checkRunner(api.cuEventSynchronize(end), "cuEventSynchronize")))
      break;
    if (i < warmup)
      continue;
    unsigned timed = i - warmup;
    callMs[timed] = elapsedMs(start, end);
    double kernels = 0;
    for (unsigned l = 0; l < state.launchCount; ++l)
      kernels +=
          elapsedMs(state.launchEvents[l].first, state.launchEvents[l].second);
    kernelMs[timed] = kernels;
    *launches = state.launchCount;
  }
  state.timingLaunches = false;
  api.cuEventDestroy(start);
  api.cuEventDestroy(end);
  return err;
}

int posencGpuTimeCopy(uint64_t bytes, unsigned warmup, unsigned iterations,
                      double *ms) {
  const CudaDriverAPI &api = getDriver();
  CUstream stream = getStream();
  void *src = posencGpuAlloc(bytes);
  void *dst = src ? posencGpuAlloc(bytes) : nullptr;
  if (!dst) {
    posencGpuFree(src);
    return 1;
  }
  CUevent start = createTimingEvent();
  CUevent end = createTimingEvent();
  int err = checkRunner(
      api.cuMemsetD32Async(toDevice(src), 0x3f800000u, bytes / 4, stream),
      "cuMemsetD32Async");
  for (unsigned i = 0; i < warmup + iterations && !err; ++i) {
    if ((err =
             checkRunner(api.cuEventRecord(start, stream), "cuEventRecord")) ||
        (err = checkRunner(
             api.cuMemcpyDtoDAsync(toDevice(dst), toDevice(src), bytes, stream),
             "cuMemcpyDtoDAsync")) ||
        (err = checkRunner(api.cuEventRecord(end, stream), "cuEventRecord")) ||
        (err = checkRunner(api.cuEventSynchronize(end), "cuEventSynchronize")))
      break;
    if (i >= warmup)
      ms[i - warmup] = elapsedMs(start, end);
  }
  api.cuEventDestroy(start);
  api.cuEventDestroy(end);
  posencGpuFree(src);
  posencGpuFree(dst);
  return err;
}

} // extern "C"
