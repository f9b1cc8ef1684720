// posenc-opt reads its input with a cap when it is not a regular file:
// /dev/zero (or endless stdin) made it read until "LLVM ERROR: out of
// memory" (abort, exit status 134; under `ulimit -v` here, so that the old
// behaviour cannot take the machine's memory). Exit statuses are checked
// explicitly (`not` accepts crashes too).
// ASan reserves terabytes of shadow address space, which `ulimit -v`
// forbids: the release build runs this test.
// UNSUPPORTED: asan

// RUN: sh -c 'ulimit -v 4000000; posenc-opt /dev/zero; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: '/dev/zero' is larger than 1073741824 bytes, the limit for MLIR input from a pipe or device
// ZERO-NEXT: rc=1
// RUN: sh -c 'ulimit -v 4000000; posenc-opt < /dev/zero; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=STDIN-ZERO
// STDIN-ZERO: '<stdin>' is larger than 1073741824 bytes, the limit for MLIR input from a pipe or device
// STDIN-ZERO-NEXT: rc=1

// Files, pipes and stdin as before; the driver around MlirOptMain keeps
// --show-dialects and the open error.
// RUN: posenc-opt %s | FileCheck %s
// RUN: cat %s | posenc-opt | FileCheck %s
// RUN: posenc-opt - < %s | FileCheck %s
// CHECK: posenc.rope_frequencies dim 64
// RUN: posenc-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// DIALECTS: Available Dialects: {{.*}}linalg,{{.*}}posenc,
// RUN: not posenc-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory

func.func @f() -> (tensor<32xf32>, f32) {
  %inv, %af = posenc.rope_frequencies dim 64 base 10000.0 : tensor<32xf32>, f32
  return %inv, %af : tensor<32xf32>, f32
}
