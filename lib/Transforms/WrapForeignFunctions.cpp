//===- WrapForeignFunctions.cpp - posenc-wrap-foreign-functions -----------===//
//
// Unregistered function-like ops (IREE's util.func) as func.func, so that
// the pass manager schedules posenc's function passes on their bodies.
//
//===----------------------------------------------------------------------===//

#include "ForeignFunctions.h"

#include "posenc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace posenc {
#define GEN_PASS_DEF_POSENCWRAPFOREIGNFUNCTIONS
#include "posenc/Transforms/Passes.h.inc"
} // namespace posenc
} // namespace mlir

using namespace mlir;

namespace {

struct WrapForeignFunctionsPass
    : posenc::impl::PosEncWrapForeignFunctionsBase<WrapForeignFunctionsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::string> names(ops.begin(), ops.end());
    if (names.empty())
      names.push_back("util.func");
    ModuleOp module = getOperation();
    OpBuilder builder(&getContext());
    for (Operation &op : llvm::make_early_inc_range(*module.getBody())) {
      if (op.isRegistered() ||
          !llvm::is_contained(names, op.getName().getStringRef()))
        continue;
      auto name = op.getAttrOfType<StringAttr>("sym_name");
      auto type = op.getAttrOfType<TypeAttr>("function_type");
      if (!name || !type || !isa<FunctionType>(type.getValue()) ||
          op.getNumRegions() != 1 || op.getNumResults() != 0 ||
          op.getNumOperands() != 0) {
        op.emitOpError("is not a function posenc can wrap (needs sym_name, "
                       "a function_type, one region, no operands or "
                       "results)");
        return signalPassFailure();
      }
      // An unregistered op keeps `<{...}>` (its properties) apart from its
      // discardable attributes; both come back as they were.
      SmallVector<NamedAttribute> props;
      if (auto dict =
              dyn_cast_or_null<DictionaryAttr>(op.getPropertiesAsAttribute()))
        for (NamedAttribute attr : dict)
          if (attr.getName() != "sym_name" && attr.getName() != "function_type")
            props.push_back(attr);
      SmallVector<NamedAttribute> kept;
      for (NamedAttribute attr : op.getDiscardableAttrDictionary())
        if (attr.getName() != "sym_name" && attr.getName() != "function_type")
          kept.push_back(attr);
      builder.setInsertionPoint(&op);
      auto func = func::FuncOp::create(builder, op.getLoc(), name.getValue(),
                                       cast<FunctionType>(type.getValue()));
      func.getBody().takeBody(op.getRegion(0));
      func->setAttr(posenc::kForeignOpAttr,
                    builder.getStringAttr(op.getName().getStringRef()));
      func->setAttr(posenc::kForeignPropertiesAttr,
                    builder.getDictionaryAttr(props));
      func->setAttr(posenc::kForeignAttrsAttr, builder.getDictionaryAttr(kept));
      op.erase();
    }
  }
};

} // namespace
