//===- PosEncOps.h - posenc operations --------------------------*- C++ -*-===//

#ifndef POSENC_IR_POSENCOPS_H
#define POSENC_IR_POSENCOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "posenc/IR/PosEncAttrs.h"
#include "posenc/IR/PosEncDialect.h"

#define GET_OP_CLASSES
#include "posenc/IR/PosEncOps.h.inc"

#endif // POSENC_IR_POSENCOPS_H
