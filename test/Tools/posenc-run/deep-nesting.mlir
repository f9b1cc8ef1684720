// 12000 nested regions overflowed the 8 MiB main-thread stack in MLIR's
// recursive parser (a segfault, exit status 139). posenc-run runs on a
// thread with a 512 MiB stack (tools/common): the module below parses,
// verifies and runs (the pipeline drops the unused private function). The
// exit status is checked explicitly (`not` accepts crashes too).

// RUN: %python -c "n = 12000; print('func.func private @deep() {\n' + 'scf.execute_region {\n' * n + 'scf.yield\n}\n' * n + 'return\n}')" > %t.mlir
// RUN: cat %s >> %t.mlir
// RUN: sh -c 'posenc-run %t.mlir --iterations=1; echo rc=$?' 2>&1 | FileCheck %s
// CHECK: RESULT entry=f
// CHECK: {{^}}rc=0{{$}}

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
