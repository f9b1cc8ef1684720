// --threads takes 1 to 1024 (docs/posenc-run.md); 0 and larger counts used to
// be accepted silently (0 meant "not set"). Each error is one line and exit
// status 1, checked explicitly (`not` accepts any failure, crashes too).

// RUN: sh -c 'posenc-run %s --threads=0 --iterations=1; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: posenc-run: error: --threads must be in [1, 1024], got 0
// ZERO-NEXT: rc=1

// RUN: sh -c 'posenc-run %s --threads=100000 --iterations=1; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: posenc-run: error: --threads must be in [1, 1024], got 100000
// HUGE-NEXT: rc=1

// RUN: sh -c 'posenc-run %s --threads=1025 --iterations=1; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=ABOVE
// ABOVE: posenc-run: error: --threads must be in [1, 1024], got 1025
// ABOVE-NEXT: rc=1

// Not a number (LLVM's parser of unsigned options).
// RUN: sh -c 'posenc-run %s --threads=-1 --iterations=1; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: posenc-run: for the --threads option: '-1' value invalid for uint argument!
// NEGATIVE-NEXT: rc=1

// The bounds are valid, and so is no --threads at all (the default).
// RUN: posenc-run %s --threads=1 --iterations=1 | FileCheck %s --check-prefix=OK
// RUN: posenc-run %s --threads=1024 --iterations=1 | FileCheck %s --check-prefix=OK
// RUN: posenc-run %s --iterations=1 | FileCheck %s --check-prefix=OK
// OK: RESULT entry=add

func.func @add(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.add ins(%a, %a : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}
