//===- EntryWrapper.cpp - The runner's memref entry point -----------------===//

#include "EntryWrapper.h"

#include "HostBuffer.h"
#include "Npy.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using llvm::Error;
using llvm::Expected;
using llvm::Twine;

namespace mlir::posenc::run {

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

Expected<func::FuncOp> findEntry(ModuleOp module, StringRef name) {
  SmallVector<func::FuncOp> candidates;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      candidates.push_back(func);
  std::string names = llvm::join(
      llvm::map_range(candidates,
                      [](func::FuncOp func) { return func.getSymName(); }),
      ", ");
  if (names.empty())
    names = "none";

  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func)
      return llvm::createStringError(
          "no function named '" + name +
          "' in the module (public functions: " + names + ")");
    if (func.isExternal())
      return llvm::createStringError("@" + name +
                                     " is a declaration without a body");
    return func;
  }
  if (candidates.size() == 1)
    return candidates.front();
  if (candidates.empty())
    return llvm::createStringError(
        "the module has no public function with a body; name "
        "the entry with --entry=NAME");
  return llvm::createStringError("the module has " + Twine(candidates.size()) +
                                 " public functions (" + names +
                                 "); choose one with --entry=NAME");
}

/// Checks one argument or result type of the entry.
static Expected<TensorSpec> getTensorSpec(func::FuncOp entry, Type type,
                                          StringRef kind, unsigned index) {
  auto where = [&] {
    return (kind + " " + Twine(index) + " of @" + entry.getSymName() +
            " has type '" + typeToString(type) + "'")
        .str();
  };
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return llvm::createStringError(
        where() + ": posenc-run needs ranked tensor arguments and results");
  if (!tensorType.hasStaticShape())
    return llvm::createStringError(where() +
                                   ": dynamic shapes are not supported (the "
                                   "runner allocates every buffer up front)");
  if (tensorType.getEncoding())
    return llvm::createStringError(
        where() + ": tensors with an encoding are not supported");
  std::optional<DType> dtype = getDType(tensorType.getElementType());
  if (!dtype)
    return llvm::createStringError(
        where() + ": unsupported element type (supported: f16, "
                  "bf16, f32, f64, i1, i8, i16, i32, i64, index)");
  Expected<uint64_t> bytes =
      getCheckedByteSize(tensorType.getShape(), getByteWidth(*dtype));
  if (!bytes)
    return llvm::createStringError(where() + ": " +
                                   toString(bytes.takeError()));
  return TensorSpec{tensorType, *dtype, *bytes};
}

Expected<EntrySignature> getEntrySignature(func::FuncOp entry) {
  EntrySignature signature;
  signature.name = entry.getSymName().str();
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    Expected<TensorSpec> spec = getTensorSpec(entry, type, "argument", i);
    if (!spec)
      return spec.takeError();
    signature.inputs.push_back(*spec);
  }
  for (auto [i, type] : llvm::enumerate(entry.getResultTypes())) {
    Expected<TensorSpec> spec = getTensorSpec(entry, type, "result", i);
    if (!spec)
      return spec.takeError();
    signature.results.push_back(*spec);
  }
  if (signature.results.empty())
    return llvm::createStringError(
        "@" + entry.getSymName() +
        " returns nothing; posenc-run needs at least one result");
  return signature;
}

static MemRefType getMemRefType(Type tensorType) {
  auto type = cast<RankedTensorType>(tensorType);
  return MemRefType::get(type.getShape(), type.getElementType());
}

Error buildEntryWrapper(ModuleOp module, func::FuncOp entry,
                        bool writableInputs) {
  if (module.lookupSymbol(kEntryWrapperName))
    return llvm::createStringError("the module already defines @" +
                                   kEntryWrapperName +
                                   ", the name of posenc-run's wrapper");
  MLIRContext *ctx = module.getContext();
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      func.setPrivate();

  SmallVector<Type> argTypes;
  for (Type type : entry.getArgumentTypes())
    argTypes.push_back(getMemRefType(type));
  for (Type type : entry.getResultTypes())
    argTypes.push_back(getMemRefType(type));

  Location loc = NameLoc::get(StringAttr::get(ctx, kEntryWrapperName));
  auto builder = OpBuilder::atBlockEnd(module.getBody());
  auto wrapper = func::FuncOp::create(builder, loc, kEntryWrapperName,
                                      builder.getFunctionType(argTypes, {}));
  wrapper->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                   builder.getUnitAttr());
  Block *body = wrapper.addEntryBlock();
  builder.setInsertionPointToStart(body);

  // The runner's buffers are aligned: vector loads and (non-temporal)
  // stores on them may use aligned instructions.
  SmallVector<Value> buffers;
  for (BlockArgument arg : body->getArguments())
    buffers.push_back(
        memref::AssumeAlignmentOp::create(builder, loc, arg, kBufferAlignment));
  unsigned numInputs = entry.getNumArguments();
  SmallVector<Value> tensors;
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes()))
    tensors.push_back(bufferization::ToTensorOp::create(
        builder, loc, type, buffers[i], /*restrict=*/true,
        /*writable=*/writableInputs));
  auto call = func::CallOp::create(builder, loc, entry, tensors);
  for (auto [i, result] : llvm::enumerate(call.getResults()))
    bufferization::MaterializeInDestinationOp::create(
        builder, loc, /*result=*/Type(), result, buffers[numInputs + i],
        /*restrict=*/true,
        /*writable=*/true);
  func::ReturnOp::create(builder, loc);

  if (failed(verify(wrapper)))
    return llvm::createStringError(
        "the generated entry wrapper does not verify");
  return Error::success();
}

} // namespace mlir::posenc::run
