//===- PosEncEnums.td - posenc enums -----------------------*- tablegen -*-===//

#ifndef POSENC_IR_POSENCENUMS_TD
#define POSENC_IR_POSENCENUMS_TD

include "posenc/IR/PosEncBase.td"
include "mlir/IR/EnumAttr.td"

def PosEnc_RotaryLayout : I32EnumAttr<"RotaryLayout",
    "pairing of the rotated channels", [
      I32EnumAttrCase<"half_split", 0>,
      I32EnumAttrCase<"interleaved", 1>
    ]> {
  let description = [{
    `half_split` (GPT-NeoX, HF Llama `rotate_half`): channel `i` pairs with
    `i + rotary_dim/2`. `interleaved` (GPT-J, Meta LLaMA, llama.cpp NORMAL):
    channel `2i` pairs with `2i + 1`.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}
def PosEnc_RotaryLayoutAttr
    : EnumAttr<PosEnc_Dialect, PosEnc_RotaryLayout, "layout">;

def PosEnc_MRopeLayout : I32EnumAttr<"MRopeLayout",
    "how M-RoPE position axes map onto frequency pairs", [
      I32EnumAttrCase<"chunked", 0>,
      I32EnumAttrCase<"interleaved", 1>
    ]> {
  let description = [{
    `chunked` (Qwen2-VL, Qwen2.5-VL): pair block `k` takes its positions from
    axis `k`. `interleaved` (Qwen3-VL): pair `c` uses axis 1 if `c % 3 == 1` and
    `c < 3 * sections[1]`, axis 2 if `c % 3 == 2` and `c < 3 * sections[2]`,
    axis 0 otherwise.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}
def PosEnc_MRopeLayoutAttr
    : EnumAttr<PosEnc_Dialect, PosEnc_MRopeLayout, "mrope_layout">;

def PosEnc_AlibiForm : I32EnumAttr<"AlibiForm", "shape of the ALiBi bias", [
      I32EnumAttrCase<"symmetric", 0>,
      I32EnumAttrCase<"key_linear", 1>
    ]> {
  let description = [{
    `symmetric`: `bias = -m * |q_pos - k_pos|` (FlashAttention-2 non-causal,
    llama.cpp, MPT full). `key_linear`: `bias = m * k_pos` (Press et al.,
    BLOOM, FlashAttention-2 causal). The two give the same softmax only under a
    causal mask.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}
def PosEnc_AlibiFormAttr
    : EnumAttr<PosEnc_Dialect, PosEnc_AlibiForm, "alibi_form">;

def PosEnc_Alignment : I32EnumAttr<"Alignment",
    "default query positions when Sq != Sk", [
      I32EnumAttrCase<"bottom_right", 0>,
      I32EnumAttrCase<"top_left", 1>
    ]> {
  let description = [{
    `bottom_right` (FlashAttention-2 >= 2.1, vLLM, llama.cpp): query row `i` sits
    at key position `i + Sk - Sq`. `top_left` (FlashAttention-2 < 2.1): query
    row `i` sits at key position `i`.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}
def PosEnc_AlignmentAttr
    : EnumAttr<PosEnc_Dialect, PosEnc_Alignment, "alignment">;

def PosEnc_SinusoidalLayout : I32EnumAttr<"SinusoidalLayout",
    "layout and frequency grid of a sinusoidal table", [
      I32EnumAttrCase<"interleaved", 0>,
      I32EnumAttrCase<"concatenated", 1>
    ]> {
  let description = [{
    `interleaved` (Vaswani et al. 2017): `PE[p, 2i] = sin(p / base^(2i/d))`,
    `PE[p, 2i+1] = cos(p / base^(2i/d))`. `concatenated` (tensor2tensor,
    fairseq): `n = d/2`, `inv[i] = base^(-i / max(n-1, 1))`,
    `PE[p] = [sin(p*inv) | cos(p*inv)]`, one zero column appended when `d` is
    odd.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}
def PosEnc_SinusoidalLayoutAttr
    : EnumAttr<PosEnc_Dialect, PosEnc_SinusoidalLayout, "sinusoidal_layout">;

def PosEnc_NtkForm : I32EnumAttr<"NtkForm", "static NTK-aware formula", [
      I32EnumAttrCase<"hf", 0>,
      I32EnumAttrCase<"vllm", 1>
    ]> {
  let description = [{
    `hf` (HF transformers <= v4 `ntk`): `base' = base * s^(d/(d-2))`.
    `vllm` (vLLM `NTKScalingRotaryEmbedding`):
    `inv[i] = (base*s)^(-2i/d) / s^(2/d)`. They agree only at the last pair.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}

def PosEnc_DynamicNtkRule : I32EnumAttr<"DynamicNtkRule",
    "which sequence length drives dynamic NTK", [
      I32EnumAttrCase<"hf", 0>,
      I32EnumAttrCase<"vllm_legacy", 1>
    ]> {
  let description = [{
    `hf`: the base is recomputed from the runtime sequence length
    `L = max(seq_len, max_position_embeddings)`:
    `base' = base * (s*L/max_pos - (s-1))^(d/(d-2))`. `vllm_legacy`: one
    static table evaluated at `L = s * max_pos` for every position.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}

def PosEnc_LongRopeSelect : I32EnumAttr<"LongRopeSelect",
    "how LongRoPE picks its short or long factors", [
      I32EnumAttrCase<"hf", 0>,
      I32EnumAttrCase<"fixed_short", 1, "short">,
      I32EnumAttrCase<"fixed_long", 2, "long">
    ]> {
  let description = [{
    `hf`: per call, long factors iff the runtime `seq_len` exceeds
    `original_max_position_embeddings` (HF transformers). `short` / `long`:
    fixed at compile time, as vLLM (`max_model_len > original`) and llama.cpp
    (`n_ctx_per_seq > n_ctx_orig`) decide once per deployment.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}

def PosEnc_YarnFactorRule : I32EnumAttr<"YarnFactorRule",
    "which scale factor YaRN uses", [
      I32EnumAttrCase<"explicit_factor", 0, "explicit">,
      I32EnumAttrCase<"context_ratio", 1>
    ]> {
  let description = [{
    `explicit` (HF transformers v5, vLLM, llama.cpp): `s = factor`.
    `context_ratio` (HF transformers v4.5x, issue #38224): whenever
    `original_max_position_embeddings` is given, `s = max_position_embeddings
    / original_max_position_embeddings`, overriding `factor`; with Qwen2.5's
    recipe (both 32768) this silently runs unscaled RoPE.
  }];
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::posenc";
}

#endif // POSENC_IR_POSENCENUMS_TD
