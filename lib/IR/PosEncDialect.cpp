//===- PosEncDialect.cpp - posenc dialect ---------------------------------===//

#include "posenc/IR/PosEncDialect.h"
#include "posenc/IR/PosEncAttrs.h"
#include "posenc/IR/PosEncOps.h"

#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::posenc;

#include "posenc/IR/PosEncDialect.cpp.inc"

namespace {
/// Every posenc op is a pure function of its operands and attributes, with
/// no regions: inlining a function that contains them is always legal.
struct PosEncInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void PosEncDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "posenc/IR/PosEncOps.cpp.inc"
      >();
  registerAttributes();
  addInterfaces<PosEncInlinerInterface>();
}

Operation *PosEncDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
