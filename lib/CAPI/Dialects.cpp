//===- Dialects.cpp - C API of the posenc dialect -------------------------===//

#include "posenc-c/Dialects.h"

#include "posenc/IR/PosEncDialect.h"
#include "posenc/InitPosEnc.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(PosEnc, posenc,
                                      mlir::posenc::PosEncDialect)

void mlirPosEncRegisterDialects(MlirDialectRegistry registry) {
  mlir::posenc::registerPosEncDialects(*unwrap(registry));
}
