// Output that cannot be written and pipelines anchored on the wrong op are
// one-line errors with exit status 1, never "LLVM ERROR" and an abort (issue
// 22 items 4 and 5). Exit statuses are checked explicitly (`not` accepts
// crashes too).

// A full device: raw_fd_ostream reported the failed write as a fatal error.
// RUN: sh -c 'posenc-opt %s -o /dev/full; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: error: cannot write '/dev/full': No space left on device
// FULL-NEXT: rc=1
// RUN: sh -c 'posenc-translate --import-hf-config %S/../../Translate/Inputs/mpt-7b.json -o /dev/full; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: sh -c 'posenc-run %s --iterations=1 --dump-llvm=/dev/full; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=RUNFULL
// RUNFULL: posenc-run: error: cannot write '/dev/full': No space left on device
// RUNFULL-NEXT: rc=1

// Too many iterations to keep their times: an error before anything runs
// (it ran out of memory inside the timing loop and blamed the kernel).
// RUN: sh -c 'posenc-run %s --iterations=4000000000; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=ITER
// ITER: posenc-run: error: --iterations=4000000000 is more than the 10000000 calls posenc-run times in one run
// ITER-NEXT: rc=1

// posenc's lowering pipelines need a module anchor: nested under func.func,
// upstream's OpPassManager aborted ("Can't add pass 'OneShotBufferizePass'
// restricted to 'builtin.module'", exit status 134).
// RUN: sh -c "posenc-opt %s --pass-pipeline='builtin.module(func.func(posenc-cpu-pipeline))'; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: error: 'posenc-cpu-pipeline' lowers whole modules and must be anchored on 'builtin.module', not on 'func.func': use --pass-pipeline='builtin.module(posenc-cpu-pipeline)'
// ANCHOR: rc=1
// RUN: sh -c "posenc-opt %s --pass-pipeline='builtin.module(func.func(posenc-to-linalg-pipeline))'; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=ANCHOR-LINALG
// ANCHOR-LINALG: error: 'posenc-to-linalg-pipeline' lowers whole modules and must be anchored on 'builtin.module', not on 'func.func'
// ANCHOR-LINALG: rc=1
// RUN: sh -c "posenc-run %s --pipeline='func.func(posenc-cpu-pipeline)'; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=RUN-ANCHOR
// RUN-ANCHOR: posenc-run: error: invalid pass pipeline 'func.func(posenc-cpu-pipeline)': 'posenc-cpu-pipeline' lowers whole modules and must be anchored on 'builtin.module', not on 'func.func'
// RUN-ANCHOR-NEXT: rc=1
// RUN: sh -c "posenc-run %s --gpu --dry-run --pipeline='func.func(posenc-gpu-pipeline)'; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=GPU-ANCHOR
// GPU-ANCHOR: posenc-run: error: invalid pass pipeline 'func.func(posenc-gpu-pipeline)': 'posenc-gpu-pipeline' lowers whole modules and must be anchored on 'builtin.module', not on 'func.func'
// GPU-ANCHOR-NEXT: rc=1
// RUN: sh -c "posenc-opt %s --pass-pipeline='any(posenc-cpu-pipeline)'; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=ANY
// ANY: error: 'posenc-cpu-pipeline' lowers whole modules and must be anchored on 'builtin.module', not on 'any'
// ANY: rc=1

// Options gpu-module-to-binary does not take: an error before the lowering
// (it printed "Invalid format specified." with the module and exited 0).
// RUN: sh -c "posenc-opt %s --pass-pipeline='builtin.module(posenc-gpu-pipeline{format=elf64})' -o /dev/null; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: 'posenc-gpu-pipeline': format=elf64 is not a format gpu-module-to-binary emits (isa, bin, fatbin, llvm)
// FORMAT: rc=1

// A file that is not a shared library: an error (the JIT warned and ran on
// without it, exit status 0).
// RUN: sh -c 'posenc-run %s --shared-libs=%s; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=NOTLIB
// NOTLIB: posenc-run: error: cannot load shared library '{{.*}}errors-output.mlir': {{.*}}errors-output.mlir: {{.*}}
// NOTLIB-NEXT: rc=1

// The raising pipeline works on functions: nested in one, it raises that one.
// RUN: posenc-opt %s --pass-pipeline='builtin.module(func.func(posenc-raise-pipeline{print-stats=true}))' 2>&1 | FileCheck %s --check-prefix=RAISE
// RAISE: posenc-raise-rotary: 0 raised-rotary

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %b = arith.addf %a, %a : f32
    linalg.yield %b : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}
