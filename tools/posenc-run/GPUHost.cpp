//===- GPUHost.cpp - The host code of a --gpu run -------------------------===//

#include "GPUHost.h"

#include "GPURuntime.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using llvm::Error;
using llvm::Expected;

namespace mlir::posenc::run {

namespace {

std::string describeLocation(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " (" << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
       << loc.getColumn() << ")";
  return text;
}

bool isAllocation(LLVM::CallOp call) {
  std::optional<StringRef> callee = call.getCallee();
  return callee && (*callee == "malloc" || *callee == "aligned_alloc" ||
                    *callee == "mgpuMemAlloc");
}

/// The op whose result `value` comes from through address arithmetic and
/// descriptor packing, if it satisfies `isSource`, or the pointer argument
/// of the function when `stopAtArguments`.
Operation *findSource(Value value,
                      llvm::function_ref<bool(Operation *)> isSource,
                      bool &reachesArgument) {
  llvm::SmallVector<Value> worklist = {value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    if (isa<BlockArgument>(current)) {
      if (isa<LLVM::LLVMPointerType>(current.getType()))
        reachesArgument = true;
      continue;
    }
    Operation *def = current.getDefiningOp();
    if (isSource(def))
      return def;
    // A loaded pointer is host data (a descriptor), not a buffer.
    if (isa<LLVM::LoadOp>(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  return nullptr;
}

Error hostCopyError(Operation *op) {
  return llvm::createStringError(
      "the lowered host code copies or sets memory on the host ('" +
      op->getName().getStringRef() + "'" + describeLocation(op) +
      "): with --gpu every buffer is device memory that only kernels may "
      "touch (the pipeline must compute results in place, or copy with "
      "gpu.memcpy)");
}

/// The checks of prepareHostCodeForGPU on one host function.
Error checkHostFunction(LLVM::LLVMFuncOp func) {
  // The C-interface wrappers read the runner's descriptors, which are host
  // memory.
  bool isInterface = func.getName().starts_with("_mlir_ciface_");
  Error error = Error::success();
  func.walk([&](Operation *op) {
    if (isa<LLVM::MemcpyOp, LLVM::MemcpyInlineOp, LLVM::MemmoveOp,
            LLVM::MemsetOp, LLVM::MemsetInlineOp>(op)) {
      error = hostCopyError(op);
      return WalkResult::interrupt();
    }
    if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      std::optional<StringRef> callee = call.getCallee();
      if (callee &&
          llvm::is_contained({"memrefCopy", "memcpy", "memmove", "memset"},
                             *callee)) {
        error = hostCopyError(op);
        return WalkResult::interrupt();
      }
    }
    if (!isInterface && isa<LLVM::LoadOp, LLVM::StoreOp>(op)) {
      Value address = isa<LLVM::LoadOp>(op) ? cast<LLVM::LoadOp>(op).getAddr()
                                            : cast<LLVM::StoreOp>(op).getAddr();
      bool reachesArgument = false;
      Operation *allocation = findSource(
          address,
          [](Operation *def) {
            auto call = dyn_cast<LLVM::CallOp>(def);
            return call && isAllocation(call);
          },
          reachesArgument);
      if (allocation || reachesArgument) {
        error = llvm::createStringError(
            "the lowered host code reads or writes a buffer on the host ('" +
            op->getName().getStringRef() + "'" + describeLocation(op) +
            " in @" + func.getName() +
            "): with --gpu every buffer is device memory that only kernels "
            "may touch");
        return WalkResult::interrupt();
      }
    }
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      for (Value operand : launch.getKernelOperands()) {
        bool reachesArgument = false;
        Operation *host = findSource(
            operand,
            [](Operation *def) {
              return isa<LLVM::AllocaOp, LLVM::AddressOfOp>(def);
            },
            reachesArgument);
        if (!host)
          continue;
        std::string kernel = launch.getKernelName().getValue().str();
        if (auto global = dyn_cast<LLVM::AddressOfOp>(host))
          error = llvm::createStringError(
              "the lowered host code passes host global memory (@" +
              global.getGlobalName() + describeLocation(host) +
              ") to kernel @" + kernel +
              ": kernels read their tables from their own module");
        else
          error = llvm::createStringError(
              "the lowered host code passes host stack memory ('llvm.alloca'" +
              describeLocation(host) + ") to kernel @" + kernel +
              ": a temporary promoted to the stack outside the kernels "
              "(promote-buffers-to-stack) cannot be read on the GPU");
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return error;
}

/// The declaration of `name` with `type`, added if missing.
LLVM::LLVMFuncOp getOrDeclare(ModuleOp module, StringRef name,
                              LLVM::LLVMFunctionType type) {
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

} // namespace

Error prepareHostCodeForGPU(ModuleOp lowered) {
  SmallVector<LLVM::LLVMFuncOp> hostFunctions;
  for (auto func : lowered.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal())
      hostFunctions.push_back(func);
  for (LLVM::LLVMFuncOp func : hostFunctions)
    if (Error err = checkHostFunction(func))
      return err;

  MLIRContext *ctx = lowered.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i64Type = IntegerType::get(ctx, 64);
  auto i8Type = IntegerType::get(ctx, 8);
  LLVM::LLVMFuncOp memAlloc, memFree;
  for (LLVM::LLVMFuncOp func : hostFunctions) {
    SmallVector<LLVM::CallOp> calls;
    func.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (callee && (*callee == "malloc" || *callee == "aligned_alloc" ||
                     *callee == "free"))
        calls.push_back(call);
    });
    for (LLVM::CallOp call : calls) {
      OpBuilder builder(call);
      Location loc = call.getLoc();
      // The host code's own stream argument is unused by the allocator.
      Value stream = LLVM::ZeroOp::create(builder, loc, ptrType);
      if (*call.getCallee() == "free") {
        if (!memFree)
          memFree = getOrDeclare(
              lowered, "mgpuMemFree",
              LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                          {ptrType, ptrType}));
        LLVM::CallOp::create(builder, loc, memFree,
                             ValueRange{call.getArgOperands()[0], stream});
        call.erase();
        continue;
      }
      if (!memAlloc)
        memAlloc = getOrDeclare(
            lowered, "mgpuMemAlloc",
            LLVM::LLVMFunctionType::get(ptrType, {i64Type, ptrType, i8Type}));
      // cuMemAlloc's 256-byte alignment covers aligned_alloc's.
      Value size = call.getArgOperands().back();
      Value hostShared = LLVM::ConstantOp::create(
          builder, loc, i8Type, builder.getIntegerAttr(i8Type, 0));
      auto replacement = LLVM::CallOp::create(
          builder, loc, memAlloc, ValueRange{size, stream, hostShared});
      call.getResult().replaceAllUsesWith(replacement.getResult());
      call.erase();
    }
  }
  return Error::success();
}

Expected<SmallVector<RuntimeImport>> getRuntimeImports(ModuleOp lowered) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(lowered, llvmContext, "posenc-run-host");
  if (!module)
    return llvm::createStringError(
        "cannot translate the lowered host code to LLVM IR");
  size_t count = 0;
  const cuda::RuntimeSymbol *symbols = cuda::getRuntimeSymbols(count);
  SmallVector<RuntimeImport> imports;
  for (const llvm::Function &function : *module) {
    if (!function.isDeclaration() || function.isIntrinsic() ||
        function.use_empty())
      continue;
    RuntimeImport &import = imports.emplace_back();
    import.name = function.getName().str();
    llvm::raw_string_ostream os(import.type);
    function.getFunctionType()->print(os);
    import.isGPURuntime = StringRef(import.name).starts_with("mgpu");
    for (size_t i = 0; i < count; ++i)
      if (import.name == symbols[i].name)
        import.provided = import.type == symbols[i].llvmType;
  }
  return imports;
}

Error checkRuntimeImports(llvm::ArrayRef<RuntimeImport> imports) {
  size_t count = 0;
  const cuda::RuntimeSymbol *symbols = cuda::getRuntimeSymbols(count);
  SmallVector<std::string> problems;
  for (const RuntimeImport &import : imports) {
    if (!import.isGPURuntime || import.provided)
      continue;
    std::string problem = import.name + " (" + import.type + ")";
    for (size_t i = 0; i < count; ++i)
      if (import.name == symbols[i].name)
        problem += ", provided as " + std::string(symbols[i].llvmType);
    problems.push_back(problem);
  }
  if (problems.empty())
    return Error::success();
  return llvm::createStringError(
      "the lowered host code calls GPU runtime functions that posenc-run "
      "does not provide: " +
      llvm::join(problems, "; "));
}

llvm::orc::SymbolMap getGPURuntimeSymbols(llvm::orc::MangleAndInterner mangle) {
  size_t count = 0;
  const cuda::RuntimeSymbol *symbols = cuda::getRuntimeSymbols(count);
  llvm::orc::SymbolMap map;
  for (size_t i = 0; i < count; ++i)
    map[mangle(symbols[i].name)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(symbols[i].address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  return map;
}

} // namespace mlir::posenc::run
