// Inputs that never end: /dev/zero as the module or as a .npy file made
// posenc-run read until "LLVM ERROR: out of memory" (abort, exit status 134;
// under `ulimit -v` here, so that the old behaviour cannot take the machine's
// memory). A .npy file is now read header first (never more than the
// preamble plus the 10000-byte header limit), checked, and then exactly the
// payload the header declares; a module from a pipe or device is read up to
// 1 GiB. Exit statuses are checked explicitly (`not` accepts crashes too).
// REQUIRES: numpy
// ASan reserves terabytes of shadow address space, which `ulimit -v`
// forbids: the release build runs this test.
// UNSUPPORTED: asan

// RUN: rm -rf %t && %python %S/Inputs/make_bad_npy.py %t

// RUN: sh -c 'ulimit -v 4000000; posenc-run %s --inputs=/dev/zero,%t/f16-pair.npy; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=NPY-ZERO
// RUN: sh -c 'ulimit -v 4000000; posenc-run %s --input=0=/dev/zero; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=NPY-ZERO
// NPY-ZERO: posenc-run: error: /dev/zero: not a .npy file (bad magic string)
// NPY-ZERO-NEXT: rc=1

// RUN: sh -c 'ulimit -v 4000000; posenc-run /dev/zero; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=MLIR-ZERO
// MLIR-ZERO: posenc-run: error: '/dev/zero' is larger than 1073741824 bytes, the limit for MLIR input from a pipe or device
// MLIR-ZERO-NEXT: rc=1
// RUN: sh -c 'ulimit -v 4000000; posenc-run < /dev/zero; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=STDIN-ZERO
// STDIN-ZERO: posenc-run: error: '<stdin>' is larger than 1073741824 bytes, the limit for MLIR input from a pipe or device
// STDIN-ZERO-NEXT: rc=1

// Pipes work: the payload is read in place, and its length is checked
// against the header as for files (without a size to compare up front).
// One FIFO per run: a writer of an earlier run may still hold its FIFO open
// (with data in the pipe) when the next reader opens it.
// RUN: rm -f %t/fifo* && mkfifo %t/fifo1 %t/fifo2 %t/fifo3 %t/fifo4 %t/fifo5
// RUN: sh -c 'cat %t/good.npy > %t/fifo1 & posenc-run %s --input=0=%t/fifo1 --iterations=1 --print-output' | FileCheck %s --check-prefix=FIFO
// FIFO: output 0: tensor<4x8xf32>
// FIFO-NEXT: {{\[\[}}0, 1, 2, 3, 4, 5, 6, 7],
// RUN: sh -c 'cat %t/truncated-data.npy > %t/fifo2 & posenc-run %s --input=0=%t/fifo2; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=FIFO-TRUNCATED
// FIFO-TRUNCATED: posenc-run: error: {{.*}}fifo{{[0-9]}}: truncated data: shape (4, 8) of '<f4' needs 128 bytes, the file has 124
// FIFO-TRUNCATED-NEXT: rc=1
// RUN: sh -c 'cat %t/extra-data.npy > %t/fifo3 & posenc-run %s --input=0=%t/fifo3; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=FIFO-EXTRA
// FIFO-EXTRA: posenc-run: error: {{.*}}fifo{{[0-9]}}: extra data: shape (4, 8) of '<f4' needs 128 bytes, the file has 132
// FIFO-EXTRA-NEXT: rc=1
// Extra data beyond what was read along with the header.
// RUN: sh -c '%python -c "import sys; sys.stdout.buffer.write(open(sys.argv[1], \"rb\").read() + bytes(20000))" %t/good.npy > %t/fifo4 & posenc-run %s --input=0=%t/fifo4; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=FIFO-MORE
// FIFO-MORE: posenc-run: error: {{.*}}fifo{{[0-9]}}: extra data: shape (4, 8) of '<f4' needs 128 bytes, the file has more than 128
// FIFO-MORE-NEXT: rc=1
// A header declaring 140 TB: the shape is compared with the argument's
// before any data is read.
// RUN: sh -c 'cat %t/huge-bytes.npy > %t/fifo5 & posenc-run %s --input=0=%t/fifo5; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=FIFO-HUGE
// FIFO-HUGE: posenc-run: error: {{.*}}fifo{{[0-9]}}: shape (1099511627776, 8) does not match argument 0 of @f (tensor<4x8xf32>), which needs (4, 8)
// FIFO-HUGE-NEXT: rc=1

func.func @f(%a: tensor<4x8xf32>, %b: tensor<2xbf16>) -> tensor<4x8xf32> {
  return %a : tensor<4x8xf32>
}
