//===- PosEncOps.td - posenc operations --------------------*- tablegen -*-===//

#ifndef POSENC_IR_POSENCOPS_TD
#define POSENC_IR_POSENCOPS_TD

include "posenc/IR/PosEncAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ValueBoundsOpInterface.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def PosEnc_FloatElement : AnyTypeOf<[F32, F16, BF16]>;
def PosEnc_FloatTensor : RankedTensorOf<[F32, F16, BF16]>;
def PosEnc_FreqTensor : 1DTensorOf<[F32, F64]>;
def PosEnc_IndexTensor : RankedTensorOf<[I32, I64, Index]>;
// Positions, offsets and lengths are 64-bit quantities (index): wider
// integers could not be folded, checked or lowered without truncation.
// Narrower ones are sign-extended; i1 is not taken, since its `true` would
// sign-extend to -1 (a rotation by -1, a length of -1), never what a boolean
// meant.
def PosEnc_SignlessIntAtMost64 : Type<
    CPred<"$_self.isSignlessInteger() && "
          "$_self.getIntOrFloatBitWidth() >= 2 && "
          "$_self.getIntOrFloatBitWidth() <= 64">,
    "signless integer of 2 to 64 bits", "::mlir::IntegerType">;
def PosEnc_IntOrIndex : AnyTypeOf<[PosEnc_SignlessIntAtMost64, Index]>;
def PosEnc_RopeScaling : Attr<
    CPred<"::llvm::isa<::mlir::posenc::RopeScalingAttrInterface>($_self)">,
    "RoPE frequency-scaling attribute"> {
  let storageType = "::mlir::posenc::RopeScalingAttrInterface";
  let returnType = "::mlir::posenc::RopeScalingAttrInterface";
  let convertFromStorage = "$_self";
}

//===----------------------------------------------------------------------===//
// posenc.rope_frequencies
//===----------------------------------------------------------------------===//

def PosEnc_RopeFrequenciesOp : PosEnc_Op<"rope_frequencies", [Pure]> {
  let summary = "RoPE inverse frequencies and attention factor of a scheme";
  let description = [{
    Computes `inv_freq[i]`, `i in [0, rotary_dim/2)`, and the attention factor
    (which multiplies cos and sin) for base `base` and an optional scaling
    scheme. Without `scaling`, `inv_freq[i] = base^(-2i/rotary_dim)` and the
    factor is 1. Schemes that depend on the runtime sequence length (dynamic
    NTK with `rule = hf`, LongRoPE with `select = hf`) take it as `seq_len`;
    other schemes must not.

    The result may be `f64` so that long-context angles can be formed in
    extended precision downstream; with `f32` results, consumers form the
    angle as one f32 product, bit-matching HF transformers.

    Folding: when the scheme is static (or `seq_len` is a constant), the op
    folds to constants computed in fp64 and rounded once to the result type.

    ```mlir
    %inv, %af = posenc.rope_frequencies dim 128 base 5.000000e+05
        scaling(#posenc.llama3<factor = 8.000000e+00,
                               original_max_position_embeddings = 8192>)
        : tensor<64xf32>, f32
    ```
  }];
  let arguments = (ins
    ConfinedAttr<I64Attr, [IntPositive]>:$rotary_dim,
    F64Attr:$base,
    OptionalAttr<PosEnc_RopeScaling>:$scaling,
    Optional<PosEnc_IntOrIndex>:$seq_len);
  let results = (outs PosEnc_FreqTensor:$inv_freq, F32:$attention_factor);
  let hasFolder = 1;
  let assemblyFormat = [{
    `dim` $rotary_dim `base` $base (`scaling` `(` $scaling^ `)`)?
    (`seq_len` `(` $seq_len^ `:` type($seq_len) `)`)?
    attr-dict `:` type($inv_freq) `,` type($attention_factor)
  }];
}

//===----------------------------------------------------------------------===//
// posenc.rotary
//===----------------------------------------------------------------------===//

def PosEnc_RotaryOp : PosEnc_Op<"rotary", [Pure, AttrSizedOperandSegments,
    AllTypesMatch<["input", "result"]>,
    DeclareOpInterfaceMethods<ValueBoundsOpInterface,
                              ["populateBoundsForShapedValueDim"]>]> {
  let summary = "apply rotary position embedding (RoPE)";
  let description = [{
    Rotates the first `rotary_dim` channels of the last dimension of `input`
    (head_dim `D`) pairwise by angle `pos * inv_freq[i]`; channels
    `[rotary_dim, D)` pass through unchanged. With `layout = half_split`, pair
    `i` is channels `(i, i + rotary_dim/2)`; with `interleaved`, `(2i, 2i+1)`:

    ```
    out1 = x1 * cos - x2 * sin,   out2 = x2 * cos + x1 * sin
    cos = cos(angle) * attention_factor,  sin = sin(angle) * attention_factor
    ```

    Token axis: dimension `token_dim` of `input` (default `rank - 2`, i.e.
    `[B, H, S, D]`; use `token_dim = 1` for `[B, S, H, D]`, `0` for vLLM's
    `[T, H, D]`). Position of token `s`:
    - without `positions`: `offset + s` (`offset` defaults to 0; a KV-cache
      offset for decode);
    - with `positions` of shape `[S]`: `positions[s] + offset`, shared by every
      batch entry and head;
    - with `positions` of shape `[B, S]` (`B` = dimension 0 of `input`,
      `token_dim > 0`): per-sequence positions.

    Frequencies come from exactly one source: `inv_freq` (`tensor<rotary_dim/2
    x f32|f64>`, from `posenc.rope_frequencies` or any runtime tensor, e.g.
    learned or searched schedules), or precomputed half-width tables
    `cos_sin(%cos, %sin)` of shape `[T, rotary_dim/2]` whose row `pos` is used
    (attention factor already applied).

    M-RoPE: with `mrope_sections` (`k` entries summing to `rotary_dim/2`),
    `positions` gains a leading axis of size `k` and pair `i` takes its
    position from the axis selected by `mrope_layout`.

    Arithmetic is f32 (angles in the precision of `inv_freq`); the result has
    the element type of `input`.

    ```mlir
    %q2 = posenc.rotary %q half_split dim 128 inv_freq(%inv : tensor<64xf32>)
        positions(%pos : tensor<1x?xi64>) attention_factor(%af)
        : tensor<1x32x?x128xbf16>
    ```
  }];
  let arguments = (ins
    PosEnc_FloatTensor:$input,
    Optional<PosEnc_FreqTensor>:$inv_freq,
    Optional<PosEnc_FloatTensor>:$cos,
    Optional<PosEnc_FloatTensor>:$sin,
    Optional<PosEnc_IndexTensor>:$positions,
    Optional<PosEnc_IntOrIndex>:$offset,
    Optional<F32>:$attention_factor,
    PosEnc_RotaryLayoutAttr:$layout,
    ConfinedAttr<I64Attr, [IntPositive]>:$rotary_dim,
    OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$token_dim,
    OptionalAttr<DenseI64ArrayAttr>:$mrope_sections,
    OptionalAttr<PosEnc_MRopeLayoutAttr>:$mrope_layout);
  let results = (outs PosEnc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `` $layout `dim` $rotary_dim
    oilist(`inv_freq` `(` $inv_freq `:` type($inv_freq) `)`
         | `cos_sin` `(` $cos `,` $sin `:` type($cos) `,` type($sin) `)`
         | `positions` `(` $positions `:` type($positions) `)`
         | `offset` `(` $offset `:` type($offset) `)`
         | `attention_factor` `(` $attention_factor `)`)
    attr-dict `:` type($input)
  }];
  let extraClassDeclaration = [{
    /// The token axis of `input`.
    int64_t getTokenAxis();
  }];
}

//===----------------------------------------------------------------------===//
// posenc.alibi
//===----------------------------------------------------------------------===//

def PosEnc_AlibiOp : PosEnc_Op<"alibi", [Pure, AttrSizedOperandSegments]> {
  let summary = "ALiBi attention bias";
  let description = [{
    Produces the bias `[B?, H, Sq, Sk]` added to already-scaled attention
    logits. Slopes come from `#posenc.alibi_slopes` (global head count, shard
    offset, max_bias) or an explicit `slopes` tensor of shape `[H]`, f32.

    Positions: `q_positions` (`[Sq]` or `[B, Sq]`) default to `i + Sk - Sq`
    with `alignment = bottom_right` (default) or `i` with `top_left`;
    `k_positions` (`[Sk]` or `[B, Sk]`, e.g. BLOOM's padding-aware positions)
    default to `j`. Form `symmetric` (default): `-m * |q_pos - k_pos|`;
    `key_linear`: `m * k_pos`. The distance `|q_pos - k_pos|` is exact for
    every pair of i64 positions (formed as an unsigned 64-bit integer, up to
    2^64 - 1) and rounded to f32 once, as is `k_pos`.

    ```mlir
    %b = posenc.alibi key_linear slopes(<num_heads = 12>)
        : tensor<12x128x128xf32>
    ```
  }];
  let arguments = (ins
    Optional<1DTensorOf<[F32]>>:$slopes,
    Optional<PosEnc_IndexTensor>:$q_positions,
    Optional<PosEnc_IndexTensor>:$k_positions,
    OptionalAttr<PosEnc_AlibiSlopesAttr>:$config,
    DefaultValuedAttr<PosEnc_AlibiFormAttr, "AlibiForm::symmetric">:$form,
    DefaultValuedAttr<PosEnc_AlignmentAttr, "Alignment::bottom_right">:$alignment);
  let results = (outs PosEnc_FloatTensor:$result);
  let assemblyFormat = [{
    `` $form `slopes` `(` custom<SlopeSource>($config, $slopes, type($slopes)) `)`
    oilist(`q_positions` `(` $q_positions `:` type($q_positions) `)`
         | `k_positions` `(` $k_positions `:` type($k_positions) `)`)
    attr-dict `:` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// posenc.sinusoidal
//===----------------------------------------------------------------------===//

def PosEnc_SinusoidalOp : PosEnc_Op<"sinusoidal", [Pure, AttrSizedOperandSegments]> {
  let summary = "sinusoidal absolute position table";
  let description = [{
    Produces `[P, d]` (or `[B, S, d]` for per-sequence positions) rows of the
    sinusoidal encoding of Vaswani et al. (`layout = interleaved`) or
    tensor2tensor/fairseq (`layout = concatenated`, one zero column when `d`
    is odd); see `SinusoidalLayout`. Row `r` encodes position
    `positions[r] + offset`, or `r + offset` without `positions` (fairseq uses
    `offset = padding_idx + 1`). `base` is the maximum timescale (10000).

    ```mlir
    %t = posenc.sinusoidal interleaved : tensor<1024x512xf32>
    ```
  }];
  let arguments = (ins
    Optional<PosEnc_IndexTensor>:$positions,
    Optional<PosEnc_IntOrIndex>:$offset,
    PosEnc_SinusoidalLayoutAttr:$layout,
    DefaultValuedAttr<F64Attr, "10000.0">:$base);
  let results = (outs PosEnc_FloatTensor:$result);
  let assemblyFormat = [{
    `` $layout
    oilist(`positions` `(` $positions `:` type($positions) `)`
         | `offset` `(` $offset `:` type($offset) `)`)
    attr-dict `:` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// posenc.learned_absolute
//===----------------------------------------------------------------------===//

// Not speculatable: an out-of-table position is a runtime error.
def PosEnc_LearnedAbsoluteOp : PosEnc_Op<"learned_absolute", [NoMemoryEffect,
    AttrSizedOperandSegments, AllTypesMatch<["input", "result"]>,
    DeclareOpInterfaceMethods<ValueBoundsOpInterface,
                              ["populateBoundsForShapedValueDim"]>]> {
  let summary = "add a learned absolute position embedding";
  let description = [{
    `result[..., s, :] = input[..., s, :] + table[pos(s), :]` with `input` of
    shape `[..., S, D]`, `table` `[P, D]` and `pos(s)` as in `posenc.rotary`
    (`positions[s]` or `positions[b, s]`, plus `offset`; `offset + s`
    without positions). Absolute schemes cannot extrapolate: a position
    outside `[0, P)` is rejected by the verifier when it is static, and is a
    runtime error (never a silent out-of-bounds read) when it is dynamic.

    ```mlir
    %y = posenc.learned_absolute %x, %wpe : tensor<2x128x768xf32>, tensor<1024x768xf32>
    ```
  }];
  let arguments = (ins
    PosEnc_FloatTensor:$input,
    PosEnc_FloatTensor:$table,
    Optional<PosEnc_IndexTensor>:$positions,
    Optional<PosEnc_IntOrIndex>:$offset);
  let results = (outs PosEnc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $table
    oilist(`positions` `(` $positions `:` type($positions) `)`
         | `offset` `(` $offset `:` type($offset) `)`)
    attr-dict `:` type($input) `,` type($table)
  }];
}

//===----------------------------------------------------------------------===//
// posenc.attention
//===----------------------------------------------------------------------===//

def PosEnc_AttentionOp : PosEnc_Op<"attention", [Pure, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<ValueBoundsOpInterface,
                              ["populateBoundsForShapedValueDim"]>]> {
  let summary = "scaled dot-product attention with positional encodings";
  let description = [{
    `q: [B, Hq, Sq, D]`, `k: [B, Hkv, Sk, D]`, `v: [B, Hkv, Sk, Dv]` ->
    `[B, Hq, Sq, Dv]`; query head `h` reads kv head `h / (Hq / Hkv)` (GQA/MQA,
    `Hq` a multiple of `Hkv`). Sequence lengths may be dynamic; head counts
    and head dims must be static (the lowering resolves the GQA group size
    `Hq / Hkv` when it is built) and > 0. `scale`, when given, must be finite
    and > 0.

    ```
    q_pos = q_positions or (i + Sk - Sq | i per `alignment`); k_pos = k_positions or j
    q, k  <- RoPE(q, q_pos), RoPE(k, k_pos)        if `rope` (inv_freq, attention_factor)
    q_pos, k_pos = (i + Sk - Sq | i), j            if `rope_only_positions` (below)
    t     = log(max(floor((q_pos + 1) / f), 0) + 1) * a + 1   if `query_temperature`
    s     = (q . k) * scale * t                    scale defaults to 1/sqrt(D)
    s     = softcap * tanh(s / softcap)            if `softcap`
    s     = s + alibi(q_pos, k_pos)
    s     = -inf where k_pos > q_pos               if `causal`
    s     = -inf where k_pos < q_pos - left        if `window`
            or k_pos > q_pos + right               (`right` given)
    s     = -inf where floor(k_pos / chunk_size)   if `chunk_size`
                    != floor(q_pos / chunk_size)
    s     = -inf where j >= key_lengths[b]         if `key_lengths`
    s     = -inf where key_mask[b, j] == 0         if `key_mask`
    out   = softmax(s) @ v                         without `sinks`
    out_i = sum_j p_ij v_j,                        with `sinks` (query head h):
            p_ij = exp(s_ij - m) / (exp(sinks[h] - m) + sum_j exp(s_ij - m)),
            m    = max(sinks[h], max_j s_ij)
    ```

    The masks are positional: `window` (`#posenc.window`, inclusive extents
    `left`/`right` in positions; a local attention such as Mistral's or
    Gemma 2's), `chunk_size` (Llama 4's chunked attention: a query sees only
    the keys of its own chunk of positions; floor division, so negative
    positions form chunks too) and `causal` combine, and with KV-cache
    offsets, decode and explicit positions they apply to positions, not
    indices. With `rope_only_positions`, `q_positions` and `k_positions`
    drive RoPE alone and everything else reads the default (index)
    positions: HF rotates by `position_ids` (gaps after left padding) and
    masks by cache index. `softcap` (> 0, finite) is Gemma 2's logit soft-capping, after
    the scale and before ALiBi and the masks. `query_temperature` is Llama
    4's temperature tuning (`#posenc.query_temperature`).

    ALiBi slopes come from `alibi = #posenc.alibi_slopes<...>` or an
    `alibi_slopes` operand of shape `[Hq]`, with `alibi_form` as in
    `posenc.alibi`.

    `key_lengths` (`[B]`, i32, i64 or index) is each sequence's number of
    valid keys, as in FlashAttention's varlen or ONNX Runtime's `seqlens_k`
    (a right-padded batch): keys at indices `j >= key_lengths[b]` are masked
    (a length above Sk lets every key through, a length <= 0 none). It masks
    by key index and leaves positions alone: a decode step whose sequences
    end at different positions passes them as `q_positions`. The lowerings
    never visit the keys past a sequence's length.

    `key_mask` (`[B, Sk]`, i1, i8, i32 or i64) is HF's `attention_mask`: keys
    whose entry is 0 are masked for every query and head of their sequence
    (left padding, or any padding), on top of the other masks. Like
    `key_lengths` it masks by key index and leaves positions alone.

    `sinks` (`[Hq]`, f32) are attention sinks as in gpt-oss: per query head a
    learned logit appended to every row of `s` as an extra key column, after
    scaling, ALiBi and the mask; the softmax runs over `Sk + 1` columns and
    the sink column is dropped (it has no value row), so a row's weights sum
    to less than 1. A row whose keys are all masked gives 0, with or without
    sinks.

    ```mlir
    %o = posenc.attention %q, %k, %v causal
        rope(#posenc.rope<layout = half_split, rotary_dim = 128>, %inv : tensor<64xf32>)
        : tensor<1x32x?x128xf32>, tensor<1x8x?x128xf32>, tensor<1x8x?x128xf32>
        -> tensor<1x32x?x128xf32>
    ```
  }];
  let arguments = (ins
    PosEnc_FloatTensor:$query,
    PosEnc_FloatTensor:$key,
    PosEnc_FloatTensor:$value,
    Optional<PosEnc_FreqTensor>:$inv_freq,
    Optional<F32>:$attention_factor,
    Optional<1DTensorOf<[F32]>>:$alibi_slopes,
    Optional<PosEnc_IndexTensor>:$q_positions,
    Optional<PosEnc_IndexTensor>:$k_positions,
    Optional<1DTensorOf<[F32]>>:$sinks,
    Optional<1DTensorOf<[I32, I64, Index]>>:$key_lengths,
    Optional<2DTensorOf<[I1, I8, I32, I64]>>:$key_mask,
    OptionalAttr<F64Attr>:$scale,
    UnitAttr:$causal,
    UnitAttr:$rope_only_positions,
    OptionalAttr<PosEnc_WindowAttr>:$window,
    OptionalAttr<I64Attr>:$chunk_size,
    OptionalAttr<F64Attr>:$softcap,
    OptionalAttr<PosEnc_QueryTemperatureAttr>:$query_temperature,
    OptionalAttr<PosEnc_RopeAttr>:$rope,
    OptionalAttr<PosEnc_AlibiSlopesAttr>:$alibi,
    DefaultValuedAttr<PosEnc_AlibiFormAttr, "AlibiForm::symmetric">:$alibi_form,
    DefaultValuedAttr<PosEnc_AlignmentAttr, "Alignment::bottom_right">:$alignment);
  let results = (outs PosEnc_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value
    oilist(`scale` `(` $scale `)`
         | `causal` $causal
         | `window` `(` custom<ClauseAttr>($window) `)`
         | `chunk_size` `(` $chunk_size `)`
         | `softcap` `(` $softcap `)`
         | `query_temperature` `(` custom<ClauseAttr>($query_temperature) `)`
         | `rope` `(` custom<ClauseAttr>($rope) `,` $inv_freq `:` type($inv_freq)
                  (`,` $attention_factor^)? `)`
         | `alibi` `(` custom<SlopeSource>($alibi, $alibi_slopes,
                                         type($alibi_slopes)) `)`
         | `q_positions` `(` $q_positions `:` type($q_positions) `)`
         | `k_positions` `(` $k_positions `:` type($k_positions) `)`
         | `rope_only_positions` $rope_only_positions
         | `sinks` `(` $sinks `:` type($sinks) `)`
         | `key_lengths` `(` $key_lengths `:` type($key_lengths) `)`
         | `key_mask` `(` $key_mask `:` type($key_mask) `)`)
    attr-dict `:` type($query) `,` type($key) `,` type($value)
    `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// The softmax scale: `scale` if given, else 1/sqrt(head_dim).
    double getScaleOrDefault();
    /// The positions the logit rule (masks, ALiBi, temperature) reads: the
    /// operands, or null (index positions) with `rope_only_positions`.
    Value getLogitQPositions() {
      return getRopeOnlyPositions() ? Value() : getQPositions();
    }
    Value getLogitKPositions() {
      return getRopeOnlyPositions() ? Value() : getKPositions();
    }
  }];
}

#endif // POSENC_IR_POSENCOPS_TD
