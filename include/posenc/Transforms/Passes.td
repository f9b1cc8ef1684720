//===- Passes.td - posenc transformation passes ------------*- tablegen -*-===//

#ifndef POSENC_TRANSFORMS_PASSES_TD
#define POSENC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PosEncFoldFrequencies : Pass<"posenc-fold-frequencies"> {
  let summary = "Fold static RoPE frequency tables into constants";
  let description = [{
    Replaces every `posenc.rope_frequencies` whose scheme is static (or whose
    `seq_len` is a constant) by constants computed in fp64 and rounded once
    to the result type, then drops attention factors that folded to exactly
    1.0 from `posenc.rotary` and `posenc.attention`. Runtime schemes are left
    for the lowering.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PosEncTileAndVectorize
    : InterfacePass<"posenc-tile-and-vectorize", "mlir::FunctionOpInterface"> {
  let summary = "Tile linalg ops into blocks and register-sized pieces, "
                "and vectorize them";
  let description = [{
    Two levels of tiling, then vectorization:

    1. Blocks: every linalg op whose result no other linalg op consumes is
       tiled with `scf.forall` (the CPU pipeline runs its iterations on
       OpenMP threads) into blocks of about `block-elements` iterations, and
       its direct linalg producers read through projected permutations are
       fused into the block. Parallel dimensions that the fused producers do
       not index stay whole in a block, so a producer tile is computed once
       and reused across them: RoPE's cos/sin rows (indexed by token and
       pair) are computed once per block of tokens and applied to every head
       from cache. Inner parallel dimensions stay whole while the block fits,
       the next one is tiled, outer ones go one at a time; reductions stay
       whole. Then fills of fresh N-D tensors (`tensor.empty`, static
       shape) become one 1-D fill expanded back to the shape: the N-D
       fill's register tiles masked every row that the lanes do not
       divide, and LLVM compiled the unrolled masked stores for minutes.
    2. Vectors: every op, inside blocks or not, is tiled with `scf.for`:
       parallel dimensions to 1 except the innermost ones, which share
       `vector-width` lanes; reductions stay whole. Each tile is vectorized
       (masked when a remainder tile is dynamic; `tensor.extract` becomes
       gathers or contiguous loads), and the vector IR is cleaned up (subset
       folding, unit-dimension dropping). Ops with dynamic reduction extents
       are tiled but stay scalar.

    Tiling before vectorizing keeps the vector IR register-sized: a whole
    4096x128 tensor vectorized at once produces megabytes of IR. Blocks keep
    threads' work items coarse (one per block, not one per vector).
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Elements per vector along the innermost parallel dimension "
           "(16 x f32 = one AVX-512 register)">,
    Option<"blockElements", "block-elements", "int64_t", /*default=*/"262144",
           "Iterations per block (thread-level tile), about; reuse "
           "dimensions and reductions may make blocks larger">
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def PosEncExpandDestinations : Pass<"posenc-expand-destinations"> {
  let summary = "Move tensor.collapse_shape onto the destination of "
                "bufferization.materialize_in_destination";
  let description = [{
    Rewrites

    ```mlir
    %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x8xf32> into tensor<4x16xf32>
    bufferization.materialize_in_destination %c in restrict writable %out
    ```

    into a materialization of `%x` in an expanded view of the destination
    (`memref.expand_shape` for a memref destination; for a tensor
    destination, `tensor.expand_shape`, then the collapse of the result).
    Kernels that compute in a finer shape than their result (posenc.rotary
    computes `[..., 2, half]` and collapses it to `[..., head_dim]`) can then
    be computed in place by `eliminate-empty-tensors`, which only follows
    ops that keep the shape. Collapses whose expanded view of the destination
    is not expressible (non-contiguous memref layouts) are left alone.
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def PosEncApproximateTrig : Pass<"posenc-approximate-trig"> {
  let summary = "Replace f32 math.sin and math.cos by polynomial "
                "approximations";
  let description = [{
    Rewrites `math.sin` and `math.cos` on `f32` and vectors of `f32` into
    MLIR's polynomial approximations (arith ops only), so that vectorized
    cos/sin tables stay vectorized: LLVM otherwise scalarizes a vector
    `llvm.intr.sin` into one libm call per lane.

    Only ops marked `posenc.reduced_angle` are rewritten: the posenc lowering
    marks the cos/sin of angles it reduced modulo 2*pi in f64, so the
    approximation only sees |x| <= pi, where its error is a few f32 ulps
    (measured against the fp64 reference by the execution tests). On large
    arguments its own range reduction is far less accurate (1e-5 absolute at
    |x| ~ 2000), so other sin/cos ops (user code) are left alone unless
    `all` is set.

    With `exp`, f32 `math.exp` is rewritten too (the softmax of the attention
    kernel: one vector exp per score instead of one libm call per lane).
    Upstream's exp approximation reduces its argument exactly (x = k ln2 + r)
    and is accurate to a few ulps over the whole f32 range.

    With `tanh` (the default), f32 `math.tanh` marked `posenc.softcap_tanh`
    (the soft-capping `cap * tanh(s / cap)` of posenc.attention) becomes
    upstream's rational approximation (clamped at |x| ~ 7.9, where tanh is 1
    in f32); user tanh (GELU) is left to libm. Other math ops and element
    types are never touched.
  }];
  let options = [
    Option<"all", "all", "bool", /*default=*/"false",
           "Also approximate unmarked f32 sin/cos (accurate for small "
           "arguments only)">,
    Option<"trig", "trig", "bool", /*default=*/"true",
           "Approximate the marked f32 sin/cos (false: exp only)">,
    Option<"exp", "exp", "bool", /*default=*/"false",
           "Also approximate f32 math.exp">,
    Option<"tanh", "tanh", "bool", /*default=*/"true",
           "Approximate the f32 math.tanh of posenc.attention's soft-capping "
           "(marked posenc.softcap_tanh)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def PosEncNontemporalStores
    : InterfacePass<"posenc-nontemporal-stores", "mlir::FunctionOpInterface"> {
  let summary = "Stream large write-only outputs with non-temporal stores";
  let description = [{
    A kernel that writes a large output once and never reads it back (RoPE,
    ALiBi tables, sinusoidal tables) is bound by memory bandwidth, and
    ordinary stores cost a read of every written cache line first. This pass
    lowers rank-1, in-bounds, unmasked `vector.transfer_write`s on memrefs to
    `vector.store` and marks a `vector.store` `nontemporal` when its memref is
    a view of a function argument

    - of at least `min-bytes` bytes (static shape): smaller outputs are
      likely read from cache by their consumer, which streaming would undo;
    - that nothing in the function reads (every use of the argument and of
      its views is a view-like op or a store into it).

    Non-temporal stores are weakly ordered: the pass adds a sequentially
    consistent `llvm.fence` before the end of each `omp.parallel` region and
    before each return of a function that streams, so the data is visible to
    whoever reads it after the kernel. LLVM emits a streaming store
    (`vmovntps`) when it can prove the address aligned to the vector size
    (e.g. from `memref.assume_alignment`, as `posenc-run` adds for its
    buffers); otherwise it uses ordinary or narrower stores. Run it after
    `convert-vector-to-scf` (rank-1 transfers) on bufferized code.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"8388608",
           "Smallest output (bytes) that is streamed">
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def PosEncForallToFor : Pass<"posenc-forall-to-for"> {
  let summary = "Rewrite scf.forall loops, also on tensors, into nested "
                "scf.for loops";
  let description = [{
    For hosts that compile `scf.for` but not `scf.forall` (iree-compile 3.13
    crashes on an `scf.forall` outside a dispatch region; docs/integration.md).
    Each `scf.forall` without a `mapping` becomes one `scf.for` per induction
    variable, outermost first, over the same bounds and steps:

    - on tensors, the `shared_outs` become `iter_args` of every loop of the
      nest and each `tensor.parallel_insert_slice` of the terminator a
      `tensor.insert_slice` into the innermost loop's `iter_arg` (in the
      terminator's order), which that loop yields;
    - without `shared_outs` (buffers), upstream's `scf-forall-to-for`.

    The iterations run in order. A forall whose iterations write disjoint
    slices (as a race-free forall must) computes the same tensors either way:
    an iteration that reads a `shared_outs` argument reads only slices that
    no earlier iteration has written. Foralls with a `mapping` (to GPU blocks
    or threads) and foralls whose terminator holds other ops are left alone.
  }];
  let dependentDialects = [
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def PosEncForallToWorkgroups
    : InterfacePass<"posenc-forall-to-workgroups",
                    "mlir::FunctionOpInterface"> {
  let summary = "Run a kernel's scf.forall iterations as a host's "
                "workgroups";
  let description = [{
    For kernels that a host compiler (IREE) dispatches over its own
    workgroups instead of OpenMP threads. Applies to functions with an
    `index` argument marked `posenc.workgroup_id` and one marked
    `posenc.workgroup_count`; others are left alone. Runs on buffers (after
    bufferization).

    The function's one top-level `scf.forall` that writes the function's
    arguments becomes a loop over the iterations of workgroup `id` of
    `count`, so that every host workgroup count of 1 or more runs each
    iteration once. When `count` divides the product of the forall's
    dimensions but the last (the flash nest's batch x kv head), each
    workgroup takes a contiguous range of whole slices, last dimension
    fastest (equal work; consecutive iterations read the same keys and
    values). Otherwise it runs the iterations `id`, `id + count`, ... of
    the forall linearized with the first dimension fastest, so that each
    workgroup sweeps the last dimension (the nest's query blocks: causal
    blocks grow with it) whichever workgroups a host thread gets. The
    choice is made at run time. The iteration count is stored as the
    function's `posenc.workgroup_units` attribute (an `i64`) when it is
    static. Every other top-level `scf.forall` writes only buffers the
    function allocates and becomes sequential loops: each workgroup runs
    it whole.

    Two phases (split decode keys): when the ops after that forall write
    the arguments (the combine of the partial results the forall wrote to
    the `posenc.shared_scratch` argument, see posenc-allocs-to-scratch) and
    the function has an `index` argument marked `posenc.workgroup_phase`,
    the forall runs under `scf.if phase == 0` and the ops after it under
    `scf.if phase == 1 and id == 0`; what precedes the forall (private
    work) runs in both. The function gets `posenc.workgroup_phases = 2`:
    the host dispatches it over its workgroups with phase 0, then once
    with phase 1.

    A function that writes its arguments but has no such forall (a kernel
    too small to tile into blocks) is one iteration: its body moves under
    `scf.if` on workgroup id 0 (units 1). Writes to the scratch argument
    count as the workgroup's own (posenc-allocs-to-scratch gives each
    workgroup its slice); `memref.prefetch` writes nothing.

    Fails with a diagnostic, changing nothing, when the function holds
    several such foralls, when an op before it writes an argument, or when
    one after it does and there is no phase argument (every workgroup would
    run it: a race), or when a two-phase function returns values.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def PosEncAllocsToScratch
    : InterfacePass<"posenc-allocs-to-scratch", "mlir::FunctionOpInterface"> {
  let summary = "Place a kernel's buffers in its workgroup's slice of a "
                "scratch argument";
  let description = [{
    For freestanding kernels (IREE's embedded ELF has no heap). Applies to
    functions with a `memref<?xi8>` argument marked `posenc.scratch` and an
    `index` argument marked `posenc.workgroup_id`; others are left alone.
    Runs on buffers, before deallocation is inserted. Writes to the scratch
    argument are the workgroup's own for posenc-forall-to-workgroups.

    Every `memref.alloc` (identity layout) becomes a `memref.view` at its
    own 64-byte aligned offset of the workgroup's slice `scratch[id * B,
    (id + 1) * B)`, where `B`, the sum of the slots, is stored as the
    function's `posenc.scratch_bytes` attribute (an `i64`). A dynamic size
    (a partial tile) takes the slot of its constant upper bound (value
    bounds). The host sizes the scratch buffer `B` times its workgroup
    count. Split decode keys: when no top-level `scf.forall` writes
    memory other than the function's own and ops after the last one do
    (the combine), the buffers that forall writes and those ops read are
    shared by the workgroups: they take slots of the `memref<?xi8>`
    argument marked `posenc.shared_scratch` from offset 0 instead, and
    their total is stored as `posenc.shared_scratch_bytes` (an error
    without that argument). A slot is reused each time its alloc runs, which is exact when no
    buffer outlives the loop iteration that allocated it: an alloc inside a
    loop whose buffer (or a view of it) reaches the loop's `scf.yield` is an
    error, as is a size without a constant bound; the function is then
    unchanged.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def PosEncLowerI1VectorMemory
    : Pass<"posenc-lower-i1-vector-memory"> {
  let summary = "Lower vector loads and stores of i1 memrefs to one byte "
                "per element";
  let description = [{
    An `i1` memref holds one byte per element: memref indexing, scalar
    `memref.load`/`memref.store`, `memref.global` initializers and the
    callers' buffers (numpy `bool`) all agree on that. LLVM, however, lays a
    `<N x i1>` vector out bit-packed in memory, so upstream's
    `convert-vector-to-llvm`, which lowers a `vector.load` of
    `memref<...xi1>` to `llvm.load ... -> vector<Nxi1>`, reads N bits of the
    first bytes instead of N bytes: a wrong result, silently (for example an
    `arith.andi` with a `dense<true>` constant reads `[1, 0, 0, ...]`).
    docs/upstream-i1-vector-load.md holds a reduced reproducer.

    This pass lowers every rank-1 `vector.transfer_read`/`transfer_write`
    of an `i1` memref to `vector.load`/`store`/`maskedload`/`maskedstore`
    (upstream's patterns, applied to these ops only), then those four ops on
    `i1` memrefs to the LLVM dialect on bytes: an `llvm.load` (or
    `llvm.intr.masked.load`) of `vector<Nxi8>` and an `llvm.trunc` to
    `vector<Nxi1>`; stores `llvm.zext` to bytes first. Ops of other element
    types are left to `convert-vector-to-llvm`. An `i1` vector memory op it
    cannot lower (`vector.expandload`, `vector.compressstore`, rank > 1,
    scalable vectors) is an error, not a wrong result. Run it after
    `convert-vector-to-scf` and before `convert-vector-to-llvm`.
  }];
  let options = [
    Option<"force32BitVectorIndices", "force-32bit-vector-indices", "bool",
           /*default=*/"true",
           "Masks of out-of-bounds transfers are computed on i32 lanes "
           "(as convert-vector-to-llvm does)">
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def PosEncLowerMultiReductions
    : Pass<"posenc-lower-multi-reductions"> {
  let summary = "Lower vector.multi_reduction as upstream does, keeping "
                "non-power-of-two parallel lanes off the x86 backend's "
                "faulty path";
  let description = [{
    Upstream's `lower-vector-multi-reduction` lowers every
    `vector.multi_reduction` one way: `inner-parallel` (the default) moves
    the reduced dimensions outermost and combines rows of the flattened
    parallel lanes elementwise. When those lanes are not a power of two,
    LLVM 22's x86 instruction selection (SelectionDAG, with AVX) can
    compute wrong values for the transposing shuffles and the reduction
    over the odd-width vectors (24 lanes of a `[1, 4, 3, 4, 7]` row max at
    `vector-width=32`: docs/upstream-x86-shuffle-miscompile.md, D12 in
    docs/testing.md).

    This pass lowers the multi-reductions whose parallel lanes (the product
    of the kept dimensions) are not a power of two with `inner-reduction`
    (one `vector.reduction` per kept element), the others with
    `lowering` (upstream's patterns in both cases, masked reductions
    included). Upstream's pass is this one with every reduction counted as
    a power of two.
  }];
  let options = [
    Option<"lowering", "lowering", "::mlir::vector::VectorMultiReductionLowering",
           /*default=*/"::mlir::vector::VectorMultiReductionLowering::InnerParallel",
           "Lowering of the multi-reductions with power-of-two parallel lanes",
           [{::llvm::cl::values(
             clEnumValN(::mlir::vector::VectorMultiReductionLowering::InnerParallel,
                        "inner-parallel", "reduce across rows of parallel lanes"),
             clEnumValN(::mlir::vector::VectorMultiReductionLowering::InnerReduction,
                        "inner-reduction", "one vector.reduction per kept element"))}]>
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def PosEncWrapForeignFunctions
    : Pass<"posenc-wrap-foreign-functions", "::mlir::ModuleOp"> {
  let summary = "Give function-like ops of unregistered dialects (IREE's "
                "util.func) the form func.func so that posenc's passes run "
                "on their bodies";
  let description = [{
    IREE's input IR (`iree-compile --compile-to=input`, printed generic and
    read with `--allow-unregistered-dialect`) holds its functions as
    `util.func`, an op the pass manager cannot schedule passes on when its
    dialect is not registered. This pass turns each top-level op named in
    `ops` that has a `sym_name`, a `function_type` of function type and one
    region into a `func.func` of the same name, type and body; the op's name,
    its other properties (`<{...}>`) and its discardable attributes are kept
    in `posenc.foreign_op`, `posenc.foreign_properties` and
    `posenc.foreign_attrs`, from which
    `posenc-unwrap-foreign-functions` restores it. The body (its
    terminators, `util.return`, included) is not changed. Ops of other names
    and registered ops are left alone; an op named in `ops` without that
    form is an error.
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Names of the function-like ops to wrap (default util.func)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def PosEncUnwrapForeignFunctions
    : Pass<"posenc-unwrap-foreign-functions", "::mlir::ModuleOp"> {
  let summary = "Restore the function-like ops that "
                "posenc-wrap-foreign-functions wrapped";
  let description = [{
    Each `func.func` with a `posenc.foreign_op` attribute becomes that op
    again, with its `sym_name`, `function_type` and the properties and
    attributes kept there, and the (now rewritten) body. Other functions
    are left alone.
  }];
}

def PosEncExpandPartialWrites : Pass<"posenc-expand-partial-writes"> {
  let summary = "Give vector.transfer_writes that cover part of a tensor the "
                "full-rank form that one-shot-bufferize reads correctly";
  let description = [{
    Upstream's bufferization model of `vector.transfer_write` (MLIR 22)
    decides that a write at constant-zero indices without a mask overwrites
    its whole tensor when every tensor dimension is at most the vector
    dimension it is paired with, pairing the two shapes *by position*. A
    rank-reducing or permuted write does not write what that pairing
    assumes: `vector<8xf32>` written at `[0, 0]` of `tensor<3x40xf32>` fills
    one row, yet counts as a full overwrite (3 <= 8). When such a write
    bufferizes out of place, one-shot-bufferize then allocates the new
    buffer without copying the old contents: the other rows are read
    uninitialized, silently (docs/upstream-transfer-write-overwrite.md holds
    a reduced reproducer).

    This pass rewrites exactly those writes, the ones upstream counts as a
    full overwrite that leave part of the tensor unwritten, into the
    equivalent write of a full-rank vector with the identity permutation
    map (`vector.transpose` where the map permutes, `vector.shape_cast` to
    insert the unit dimensions): upstream's check is exact on that form.
    Writes that really cover their tensor, and all other ops, are left
    alone. Run it just before `one-shot-bufferize`, after the last
    canonicalization (which folds the shape_cast back).
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def PosEncTileAttention : Pass<"posenc-tile-attention"> {
  let summary = "Lower posenc.attention to a flash-attention loop nest on "
                "tensors";
  let description = [{
    Rewrites every `posenc.attention` into one fused loop nest on tensors:
    `scf.forall` over (batch, kv head, query tile, key chunk) and, inside, an
    `scf.for` over key tiles carrying an online softmax (running max, running
    sum and an f32 accumulator rescaled as the max grows). The tile-level
    work is small `linalg` ops (QK^T, logits, exp, row reductions, PV) for
    `posenc-tile-and-vectorize` or a host's codegen; no Sq x Sk buffer is
    built at any size.

    - GQA: the `G = Hq / Hkv` query heads of a kv head form one `[G, Tq, D]`
      block that reads each K/V tile once.
    - RoPE: `posenc.rotary` on the query block and on each key tile (cos/sin
      rows per tile, shared by the G heads), lowered afterwards by
      `convert-posenc-to-linalg`; with `prerotate-keys`, K is rotated once
      before the loop nest instead (the measured alternative).
    - ALiBi and the causal mask come from indices; with causal attention and
      default positions, key tiles after a block's last query position are
      not visited. Fully masked rows give 0, as in the reference lowering.
    - Attention sinks (gpt-oss): the running max of a row starts at its
      head's sink and the running sum at `exp(sink - sink) = 1` (0 for a
      `-inf` sink); with split keys the chunks start empty and the combine
      counts the sink once.
    - Decode: when a kv head has at most `decode-rows` query rows
      (`G * Sq`, static) and more than `decode-chunk` keys, the keys are
      split into chunks of at least `decode-chunk` keys (at most 16 chunks
      when Sk is static) that run in parallel; their partial max, sum and
      accumulator are combined afterwards.
    - Few-row blocks with `vector-width` set (posenc-cpu-pipeline passes its
      attention-vector-width): the key loop is written in vector ops instead
      of linalg tile ops. Scores are dot products over the head dim, K rows
      read in place (no transposed K pack), lanes along D, each loaded chunk
      shared by the block's rows, the lane partials of a group of keys
      reduced together by a transposing shuffle tree; the softmax runs on
      those key vectors (the running sum kept per lane, reduced once per
      block) and P.V streams V rows. Its vectors have at most 8 lanes and
      a step is one group of lanes keys (`key-tile` sizes the tile ops'
      steps only): measured fastest for this memory-bound loop on AVX-512
      hosts too. With `bf16-dot-products`, bf16 scores take AVX-512 BF16
      dot products (`x86vector.avx512.dot`, `vdpbf16ps`): each
      lane sums a pair of channels' exact products into f32, so a chunk
      covers twice the channels of an f32 FMA; P.V keeps f32 probabilities
      and widens V.

    Tiles are static when the extents are static and divisible by the tile
    sizes; otherwise the last tile is smaller (dynamic sizes). Attention ops
    with dynamic head counts or head dims are left unchanged (the reference
    lowering of `convert-posenc-to-linalg` takes them), and so are those
    whose score matrix (B x Hq x Sq x Sk) is not known to have `min-scores`
    elements (fewer, or an extent is dynamic) when `min-scores` is positive:
    hosts that run the nest's loops on their host side
    (posenc-to-linalg-pipeline for IREE) pay per block, small attentions
    run faster unfused there, and IREE 3.13 rejects loop-carried tensors of
    dynamic shape.
  }];
  let options = [
    Option<"queryTile", "query-tile", "int64_t", /*default=*/"64",
           "Query rows per block (per query head of a group)">,
    Option<"keyTile", "key-tile", "int64_t", /*default=*/"64",
           "Keys per step of the online softmax">,
    Option<"decodeRows", "decode-rows", "int64_t", /*default=*/"16",
           "Split the keys when a kv head has at most this many query rows "
           "(G * Sq); 0 never splits">,
    Option<"decodeChunk", "decode-chunk", "int64_t", /*default=*/"512",
           "Fewest keys per chunk of a split (decode) attention">,
    Option<"prerotateKeys", "prerotate-keys", "bool", /*default=*/"false",
           "Rotate K once before the loop nest instead of per key tile">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"0",
           "f32 lanes of a vector register, for the dot-product key loop of "
           "few-row blocks (G * Sq <= decode-rows): its vectors take the "
           "widest power of two up to this and 8 dividing the head dims (at "
           "least 4), its register blocks the register file (32 registers "
           "from 16 lanes up, else 16); 0: those blocks use linalg tile ops "
           "like the others">,
    Option<"bf16DotProducts", "bf16-dot-products", "bool",
           /*default=*/"false",
           "In the dot-product key loop, bf16 Q and K rows take AVX-512 "
           "BF16 dot products (x86vector.avx512.dot: pairs of bf16 "
           "products summed in f32) instead of widening to f32 FMAs; the "
           "code then needs a CPU with avx512bf16">,
    Option<"minScores", "min-scores", "int64_t", /*default=*/"0",
           "Leave attention ops whose score matrix (B x Hq x Sq x Sk) has "
           "fewer elements, or a dynamic extent, to the reference lowering; "
           "0: tile every op">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::x86vector::X86VectorDialect"
  ];
}

#endif // POSENC_TRANSFORMS_PASSES_TD
