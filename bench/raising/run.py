#!/usr/bin/env python3
"""bench/raising: whole imported models, raised + fused + compiled against the
same imported IR compiled without raising, both through posenc-cpu-pipeline
(posenc-run's default pipeline), measured in this one run.

For every model spec of scripts/export_hf_attention.py (llama3_eager,
llama3_sdpa, qwen2_yarn, phi3_partial, gptj, gpt2, mpt, bloom,
gpt_oss_nomoe) this builds a 1-layer Hugging Face model LARGER than the test
models (defaults: sequence 2048, hidden 512, head_dim 128, 4 query heads,
2 KV heads where the model has GQA (llama3_*, qwen2_yarn, phi3_partial,
gpt_oss_nomoe; MHA models have 4), intermediate 512, vocab 128, learned or
tabled positions for 2 x seq tokens (GPT-2's wpe, GPT-J's embed_positions,
MPT's max_seq_len; the RoPE models keep their max_position_embeddings, at
least that); MPT's and BLOOM's MLPs are 4 x hidden whatever the intermediate
size (HF's MptMLP and BloomMLP); GPT-J rotates head_dim / 2 channels, as the
test model), with the script's own build() (its seeded re-initialization, the
weights as function arguments) and export() (torch-mlir FX import to linalg
on tensors), into a temporary directory (--keep DIR: that one, kept):

  model.mlir   the import (un-raised)
  argN.npy     the N-th argument (arg0 = input_ids, then the parameters;
               with --padded: input_ids [2, S], attention_mask, position_ids)
  out0.npy     torch's fp32 last_hidden_state on those arguments (the reference)
  raised.mlir  posenc-opt --allow-unregistered-dialect
               --pass-pipeline='builtin.module(posenc-raise-pipeline{print-stats=true})'

Then, per thread count, posenc-run runs model.mlir (un-raised) and
raised.mlir on the same .npy inputs (--threads, --iterations, --warmup, the
same pipeline: posenc-run's host-tuned default or --pipeline), back to back,
--rounds times (default 2), alternating which goes first. Each call's figure
is the median of its RESULT line; per module the lowest median of the rounds
counts (other tenants of a shared machine only add time; every median is
printed), speedup = un-raised / raised (> 1: raising is faster) and saved =
un-raised - raised ms (the rest of the layer, embeddings, norms, projections
and MLP, is the same code in both, so this is what raising changes). Both
outputs are checked against torch's: err = max |out - ref| / max |ref|, which
must be <= tol (default 2e-5 + seq * 2^-24, as bench/attention: 1.4e-4 at
seq 2048; f32, polynomial sin/cos/exp in posenc's pipeline; measured errors
are ~1e-6).

Models whose un-raised import posenc-run cannot read (BLOOM: its ALiBi
positions are a cumsum, imported as tm_tensor.scan, an op of a dialect posenc
does not register; raising evaluates and erases it) get "n/a" for the
baseline and the reason. A model whose attention is not raised (none at
present: gpt_oss_nomoe's attention sinks are raised since they became a
posenc.attention operand) is timed all the same and reported as such.

The last line is

  RESULT bench=raising threads=N seq=S <model>_speedup=X ... [key=value ...]
         host_cpu=... host_family=... host_model=... host_isa=... host_cores=...

<model>_speedup is n/a where there is no baseline. Then, per model,
<model>_unraised_ms, <model>_raised_ms, <model>_err_unraised, <model>_err_raised
(keys of runs that did not happen are absent); attention_not_raised=<models>,
baseline_na=<models> and failed=<models> (comma lists) when not empty;
padded=1 with --padded; load1_start and load1_end (1-minute load average: the
machine may be shared).
With several thread counts (--threads 1,2) the per-model keys end in _tN and
threads=1,2. A failed check (error above tol, or posenc-run or posenc-opt
failing on the raised module) exits with status 1 after the RESULT line.

Usage: run.py [--quick] [--models a,b,...] [--threads 2] [--iterations N]
              [--warmup N] [--rounds N] [--seq S] [--hidden H] [--head-dim D] [--heads N]
              [--kv-heads N] [--intermediate I] [--vocab V] [--positions P]
              [--tol T] [--pipeline TEXT] [--build build] [--keep DIR]
(--quick: seq 32, hidden 64, head_dim 16, intermediate 64, 1 iteration: a
smoke test, not a measurement; compiling dominates its time.)
"""

import argparse
import dataclasses
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, ".."))
import hostinfo  # noqa: E402

MODELS = ["llama3_eager", "llama3_sdpa", "qwen2_yarn", "phi3_partial", "gptj", "gpt2", "mpt",
          "bloom", "gpt_oss_nomoe"]
RAISE_PIPELINE = "builtin.module(posenc-raise-pipeline{print-stats=true})"


class Dims:
    def __init__(self, a):
        self.seq, self.hidden, self.head_dim = a.seq, a.hidden, a.head_dim
        self.heads, self.kv_heads, self.inter = a.heads, a.kv_heads, a.intermediate
        self.vocab, self.positions = a.vocab, a.positions


def scaled_config(spec, d: Dims) -> dict:
    """The spec's config with the benchmark's sizes (same kind of model, same
    positional encoding and its parameters)."""
    c = dict(spec.config, vocab_size=d.vocab)
    cls = spec.config_cls
    if cls in ("LlamaConfig", "Qwen2Config", "GptOssConfig"):
        c.update(hidden_size=d.hidden, intermediate_size=d.inter, num_attention_heads=d.heads,
                 num_key_value_heads=d.kv_heads, head_dim=d.head_dim,
                 max_position_embeddings=max(c.get("max_position_embeddings", 0), d.positions))
    elif cls == "Phi3Config":  # head_dim = hidden / heads; partial_rotary_factor kept
        c.update(hidden_size=d.hidden, intermediate_size=d.inter, num_attention_heads=d.heads,
                 num_key_value_heads=d.kv_heads,
                 max_position_embeddings=max(c["max_position_embeddings"], d.positions),
                 original_max_position_embeddings=max(c["original_max_position_embeddings"],
                                                      d.positions))
    elif cls == "GPTJConfig":  # rotary on half the head, as the test model (8 of 16)
        c.update(n_embd=d.hidden, n_head=d.heads, n_inner=d.inter,
                 rotary_dim=d.head_dim * c["rotary_dim"] // (c["n_embd"] // c["n_head"]),
                 n_positions=d.positions)
    elif cls == "GPT2Config":
        c.update(n_embd=d.hidden, n_head=d.heads, n_inner=d.inter, n_positions=d.positions)
    elif cls == "MptConfig":  # HF's MptMLP is 4 x hidden (expansion_ratio is not read)
        c.update(d_model=d.hidden, n_heads=d.heads, max_seq_len=d.positions)
    elif cls == "BloomConfig":  # BloomMLP is 4 x hidden, not configurable
        c.update(hidden_size=d.hidden, n_head=d.heads)
    else:
        raise ValueError(f"bench/raising: no size mapping for {cls} ({spec.name})")
    return c


def has_gqa(spec) -> bool:
    return "num_key_value_heads" in spec.config


def summarize_stats(text: str):
    """posenc-opt's print-stats lines -> (short description, attention raised?)."""
    stats = {}
    for line in text.splitlines():
        m = re.match(r"^(posenc-[a-z-]+): (\d+ [a-z-]+(?:, \d+ [a-z-]+)*)\s*$", line)
        if m:
            for item in m.group(2).split(", "):
                n, k = item.split(" ")
                stats[k] = stats.get(k, 0) + int(n)
    g = stats.get
    parts = []
    if g("raised-rotary"):
        p = g("raised-partial-rotary", 0)
        parts.append(f"{g('raised-rotary')} rotary" + (f" ({p} partial)" if p else ""))
    if g("raised-alibi"):
        parts.append(f"{g('raised-alibi')} alibi" + (" (scan erased)" if g("erased-scans") else ""))
    if g("raised-learned-absolute"):
        parts.append(f"{g('raised-learned-absolute')} learned abs. pos.")
    if g("raised-sinusoidal"):
        parts.append(f"{g('raised-sinusoidal')} sinusoidal")
    if g("raised-attention"):
        extra = [w for k, w in (("raised-causal-masks", "causal"), ("raised-repeat-kv", "GQA"),
                                ("raised-key-masks", "key mask"))
                 if g(k)]
        parts.append(f"{g('raised-attention')} attention" + (f" ({', '.join(extra)})" if extra
                                                             else ""))
    else:
        parts.append("attention NOT raised")
    if g("fused-rotary"):
        parts.append("rotary fused")
    known = {"raised-rotary", "raised-partial-rotary", "raised-alibi", "raised-slope-configs",
             "folded-key-slices", "erased-scans", "raised-learned-absolute", "raised-sinusoidal",
             "raised-attention", "raised-causal-masks", "raised-repeat-kv", "fused-rotary",
             "raised-key-masks"}
    parts += [f"{n} {k}" for k, n in stats.items() if n and k not in known]
    return ", ".join(parts), bool(g("raised-attention")), stats


def foreign_ops(ir: str, known: set) -> list:
    """Ops in generic form ("dialect.op"(...)) whose dialect posenc does not register."""
    return sorted({m for m in re.findall(r'"([a-z_][a-z0-9_]*\.[a-z0-9_.]+)"\(', ir)
                   if m.split(".", 1)[0] not in known and not m.endswith(".yield")})


def run_posenc(exe, mlir, inputs, threads, a, outdir):
    """posenc-run: (median ms, compile s, max RSS MiB, output array) or raises RuntimeError."""
    import numpy as np

    cmd = [exe, mlir, "--inputs=" + ",".join(inputs), f"--threads={threads}",
           f"--iterations={a.iterations}", f"--warmup={a.warmup}", f"--outputs-dir={outdir}"]
    if a.pipeline:
        cmd.append(f"--pipeline={a.pipeline}")
    rss_file = os.path.join(outdir + ".rss")
    timer = "/usr/bin/time"
    if os.access(timer, os.X_OK):  # GNU time's max RSS of posenc-run alone
        cmd = [timer, "-f", "%M", "-o", rss_file] + cmd
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"posenc-run timed out after {a.timeout:.0f} s")
    text = proc.stdout + proc.stderr
    if proc.returncode != 0:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        first = next((line for line in lines if "error:" in line), None)
        why = lines[-1] if lines else "(no output)"
        if first and first != why:
            why = f"{first} ... {why}"
        raise RuntimeError(f"posenc-run exited with {proc.returncode}: {why[:300]}")
    m = re.search(r"^RESULT entry=\S+ median_ms=([0-9.e+-]+)", proc.stdout, re.M)
    if not m:
        raise RuntimeError("posenc-run printed no RESULT line")
    comp = re.search(r"compiled @\S+ in ([0-9.]+) ms", text)
    rss = None
    if cmd[0] == timer:
        try:
            with open(rss_file) as f:
                rss = int(f.read().split()[-1]) / 1024
        except (OSError, ValueError, IndexError):
            pass
    out = np.load(os.path.join(outdir, "out0.npy"))
    return float(m.group(1)), (float(comp.group(1)) / 1e3 if comp else None), rss, out


def rel_err(out, ref) -> float:
    import numpy as np

    if out.shape != ref.shape or not np.all(np.isfinite(out)):
        return float("inf")
    r = ref.astype(np.float64)
    return float(np.max(np.abs(out.astype(np.float64) - r)) / np.max(np.abs(r)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="seq 32, hidden 64, head_dim 16, intermediate 64, 1 iteration: "
                        "a smoke test")
    p.add_argument("--models", default=",".join(MODELS), help="comma list (default: all)")
    p.add_argument("--threads", default="2", help="comma list of thread counts (default 2)")
    p.add_argument("--iterations", type=int, default=None,
                   help="timed posenc-run calls (default 3; 1 with --quick)")
    p.add_argument("--rounds", type=int, default=None,
                   help="posenc-run calls per module and thread count, alternating which "
                        "module goes first; the lowest median counts (default 2; 1 with "
                        "--quick)")
    p.add_argument("--warmup", type=int, default=None,
                   help="untimed calls first (default 1)")
    p.add_argument("--seq", type=int, default=None, help="sequence length (default 2048)")
    p.add_argument("--hidden", type=int, default=None,
                   help="hidden size (default heads x head_dim)")
    p.add_argument("--head-dim", type=int, default=None, help="head dim (default 128)")
    p.add_argument("--heads", type=int, default=4, help="query heads (default 4)")
    p.add_argument("--kv-heads", type=int, default=2,
                   help="KV heads of the GQA models (default 2; the others have --heads)")
    p.add_argument("--intermediate", type=int, default=None, help="MLP size (default 512)")
    p.add_argument("--vocab", type=int, default=128)
    p.add_argument("--positions", type=int, default=None,
                   help="position table length (default 2 x seq)")
    p.add_argument("--tol", type=float, default=None,
                   help="max |out - ref| / max |ref| (default 2e-5 + seq * 2^-24)")
    p.add_argument("--pipeline", default="",
                   help="posenc-run --pipeline for both (default: its host-tuned default)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--keep", default="", help="write the exported files here and keep them")
    p.add_argument("--timeout", type=float, default=1200.0, help="per posenc-run call, s")
    p.add_argument("--padded", action="store_true",
                   help="a padded batch (the exporter's <name>_padded form: 2 sequences, "
                   "the second left-padded, attention_mask and position_ids with gaps as "
                   "arguments); models without that form are left out")
    a = p.parse_args()
    q = a.quick
    a.seq = a.seq or (32 if q else 2048)
    a.head_dim = a.head_dim or (16 if q else 128)
    a.hidden = a.hidden or a.heads * a.head_dim
    a.intermediate = a.intermediate or (64 if q else 512)
    a.positions = a.positions or 2 * a.seq
    a.iterations = a.iterations if a.iterations is not None else (1 if q else 3)
    a.warmup = a.warmup if a.warmup is not None else 1
    a.rounds = a.rounds or (1 if q else 2)
    a.tol = a.tol if a.tol is not None else 2e-5 + a.seq * 2.0 ** -24
    threads_list = [int(t) for t in a.threads.split(",")]
    models = [m for m in a.models.split(",") if m]
    for m in models:
        if m not in MODELS:
            p.error(f"unknown model {m!r} (one of {', '.join(MODELS)})")
    if a.padded:
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        from export_hf_attention import PADDED  # noqa: E402
        skipped = [m for m in models if m not in PADDED]
        if skipped:
            print(f"bench/raising: --padded: no padded form of {', '.join(skipped)} "
                  "(scripts/export_hf_attention.py PADDED)")
        models = [m for m in models if m in PADDED]
    if a.hidden != a.heads * a.head_dim:
        p.error("--hidden must be --heads x --head-dim (GPT-2, GPT-J, MPT, BLOOM and Phi-3 "
                "derive head_dim as hidden / heads)")
    if a.heads % a.kv_heads:
        p.error("--heads must be a multiple of --kv-heads")
    exe = os.path.join(a.build, "bin", "posenc-run")
    opt = os.path.join(a.build, "bin", "posenc-opt")
    for tool in (exe, opt):
        if not os.access(tool, os.X_OK):
            sys.exit(f"bench/raising: {tool} not built (scripts/build.sh)")

    import numpy as np
    import torch

    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import export_hf_attention as E  # noqa: E402  (the exporter, used as a module)

    E.SEQ, E.VOCAB = a.seq, a.vocab  # build() draws input_ids [1, SEQ] in [0, VOCAB)
    specs = {s.name: s for s in E.SPECS}
    known = E.registered_dialects(opt)
    torch.set_num_threads(max(threads_list))
    d = Dims(a)
    host = hostinfo.host(threads=max(threads_list))
    load_start = os.getloadavg()
    print(f"bench/raising: whole 1-layer HF models, f32, "
          f"{'QUICK sizes (smoke test, not a measurement)' if q else 'full sizes'}: "
          f"seq {a.seq}, hidden {a.hidden}, head_dim {a.head_dim}, heads {a.heads} "
          f"(GQA models: {a.kv_heads} KV heads), intermediate {a.intermediate}, vocab {a.vocab}, "
          f"positions {a.positions}")
    print(f"posenc-run median of {a.iterations} calls after {a.warmup} warm-up, threads "
          f"{a.threads}; un-raised and raised back to back, {a.rounds} round(s), lowest "
          f"median counts; "
          f"tol {a.tol:.3g} (max |out - ref| / max |ref|, ref = torch fp32)")
    print(hostinfo.describe(host))
    pl = subprocess.run([exe, "--print-pipeline"], capture_output=True, text=True).stdout
    pipe = a.pipeline or next((line[len("pipeline: "):].strip() for line in pl.splitlines()
                               if line.startswith("pipeline: ")), "(default)")
    print(f"posenc {pipe}")
    rev = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                         capture_output=True, text=True).stdout.strip()
    print(f"source: commit {rev or 'unknown'}")
    print(f"load average (1 min) at start: {load_start[0]:.2f} on {os.cpu_count()} CPUs",
          flush=True)

    rows, failed, baseline_na, attn_not_raised = [], [], [], []
    tmp_ctx = None
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        top = a.keep
    else:
        tmp_ctx = tempfile.TemporaryDirectory(prefix="posenc-bench-raising-")
        top = tmp_ctx.name
    for name in models:
        spec = specs[name]
        dd = Dims(a)
        if not has_gqa(spec):
            dd.kv_heads = a.heads
        spec = dataclasses.replace(spec, config=scaled_config(spec, dd))
        mdir = os.path.join(top, name)
        os.makedirs(mdir, exist_ok=True)
        row = dict(name=name, runs={}, gqa=has_gqa(spec))
        rows.append(row)
        t0 = time.time()
        _, wrapper, args, _ = E.build(spec, padded=a.padded)
        with torch.no_grad():
            ref = wrapper(*args).detach().numpy()
            ir = E.export(spec, wrapper, args, opt)
        model = os.path.join(mdir, "model.mlir")
        with open(model, "w") as f:
            f.write(ir)
        inputs = []
        for i, t in enumerate(args):
            inputs.append(os.path.join(mdir, f"arg{i}.npy"))
            np.save(inputs[-1], np.ascontiguousarray(t.detach().numpy()))
        np.save(os.path.join(mdir, "out0.npy"), ref)
        t_export = time.time() - t0
        raised = os.path.join(mdir, "raised.mlir")
        cmd = [opt, "--allow-unregistered-dialect", f"--pass-pipeline={RAISE_PIPELINE}", model,
               "-o", raised]
        t0 = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        t_raise = time.time() - t0
        if proc.returncode != 0:
            row["what"] = "posenc-opt failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{name}: FAILED {row['what']}\n  command: {shlex.join(cmd)}", flush=True)
            failed.append(name)
            continue
        row["what"], row["attention"], _ = summarize_stats(proc.stderr)
        if not row["attention"]:
            attn_not_raised.append(name)
        fo = foreign_ops(ir, known)
        print(f"{name}: exported in {t_export:.1f} s ({len(ir) // 1024} KiB of IR, {len(args)} "
              f"arguments{', foreign ops: ' + ', '.join(fo) if fo else ''}), raised in "
              f"{t_raise:.1f} s: {row['what']}", flush=True)
        for t in threads_list:
            r = row["runs"][t] = {}
            for rnd in range(a.rounds):
                order = [("unraised", model), ("raised", raised)]
                if rnd % 2:
                    order.reverse()  # alternate who goes first under a changing load
                for kind, mlir in order:
                    if f"{kind}_na" in r or f"{kind}_failed" in r:
                        continue
                    try:
                        ms, comp, rss, out = run_posenc(exe, mlir, inputs, t, a,
                                                        os.path.join(mdir, f"out_{kind}_t{t}"))
                    except RuntimeError as e:
                        if kind == "unraised":
                            why = str(e)
                            if fo:
                                why = (f"the import holds {', '.join(fo)} (dialect not "
                                       f"registered in posenc; posenc-run has no "
                                       f"--allow-unregistered-dialect): " + why)
                            r["unraised_na"] = why
                            if name not in baseline_na:
                                baseline_na.append(name)
                            print(f"  t{t} un-raised: n/a: {why}", flush=True)
                        else:
                            r["raised_failed"] = str(e)
                            if name not in failed:
                                failed.append(name)
                            print(f"  t{t} raised: FAILED {e}", flush=True)
                        continue
                    err = rel_err(out, ref)
                    ok = err <= a.tol
                    prev = r.get(kind)
                    if prev is None:
                        r[kind] = dict(ms=ms, medians=[ms], comp=comp, rss=rss, err=err, ok=ok)
                    else:
                        prev["medians"].append(ms)
                        prev["ms"] = min(prev["ms"], ms)
                        prev["err"] = max(prev["err"], err)
                        prev["ok"] = prev["ok"] and ok
                        prev["rss"] = max(prev["rss"] or 0, rss or 0) or None
                    if not ok and name not in failed:
                        failed.append(name)
                    print(f"  t{t} {kind:8s} {ms:10.2f} ms  compile {comp or 0:.1f} s  "
                          f"max RSS {rss or 0:.0f} MiB  err {err:.3g} "
                          f"{'ok' if ok else 'FAILED (tol %.3g)' % a.tol}  (round {rnd + 1})",
                          flush=True)
            if "unraised" in r and "raised" in r and r["unraised"]["ok"] and r["raised"]["ok"]:
                r["speedup"] = r["unraised"]["ms"] / r["raised"]["ms"]
    load_end = os.getloadavg()
    print(f"load average (1 min) at end: {load_end[0]:.2f}")

    def fmt_ms(x):
        return f"{x:.1f}" if x >= 10 else f"{x:.3g}"

    multi = len(threads_list) > 1
    print()
    print("| model | raised | threads | un-raised ms | raised ms | speedup | saved ms | "
          "err un-raised | err raised |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        for t in threads_list:
            r = row["runs"].get(t, {})
            un, ra = r.get("unraised"), r.get("raised")
            un_ms = fmt_ms(un["ms"]) if un else ("n/a" if "unraised_na" in r else "-")
            ra_ms = fmt_ms(ra["ms"]) if ra else ("FAILED" if "raised_failed" in r else "-")
            sp = f"{r['speedup']:.2f}x" if "speedup" in r else "n/a"
            sv = fmt_ms(un["ms"] - ra["ms"]) if "speedup" in r else "n/a"
            eu = (f"{un['err']:.2g}" + ("" if un["ok"] else " FAILED")) if un else "n/a"
            er = (f"{ra['err']:.2g}" + ("" if ra["ok"] else " FAILED")) if ra else "n/a"
            print(f"| {row['name']} | {row.get('what', '')} | {t} | {un_ms} | {ra_ms} | {sp} | "
                  f"{sv} | {eu} | {er} |")
    for row in rows:
        for t in threads_list:
            if "unraised_na" in row["runs"].get(t, {}):
                print(f"n/a {row['name']} (t{t}): {row['runs'][t]['unraised_na']}")
                break
    print()
    print("| model | threads | compile s un-raised / raised | max RSS MiB un-raised / raised |")
    print("|---|---|---|---|")
    for row in rows:
        for t in threads_list:
            r = row["runs"].get(t, {})
            un, ra = r.get("unraised") or {}, r.get("raised") or {}

            def f(x, spec):
                return format(x, spec) if x is not None else "n/a"
            print(f"| {row['name']} | {t} | {f(un.get('comp'), '.1f')} / "
                  f"{f(ra.get('comp'), '.1f')} | {f(un.get('rss'), '.0f')} / "
                  f"{f(ra.get('rss'), '.0f')} |")

    res = {"bench": "raising", "threads": a.threads, "seq": a.seq}
    for row in rows:
        for t in threads_list:
            sfx = f"_t{t}" if multi else ""
            r = row["runs"].get(t, {})
            res[f"{row['name']}_speedup{sfx}"] = r["speedup"] if "speedup" in r else "n/a"
    for row in rows:
        for t in threads_list:
            sfx = f"_t{t}" if multi else ""
            r = row["runs"].get(t, {})
            for kind in ("unraised", "raised"):
                if kind in r:
                    res[f"{row['name']}_{kind}_ms{sfx}"] = r[kind]["ms"]
            for kind in ("unraised", "raised"):
                if kind in r:
                    res[f"{row['name']}_err_{kind}{sfx}"] = r[kind]["err"]
    if attn_not_raised:
        res["attention_not_raised"] = ",".join(attn_not_raised)
    if baseline_na:
        res["baseline_na"] = ",".join(baseline_na)
    if failed:
        res["failed"] = ",".join(failed)
    if a.padded:
        res["padded"] = 1
    res["load1_start"] = load_start[0]
    res["load1_end"] = load_end[0]

    def fv(v):
        return v if isinstance(v, str) else (str(v) if isinstance(v, int) else f"{v:.4g}")
    print("RESULT " + " ".join(f"{k}={fv(v)}" for k, v in res.items()) + " "
          + hostinfo.result_fields(host))
    if tmp_ctx is not None:
        tmp_ctx.cleanup()
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
