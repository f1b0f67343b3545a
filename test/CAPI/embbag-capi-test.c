// RUN: embbag-capi-test 2>&1 | FileCheck %s

// The embbag C API driven from C alone: the dialect handle, the pass and
// pipeline registration, pass creation (the functions mlir-tblgen generates
// from the passes' .td), and the embbag-to-llvm pipeline run through an
// MlirPassManager, on a module parsed from a string.

#include "embbag-c/Dialects.h"
#include "embbag-c/Passes.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

static const char *kModule =
    "func.func @bag(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> "
    "tensor<3x2xf32> {\n"
    "  %r = embbag.packed sum %t[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) "
    "-> tensor<3x2xf32>\n"
    "  return %r : tensor<3x2xf32>\n"
    "}\n";

static MlirContext createContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__embbag__(), registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  return ctx;
}

static MlirModule parse(MlirContext ctx) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "cannot parse the module\n");
    exit(1);
  }
  return module;
}

// The dialect is found through its handle; the module parses and prints.
static void testDialect(void) {
  MlirContext ctx = createContext();
  MlirDialect dialect = mlirContextGetOrLoadDialect(
      ctx, mlirDialectHandleGetNamespace(mlirGetDialectHandle__embbag__()));
  MlirStringRef ns = mlirDialectGetNamespace(dialect);
  // CHECK-LABEL: dialect: embbag
  fprintf(stdout, "dialect: %.*s\n", (int)ns.length, ns.data);
  MlirModule module = parse(ctx);
  // CHECK: embbag.packed sum
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

// A pass created through its mlirCreate function.
static void testCreatePass(void) {
  MlirContext ctx = createContext();
  MlirModule module = parse(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager funcPm = mlirPassManagerGetNestedUnder(
      pm, mlirStringRefCreateFromCString("func.func"));
  mlirOpPassManagerAddOwnedPass(funcPm, mlirCreateEmbBagConvertEmbBagToLoops());
  MlirLogicalResult result =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK-LABEL: created pass: ok
  fprintf(stdout, "created pass: %s\n",
          mlirLogicalResultIsSuccess(result) ? "ok" : "failed");
  // CHECK-NOT: embbag.packed
  // CHECK: scf.for
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

static const char *kShardedModule =
    "shard.grid @grid(shape = 2) {sym_visibility = \"private\"}\n"
    "func.func @bag(%t: tensor<4x2xf32>, %i: tensor<3x2xi32>) -> "
    "tensor<3x2xf32> {\n"
    "  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding\n"
    "  %ts = shard.shard %t to %s : tensor<4x2xf32>\n"
    "  %r = embbag.packed sum %ts[%i] : (tensor<4x2xf32>, tensor<3x2xi32>) "
    "-> tensor<3x2xf32>\n"
    "  return %r : tensor<3x2xf32>\n"
    "}\n";

// A step of embbag-shard-to-llvm through its generated mlirCreate function:
// the module as one process runs it.
static void testShardingPass(void) {
  MlirContext ctx = createContext();
  MlirModule module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(kShardedModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "cannot parse the sharded module\n");
    exit(1);
  }
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, mlirCreateEmbBagEmbBagDropSharding());
  MlirLogicalResult result =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK-LABEL: sharding pass: ok
  fprintf(stdout, "sharding pass: %s\n",
          mlirLogicalResultIsSuccess(result) ? "ok" : "failed");
  // CHECK-NOT: shard.
  // CHECK: embbag.packed sum %arg0[%arg1]
  // CHECK-NOT: shard.
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  fprintf(stdout, "\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

// The pipeline by name with options, through the registration; then the
// same through mlirEmbBagAddToLLVMPipeline; and a bad option.
static void testPipeline(void) {
  mlirRegisterEmbBagPasses();
  // Registering twice is harmless.
  mlirRegisterEmbBagPasses();
  MlirContext ctx = createContext();

  MlirModule module = parse(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(embbag-to-llvm{vector-bits=128 checks=0})"),
      printToStderr, NULL);
  // CHECK-LABEL: parsed pipeline: ok
  fprintf(stdout, "parsed pipeline: %s\n",
          mlirLogicalResultIsSuccess(parsed) ? "ok" : "failed");
  // Every group's passes and the sharded pipeline are registered too.
  MlirPassManager names = mlirPassManagerCreate(ctx);
  MlirLogicalResult named = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(names),
      mlirStringRefCreateFromCString(
          "builtin.module(embbag-verify-constants,embbag-shard-functions,"
          "embbag-drop-sharding,func.func(convert-embbag-to-loops),"
          "embbag-shard-to-llvm{checks=0})"),
      printToStderr, NULL);
  // CHECK: parsed every group: ok
  fprintf(stdout, "parsed every group: %s\n",
          mlirLogicalResultIsSuccess(named) ? "ok" : "failed");
  mlirPassManagerDestroy(names);
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK: ran pipeline: ok
  fprintf(stdout, "ran pipeline: %s\n",
          mlirLogicalResultIsSuccess(ran) ? "ok" : "failed");
  // 128-bit accumulators: the row of two f32 is one vector<4xf32>... or a
  // narrower one; what matters is that everything is LLVM now.
  // CHECK: llvm.func @bag(
  // CHECK-NOT: embbag.
  // CHECK-NOT: func.func
  // CHECK: llvm.return
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  fprintf(stdout, "\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  module = parse(ctx);
  pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult added = mlirEmbBagAddToLLVMPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("path=linalg"), printToStderr, NULL);
  ran = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK-LABEL: added pipeline: ok, ran: ok
  fprintf(stdout, "added pipeline: %s, ran: %s\n",
          mlirLogicalResultIsSuccess(added) ? "ok" : "failed",
          mlirLogicalResultIsSuccess(ran) ? "ok" : "failed");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  pm = mlirPassManagerCreate(ctx);
  added = mlirEmbBagAddToLLVMPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("path=nowhere"), printToStdout, NULL);
  // CHECK: embbag-to-llvm: cannot parse options 'path=nowhere'
  // CHECK: bad options: failed
  fprintf(stdout, "\nbad options: %s\n",
          mlirLogicalResultIsSuccess(added) ? "ok" : "failed");
  mlirPassManagerDestroy(pm);

  // An option that parses but whose value is out of range.
  pm = mlirPassManagerCreate(ctx);
  added = mlirEmbBagAddToLLVMPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("prefetch-locality=9"), printToStdout,
      NULL);
  // CHECK: embbag-to-llvm: prefetch-locality must be -1 (from the table's
  // CHECK-SAME: size), 0, 1, 2 or 3, not 9
  // CHECK: bad value: failed
  fprintf(stdout, "\nbad value: %s\n",
          mlirLogicalResultIsSuccess(added) ? "ok" : "failed");
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
}

static const char *kTrainingModule =
    "func.func @step(%lr: f32, %dy: tensor<3x2xf32>, %t: tensor<4x2xf32>, "
    "%i: tensor<5xi64>, %off: tensor<3xi64>) -> tensor<4x2xf32> {\n"
    "  %r = embbag.offsets_update sum sgd(%lr) %dy, %t[%i] offsets(%off) "
    ": (f32, tensor<3x2xf32>, tensor<4x2xf32>, tensor<5xi64>, "
    "tensor<3xi64>) -> tensor<4x2xf32>\n"
    "  return %r : tensor<4x2xf32>\n"
    "}\n";

// The training ops go through the same dialect handle and pipeline.
static void testTraining(void) {
  MlirContext ctx = createContext();
  MlirModule module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(kTrainingModule));
  // CHECK-LABEL: training parsed: yes
  fprintf(stdout, "training parsed: %s\n",
          mlirModuleIsNull(module) ? "no" : "yes");
  if (mlirModuleIsNull(module))
    exit(1);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(embbag-to-llvm)"),
      printToStderr, NULL);
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK: training pipeline: ok, ran: ok
  fprintf(stdout, "training pipeline: %s, ran: %s\n",
          mlirLogicalResultIsSuccess(parsed) ? "ok" : "failed",
          mlirLogicalResultIsSuccess(ran) ? "ok" : "failed");
  // CHECK: llvm.func @step(
  // CHECK-NOT: embbag.
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  fprintf(stdout, "\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

int main(void) {
  // stdout and stderr reach FileCheck through one pipe. LLVM's command-line
  // parser reports bad pass options on its own unbuffered stream, so a
  // buffered stdout would let those reports land in the middle of a line.
  setvbuf(stdout, NULL, _IONBF, 0);
  testDialect();
  testCreatePass();
  testShardingPass();
  testPipeline();
  testTraining();
  return 0;
}
