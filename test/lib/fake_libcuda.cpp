//===- fake_libcuda.cpp - A CUDA driver stand-in for tests ----------------===//
//
// The entry points posenc-run's GPU runtime binds (tools/posenc-run/
// CudaDriver.cpp), on the host: device memory is host memory, copies are
// memcpy, events read a clock, modules load anything that looks like PTX or
// an ELF image, and kernels run nothing. posenc-run --gpu with
// POSENC_LIBCUDA=<this library> thus goes through its whole device path
// (driver and context, module load, buffers, launches, timing, copies back,
// --compare-cpu) on machines without a GPU; only the kernels' results are
// missing (the outputs stay as the runner initialized them, zeros).
//
// Environment:
//   FAKE_CUDA_TRACE=1         print every module load and launch to stderr
//   FAKE_CUDA_INIT_ERROR=N    cuInit returns N (100: no device)
//   FAKE_CUDA_ASSERT=1        synchronizing after a launch returns
//                             CUDA_ERROR_ASSERT (a device-side assertion)
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace {

using CUresult = int;
constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kNotFound = 500;
constexpr CUresult kAssert = 710;

struct FakeFunction {
  std::string name;
};

struct FakeEvent {
  double seconds = 0;
};

bool tracing() {
  const char *value = std::getenv("FAKE_CUDA_TRACE");
  return value && *value == '1';
}

bool pendingAssert = false;

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

extern "C" {

CUresult cuInit(unsigned) {
  const char *error = std::getenv("FAKE_CUDA_INIT_ERROR");
  return error && *error ? std::atoi(error) : kSuccess;
}

CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return kSuccess;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case kSuccess:
    *name = "CUDA_SUCCESS";
    return kSuccess;
  case kInvalidValue:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return kSuccess;
  case 100:
    *name = "CUDA_ERROR_NO_DEVICE";
    return kSuccess;
  case kInvalidImage:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    return kSuccess;
  case kNotFound:
    *name = "CUDA_ERROR_NOT_FOUND";
    return kSuccess;
  case kAssert:
    *name = "CUDA_ERROR_ASSERT";
    return kSuccess;
  default:
    *name = nullptr;
    return kInvalidValue;
  }
}

CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "fake";
  return kSuccess;
}

CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return kSuccess;
}

CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return kSuccess;
}

CUresult cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, length, "Fake CUDA device");
  return kSuccess;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 16: // multiprocessors
    *value = 132;
    return kSuccess;
  case 75: // compute capability
    *value = 9;
    return kSuccess;
  case 76:
    *value = 0;
    return kSuccess;
  case 97: // shared memory per block, opt-in
    *value = 227 * 1024;
    return kSuccess;
  default:
    *value = 0;
    return kSuccess;
  }
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, int) {
  *bytes = size_t(16) << 30;
  return kSuccess;
}

CUresult cuDevicePrimaryCtxRetain(void **context, int) {
  static int primary;
  *context = &primary;
  return kSuccess;
}

CUresult cuCtxSetCurrent(void *) { return kSuccess; }

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned, int *,
                            void **) {
  const char *text = static_cast<const char *>(image);
  bool ptx =
      text && std::strstr(text, ".version") && std::strstr(text, ".target");
  bool elf = text && std::memcmp(text, "\177ELF", 4) == 0;
  if (!ptx && !elf)
    return kInvalidImage;
  if (tracing())
    std::fprintf(stderr, "fake-cuda: load module (%s)\n", ptx ? "PTX" : "ELF");
  static int loaded;
  *module = &loaded;
  return kSuccess;
}

CUresult cuModuleLoadData(void **module, const void *image) {
  return cuModuleLoadDataEx(module, image, 0, nullptr, nullptr);
}

CUresult cuModuleUnload(void *) { return kSuccess; }

CUresult cuModuleGetFunction(void **function, void *, const char *name) {
  // Owned here for the life of the process (modules are not tracked).
  static std::vector<std::unique_ptr<FakeFunction>> functions;
  functions.push_back(std::make_unique<FakeFunction>(FakeFunction{name}));
  *function = functions.back().get();
  return kSuccess;
}

CUresult cuFuncSetAttribute(void *, int, int) { return kSuccess; }

CUresult cuLaunchKernel(void *function, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned sharedBytes, void *,
                        void **params, void **) {
  if (!params)
    return kInvalidValue;
  if (tracing())
    std::fprintf(
        stderr, "fake-cuda: launch %s grid %ux%ux%u block %ux%ux%u shared %u\n",
        static_cast<FakeFunction *>(function)->name.c_str(), gridX, gridY,
        gridZ, blockX, blockY, blockZ, sharedBytes);
  const char *value = std::getenv("FAKE_CUDA_ASSERT");
  pendingAssert = value && *value == '1';
  return kSuccess;
}

CUresult cuStreamCreate(void **stream, unsigned) {
  static int one;
  *stream = &one;
  return kSuccess;
}

CUresult cuStreamDestroy_v2(void *) { return kSuccess; }

CUresult cuStreamSynchronize(void *) {
  return pendingAssert ? kAssert : kSuccess;
}

CUresult cuStreamWaitEvent(void *, void *, unsigned) { return kSuccess; }

CUresult cuEventCreate(void **event, unsigned) {
  // Owned here for the life of the process, as a driver owns its events:
  // posenc-run keeps its timing events until exit, which must not read as
  // a leak in sanitizer runs.
  static std::deque<FakeEvent> events;
  *event = &events.emplace_back();
  return kSuccess;
}

CUresult cuEventDestroy_v2(void *) { return kSuccess; }

CUresult cuEventRecord(void *event, void *) {
  static_cast<FakeEvent *>(event)->seconds = now();
  return kSuccess;
}

CUresult cuEventSynchronize(void *) {
  return pendingAssert ? kAssert : kSuccess;
}

CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  *ms = static_cast<float>((static_cast<FakeEvent *>(end)->seconds -
                            static_cast<FakeEvent *>(start)->seconds) *
                           1e3);
  return kSuccess;
}

CUresult cuMemAlloc_v2(uint64_t *pointer, size_t bytes) {
  void *memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory)
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  *pointer = reinterpret_cast<uintptr_t>(memory);
  return kSuccess;
}

CUresult cuMemFree_v2(uint64_t pointer) {
  std::free(reinterpret_cast<void *>(static_cast<uintptr_t>(pointer)));
  return kSuccess;
}

CUresult cuMemGetInfo_v2(size_t *freeBytes, size_t *totalBytes) {
  *freeBytes = *totalBytes = size_t(16) << 30;
  return kSuccess;
}

static void *pointer(uint64_t address) {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(address));
}

CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes) {
  std::memcpy(pointer(dst), src, bytes);
  return kSuccess;
}

CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes) {
  std::memcpy(dst, pointer(src), bytes);
  return kSuccess;
}

CUresult cuMemcpyAsync(uint64_t dst, uint64_t src, size_t bytes, void *) {
  std::memcpy(pointer(dst), pointer(src), bytes);
  return kSuccess;
}

CUresult cuMemcpyDtoDAsync_v2(uint64_t dst, uint64_t src, size_t bytes,
                              void *) {
  std::memcpy(pointer(dst), pointer(src), bytes);
  return kSuccess;
}

CUresult cuMemsetD16Async(uint64_t dst, unsigned short value, size_t count,
                          void *) {
  auto *data = static_cast<uint16_t *>(pointer(dst));
  for (size_t i = 0; i < count; ++i)
    data[i] = value;
  return kSuccess;
}

CUresult cuMemsetD32Async(uint64_t dst, unsigned value, size_t count, void *) {
  auto *data = static_cast<uint32_t *>(pointer(dst));
  for (size_t i = 0; i < count; ++i)
    data[i] = value;
  return kSuccess;
}

} // extern "C"
