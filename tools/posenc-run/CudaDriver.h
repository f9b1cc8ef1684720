//===- CudaDriver.h - The CUDA driver API, loaded at run time --*- C++ -*-===//
//
// posenc-run must build and run on machines without CUDA, so it never links
// libcuda: the driver is opened with dlopen("libcuda.so.1") when --gpu asks
// for it, and the few entry points the runner needs are looked up by their
// ABI names (cuda.h maps cuMemAlloc to cuMemAlloc_v2 and so on). The types
// are declared here, ABI-compatible with cuda.h, for the same reason.
//
// Plain C++ (no LLVM): this file is also part of libPosEncGPURuntime.so,
// which runs on GPU machines that have no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_CUDADRIVER_H
#define POSENC_TOOLS_POSENC_RUN_CUDADRIVER_H

#include <cstddef>
#include <string>

namespace mlir::posenc::run::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

// The values of cuda.h that the runner uses.
enum : int {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_ASSERT = 710,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DEFAULT = 0,
};

/// The driver entry points the runner calls.
struct CudaDriverAPI {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **values);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, CUstream stream,
                             void **params, void **extra);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemGetInfo)(size_t *freeBytes, size_t *totalBytes);
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream stream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                CUstream stream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value,
                               size_t count, CUstream stream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                               CUstream stream);
};

/// Why the driver is not usable, if it is not.
enum class DriverStatus {
  Ready,
  /// libcuda.so.1 could not be opened or lacks an entry point: no driver.
  NoDriver,
  /// The toolkit's stub libcuda (cuInit: CUDA_ERROR_STUB_LIBRARY).
  StubLibrary,
  /// A driver without a device (cuInit: CUDA_ERROR_NO_DEVICE), or a device
  /// ordinal beyond the devices present.
  NoDevice,
  /// Any other failure of cuInit or of the context's creation.
  Failed,
};

/// What the runner knows about the device it uses.
struct DeviceInfo {
  std::string name;
  int ordinal = 0;
  int ccMajor = 0;
  int ccMinor = 0;
  int multiprocessors = 0;
  int sharedBytesPerBlockOptin = 0;
  size_t totalBytes = 0;
  int driverVersion = 0;
};

/// Opens the driver (the library named by $POSENC_LIBCUDA, else
/// libcuda.so.1), initializes it and makes the primary context of device
/// `ordinal` current. Only the first call does the work; later calls return
/// its status. On failure `message` says why, in one line.
DriverStatus initializeDriver(int ordinal);

/// The entry points; valid once initializeDriver returned Ready.
const CudaDriverAPI &getDriver();

/// The device and its primary context; valid once initializeDriver returned
/// Ready.
const DeviceInfo &getDeviceInfo();
CUcontext getContext();

/// The one-line reason of the last failure of initializeDriver.
const std::string &getDriverMessage();

/// "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)", or the code
/// alone when the driver cannot name it.
std::string describeError(CUresult result);

} // namespace mlir::posenc::run::cuda

#endif // POSENC_TOOLS_POSENC_RUN_CUDADRIVER_H
