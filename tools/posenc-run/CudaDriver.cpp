//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace mlir::posenc::run::cuda {

namespace {

struct DriverState {
  bool attempted = false;
  DriverStatus status = DriverStatus::NoDriver;
  std::string message;
  void *library = nullptr;
  CudaDriverAPI api = {};
  DeviceInfo device;
  CUcontext context = nullptr;
};

DriverState &getState() {
  static DriverState state;
  return state;
}

/// Looks up `names` in order (the versioned ABI name first, where cuda.h
/// maps the API name to one) and stores the first found in `slot`.
template <typename Fn>
bool bind(void *library, Fn &slot, std::initializer_list<const char *> names,
          std::string &missing) {
  for (const char *name : names)
    if (void *symbol = ::dlsym(library, name)) {
      slot = reinterpret_cast<Fn>(symbol);
      return true;
    }
  missing = *names.begin();
  return false;
}

bool bindAll(void *library, CudaDriverAPI &api, std::string &missing) {
  // cuEventElapsedTime_v2 first: CUDA 13's cuda.h maps the name to it.
  return bind(library, api.cuInit, {"cuInit"}, missing) &&
         bind(library, api.cuDriverGetVersion, {"cuDriverGetVersion"},
              missing) &&
         bind(library, api.cuGetErrorName, {"cuGetErrorName"}, missing) &&
         bind(library, api.cuGetErrorString, {"cuGetErrorString"}, missing) &&
         bind(library, api.cuDeviceGetCount, {"cuDeviceGetCount"}, missing) &&
         bind(library, api.cuDeviceGet, {"cuDeviceGet"}, missing) &&
         bind(library, api.cuDeviceGetName, {"cuDeviceGetName"}, missing) &&
         bind(library, api.cuDeviceGetAttribute, {"cuDeviceGetAttribute"},
              missing) &&
         bind(library, api.cuDeviceTotalMem, {"cuDeviceTotalMem_v2"},
              missing) &&
         bind(library, api.cuDevicePrimaryCtxRetain,
              {"cuDevicePrimaryCtxRetain"}, missing) &&
         bind(library, api.cuCtxSetCurrent, {"cuCtxSetCurrent"}, missing) &&
         bind(library, api.cuModuleLoadData, {"cuModuleLoadData"}, missing) &&
         bind(library, api.cuModuleLoadDataEx, {"cuModuleLoadDataEx"},
              missing) &&
         bind(library, api.cuModuleUnload, {"cuModuleUnload"}, missing) &&
         bind(library, api.cuModuleGetFunction, {"cuModuleGetFunction"},
              missing) &&
         bind(library, api.cuFuncSetAttribute, {"cuFuncSetAttribute"},
              missing) &&
         bind(library, api.cuLaunchKernel, {"cuLaunchKernel"}, missing) &&
         bind(library, api.cuStreamCreate, {"cuStreamCreate"}, missing) &&
         bind(library, api.cuStreamDestroy, {"cuStreamDestroy_v2"}, missing) &&
         bind(library, api.cuStreamSynchronize, {"cuStreamSynchronize"},
              missing) &&
         bind(library, api.cuStreamWaitEvent, {"cuStreamWaitEvent"}, missing) &&
         bind(library, api.cuEventCreate, {"cuEventCreate"}, missing) &&
         bind(library, api.cuEventDestroy, {"cuEventDestroy_v2"}, missing) &&
         bind(library, api.cuEventRecord, {"cuEventRecord"}, missing) &&
         bind(library, api.cuEventSynchronize, {"cuEventSynchronize"},
              missing) &&
         bind(library, api.cuEventElapsedTime,
              {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing) &&
         bind(library, api.cuMemAlloc, {"cuMemAlloc_v2"}, missing) &&
         bind(library, api.cuMemFree, {"cuMemFree_v2"}, missing) &&
         bind(library, api.cuMemGetInfo, {"cuMemGetInfo_v2"}, missing) &&
         bind(library, api.cuMemcpyAsync, {"cuMemcpyAsync"}, missing) &&
         bind(library, api.cuMemcpyDtoDAsync, {"cuMemcpyDtoDAsync_v2"},
              missing) &&
         bind(library, api.cuMemsetD16Async, {"cuMemsetD16Async"}, missing) &&
         bind(library, api.cuMemsetD32Async, {"cuMemsetD32Async"}, missing);
}

DriverStatus fail(DriverState &state, DriverStatus status,
                  std::string message) {
  state.status = status;
  state.message = std::move(message);
  return status;
}

DriverStatus initialize(DriverState &state, int ordinal) {
  const char *override = std::getenv("POSENC_LIBCUDA");
  std::string path = override && *override ? override : "libcuda.so.1";
  // RTLD_LOCAL: the driver's symbols must not satisfy anything else.
  state.library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!state.library) {
    const char *reason = ::dlerror();
    return fail(state, DriverStatus::NoDriver,
                "cannot load the CUDA driver library " + path + " (" +
                    (reason ? reason : "dlopen failed") + ")");
  }
  std::string missing;
  if (!bindAll(state.library, state.api, missing))
    return fail(state, DriverStatus::NoDriver,
                path + " is not a usable CUDA driver library (it lacks " +
                    missing + ")");
  const CudaDriverAPI &api = state.api;
  CUresult result = api.cuInit(0);
  if (result == CUDA_ERROR_STUB_LIBRARY)
    return fail(state, DriverStatus::StubLibrary,
                path +
                    " is the CUDA toolkit's stub library, not a driver "
                    "(cuInit: " +
                    describeError(result) + ")");
  if (result == CUDA_ERROR_NO_DEVICE)
    return fail(state, DriverStatus::NoDevice,
                "the CUDA driver found no device (cuInit: " +
                    describeError(result) + ")");
  if (result != CUDA_SUCCESS)
    return fail(state, DriverStatus::Failed,
                "cuInit failed: " + describeError(result));
  int count = 0;
  if ((result = api.cuDeviceGetCount(&count)) != CUDA_SUCCESS)
    return fail(state, DriverStatus::Failed,
                "cuDeviceGetCount failed: " + describeError(result));
  if (ordinal < 0 || ordinal >= count)
    return fail(state, DriverStatus::NoDevice,
                "there is no CUDA device " + std::to_string(ordinal) + " (" +
                    std::to_string(count) + " present)");

  DeviceInfo &info = state.device;
  CUdevice device = 0;
  if ((result = api.cuDeviceGet(&device, ordinal)) != CUDA_SUCCESS)
    return fail(state, DriverStatus::Failed,
                "cuDeviceGet failed: " + describeError(result));
  char name[256] = {};
  api.cuDeviceGetName(name, sizeof(name) - 1, device);
  info.name = name;
  info.ordinal = ordinal;
  api.cuDeviceGetAttribute(
      &info.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  api.cuDeviceGetAttribute(
      &info.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  api.cuDeviceGetAttribute(&info.multiprocessors,
                           CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  api.cuDeviceGetAttribute(
      &info.sharedBytesPerBlockOptin,
      CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device);
  api.cuDeviceTotalMem(&info.totalBytes, device);
  api.cuDriverGetVersion(&info.driverVersion);
  // The primary context: the one the CUDA runtime (and PyTorch) share, and
  // whose creation did not change signature in CUDA 13 as cuCtxCreate did.
  if ((result = api.cuDevicePrimaryCtxRetain(&state.context, device)) !=
      CUDA_SUCCESS)
    return fail(state, DriverStatus::Failed,
                "cuDevicePrimaryCtxRetain failed: " + describeError(result));
  if ((result = api.cuCtxSetCurrent(state.context)) != CUDA_SUCCESS)
    return fail(state, DriverStatus::Failed,
                "cuCtxSetCurrent failed: " + describeError(result));
  state.status = DriverStatus::Ready;
  state.message.clear();
  return state.status;
}

} // namespace

DriverStatus initializeDriver(int ordinal) {
  DriverState &state = getState();
  if (!state.attempted) {
    state.attempted = true;
    initialize(state, ordinal);
  }
  return state.status;
}

const CudaDriverAPI &getDriver() { return getState().api; }

const DeviceInfo &getDeviceInfo() { return getState().device; }

CUcontext getContext() { return getState().context; }

const std::string &getDriverMessage() { return getState().message; }

std::string describeError(CUresult result) {
  const CudaDriverAPI &api = getState().api;
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(result, &text);
  // The stub library names no error, not even its own.
  if (!name && result == CUDA_ERROR_STUB_LIBRARY)
    name = "CUDA_ERROR_STUB_LIBRARY";
  if (!name && result == CUDA_ERROR_NO_DEVICE)
    name = "CUDA_ERROR_NO_DEVICE";
  std::string description =
      name ? std::string(name) : "CUDA error " + std::to_string(result);
  if (text)
    description += std::string(" (") + text + ")";
  return description;
}

} // namespace mlir::posenc::run::cuda
