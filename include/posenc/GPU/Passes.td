//===- Passes.td - posenc GPU codegen passes ---------------*- tablegen -*-===//

#ifndef POSENC_GPU_PASSES_TD
#define POSENC_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def PosEncVerifyGPUSupport : Pass<"posenc-verify-gpu-support"> {
  let summary = "Reject posenc ops that the GPU pipeline cannot compile yet";
  let description = [{
    Fails with an error located at every `posenc.attention`: the GPU pipeline
    compiles the elementwise posenc ops (rotary, alibi, sinusoidal,
    learned_absolute) and frequency tables; the fused flash-attention kernel
    for GPUs is not written yet, and attention's reference decomposition (an
    Sq x Sk score matrix per head) is not a kernel worth emitting.
    `posenc-gpu-pipeline` runs this first, before anything is lowered, so the
    error names the attention op itself.
  }];
}

def PosEncTileToGPU
    : InterfacePass<"posenc-tile-to-gpu", "mlir::FunctionOpInterface"> {
  let summary = "Tile linalg ops on tensors into scf.forall nests mapped to "
                "GPU blocks and threads";
  let description = [{
    Turns every linalg kernel of a function (linalg on tensors, e.g. the
    output of `convert-posenc-to-linalg`) into one GPU kernel in
    `scf.forall` form, still on tensors:

    ```
    scf.forall (block ivs) ... {mapping = [#gpu.block<linear_dim_N>, ...]}
      scf.forall (thread ivs) ... {mapping = [#gpu.thread<linear_dim_N>, ...]}
        the op on one thread's tile
    ```

    1. Elementwise producers are fused into their consumers when the
       consumer is their only user (RoPE's cos/sin rows into the rotation):
       each thread computes what it needs, and a posenc op becomes one
       kernel instead of a chain of kernels with buffers between them.
    2. An op whose result is inserted into a slice of a larger tensor
       through a collapse_shape (the rotated channels of a partial RoPE)
       computes into that slice of the destination, so that nothing is
       copied on the host after bufferization.
    3. Runtime checks (`cf.assert` on a value computed from tensors, e.g.
       the position bounds check of `posenc.learned_absolute` and of cos/sin
       tables) move into a kernel of one thread, together with the
       computation of their condition: the host never reads device memory,
       and a failed check is a device-side assertion.
    4. Every remaining linalg op becomes one kernel: each thread owns
       `thread-tile` consecutive elements of the innermost parallel
       dimension and one element of the others; reductions stay whole in a
       thread. A block holds `threads` threads and covers whole inner
       dimensions while they fit (consecutive threads touch consecutive
       addresses), then part of the next one; the last block of a dimension
       may be partial. Ops need static shapes and a parallel loop.
    5. Scalars and constants the kernel reads from outside (`tensor.extract`
       of an offset, constant frequency tables) are recomputed inside it, so
       that after outlining a kernel reads only its buffers and scalars.

    Linear mapping dimensions are numbered from the innermost loop
    (`linear_dim_0`), so thread ids follow the memory order.
    `posenc-map-forall-to-gpu` turns the nests into `gpu.launch` after
    bufferization.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"256",
           "Threads per block, at most 1024 (multiples of 32 fill whole "
           "warps)">,
    Option<"threadTile", "thread-tile", "int64_t", /*default=*/"1",
           "Consecutive elements of the innermost parallel dimension per "
           "thread">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def PosEncMapForallToGPU
    : InterfacePass<"posenc-map-forall-to-gpu", "mlir::FunctionOpInterface"> {
  let summary = "Turn block/thread-mapped scf.forall nests on buffers into "
                "gpu.launch";
  let description = [{
    Every top-level `scf.forall` mapped to `#gpu.block<...>` becomes a
    `gpu.launch`: the grid is one-dimensional with one block per iteration
    (the block's induction variables are the delinearized block id), and
    each `scf.forall` mapped to `#gpu.thread<...>` inside it becomes the
    body of the block's threads (delinearized thread id). Block sizes are
    the largest thread trip count, a static bound; threads beyond a
    partial block's trip count skip the body, and a `gpu.barrier` follows
    every thread loop but the last. Linear mapping dimensions are
    delinearized with `linear_dim_0` fastest. Views, constants and globals
    the kernel uses are moved into the launch, so that the outlined kernel
    takes the function's buffers and scalars only.

    Both levels need static iteration counts (the thread level: a static
    upper bound). Nests that do not fit (dynamic counts, more than 2^31-1
    blocks or 1024 threads, other mappings) are an error at the loop.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def PosEncGPULaunchToLoops
    : InterfacePass<"posenc-gpu-launch-to-loops", "mlir::FunctionOpInterface"> {
  let summary = "Run gpu.launch bodies on the host as loops over their "
                "blocks and threads";
  let description = [{
    Replaces every `gpu.launch` by `scf.for` loops over its blocks and its
    threads (z, y, x of the grid, then of the block), with the body inlined
    and the block and thread ids, grid and block sizes replaced by the loop
    induction variables and the launch's operands. Running threads one after
    another is exact for kernels whose threads do not communicate:
    launches with `gpu.barrier`, shared memory (workgroup or private
    attributions, dynamic shared memory), clusters or async tokens are an
    error.

    This is how `posenc-gpu-pipeline{emulate-on-host=true}` runs the
    kernels of `posenc-map-forall-to-gpu` (their thread ids, predicates and
    views) on the CPU, so that posenc-run checks them against the fp64
    reference on machines without a GPU.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

#endif // POSENC_GPU_PASSES_TD
