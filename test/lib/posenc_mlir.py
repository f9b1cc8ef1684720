"""Builds posenc IR from reference configs and reads numbers back from IR.

Test utility shared by the numerics tests: `posenc_ref.random_configs`
describes a RoPE configuration as a dict; this module spells it as posenc
attributes and ops, and parses constants (hex-printed dense elements, f32
scalars) out of posenc-opt output, bit-exactly.
"""

import re
import struct
import subprocess
from typing import Any, Dict, List, Tuple

import numpy as np


def f(x: float) -> str:
    """An MLIR float literal that round-trips the double exactly."""
    return "%.17e" % float(x)


def scaling_attr(cfg: Dict[str, Any]) -> str:
    """The `#posenc.<scheme><...>` attribute of a config ('' when unscaled)."""
    s, p = cfg["scheme"], cfg["params"]
    if s == "default":
        return ""
    if s == "linear":
        return f"#posenc.linear<factor = {f(p['factor'])}>"
    if s == "ntk":
        return f"#posenc.ntk<factor = {f(p['factor'])}, form = {p.get('form', 'hf')}>"
    if s == "dynamic_ntk":
        return (f"#posenc.dynamic_ntk<factor = {f(p['factor'])}, max_position_embeddings = "
                f"{p['max_position_embeddings']}, rule = {p.get('rule', 'hf')}>")
    if s == "yarn":
        parts = [f"factor = {f(p['factor'])}",
                 f"original_max_position_embeddings = {p['original_max_position_embeddings']}",
                 f"beta_fast = {f(p.get('beta_fast', 32.0))}",
                 f"beta_slow = {f(p.get('beta_slow', 1.0))}",
                 f"truncate = {'true' if p.get('truncate', True) else 'false'}"]
        for key in ("mscale", "mscale_all_dim", "attention_factor"):
            if p.get(key) is not None:
                parts.append(f"{key} = {f(p[key])}")
        return "#posenc.yarn<" + ", ".join(parts) + ">"
    if s == "llama3":
        return (f"#posenc.llama3<factor = {f(p['factor'])}, low_freq_factor = "
                f"{f(p.get('low_freq_factor', 1.0))}, high_freq_factor = "
                f"{f(p.get('high_freq_factor', 4.0))}, original_max_position_embeddings = "
                f"{p['original_max_position_embeddings']}>")
    if s == "longrope":
        lst = lambda xs: "[" + ", ".join(f(x) for x in xs) + "]"
        parts = [f"short_factor = {lst(p['short_factor'])}",
                 f"long_factor = {lst(p['long_factor'])}",
                 f"original_max_position_embeddings = {p['original_max_position_embeddings']}",
                 f"max_position_embeddings = {p['max_position_embeddings']}"]
        if p.get("attention_factor") is not None:
            parts.append(f"attention_factor = {f(p['attention_factor'])}")
        parts.append(f"select = {p.get('select', 'hf')}")
        return "#posenc.longrope<" + ", ".join(parts) + ">"
    raise ValueError(f"unknown scheme {s}")


def needs_seq_len(cfg: Dict[str, Any]) -> bool:
    """True when the posenc op takes a runtime seq_len (HF runtime rules)."""
    p = cfg["params"]
    return ((cfg["scheme"] == "dynamic_ntk" and p.get("rule", "hf") == "hf") or
            (cfg["scheme"] == "longrope" and p.get("select", "hf") == "hf"))


def ref_seq_len(cfg: Dict[str, Any]):
    """The seq_len the reference should see for this config."""
    return cfg["seq_len"] if needs_seq_len(cfg) else None


def frequencies_op(cfg: Dict[str, Any], elem: str, seq_len_value: str = "") -> str:
    """`posenc.rope_frequencies` for `cfg` with results `%inv, %af`."""
    d = cfg["rotary_dim"]
    attr = scaling_attr(cfg)
    text = f"%inv, %af = posenc.rope_frequencies dim {d} base {f(cfg['base'])}"
    if attr:
        text += f" scaling({attr})"
    if needs_seq_len(cfg):
        text += f" seq_len({seq_len_value} : i64)"
    return text + f" : tensor<{d // 2}x{elem}>, f32"


def fold_module(cfgs: List[Dict[str, Any]], elem: str) -> str:
    """One function per config; seq_len (if any) is a constant so it folds."""
    funcs = []
    for i, cfg in enumerate(cfgs):
        d = cfg["rotary_dim"]
        body = ""
        if needs_seq_len(cfg):
            body += f"  %len = arith.constant {cfg['seq_len']} : i64\n"
        body += "  " + frequencies_op(cfg, elem, "%len") + "\n"
        body += f"  return %inv, %af : tensor<{d // 2}x{elem}>, f32\n"
        funcs.append(f"func.func @cfg{i}() -> (tensor<{d // 2}x{elem}>, f32) {{\n{body}}}")
    return "\n".join(funcs) + "\n"


def run_opt(posenc_opt: str, module: str, *args: str) -> str:
    out = subprocess.run([posenc_opt, "-", *args], input=module, text=True,
                         capture_output=True)
    if out.returncode != 0:
        raise RuntimeError(f"posenc-opt {' '.join(args)} failed:\n{out.stderr[:4000]}")
    return out.stdout


_DTYPES = {"f32": np.float32, "f64": np.float64}
_CONST = re.compile(r"(%\S+) = arith\.constant (.+?) : (\S+)$")


def _parse_constant(value: str, type_: str) -> Any:
    m = re.match(r"tensor<(?:(\d+)x)?(\w+)>", type_)
    if not m:
        return float(value) if type_ in _DTYPES else None
    n, elem = int(m.group(1) or 1), m.group(2)
    dtype = _DTYPES[elem]
    dense = re.fullmatch(r'dense<"0x([0-9A-Fa-f]+)">', value)
    if dense:
        return np.frombuffer(bytes.fromhex(dense.group(1)), dtype=dtype).copy()
    splat = re.fullmatch(r"dense<([^\[\]\"]+)>", value)
    if splat:
        return np.full(n, dtype(float(splat.group(1))), dtype=dtype)
    listed = re.fullmatch(r"dense<\[(.*)\]>", value)
    if listed:
        return np.array([float(x) for x in listed.group(1).split(",")], dtype=dtype)
    raise ValueError(f"cannot parse constant {value}")


def folded_results(text: str) -> Dict[str, Tuple[Any, ...]]:
    """Maps each function name to the constant values it returns."""
    results = {}
    for m in re.finditer(r"func\.func @(\w+)\(.*?\n(.*?)\n  \}", text, re.S):
        name, body = m.group(1), m.group(2)
        consts = {}
        ret = None
        for line in body.splitlines():
            line = line.strip()
            c = _CONST.match(line)
            if c:
                consts[c.group(1)] = _parse_constant(c.group(2), c.group(3))
            elif line.startswith("return"):
                names = line[len("return"):].split(":")[0]
                ret = [n.strip() for n in names.split(",")]
        if ret is None or any(n not in consts for n in ret):
            raise ValueError(f"@{name} did not fold to constants:\n{body}")
        results[name] = tuple(consts[n] for n in ret)
    return results


def ulp_distance_f32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in f32 ulps between two f32 arrays (same sign assumed)."""
    ai = np.asarray(a, np.float32).view(np.int32).astype(np.int64)
    bi = np.asarray(b, np.float32).view(np.int32).astype(np.int64)
    return np.abs(ai - bi)
