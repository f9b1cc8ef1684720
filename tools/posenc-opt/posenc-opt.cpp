//===- posenc-opt.cpp - posenc optimizer driver ---------------------------===//
//
// An mlir-opt with every upstream dialect, extension and pass, plus posenc.
//
//===----------------------------------------------------------------------===//

#include "posenc/InitPosEnc.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::posenc::registerPosEncPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::posenc::registerPosEncDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "posenc optimizer driver\n", registry));
}
