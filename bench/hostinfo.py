"""The host a benchmark ran on, for its table and its RESULT line.

Figures from different machines must never be compared blindly: every bench
prints the CPU model, its family/model numbers, the widest x86 vector ISA it
has (AVX2, AVX-512, AVX-512 with BF16 dot products) and the cores it used.
Read from /proc/cpuinfo (Linux); fields it lacks are reported as "unknown".
"""

import os
import re


def _cpuinfo():
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break  # the first processor is enough
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    return fields


def isa_level(flags):
    """The widest vector ISA of a /proc/cpuinfo flag set."""
    if "avx512_bf16" in flags:
        return "avx512_bf16"
    if "avx512f" in flags:
        return "avx512"
    if "avx2" in flags:
        return "avx2"
    return "other"


def host(threads=None):
    """A dict: cpu, family, model, isa, cores (available), threads (used)."""
    info = _cpuinfo()
    flags = set(info.get("flags", "").split())
    return {
        "cpu": info.get("model name", "unknown"),
        "family": info.get("cpu family", "unknown"),
        "model": info.get("model", "unknown"),
        "isa": isa_level(flags),
        "cores": len(os.sched_getaffinity(0)),
        "threads": threads,
    }


def describe(h):
    """One line for a bench's table."""
    used = f", {h['threads']} used" if h["threads"] is not None else ""
    return (f"host: {h['cpu']} (family {h['family']} model {h['model']}), "
            f"ISA {h['isa']}, {h['cores']} cores available{used}")


def result_fields(h):
    """`key=value` pairs for a RESULT line (no spaces in values)."""
    cpu = re.sub(r"[^A-Za-z0-9.\-]+", "_", h["cpu"]).strip("_")
    return (f"host_cpu={cpu} host_family={h['family']} host_model={h['model']} "
            f"host_isa={h['isa']} host_cores={h['cores']}")
