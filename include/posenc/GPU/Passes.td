//===- Passes.td - posenc GPU codegen passes ---------------*- tablegen -*-===//

#ifndef POSENC_GPU_PASSES_TD
#define POSENC_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def PosEncVerifyGPUSupport : Pass<"posenc-verify-gpu-support"> {
  let summary = "Reject posenc ops that the GPU pipeline cannot compile";
  let description = [{
    Fails with an error located at every `posenc.attention` that
    `posenc-attention-to-gpu` (with the same `threads`, `shared-memory` and
    `tensor-cores`) cannot build a kernel for, giving the figures: a block
    that needs more than 1024 threads (many query heads per kv head, or wide
    value heads: a row's lanes hold at most 32 value channels each), or a Q
    tile and the smallest key tile over the workgroup memory (wide head
    dims). `posenc-gpu-pipeline` runs this first, with its attention
    options, so the error names the attention op before anything is
    lowered. What the op verifier checks (static head counts and head dims,
    whole channel pairs to rotate) is not repeated.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block aimed at (posenc-attention-to-gpu threads)">,
    Option<"sharedMemory", "shared-memory", "int64_t", /*default=*/"49152",
           "Workgroup memory per block, in bytes "
           "(posenc-attention-to-gpu shared-memory)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "f16/bf16 attention on tensor cores "
           "(posenc-attention-to-gpu tensor-cores)">
  ];
}

def PosEncAttentionToGPU
    : InterfacePass<"posenc-attention-to-gpu", "mlir::FunctionOpInterface"> {
  let summary = "Lower posenc.attention to one flash-attention gpu.launch";
  let description = [{
    Replaces every `posenc.attention` (on tensors) by one `gpu.launch` on its
    operands' buffers (`bufferization.to_buffer`), written directly as
    scf/memref/arith: tiling linalg into this shape would need the key loop,
    the barriers and the workgroup buffers that linalg cannot express.

    - Grid: (query tiles, kv heads, batch). A block owns the `G` query heads
      of its kv head (GQA by indexing: K/V are read once per block) times
      `Tq` query rows: `R = G * Tq` rows.
    - Threads: `L` lanes per row (`R * L` threads); lane `l` owns the value
      channels `l, l + L, ...` (at most 32 accumulators per thread).
    - Workgroup memory: the Q tile `[R, D]` (rotated once when `rope`), a K
      tile `[Tk, D]` (rotated as it is staged) and a V tile `[Tk, Dv]` in
      the element type, and the tile's logits `[R, Tk]` in f32; `Tk` is the
      largest power of two up to 64 that fits `shared-memory` bytes.
    - Per key tile: stage K/V, barrier, logits (`q . k * scale + alibi`,
      -inf for future keys when causal and past Sk), barrier, each thread
      updates its row's online softmax (running max, sum and accumulators
      in registers: scf.for iter_args), barrier before the next stage.
      Causal with default positions stops at the block's last visible key.
    - Sinks start a row's state at (max = sink, sum = 1); rows whose keys
      are all masked give 0.
    - f16/bf16 with `tensor-cores` (the default): the logits (Q K^T) and the
      tile's P V are warp-level `nvgpu.mma.sync` m16n8k16 products (f32
      accumulators) on fragments loaded by `nvgpu.ldmatrix` from the tiles
      (rows padded to 16-byte multiples plus 16 bytes; Q/K columns padded
      with zeros to a multiple of 16, V columns to 8, rows to 16); each
      row's softmax stays in its threads, which write P rounded to the
      element type (what P V multiplies, as in FlashAttention) and add the
      f32 P V to their accumulators. Blocks hold whole warps and `Tk` is at
      least 16.

    The numerics are the shared emitters' (posenc/Codegen/Emitters.h,
    AttentionEmitters.h): cos/sin, the logit rule, safe exp, normalization; the
    accumulation order over keys and channels is the CPU flash loop nest's.
    A result whose only use is `materialize_in_destination` into a writable
    buffer is written there; otherwise into a new buffer.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block aimed at (the block holds whole rows of "
           "lanes)">,
    Option<"sharedMemory", "shared-memory", "int64_t", /*default=*/"49152",
           "Workgroup memory per block, in bytes (48 KiB: no opt-in "
           "needed)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "f16/bf16 attention: Q K^T and P V on tensor cores "
           "(nvgpu.mma.sync m16n8k16, sm_80 and later)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
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
    takes the function's buffers and scalars only. Launches already in the
    function (posenc-attention-to-gpu's) get the same treatment, and their
    static `memref.alloca`s of workgroup memory at the top of the body
    become workgroup attributions.

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
    another is exact for kernels whose threads do not communicate.

    Kernels whose threads synchronize (`gpu.barrier`) or share workgroup
    memory (posenc-attention-to-gpu's) run per block as a sequence of loops
    over the threads, one per stretch of code between barriers: barriers may
    sit at the kernel's top level or in `scf.for` loops whose bounds are the
    same in every thread (computed from block ids, sizes and values from
    outside). Values a thread carries across a barrier (those loops'
    iteration arguments, values defined before a barrier and used after)
    live in per-thread host buffers; thread-invariant pure computations
    stay outside the thread loops. Workgroup attributions become host
    buffers of the same shape, read and written by `memref.load`/`store`.
    Barriers elsewhere (under `scf.if`, in loops with per-thread bounds),
    private attributions, dynamic shared memory, clusters and async tokens
    are an error.

    This is how `posenc-gpu-pipeline{emulate-on-host=true}` runs the
    kernels of `posenc-map-forall-to-gpu` (their thread ids, predicates and
    views) on the CPU, so that posenc-run checks them against the fp64
    reference on machines without a GPU.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def PosEncEmulateNVGPU
    : InterfacePass<"posenc-emulate-nvgpu", "mlir::FunctionOpInterface"> {
  let summary = "Run the warp-level nvgpu ops of gpu.launch bodies as "
                "per-thread code (for posenc-gpu-launch-to-loops)";
  let description = [{
    Rewrites `nvgpu.ldmatrix` and `nvgpu.mma.sync` (m16n8k16, f16 or bf16
    operands, f32 accumulators) inside `gpu.launch` bodies into what each
    thread of the warp computes, with the fragment layouts of the PTX ISA
    ("Matrix fragments for mma.m16n8k16", "ldmatrix"): the lanes exchange
    their operands through a per-warp workgroup scratch buffer between
    barriers, and each lane computes its own elements. `ldmatrix` lanes
    publish their row indices; each lane loads the two elements of every
    8x8 matrix that the instruction gives it (`transpose` included).
    `mma.sync` lanes publish their A, B and C fragments; each lane sums its
    four D elements over k in f32.

    With posenc-gpu-launch-to-loops, this runs the tensor-core kernels of
    `posenc-attention-to-gpu` on the host, so that their fragment indexing
    is checked against the fp64 reference on machines without a GPU
    (`posenc-gpu-pipeline{emulate-on-host=true}`). The rounding of the
    hardware's accumulation is not modelled (f32 sums in k order).

    The launch must have a static x-only block whose size is a multiple of
    32, and the ops must run in every thread (at the kernel's top level or
    in `scf.for` loops): anything else is an error at the op.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def PosEncBF16MmaToNVVM
    : Pass<"posenc-bf16-mma-to-nvvm"> {
  let summary = "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync";
  let description = [{
    MLIR 22's `convert-nvgpu-to-nvvm` lowers `nvgpu.mma.sync` on f16, tf32,
    f64 and integer operands, not bf16 ("failed to deduce operand PTX
    types"). This pass rewrites bf16 m16n8k16 `nvgpu.mma.sync` with f32
    accumulators into `nvvm.mma.sync` (`mma.sync.aligned.m16n8k16.row.col.
    f32.bf16.bf16.f32`): the A and B fragments as packed 32-bit registers
    (a 1-D `vector.bitcast` per row), the C and D fragments as four f32
    values. Run it
    before `convert-nvgpu-to-nvvm`; other ops are left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def PosEncAlignWorkgroupMemory
    : Pass<"posenc-align-workgroup-memory", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Align the workgroup attributions of GPU kernels";
  let description = [{
    Sets `llvm.align` on every workgroup attribution of a `gpu.func` that has
    none, so that the `addrspace(3)` globals NVVM makes of them start on an
    `alignment`-byte boundary. Without it a bf16 tile is 2-byte aligned, and
    the 16-byte rows that `ldmatrix` (tensor-core attention) reads would be
    misaligned on the device, which ptxas does not check. Runs after
    `gpu-kernel-outlining` (a `gpu.launch` carries no attribution
    attributes).
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"16",
           "Alignment in bytes (a power of two)">
  ];
}

#endif // POSENC_GPU_PASSES_TD
