//===- PosEncDialect.cpp - posenc dialect ---------------------------------===//

#include "posenc/IR/PosEncDialect.h"
#include "posenc/IR/PosEncAttrs.h"
#include "posenc/IR/PosEncOps.h"

using namespace mlir;
using namespace mlir::posenc;

#include "posenc/IR/PosEncDialect.cpp.inc"

void PosEncDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "posenc/IR/PosEncOps.cpp.inc"
      >();
  registerAttributes();
}

Operation *PosEncDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
