//===- GPURuntime.h - The mgpu* runtime of lowered host code ---*- C++ -*-===//
//
// Host code lowered by gpu-to-llvm and the GPU dialect's LLVM IR
// translation calls `mgpu*` functions (load the kernels' module, get a
// function, launch it, streams, events, device memory). Upstream implements
// them in libmlir_cuda_runtime.so, which Debian does not ship; these are
// posenc-run's, over the CUDA driver loaded with dlopen (CudaDriver.h).
//
// Every stream the host code creates is the runner's one stream, so CUDA
// events recorded on it around a call time all of the call's work, and
// events around each launch time the kernels alone. A CUDA failure inside
// the host code (which cannot report errors) ends the process with one
// error line and exit status 1.
//
// The posencGpu* C functions are the runner's side: device buffers, copies,
// timing. posenc-run calls them directly; bench/gpu calls them through
// ctypes from libPosEncGPURuntime.so, which holds this file and
// CudaDriver.cpp and needs neither LLVM nor CUDA to build.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_TOOLS_POSENC_RUN_GPURUNTIME_H
#define POSENC_TOOLS_POSENC_RUN_GPURUNTIME_H

#include <cstddef>
#include <cstdint>

namespace mlir::posenc::run::cuda {

/// A runtime function the lowered host code may call, with its LLVM IR
/// function type as the lowering declares it (`ptr (ptr, i64)`).
struct RuntimeSymbol {
  const char *name;
  void *address;
  const char *llvmType;
};

/// Every mgpu* function this runtime provides; `count` receives their
/// number.
const RuntimeSymbol *getRuntimeSymbols(size_t &count);

} // namespace mlir::posenc::run::cuda

extern "C" {

/// Status codes of posencGpuInit (posenc::gpu::DriverStatus).
enum {
  POSENC_GPU_READY = 0,
  POSENC_GPU_NO_DRIVER = 1,
  POSENC_GPU_STUB_LIBRARY = 2,
  POSENC_GPU_NO_DEVICE = 3,
  POSENC_GPU_FAILED = 4,
};

/// Loads the driver and makes device `ordinal`'s primary context current.
/// Returns a status code above; posencGpuMessage says why on failure.
int posencGpuInit(int ordinal);

/// The reason of the last failure of any posencGpu* function (one line).
const char *posencGpuMessage(void);

/// The name fatal errors inside the host code are reported under
/// (default "posenc-gpu-runtime").
void posencGpuSetProgramName(const char *name);

/// The device: its name, compute capability (major * 10 + minor),
/// multiprocessors, memory in bytes, the driver's CUDA version (13000 for
/// 13.0).
const char *posencGpuDeviceName(void);
int posencGpuComputeCapability(void);
int posencGpuMultiprocessors(void);
uint64_t posencGpuTotalMemory(void);
int posencGpuDriverVersion(void);

/// Device memory of `bytes` bytes (null, with a message, on failure).
void *posencGpuAlloc(uint64_t bytes);
int posencGpuFree(void *pointer);

/// Synchronous copies; 0 on success.
int posencGpuCopyToDevice(void *dst, const void *src, uint64_t bytes);
int posencGpuCopyToHost(void *dst, const void *src, uint64_t bytes);
int posencGpuCopyOnDevice(void *dst, const void *src, uint64_t bytes);

/// Calls `fn(args)` (a packed C-interface entry) `warmup` times, then
/// `iterations` times timed with CUDA events on the runner's stream.
/// `prepare(prepareContext)`, if given, runs before every call, outside the
/// timing. Per timed call: `callMs[i]`, the whole call (from an event before
/// it to one after it: launch overheads and the host code's
/// synchronizations included), `kernelMs[i]`, the sum of the kernels'
/// times (events around each launch). `launches` receives the launches per
/// call. Returns 0 on success.
int posencGpuTimeCalls(void (*fn)(void **), void **args, unsigned warmup,
                       unsigned iterations, void (*prepare)(void *),
                       void *prepareContext, double *callMs, double *kernelMs,
                       unsigned *launches);

/// Times a device-to-device copy of `bytes` bytes (cuMemcpyDtoDAsync, two
/// fresh buffers) `iterations` times after `warmup`; `ms[i]` per copy.
/// Returns 0 on success.
int posencGpuTimeCopy(uint64_t bytes, unsigned warmup, unsigned iterations,
                      double *ms);

} // extern "C"

#endif // POSENC_TOOLS_POSENC_RUN_GPURUNTIME_H
