// Per-call temporaries the kernel cannot allocate: the lowered code calls
// malloc and never checked the result, so a temporary beyond the memory limit
// was a segfault (exit status 139) inside the kernel. The JIT now resolves
// malloc, calloc, realloc and aligned_alloc to checked versions: one error
// line and exit status 1, checked explicitly (`not` accepts crashes too).
// `ulimit -v` (KiB, about 2.9 GiB) makes the 4 GiB temporaries fail on any
// machine; the runner's own buffers are tiny.
// ASan reserves terabytes of shadow address space, which `ulimit -v`
// forbids: the release build runs this test.
// UNSUPPORTED: asan

// An attention whose score matrix is [1, 1, 32768, 32768] f32 (4 GiB), with
// the reference decomposition (the default flash lowering has no score
// matrix: test/Transforms/posenc-tile-attention.mlir).
// RUN: sh -c 'ulimit -v 3000000; posenc-run %s --entry=attention --iterations=1 --warmup=0 --pipeline="posenc-cpu-pipeline{flash-attention=false}"; echo rc=$?' 2>&1 | FileCheck %s --check-prefix=ATTENTION
// ATTENTION: posenc-run: error: out of memory allocating {{4294967[0-9][0-9][0-9]}} bytes for a temporary of the kernel
// ATTENTION-NEXT: rc=1

// A broadcast that the scalar reference pipeline (docs/posenc-run.md)
// materializes before reducing it: [4, 2^28] f32, 4 GiB.
// RUN: sh -c "ulimit -v 3000000; posenc-run %s --entry=broadcast_sum --iterations=1 --warmup=0 --pipeline='inline, eliminate-empty-tensors, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, canonicalize, buffer-deallocation-pipeline, convert-bufferization-to-memref, convert-linalg-to-loops, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts'; echo rc=\$?" 2>&1 | FileCheck %s --check-prefix=BROADCAST
// BROADCAST: posenc-run: error: out of memory allocating {{4294967[0-9][0-9][0-9]}} bytes for a temporary of the kernel
// BROADCAST-NEXT: rc=1

func.func @attention(%q: tensor<1x1x32768x4xf32>, %k: tensor<1x1x32768x4xf32>, %v: tensor<1x1x32768x4xf32>) -> tensor<1x1x32768x4xf32> {
  %o = posenc.attention %q, %k, %v : tensor<1x1x32768x4xf32>, tensor<1x1x32768x4xf32>, tensor<1x1x32768x4xf32> -> tensor<1x1x32768x4xf32>
  return %o : tensor<1x1x32768x4xf32>
}

func.func @broadcast_sum(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x268435456xf32>
  %b = linalg.broadcast ins(%a : tensor<4xf32>) outs(%e : tensor<4x268435456xf32>) dimensions = [1]
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%b : tensor<4x268435456xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
