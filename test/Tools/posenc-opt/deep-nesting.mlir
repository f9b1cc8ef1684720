// 12000 nested regions overflowed the 8 MiB main-thread stack in MLIR's
// recursive parser (a segfault, exit status 139; stock mlir-opt too).
// posenc-opt runs on a thread with a 512 MiB stack (tools/common): parsing,
// verifying, printing and destroying the module all recurse. The exit
// status is checked explicitly (`not` accepts crashes too).

// RUN: %python -c "n = 12000; print('\"t.r\"() ({' * n + '}) : () -> ()' * n)" > %t.mlir
// RUN: sh -c 'posenc-opt --allow-unregistered-dialect %t.mlir -o %t.out.mlir; echo rc=$?' 2>&1 | FileCheck %s
// CHECK: {{^}}rc=0{{$}}
// RUN: grep -c '"t.r"' %t.out.mlir | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}12000{{$}}
