// Every malformed or mismatched .npy input is a one-line error and exit
// status 1, reported before compilation.
// REQUIRES: numpy

// RUN: rm -rf %t && %python %S/Inputs/make_bad_npy.py %t
// RUN: posenc-run %s --input=0=%t/good.npy --iterations=1 | FileCheck %s --check-prefix=GOOD
// GOOD: RESULT entry=f

// RUN: not posenc-run %s --input=0=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: posenc-run: error: cannot read '{{.*}}missing.npy': No such file or directory
// RUN: not posenc-run %s --input=0=%t 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: posenc-run: error: cannot read '{{.*}}': Is a directory
// RUN: not posenc-run %s --input=0=%t/bad-magic.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: error: {{.*}}bad-magic.npy: not a .npy file (bad magic string)
// RUN: not posenc-run %s --input=0=%t/empty.npy 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: {{.*}}empty.npy: truncated header: the file has only 0 bytes
// RUN: not posenc-run %s --input=0=%t/short-preamble.npy 2>&1 | FileCheck %s --check-prefix=PREAMBLE
// PREAMBLE: error: {{.*}}short-preamble.npy: truncated header: the file has only 7 bytes
// RUN: not posenc-run %s --input=0=%t/truncated-header.npy 2>&1 | FileCheck %s --check-prefix=THEADER
// THEADER: error: {{.*}}truncated-header.npy: truncated header: it declares 118 bytes but the file has only 30 after the preamble
// RUN: not posenc-run %s --input=0=%t/oversized-header.npy 2>&1 | FileCheck %s --check-prefix=OVERSIZED
// OVERSIZED: error: {{.*}}oversized-header.npy: header length 4294967280 exceeds the limit of 10000 bytes
// RUN: not posenc-run %s --input=0=%t/version.npy 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: error: {{.*}}version.npy: unsupported .npy format version 4.0 (supported: 1.0, 2.0, 3.0)
// RUN: not posenc-run %s --input=0=%t/missing-key.npy 2>&1 | FileCheck %s --check-prefix=KEY
// KEY: error: {{.*}}missing-key.npy: malformed header: missing key 'shape'
// RUN: not posenc-run %s --input=0=%t/garbage-header.npy 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: error: {{.*}}garbage-header.npy: malformed header: unexpected or repeated key 'x'
// RUN: not posenc-run %s --input=0=%t/truncated-data.npy 2>&1 | FileCheck %s --check-prefix=TDATA
// TDATA: error: {{.*}}truncated-data.npy: truncated data: shape (4, 8) of '<f4' needs 128 bytes, the file has 124
// RUN: not posenc-run %s --input=0=%t/extra-data.npy 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: error: {{.*}}extra-data.npy: extra data: shape (4, 8) of '<f4' needs 128 bytes, the file has 132
// RUN: not posenc-run %s --input=0=%t/huge-dims.npy 2>&1 | FileCheck %s --check-prefix=HUGEDIMS
// HUGEDIMS: error: {{.*}}huge-dims.npy: shape (4611686018427387904, 4611686018427387904) with 4-byte elements is too large: its byte size overflows 63 bits
// RUN: not posenc-run %s --input=0=%t/huge-dim.npy 2>&1 | FileCheck %s --check-prefix=HUGEDIM
// HUGEDIM: error: {{.*}}huge-dim.npy: dimension 99999999999999999999 in 'shape' is too large
// RUN: not posenc-run %s --input=0=%t/huge-bytes.npy 2>&1 | FileCheck %s --check-prefix=HUGEBYTES
// HUGEBYTES: error: {{.*}}huge-bytes.npy: truncated data: shape (1099511627776, 8) of '<f4' needs 35184372088832 bytes, the file has 16
// RUN: not posenc-run %s --input=0=%t/fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: error: {{.*}}fortran.npy: Fortran-order arrays are not supported; save a C-contiguous array (np.ascontiguousarray)
// RUN: not posenc-run %s --input=0=%t/big-endian.npy 2>&1 | FileCheck %s --check-prefix=BIGENDIAN
// BIGENDIAN: error: {{.*}}big-endian.npy: big-endian dtype '>f4' is not supported
// RUN: not posenc-run %s --input=0=%t/structured.npy 2>&1 | FileCheck %s --check-prefix=STRUCT
// STRUCT: error: {{.*}}structured.npy: structured dtypes are not supported
// RUN: not posenc-run %s --input=0=%t/object.npy 2>&1 | FileCheck %s --check-prefix=OBJECT
// OBJECT: error: {{.*}}object.npy: object arrays are not supported
// RUN: not posenc-run %s --input=0=%t/f64.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: {{.*}}f64.npy: dtype '<f8' does not match argument 0 of @f (tensor<4x8xf32>), which needs '<f4'
// RUN: not posenc-run %s --input=1=%t/f16-pair.npy 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: error: {{.*}}f16-pair.npy: dtype '<f2' does not match argument 1 of @f (tensor<2xbf16>), which needs '<u2' (bf16 is stored as raw bits, np.uint16)
// RUN: not posenc-run %s --input=0=%t/wrong-shape.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: {{.*}}wrong-shape.npy: shape (8, 4) does not match argument 0 of @f (tensor<4x8xf32>), which needs (4, 8)

func.func @f(%a: tensor<4x8xf32>, %b: tensor<2xbf16>) -> tensor<4x8xf32> {
  return %a : tensor<4x8xf32>
}
