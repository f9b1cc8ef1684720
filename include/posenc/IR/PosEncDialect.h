//===- PosEncDialect.h - posenc dialect -------------------------*- C++ -*-===//

#ifndef POSENC_IR_POSENCDIALECT_H
#define POSENC_IR_POSENCDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "posenc/IR/PosEncDialect.h.inc"

#endif // POSENC_IR_POSENCDIALECT_H
