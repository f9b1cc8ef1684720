//===- Passes.td - passes that raise model IR into posenc --*- tablegen -*-===//
//
// Passes over the linalg-on-tensors IR of model importers (torch-mlir,
// ONNX): each recognizes one decomposed positional-encoding or attention
// idiom and replaces it by the posenc op that says what it is. A pattern that
// does not match exactly (shape, sign, layout, operand) leaves the IR alone:
// raising never changes what a program computes beyond the rounding stated
// in docs/raising.md.
//
//===----------------------------------------------------------------------===//

#ifndef POSENC_RAISING_PASSES_TD
#define POSENC_RAISING_PASSES_TD

include "mlir/Pass/PassBase.td"

def PosEncUnifyDynamicDims : Pass<"posenc-unify-dynamic-dims"> {
  let summary = "Make the equal dynamic sizes of importer IR one value";
  let description = [{
    Importers of dynamically shaped models (`torch.export.Dim`) compute one
    sequence length many times: `tensor.dim` of each argument, sizes
    re-derived through reshapes (`S * 2 / 2`), i64 copies for `view`
    shapes, asserts that they agree. The raising patterns compare values,
    so this pass, first in posenc-raise-pipeline, proves which dynamic sizes
    are equal and makes them one SSA value.

    Sizes are equal when the program relies on it: operands of a linalg op
    read by the same loop dimension (a mismatch is undefined behavior), a
    `cf.assert` of their equality, a result and its destination, and sizes
    carried through `tensor.empty`, expand/collapse (a dynamic dimension
    grouped with unit ones), rank-preserving slices, concat (other
    dimensions), casts, `tensor.reshape` to a `from_elements` shape, index
    casts and `x * c / c`. IREE's input IR (read with
    `--allow-unregistered-dialect`) states them with `flow.tensor.tie_shape`
    (the result has the given dynamic sizes, and the source's) and
    `util.assume.int` (its result is its operand). Each class of sizes that
    holds a dynamic dimension of an input (a function argument, or in IREE's
    input IR a result of an op of a dialect posenc does not register, such
    as `hal.tensor.import`) becomes one `tensor.dim` of the first such input
    where it is defined (an `index_cast` of it for i64 sizes); sizes are
    replaced where that `tensor.dim` dominates them.

    Comparisons, `minsi`/`maxsi` and selects of sizes that
    ValueBoundsOpInterface decides are folded, before and after the sizes
    are shared: `index_cast(n) < 0` of a size `n` is false, torch's slice
    bounds `min(0, n + 1)` and `max(n - 0, 0)` are `0` and `n - 0` (gpt-oss's
    sink column). With the sizes shared, three rewrites become provable:
    `select(n == 1, 0, linalg.index d)` in the body of an op whose
    loop `d` has size `n` is `linalg.index d` (torch's broadcast of a
    dimension that may be 1), and a `tensor.reshape` whose dynamic
    dimensions are the source's, regrouped with unit dimensions, is a
    `tensor.expand_shape` or `tensor.collapse_shape`, and a generic without
    inputs whose body only yields `tensor.extract %t[...]` at its loop
    indices (or 0 into unit dimensions: that broadcast, its selects
    folded) reads `%t` as an input through the indexing map those indices
    make, as torch-mlir writes static broadcasts; a generic that only
    copies its input to a result of the same type (torch's `expand` to the
    sizes a tensor has) is its input. The scalar size
    computations left without uses are erased. Functions without dynamic
    shapes are not touched; nothing else changes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PosEncRaiseRotary : Pass<"posenc-raise-rotary"> {
  let summary = "Raise decomposed rotary embeddings into posenc.rotary";
  let description = [{
    Recognizes rotary position embeddings as importers emit them, one
    elementwise `linalg.generic` per operation:

    - HF/NeoX half-split: `x * cos + rotate_half(x) * sin` with
      `rotate_half(x) = concat(-x[..., h:], x[..., :h])`;
    - the halves form (gpt-oss): `concat(x1 * cos - x2 * sin,
      x2 * cos + x1 * sin)` with `x1, x2` the halves of `x` and half-width
      tables;
    - GPT-J interleaved: `x * cos + rotate_every_two(x) * sin` with
      `rotate_every_two(x) = [-x1, x0, -x3, x2, ...]` (stride-2 slices,
      stacked on a new last axis and collapsed) and tables repeated per pair
      (`repeat_interleave(t, 2)`, materialized as a broadcast copy);
    - Meta's reference Llama, the complex product
      `view_as_real(view_as_complex(x.reshape(..., D/2, 2)) * freqs_cis)`
      flattened back (a generic of `complex.create` from lanes 0 and 1 of
      the pairs, `complex.mul` by the table broadcast over heads, a generic
      yielding `complex.re` at lane 0 and `complex.im` at lane 1, a
      collapse): an interleaved rotary of the whole head. `freqs_cis`
      (`[P, D/2]` `complex<f32>` holding `cos + i sin`, a constant or an
      argument) is read by rows `[o, o + S)` (offset `o`), by a gather, or
      whole, and by value like GPT-J's gathered tables (below), its real
      and imaginary parts being the cos and sin columns;
    - partial rotary: `concat(rotary(x[..., :r]), x[..., r:])` becomes one
      `posenc.rotary` with `rotary_dim = r`.

    The cos/sin tables must be computed in the IR from positions and
    frequencies: `cos(concat(f, f))` (or `cos(f)` for half-width tables;
    `cos(repeat_interleave(f, 2))` or `repeat_interleave(cos(f), 2)` for
    interleaved ones), optionally times an attention factor, with
    `f = float(pos) * inv_freq`. `inv_freq` (any 1-D f32/f64 tensor,
    typically a constant with the scaling applied) becomes the rotary's
    `inv_freq` operand; a constant table that equals the unscaled ladder of
    some `rope_theta` is reported in a remark.
    Positions that are an `arange` become the implicit `offset + s`; other
    integer positions become the `positions` operand.

    Interleaved tables may instead be column halves of rows gathered from a
    table `[P, C]` by positions (GPT-J's `embed_positions`, read through
    PyTorch's negative-index wrap `pos < 0 ? pos + P : pos`). Positions must
    stay in `[0, P)`: an `arange` checked statically, or runtime positions
    without the wrap. A constant f32 table whose sin and cos columns equal,
    in every row `p`, sin/cos of the f32 angle `float(p) * w_i` within 4 ulps
    (`w_i` found from row 1 by `atan2`, then refined by ulps) becomes
    `inv_freq(w)`, which posenc-fuse-attention can fuse; any other table
    becomes `cos_sin` tables holding its columns (new constants, or copies of
    a runtime table), exact but not fusable. ONNX's gather over flattened
    positions, `expand(gather(table, collapse(P)))` sliced into the halves,
    is read as the gather over `P` first.

    Replaced ops that have no other users are erased by the greedy driver;
    ops shared with code that is not raised stay.
  }];
  let dependentDialects = ["::mlir::posenc::PosEncDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"printStats", "print-stats", "bool", /*default=*/"false",
           "Print to stderr how many instances of each idiom were raised "
           "(MLIR's -mlir-pass-statistics counts nothing in release builds "
           "of LLVM)">
  ];
}

def PosEncRaiseAlibi : Pass<"posenc-raise-alibi"> {
  let summary = "Raise ALiBi bias constructions into posenc.alibi";
  let description = [{
    Recognizes the ALiBi bias as importers emit it: one all-parallel f32
    `linalg.generic` computing `slope[h] * float(pos)` (optionally negated),
    `slope` an f32 input varying along one axis (the heads) and `pos` an
    integer (through `sitofp`) or float input varying along the keys and
    possibly the queries and a batch axis. Both factors must be computed
    from constants alone; they are evaluated like masks
    (`evaluateConstantTensor`): constant tables, `pow` ladders (BLOOM's
    `base^(1..H)` in f64, MPT's `1 / 2^(k * 8 / H)` behind a `cf.assert`
    that the evaluator checks), aranges, and BLOOM's key positions
    `(cumsum(mask) - 1) * mask` of a constant mask (`tm_tensor.scan`, see
    below). ONNX exporters fold the product into a constant `[.., H, ..,
    Sk]` (heads its only non-unit axis but the keys): one added to
    something is read as `slope[h] * p[j]`, slopes from neighbouring keys
    and positions from head 0, and taken when every value is that f32
    product with `p` an arange. The replacement computes the same f32
    values:

    - `key_linear` when the bias does not depend on the query and the
      positions are `c + j`: `k_positions` implicit for `c = 0`, else a
      constant `[Sk]` tensor;
    - `symmetric` when it is `-slope * |q - j|` with `q = i + a`: alignment
      `bottom_right` for `a = Sk - Sq`, `top_left` for `a = 0`, else a
      constant `q_positions` tensor.

    Anything else is left alone: positions that are not an arange (or differ
    between batch entries), a query-dependent term other than `-|i - j|`,
    slopes of mixed sign or not constant. Slopes become
    `#posenc.alibi_slopes<num_heads = H>` when every one equals posenc's
    formula for `H` heads in f32 (with `max_bias = b` for another `b` that
    is a multiple of 1/256, e.g. MPT's `alibi_bias_max = 16`), else a
    constant slopes tensor. The `posenc.alibi` is `[B?, H, Sq, Sk]` (`Sq = 1`
    for a bias without a query axis, no `B` for one batch entry), reshaped
    (unit dimensions only) to the replaced shape.

    A last-axis `tensor.extract_slice` of a raised bias becomes the
    `posenc.alibi` of the sliced key positions: MPT's
    `slope * arange(1 - max_seq_len, 1)[-Sk:]`, i.e. `slope * (j - (Sk - 1))`,
    is `key_linear` with constant `k_positions` `[1 - Sk, ..., 0]`. In
    attention logits such a bias differs from `slope * j` by `slope * c`, the
    same for every key of a row, which softmax cancels (exactly in real
    arithmetic), so posenc-raise-attention takes it as its implicit `j`.

    Cleanup that MLIR's dead-code elimination cannot do: a `tm_tensor.scan`
    cumulative sum left without users is erased (TMTensor is not registered,
    so the op arrives in generic form and is matched by name; MLIR keeps
    unregistered ops as it cannot know they have no side effects), and so is
    a generic without users whose only side effects are `cf.assert` guards
    that hold at every point (MPT's slope computation).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::posenc::PosEncDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"printStats", "print-stats", "bool", /*default=*/"false",
           "Print to stderr how many instances of each idiom were raised "
           "(MLIR's -mlir-pass-statistics counts nothing in release builds "
           "of LLVM)">
  ];
}

def PosEncRaiseAbsolute : Pass<"posenc-raise-absolute"> {
  let summary = "Raise absolute position embeddings into "
                "posenc.learned_absolute and posenc.sinusoidal";
  let description = [{
    Recognizes absolute position embeddings as importers emit them:

    - learned: `x + table[positions]`, an elementwise `arith.addf` (either
      operand order) of `x` and the embedding gather, a `linalg.generic`
      over `[..., S, D]` whose element is `tensor.extract %table[%pos, d]`
      with `%pos` its integer input (through `index_cast`/`extsi`) and `d`
      the last iteration index. Constant additions to the row become the
      `offset`; positions that are an `arange` become the implicit
      `offset + s`, other positions (`[S]` or `[B, S]`) the `positions`
      operand. The gather's bounds `cf.assert`s (`0 <= pos < P`) are
      dropped: `posenc.learned_absolute` checks the same bounds (in its
      verifier when the positions are static, by a runtime assert in its
      lowering otherwise). A gather with any other assert, a transposed or
      shifted column, or a row computed otherwise is left alone. Ids that
      are not an `arange` are taken for positions only when the gather has
      no other use (a token embedding that is also a residual, as in
      pre-norm models, stays) and not every token reads the same row (token
      types). When both operands qualify (token and position embeddings),
      the one indexed by an `arange`, else the second, is the position
      embedding. ONNX's Gather of `[B, S]` rows arrives flattened,
      `expand(gather(table, collapse(P)))`: where it is added, it becomes
      the gather over `P` (the same elements) first.
    - sinusoidal: a `[P, d]` table computed from constants (usually one
      constant) whose row `r` equals the `interleaved` or `concatenated`
      encoding of position `r` for base 10000, or for the base its second
      frequency implies, within the rounding of an f32 computation of it:
      `4u * (1 + |angle| * (2 + |ln inv_freq|))` with `u` the unit roundoff
      of the element type (2^-24 for f32), which torch's tables meet with a
      margin of 3 and a base off by 1 or a swapped layout misses.
      Rows `[k, k + S)` of it sliced and added to embeddings become
      `posenc.sinusoidal offset(k)` (computed in f64, rounded once); as the
      table of a `posenc.learned_absolute` (a gather by positions) it
      becomes a `posenc.sinusoidal` of `[P, d]`.

    `print-stats` counts raised gathers (`raised-learned-absolute`) and
    tables (`raised-sinusoidal`); a gathered sinusoidal table counts in both.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::posenc::PosEncDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"printStats", "print-stats", "bool", /*default=*/"false",
           "Print to stderr how many instances of each idiom were raised "
           "(MLIR's -mlir-pass-statistics counts nothing in release builds "
           "of LLVM)">
  ];
}

def PosEncRaiseAttention : Pass<"posenc-raise-attention"> {
  let summary = "Raise decomposed scaled dot-product attention into "
                "posenc.attention";
  let description = [{
    Recognizes `softmax(Q K^T * scale + terms) V` as importers emit it:
    `linalg.batch_matmul` over collapsed batch/head dimensions; the key
    transpose (`[0, 1, 3, 2]` of `[B, H, S, D]`, `[0, 2, 3, 1]` of
    `[B, S, H, D]`, or `[0, 2, 1]` of the collapsed keys as in BLOOM's
    baddbmm); scalar scale multiplies or divides of the logits, or of Q and
    K^T (SDPA's decomposition applies `sqrt(scale)` to each); additive terms
    on the `[B, H, Sq, Sk]` logits or the `[B*H, Sq, Sk]` scores (B = 1);
    `masked_fill` selects; a last-dimension softmax (max, subtract, exp, sum,
    divide; eager PyTorch also tracks an argmax that nothing reads), SDPA's
    guard that zeroes fully masked rows (posenc.attention gives 0 there), and
    gpt-oss's attention sinks (a per-head logit column appended before the
    softmax and dropped after it: the `sinks` operand); then the second
    batch matmul. GQA's `repeat_kv` (a broadcast over a new group axis
    collapsed into the head axis, before or after the head transpose) is
    read through, so K/V keep their `Hkv` heads.

    Terms it can express: a causal mask (constant, or computed from
    constants: comparisons of broadcast aranges, selects; evaluated and
    compared with bottom-right causality; values at or below -1e30 mask),
    causal with a sliding window (`window(<left = L>)`, L read off the rows:
    HF's `sliding_window` W is L = W - 1) or with chunks (`chunk_size(C)`),
    each checked on every row, an all-zero mask (dropped), Gemma 2's
    soft-cap `tanh(s / c) * c` of the scaled scores (`softcap(c)`; masks and
    ALiBi must be added after it, the scale applied before it), Llama 4's
    query temperature (q of `[B, S, H, D]` times a constant table
    `log(floor((s + 1) / f) + 1) * a + 1` before the head transpose, Sq =
    Sk: `query_temperature`, f an integer read off the table, every entry
    checked), and a
    `posenc.alibi` bias (raised by posenc-raise-alibi) with the attention's
    positions; a key-linear bias may have key positions `c + j` (MPT's
    `j - (Sk - 1)`): the attention uses `j`, which changes every logit of a
    row by the same `slope * c`, cancelled by softmax (exactly in real
    arithmetic).

    HF's padding mask (issue 24): `where(mask, 0, fill)` over `[B, 1, Sq, Sk]`
    with `mask` computed from constants and one `[B, Sk]` i1 tensor that is
    not constant (`attention_mask != 0`), every element of `mask` either
    false (a positional mask, the same in every sequence, classified as
    above) or that tensor's entry for the element's own sequence and key
    (checked by evaluating `mask` with the tensor as a symbol), becomes
    `key_mask` (the integer `attention_mask` itself when the i1 tensor is
    its `!= 0`). A query whose keys are all padding gives 0 in
    posenc.attention; SDPA's guard does the same, eager attention (a finite
    fill) averages V: without the guard the mask is raised only with
    `zero-padding-rows`. Any other term (a learned bias) leaves the
    attention decomposed.

    At dynamic sequence lengths (batch and heads static) only padding
    masks are read, symbolically: the element at logit `(b, h, i, j)` as
    a formula over aranges, comparisons and `and`s that must be exactly
    `keys[b, j]`, optionally with `i - j >= 0` (causal, Sq = Sk proven)
    and `j - i + L >= 0` (window L); the other terms need static lengths.
  }];
  let dependentDialects = ["::mlir::posenc::PosEncDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"zeroPaddingRows", "zero-padding-rows", "bool", /*default=*/"false",
           "Also raise padding masks of attentions without SDPA's masked-row "
           "guard: a query whose keys are all padding then gives 0, where "
           "PyTorch's eager attention averages V (only padding queries)">,
    Option<"printStats", "print-stats", "bool", /*default=*/"false",
           "Print to stderr how many instances of each idiom were raised "
           "(MLIR's -mlir-pass-statistics counts nothing in release builds "
           "of LLVM)">
  ];
}

def PosEncFuseAttention : Pass<"posenc-fuse-attention"> {
  let summary = "Fuse the rotary embeddings of Q and K into posenc.attention";
  let description = [{
    `posenc.attention(posenc.rotary(q), posenc.rotary(k), v)` with both
    rotaries of the same layout, rotary dimension, frequencies, attention
    factor and token axis, whose positions agree with the attention's
    (implicit `offset + s` with the attention's alignment, or one positions
    tensor for both), becomes one `posenc.attention` carrying the rotary
    configuration: the lowering then rotates Q and K tiles inside the kernel
    instead of writing rotated copies to memory.
  }];
  let dependentDialects = ["::mlir::posenc::PosEncDialect"];
  let options = [
    Option<"printStats", "print-stats", "bool", /*default=*/"false",
           "Print to stderr how many instances of each idiom were raised "
           "(MLIR's -mlir-pass-statistics counts nothing in release builds "
           "of LLVM)">
  ];
}

#endif // POSENC_RAISING_PASSES_TD
