"""Seeded random-shape differential harness: posenc kernels compiled by
posenc-cpu-pipeline and run by posenc-run vs the fp64 NumPy reference
(test/lib/posenc_ref.py, written from the numerics spec, never from lib/).

Usage:
  diff_harness.py POSENC_RUN [--seed S] [--cases N] [--minutes M]
                  [--ops rotary,alibi,sinusoidal,learned,attention]
                  [--replay SEED:I[,I...]] [--timeout SECONDS_PER_CASE]
                  [--vector-widths 1,2,...] [--inject mismatch|error] [-v]

Cases. Case I of seed S is fully determined by (S, I): its op is
OPS_CYCLE[I % len(OPS_CYCLE)], its shapes, attributes and inputs come from
numpy's generator seeded with [S, I, 0]. Cases I in [G*GROUP, (G+1)*GROUP)
form option group G, whose pipeline options and thread count are determined
by (S, G) (below). The cases of a group are compiled together
(one function with one result per case, a few cases per posenc-run call) to
amortize the JIT; `--replay S:I` runs case I alone under its group's options,
`--replay S:I,J,...` runs cases of one group together. `--ops` skips the cases
of other ops without changing any case.

What is drawn (per case):
  rotary:     f32/f16/bf16; half_split/interleaved; rotary_dim = head_dim or
              partial with odd pass-through widths; [B,H,S,D], [B,S,H,D]
              (token_dim 1), [T,H,D] (token_dim 0), [S,D]; no positions,
              [S] or [B,S] positions (i64/i32/index, argument or constant),
              static or dynamic offset; frequencies from rope_frequencies with
              every scaling scheme (posenc_ref.random_configs; runtime seq_len
              for HF dynamic NTK / LongRoPE, as an argument or a constant),
              f32 (HF-exact angles) or f64 tables, or a runtime inv_freq
              argument, or half-width cos/sin tables; attention factor;
              M-RoPE (chunked / interleaved sections).
  alibi:      1-130 heads (powers of two and not), head offsets (shards),
              max_bias, slopes attribute or tensor, symmetric / key_linear,
              bottom_right / top_left, default, [S] or [B,S] positions,
              [H,Sq,Sk] or [B,H,Sq,Sk] results, f32/f16/bf16.
  sinusoidal: interleaved / concatenated, widths 2-520 (odd and even),
              no positions, [S] or [B,S], offsets, base, f32/f16/bf16.
  learned:    [..., S, D] inputs of rank 2-4, [P, D] tables, no positions
              (offset + s), [S] or [B,S] positions, offsets, f32/f16/bf16.
  attention:  GQA group sizes 1-8 with 1-8 kv heads (Hq mostly not a multiple
              of 8), B 1-2, Sq != Sk, decode (Sq = 1), Dv != D, causal or not,
              both alignments, explicit scale, RoPE (any scheme, partial,
              both layouts, f32/f64 tables, attention factor), ALiBi (attribute
              with shards or slopes tensor, both forms), explicit [S]/[B,S]
              positions (fully masked rows included), f32 (and some f16/bf16).
              LONG_KEYS of them (decided by the stream [S, I, 6], so that the
              others are the cases drawn before it existed) have Sk of
              513-4200, mostly with G*Sq <= 16 (posenc-tile-attention splits
              the keys into chunks of 512 and combines them; G up to 16),
              sometimes G*Sq > 16 (one long key loop), and small head dims.
              SINKS of them (decided by the stream [S, I, 7]) carry gpt-oss
              attention sinks, an [Hq] f32 argument: log(Sk) + U(-3, 3) (the
              sink takes a share of every row's weight, from small to most),
              sometimes with one head's sink at -inf.
              LOCAL of them (decided by the stream [S, I, 8]) get issue 23's
              positional terms, each alone or together: a sliding window
              (left extent 0, 1, below a key tile, any, beyond Sk; a right
              extent sometimes), a chunk size (1, any, beyond Sk), a
              soft-cap (0.5-30) and Llama 4's query temperature (floor
              scales that f32 divides exactly).
              KEY_LENGTHS of them (decided by the stream [S, I, 9]) get
              issue 24's key_lengths [B] (i32, i64 or index; an argument
              or a constant): per sequence every key, none (0 or
              negative), one, more than Sk or any number.
              KEY_MASK of them (decided by the stream [S, I, 10]) get
              issue 24's key_mask [B, Sk] (HF's attention_mask; i1, i8,
              i32 or i64, nonzero entries any value): left padding of any
              length (whole sequences too), random holes, or all ones;
              with explicit positions and RoPE, half of them make the
              positions RoPE's alone (rope_only_positions).
  linalg:     (linalg_cases.py) chains of linalg.generic on tensors as
              importers emit them: elementwise (1-3 arith ops per body,
              compare + select, casts), broadcast, reduction and gather
              (tensor.extract) over i1, i8, i16, i32, i64, f16, bf16, f32,
              f64 (arguments, dense and splat constants); expected values
              from numpy's evaluation of the arith semantics. Indices
              LINALG_BASE + LINALG_GROUP * G + j (j < LINALG_GROUP) belong
              to option group G, so the posenc-op cases are as before.
Extents are odd, prime or off-by-one powers of two so that blocks and vector
tiles do not divide them; each case has at most MAX_ELEMENTS elements per
tensor.

Pipeline options (per group): posenc-cpu-pipeline{vector-width=W
block-elements=E openmp=O approximate-trig=A approximate-exp=X
nontemporal-stores=N nontemporal-min-bytes=M flash-attention=F
attention-query-tile=QT attention-key-tile=KT attention-prerotate-keys=P
attention-vector-width=AV attention-bf16-dot-products=BD} and
posenc-run --threads T. W from VECTOR_WIDTHS (or --vector-widths); E tiny
(8-64: many blocks, remainder tiles), small (65-4096) or the default 262144;
O, A, X on or off; T 1 or 2; N off, on, or on with M from MIN_BYTES (the
default 8 MiB is never reached by outputs this small); F on in 3 groups of 4
(off: the reference decomposition, and no QT, KT, P); QT from
ATTENTION_QUERY_TILES, KT from ATTENTION_KEY_TILES (1, sizes that divide
none or few of the drawn extents, and 64, mostly above them), P on or off,
AV from ATTENTION_VECTOR_WIDTHS (few-row blocks: 0 the tile ops, else the
dot-product key loop of that register width; 2 falls back to tile ops);
BD on or off where this CPU has AVX-512 BF16 (bf16 decode scores as
vdpbf16ps dot products), else off;
QT, KT, P, AV and BD cycle over the flash-attention groups only.
The options are a function of (S, group), so --replay compiles a case under
the options it failed with (the REPRO line prints them).
Each option cycles through its values in a seeded order (every value within
len(values) consecutive groups), so even a short run covers every value.
Odd widths (3, 7) are accepted by the pass but left out by default: LLVM
takes ~10 s to JIT one attention kernel at those widths.

Tolerances (absolute, per element; u = 2^-24; EPS = half an ulp of the
output type relative to the value: 2^-24 f32, 2^-11 f16, 2^-8 bf16):
  rotary f32:      (4e-6 + 2*angle_err) * max(1, af) * max(1, max|x|): f32
                   cos/sin of an angle reduced in f64 (few ulps), products and
                   one sum in f32 (as test/Integration/exec_cases.py);
                   angle_err = 0: f64 tables give exact angles, f32 tables are
                   compared with the HF-exact angle (the f32 product
                   f32(p) * f32(inv), one rounding), cos/sin tables with their
                   own rows.
  rotary f16/bf16: EPS*|ref| + the f32 bound + 1e-5 (one final rounding; inputs
                   and tables are exact in their types; f16 subnormals).
  alibi:           3u*|ref| (slope rounded to f32, product rounded: two
                   roundings; |q-k| and positions are exact integers), plus
                   EPS*|ref| (+2^-25 for f16 subnormals) for f16/bf16.
  sinusoidal:      2e-6 (f32 sin/cos of an angle formed and reduced in f64),
                   plus EPS*|ref| for f16/bf16.
  learned:         2u*|ref| (one f32 addition, rounded once), plus EPS*|ref|
                   (+2^-25) for f16/bf16.
  attention:       a forward error bound from the data (inputs in [-1, 1]):
                   L = max over (query, key) of scale * sum_d |q_d||k_d| on the
                   (rotated) inputs, A = L + max|alibi bias| + max|sink|
                   (finite sinks; a sink also counts as one more key, Sk + 1);
                   logit error delta = (D+2)u*L (f32 dot product) + 3u*A
                   (scale, bias, subtraction) + RoPE error (the rotary bound on
                   q and k, and the f32 angle for f32 tables, through the dot
                   product) + 2*EPS*L for f16/bf16 (RoPE'd q, k rounded to the
                   type); softmax changes by at most expm1(2*delta) of max|v|;
                   exp, normalization and the P.V sum add (2*Sk + 8)u*max|v|;
                   f16/bf16 outputs add EPS*|ref|. The query temperature
                   t <= tmax multiplies L (and adds 4u*L*tmax: t's own f32
                   rounding); a soft-cap c is 1-Lipschitz and adds 3u*c plus
                   its tanh approximation, 8u*c (measured: 2.3e-7 absolute
                   on tanh). f32 without RoPE on
                   uniform inputs: 6.1e-6 (D = 16, Sk = 8), 2.5e-5 (64, 16),
                   6.5e-5 (128, 64); the GQA miscompile this harness found
                   (wrong kv head) gave errors of 0.08-1.93.
  linalg:          integers and i1 exactly; floats exactly (every op is
                   correctly rounded in its type on both sides), except
                   float sums, which may reassociate: 2 n EPS sum|x| per
                   sum, propagated through later ops (linalg_cases.py).
  A mismatch, and any failure of posenc-run on a case (compile or run, or
  more than --timeout seconds per case), is a failure; the script prints `REPRO: ...` (one line: the replay command, the
  case, the pipeline, threads, error and tolerance), and ends with
  "N passed, N failed" (exit status 1 if any failed).

Self-tests of the harness (--inject): `mismatch` moves one element of each
expected output by 3*tol + 2^-10 (every case must fail), `error` adds an
invalid line to each module (every case must fail to compile).
"""

import argparse
import math
import os
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import posenc_exec as pe  # noqa: E402
import posenc_mlir as pm  # noqa: E402
import posenc_ref as ref  # noqa: E402
import linalg_cases  # noqa: E402

OPS = ("rotary", "alibi", "sinusoidal", "learned", "attention", "linalg")
OPS_CYCLE = ("rotary", "attention", "alibi", "rotary", "attention", "sinusoidal",
             "learned", "attention")
GROUP = 24                  # cases per option group (3 op cycles)
# Linalg chains (linalg_cases.py) have indices of their own, LINALG_BASE +
# LINALG_GROUP * G + j for option group G, so that adding them changed no
# posenc-op case.
LINALG_BASE = 1_000_000_000
LINALG_GROUP = 8
MAX_ELEMENTS = 1 << 16      # per tensor of a case
CHUNK_CASES = 8             # cases per posenc-run call
CHUNK_ELEMENTS = 1 << 19    # input + output elements per posenc-run call
VECTOR_WIDTHS = (1, 2, 4, 8, 16, 32)
MIN_BYTES = (1, 64, 1000, 4096)
# posenc-tile-attention (the fused attention of posenc-cpu-pipeline): tile
# sizes that do not divide the drawn extents (and 1, and larger than them),
# and groups on the reference decomposition (flash-attention=false).
FLASH_ATTENTION = (True, True, True, False)
ATTENTION_QUERY_TILES = (1, 3, 8, 16, 64)
ATTENTION_KEY_TILES = (1, 5, 16, 64)
ATTENTION_VECTOR_WIDTHS = (0, 2, 4, 8, 16)
# The pass splits the keys of a kv head into chunks of DECODE_CHUNK keys
# (combined afterwards) when it has at most DECODE_ROWS query rows (G * Sq,
# static) and more than DECODE_CHUNK keys: its defaults, which
# posenc-cpu-pipeline keeps. LONG_KEYS of the attention cases draw such shapes.
DECODE_ROWS = 16
DECODE_CHUNK = 512
LONG_KEYS = 0.2
SINKS = 0.3
LOCAL = 0.4
KEY_LENGTHS = 0.25
KEY_MASK = 0.25

U = 2.0 ** -24
EPS = {"f32": 2.0 ** -24, "f16": 2.0 ** -11, "bf16": 2.0 ** -8}
HALF_SUBNORMAL = {"f32": 0.0, "f16": 2.0 ** -25, "bf16": 0.0}
NP_INT = {"i64": np.int64, "i32": np.int32, "index": np.int64, "i8": np.int8,
          "i1": np.bool_}
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67,
          71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131)


# ----------------------------------------------------------------------------
# Drawing helpers
# ----------------------------------------------------------------------------

def pick(rng, choices):
    return choices[int(rng.integers(len(choices)))]


def chance(rng, p):
    return bool(rng.random() < p)


def extent(rng, lo, hi):
    """An extent in [lo, hi], biased to primes and powers of two +- 1."""
    r = rng.random()
    primes = [p for p in PRIMES if lo <= p <= hi]
    if r < 0.4 and primes:
        return pick(rng, primes)
    if r < 0.6:
        near = [v for k in range(8) for v in (2 ** k - 1, 2 ** k, 2 ** k + 1) if lo <= v <= hi]
        if near:
            return pick(rng, near)
    return int(rng.integers(lo, hi + 1))


def shrink(dims, fixed, limit):
    """Halves the largest of `dims` until prod(dims) * fixed <= limit."""
    dims = list(dims)
    while math.prod(dims) * fixed > limit and max(dims) > 1:
        i = dims.index(max(dims))
        dims[i] = max(1, dims[i] // 2)
    return dims


def ttype(shape, elem):
    return "tensor<" + "".join(f"{s}x" for s in shape) + elem + ">"


def as_input(x64, elem):
    """The array as the kernel sees it (exact in `elem`) and its fp64 value."""
    if elem == "bf16":
        bits = pe.to_bf16_bits(x64.astype(np.float32))
        return bits, pe.from_bf16_bits(bits).astype(np.float64)
    arr = x64.astype({"f32": np.float32, "f16": np.float16, "f64": np.float64}[elem])
    return arr, arr.astype(np.float64)


def as_output(y, elem):
    if elem == "bf16":
        return pe.from_bf16_bits(y).astype(np.float64)
    if elem in linalg_cases.INTS:
        return y.astype(np.int64)  # exact (i1: 0/1)
    return y.astype(np.float64)


def half_tol(expect, elem):
    """Rounding of an f32 result to `elem` (0 for f32)."""
    if elem == "f32":
        return 0.0
    return EPS[elem] * np.abs(expect) + HALF_SUBNORMAL[elem]


# ----------------------------------------------------------------------------
# One case: a slice of a function body, its inputs and its expected result
# ----------------------------------------------------------------------------

@dataclass
class Case:
    index: int
    op: str
    desc: str = ""
    args: List[str] = field(default_factory=list)
    inputs: List[np.ndarray] = field(default_factory=list)
    body: List[str] = field(default_factory=list)
    result: str = ""
    rtype: str = ""
    elem: str = "f32"
    expect: Optional[np.ndarray] = None
    tol: object = 0.0

    def name(self, n):
        return f"%c{self.index}_{n}"

    def line(self, text):
        self.body.append("  " + text)

    def arg(self, n, array, type_):
        self.args.append(f"{self.name(n)}: {type_}")
        self.inputs.append(array)
        return self.name(n)

    def int_tensor(self, rng, n, values, elem):
        """An integer tensor as a function argument or (small ones) a constant."""
        values = np.asarray(values).astype(NP_INT[elem])
        type_ = ttype(values.shape, elem)
        if values.size <= 64 and chance(rng, 0.2):
            # i1 as 1/0 (numpy prints bools as True/False)
            literal = (values.astype(np.int64) if elem == "i1" else values).tolist()
            self.line(f"{self.name(n)} = arith.constant dense<{literal}> : {type_}")
            return self.name(n), type_, "const"
        return self.arg(n, values, type_), type_, "arg"

    def int_scalar(self, rng, n, value):
        """An i64/index scalar: a constant or extracted from a tensor<1xi64> argument."""
        if chance(rng, 0.5):
            t = pick(rng, ("i64", "index"))
            self.line(f"{self.name(n)} = arith.constant {int(value)} : {t}")
            return self.name(n), t, "static"
        src = self.arg(n + "_t", np.array([value], np.int64), "tensor<1xi64>")
        self.line(f"{self.name(n + '_c0')} = arith.constant 0 : index")
        self.line(f"{self.name(n)} = tensor.extract {src}[{self.name(n + '_c0')}] : tensor<1xi64>")
        return self.name(n), "i64", "dynamic"


def frequencies(case, rng, cfg, inv_elem):
    """Emits posenc.rope_frequencies for `cfg` (its runtime seq_len, when the
    scheme has one, as a constant or an argument); returns (inv, af, inv_type,
    description)."""
    text = pm.frequencies_op(cfg, inv_elem, "%LEN")
    desc = f"{cfg['scheme']}/{inv_elem}"
    if pm.needs_seq_len(cfg):
        value, type_, how = case.int_scalar(rng, "len", cfg["seq_len"])
        text = text.replace("seq_len(%LEN : i64)", f"seq_len({value} : {type_})")
        desc += f" seq_len={how}:{cfg['seq_len']}"
    text = text.replace("%inv, %af", f"{case.name('inv')}, {case.name('af')}")
    case.line(text)
    return (case.name("inv"), case.name("af"), f"tensor<{cfg['rotary_dim'] // 2}x{inv_elem}>",
            desc)


def reference_frequencies(cfg):
    return ref.inv_freq(cfg["rotary_dim"], cfg["base"], cfg["scheme"],
                        seq_len=pm.ref_seq_len(cfg), **cfg["params"])


def f32_angle_tables(pos_abs, inv32, af):
    """HF-exact angles: positions remapped to rows of cos/sin tables of the f32
    product f32(p) * inv (p < 2^24: the fp64 product of two f32 values is
    exact, so one cast rounds it once)."""
    uniq, idx = np.unique(pos_abs, return_inverse=True)
    ang = (uniq.astype(np.float64)[:, None] * inv32.astype(np.float64)[None, :])
    ang = ang.astype(np.float32).astype(np.float64)
    return idx.reshape(np.shape(pos_abs)), (np.cos(ang) * af, np.sin(ang) * af)


def rotary_tol(expect, x_ref, af, elem, angle_err=0.0):
    bound = (4e-6 + 2 * angle_err) * max(1.0, af) * max(1.0, float(np.abs(x_ref).max(initial=0)))
    if elem == "f32":
        return bound
    return EPS[elem] * np.abs(expect) + bound + 1e-5


# ----------------------------------------------------------------------------
# Generators, one per op: fill `case` (body, inputs, expected, tolerance)
# ----------------------------------------------------------------------------

def draw_rope_config(rng, max_dim=256):
    """A random RoPE scaling config (every scheme) with rotary_dim <= max_dim."""
    scheme = pick(rng, ref.SCHEMES)
    for cfg in ref.random_configs(scheme, 16, seed=int(rng.integers(1 << 31))):
        if cfg["rotary_dim"] <= max_dim:
            return cfg
    return next(ref.random_configs("default", 1, seed=int(rng.integers(1 << 31))))


def positions_operand(case, rng, form, tokens, batch, hi, elem, axes=None):
    """Positions `[S]` / `[B, S]` (M-RoPE: leading `axes`); None for form 'none'."""
    if form == "none":
        return None, "", "none"
    shape = ((axes,) if axes else ()) + ((batch,) if form == "batch" else ()) + (tokens,)
    values = rng.integers(0, hi, size=shape)
    value, type_, how = case.int_tensor(rng, "pos", values, elem)
    return values.astype(np.int64), f" positions({value} : {type_})", f"{form}:{elem}:{how}"


def gen_rotary(case, rng):
    elem = pick(rng, ("f32", "f32", "f16", "bf16"))
    layout = pick(rng, ("half_split", "interleaved"))
    source = pick(rng, ("frequencies",) * 6 + ("inv_operand", "inv_operand", "cos_sin", "cos_sin"))
    cfg = draw_rope_config(rng)
    d = cfg["rotary_dim"]
    D = d if chance(rng, 0.5) else d + extent(rng, 1, 17)
    form = pick(rng, ("bhsd", "bhsd", "bshd", "thd", "sd"))
    S, H, B = shrink((extent(rng, 1, 67), extent(rng, 1, 9), extent(rng, 1, 3)), D, MAX_ELEMENTS)
    shape, tok = {"bhsd": ((B, H, S, D), 2), "bshd": ((B, S, H, D), 1),
                  "thd": ((S, H, D), 0), "sd": ((S, D), 0)}[form]
    mrope = source != "cos_sin" and d // 2 >= 3 and chance(rng, 0.2)
    pos_forms = ("shared", "batch") if form in ("bhsd", "bshd") else ("shared",)
    pos_form = pick(rng, pos_forms if mrope else ("none",) + pos_forms)
    hi = pick(rng, (64, 1024)) if source == "cos_sin" else pick(rng, (64, 4096, 65536, 1 << 20))

    x64 = rng.uniform(-1, 1, size=shape)
    x_in, x_ref = as_input(x64, elem)
    x = case.arg("x", x_in, ttype(shape, elem))
    sections, mlayout, axes = None, None, None
    if mrope:
        mlayout = pick(rng, ("chunked", "interleaved"))
        axes = 3 if mlayout == "interleaved" else pick(rng, (2, 3))
        cuts = np.sort(rng.choice(np.arange(1, d // 2), size=axes - 1, replace=False))
        sections = np.diff(np.concatenate([[0], cuts, [d // 2]])).tolist()
    positions, pos_text, pos_desc = positions_operand(
        case, rng, pos_form, S, B, hi, pick(rng, ("i64", "i64", "i32", "index")), axes)
    offset, off_text, off_desc = 0, "", "none"
    if chance(rng, 0.6):
        offset = int(rng.integers(0, hi))
        value, type_, off_desc = case.int_scalar(rng, "off", offset)
        off_text = f" offset({value} : {type_})"
    pos_abs = (np.arange(S) if positions is None else positions) + offset

    af = 1.0
    af_text = ""
    if source == "frequencies":
        inv_elem = "f64" if pm.needs_seq_len(cfg) or mrope else pick(rng, ("f32", "f64"))
        inv, af_val, inv_type, src_desc = frequencies(case, rng, cfg, inv_elem)
        inv64, af = reference_frequencies(cfg)
        if chance(rng, 0.8):
            af_text = f" attention_factor({af_val})"
        else:
            af = 1.0
        src_text = f" inv_freq({inv} : {inv_type})"
    elif source == "inv_operand":
        inv_elem = "f64" if mrope else pick(rng, ("f32", "f64"))
        inv_arr, inv64 = as_input(np.exp(rng.uniform(math.log(1e-4), 0.0, size=d // 2)), inv_elem)
        inv_type = ttype((d // 2,), inv_elem)
        src_text = f" inv_freq({case.arg('inv', inv_arr, inv_type)} : {inv_type})"
        src_desc = f"inv_operand/{inv_elem}"
        if chance(rng, 0.5):
            af = float(np.float32(rng.uniform(0.5, 2.0)))
            case.line(f"{case.name('af')} = arith.constant {pm.f(af)} : f32")
            af_text = f" attention_factor({case.name('af')})"
    else:
        inv_elem = None
        table_elem = pick(rng, ("f32", elem))
        rows = int(pos_abs.max()) + 1 + int(rng.integers(0, 5))
        inv64, _ = ref.inv_freq(d, float(rng.choice([1e4, 5e5])))
        af_tab = 1.0 if chance(rng, 0.5) else float(rng.uniform(0.5, 2.0))
        ang = np.arange(rows, dtype=np.float64)[:, None] * inv64[None, :]
        c_in, c64 = as_input(np.cos(ang) * af_tab, table_elem)
        s_in, s64 = as_input(np.sin(ang) * af_tab, table_elem)
        tt = ttype((rows, d // 2), table_elem)
        src_text = f" cos_sin({case.arg('cos', c_in, tt)}, {case.arg('sin', s_in, tt)} : {tt}, {tt})"
        src_desc = f"cos_sin/{table_elem}x{rows}"
        af = af_tab

    attrs = []
    if form != "bhsd" and form != "sd":
        attrs.append(f"token_dim = {tok} : i64")
    if mrope:
        attrs.append(f"mrope_sections = array<i64: {', '.join(map(str, sections))}>")
        attrs.append(f"mrope_layout = #posenc<mrope_layout {mlayout}>")
    attr_text = (" {" + ", ".join(attrs) + "}") if attrs else ""
    case.result = case.name("y")
    case.rtype = ttype(shape, elem)
    case.elem = elem
    case.line(f"{case.result} = posenc.rotary {x} {layout} dim {d}{src_text}{pos_text}{off_text}"
              f"{af_text}{attr_text} : {case.rtype}")

    if source == "cos_sin":
        case.expect = ref.rotary(x_ref, pos_abs, layout=layout, rotary_dim=d, token_axis=tok,
                                 cos_sin=(c64, s64))
    elif inv_elem == "f32":
        idx, tables = f32_angle_tables(pos_abs, inv64.astype(np.float32), af)
        case.expect = ref.rotary(x_ref, idx, layout=layout, rotary_dim=d, token_axis=tok,
                                 cos_sin=tables)
    else:
        case.expect = ref.rotary(x_ref, pos_abs, inv64, af, layout=layout, rotary_dim=d,
                                 token_axis=tok, mrope_sections=sections,
                                 mrope_layout=mlayout or "chunked")
    case.tol = rotary_tol(case.expect, x_ref, af, elem)
    mdesc = f" mrope={mlayout}{sections}" if mrope else ""
    case.desc = (f"rotary {elem} {layout} dim={d}/{D} shape={list(shape)} token_dim={tok} "
                 f"freqs={src_desc} af={af:.4g} positions={pos_desc} max<{hi} "
                 f"offset={off_desc}:{offset}{mdesc}")


def gen_alibi(case, rng):
    elem = pick(rng, ("f32", "f32", "f16", "bf16"))
    r = rng.random()
    if r < 0.5:
        n = int(rng.integers(1, 131))
    else:
        n = pick(rng, [v for k in range(8) for v in (2 ** k - 1, 2 ** k, 2 ** k + 1)
                       if 1 <= v <= 130])
    head_offset = 0 if chance(rng, 0.5) else int(rng.integers(0, n))
    H = n - head_offset if chance(rng, 0.6) else int(rng.integers(1, n - head_offset + 1))
    form = pick(rng, ("symmetric", "key_linear"))
    align = pick(rng, ("bottom_right", "top_left"))
    q_form = pick(rng, ("none", "none", "shared", "batch"))
    k_form = pick(rng, ("none", "none", "shared", "batch"))
    batched = "batch" in (q_form, k_form) or chance(rng, 0.2)
    B = extent(rng, 1, 3) if batched else 1
    Sq, Sk = shrink((extent(rng, 1, 41), extent(rng, 1, 41)), H * B, MAX_ELEMENTS)
    if chance(rng, 0.3):
        Sq = Sk
    qp, q_text, q_desc = positions_operand(case, rng, q_form, Sq, B, 4096,
                                           pick(rng, ("i64", "i32", "index")))
    if k_form != "none":
        kvals = rng.integers(0, 4096, size=((B,) if k_form == "batch" else ()) + (Sk,))
        kv, kt, khow = case.int_tensor(rng, "kpos", kvals, pick(rng, ("i64", "i32", "index")))
        kp, k_text, k_desc = kvals, f" k_positions({kv} : {kt})", f"{k_form}:{khow}"
    else:
        kp, k_text, k_desc = None, "", "none"
    q_text = q_text.replace("positions(", "q_positions(")
    if chance(rng, 0.8):
        mb = pick(rng, (8.0, 8.0, 16.0, 4.0, float(np.round(rng.uniform(0.5, 16.0), 3))))
        slopes = ref.alibi_slopes(n, mb, head_offset, H)
        src = f"<num_heads = {n}, head_offset = {head_offset}, max_bias = {pm.f(mb)}>"
        src_desc = f"num_heads={n} head_offset={head_offset} max_bias={mb:g}"
    else:
        s_in = rng.uniform(2.0 ** -10, 1.0, size=H).astype(np.float32)
        slopes = s_in.astype(np.float64)
        st = ttype((H,), "f32")
        src = f"{case.arg('slopes', s_in, st)} : {st}"
        src_desc = f"slopes tensor[{H}]"
    shape = ((B,) if batched else ()) + (H, Sq, Sk)
    case.result, case.rtype, case.elem = case.name("b"), ttype(shape, elem), elem
    case.line(f"{case.result} = posenc.alibi {form} slopes({src}){q_text}{k_text}"
              f" {{alignment = #posenc<alignment {align}>}} : {case.rtype}")
    case.expect = ref.alibi_bias(slopes, Sq, Sk, form, align, q_positions=qp, k_positions=kp,
                                 batch=B if batched else None)
    case.tol = 3 * U * np.abs(case.expect) + half_tol(case.expect, elem)
    case.desc = (f"alibi {elem} {form} {align} {src_desc} H={H} shape={list(shape)} "
                 f"q_positions={q_desc} k_positions={k_desc}")


def gen_sinusoidal(case, rng):
    elem = pick(rng, ("f32", "f32", "f16", "bf16"))
    layout = pick(rng, ("interleaved", "concatenated"))
    dim = extent(rng, 2, 16) if chance(rng, 0.4) else extent(rng, 2, 520)
    pos_form = pick(rng, ("none", "shared", "batch"))
    S, B = shrink((extent(rng, 1, 130), extent(rng, 1, 3)), dim, MAX_ELEMENTS)
    hi = pick(rng, (128, 4096, 65536))
    positions, pos_text, pos_desc = positions_operand(
        case, rng, pos_form, S, B, hi, pick(rng, ("i64", "i32", "index")))
    offset, off_text, off_desc = 0, "", "none"
    if chance(rng, 0.5):
        offset = int(rng.integers(0, hi))
        value, type_, off_desc = case.int_scalar(rng, "off", offset)
        off_text = f" offset({value} : {type_})"
    base = 10000.0
    attr = ""
    if chance(rng, 0.25):
        base = float(np.round(math.exp(rng.uniform(math.log(100.0), math.log(1e5))), 2))
        attr = f" {{base = {pm.f(base)} : f64}}"
    rows = (B, S) if pos_form == "batch" else (S,)
    case.result, case.rtype, case.elem = case.name("t"), ttype(rows + (dim,), elem), elem
    case.line(f"{case.result} = posenc.sinusoidal {layout}{pos_text}{off_text}{attr} : {case.rtype}")
    pos_abs = (np.arange(S) if positions is None else positions) + offset
    case.expect = ref.sinusoidal(pos_abs, dim, layout, base)
    case.tol = 2e-6 + half_tol(case.expect, elem)
    case.desc = (f"sinusoidal {elem} {layout} dim={dim} rows={list(rows)} base={base:g} "
                 f"positions={pos_desc} max<{hi} offset={off_desc}:{offset}")


def gen_learned(case, rng):
    elem = pick(rng, ("f32", "f32", "f16", "bf16"))
    rank = pick(rng, (2, 3, 3, 4))
    D = extent(rng, 1, 200)
    S, H, B = shrink((extent(rng, 1, 67), extent(rng, 1, 5), extent(rng, 1, 3)), D, MAX_ELEMENTS)
    shape = {2: (S, D), 3: (B, S, D), 4: (B, H, S, D)}[rank]
    P = S + extent(rng, 0, 300)
    pos_forms = ("none", "shared", "batch") if rank >= 3 else ("none", "shared")
    pos_form = pick(rng, pos_forms)
    x_in, x_ref = as_input(rng.uniform(-1, 1, size=shape), elem)
    t_in, t_ref = as_input(rng.uniform(-1, 1, size=(P, D)), elem)
    x = case.arg("x", x_in, ttype(shape, elem))
    t = case.arg("table", t_in, ttype((P, D), elem))
    if pos_form == "none":
        positions, pos_text, pos_desc = None, "", "none"
        max_offset = P - S
    else:
        hi = int(rng.integers(1, P + 1))
        positions, pos_text, pos_desc = positions_operand(
            case, rng, pos_form, S, B, hi, pick(rng, ("i64", "i32", "index")))
        max_offset = P - hi
    offset, off_text, off_desc = 0, "", "none"
    if max_offset > 0 and chance(rng, 0.6):
        offset = int(rng.integers(0, max_offset + 1))
        value, type_, off_desc = case.int_scalar(rng, "off", offset)
        off_text = f" offset({value} : {type_})"
    case.result, case.rtype, case.elem = case.name("y"), ttype(shape, elem), elem
    case.line(f"{case.result} = posenc.learned_absolute {x}, {t}{pos_text}{off_text}"
              f" : {case.rtype}, {ttype((P, D), elem)}")
    pos_abs = (np.arange(S) if positions is None else positions) + offset
    rows = t_ref[pos_abs]                       # [S, D] or [B, S, D]
    if rows.ndim == 3 and rank == 4:
        rows = rows[:, None]                    # [B, 1, S, D]
    case.expect = x_ref + rows
    case.tol = 2 * U * np.abs(case.expect) + half_tol(case.expect, elem)
    case.desc = (f"learned {elem} shape={list(shape)} table=[{P},{D}] positions={pos_desc} "
                 f"offset={off_desc}:{offset}")


def default_positions(Sq, Sk, align):
    q = np.arange(Sq) + (Sk - Sq if align == "bottom_right" else 0)
    return q, np.arange(Sk)


def draw_long_keys(rng):
    """(B, Hkv, G, Sq, Sk, max head dim): more than DECODE_CHUNK keys, mostly
    with at most DECODE_ROWS query rows per kv head (G * Sq: the keys are
    split into chunks, the last one partial unless Sk divides, and combined),
    sometimes with more (one chunk, long key loops). K and V stay within
    MAX_ELEMENTS: the head dims are small."""
    if chance(rng, 0.6):
        Sk = pick(rng, (513, 515, 640, 1023, 1024, 1025, 1031, 1536, 1543, 2047, 2049,
                        3001, 4095, 4097))
    else:
        Sk = int(rng.integers(DECODE_CHUNK + 1, 4200))
    if chance(rng, 0.8):
        Sq = pick(rng, (1, 1, 1, 2, 3, 4))
        G = extent(rng, 1, DECODE_ROWS // Sq)
    else:
        Sq = extent(rng, 5, 12)
        G = extent(rng, DECODE_ROWS // Sq + 1, 8)
    Hkv = extent(rng, 1, 4)
    B = 1 if chance(rng, 0.8) else 2
    while MAX_ELEMENTS // (B * Hkv * Sk) < 8 and B * Hkv > 1:
        B, Hkv = (1, Hkv) if B > 1 else (B, Hkv - 1)
    return B, Hkv, G, Sq, Sk, MAX_ELEMENTS // (B * Hkv * Sk)


def draw_local(rng, Sq, Sk, causal):
    """Issue 23's positional terms (window, chunk, soft-cap, temperature), as
    op clauses, reference keywords and description words."""
    clauses, kw, desc = [], {}, []
    if chance(rng, 0.5):
        left = pick(rng, (0, 1, int(rng.integers(2, 16)), int(rng.integers(0, Sk + 8)),
                          Sk + int(rng.integers(0, 9))))
        right = None
        if chance(rng, 0.25 if causal else 0.6):
            right = int(rng.integers(0, Sk + 4))
        text = f"left = {left}" + (f", right = {right}" if right is not None else "")
        clauses.append(f"window(<{text}>)")
        kw["window"] = (left, right)
        desc.append(f"window={left},{right}")
    if chance(rng, 0.3):
        chunk = pick(rng, (1, int(rng.integers(1, Sk + 4)), Sk + int(rng.integers(1, 9))))
        clauses.append(f"chunk_size({chunk})")
        kw["chunk_size"] = chunk
        desc.append(f"chunk={chunk}")
    if chance(rng, 0.35):
        cap = float(np.round(rng.uniform(0.5, 30.0), 3))
        clauses.append(f"softcap({pm.f(cap)})")
        kw["softcap"] = cap
        desc.append(f"softcap={cap:g}")
    if chance(rng, 0.25):
        floor_scale = pick(rng, (1.0, 2.0, 3.0, 4.0, 5.0, 8.0, 0.5, 2.5))
        attn_scale = float(np.round(rng.uniform(0.05, 1.0), 3))
        clauses.append(f"query_temperature(<floor_scale = {pm.f(floor_scale)}, "
                       f"attn_scale = {pm.f(attn_scale)}>)")
        kw["temperature"] = (floor_scale, attn_scale)
        desc.append(f"temperature={floor_scale:g},{attn_scale:g}")
    return clauses, kw, desc


def draw_key_lengths(rng, B, Sk):
    """Issue 24's per-sequence key lengths: every key, none (0 or negative),
    one, past Sk, or any, per batch entry."""
    return [pick(rng, (Sk, 0, -int(rng.integers(1, 4)), 1, Sk + int(rng.integers(1, 9)),
                       int(rng.integers(0, Sk + 1)), int(rng.integers(0, Sk + 1))))
            for _ in range(B)]


def draw_key_mask(rng, B, Sk):
    """Issue 24's key_mask [B, Sk] as HF's attention_mask: per sequence left
    padding (none to all of it), random holes, or all ones; valid entries
    hold any nonzero value (1 for i1)."""
    mask = np.ones((B, Sk), np.int64)
    for b in range(B):
        kind = pick(rng, ("left", "left", "holes", "ones"))
        if kind == "left":
            mask[b, :int(rng.integers(0, Sk + 1))] = 0
        elif kind == "holes":
            mask[b] = rng.uniform(size=Sk) < rng.uniform(0.2, 0.9)
    return mask


def gen_attention(case, rng, long_rng=None, sinks_rng=None, local_rng=None,
                  lengths_rng=None, mask_rng=None):
    elem = "f32" if chance(rng, 0.8) else pick(rng, ("f16", "bf16"))
    Hkv, G = extent(rng, 1, 8), extent(rng, 1, 8)
    B = 1 if chance(rng, 0.75) else 2
    Sq = 1 if chance(rng, 0.25) else extent(rng, 1, 33)
    Sk = Sq if chance(rng, 0.25) else extent(rng, 1, 67)
    long_keys = long_rng is not None and chance(long_rng, LONG_KEYS)
    if long_keys:
        B, Hkv, G, Sq, Sk, max_dim = draw_long_keys(long_rng)
    Hq = Hkv * G
    rope = chance(rng, 0.5)
    cfg = draw_rope_config(rng, max_dim if long_keys else 128) if rope else None
    if long_keys and rope and cfg["rotary_dim"] > max_dim:
        rope, cfg = False, None
    rd = cfg["rotary_dim"] if rope else 0
    D = max(rd, 1) + (0 if rope and chance(rng, 0.5) else extent(rng, 0, 40))
    if not rope and chance(rng, 0.3):
        D = pick(rng, (64, 128))
    Dv = D if chance(rng, 0.6) else extent(rng, 1, 96)
    if long_keys:
        D, Dv = max(rd, min(D, max_dim)), min(Dv, max_dim)
    else:
        Sq, Sk = shrink((Sq, Sk), B * Hq * max(D, Dv, 1), MAX_ELEMENTS)
    causal = chance(rng, 0.5)
    align = pick(rng, ("bottom_right", "top_left"))

    qs, ks, vs = (B, Hq, Sq, D), (B, Hkv, Sk, D), (B, Hkv, Sk, Dv)
    q_in, q = as_input(rng.uniform(-1, 1, size=qs), elem)
    k_in, k = as_input(rng.uniform(-1, 1, size=ks), elem)
    v_in, v = as_input(rng.uniform(-1, 1, size=vs), elem)
    tq, tk, tv, to = ttype(qs, elem), ttype(ks, elem), ttype(vs, elem), ttype((B, Hq, Sq, Dv), elem)
    qv, kv, vv = case.arg("q", q_in, tq), case.arg("k", k_in, tk), case.arg("v", v_in, tv)

    clauses, desc = [], []
    scale = None
    if chance(rng, 0.3):
        scale = float(np.round(rng.uniform(0.03, 0.5), 4))
        clauses.append(f"scale({pm.f(scale)})")
        desc.append(f"scale={scale:g}")
    if causal:
        clauses.append("causal")
    qp, kp = default_positions(Sq, Sk, align)
    explicit = chance(rng, 0.2)
    if explicit:
        hi = Sq + Sk + 8
        q_vals = rng.integers(0, hi, size=((B,) if chance(rng, 0.5) else ()) + (Sq,))
        k_vals = rng.integers(0, hi, size=((B,) if chance(rng, 0.5) else ()) + (Sk,))
        qvn, qt, _ = case.int_tensor(rng, "qpos", q_vals, pick(rng, ("i64", "i32", "index")))
        kvn, kt, _ = case.int_tensor(rng, "kpos", k_vals, pick(rng, ("i64", "i32", "index")))
        qp, kp = q_vals, k_vals
        desc.append(f"q_positions={list(q_vals.shape)} k_positions={list(k_vals.shape)}")
    inv64, af, layout, angle_err = None, 1.0, "half_split", 0.0
    if rope:
        layout = pick(rng, ("half_split", "interleaved"))
        inv_elem = "f64" if pm.needs_seq_len(cfg) else pick(rng, ("f32", "f64"))
        inv, af_val, inv_type, freq_desc = frequencies(case, rng, cfg, inv_elem)
        inv64, af = reference_frequencies(cfg)
        af_text = ""
        if chance(rng, 0.8):
            af_text = f", {af_val}"
        else:
            af = 1.0
        if inv_elem == "f32":
            inv64 = inv64.astype(np.float32).astype(np.float64)
            max_pos = max(np.abs(qp).max(initial=0), np.abs(kp).max(initial=0))
            angle_err = U * float(max_pos) * float(inv64.max())
        clauses.append(f"rope(<layout = {layout}, rotary_dim = {rd}>, {inv} : {inv_type}{af_text})")
        desc.append(f"rope={layout}/{rd} {freq_desc} af={af:.4g}")
    slopes, form = None, "symmetric"
    if chance(rng, 0.4):
        form = pick(rng, ("symmetric", "key_linear"))
        if chance(rng, 0.75):
            off = 0 if chance(rng, 0.6) else int(rng.integers(0, 9))
            n = Hq + off + (0 if chance(rng, 0.5) else int(rng.integers(0, 9)))
            mb = pick(rng, (8.0, 8.0, 16.0, 4.0))
            slopes = ref.alibi_slopes(n, mb, off, Hq)
            clauses.append(f"alibi(<num_heads = {n}, head_offset = {off}, max_bias = {pm.f(mb)}>)")
            desc.append(f"alibi={form} num_heads={n} head_offset={off} max_bias={mb:g}")
        else:
            s_in = rng.uniform(2.0 ** -8, 1.0, size=Hq).astype(np.float32)
            slopes = s_in.astype(np.float64)
            st = ttype((Hq,), "f32")
            clauses.append(f"alibi({case.arg('slopes', s_in, st)} : {st})")
            desc.append(f"alibi={form} slopes tensor")
    if explicit:
        clauses.append(f"q_positions({qvn} : {qt})")
        clauses.append(f"k_positions({kvn} : {kt})")
    sinks = None
    if sinks_rng is not None and chance(sinks_rng, SINKS):
        s32 = (math.log(Sk) + sinks_rng.uniform(-3.0, 3.0, Hq)).astype(np.float32)
        if chance(sinks_rng, 0.2):
            s32[int(sinks_rng.integers(Hq))] = -np.inf
        sinks = s32.astype(np.float64)
        st = ttype((Hq,), "f32")
        clauses.append(f"sinks({case.arg('sinks', s32, st)} : {st})")
        desc.append("sinks")
    local_kw = {}
    if local_rng is not None and chance(local_rng, LOCAL):
        local_clauses, local_kw, local_desc = draw_local(local_rng, Sq, Sk, causal)
        clauses += local_clauses
        desc += local_desc
        case.terms = ["any"] + sorted(local_kw) if local_kw else []
    key_lengths = None
    if lengths_rng is not None and chance(lengths_rng, KEY_LENGTHS):
        key_lengths = draw_key_lengths(lengths_rng, B, Sk)
        name, ltype, _ = case.int_tensor(lengths_rng, "klen", key_lengths,
                                         pick(lengths_rng, ("i32", "i64", "index")))
        clauses.append(f"key_lengths({name} : {ltype})")
        desc.append(f"key_lengths={key_lengths}")
        case.terms = getattr(case, "terms", []) + ["key_lengths"]
    key_mask, rope_only = None, False
    if mask_rng is not None and chance(mask_rng, KEY_MASK):
        key_mask = draw_key_mask(mask_rng, B, Sk)
        melem = pick(mask_rng, ("i1", "i8", "i32", "i64"))
        if melem != "i1":
            key_mask = key_mask * mask_rng.integers(1, 100, size=key_mask.shape)
        name, mtype, _ = case.int_tensor(mask_rng, "kmask", key_mask, melem)
        clauses.append(f"key_mask({name} : {mtype})")
        desc.append(f"key_mask={melem} valid={int((key_mask != 0).sum())}/{key_mask.size}")
        case.terms = getattr(case, "terms", []) + ["key_mask"]
        if explicit and rope and chance(mask_rng, 0.5):
            rope_only = True
            clauses.append("rope_only_positions")
            desc.append("rope_only_positions")
            case.terms.append("rope_only_positions")
    attrs = [f"alignment = #posenc<alignment {align}>"]
    if slopes is not None:
        attrs.append(f"alibi_form = #posenc<alibi_form {form}>")
    case.result, case.rtype, case.elem = case.name("o"), to, elem
    case.line(f"{case.result} = posenc.attention {qv}, {kv}, {vv} {' '.join(clauses)}"
              f" {{{', '.join(attrs)}}} : {tq}, {tk}, {tv} -> {to}")
    case.expect = ref.attention(q, k, v, scale=scale, causal=causal, inv_freq=inv64,
                                attention_factor=af, rope_layout=layout,
                                rotary_dim=rd if rope else None, alibi_slopes=slopes,
                                alibi_form=form, alignment=align,
                                q_positions=qp if explicit else None,
                                k_positions=kp if explicit else None, sinks=sinks,
                                key_lengths=key_lengths, key_mask=key_mask,
                                rope_only_positions=rope_only, **local_kw)
    case.tol = attention_tol(case.expect, q, k, v, qp, kp, scale, inv64, af, layout, rd,
                             slopes, form, align, Sq, Sk, elem, angle_err, sinks,
                             local_kw.get("softcap"), local_kw.get("temperature"))
    if G * Sq <= DECODE_ROWS and Sk > DECODE_CHUNK:
        desc.append("(split keys)")
    case.desc = (f"attention {elem} B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} Sk={Sk} D={D} Dv={Dv} "
                 f"causal={causal} {align} " + " ".join(desc))


def attention_tol(expect, q, k, v, qp, kp, scale, inv64, af, layout, rd, slopes, form, align,
                  Sq, Sk, elem, angle_err, sinks=None, softcap=None, temperature=None):
    """The forward error bound of the module docstring, from the data; a sink
    is one more (exact) logit: its subtraction from the max, one more column."""
    D = q.shape[-1]
    scale = 1.0 / math.sqrt(D) if scale is None else scale
    e_q = e_k = 0.0
    if inv64 is not None:
        e_q = rotary_tol(0.0, q, af, "f32", angle_err)
        e_k = rotary_tol(0.0, k, af, "f32", angle_err)
        q = ref.rotary(q, qp, inv64, af, layout, rd, token_axis=2)
        k = ref.rotary(k, kp, inv64, af, layout, rd, token_axis=2)
    G = q.shape[1] // k.shape[1]
    kk = np.abs(k)[:, np.arange(q.shape[1]) // G]
    L = scale * float(np.einsum("bhqd,bhkd->bhqk", np.abs(q), kk).max(initial=0))
    t_err = 0.0
    if temperature is not None:
        f, a = temperature
        qmax = float(np.abs(np.asarray(qp, dtype=np.float64)).max(initial=0))
        L *= math.log1p(math.floor((qmax + 1.0) / f)) * a + 1.0
        t_err = 4 * U * L
    cap_err = 0.0
    if softcap is not None:
        cap_err = 11 * U * softcap
    bias = 0.0
    if slopes is not None:
        bias = float(np.abs(ref.alibi_bias(slopes, Sq, Sk, form, align, qp, kp,
                                           batch=q.shape[0])).max(initial=0))
    sink = 0.0
    if sinks is not None:
        sink = float(np.abs(sinks[np.isfinite(sinks)]).max(initial=0))
        Sk += 1
    delta = (D + 2) * U * L + 3 * U * (L + bias + sink) + t_err + cap_err
    if inv64 is not None:
        l1_q = float(np.abs(q).sum(-1).max(initial=0))
        l1_k = float(np.abs(k).sum(-1).max(initial=0))
        delta += scale * (e_q * l1_k + e_k * l1_q + D * e_q * e_k)
        if elem != "f32":
            delta += 2 * EPS[elem] * L
    vmax = float(np.abs(v).max(initial=0))
    return vmax * (math.expm1(2 * delta) + (2 * Sk + 8) * U) + half_tol(expect, elem)


GENERATORS = {"rotary": gen_rotary, "alibi": gen_alibi, "sinusoidal": gen_sinusoidal,
              "learned": gen_learned, "attention": gen_attention}


def op_of(index):
    if index >= LINALG_BASE:
        return "linalg"
    return OPS_CYCLE[index % len(OPS_CYCLE)]


def group_of(index):
    if index >= LINALG_BASE:
        return (index - LINALG_BASE) // LINALG_GROUP
    return index // GROUP


def make_case(seed, index):
    case = Case(index=index, op=op_of(index))
    rng = np.random.default_rng([seed, index, 0])
    if case.op == "attention":
        # Long keys are decided by a stream of their own, so that the other
        # attention cases stay what they were before long keys were drawn
        # (stream 6: every replay that docs/testing.md cites keeps its case).
        # Sinks likewise (stream 7); of the cited replays, 3:95 and 11:548
        # gained sinks (same shapes, options and q, k, v).
        # Issue 23's window, chunk, soft-cap and temperature: stream 8.
        gen_attention(case, rng, np.random.default_rng([seed, index, 6]),
                      np.random.default_rng([seed, index, 7]),
                      np.random.default_rng([seed, index, 8]),
                      np.random.default_rng([seed, index, 9]),
                      np.random.default_rng([seed, index, 10]))
    elif case.op == "linalg":
        linalg_cases.gen_linalg(case, rng, extent)
    else:
        GENERATORS[case.op](case, rng)
    return case


# ----------------------------------------------------------------------------
# Pipeline options
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Options:
    vector_width: int
    block_elements: int
    openmp: bool
    approximate_trig: bool
    nontemporal: bool
    min_bytes: Optional[int]    # nontemporal-min-bytes; None: the pipeline's 8 MiB
    threads: int
    approximate_exp: bool = True
    flash_attention: bool = True
    query_tile: int = 64        # attention-query-tile (flash-attention only)
    key_tile: int = 64          # attention-key-tile (flash-attention only)
    prerotate_keys: bool = False
    attention_vector_width: int = 16  # attention-vector-width (flash only)
    bf16_dot: bool = False      # attention-bf16-dot-products (flash only)

    def pipeline(self):
        b = lambda v: "true" if v else "false"
        min_bytes = "" if self.min_bytes is None else f" nontemporal-min-bytes={self.min_bytes}"
        attention = f" flash-attention={b(self.flash_attention)}"
        if self.flash_attention:
            attention += (f" attention-query-tile={self.query_tile} "
                          f"attention-key-tile={self.key_tile} "
                          f"attention-prerotate-keys={b(self.prerotate_keys)} "
                          f"attention-vector-width={self.attention_vector_width} "
                          f"attention-bf16-dot-products={b(self.bf16_dot)}")
        return (f"posenc-cpu-pipeline{{vector-width={self.vector_width} "
                f"block-elements={self.block_elements} openmp={b(self.openmp)} "
                f"approximate-trig={b(self.approximate_trig)} "
                f"approximate-exp={b(self.approximate_exp)} "
                f"nontemporal-stores={b(self.nontemporal)}{min_bytes}{attention}}}")

    def attention_options(self):
        """The attention options of the group, as counted in the summary."""
        b = lambda v: "true" if v else "false"
        options = [f"approximate-exp={b(self.approximate_exp)}",
                   f"flash-attention={b(self.flash_attention)}"]
        if self.flash_attention:
            options += [f"attention-query-tile={self.query_tile}",
                        f"attention-key-tile={self.key_tile}",
                        f"attention-prerotate-keys={b(self.prerotate_keys)}",
                        f"attention-vector-width={self.attention_vector_width}",
                        f"attention-bf16-dot-products={b(self.bf16_dot)}"]
        return options

    def describe(self):
        return f"pipeline={self.pipeline()} threads={self.threads}"


def host_has_bf16():
    """Whether this CPU has AVX-512 BF16 (code with vdpbf16ps runs here)."""
    try:
        with open("/proc/cpuinfo") as f:
            return any(line.startswith("flags") and "avx512_bf16" in line.split()
                       for line in f)
    except OSError:
        return False


HOST_BF16 = host_has_bf16()


def cycled(seed, group, option, values):
    """The value of pipeline option number `option` in `group`: each round of
    len(values) consecutive groups takes every value once, in a seeded order
    (so short runs cover every value, and rounds pair the options differently)."""
    n = len(values)
    order = np.random.default_rng([seed, option, group // n, 2]).permutation(n)
    return values[int(order[group % n])]


def flash_groups_before(seed, group):
    """How many groups before `group` use flash-attention: the tile options
    cycle over those groups only, so that every tile value runs fused within
    len(values) consecutive flash-attention groups."""
    n = len(FLASH_ATTENTION)
    start = group - group % n
    return ((start // n) * FLASH_ATTENTION.count(True) +
            sum(cycled(seed, g, 7, FLASH_ATTENTION) for g in range(start, group)))


def draw_options(seed, group, widths=VECTOR_WIDTHS):
    rng = np.random.default_rng([seed, group, 1])
    block = cycled(seed, group, 1, ("tiny", "small", "default"))
    streaming = cycled(seed, group, 2, ("off", "default", "min-bytes"))
    flash = cycled(seed, group, 7, FLASH_ATTENTION)
    fused = flash_groups_before(seed, group)
    return Options(
        vector_width=cycled(seed, group, 0, widths),
        block_elements={"tiny": round(math.exp(rng.uniform(math.log(8), math.log(64)))),
                        "small": round(math.exp(rng.uniform(math.log(65), math.log(4096)))),
                        "default": 262144}[block],
        openmp=cycled(seed, group, 3, (True, False)),
        approximate_trig=cycled(seed, group, 4, (True, False)),
        nontemporal=streaming != "off",
        min_bytes=pick(rng, MIN_BYTES) if streaming == "min-bytes" else None,
        threads=cycled(seed, group, 5, (1, 2)),
        approximate_exp=cycled(seed, group, 6, (True, False)),
        flash_attention=flash,
        query_tile=cycled(seed, fused, 8, ATTENTION_QUERY_TILES) if flash else 64,
        key_tile=cycled(seed, fused, 9, ATTENTION_KEY_TILES) if flash else 64,
        prerotate_keys=cycled(seed, fused, 10, (True, False)) if flash else False,
        attention_vector_width=(cycled(seed, fused, 11, ATTENTION_VECTOR_WIDTHS)
                                if flash else 16),
        bf16_dot=(cycled(seed, fused, 12, (True, False))
                  if flash and HOST_BF16 else False))


# ----------------------------------------------------------------------------
# Running and checking
# ----------------------------------------------------------------------------

def module_text(cases, inject):
    args = ", ".join(a for c in cases for a in c.args)
    types = ", ".join(c.rtype for c in cases)
    body = [line for c in cases for line in c.body]
    if inject == "error":
        body.append("  %injected = arith.constant 1.0 : i32")
    return (f"func.func @diff({args}) -> ({types}) {{\n" + "\n".join(body) +
            f"\n  return {', '.join(c.result for c in cases)} : {types}\n}}\n")


def compare(case, out, inject):
    """(ok, error and tolerance at the worst element, its err/tol)."""
    expect = case.expect
    tol = np.broadcast_to(np.asarray(case.tol, dtype=np.float64), expect.shape)
    if inject == "mismatch" and expect.size:
        expect = expect.copy()
        j = case.index % expect.size
        if case.elem in linalg_cases.INTS:
            expect.flat[j] = 1 - expect.flat[j]  # a different value, also for i1
        else:
            expect.flat[j] += 3 * tol.flat[j] + 2.0 ** -10
    got = as_output(out, case.elem)
    if got.shape != expect.shape:
        return False, math.inf, 0.0, math.inf
    if case.elem in linalg_cases.INTS:
        # Integers and i1 bit for bit; the error is the count of elements
        # that differ (an injected mismatch adds 1 to one element).
        wrong = int(np.sum(got != np.round(expect).astype(np.int64)))
        return wrong == 0, float(wrong), 0.0, math.inf if wrong else 0.0
    err = np.abs(got - expect)
    err = np.where(np.isnan(err), math.inf, err)
    ratio = err / np.maximum(tol, 1e-300)
    worst = int(np.argmax(ratio)) if ratio.size else 0
    if not ratio.size:
        return True, 0.0, 0.0, 0.0
    return (bool(np.all(err <= tol)), float(err.flat[worst]), float(tol.flat[worst]),
            float(ratio.flat[worst]))


@dataclass
class Stats:
    cases: Dict[str, int] = field(default_factory=lambda: {op: 0 for op in OPS})
    failed: Dict[str, int] = field(default_factory=lambda: {op: 0 for op in OPS})
    worst: Dict[Tuple[str, bool], float] = field(default_factory=dict)
    options: Dict[str, int] = field(default_factory=dict)
    coverage: set = field(default_factory=set)  # (form, type) of linalg cases
    # Attention cases per issue-23 term ("any": at least one of them) and with
    # issue 24's key_lengths, and those of them that failed.
    terms: Dict[str, int] = field(default_factory=dict)
    terms_failed: int = 0

    def record(self, case, ok, ratio, opts):
        self.coverage |= getattr(case, "coverage", set())
        for term in getattr(case, "terms", ()):
            self.terms[term] = self.terms.get(term, 0) + 1
        if getattr(case, "terms", None) and not ok:
            self.terms_failed += 1
        self.cases[case.op] += 1
        self.failed[case.op] += 0 if ok else 1
        key = (case.op, case.elem == "f32")
        if math.isfinite(ratio):
            self.worst[key] = max(self.worst.get(key, 0.0), ratio)
        for option in (f"vector-width={opts.vector_width}",
                       "block-elements=" + ("262144" if opts.block_elements == 262144 else
                                            "8..64" if opts.block_elements <= 64 else "65..4096"),
                       f"openmp={str(opts.openmp).lower()}",
                       f"approximate-trig={str(opts.approximate_trig).lower()}",
                       "nontemporal-stores=" + (("true+min-bytes" if opts.min_bytes else "true")
                                                if opts.nontemporal else "false"),
                       f"threads={opts.threads}",
                       *(opts.attention_options() if case.op == "attention" else ())):
            self.options[option] = self.options.get(option, 0) + 1


class Harness:
    def __init__(self, args):
        self.args = args
        self.stats = Stats()

    def repro(self, indices, opts, detail):
        run = self.args.posenc_run
        run = os.path.relpath(run, ROOT) if os.path.abspath(run).startswith(ROOT + os.sep) else run
        script = os.path.relpath(os.path.abspath(__file__), ROOT)
        inject = f" --inject={self.args.inject}" if self.args.inject else ""
        if self.args.vector_widths != VECTOR_WIDTHS:
            inject += " --vector-widths=" + ",".join(map(str, self.args.vector_widths))
        return (f"REPRO: python3 {script} {run} --replay {self.args.seed}:"
                f"{','.join(map(str, indices))}{inject}  # {detail} {opts.describe()}")

    def execute(self, cases, opts):
        """posenc-run on `cases` as one module: (outputs, None) or (None, error).
        A compile (pipeline + JIT) longer than --compile-limit seconds is an
        error too: a compiler bounds its compile time for every module and
        option it accepts (issue 22)."""
        try:
            log = []
            outs = pe.run(self.args.posenc_run, module_text(cases, self.args.inject),
                          [x for c in cases for x in c.inputs],
                          pipeline=opts.pipeline(),
                          threads=opts.threads, timeout=self.args.timeout * len(cases),
                          extra=["--poison-allocations"], log=log)
            m = re.search(r"compiled @\S+ in ([0-9.]+) ms", log[0] if log else "")
            if m and float(m.group(1)) > 1000 * self.args.compile_limit:
                return None, (f"compile took {float(m.group(1)) / 1000:.1f} s, more than "
                              f"--compile-limit={self.args.compile_limit:g} s")
            return outs, None
        except RuntimeError as e:
            # The first error line, else the exit status line (a crash's
            # stack dump can push its message out of the captured stderr).
            lines = [l.strip() for l in str(e).splitlines()
                     if l.strip() and not re.match(r"\s*#\d+ ", l)]
            errors = [l for l in lines if "error" in l.lower() or "Assertion" in l]
            return None, (errors or lines or ["posenc-run failed"])[0][:300]

    def report(self, case, ok, detail, opts, indices):
        if not ok:
            print(f"FAIL {self.args.seed}:{case.index} {detail}", flush=True)
            print(self.repro(indices, opts, f"{case.desc} {detail}"), flush=True)
        elif self.args.verbose:
            print(f"PASS {self.args.seed}:{case.index} {case.desc} {detail}", flush=True)

    def evaluate(self, cases, opts):
        """Runs `cases` as one module: (ok, detail, err/tol) per case."""
        outs, error = self.execute(cases, opts)
        if outs is None:
            return [(False, f"posenc-run failed: {error}", math.inf)] * len(cases)
        results = []
        for case, out in zip(cases, outs):
            ok, err, tol, ratio = compare(case, out, self.args.inject)
            results.append((ok, f"err {err:.3g} tol {tol:.3g} (err/tol {ratio:.3g})", ratio))
        return results

    def check(self, cases, opts):
        """Runs and checks one chunk. A case that fails in a chunk of several
        is run alone, so that its reproducer names it alone; if it passes
        alone, the reproducer replays the whole chunk."""
        results = self.evaluate(cases, opts)
        for case, (ok, detail, ratio) in zip(cases, results):
            indices = [case.index]
            if not ok and len(cases) > 1:
                alone_ok, alone_detail, alone_ratio = self.evaluate([case], opts)[0]
                if alone_ok:
                    detail += " (fails in its chunk, passes alone)"
                    indices = [c.index for c in cases]
                else:
                    detail, ratio = alone_detail, alone_ratio
            self.stats.record(case, ok, ratio, opts)
            self.report(case, ok, detail, opts, indices)


def chunks(cases):
    """Consecutive cases, at most CHUNK_CASES and CHUNK_ELEMENTS per run."""
    chunk, size = [], 0
    for c in cases:
        n = sum(x.size for x in c.inputs) + c.expect.size
        if chunk and (len(chunk) == CHUNK_CASES or size + n > CHUNK_ELEMENTS):
            yield chunk
            chunk, size = [], 0
        chunk.append(c)
        size += n
    if chunk:
        yield chunk


def group_cases(seed, group, ops, limit):
    """The cases of option group `group` whose op is in `ops` (at most `limit`)."""
    indices = [i for i in range(group * GROUP, (group + 1) * GROUP) if op_of(i) in ops]
    if "linalg" in ops:
        start = LINALG_BASE + group * LINALG_GROUP
        indices += list(range(start, start + LINALG_GROUP))
    return [make_case(seed, i) for i in indices[:min(len(indices), limit)]]


def campaign(h, ops):
    """Option groups 0, 1, ... until --cases cases ran or --minutes passed."""
    args = h.args
    deadline = time.monotonic() + 60 * args.minutes if args.minutes else math.inf
    limit = args.cases if args.cases else (math.inf if args.minutes else 200)
    done, group = 0, 0
    while done < limit and time.monotonic() < deadline:
        opts = draw_options(args.seed, group, args.vector_widths)
        cases = group_cases(args.seed, group, ops, limit - done)
        for chunk in chunks(cases):
            if time.monotonic() >= deadline:
                break
            h.check(chunk, opts)
            done += len(chunk)
        group += 1


def replay(h, spec):
    """--replay SEED:I[,I...]: the cases, as one module, under their group's options."""
    seed, _, rest = spec.partition(":")
    indices = [int(i) for i in rest.split(",")]
    groups = {group_of(i) for i in indices}
    if len(groups) != 1:
        sys.exit(f"--replay: cases {indices} are in different option groups")
    h.args.seed = int(seed)
    h.args.verbose = True
    opts = draw_options(h.args.seed, groups.pop(), h.args.vector_widths)
    cases = [make_case(h.args.seed, i) for i in indices]
    print(f"replay {spec}: {opts.describe()}")
    if h.args.print_module:
        print(module_text(cases, h.args.inject))
    h.check(cases, opts)


def summary(stats, elapsed):
    """Per op: cases, failures, worst err/tol of f32 and of f16/bf16 outputs."""
    print(f"{'op':<11} {'cases':>6} {'failed':>6}  worst err/tol: f32  f16/bf16")
    for op in OPS:
        if stats.cases[op]:
            worst = ["%.3g" % stats.worst[(op, f32)] if (op, f32) in stats.worst else "-"
                     for f32 in (True, False)]
            print(f"{op:<11} {stats.cases[op]:>6} {stats.failed[op]:>6}  "
                  f"{worst[0]:>18}  {worst[1]:>8}")
    print("options (cases): " + ", ".join(f"{k} {v}" for k, v in sorted(stats.options.items())))
    if stats.cases["attention"]:
        print("attention terms (cases): " +
              ", ".join(f"{k} {stats.terms.get(k, 0)}"
                        for k in ("any", "window", "chunk_size", "softcap", "temperature",
                                  "key_lengths", "key_mask", "rope_only_positions")) +
              f"; failed with terms {stats.terms_failed}")
    if stats.cases["linalg"]:
        pairs = [(f, t) for f in linalg_cases.FORMS for t in linalg_cases.TYPES]
        missing = [f"{f}:{t}" for f, t in pairs if (f, t) not in stats.coverage]
        print(f"linalg coverage: {len(pairs) - len(missing)} of {len(pairs)} (form, type) pairs; "
              f"missing: {' '.join(missing) or 'none'}")
    failed = sum(stats.failed.values())
    print(f"time {elapsed:.1f} s")
    print(f"{sum(stats.cases.values()) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    global LOCAL, KEY_LENGTHS, KEY_MASK
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("posenc_run")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cases", type=int, default=None,
                    help="run this many cases (default 200 unless --minutes)")
    ap.add_argument("--minutes", type=float, default=None, help="run until this much time passed")
    ap.add_argument("--ops", default=",".join(OPS), help="comma-separated subset of " + ",".join(OPS))
    ap.add_argument("--replay", default=None, metavar="SEED:I[,I...]")
    ap.add_argument("--inject", choices=("mismatch", "error"), default=None,
                    help="self-test: wrong expected outputs or invalid modules (every case fails)")
    ap.add_argument("--print-module", action="store_true",
                    help="with --replay: print the module")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds per case (a posenc-run call on N cases gets N times this); "
                         "exceeding it is a failure")
    ap.add_argument("--compile-limit", type=float, default=60.0,
                    help="seconds a posenc-run compile (pipeline + JIT) may take; longer is a "
                         "failure (a chunk that exceeds it is rerun case by case)")
    ap.add_argument("--vector-widths", default=",".join(map(str, VECTOR_WIDTHS)),
                    help="the vector widths drawn (odd ones, e.g. 3 and 7, make LLVM take "
                         "~10 s per attention kernel)")
    ap.add_argument("--local-rate", type=float, default=LOCAL,
                    help="share of attention cases drawn with issue 23's terms (window, chunk, "
                         "soft-cap, temperature); other rates draw other cases for a seed")
    ap.add_argument("--key-lengths-rate", type=float, default=KEY_LENGTHS,
                    help="share of attention cases drawn with issue 24's key_lengths; other "
                         "rates draw other cases for a seed")
    ap.add_argument("--key-mask-rate", type=float, default=KEY_MASK,
                    help="share of attention cases drawn with issue 24's key_mask (and, with "
                         "explicit positions, rope_only_positions); other rates draw other "
                         "cases for a seed")
    ap.add_argument("-v", dest="verbose", action="store_true", help="one line per case")
    args = ap.parse_args()
    args.vector_widths = tuple(int(w) for w in args.vector_widths.split(","))
    if not 0.0 <= args.local_rate <= 1.0:
        ap.error(f"--local-rate: expected a share in [0, 1], got {args.local_rate}")
    LOCAL = args.local_rate
    if not 0.0 <= args.key_lengths_rate <= 1.0:
        ap.error(f"--key-lengths-rate: expected a share in [0, 1], got {args.key_lengths_rate}")
    KEY_LENGTHS = args.key_lengths_rate
    if not 0.0 <= args.key_mask_rate <= 1.0:
        ap.error(f"--key-mask-rate: expected a share in [0, 1], got {args.key_mask_rate}")
    KEY_MASK = args.key_mask_rate
    ops = [o for o in args.ops.split(",") if o]
    unknown = set(ops) - set(OPS)
    if unknown or not ops:
        ap.error(f"--ops: expected a subset of {','.join(OPS)}, got {args.ops!r}")
    h = Harness(args)
    started = time.monotonic()
    if args.replay:
        replay(h, args.replay)
    else:
        campaign(h, ops)
    return summary(h.stats, time.monotonic() - started)


if __name__ == "__main__":
    sys.exit(main())
