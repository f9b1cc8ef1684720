//===- Dialects.h - C API of the posenc dialect -------------------*- C -*-===//
//
// The posenc dialect for hosts that embed MLIR through its C API.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_C_DIALECTS_H
#define POSENC_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__posenc__(): the posenc dialect alone.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(PosEnc, posenc);

/// Inserts posenc and every dialect its lowerings create (arith, cf, linalg,
/// math, tensor) into `registry`; the same set as registerPosEncDialects.
MLIR_CAPI_EXPORTED void
mlirPosEncRegisterDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // POSENC_C_DIALECTS_H
