//===- capi-test.c - posenc through the MLIR C API ------------------------===//
//
// A C host: registers posenc, parses a module with posenc ops, lowers it
// through the C API pass manager (by pipeline text and by the typed
// pipeline) and prints the result.
//
//===----------------------------------------------------------------------===//

// RUN: %posenc_capi_test 2>&1 | FileCheck %s

#include "posenc-c/Dialects.h"
#include "posenc-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

static const char *kModule =
    "func.func @rope(%x: tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32> {\n"
    "  %inv, %af = posenc.rope_frequencies dim 8 base 10000.0\n"
    "      : tensor<4xf32>, f32\n"
    "  %y = posenc.rotary %x half_split dim 8 inv_freq(%inv : tensor<4xf32>)\n"
    "      attention_factor(%af) : tensor<1x2x3x8xf32>\n"
    "  return %y : tensor<1x2x3x8xf32>\n"
    "}\n"
    "func.func @bias() -> tensor<4x3x3xf32> {\n"
    "  %b = posenc.alibi key_linear slopes(<num_heads = 4>)\n"
    "      : tensor<4x3x3xf32>\n"
    "  return %b : tensor<4x3x3xf32>\n"
    "}\n";

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirContext createContext(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirPosEncRegisterDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__func__(), registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  // The handle loads posenc alone; the registry made the rest loadable.
  MlirDialect posenc =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__posenc__(), ctx);
  if (mlirDialectIsNull(posenc)) {
    fprintf(stderr, "posenc did not load\n");
    exit(1);
  }
  return ctx;
}

static MlirModule parse(MlirContext ctx) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    exit(1);
  }
  return module;
}

static void runAndPrint(MlirPassManager pm, MlirModule module) {
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "pass pipeline failed\n");
    exit(1);
  }
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  fprintf(stdout, "\n");
  fflush(stdout);
}

static MlirPassManager createModulePassManager(MlirContext ctx) {
  return mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
}

// The two passes by name, through pipeline text.
// CHECK-LABEL: == by pipeline text
// CHECK-LABEL: func.func @rope
// CHECK-DAG: dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]>
// CHECK-NOT: posenc.
// CHECK: linalg.generic
// CHECK: math.cos
// CHECK: math.sin
// CHECK-LABEL: func.func @bias
// CHECK-NOT: posenc.
// CHECK: linalg.generic
static void byPipelineText(void) {
  fprintf(stdout, "== by pipeline text\n");
  MlirContext ctx = createContext();
  mlirPosEncRegisterPasses();
  mlirPosEncRegisterPasses(); // Idempotent: hosts may register twice.
  MlirModule module = parse(ctx);
  MlirPassManager pm = createModulePassManager(ctx);
  if (mlirLogicalResultIsFailure(mlirPosEncAddPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(
              "func.func(posenc-fold-frequencies),convert-posenc-to-linalg"),
          NULL, NULL))) {
    fprintf(stderr, "pipeline text rejected\n");
    exit(1);
  }
  runAndPrint(pm, module);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

// The registered pipeline, by name with options.
// CHECK-LABEL: == by registered pipeline
// CHECK: posenc-to-linalg-pipeline
// CHECK-LABEL: func.func @rope
// CHECK-NOT: posenc.
// CHECK: linalg.generic
static void byRegisteredPipeline(void) {
  fprintf(stdout, "== by registered pipeline\n");
  MlirContext ctx = createContext();
  MlirModule module = parse(ctx);
  MlirPassManager pm = createModulePassManager(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  if (mlirLogicalResultIsFailure(
          mlirPosEncAddPipeline(opm,
                                mlirStringRefCreateFromCString(
                                    "posenc-to-linalg-pipeline{cleanup=false}"),
                                NULL, NULL))) {
    fprintf(stderr, "registered pipeline rejected\n");
    exit(1);
  }
  fprintf(stdout, "posenc-to-linalg-pipeline expands to: ");
  mlirPrintPassPipeline(opm, printToStdout, NULL);
  fprintf(stdout, "\n");
  runAndPrint(pm, module);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

// The typed pipeline with its default options.
// CHECK-LABEL: == by typed pipeline
// CHECK: builtin.module(func.func(posenc-fold-frequencies,
// CHECK-SAME: convert-posenc-to-linalg,canonicalize{
// CHECK-SAME: },cse))
// CHECK-LABEL: func.func @rope
// CHECK-NOT: posenc.
// CHECK: linalg.generic
static void byTypedPipeline(void) {
  fprintf(stdout, "== by typed pipeline\n");
  MlirContext ctx = createContext();
  MlirModule module = parse(ctx);
  MlirPassManager pm = createModulePassManager(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  mlirPosEncBuildToLinalgPipeline(opm, mlirPosEncLoweringOptionsGetDefault());
  mlirPrintPassPipeline(opm, printToStdout, NULL);
  fprintf(stdout, "\n");
  runAndPrint(pm, module);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/// Adds `pipeline` by name and prints whether it was accepted.
static void addPipelineByName(const char *label, const char *pipeline) {
  fprintf(stdout, "== %s\n", label);
  MlirContext ctx = createContext();
  MlirPassManager pm = createModulePassManager(ctx);
  MlirLogicalResult result = mlirPosEncAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), printToStdout, NULL);
  fprintf(stdout, "\n%s\n",
          mlirLogicalResultIsFailure(result) ? "rejected" : "accepted");
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
}

// A bad name fails with the parser's message.
// CHECK-LABEL: == bad pipeline
// CHECK: 'posenc-no-such-pass' does not refer to a registered pass
// CHECK: rejected
//
// posenc-cpu-pipeline constructs its upstream passes itself, so a host that
// registered only posenc's passes can use it (by text it was an error, and a
// fatal error before that, found by posenc-pass-fuzzer).
// CHECK-LABEL: == cpu pipeline without upstream passes
// CHECK-NOT: error
// CHECK: accepted
int main(void) {
  byPipelineText();
  byRegisteredPipeline();
  byTypedPipeline();
  addPipelineByName("bad pipeline", "posenc-no-such-pass");
  addPipelineByName("cpu pipeline without upstream passes",
                    "posenc-cpu-pipeline{vector-width=8}");
  return 0;
}
