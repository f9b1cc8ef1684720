//===- GPUPipeline.cpp - posenc-gpu-pipeline ------------------------------===//

#include "posenc/Pipelines/GPUPipeline.h"

#include "ModulePipeline.h"

#include "posenc/GPU/Passes.h"
#include "posenc/Pipelines/LinalgPipeline.h"
#include "posenc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::posenc;

/// Whether `alloc` is a small temporary of a kernel's threads (a runtime
/// check's flag): inside an scf.forall nest or a gpu.launch, static, rank
/// <= 1, at most 1 KiB (promote-buffers-to-stack's own limits). Host
/// temporaries stay allocations: host stack memory handed to a kernel
/// cannot be read on a GPU.
static bool isKernelTemporary(Value alloc) {
  Operation *op = alloc.getDefiningOp();
  auto type = dyn_cast<MemRefType>(alloc.getType());
  if (!op || !type || !type.hasStaticShape() || type.getRank() > 1 ||
      (!op->getParentOfType<scf::ForallOp>() &&
       !op->getParentOfType<gpu::LaunchOp>()))
    return false;
  Type element = type.getElementType();
  int64_t bits = isa<IndexType>(element)  ? 64
                 : element.isIntOrFloat() ? element.getIntOrFloatBitWidth()
                                          : 0;
  return bits > 0 && type.getNumElements() * bits <= 1024 * 8;
}

/// Buffers in place, as on the CPU; the small temporaries a kernel's
/// threads make go on the stack, since kernels cannot call the host's
/// allocator.
static void addBufferization(OpPassManager &pm) {
  pm.addPass(createPosEncExpandDestinations());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(createPosEncExpandPartialWrites());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass(isKernelTemporary));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
}

/// gpu.launch per nest, with the views, constants and index computations
/// its kernel makes itself.
static void addLaunches(OpPassManager &pm) {
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addNestedPass<func::FuncOp>(createPosEncMapForallToGPU());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
}

/// The launches as loops over blocks and threads on the host CPU.
static void addHostLowering(OpPassManager &pm) {
  // Warp-level ops (tensor-core attention) first, as per-lane code.
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createPosEncEmulateNVGPU());
  functions.addPass(createPosEncGPULaunchToLoops());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // i1 memrefs hold bytes; upstream's vector lowering reads them packed.
  pm.addPass(createPosEncLowerI1VectorMemory());
  // n-D vectors (emulated mma fragments) are unrolled to 1-D first.
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// The CUDA toolkit whose libdevice the kernels link (and whose ptxas
/// format=bin runs): the option, else upstream's environment lookup
/// (CUDA_ROOT, CUDA_HOME, CUDA_PATH), else /usr/local/cuda if it has
/// libdevice. Debian's MLIR has no built-in default, so without one the PTX
/// would call libdevice functions it does not define.
static std::string getToolkitPath(const GPUPipelineOptions &options) {
  if (!options.toolkit.empty())
    return options.toolkit;
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(name); value && *value)
      return value;
  StringRef fallback = "/usr/local/cuda";
  if (llvm::sys::fs::exists(fallback + "/nvvm/libdevice/libdevice.10.bc"))
    return fallback.str();
  return "";
}

/// gpu.launch, outlining, NVVM, PTX: upstream's gpu-lower-to-nvvm-pipeline
/// (less its vector and nvgpu steps), with the toolkit path, which it does
/// not take.
static void addNVVMLowering(OpPassManager &pm,
                            const GPUPipelineOptions &options) {
  // Tensor-core ops (attention's mma.sync, ldmatrix) first, as upstream's
  // gpu-lower-to-nvvm-pipeline does; bf16 mma.sync is ours.
  pm.addPass(createPosEncBF16MmaToNVVM());
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  // 16-byte tiles: ldmatrix rows, vector accesses.
  pm.nest<gpu::GPUModuleOp>().addNestedPass<gpu::GPUFuncOp>(
      createPosEncAlignWorkgroupMemory());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  pm.addNestedPass<gpu::GPUModuleOp>(createStripDebugInfoPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createPosEncLowerI1VectorMemory());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = getToolkitPath(options);
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::posenc::buildGPUPipeline(OpPassManager &pm,
                                    const GPUPipelineOptions &options) {
  // Inlined first, so that results land in the caller's destinations.
  pm.addPass(createInlinerPass());
  pm.addPass(
      createPosEncVerifyGPUSupport(options.getVerifyGPUSupportOptions()));
  // Attention becomes its flash kernel on tensors' buffers first; the
  // elementwise ops (and what attention reads: frequencies, slopes) then
  // take the linalg path.
  pm.addNestedPass<func::FuncOp>(
      createPosEncAttentionToGPU(options.getAttentionToGPUOptions()));
  // No attention is left for the host's flash nest.
  PosEncLoweringOptions lowering;
  lowering.flashAttention = false;
  buildPosEncToLinalgPipeline(pm, lowering);
  // Results computed in the caller's buffers before tiling, so that
  // posenc-tile-to-gpu sees (and keeps) the destinations of partial
  // results (a partial RoPE's rotated channels).
  pm.addPass(createPosEncExpandDestinations());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addNestedPass<func::FuncOp>(
      createPosEncTileToGPU(options.getTileToGPUOptions()));
  if (options.approximateTrig)
    pm.addPass(createPosEncApproximateTrig());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  addBufferization(pm);
  if (options.stopBeforeOutlining)
    return;
  addLaunches(pm);
  if (options.emulateOnHost)
    addHostLowering(pm);
  else
    addNVVMLowering(pm, options);
}

void mlir::posenc::registerGPUPipeline() {
  registerModulePipeline<GPUPipelineOptions>(
      "posenc-gpu-pipeline",
      "Lower the elementwise posenc ops (and linalg on tensors) to one NVVM "
      "kernel each and serialize them to PTX or cubin",
      buildGPUPipeline, [](const GPUPipelineOptions &options) -> std::string {
        // gpu-module-to-binary reports another format only as a diagnostic
        // on the module, after the whole lowering, and still succeeds.
        StringRef format = options.format;
        if (llvm::is_contained({"isa", "assembly", "bin", "binary", "fatbin",
                                "fatbinary", "llvm", "offloading"},
                               format))
          return "";
        return ("format=" + format +
                " is not a format gpu-module-to-binary emits (isa, bin, "
                "fatbin, llvm)")
            .str();
      });
}
