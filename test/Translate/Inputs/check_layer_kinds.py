"""Per-layer attention of the HF importer against transformers' own reading
(issue 23): for each config.json given, every layer's attention in the
imported module (the function whose `posenc.layers` holds it, or the one
@attention) must be what `transformers.AutoConfig` reads for that layer:
sliding window (posenc `window` left = HF `sliding_window` - 1 on
sliding_attention layers and on every layer of the families that window
them all, unless the window covers max_position_embeddings), chunk size on
chunked_attention layers, soft-cap, softmax scale (`query_pre_attn_scalar`),
RoPE or none (Llama 4's `no_rope_layers`), the layer's RoPE base and type
(Gemma 3's per-layer-type `rope_parameters`), Llama 4's query temperature on
NoPE layers and its q/k L2 norm on RoPE layers.

    check_layer_kinds.py POSENC_TRANSLATE CONFIG.json...

Prints one line per config and "N passed, N failed"."""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
import transformers  # noqa: E402

transformers.logging.set_verbosity_error()

# Families whose attention applies `sliding_window` on every layer.
UNIFORM_WINDOW = ("mistral", "mixtral", "phi3", "starcoder2")


def hf_layers(path):
    """What transformers reads, per layer: a dict of the attention terms."""
    d = tempfile.mkdtemp()
    try:
        shutil.copy(path, os.path.join(d, "config.json"))
        c = transformers.AutoConfig.from_pretrained(d).get_text_config()
    finally:
        shutil.rmtree(d)
    n = c.num_hidden_layers
    types = list(getattr(c, "layer_types", None) or
                 (["sliding_attention"] * n if c.model_type in UNIFORM_WINDOW and
                  getattr(c, "sliding_window", None) else ["full_attention"] * n))
    head_dim = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
    scalar = getattr(c, "query_pre_attn_scalar", None)
    scale = (scalar if scalar is not None else head_dim) ** -0.5
    no_rope = getattr(c, "no_rope_layers", None)
    params = c.rope_parameters
    layers = []
    for i, t in enumerate(types):
        rope = not no_rope or no_rope[i] == 1
        p = params.get(t, params) if isinstance(params.get(t), dict) else params
        w = c.sliding_window if t == "sliding_attention" else None
        if w is not None and w >= c.max_position_embeddings:
            w = None
        temp = None
        if c.model_type == "llama4_text" and not rope and c.attn_temperature_tuning:
            temp = (float(c.floor_scale), float(c.attn_scale))
        layers.append({
            "window": None if w is None else w - 1,
            "chunk": c.attention_chunk_size if t == "chunked_attention" else None,
            "softcap": getattr(c, "attn_logit_softcapping", None),
            "scale": scale,
            "rope": (float(p["rope_theta"]), p.get("rope_type", "default")) if rope else None,
            "temperature": temp,
            "qk_norm": bool(c.model_type == "llama4_text" and rope and c.use_qk_norm),
        })
    return layers


SCHEME = {"default": None, "linear": "linear", "llama3": "llama3", "yarn": "yarn",
          "dynamic": "dynamic_ntk", "longrope": "longrope"}


def posenc_layers(translate, path, count):
    """What the imported module computes, per layer (same keys)."""
    text = subprocess.run([translate, "--import-hf-config", path], capture_output=True,
                          text=True, check=True).stdout
    funcs = re.split(r"\n  func\.func ", text)[1:]
    layers = [None] * count
    for f in funcs:
        m = re.search(r"posenc\.layers = array<i64: ([0-9, ]+)>", f)
        idx = [int(x) for x in m.group(1).split(",")] if m else list(range(count))
        op = re.search(r"posenc\.attention .*", f).group(0)
        num = lambda pat: re.search(pat, op)
        w, ch, cap, sc = (num(r"window\(<left = (\d+)>\)"), num(r"chunk_size\((\d+)\)"),
                          num(r"softcap\(([^)]+)\)"), num(r"scale\(([^)]+)\)"))
        t = num(r"query_temperature\(<floor_scale = ([^,]+), attn_scale = ([^>]+)>\)")
        freqs = re.search(r"posenc\.rope_frequencies dim (\d+) base (\S+)(?: scaling\(#posenc\.(\w+))?",
                          f)
        head_dim = int(re.search(r"tensor<\d+x\d+x\?x(\d+)x", f).group(1))
        entry = {
            "window": int(w.group(1)) if w else None,
            "chunk": int(ch.group(1)) if ch else None,
            "softcap": float(cap.group(1)) if cap else None,
            "scale": float(sc.group(1)) if sc else head_dim ** -0.5,
            "rope": (float(freqs.group(2)), freqs.group(3) or "default") if freqs else None,
            "temperature": (float(t.group(1)), float(t.group(2))) if t else None,
            "qk_norm": "math.rsqrt" in f,
        }
        for i in idx:
            layers[i] = entry
    return layers


def same(hf, pe):
    if hf["rope"] is not None and pe["rope"] is not None:
        hf = dict(hf, rope=(hf["rope"][0], SCHEME.get(hf["rope"][1], hf["rope"][1]) or "default"))
    keys = ("window", "chunk", "softcap", "rope", "temperature", "qk_norm")
    bad = [k for k in keys if hf[k] != pe[k]]
    if not math.isclose(hf["scale"], pe["scale"], rel_tol=1e-12):
        bad.append("scale")
    return bad


def main():
    translate, paths = sys.argv[1], sys.argv[2:]
    passed = failed = 0
    for path in paths:
        hf = hf_layers(path)
        pe = posenc_layers(translate, path, len(hf))
        diffs = [(i, same(h, p) if p else ["missing"]) for i, (h, p) in enumerate(zip(hf, pe))]
        diffs = [(i, d) for i, d in diffs if d]
        name = os.path.basename(path)
        if diffs:
            failed += 1
            i, d = diffs[0]
            print(f"FAIL {name}: layer {i} differs in {d}: HF {hf[i]} posenc {pe[i]}")
        else:
            passed += 1
            kinds = sorted({str(sorted((k, str(v)) for k, v in layer.items())) for layer in hf})
            print(f"PASS {name}: {len(hf)} layers, {len(kinds)} kind(s)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
