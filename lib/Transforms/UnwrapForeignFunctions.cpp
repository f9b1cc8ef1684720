//===- UnwrapForeignFunctions.cpp - posenc-unwrap-foreign-functions -------===//
//
// The function-like ops posenc-wrap-foreign-functions turned into func.func,
// restored with their rewritten bodies.
//
//===----------------------------------------------------------------------===//

#include "ForeignFunctions.h"

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCUNWRAPFOREIGNFUNCTIONS
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

struct UnwrapForeignFunctionsPass
    : posenc::impl::PosEncUnwrapForeignFunctionsBase<
          UnwrapForeignFunctionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder builder(&getContext());
    for (auto func :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      auto opName = func->getAttrOfType<StringAttr>(posenc::kForeignOpAttr);
      if (!opName)
        continue;
      auto props =
          func->getAttrOfType<DictionaryAttr>(posenc::kForeignPropertiesAttr);
      auto kept =
          func->getAttrOfType<DictionaryAttr>(posenc::kForeignAttrsAttr);
      OperationState state(func.getLoc(), opName.getValue());
      NamedAttrList properties;
      properties.append("sym_name", func.getSymNameAttr());
      properties.append("function_type", TypeAttr::get(func.getFunctionType()));
      if (props)
        properties.append(props.getValue());
      state.propertiesAttr = properties.getDictionary(&getContext());
      if (kept)
        state.addAttributes(kept.getValue());
      state.addRegion();
      builder.setInsertionPoint(func);
      Operation *op = builder.create(state);
      op->getRegion(0).takeBody(func.getBody());
      func.erase();
    }
  }
};

} // namespace
