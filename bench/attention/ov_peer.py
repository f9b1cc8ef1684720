"""OpenVINO as a peer of bench/attention (run.py cases a-c, local.py d-f).

One OpenVINO model per case, built with its Python opset API in the form an
HF export has after OpenVINO's conversion (what its CPU plugin's fusions are
written for): HF-form RoPE (f32 inv_freq x positions, cat(freqs, freqs),
cos/sin, rotate_half), GQA as a grouped view of q (no K/V copy), then opset13 ScaledDotProductAttention (causal flag, or the mask
as its attention_mask input); soft-capped logits (Gemma 2, which SDPA cannot
express) as the eager graph: MatMul, scale, tanh cap, additive mask,
Softmax, MatMul. Compiled for the CPU plugin with f32 forced
(INFERENCE_PRECISION_HINT f32, KV_CACHE_PRECISION f32), one stream, the
given number of inference threads; inputs and output shared with NumPy
(no copies in the timed call).
"""
import numpy as np


class OVSkip(Exception):
    """OpenVINO cannot run the case (the reason is printed by the caller)."""


def available():
    """None when openvino imports, else the reason it does not."""
    try:
        import openvino  # noqa: F401
    except ImportError as e:
        return f"openvino not installed ({e}; requirements-bench.txt)"
    return None


def _ops():
    import openvino.opset13 as ops
    return ops


def _rope(ops, x, cos, sin, d):
    """HF's apply_rotary_pos_emb on [1, H, S, D] with cos/sin [1, 1, S, D]."""
    h = d // 2
    x1 = ops.slice(x, [0], [h], [1], [3])
    x2 = ops.slice(x, [h], [d], [1], [3])
    rot = ops.concat([ops.negative(x2), x1], axis=3)
    return ops.add(ops.multiply(x, cos), ops.multiply(rot, sin))


def _cos_sin(ops, inv_freq, positions):
    """HF's rotary embedding forward: [1, 1, S, D] cos and sin from the f32
    inv_freq constant and an i64 positions input [S]."""
    inv = ops.constant(inv_freq.astype(np.float32).reshape(1, -1, 1))
    pos = ops.unsqueeze(ops.convert(positions, "f32"), [0, 1])  # [1, 1, S]
    freqs = ops.transpose(ops.matmul(inv, pos, False, False), [0, 2, 1])  # [1, S, D/2]
    emb = ops.unsqueeze(ops.concat([freqs, freqs], axis=2), [1])
    return ops.cos(emb), ops.sin(emb)


def build(hq, hkv, sq, sk, d, inv_freq=None, rotate_k=True, mask=None, cap=None):
    """The model of one case. Inputs: q [1, Hq, Sq, D], k, v [1, Hkv, Sk, D],
    then q_positions [Sq] (i64) and, with rotate_k, k_positions [Sk] when
    inv_freq is given, then the mask when `mask` is an array (bool [Sq, Sk]:
    True = attend; or an f32 additive bias of any broadcastable shape).
    mask="causal": SDPA's causal flag (queries aligned with the first keys).
    """
    import openvino as ov
    ops = _ops()
    params = [ops.parameter([1, hq, sq, d], np.float32, name="q"),
              ops.parameter([1, hkv, sk, d], np.float32, name="k"),
              ops.parameter([1, hkv, sk, d], np.float32, name="v")]
    q, k, v = params
    if inv_freq is not None:
        qpos = ops.parameter([sq], np.int64, name="q_positions")
        params.append(qpos)
        cos, sin = _cos_sin(ops, inv_freq, qpos)
        q = _rope(ops, q, cos, sin, d)
        if rotate_k:
            kpos = ops.parameter([sk], np.int64, name="k_positions")
            params.append(kpos)
            cos_k, sin_k = _cos_sin(ops, inv_freq, kpos)
            k = _rope(ops, k, cos_k, sin_k, d)
    # GQA as a grouped view: q [1, Hkv, G, Sq, D] against k, v
    # [1, Hkv, 1, Sk, D] (SDPA and MatMul broadcast batch dims). HF's
    # repeat_kv (Broadcast + Reshape) copies K and V every call: measured
    # 3.6x slower in decode (1164 ms against 325 ms at Sk=32768, 2 threads).
    g = hq // hkv
    if g > 1:
        q = ops.reshape(q, np.array([1, hkv, g, sq, d], np.int64), False)
        k, v = ops.unsqueeze(k, [2]), ops.unsqueeze(v, [2])
    scale = ops.constant(np.float32(1.0 / np.sqrt(d)))
    mask_param = mask_in = None
    if mask is not None and not isinstance(mask, str):
        mask_param = mask_in = ops.parameter(list(mask.shape), mask.dtype, name="mask")
        params.append(mask_param)
        if g > 1 and mask.ndim == 4 and mask.shape[1] == hq:  # per-head bias
            mask_in = ops.reshape(mask_param, np.array([1, hkv, g, sq, sk], np.int64), False)
    if cap is None:
        if mask_param is not None:
            out = ops.scaled_dot_product_attention(q, k, v, mask_in, scale, causal=False)
        else:
            out = ops.scaled_dot_product_attention(q, k, v, scale=scale,
                                                   causal=mask == "causal")
    else:
        if mask_param is None or mask.dtype != np.float32:
            raise ValueError("the soft-capped graph takes an f32 additive mask")
        s = ops.multiply(ops.matmul(q, k, False, True), scale)
        c = ops.constant(np.float32(cap))
        s = ops.multiply(ops.tanh(ops.divide(s, c)), c)
        p = ops.softmax(ops.add(s, mask_in), -1)
        out = ops.matmul(p, v, False, False)
    if g > 1:
        out = ops.reshape(out, np.array([1, hq, sq, d], np.int64), False)
    return ov.Model([out], params, "attention")


def run(model, feeds, threads, warmup, reps, timed):
    """Compiles `model` for the CPU plugin (f32 forced, one stream, `threads`
    threads) and times `reps` calls on `feeds` (a list in the model's input
    order) with `timed`. Returns (median ms, output array, a note naming
    the fused attention/RoPE kernels the plugin ran)."""
    import openvino as ov
    core = ov.Core()
    config = {"INFERENCE_PRECISION_HINT": "f32", "KV_CACHE_PRECISION": "f32",
              "INFERENCE_NUM_THREADS": threads, "NUM_STREAMS": 1,
              "PERFORMANCE_HINT": "LATENCY"}
    try:
        compiled = core.compile_model(model, "CPU", config)
        request = compiled.create_infer_request()
        for i, x in enumerate(feeds):
            request.set_input_tensor(i, ov.Tensor(np.ascontiguousarray(x), shared_memory=True))
        ms, _ = timed(request.infer, warmup, reps)
    except Exception as e:  # say why, do not hide it
        # OpenVINO's message is a chain of "Exception from <file>:<line>:"
        # headers; the reason is the last other line.
        lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
        reasons = [ln for ln in lines if not ln.startswith("Exception from")]
        why = reasons[-1] if reasons else (lines[-1] if lines else type(e).__name__)
        raise OVSkip(f"OpenVINO cannot run this case: {why[:300]}")
    out = request.get_output_tensor(0).data.copy()
    kinds = {op.get_rt_info()["layerType"].astype(str)
             for op in compiled.get_runtime_model().get_ops()}
    # ScaledAttn: the plugin's SDPA kernel (kept only in stateful LLM
    # models); Subgraph: a Snippets kernel (its fused MatMul-Softmax-MatMul
    # for the decomposed SDPA); RoPE: its fused rotary kernel.
    names = {"ScaledAttn": "SDPA kernel", "Subgraph": "Snippets fused subgraph",
             "RoPE": "RoPE kernel"}
    ran = [names[k] for k in sorted(kinds) if k in names]
    return ms, out, "OpenVINO CPU: " + (", ".join(ran) if ran else "unfused ops only")
