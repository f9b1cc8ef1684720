// Errors in the entry function, its signature, and the command line: each
// is a one-line error and exit status 1, never a crash.

// RUN: not posenc-run %s 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: posenc-run: error: the module has 11 public functions (ok, two, i32, narrow, dynamic, unranked, scalar, ui8, nothing, overflow, toolarge); choose one with --entry=NAME
// RUN: not posenc-run %s --entry=missing 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: no function named 'missing' in the module (public functions: ok, two,
// RUN: not posenc-run %s --entry=decl 2>&1 | FileCheck %s --check-prefix=DECL
// DECL: error: @decl is a declaration without a body

// RUN: not posenc-run %s --entry=dynamic 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: argument 0 of @dynamic has type 'tensor<?x8xf32>': dynamic shapes are not supported (the runner allocates every buffer up front)
// RUN: not posenc-run %s --entry=unranked 2>&1 | FileCheck %s --check-prefix=UNRANKED
// UNRANKED: error: argument 0 of @unranked has type 'tensor<*xf32>': posenc-run needs ranked tensor arguments and results
// RUN: not posenc-run %s --entry=scalar 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: error: argument 0 of @scalar has type 'f32': posenc-run needs ranked tensor arguments and results
// RUN: not posenc-run %s --entry=ui8 2>&1 | FileCheck %s --check-prefix=UI8
// UI8: error: result 0 of @ui8 has type 'tensor<4xui8>': unsupported element type (supported: f16, bf16, f32, f64, i1, i8, i16, i32, i64, index)
// RUN: not posenc-run %s --entry=nothing 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: error: @nothing returns nothing; posenc-run needs at least one result
// RUN: not posenc-run %s --entry=overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: error: argument 0 of @overflow has type 'tensor<4611686018427387904x4xf32>': shape (4611686018427387904, 4) with 4-byte elements is too large: its byte size overflows 63 bits
// RUN: not posenc-run %s --entry=toolarge 2>&1 | FileCheck %s --check-prefix=TOOLARGE
// TOOLARGE: error: the buffers of @toolarge need 4503599627370512 bytes, more than the machine's

// Arity and flag errors.
// RUN: not posenc-run %s --entry=ok --inputs=a.npy,b.npy 2>&1 | FileCheck %s --check-prefix=MORE
// MORE: error: @ok takes 1 argument but --inputs names 2 files
// RUN: not posenc-run %s --entry=two --inputs=a.npy 2>&1 | FileCheck %s --check-prefix=FEWER
// FEWER: error: @two takes 2 arguments but --inputs names 1 file
// RUN: not posenc-run %s --entry=ok --input=1=a.npy 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: error: --input=1=a.npy: @ok has no argument 1 (it has 1 argument)
// RUN: not posenc-run %s --entry=ok --input=0=a.npy --input=0=b.npy 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: argument 0 is given twice
// RUN: not posenc-run %s --entry=ok --input=a.npy 2>&1 | FileCheck %s --check-prefix=SPEC
// SPEC: error: invalid --input=a.npy: expected IDX=PATH
// RUN: not posenc-run %s --entry=ok --inputs=a.npy --input=0=a.npy 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: use either --inputs or --input, not both
// RUN: not posenc-run %s --entry=ok --output=1=%t.npy 2>&1 | FileCheck %s --check-prefix=OUTINDEX
// OUTINDEX: error: --output=1={{.*}}: @ok has no result 1 (it has 1 result)
// RUN: not posenc-run %s --entry=two --inputs=a.npy, 2>&1 | FileCheck %s --check-prefix=EMPTYPATH
// EMPTYPATH: error: --inputs has an empty path
// RUN: not posenc-run %s --entry=ok --flops=-1 2>&1 | FileCheck %s --check-prefix=FLOPS
// FLOPS: error: --flops must be positive
// RUN: not posenc-run %s --entry=ok --iterations=0 2>&1 | FileCheck %s --check-prefix=ITER
// ITER: error: --iterations must be at least 1
// RUN: not posenc-run %s --entry=ok --int-max=0 2>&1 | FileCheck %s --check-prefix=INTMAX0
// INTMAX0: error: --int-max must be at least 1
// RUN: not posenc-run %s --entry=i32 --int-max=2147483649 2>&1 | FileCheck %s --check-prefix=INTMAX
// INTMAX: error: --int-max=2147483649 does not fit argument 0 of @i32 (tensor<4xi32>)
// RUN: posenc-run %s --entry=i32 --int-max=2147483648 --iterations=1 | FileCheck %s --check-prefix=INTMAXOK
// INTMAXOK: RESULT entry=i32
// A given --int-max must fit narrow types too; the default is clamped.
// RUN: not posenc-run %s --entry=narrow --int-max=3 2>&1 | FileCheck %s --check-prefix=INTMAXI1
// INTMAXI1: error: --int-max=3 does not fit argument 0 of @narrow (tensor<64xi1>)
// RUN: posenc-run %s --entry=narrow --iterations=1 --print-output | FileCheck %s --check-prefix=NARROW
// NARROW: output 0: tensor<64xi1>
// NARROW-NEXT: [{{(true|false)(, (true|false))+}}]
// NARROW: output 1: tensor<64xi8>
// NARROW-NEXT: [{{-?[0-9]+(, -?[0-9]+)+}}]
// RUN: not posenc-run %s --entry=ok --shared-libs=%t.missing.so 2>&1 | FileCheck %s --check-prefix=LIB
// LIB: error: shared library '{{.*}}missing.so' does not exist
// RUN: not posenc-run %s --entry=ok --iterations=1 --outputs-dir=%s/sub 2>&1 | FileCheck %s --check-prefix=OUTDIR
// OUTDIR: error: cannot create '{{.*}}sub': Not a directory
// RUN: not posenc-run %s --entry=ok --iterations=1 --output=0=%t.no/such/dir.npy 2>&1 | FileCheck %s --check-prefix=OUTFILE
// OUTFILE: error: cannot write '{{.*}}dir.npy': No such file or directory

// Pipelines that do not parse or do not reach the LLVM dialect.
// RUN: not posenc-run %s --entry=ok --pipeline=bogus-pass 2>&1 | FileCheck %s --check-prefix=BADPIPE
// BADPIPE: error: invalid pass pipeline 'bogus-pass': 'bogus-pass' does not refer to a registered pass or pass pipeline
// RUN: not posenc-run %s --entry=ok --pipeline=canonicalize 2>&1 | FileCheck %s --check-prefix=NOTLOWERED
// NOTLOWERED: error: the lowered module still contains 'func.func' ({{.*}}errors-entry.mlir:{{[0-9]+}}:{{[0-9]+}}), which has no translation to LLVM IR; the pipeline must lower everything to the llvm dialect (see --dump-ir)

// The module itself.
// RUN: not posenc-run %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
// RUN: echo 'func.func @f(' | not posenc-run - 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: error: cannot parse '-'
// RUN: echo 'func.func private @p() { return }' | not posenc-run 2>&1 | FileCheck %s --check-prefix=NOPUBLIC
// NOPUBLIC: error: the module has no public function with a body; name the entry with --entry=NAME
// RUN: echo 'func.func @__posenc_run_entry() { return } func.func @f(%%a: tensor<2xf32>) -> tensor<2xf32> { return %%a : tensor<2xf32> }' | not posenc-run --entry=f 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: error: the module already defines @__posenc_run_entry, the name of posenc-run's wrapper

// Errors are one line.
// RUN: not posenc-run %s --entry=dynamic 2>&1 | count 1
// RUN: not posenc-run %s --entry=ok --pipeline=canonicalize 2>&1 | count 1

func.func @ok(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @two(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  return %a : tensor<4xi32>
}
func.func @narrow(%a: tensor<64xi1>, %b: tensor<64xi8>) -> (tensor<64xi1>, tensor<64xi8>) {
  return %a, %b : tensor<64xi1>, tensor<64xi8>
}
func.func @dynamic(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  return %a : tensor<?x8xf32>
}
func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}
func.func @scalar(%a: f32) -> tensor<4xf32> {
  %t = tensor.splat %a : tensor<4xf32>
  return %t : tensor<4xf32>
}
func.func @ui8(%a: tensor<4xf32>) -> tensor<4xui8> {
  %e = tensor.empty() : tensor<4xui8>
  return %e : tensor<4xui8>
}
func.func @nothing(%a: tensor<4xf32>) {
  return
}
func.func @overflow(%a: tensor<4611686018427387904x4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @toolarge(%a: tensor<1099511627776x1024xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
