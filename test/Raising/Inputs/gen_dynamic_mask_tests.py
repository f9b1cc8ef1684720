#!/usr/bin/env python3
"""Writes test/Raising/raise-attention-dynamic.mlir's functions (stdout):
gen_key_mask_tests.py's chains at a dynamic sequence length (S = ?, every
size `tensor.dim %q, 2`), as torch-mlir exports them after
posenc-unify-dynamic-dims; posenc-raise-attention reads their masks
symbolically (SymbolicMask.cpp). The CHECK lines are written by hand in the
test file; run this to regenerate the bodies."""
import re

import gen_key_mask_tests as G

G.S = 5  # a size no other dimension has: the one made dynamic
G.T4 = f"tensor<{G.B}x{G.H}x{G.S}x{G.S}xf32>"


def gather_at(b, k):
    return [line.replace("2x4xi1", "2x5xi1") for line in G.gather_at(b, k)]


# HF's gather with Python's negative-index wrap by the dynamic length.
HF_GATHER = [line.replace("%c4_i64", "%n64").replace("2x4xi1", "2x5xi1")
             for line in G.HF_GATHER if not line.startswith("%c4_i64 =")]

CASES = [
    ("dynamic_sdpa_padding", dict(mask_arg="i64", gather=HF_GATHER)),
    ("dynamic_bool_mask", dict(mask_arg="i1", gather=gather_at("%bi", "%ki"))),
    ("dynamic_eager_padding", dict(mask_arg="i64", gather=HF_GATHER, fill="%big",
                                   guard=False)),
    ("dynamic_padding_only", dict(mask_arg="i64", gather=gather_at("%bi", "%ki"),
                                  combine="arith.andi %p, %true : i1")),
    ("near_miss_strict_causal", dict(mask_arg="i64", gather=gather_at("%bi", "%ki") +
                                     ["%lt = arith.cmpi slt, %ki, %qi : index"],
                                     combine="arith.andi %lt, %p : i1")),
    ("dynamic_window", dict(mask_arg="i64", gather=gather_at("%bi", "%ki") + [
        "%c3 = arith.constant 3 : index", "%w = arith.addi %ki, %c3 : index",
        "%in = arith.cmpi sgt, %w, %qi : index", "%cw = arith.andi %c, %in : i1"],
        combine="arith.andi %cw, %p : i1")),
] + [
    # The near misses of the static file, their gathers read at S = 5.
    (name, dict(kw, gather=[line.replace("2x4xi1", "2x5xi1") for line in kw["gather"]]))
    for name, kw in G.CASES
    if name in ("near_miss_other_batch", "near_miss_query_padding", "near_miss_or",
                "near_miss_negated")
]


def dynamic(func: str) -> str:
    """S = 5 made dynamic: types, empties, expand sizes; %n at the entry."""
    def type_(m):
        dims = m.group(1).split("x")
        return "tensor<" + "x".join("?" if d == "5" else d for d in dims) + ">"

    out = []
    for line in func.split("\n"):
        line = re.sub(r"tensor<([^>]*)>", type_, line)
        if "tensor.empty()" in line:
            rtype = line.rsplit(":", 1)[1]
            line = line.replace("tensor.empty()", "tensor.empty(" + ", ".join(
                ["%n"] * rtype.count("?")) + ")")
        if "output_shape" in line:
            line = re.sub(r"output_shape \[([^\]]*)\]", lambda m: "output_shape [" + ", ".join(
                "%n" if x.strip() == "5" else x.strip() for x in m.group(1).split(",")) + "]",
                line)
        out.append(line)
        if line.startswith("func.func"):
            out += ["  %c2 = arith.constant 2 : index",
                    "  %n = tensor.dim %q, %c2 : tensor<2x2x?x8xf32>",
                    "  %n64 = arith.index_cast %n : index to i64"]
    return "\n".join(out).replace("tensor<2x4xi1>", "tensor<2x?xi1>")


if __name__ == "__main__":
    for name, kw in CASES:
        print(f"// ===== {name}")
        print(G.MAPS)
        print(dynamic(G.chain(name, **kw)))
        print()
