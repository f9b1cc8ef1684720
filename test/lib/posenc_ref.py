"""Independent fp64 NumPy reference for posenc's positional encodings.

Written from the numerics spec ``shared/reference/posenc-numerics.md`` (cited
below as "spec §N"), never from posenc's C++ sources.  Everything is computed
in float64; nothing here imports torch.  Keyword arguments mirror the option
names of the posenc dialect (docs/dialect/PosEncDialect.md), e.g.
``ntk form = hf|vllm``, ``dynamic_ntk rule = hf|vllm_legacy``,
``yarn truncate/mscale/mscale_all_dim/attention_factor``,
``longrope select = hf|short|long``, ``alibi_slopes num_heads/head_offset/
max_bias``, alibi form ``symmetric|key_linear``, alignment
``bottom_right|top_left``, sinusoidal ``interleaved|concatenated``.

Public functions
----------------
inv_freq, get_mscale, deepseek_softmax_scale, yarn_correction_range,
alibi_slopes (+ press_get_slopes, bloom_slopes, mpt_slopes for self-tests),
alibi_bias, sinusoidal, rotary, attention, angle_error_demo, random_configs.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Iterator, Optional, Sequence, Tuple

import numpy as np

__all__ = [
    "SCHEMES", "default_inv_freq", "inv_freq", "get_mscale", "deepseek_softmax_scale",
    "yarn_correction_dim", "yarn_correction_range", "alibi_slopes", "press_get_slopes",
    "bloom_slopes", "mpt_slopes", "alibi_bias", "sinusoidal", "rotary", "rope_angles",
    "attention", "angle_error_demo", "random_configs",
]

SCHEMES = ("default", "linear", "ntk", "dynamic_ntk", "yarn", "llama3", "longrope")

F64 = np.float64


# ----------------------------------------------------------------------------
# §1.1 / §2: inverse frequencies and attention factor
# ----------------------------------------------------------------------------

def _check_dim(rotary_dim: int) -> int:
    d = int(rotary_dim)
    if d != rotary_dim or d <= 0 or d % 2:
        # spec §1.3: odd d is unsupported everywhere
        raise ValueError(f"rotary_dim must be a positive even integer, got {rotary_dim!r}")
    return d


def default_inv_freq(rotary_dim: int, base: float) -> np.ndarray:
    """``inv_freq[i] = 1 / base ** (2i/d)``, i = 0..d/2-1 (spec §1.1)."""
    d = _check_dim(rotary_dim)
    return 1.0 / (F64(base) ** (np.arange(0, d, 2, dtype=F64) / d))  # spec §1.1


def get_mscale(scale: float, mscale: float = 1.0) -> float:
    """YaRN/DeepSeek magnitude: 1 if s <= 1 else 0.1*m*ln(s) + 1 (spec §2.4)."""
    if scale <= 1:
        return 1.0  # spec §2.4: get_mscale(s) = 1 for s <= 1
    return 0.1 * mscale * math.log(scale) + 1.0  # spec §2.4


def deepseek_softmax_scale(qk_head_dim: int, factor: float,
                           mscale_all_dim: Optional[float]) -> float:
    """DeepSeek softmax scale: qk_head_dim**-0.5 * get_mscale(s, mscale_all_dim)**2.

    spec §2.4 (HF ``DeepseekV3Attention``): the extra factor applies to the whole
    logit (nope + rope channels) and only when ``mscale_all_dim`` is truthy.
    """
    scale = float(qk_head_dim) ** -0.5  # spec §2.4 softmax_scale base
    if mscale_all_dim:
        m = get_mscale(factor, mscale_all_dim)
        scale *= m * m  # spec §2.4: * get_mscale(s, mscale_all_dim)**2
    return scale


def yarn_correction_dim(num_rotations: float, rotary_dim: int, base: float,
                        original_max_position_embeddings: int) -> float:
    """corr_dim(r) = d * ln(L / (r * 2*pi)) / (2 * ln b) (spec §2.4)."""
    d, L = rotary_dim, original_max_position_embeddings
    return d * math.log(L / (num_rotations * 2 * math.pi)) / (2 * math.log(base))  # spec §2.4


def yarn_correction_range(rotary_dim: int, base: float, original_max_position_embeddings: int,
                          beta_fast: float = 32.0, beta_slow: float = 1.0,
                          truncate: bool = True) -> Tuple[float, float]:
    """(low, high) of the YaRN ramp, floored/ceiled if ``truncate``, clamped to [0, d-1] (spec §2.4)."""
    low = yarn_correction_dim(beta_fast, rotary_dim, base, original_max_position_embeddings)
    high = yarn_correction_dim(beta_slow, rotary_dim, base, original_max_position_embeddings)
    if truncate:
        low, high = math.floor(low), math.ceil(high)  # spec §2.4 truncate
    return max(low, 0), min(high, rotary_dim - 1)  # spec §2.4: clamp is d-1 (not d/2-1)


def inv_freq(rotary_dim: int, base: float, scheme: Optional[str] = None, *,
             seq_len: Optional[int] = None, **params: Any) -> Tuple[np.ndarray, float]:
    """Inverse frequencies ``[rotary_dim/2]`` (float64) and the attention factor.

    The attention factor multiplies cos *and* sin (spec §2), so logits on the
    rotary channels scale by its square.

    scheme / params (names as in the posenc dialect):
      None | "default":  --
      "linear":      factor
      "ntk":         factor, form="hf"|"vllm"
      "dynamic_ntk": factor, max_position_embeddings, rule="hf"|"vllm_legacy"; seq_len
                     (rule=hf; None means "at init", i.e. max_position_embeddings, as HF)
      "yarn":        factor, original_max_position_embeddings, beta_fast=32, beta_slow=1,
                     truncate=True, mscale=None, mscale_all_dim=None, attention_factor=None
      "llama3":      factor, low_freq_factor=1, high_freq_factor=4,
                     original_max_position_embeddings
      "longrope":    short_factor, long_factor, original_max_position_embeddings,
                     max_position_embeddings, attention_factor=None, select="hf"|"short"|"long";
                     seq_len (select=hf; None picks short, as HF's init)
    """
    d = _check_dim(rotary_dim)
    base = float(base)
    scheme = "default" if scheme is None else scheme
    fn = _SCHEME_FNS.get(scheme)
    if fn is None:
        raise ValueError(f"unknown scheme {scheme!r}; expected one of {SCHEMES}")
    inv, af = fn(d, base, seq_len=seq_len, **params)
    return np.asarray(inv, dtype=F64), float(af)


def _default(d: int, base: float, *, seq_len: Optional[int] = None) -> Tuple[np.ndarray, float]:
    return default_inv_freq(d, base), 1.0  # spec §1.1: attention_factor 1


def _linear(d: int, base: float, *, factor: float,
            seq_len: Optional[int] = None) -> Tuple[np.ndarray, float]:
    return default_inv_freq(d, base) / factor, 1.0  # spec §2.1: inv_freq_default / s


def _ntk(d: int, base: float, *, factor: float, form: str = "hf",
         seq_len: Optional[int] = None) -> Tuple[np.ndarray, float]:
    if d <= 2:
        raise ValueError("ntk needs rotary_dim > 2 (exponent d/(d-2))")
    if form == "hf":
        b2 = base * factor ** (d / (d - 2))  # spec §2.2 HF-old: b' = b * s**(d/(d-2))
        return default_inv_freq(d, b2), 1.0
    if form == "vllm":
        # spec §2.2 VLLM (mixed_b None): inv_freq_default(d, b*s) / s**(2/d)
        return default_inv_freq(d, base * factor) / factor ** (2.0 / d), 1.0
    raise ValueError(f"ntk form must be 'hf' or 'vllm', got {form!r}")


def dynamic_ntk_base(d: int, base: float, factor: float, max_position_embeddings: int,
                     rule: str = "hf", seq_len: Optional[int] = None) -> float:
    """The dynamic-NTK base b' (spec §2.3)."""
    if d <= 2:
        raise ValueError("dynamic_ntk needs rotary_dim > 2 (exponent d/(d-2))")
    mpe = max_position_embeddings
    if rule == "hf":
        L = mpe if seq_len is None else max(seq_len, mpe)  # spec §2.3: max(seq_len, mpe)
    elif rule == "vllm_legacy":
        L = factor * mpe  # spec §2.3 VLLM legacy: max_len = max_pos * s (static)
    else:
        raise ValueError(f"dynamic_ntk rule must be 'hf' or 'vllm_legacy', got {rule!r}")
    return base * ((factor * L / mpe) - (factor - 1)) ** (d / (d - 2))  # spec §2.3


def _dynamic_ntk(d: int, base: float, *, factor: float, max_position_embeddings: int,
                 rule: str = "hf", seq_len: Optional[int] = None) -> Tuple[np.ndarray, float]:
    b2 = dynamic_ntk_base(d, base, factor, max_position_embeddings, rule, seq_len)
    return default_inv_freq(d, b2), 1.0  # spec §2.3: default frequencies of b'


def _yarn(d: int, base: float, *, factor: float, original_max_position_embeddings: int,
          beta_fast: Optional[float] = 32.0, beta_slow: Optional[float] = 1.0,
          truncate: bool = True, mscale: Optional[float] = None,
          mscale_all_dim: Optional[float] = None, attention_factor: Optional[float] = None,
          seq_len: Optional[int] = None) -> Tuple[np.ndarray, float]:
    s, L = float(factor), original_max_position_embeddings
    beta_fast = beta_fast or 32.0  # spec §2.4: HF `get("beta_fast") or 32`
    beta_slow = beta_slow or 1.0   # spec §2.4: likewise 1
    pos_freqs = base ** (np.arange(0, d, 2, dtype=F64) / d)  # spec §2.4
    extrap = 1.0 / pos_freqs                                  # spec §2.4 original freq
    interp = 1.0 / (s * pos_freqs)                            # spec §2.4 interpolated
    low, high = yarn_correction_range(d, base, L, beta_fast, beta_slow, truncate)
    if low == high:
        high += 0.001  # spec §2.4: HF/vLLM singularity guard, only when low == high
    i = np.arange(d // 2, dtype=F64)
    ramp = np.clip((i - low) / (high - low), 0.0, 1.0)        # spec §2.4 ramp over pair index
    w = 1.0 - ramp                                            # spec §2.4 (extrapolation_factor 1)
    inv = interp * (1.0 - w) + extrap * w                     # spec §2.4 blend of frequencies
    if attention_factor is None:
        if mscale and mscale_all_dim:
            # spec §2.4: DeepSeek ratio when both given and non-zero
            attention_factor = get_mscale(s, mscale) / get_mscale(s, mscale_all_dim)
        else:
            attention_factor = get_mscale(s)  # spec §2.4: 0.1 ln s + 1 (1 for s <= 1)
    return inv, float(attention_factor)


def _llama3(d: int, base: float, *, factor: float, original_max_position_embeddings: int,
            low_freq_factor: float = 1.0, high_freq_factor: float = 4.0,
            seq_len: Optional[int] = None) -> Tuple[np.ndarray, float]:
    s, L = float(factor), original_max_position_embeddings
    inv = default_inv_freq(d, base)
    wavelen = 2 * math.pi / inv                     # spec §2.5
    low_wl = L / low_freq_factor                    # spec §2.5
    high_wl = L / high_freq_factor                  # spec §2.5
    if low_freq_factor == high_freq_factor:
        sm = np.zeros_like(inv)                     # spec §2.5: vLLM smooth = 0 when low == high
    else:
        sm = (L / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)  # spec §2.5
    out = np.where(wavelen < high_wl, inv,                       # spec §2.5 keep
                   np.where(wavelen > low_wl, inv / s,           # spec §2.5 interpolate
                            (1 - sm) * inv / s + sm * inv))      # spec §2.5 smooth band (closed)
    return out, 1.0  # spec §2.5: attention_factor = 1


def longrope_attention_factor(original_max_position_embeddings: int,
                              max_position_embeddings: int) -> float:
    """sqrt(1 + ln(s)/ln(L)), s = max_pos / L; 1 when s <= 1 (spec §2.6)."""
    L = original_max_position_embeddings
    s = max_position_embeddings / L  # spec §2.6: s = max_position_embeddings / L
    return 1.0 if s <= 1 else math.sqrt(1 + math.log(s) / math.log(L))  # spec §2.6


def _longrope(d: int, base: float, *, short_factor: Sequence[float],
              long_factor: Sequence[float], original_max_position_embeddings: int,
              max_position_embeddings: int, attention_factor: Optional[float] = None,
              select: str = "hf", seq_len: Optional[int] = None) -> Tuple[np.ndarray, float]:
    L = original_max_position_embeddings
    short = np.asarray(short_factor, dtype=F64)
    long_ = np.asarray(long_factor, dtype=F64)
    if short.shape != (d // 2,) or long_.shape != (d // 2,):
        raise ValueError(f"longrope factor lists must have length d/2 = {d // 2}")  # spec §2.6
    if select == "hf":
        use_long = seq_len is not None and seq_len > L  # spec §2.6: long iff seq_len > L
    elif select == "short":
        use_long = False
    elif select == "long":
        use_long = True
    else:
        raise ValueError(f"longrope select must be 'hf', 'short' or 'long', got {select!r}")
    ext = long_ if use_long else short
    inv = 1.0 / (ext * base ** (np.arange(0, d, 2, dtype=F64) / d))  # spec §2.6: factors DIVIDE
    if attention_factor is None:
        attention_factor = longrope_attention_factor(L, max_position_embeddings)
    return inv, float(attention_factor)


_SCHEME_FNS = {
    "default": _default, "linear": _linear, "ntk": _ntk, "dynamic_ntk": _dynamic_ntk,
    "yarn": _yarn, "llama3": _llama3, "longrope": _longrope,
}


# ----------------------------------------------------------------------------
# §3.1: ALiBi slopes
# ----------------------------------------------------------------------------

def alibi_slopes(num_heads: int, max_bias: float = 8.0, head_offset: int = 0,
                 local_heads: Optional[int] = None) -> np.ndarray:
    """ALiBi slopes of global heads ``[head_offset, head_offset + local_heads)``.

    GGML/Press rule (spec §3.1): n = num_heads, c = 2**floor(log2 n),
    slope(h) = 2**(-b(h+1)/c) for h < c, else 2**(-b(2(h-c)+1)/(2c)), b = max_bias
    (m0**(h+1) with m0 = 2**(-b/c); m1**(2(h-c)+1) with m1 = 2**(-(b/2)/c)).
    A tensor-parallel shard slices the global list (spec §3.1).
    """
    n = int(num_heads)
    if n < 1:
        raise ValueError("num_heads must be >= 1")
    if local_heads is None:
        local_heads = n - head_offset
    if head_offset < 0 or local_heads < 0 or head_offset + local_heads > n:
        raise ValueError("shard [head_offset, head_offset+local_heads) outside [0, num_heads)")
    c = 1 << (n.bit_length() - 1)  # spec §3.1: n_log2 = 2**floor(log2 n), exact in integers
    h = np.arange(head_offset, head_offset + local_heads, dtype=F64)
    expo = np.where(h < c,
                    -max_bias * (h + 1) / c,                      # spec §3.1: m0**(h+1)
                    -(max_bias / 2) * (2 * (h - c) + 1) / c)      # spec §3.1: m1**(2(h-c)+1)
    return np.exp2(expo)


def press_get_slopes(n: int) -> list:
    """Transcription of Press et al. ``get_slopes`` (spec §3.1, PRESS). Self-tests only."""
    def get_slopes_power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return (get_slopes_power_of_2(closest_power_of_2)
            + press_get_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2])


def bloom_slopes(n: int) -> np.ndarray:
    """NumPy fp64 transcription of HF BLOOM ``build_alibi_tensor``'s slopes (spec §3.1). Self-tests only."""
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    base = 2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3)))
    powers = np.arange(1, 1 + closest_power_of_2)
    slopes = np.power(base, powers, dtype=F64)
    if closest_power_of_2 != n:
        extra_base = 2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3)))
        num_remaining_heads = min(closest_power_of_2, n - closest_power_of_2)
        extra_powers = np.arange(1, 1 + 2 * num_remaining_heads, 2)
        slopes = np.concatenate([slopes, np.power(extra_base, extra_powers, dtype=F64)])
    return slopes


def mpt_slopes(n: int, alibi_bias_max: float = 8.0) -> np.ndarray:
    """NumPy fp64 transcription of MPT ``gen_slopes`` (spec §3.1). Self-tests only."""
    _n = 2 ** math.ceil(math.log2(n))
    m = np.arange(1, _n + 1, dtype=F64) * (alibi_bias_max / _n)
    slopes = 1.0 / np.power(2.0, m)
    if _n != n:
        slopes = np.concatenate([slopes[1::2], slopes[::2]])[:n]
    return slopes


# ----------------------------------------------------------------------------
# §3.2 / §3.3: ALiBi bias
# ----------------------------------------------------------------------------

def _default_positions(sq: int, sk: int, alignment: str) -> Tuple[np.ndarray, np.ndarray]:
    if alignment == "bottom_right":
        qp = np.arange(sq, dtype=np.int64) + (sk - sq)  # spec §3.3/§5: i + Sk - Sq
    elif alignment == "top_left":
        qp = np.arange(sq, dtype=np.int64)              # spec §7.7: FA2 < 2.1
    else:
        raise ValueError(f"alignment must be 'bottom_right' or 'top_left', got {alignment!r}")
    return qp, np.arange(sk, dtype=np.int64)           # spec §5: k_pos default 0..Sk-1


def alibi_bias(slopes: np.ndarray, sq: int, sk: int, form: str = "symmetric",
               alignment: str = "bottom_right", q_positions: Optional[np.ndarray] = None,
               k_positions: Optional[np.ndarray] = None,
               batch: Optional[int] = None) -> np.ndarray:
    """ALiBi bias ``[H, Sq, Sk]`` or ``[B, H, Sq, Sk]`` (added to already-scaled logits, spec §3.2).

    slopes: [H] or [B, H]. q_positions/k_positions: [S] or [B, S]; defaults per
    ``alignment`` (spec §3.3). form: ``symmetric`` -> -m*|q_pos - k_pos|;
    ``key_linear`` -> +m*k_pos (spec §3.2). The result is batched when ``batch``
    is given or any input is batched.
    """
    slopes = np.asarray(slopes, dtype=F64)
    dq, dk = _default_positions(sq, sk, alignment)
    qp = dq if q_positions is None else np.asarray(q_positions, dtype=np.int64)
    kp = dk if k_positions is None else np.asarray(k_positions, dtype=np.int64)
    if qp.shape[-1] != sq or kp.shape[-1] != sk:
        raise ValueError("position shapes do not match sq/sk")
    batched = batch is not None or qp.ndim == 2 or kp.ndim == 2 or slopes.ndim == 2
    B = batch if batch is not None else max(
        qp.shape[0] if qp.ndim == 2 else 1, kp.shape[0] if kp.ndim == 2 else 1,
        slopes.shape[0] if slopes.ndim == 2 else 1)
    qp = np.broadcast_to(qp, (B, sq)).astype(F64)
    kp = np.broadcast_to(kp, (B, sk)).astype(F64)
    m = np.broadcast_to(slopes, (B, slopes.shape[-1]))[:, :, None, None]
    if form == "symmetric":
        bias = -m * np.abs(qp[:, None, :, None] - kp[:, None, None, :])   # spec §3.2 symmetric
    elif form == "key_linear":
        bias = m * np.broadcast_to(kp[:, None, None, :], (B, 1, sq, sk))  # spec §3.2 key-linear
    else:
        raise ValueError(f"alibi form must be 'symmetric' or 'key_linear', got {form!r}")
    return bias if batched else bias[0]


# ----------------------------------------------------------------------------
# §4: sinusoidal absolute tables
# ----------------------------------------------------------------------------

def sinusoidal(positions: np.ndarray, dim: int, layout: str = "interleaved",
               base: float = 10000.0) -> np.ndarray:
    """Sinusoidal table ``[..., dim]`` for integer ``positions`` of any shape (spec §4).

    interleaved (Vaswani): PE[p,2i] = sin(p/base**(2i/d)), PE[p,2i+1] = cos(same);
      for odd d the last column is the sin of pair (d-1)/2.
    concatenated (T2T/fairseq): n = d//2, inv[i] = base**(-i/max(n-1,1)),
      PE[p] = [sin(p*inv) | cos(p*inv)] (+ one zero column if d is odd).
    """
    p = np.asarray(positions, dtype=F64)[..., None]
    if layout == "interleaved":
        c = np.arange(dim)
        inv = 1.0 / F64(base) ** (2 * (c // 2) / dim)       # spec §4 Vaswani: 10000**(2i/d)
        ang = p * inv
        return np.where(c % 2 == 0, np.sin(ang), np.cos(ang))  # spec §4: sin at 2i, cos at 2i+1
    if layout == "concatenated":
        n = dim // 2
        inv = F64(base) ** (-np.arange(n, dtype=F64) / max(n - 1, 1))  # spec §4 T2T: max(n-1,1)
        ang = p * inv
        parts = [np.sin(ang), np.cos(ang)]                  # spec §4: [sin | cos]
        if dim % 2:
            parts.append(np.zeros(ang.shape[:-1] + (1,)))   # spec §4: zero-pad 1 col if d odd
        return np.concatenate(parts, axis=-1)
    raise ValueError(f"sinusoidal layout must be 'interleaved' or 'concatenated', got {layout!r}")


# ----------------------------------------------------------------------------
# §1.2-§1.4, §2.7: RoPE application
# ----------------------------------------------------------------------------

def _mrope_axis_of_pair(mrope_sections: Sequence[int], mrope_layout: str) -> np.ndarray:
    """Which position axis each frequency pair reads (spec §2.7)."""
    sec = [int(s) for s in mrope_sections]
    half = sum(sec)
    if mrope_layout == "chunked":
        return np.repeat(np.arange(len(sec)), sec)  # spec §2.7: block k from axis k
    if mrope_layout == "interleaved":
        if len(sec) != 3:
            raise ValueError("interleaved M-RoPE needs exactly 3 sections")
        c = np.arange(half)
        return np.where((c % 3 == 1) & (c < 3 * sec[1]), 1,            # spec §2.7 h
                        np.where((c % 3 == 2) & (c < 3 * sec[2]), 2, 0))  # spec §2.7 w, else t
    raise ValueError(f"mrope_layout must be 'chunked' or 'interleaved', got {mrope_layout!r}")


def rope_angles(positions: np.ndarray, inv_freq: np.ndarray,
                mrope_sections: Optional[Sequence[int]] = None,
                mrope_layout: str = "chunked") -> np.ndarray:
    """angle[..., p, i] = pos * inv_freq[i] in fp64 (spec §1.1); M-RoPE picks per pair (spec §2.7).

    positions: [S] / [B, S]; with M-RoPE [k, S] / [k, B, S]. Returns [S, d/2] / [B, S, d/2].
    """
    inv = np.asarray(inv_freq, dtype=F64)
    pos = np.asarray(positions)
    if mrope_sections is None:
        return pos.astype(F64)[..., None] * inv  # spec §1.1: angle = p * inv_freq (fp64)
    if sum(mrope_sections) != inv.shape[0]:
        raise ValueError("sum(mrope_sections) must equal rotary_dim/2")  # spec §2.7
    if pos.shape[0] != len(mrope_sections):
        raise ValueError("M-RoPE positions need a leading axis of size len(mrope_sections)")
    axis = _mrope_axis_of_pair(mrope_sections, mrope_layout)
    per_axis = pos.astype(F64)[..., None] * inv           # [k, ..., S, d/2]
    return _select_axis(per_axis, axis)


def _select_axis(per_axis: np.ndarray, axis: np.ndarray) -> np.ndarray:
    out = np.empty(per_axis.shape[1:], dtype=F64)
    for i, a in enumerate(axis):
        out[..., i] = per_axis[a, ..., i]
    return out


def rotary(x: np.ndarray, positions: Optional[np.ndarray] = None,
           inv_freq: Optional[np.ndarray] = None, attention_factor: float = 1.0,
           layout: str = "half_split", rotary_dim: Optional[int] = None,
           token_axis: int = -2, cos_sin: Optional[Tuple[np.ndarray, np.ndarray]] = None,
           mrope_sections: Optional[Sequence[int]] = None, mrope_layout: str = "chunked",
           offset: int = 0) -> np.ndarray:
    """Apply RoPE to the first ``rotary_dim`` channels of ``x[..., D]`` in fp64 (spec §1.2-§1.4).

    out1 = x1*cos - x2*sin ; out2 = x2*cos + x1*sin, cos/sin = cos/sin(angle)*attention_factor.
    layout ``half_split`` (NeoX): x1 = x[:d/2], x2 = x[d/2:d]; ``interleaved`` (GPT-J):
    x1 = x[0:d:2], x2 = x[1:d:2]. Channels [d, D) pass through (spec §1.3).
    positions: [S] shared, or [B, S] per sequence (B = axis 0 of x); None -> offset + s.
    ``offset`` is added to positions (KV-cache offset). M-RoPE: positions [k, S] / [k, B, S].
    ``cos_sin``: half-width tables [T, d/2] (attention factor already applied), row = position.
    """
    x = np.asarray(x, dtype=F64)
    D = x.shape[-1]
    nd = x.ndim
    t = token_axis % nd
    if t == nd - 1:
        raise ValueError("token_axis cannot be the channel axis")
    S = x.shape[t]
    if cos_sin is None and inv_freq is None:
        raise ValueError("need inv_freq or cos_sin")
    half = (np.asarray(cos_sin[0]).shape[-1] if cos_sin is not None
            else np.asarray(inv_freq).shape[0])
    d = 2 * half if rotary_dim is None else _check_dim(rotary_dim)
    if d != 2 * half:
        raise ValueError(f"rotary_dim {d} != 2 * len(inv_freq) {2 * half}")
    if d > D:
        raise ValueError(f"rotary_dim {d} > head dim {D}")  # spec §1.3 GGML assert n_dims <= ne0
    if positions is None:
        positions = np.arange(S, dtype=np.int64)
    pos = np.asarray(positions, dtype=np.int64) + int(offset)

    if cos_sin is not None:
        if mrope_sections is not None:
            raise ValueError("cos_sin tables and mrope_sections are exclusive")
        c_tab = np.asarray(cos_sin[0], dtype=F64)
        s_tab = np.asarray(cos_sin[1], dtype=F64)
        cos, sin = c_tab[pos], s_tab[pos]  # row `pos` of the half-width tables
    else:
        ang = rope_angles(pos, inv_freq, mrope_sections, mrope_layout)
        cos = np.cos(ang) * attention_factor  # spec §1.1: cos_half * attention_factor
        sin = np.sin(ang) * attention_factor  # spec §1.1: sin_half * attention_factor

    # cos/sin are [S, d/2] or [B, S, d/2]; broadcast onto x[..., :d/2]
    shape = [1] * nd
    shape[t] = S
    shape[-1] = half
    if cos.ndim == 3:
        if t == 0:
            raise ValueError("batched positions need token_axis > 0 (batch = axis 0)")
        shape[0] = cos.shape[0]
    elif cos.ndim != 2:
        raise ValueError("positions must be [S] or [B, S] (M-RoPE: [k, S] or [k, B, S])")
    if cos.shape[-2] != S:
        raise ValueError(f"positions cover {cos.shape[-2]} tokens, input has {S}")
    cos = cos.reshape(shape)
    sin = sin.reshape(shape)

    out = x.copy()
    if layout == "half_split":
        x1, x2 = x[..., :half], x[..., half:d]           # spec §1.2 NeoX
        out[..., :half] = x1 * cos - x2 * sin            # spec §1.2 out1
        out[..., half:d] = x2 * cos + x1 * sin           # spec §1.2 out2
    elif layout == "interleaved":
        x1, x2 = x[..., 0:d:2], x[..., 1:d:2]            # spec §1.2 GPT-J
        out[..., 0:d:2] = x1 * cos - x2 * sin
        out[..., 1:d:2] = x2 * cos + x1 * sin
    else:
        raise ValueError(f"layout must be 'half_split' or 'interleaved', got {layout!r}")
    return out  # channels [d, D) unchanged (spec §1.3)


# ----------------------------------------------------------------------------
# §5: reference attention
# ----------------------------------------------------------------------------

def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: Optional[float] = None,
              causal: bool = False, inv_freq: Optional[np.ndarray] = None,
              attention_factor: float = 1.0, rope_layout: str = "half_split",
              rotary_dim: Optional[int] = None, alibi_slopes: Optional[np.ndarray] = None,
              alibi_form: str = "symmetric", alignment: str = "bottom_right",
              q_positions: Optional[np.ndarray] = None,
              k_positions: Optional[np.ndarray] = None, extra_logit_scale: float = 1.0,
              masked_row: str = "zero", sinks: Optional[np.ndarray] = None,
              window: Optional[Tuple[int, Optional[int]]] = None,
              chunk_size: Optional[int] = None, softcap: Optional[float] = None,
              temperature: Optional[Tuple[float, float]] = None,
              key_lengths: Optional[np.ndarray] = None,
              key_mask: Optional[np.ndarray] = None,
              rope_only_positions: bool = False) -> np.ndarray:
    """Reference attention of spec §5, all in fp64.

    q [B,Hq,Sq,D], k [B,Hkv,Sk,D], v [B,Hkv,Sk,Dv] -> [B,Hq,Sq,Dv]; GQA: head h reads
    kv head h // (Hq/Hkv). Positions [S] or [B,S]; q default per ``alignment``.
    logits = (q.k) * scale * extra_logit_scale + alibi(q_pos, k_pos); causal masks
    k_pos > q_pos; softmax in fp64. A row with every key masked (possible only
    with bottom_right alignment and Sq > Sk, or explicit positions) yields zeros
    (``masked_row='zero'``, FlashAttention's convention) or NaN (``'nan'``).
    ``sinks`` [Hq] (gpt-oss attention sinks, HF ``GptOssAttention.sinks``):
    logit ``sinks[h]`` is appended to every row of head h as one more key
    column, the softmax runs over Sk + 1 columns and that column is dropped
    (it has no value row). A fully masked row then puts all its weight on the
    sink and yields zeros under either ``masked_row`` (as HF does), unless its
    sink is -inf too.
    Issue 23's positional terms, on positions: ``window`` (left, right or None)
    hides keys with k_pos < q_pos - left or k_pos > q_pos + right (inclusive
    extents; HF's causal ``sliding_window`` W is left = W - 1); ``chunk_size``
    C hides keys with floor(k_pos / C) != floor(q_pos / C) (Llama 4);
    ``softcap`` c maps the scaled logit s to c * tanh(s / c) before ALiBi
    and the masks (Gemma 2); ``temperature`` (floor_scale f, attn_scale a)
    multiplies the logits of query position p by log(max(floor((p + 1) / f),
    0) + 1) * a + 1 (Llama 4's attn_temperature_tuning; HF never sees p < 0).
    ``key_lengths`` [B] (issue 24; FlashAttention's varlen, ORT's seqlens_k)
    hides the keys of batch b at indices j >= key_lengths[b] (by index, not
    position; any integer, <= 0 hides every key). ``key_mask`` [B, Sk] (HF's
    ``attention_mask``) hides the keys of batch b whose entry is 0, for every
    query and head (left padding or any other). With ``rope_only_positions``
    the given positions rotate q and k and nothing else: masks, ALiBi and the
    temperature read the default (index) positions (HF: RoPE by position_ids,
    masks by cache index).
    """
    q = np.asarray(q, dtype=F64)
    k = np.asarray(k, dtype=F64)
    v = np.asarray(v, dtype=F64)
    B, Hq, Sq, D = q.shape
    Bk, Hkv, Sk, Dk = k.shape
    if Bk != B or Dk != D or v.shape[:3] != (B, Hkv, Sk):
        raise ValueError("shape mismatch between q, k, v")
    if Hq % Hkv:
        raise ValueError("Hq must be a multiple of Hkv")
    dq, dk = _default_positions(Sq, Sk, alignment)
    qp = dq if q_positions is None else np.asarray(q_positions, dtype=np.int64)
    kp = dk if k_positions is None else np.asarray(k_positions, dtype=np.int64)
    if inv_freq is not None:  # spec §5: q,k <- RoPE(q, q_pos), RoPE(k, k_pos)
        q = rotary(q, qp, inv_freq, attention_factor, rope_layout, rotary_dim, token_axis=2)
        k = rotary(k, kp, inv_freq, attention_factor, rope_layout, rotary_dim, token_axis=2)
    if rope_only_positions:
        qp, kp = dq, dk
    g = Hq // Hkv
    kv_head = np.arange(Hq) // g                 # spec §5 GQA: h // (Hq/Hkv)
    kk, vv = k[:, kv_head], v[:, kv_head]
    if scale is None:
        scale = 1.0 / math.sqrt(D)               # spec §5: default 1/sqrt(D)
    logits = np.einsum("bhqd,bhkd->bhqk", q, kk) * scale * extra_logit_scale  # spec §5
    qpb = np.broadcast_to(qp, (B, Sq))[:, None, :, None]
    kpb = np.broadcast_to(kp, (B, Sk))[:, None, None, :]
    if temperature is not None:                  # Llama 4: q *= log1p(floor((p+1)/f)) * a + 1
        f, a = temperature
        steps = np.maximum(np.floor((qpb.astype(F64) + 1.0) / f), 0.0)  # negative positions: 0
        logits = logits * (np.log1p(steps) * a + 1.0)
    if softcap is not None:                      # Gemma 2: after scaling, before the mask
        logits = softcap * np.tanh(logits / softcap)
    if alibi_slopes is not None:                 # spec §3.2: added after scaling
        logits = logits + alibi_bias(alibi_slopes, Sq, Sk, alibi_form, alignment, qp, kp,
                                     batch=B)
    mask = np.zeros(np.broadcast_shapes(qpb.shape, kpb.shape), dtype=bool)
    if causal:
        mask |= kpb > qpb                        # spec §5: k_pos > q_pos -> -inf
    if window is not None:
        left, right = window
        mask |= kpb < qpb - left
        if right is not None:
            mask |= kpb > qpb + right
    if chunk_size is not None:
        mask |= (kpb // chunk_size) != (qpb // chunk_size)
    if key_lengths is not None:
        lengths = np.asarray(key_lengths, dtype=np.int64).reshape(B, 1, 1, 1)
        mask = mask | (np.arange(Sk).reshape(1, 1, 1, Sk) >= lengths)
    if key_mask is not None:
        mask = mask | (np.asarray(key_mask).reshape(B, 1, 1, Sk) == 0)
    logits = np.where(mask, -np.inf, logits)
    if sinks is not None:                        # gpt-oss: cat([logits, sink]) over keys
        sk_col = np.broadcast_to(np.asarray(sinks, dtype=F64).reshape(1, Hq, 1, 1),
                                 (B, Hq, Sq, 1))
        logits = np.concatenate([logits, sk_col], axis=-1)
    mx = logits.max(axis=-1, keepdims=True)
    dead = ~np.isfinite(mx)
    e = np.exp(logits - np.where(dead, 0.0, mx))
    p = e / np.where(dead, 1.0, e.sum(axis=-1, keepdims=True))  # spec §5: softmax in fp64
    if sinks is not None:
        p = p[..., :-1]                          # the sink column has no value row
    out = np.einsum("bhqk,bhkd->bhqd", p, vv)
    if masked_row == "nan":
        out = np.where(dead, np.nan, out)
    return out


# ----------------------------------------------------------------------------
# §1.5: documenting the long-context fp32 angle problem
# ----------------------------------------------------------------------------

def angle_error_demo(inv_freq_f64: Optional[np.ndarray] = None,
                     max_log2_pos: int = 20) -> Dict[int, Dict[str, float]]:
    """fp32 angle error vs the exact (fp64) angle, per position octave (spec §1.5).

    The fp32 path rounds inv_freq to fp32 and forms ``p * inv`` in fp32 (as HF's
    autocast-off matmul does). Returns, for each k in 0..max_log2_pos, the max over
    positions in [2**(k-1), 2**k] (sampled: all of them up to 4096, then 4096 per octave)
    of |angle32 - angle64| and |cos32 - cos64| (cos of the fp32 angle taken in fp64,
    i.e. the error of the angle alone). Default inv_freq: Llama-3.1-8B (d=128, θ=5e5,
    llama3 x8 from 8192).
    """
    if inv_freq_f64 is None:
        inv_freq_f64, _ = inv_freq(128, 500000.0, "llama3", factor=8.0,
                                   original_max_position_embeddings=8192,
                                   low_freq_factor=1.0, high_freq_factor=4.0)
    inv64 = np.asarray(inv_freq_f64, dtype=F64)
    inv32 = inv64.astype(np.float32)
    rng = np.random.default_rng(0)
    out: Dict[int, Dict[str, float]] = {}
    for kk in range(max_log2_pos + 1):
        lo, hi = (0 if kk == 0 else 2 ** (kk - 1)), 2 ** kk
        if hi - lo <= 4096:
            p = np.arange(lo, hi + 1, dtype=np.int64)
        else:
            p = np.unique(np.concatenate([[lo, hi], rng.integers(lo, hi + 1, 4094)]))
        a64 = p.astype(F64)[:, None] * inv64
        a32 = (p.astype(np.float32)[:, None] * inv32).astype(F64)  # fp32 product
        out[kk] = {"max_pos": float(hi), "angle_abs_err": float(np.max(np.abs(a32 - a64))),
                   "cos_abs_err": float(np.max(np.abs(np.cos(a32) - np.cos(a64))))}
    return out


# ----------------------------------------------------------------------------
# Random configurations for differential testing
# ----------------------------------------------------------------------------

_HEAD_DIMS = (16, 32, 48, 64, 80, 96, 112, 128, 160, 192, 256)
_PRFS = (1.0, 1.0, 1.0, 0.5, 0.25, 0.4, 0.75)


def _log_uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _rand_dims(rng: np.random.Generator) -> Dict[str, Any]:
    """head_dim, partial_rotary_factor and rotary_dim = int(head_dim * prf) (spec §1.3), d even in 4..256."""
    while True:
        if rng.random() < 0.5:
            d = int(rng.integers(2, 129)) * 2   # any even 4..256
            return {"head_dim": d, "partial_rotary_factor": 1.0, "rotary_dim": d}
        hd = int(rng.choice(_HEAD_DIMS))
        prf = float(rng.choice(_PRFS))
        d = int(hd * prf)  # spec §1.3: int() truncates
        if d >= 4 and d % 2 == 0:
            return {"head_dim": hd, "partial_rotary_factor": prf, "rotary_dim": d}


def _rand_factor(rng: np.random.Generator, lo: float = 1.0, hi: float = 64.0) -> float:
    r = rng.random()
    if r < 0.1:
        return float(lo)
    if r < 0.35:
        return float(rng.choice([x for x in (1.0, 1.5, 2.0, 4.0, 8.0, 16.0, 32.0, 40.0, 64.0)
                                 if lo <= x <= hi]))
    return _log_uniform(rng, lo, hi)


def _rand_len(rng: np.random.Generator, lo: int = 256, hi: int = 65536) -> int:
    if rng.random() < 0.5:
        return int(2 ** rng.integers(int(math.log2(lo)), int(math.log2(hi)) + 1))
    return int(rng.integers(lo, hi + 1))


def random_configs(scheme: Optional[str], n: int, seed: int = 0) -> Iterator[Dict[str, Any]]:
    """Yield ``n`` valid parameter dicts for ``scheme`` covering the parameter space.

    Each dict has ``scheme``, ``rotary_dim``, ``head_dim``, ``partial_rotary_factor``,
    ``base``, ``params`` (kwargs for :func:`inv_freq`) and ``seq_len`` (or None).
    ``inv_freq(c['rotary_dim'], c['base'], c['scheme'], seq_len=c['seq_len'], **c['params'])``
    evaluates one.
    """
    scheme = "default" if scheme is None else scheme
    if scheme not in SCHEMES:
        raise ValueError(f"unknown scheme {scheme!r}")
    rng = np.random.default_rng([seed, SCHEMES.index(scheme)])
    for _ in range(n):
        cfg: Dict[str, Any] = {"scheme": scheme, **_rand_dims(rng)}
        cfg["base"] = (float(rng.choice([1e4, 5e5, 1e6, 150000.0]))
                       if rng.random() < 0.2 else _log_uniform(rng, 1e2, 1e7))
        d = cfg["rotary_dim"]
        p: Dict[str, Any] = {}
        seq_len = None
        if scheme == "linear":
            p["factor"] = _rand_factor(rng)
        elif scheme == "ntk":
            p["factor"] = _rand_factor(rng)
            p["form"] = "hf" if rng.random() < 0.5 else "vllm"
        elif scheme == "dynamic_ntk":
            p["factor"] = _rand_factor(rng)
            mpe = _rand_len(rng)
            p["max_position_embeddings"] = mpe
            p["rule"] = "hf" if rng.random() < 0.7 else "vllm_legacy"
            r = rng.random()
            if r < 0.3:
                seq_len = int(rng.integers(1, mpe + 1))          # below / at max: inactive
            elif r < 0.4:
                seq_len = mpe
            elif r < 0.5:
                seq_len = mpe + 1
            else:
                seq_len = int(mpe * _log_uniform(rng, 1.0, 64.0))  # above max
        elif scheme == "yarn":
            p["factor"] = _rand_factor(rng)
            p["original_max_position_embeddings"] = _rand_len(rng)
            r = rng.random()
            if r < 0.4:
                bf, bs = 32.0, 1.0
            elif r < 0.5:
                bf = bs = float(rng.choice([1.0, 4.0, 32.0]))   # equal: low==high guard territory
            else:
                bf = _log_uniform(rng, 1.0, 128.0)
                bs = _log_uniform(rng, 0.125, bf)
            p["beta_fast"], p["beta_slow"] = bf, bs
            p["truncate"] = bool(rng.random() < 0.6)
            r = rng.random()
            if r < 0.15:
                p["mscale"], p["mscale_all_dim"] = 1.0, 1.0            # DeepSeek-V3
            elif r < 0.3:
                m = float(rng.choice([0.707, 1.0, 0.5]))
                p["mscale"], p["mscale_all_dim"] = m, float(rng.choice([m, 1.0, 0.707]))
            elif r < 0.4:
                p["mscale"], p["mscale_all_dim"] = 1.0, 0.0            # zero: default factor
            elif r < 0.5:
                p["attention_factor"] = float(rng.uniform(0.5, 2.0))  # explicit
        elif scheme == "llama3":
            p["factor"] = _rand_factor(rng)
            p["original_max_position_embeddings"] = _rand_len(rng)
            r = rng.random()
            if r < 0.3:
                lo, hi = 1.0, 4.0
            elif r < 0.45:
                lo = hi = float(rng.choice([1.0, 2.0, _log_uniform(rng, 0.5, 8.0)]))
            else:
                lo = _log_uniform(rng, 0.25, 8.0)
                hi = lo * _log_uniform(rng, 1.0, 16.0)
            p["low_freq_factor"], p["high_freq_factor"] = lo, hi
        elif scheme == "longrope":
            L = _rand_len(rng)
            p["original_max_position_embeddings"] = L
            r = rng.random()
            p["max_position_embeddings"] = (L if r < 0.1 else int(L * _log_uniform(rng, 1.0, 64.0)))
            p["short_factor"] = [float(x) for x in (
                np.ones(d // 2) if rng.random() < 0.2 else np.exp(rng.uniform(0, math.log(64), d // 2)))]
            p["long_factor"] = [float(x) for x in np.exp(rng.uniform(0, math.log(64), d // 2))]
            if rng.random() < 0.2:
                p["attention_factor"] = float(rng.uniform(0.5, 2.0))
            r = rng.random()
            p["select"] = "hf" if r < 0.7 else ("short" if r < 0.85 else "long")
            r = rng.random()
            if r < 0.35:
                seq_len = int(rng.integers(1, L + 1))                # short side
            elif r < 0.45:
                seq_len = L                                          # boundary: still short
            elif r < 0.55:
                seq_len = L + 1                                      # boundary: long
            else:
                seq_len = int(L * _log_uniform(rng, 1.0, 64.0)) + 1  # long side
        cfg["params"] = p
        cfg["seq_len"] = seq_len
        yield cfg
