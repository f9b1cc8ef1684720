//===- host-capi.c - a C host that embeds posenc --------------------------===//
//
//   host-capi FILE.mlir
//
// Parses FILE, lowers it with posenc-to-linalg-pipeline through the C API
// pass manager and prints the result. The upstream C API pieces beyond
// mlir-c/IR.h and mlir-c/Pass.h (here func) are the host's own to link.
//
//===----------------------------------------------------------------------===//

#include "posenc-c/Dialects.h"
#include "posenc-c/Passes.h"

#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: host-capi FILE.mlir\n");
    return 2;
  }
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirPosEncRegisterDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__func__(), registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirPosEncRegisterPasses();

  int status = 1;
  MlirModule module = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(argv[1]));
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  if (!mlirModuleIsNull(module)) {
    mlirPosEncBuildToLinalgPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                    mlirPosEncLoweringOptionsGetDefault());
    if (mlirLogicalResultIsSuccess(
            mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
      mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
      printf("\n");
      status = 0;
    }
    mlirModuleDestroy(module);
  }
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
  return status;
}
