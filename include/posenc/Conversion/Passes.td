//===- Passes.td - posenc conversion passes ----------------*- tablegen -*-===//

#ifndef POSENC_CONVERSION_PASSES_TD
#define POSENC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertPosEncToLinalg : Pass<"convert-posenc-to-linalg"> {
  let summary = "Lower posenc ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every posenc op into destination-style `linalg.generic` ops on
    tensors (plus `arith`/`math` scalar code, `tensor` slices and `cf.assert`
    runtime checks). This is where `posenc-cpu-pipeline` enters linalg and
    the stopping point for hosts that keep their own codegen below linalg
    (`posenc-to-linalg-pipeline`).

    - `posenc.rope_frequencies`: static schemes become fp64-computed constants
      rounded once; runtime schemes (HF dynamic NTK, HF LongRoPE switch)
      become arith/math on the runtime length.
    - `posenc.rotary`: one generic builds the cos/sin rows per (position,
      pair) — shared by every head — and one generic rotates the pairs; the
      pass-through channels are copied. Angles are reduced modulo 2*pi in
      f64 before the f32 cos/sin, so long positions stay accurate.
    - `posenc.alibi`, `posenc.sinusoidal`: one generic each, computed from
      indices.
    - `posenc.learned_absolute`: a runtime bounds check (`cf.assert`) and a
      gather.
    - `posenc.attention`: the reference decomposition (RoPE, QK^T, scale,
      ALiBi, causal mask, softmax, PV) with GQA by indexing; attention sinks
      seed the row max and add `exp(sink - max)` to the row sum.

    Ops that cannot be lowered make the pass fail with a diagnostic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
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

#endif // POSENC_CONVERSION_PASSES_TD
