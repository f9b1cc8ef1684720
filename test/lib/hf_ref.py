"""The posenc quantities as computed by Hugging Face transformers' OWN code.

Used only by test_ref_vs_hf.py to check posenc_ref (our independent fp64
reference) against the library whose numerics posenc follows by default.
Nothing here re-implements a formula: every number comes from a transformers
function or module, called the way transformers itself calls it.

Version reproduced
------------------
Written against transformers 5.24.0 / torch 2.15.0 (requirements-hf.txt), i.e.
the v5 ``rope_parameters`` API ("HF-v5" in the spec):

* configs carry ``rope_parameters = {"rope_type", "rope_theta",
  "partial_rotary_factor", <scheme keys>}`` (the pre-v5 ``rope_scaling`` dict
  is still accepted as a kwarg and converted; we do not use it);
* ``ROPE_INIT_FUNCTIONS[rope_type](config, device, seq_len=None,
  layer_type=None) -> (inv_freq fp32 tensor [dim/2], attention_factor float)``
  with ``dim = int(head_dim * partial_rotary_factor)``;
* ``ROPE_INIT_FUNCTIONS`` has linear, dynamic, yarn, longrope, llama3 and
  proportional; there is no "default" entry (each model class has a static
  ``compute_default_rope_parameters``; we use GPT-NeoX's because it honours
  ``partial_rotary_factor``, Llama's ignores it) and no static "ntk" entry;
* YaRN uses the explicit ``factor`` (the v4.5x override by
  max_position_embeddings/original is gone: spec §7.1 is fixed here).

posenc option  ->  HF equivalent used here
------------------------------------------
default                        GPTNeoXRotaryEmbedding.compute_default_rope_parameters
linear(factor)                 rope_type "linear"
ntk(form=hf|vllm)              none in HF-v5 -> HFUnsupported (skipped)
dynamic_ntk(rule=hf)           rope_type "dynamic", seq_len passed through
dynamic_ntk(rule=vllm_legacy)  rope_type "dynamic" evaluated at seq_len = factor*max_pos
                               (spec §2.3: vLLM-legacy == HF at s*max_pos; HF itself is
                               never static)
yarn(...)                      rope_type "yarn" (truncate, mscale, mscale_all_dim,
                               attention_factor, beta_fast/slow all in rope_parameters)
llama3(...)                    rope_type "llama3"
longrope(select=hf)            rope_type "longrope", seq_len passed through
longrope(select=short|long)    seq_len None | original_max_position_embeddings + 1
                               (``factor`` is left out so HF uses max_pos / original,
                               the posenc definition)
deepseek_softmax_scale         deepseek_v3.modeling_deepseek_v3.yarn_apply_mscale
alibi_slopes / key_linear      bloom.modeling_bloom.build_alibi_tensor
rotary half_split              llama apply_rotary_pos_emb (+ rotate_half), gpt_neox
                               apply_rotary_pos_emb (partial rotary)
rotary interleaved             gptj apply_rotary_pos_emb (+ rotate_every_two) with
                               GPTJAttention's rotary_dim slicing, glm apply_rotary_pos_emb
                               (partial), deepseek_v3 apply_rotary_pos_emb_interleave
                               (de-interleaving variant)
full pipeline (fp32 angles)    GPTNeoXRotaryEmbedding(config).forward (all rope types,
                               incl. dynamic_rope_update growth/reset and longrope switch)
attention                      llama eager_attention_forward (repeat_kv GQA, fp32 softmax)
attention sinks                gpt_oss eager_attention_forward (``module.sinks`` [Hq])

Precision: HF builds inv_freq in fp32 (``base ** (arange(0, dim, 2).float() / dim)``)
and forms angles in fp32; the attention factor is a Python float (fp64).
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any, Dict, Optional, Tuple

import numpy as np

try:
    import torch
    import transformers
    from transformers import GPTNeoXConfig, LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    from transformers.models.deepseek_v3 import modeling_deepseek_v3 as _ds3
    from transformers.models.glm import modeling_glm as _glm
    from transformers.models.gpt_neox import modeling_gpt_neox as _neox
    from transformers.models.gptj import modeling_gptj as _gptj
    from transformers.models.llama import modeling_llama as _llama
    from transformers.models.gpt_oss import modeling_gpt_oss as _gpt_oss
    from transformers.models.gemma2 import modeling_gemma2 as _gemma2
    from transformers.models.llama4 import modeling_llama4 as _llama4
    from transformers import masking_utils as _masking

    transformers.logging.set_verbosity_error()  # HF warns on e.g. low_freq_factor == high_freq_factor
    IMPORT_ERROR: Optional[str] = None
except Exception as e:  # pragma: no cover - exercised when torch/transformers are absent
    IMPORT_ERROR = f"{type(e).__name__}: {e}"

HF_ROPE_TYPE = {"default": "default", "linear": "linear", "dynamic_ntk": "dynamic",
                "yarn": "yarn", "llama3": "llama3", "longrope": "longrope"}
NUM_HEADS = 2  # any value: only head_dim matters for RoPE


class HFUnsupported(Exception):
    """The posenc option has no counterpart in HF transformers."""


def versions() -> Dict[str, str]:
    return {"torch": torch.__version__, "transformers": transformers.__version__}


def _t(x, dtype=None) -> "torch.Tensor":
    return torch.as_tensor(np.asarray(x), dtype=dtype or torch.float64)


def _np(t: "torch.Tensor") -> np.ndarray:
    return t.detach().to(torch.float64).cpu().numpy()


# ----------------------------------------------------------------------------
# configs
# ----------------------------------------------------------------------------

def rope_parameters(cfg: Dict[str, Any]) -> Tuple[Dict[str, Any], int, Optional[float]]:
    """(rope_parameters dict, max_position_embeddings, seq_len for the init fn) of a posenc config."""
    scheme, p = cfg["scheme"], cfg["params"]
    rp: Dict[str, Any] = {"rope_type": HF_ROPE_TYPE.get(scheme, scheme),
                          "rope_theta": float(cfg["base"]),
                          "partial_rotary_factor": float(cfg["partial_rotary_factor"])}
    seq_len = cfg.get("seq_len")
    mpe = 4096
    if scheme == "ntk":
        raise HFUnsupported("HF-v5 has no static 'ntk' rope type (neither the HF-old nor the vLLM form)")
    if scheme == "default":
        seq_len = None
    elif scheme == "linear":
        rp["factor"] = float(p["factor"])
        seq_len = None
    elif scheme == "dynamic_ntk":
        rp["factor"] = float(p["factor"])
        mpe = int(p["max_position_embeddings"])
        if p.get("rule", "hf") == "vllm_legacy":
            seq_len = float(p["factor"]) * mpe  # spec §2.3: vLLM-legacy == HF at s*max_pos
    elif scheme == "yarn":
        rp["factor"] = float(p["factor"])
        rp["original_max_position_embeddings"] = int(p["original_max_position_embeddings"])
        for key in ("beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor"):
            if p.get(key) is not None:
                rp[key] = float(p[key])
        rp["truncate"] = bool(p.get("truncate", True))
        mpe = max(int(round(p["factor"] * p["original_max_position_embeddings"])),
                  int(p["original_max_position_embeddings"]))
        seq_len = None
    elif scheme == "llama3":
        rp["factor"] = float(p["factor"])
        rp["low_freq_factor"] = float(p.get("low_freq_factor", 1.0))
        rp["high_freq_factor"] = float(p.get("high_freq_factor", 4.0))
        rp["original_max_position_embeddings"] = int(p["original_max_position_embeddings"])
        mpe = int(math.ceil(p["factor"] * p["original_max_position_embeddings"])) + 1
        seq_len = None
    elif scheme == "longrope":
        L = int(p["original_max_position_embeddings"])
        rp["short_factor"] = [float(x) for x in p["short_factor"]]
        rp["long_factor"] = [float(x) for x in p["long_factor"]]
        rp["original_max_position_embeddings"] = L
        if p.get("attention_factor") is not None:
            rp["attention_factor"] = float(p["attention_factor"])
        mpe = int(p["max_position_embeddings"])
        sel = p.get("select", "hf")
        seq_len = {"hf": seq_len, "short": None, "long": L + 1}[sel]
    else:
        raise HFUnsupported(f"scheme {scheme!r}")
    return rp, mpe, seq_len


def llama_config(cfg: Dict[str, Any]) -> "LlamaConfig":
    """A LlamaConfig whose RoPE is the posenc config ``cfg`` (see random_configs)."""
    rp, mpe, _ = rope_parameters(cfg)
    hd = int(cfg["head_dim"])
    return LlamaConfig(hidden_size=NUM_HEADS * hd, num_attention_heads=NUM_HEADS,
                       num_key_value_heads=NUM_HEADS, head_dim=hd, max_position_embeddings=mpe,
                       rope_parameters=rp)


def neox_config(cfg: Dict[str, Any]) -> "GPTNeoXConfig":
    """A GPTNeoXConfig (head_dim = hidden_size / heads) whose RoPE is ``cfg``."""
    rp, mpe, _ = rope_parameters(cfg)
    hd = int(cfg["head_dim"])
    return GPTNeoXConfig(hidden_size=NUM_HEADS * hd, num_attention_heads=NUM_HEADS,
                         max_position_embeddings=mpe, rope_parameters=rp)


# ----------------------------------------------------------------------------
# inv_freq and attention factor
# ----------------------------------------------------------------------------

def hf_inv_freq(cfg: Dict[str, Any]) -> Tuple[np.ndarray, float]:
    """HF's (inv_freq, attention_factor) for a posenc config; inv_freq is HF's fp32, widened to fp64."""
    rp, _, seq_len = rope_parameters(cfg)
    if cfg["scheme"] == "default":
        inv, af = _neox.GPTNeoXRotaryEmbedding.compute_default_rope_parameters(neox_config(cfg))
    else:
        fn = ROPE_INIT_FUNCTIONS[rp["rope_type"]]
        inv, af = fn(llama_config(cfg), None, seq_len=seq_len)
    assert inv.dtype == torch.float32, inv.dtype
    return _np(inv), float(af)


def hf_rotary_module(cfg: Dict[str, Any]) -> "torch.nn.Module":
    """GPTNeoXRotaryEmbedding for ``cfg`` (handles every rope type and partial rotary)."""
    return _neox.GPTNeoXRotaryEmbedding(neox_config(cfg))


def hf_module_cos_sin(module: "torch.nn.Module", position_ids: np.ndarray,
                      dtype: "torch.dtype" = None) -> Tuple[np.ndarray, np.ndarray]:
    """Full-width HF cos/sin ``[B, S, d]`` (``cat(freqs, freqs)``, attention factor applied)."""
    dtype = dtype or torch.float32
    pos = torch.as_tensor(np.asarray(position_ids), dtype=torch.int64)
    x = torch.zeros(1, dtype=dtype)
    cos, sin = module(x, pos)
    return _np(cos), _np(sin)


# ----------------------------------------------------------------------------
# RoPE application (HF functions, fed with full-width tables)
# ----------------------------------------------------------------------------

def full_width(half: np.ndarray) -> np.ndarray:
    """NeoX full-width table as HF builds it: cat(half, half) (spec §1.2)."""
    return np.concatenate([half, half], axis=-1)


def llama_apply(q: np.ndarray, k: np.ndarray, cos_half: np.ndarray, sin_half: np.ndarray,
                unsqueeze_dim: int = 1) -> Tuple[np.ndarray, np.ndarray]:
    """llama apply_rotary_pos_emb (rotate_half, full rotary); q,k [B,H,S,D]; cos/sin [B,S,D/2]."""
    qe, ke = _llama.apply_rotary_pos_emb(_t(q), _t(k), _t(full_width(cos_half)),
                                         _t(full_width(sin_half)), unsqueeze_dim)
    return _np(qe), _np(ke)


def neox_apply(q, k, cos_half, sin_half, unsqueeze_dim: int = 1):
    """gpt_neox apply_rotary_pos_emb (rotate_half on q[..., :d], rest passes through)."""
    qe, ke = _neox.apply_rotary_pos_emb(_t(q), _t(k), _t(full_width(cos_half)),
                                        _t(full_width(sin_half)), unsqueeze_dim)
    return _np(qe), _np(ke)


def glm_apply(q, k, cos_half, sin_half, unsqueeze_dim: int = 1):
    """glm apply_rotary_pos_emb (interleaved rotate_half, repeat_interleave tables, partial)."""
    qe, ke = _glm.apply_rotary_pos_emb(_t(q), _t(k), _t(full_width(cos_half)),
                                       _t(full_width(sin_half)), unsqueeze_dim)
    return _np(qe), _np(ke)


def deepseek_interleave_apply(q, k, cos_half, sin_half, unsqueeze_dim: int = 1):
    """deepseek_v3 apply_rotary_pos_emb_interleave (de-interleave, then rotate; full rotary)."""
    qe, ke = _ds3.apply_rotary_pos_emb_interleave(_t(q), _t(k), _t(full_width(cos_half)),
                                                  _t(full_width(sin_half)), None, unsqueeze_dim)
    return _np(qe), _np(ke)


def gptj_apply(x: np.ndarray, sin_half: np.ndarray, cos_half: np.ndarray,
               rotary_dim: Optional[int]) -> np.ndarray:
    """gptj apply_rotary_pos_emb (rotate_every_two), x [B,S,H,D], sin/cos [B,S,d/2];
    rotary_dim slicing as GPTJAttention.forward does it."""
    xt, s, c = _t(x), _t(sin_half), _t(cos_half)
    if rotary_dim is not None:
        rot = _gptj.apply_rotary_pos_emb(xt[:, :, :, :rotary_dim], s, c)
        return _np(torch.cat([rot, xt[:, :, :, rotary_dim:]], dim=-1))
    return _np(_gptj.apply_rotary_pos_emb(xt, s, c))


def gptj_sincos(num_pos: int, dim: int) -> Tuple[np.ndarray, np.ndarray]:
    """GPT-J's fp32 table: create_sinusoidal_positions, split as GPTJRotaryEmbedding.forward -> (sin, cos)."""
    sincos = _gptj.create_sinusoidal_positions(num_pos, dim)
    sin, cos = torch.split(sincos, sincos.shape[-1] // 2, dim=-1)
    return _np(sin), _np(cos)


# ----------------------------------------------------------------------------
# ALiBi, DeepSeek softmax scale, attention
# ----------------------------------------------------------------------------

def bloom_alibi(attention_mask: np.ndarray, num_heads: int) -> np.ndarray:
    """build_alibi_tensor in fp32 reshaped to [B, H, 1, S] (slope * padding-aware key position)."""
    m = torch.as_tensor(np.asarray(attention_mask), dtype=torch.int64)
    B, S = m.shape
    return _np(build_alibi_tensor(m, num_heads, torch.float32).reshape(B, num_heads, 1, S))


def bloom_slopes(num_heads: int) -> np.ndarray:
    """BLOOM's slopes read out of build_alibi_tensor: the bias at key position 1 (= slope * 1)."""
    return bloom_alibi(np.ones((1, 2), dtype=np.int64), num_heads)[0, :, 0, 1]


def deepseek_softmax_scale(qk_head_dim: int, factor: float, mscale_all_dim: Optional[float],
                           rope_type: str = "yarn") -> float:
    """deepseek_v3 yarn_apply_mscale(rope_parameters, qk_head_dim**-0.5)."""
    rp: Dict[str, Any] = {"rope_type": rope_type, "factor": factor}
    if mscale_all_dim is not None:
        rp["mscale_all_dim"] = mscale_all_dim
    return float(_ds3.yarn_apply_mscale(rp, qk_head_dim ** (-0.5)))


def eager_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, additive_mask: Optional[np.ndarray],
                    scaling: float) -> np.ndarray:
    """llama eager_attention_forward (repeat_kv GQA, softmax in fp32); returns [B, Hq, Sq, Dv]."""
    module = SimpleNamespace(num_key_value_groups=q.shape[1] // k.shape[1], training=False)
    mask = None if additive_mask is None else _t(additive_mask)
    out, _ = _llama.eager_attention_forward(module, _t(q), _t(k), _t(v), mask, scaling)
    return _np(out.transpose(1, 2))


def gpt_oss_eager_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray,
                            additive_mask: Optional[np.ndarray], scaling: float,
                            sinks: np.ndarray) -> np.ndarray:
    """gpt-oss eager_attention_forward: the sinks [Hq] as one more logit column,
    dropped after the softmax (inputs in fp64); returns [B, Hq, Sq, Dv]."""
    module = SimpleNamespace(num_key_value_groups=q.shape[1] // k.shape[1], training=False,
                             sinks=_t(sinks))
    mask = None if additive_mask is None else _t(additive_mask)
    out, _ = _gpt_oss.eager_attention_forward(module, _t(q), _t(k), _t(v), mask, scaling)
    return _np(out.transpose(1, 2))


def hf_visible(kind: str, size: int, Sq: int, Sk: int) -> np.ndarray:
    """[Sq, Sk] bool: which keys HF's own mask function lets each query see,
    on cache indices (query i at Sk - Sq + i, as HF's cache_position).
    kind: sliding_causal (sliding_window_causal_mask_function),
    sliding_bidirectional (sliding_window_bidirectional_mask_function) or
    chunked_causal (chunked_causal_mask_function, no left padding)."""
    fn = {"sliding_causal": lambda: _masking.sliding_window_causal_mask_function(size),
          "sliding_bidirectional":
              lambda: _masking.sliding_window_bidirectional_mask_function(size),
          "chunked_causal": lambda: _masking.chunked_causal_mask_function(
              size, torch.zeros(1, dtype=torch.long))}[kind]()
    q_idx = torch.arange(Sq)[:, None] + (Sk - Sq)
    kv_idx = torch.arange(Sk)[None, :]
    return np.broadcast_to(fn(0, 0, q_idx, kv_idx).numpy(), (Sq, Sk))


def gemma2_eager_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray,
                           additive_mask: Optional[np.ndarray], scaling: float,
                           softcap: float) -> np.ndarray:
    """Gemma 2's eager_attention_forward (soft-capping after the scale, before
    the mask; inputs in fp64); returns [B, Hq, Sq, Dv]."""
    module = SimpleNamespace(num_key_value_groups=q.shape[1] // k.shape[1], training=False,
                             head_dim=q.shape[-1])
    mask = None if additive_mask is None else _t(additive_mask)
    out, _ = _gemma2.eager_attention_forward(module, _t(q), _t(k), _t(v), mask,
                                             scaling=scaling, softcap=softcap)
    return _np(out.transpose(1, 2))


def llama4_nope_attention(x: np.ndarray, Hq: int, Hkv: int, D: int, floor_scale: float,
                          attn_scale: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray,
                                                      np.ndarray]:
    """Llama 4's own Llama4TextAttention on a NoPE layer with temperature
    tuning (eager, fp64, causal, positions 0..S-1), its projections set so
    that q = x, k = v = x[..., :Hkv*D] and o = attention output. x: [B, S,
    Hq*D]. Returns q, k, v as [B, H, S, D] and HF's output [B, Hq, S, D]."""
    cfg = _llama4.Llama4TextConfig(
        hidden_size=Hq * D, num_attention_heads=Hq, num_key_value_heads=Hkv, head_dim=D,
        no_rope_layers=[0], attn_temperature_tuning=True, floor_scale=floor_scale,
        attn_scale=attn_scale, use_qk_norm=False, attention_bias=False, num_hidden_layers=1)
    cfg._attn_implementation = "eager"
    attn = _llama4.Llama4TextAttention(cfg, 0).double()
    n = Hq * D
    with torch.no_grad():
        attn.q_proj.weight.copy_(torch.eye(n, dtype=torch.float64))
        attn.k_proj.weight.copy_(torch.eye(n, dtype=torch.float64)[:Hkv * D])
        attn.v_proj.weight.copy_(torch.eye(n, dtype=torch.float64)[:Hkv * D])
        attn.o_proj.weight.copy_(torch.eye(n, dtype=torch.float64))
    B, S, _ = x.shape
    mask = torch.triu(torch.full((S, S), -math.inf, dtype=torch.float64), 1)[None, None]
    with torch.no_grad():
        out, _ = attn(_t(x), None, mask)
    split = lambda t, h: np.ascontiguousarray(t.reshape(B, S, h, D).transpose(0, 2, 1, 3))
    return (split(x, Hq), split(x[..., :Hkv * D], Hkv), split(x[..., :Hkv * D], Hkv),
            split(_np(out), Hq))
