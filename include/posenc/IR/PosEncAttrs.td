//===- PosEncAttrs.td - posenc attributes ------------------*- tablegen -*-===//

#ifndef POSENC_IR_POSENCATTRS_TD
#define POSENC_IR_POSENCATTRS_TD

include "posenc/IR/PosEncBase.td"
include "posenc/IR/PosEncEnums.td"
include "posenc/IR/PosEncInterfaces.td"

//===----------------------------------------------------------------------===//
// Parameter kinds
//===----------------------------------------------------------------------===//

// A real-valued parameter, printed as a float literal.
// `Real` is a hashable double (see PosEncAttrs.h).
class PosEnc_F64Param<string default = "", string desc = "">
    : AttrParameter<"::mlir::posenc::Real", desc> {
  let defaultValue = default;
  let comparator = "$_lhs == ::mlir::posenc::Real($_rhs)";
  let printer = "$_printer << static_cast<double>($_self)";
}

// A real-valued parameter that may be absent (e.g. an explicit override).
class PosEnc_OptF64Param<string desc = "">
    : OptionalParameter<"std::optional<::mlir::posenc::Real>", desc> {
  let printer = "$_printer << static_cast<double>(*$_self)";
}

// A non-empty list of reals, printed `[1.0, 2.0]`.
class PosEnc_F64ArrayParam<string desc = "">
    : ArrayRefParameter<"::mlir::posenc::Real", desc> {
  let parser = "::mlir::posenc::parseRealArray($_parser)";
  let printer = "::mlir::posenc::printRealArray($_printer, $_self)";
}

class PosEnc_BoolParam<string default, string desc = "">
    : AttrParameter<"bool", desc> {
  let defaultValue = default;
  let parser = "::mlir::posenc::parseBoolKeyword($_parser)";
  let printer = "$_printer << ($_self ? \"true\" : \"false\")";
}

// A scaling scheme: implements RopeScalingAttrInterface in
// lib/IR/RopeScaling.cpp. Every scheme computes its table
// (`computeFrequencies`); `overrides` names the interface methods whose
// default implementation the scheme replaces.
class PosEnc_ScalingAttr<string name, string mnemonic,
                         list<string> overrides = []>
    : PosEnc_Attr<name, mnemonic, [DeclareAttrInterfaceMethods<
          PosEnc_RopeScalingAttrInterface,
          !listconcat(["computeFrequencies"], overrides)>]> {
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// RoPE frequency scaling schemes
//===----------------------------------------------------------------------===//

def PosEnc_LinearAttr : PosEnc_ScalingAttr<"Linear", "linear"> {
  let summary = "linear scaling / position interpolation";
  let description = [{
    `inv_freq[i] = base^(-2i/d) / factor` (HF `linear`, vLLM
    `LinearScalingRotaryEmbedding`, llama.cpp `freq_scale = 1/factor`).

    ```mlir
    #posenc.linear<factor = 4.000000e+00>
    ```
  }];
  let parameters = (ins PosEnc_F64Param<"", "scaling factor s > 0">:$factor);
}

def PosEnc_NtkAttr : PosEnc_ScalingAttr<"Ntk", "ntk", ["verifyRotaryDim"]> {
  let summary = "static NTK-aware scaling";
  let description = [{
    `form = hf` (default): `base' = base * s^(d/(d-2))`, then default
    frequencies. `form = vllm`: `inv[i] = (base*s)^(-2i/d) / s^(2/d)`. `d` is
    the rotary dimension (must exceed 2).

    ```mlir
    #posenc.ntk<factor = 4.000000e+00, form = vllm>
    ```
  }];
  let parameters = (ins
    PosEnc_F64Param<"", "scaling factor s > 0">:$factor,
    DefaultValuedParameter<"NtkForm", "NtkForm::hf",
                           "which published formula">:$form);
}

def PosEnc_DynamicNtkAttr : PosEnc_ScalingAttr<"DynamicNtk", "dynamic_ntk",
    ["needsSeqLen", "verifyRotaryDim", "getCriticalSeqLens",
     "buildRuntimeFrequencies"]> {
  let summary = "dynamic NTK-aware scaling";
  let description = [{
    `base' = base * (s * L / max_position_embeddings - (s - 1))^(d/(d-2))`.
    With `rule = hf` (default), `L = max(seq_len, max_position_embeddings)`
    where `seq_len` is the runtime operand of `posenc.rope_frequencies`, so
    the scheme is inactive up to `max_position_embeddings`. With
    `rule = vllm_legacy`, `L = s * max_position_embeddings` statically.

    ```mlir
    #posenc.dynamic_ntk<factor = 2.000000e+00, max_position_embeddings = 4096>
    ```
  }];
  let parameters = (ins
    PosEnc_F64Param<"", "scaling factor s > 0">:$factor,
    "int64_t":$max_position_embeddings,
    DefaultValuedParameter<"DynamicNtkRule", "DynamicNtkRule::hf",
                           "which sequence length drives the base">:$rule);
}

def PosEnc_YarnAttr : PosEnc_ScalingAttr<"Yarn", "yarn"> {
  let summary = "YaRN scaling";
  let description = [{
    Blends interpolated (`inv/s`) and original frequencies over the pair index
    with a linear ramp between the correction dimensions of `beta_fast` and
    `beta_slow` computed on `original_max_position_embeddings`; `truncate`
    floors/ceils the correction range (HF v5 default `true`; gpt-oss `false`).

    Attention factor: `attention_factor` when given; else
    `get_mscale(s, mscale) / get_mscale(s, mscale_all_dim)` when both are
    given and non-zero; else `0.1 ln(s) + 1` (1 for `s <= 1`).

    `s` is `factor` (`factor_rule = explicit`, HF v5) or, with
    `factor_rule = context_ratio` (HF v4.5x), `max_position_embeddings /
    original_max_position_embeddings` (then `max_position_embeddings` is
    required).

    ```mlir
    #posenc.yarn<factor = 4.000000e+00, original_max_position_embeddings = 32768>
    ```
  }];
  let parameters = (ins
    PosEnc_F64Param<"", "scaling factor s > 0">:$factor,
    "int64_t":$original_max_position_embeddings,
    PosEnc_F64Param<"32.0", "fast correction boundary">:$beta_fast,
    PosEnc_F64Param<"1.0", "slow correction boundary">:$beta_slow,
    PosEnc_BoolParam<"true", "floor/ceil the correction range">:$truncate,
    PosEnc_OptF64Param<"DeepSeek mscale">:$mscale,
    PosEnc_OptF64Param<"DeepSeek mscale_all_dim">:$mscale_all_dim,
    PosEnc_OptF64Param<"explicit attention factor">:$attention_factor,
    DefaultValuedParameter<"YarnFactorRule", "YarnFactorRule::explicit_factor",
                           "HF v5 explicit factor or HF v4.5x context ratio">:$factor_rule,
    OptionalParameter<"std::optional<int64_t>",
                      "context for factor_rule = context_ratio">:$max_position_embeddings);
  let extraClassDeclaration = [{
    /// The scale factor s the scheme uses (see factor_rule).
    double getScale() const;
  }];
}

def PosEnc_Llama3Attr : PosEnc_ScalingAttr<"Llama3", "llama3"> {
  let summary = "Llama 3 wavelength-banded scaling";
  let description = [{
    With `wl = 2*pi/inv`, `low_wl = L/low_freq_factor`, `high_wl =
    L/high_freq_factor` (`L = original_max_position_embeddings`): keep `inv`
    for `wl < high_wl`, use `inv/s` for `wl > low_wl`, and in between
    `(1-sm)*inv/s + sm*inv` with `sm = (L/wl - low)/(high - low)` (`sm = 0`
    when `low == high`, as vLLM). Attention factor 1.

    ```mlir
    #posenc.llama3<factor = 8.000000e+00, original_max_position_embeddings = 8192>
    ```
  }];
  let parameters = (ins
    PosEnc_F64Param<"", "scaling factor s > 0">:$factor,
    PosEnc_F64Param<"1.0", "low frequency factor">:$low_freq_factor,
    PosEnc_F64Param<"4.0", "high frequency factor">:$high_freq_factor,
    "int64_t":$original_max_position_embeddings);
}

def PosEnc_LongRopeAttr : PosEnc_ScalingAttr<"LongRope", "longrope",
    ["needsSeqLen", "verifyRotaryDim", "getCriticalSeqLens",
     "getScalingParameter", "buildRuntimeFrequencies"]> {
  let summary = "LongRoPE per-pair rescaling (Phi-3 `su`/`longrope`)";
  let description = [{
    `inv[i] = 1 / (f[i] * base^(2i/d))` where `f` is `long_factor` or
    `short_factor` (each of length `d/2`), chosen by `select`: `hf` picks long
    iff the runtime `seq_len` exceeds `original_max_position_embeddings`;
    `short` / `long` fix the choice statically. Attention factor:
    `attention_factor` when given, else `sqrt(1 + ln(s)/ln(L))` with
    `s = max_position_embeddings / L` (1 when `s <= 1`).

    ```mlir
    #posenc.longrope<short_factor = [1.0, 1.0], long_factor = [1.5, 4.0],
                     original_max_position_embeddings = 4096,
                     max_position_embeddings = 131072>
    ```
  }];
  let parameters = (ins
    PosEnc_F64ArrayParam<"factors used up to the original context">:$short_factor,
    PosEnc_F64ArrayParam<"factors used beyond it">:$long_factor,
    "int64_t":$original_max_position_embeddings,
    "int64_t":$max_position_embeddings,
    PosEnc_OptF64Param<"explicit attention factor">:$attention_factor,
    DefaultValuedParameter<"LongRopeSelect", "LongRopeSelect::hf",
                           "short/long selection rule">:$select);
}

//===----------------------------------------------------------------------===//
// Configurations carried by posenc.attention and posenc.alibi
//===----------------------------------------------------------------------===//

def PosEnc_AlibiSlopesAttr : PosEnc_Attr<"AlibiSlopes", "alibi_slopes"> {
  let summary = "ALiBi slopes derived from the global head count";
  let description = [{
    Slope of global head `h` (0-based), `n = num_heads`, `b = max_bias`,
    `c = 2^floor(log2 n)`: `2^(-b(h+1)/c)` for `h < c`, else
    `2^(-b(2(h-c)+1)/(2c))`. This is Press et al.'s `get_slopes`, BLOOM's
    `build_alibi_tensor`, MPT's `gen_slopes` and llama.cpp's rule (identical
    for `b = 8`). A tensor-parallel shard holding heads
    `[head_offset, head_offset + H)` slices the global list.

    ```mlir
    #posenc.alibi_slopes<num_heads = 112, head_offset = 56>
    ```
  }];
  let parameters = (ins
    "int64_t":$num_heads,
    DefaultValuedParameter<"int64_t", "0", "first global head of this shard">:$head_offset,
    PosEnc_F64Param<"8.0", "maximum bias exponent">:$max_bias);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def PosEnc_RopeAttr : PosEnc_Attr<"Rope", "rope"> {
  let summary = "RoPE configuration applied to Q and K inside posenc.attention";
  let description = [{
    ```mlir
    #posenc.rope<layout = half_split, rotary_dim = 64>
    ```
  }];
  let parameters = (ins
    "RotaryLayout":$layout,
    "int64_t":$rotary_dim);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def PosEnc_WindowAttr : PosEnc_Attr<"Window", "window"> {
  let summary = "sliding window of posenc.attention, in positions";
  let description = [{
    A query at position `q` sees keys at positions `k` with
    `q - left <= k <= q + right` (inclusive extents, as FlashAttention's
    `window_size = (left, right)`); without `right` the window is open to the
    right (a causal attention closes it at `q`). HF transformers'
    `sliding_window = W` of a causal model (a query sees `k > q - W`, `W`
    keys with itself; Mistral, Gemma 2/3, gpt-oss, Qwen2) is `left = W - 1`.
    docs/numerics.md lists each framework's convention.

    ```mlir
    #posenc.window<left = 4095>
    #posenc.window<left = 64, right = 64>
    ```
  }];
  let parameters = (ins
    "int64_t":$left,
    OptionalParameter<"std::optional<int64_t>", "keys after the query">:$right);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def PosEnc_QueryTemperatureAttr
    : PosEnc_Attr<"QueryTemperature", "query_temperature"> {
  let summary = "Llama 4's attention temperature tuning of the queries";
  let description = [{
    The logits of a query at position `q` are multiplied by
    `log(floor((q + 1) / floor_scale) + 1) * attn_scale + 1`, the floor taken
    as 0 for negative positions (bottom-right queries of `Sq > Sk`) (HF
    transformers' and vLLM's `Llama4TextAttention` on its NoPE layers,
    `attn_temperature_tuning`; HF scales the query itself, which is the same
    up to rounding).

    ```mlir
    #posenc.query_temperature<floor_scale = 8192.0, attn_scale = 0.1>
    ```
  }];
  let parameters = (ins
    PosEnc_F64Param<"", "positions per temperature step, > 0">:$floor_scale,
    PosEnc_F64Param<"", "slope of the log temperature, finite">:$attn_scale);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // POSENC_IR_POSENCATTRS_TD
