#!/usr/bin/env python3
"""Writes test/Raising/raise-attention-key-mask.mlir's functions (stdout):
HF's padding-mask attention (transformers v5 sdpa_mask as torch-mlir lowers
it: causal AND attention_mask[b, kv] != 0 gathered per batch, filled with
-inf, SDPA's guard zeroing fully masked rows) over [B, H, S, D] = [2, 2, 4,
8], and near misses that each change one detail. The CHECK lines are written
by hand in the test file; run this to regenerate the bodies."""

B, H, S, D = 2, 2, 4, 8
T4 = f"tensor<{B}x{H}x{S}x{S}xf32>"


def chain(name, mask_arg, gather, combine="arith.andi %c, %p : i1", fill="%ninf",
          guard=True, valid="ne", masked_fill=False):
    """One function. `mask_arg`: the attention_mask type; `gather`: body
    lines computing %p (i1) from %bi (batch), %qi, %ki (indices) and the
    [B, S] i1 tensor %valid; `combine`: the mask from %c (causal) and %p."""
    am_t = f"tensor<{B}x{S}x{mask_arg}>"
    lines = [f"func.func @{name}(%q: tensor<{B}x{H}x{S}x{D}xf32>, %k: tensor<{B}x{H}x{S}x{D}xf32>, "
             f"%v: tensor<{B}x{H}x{S}x{D}xf32>, %am: {am_t}) -> tensor<{B}x{H}x{S}x{D}xf32> {{"]
    a = lines.append
    a("  %zero = arith.constant 0.000000e+00 : f32")
    a("  %ninf = arith.constant 0xFF800000 : f32")
    a("  %big = arith.constant -3.40282347E+38 : f32")
    a("  %ninf64 = arith.constant 0xFFF0000000000000 : f64")
    a("  %scale = arith.constant 0.353553385 : f32")
    a("  %true = arith.constant true")
    a("  %c0_i64 = arith.constant 0 : i64")
    if mask_arg == "i1":
        a("  %valid = tensor.cast %am : tensor<2x4xi1> to tensor<2x4xi1>")
    else:
        a(f"  %v_init = tensor.empty() : tensor<{B}x{S}xi1>")
        a(f"  %valid = linalg.generic {{indexing_maps = [#m2, #m2], iterator_types = [\"parallel\", \"parallel\"]}} ins(%am : {am_t}) outs(%v_init : tensor<{B}x{S}xi1>) {{")
        a(f"  ^bb0(%in: {mask_arg}, %out: i1):")
        a(f"    %y = arith.cmpi {valid}, %in, %c0_i64 : {mask_arg}")
        a("    linalg.yield %y : i1")
        a(f"  }} -> tensor<{B}x{S}xi1>")
    a(f"  %mb_init = tensor.empty() : tensor<{B}x1x{S}x{S}xi1>")
    a(f"  %both = linalg.generic {{indexing_maps = [#map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} outs(%mb_init : tensor<{B}x1x{S}x{S}xi1>) {{")
    a("  ^bb0(%out: i1):")
    a("    %bi = linalg.index 0 : index")
    a("    %qi = linalg.index 2 : index")
    a("    %ki = linalg.index 3 : index")
    a("    %c = arith.cmpi sle, %ki, %qi : index")
    for g in gather:
        a("    " + g)
    a(f"    %y = {combine}")
    a("    linalg.yield %y : i1")
    a(f"  }} -> tensor<{B}x1x{S}x{S}xi1>")
    a(f"  %mf_init = tensor.empty() : tensor<{B}x1x{S}x{S}xf32>")
    a(f"  %mask = linalg.generic {{indexing_maps = [#map4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%both : tensor<{B}x1x{S}x{S}xi1>) outs(%mf_init : tensor<{B}x1x{S}x{S}xf32>) {{")
    a("  ^bb0(%in: i1, %out: f32):")
    a(f"    %y = arith.select %in, %zero, {fill} : f32")
    a("    linalg.yield %y : f32")
    a(f"  }} -> tensor<{B}x1x{S}x{S}xf32>")
    BH = B * H
    a(f"  %kt_init = tensor.empty() : tensor<{B}x{H}x{D}x{S}xf32>")
    a(f"  %kt = linalg.transpose ins(%k : tensor<{B}x{H}x{S}x{D}xf32>) outs(%kt_init : tensor<{B}x{H}x{D}x{S}xf32>) permutation = [0, 1, 3, 2]")
    a(f"  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<{B}x{H}x{S}x{D}xf32> into tensor<{BH}x{S}x{D}xf32>")
    a(f"  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<{B}x{H}x{D}x{S}xf32> into tensor<{BH}x{D}x{S}xf32>")
    a(f"  %s_init = tensor.empty() : tensor<{BH}x{S}x{S}xf32>")
    a(f"  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<{BH}x{S}x{S}xf32>) -> tensor<{BH}x{S}x{S}xf32>")
    a(f"  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<{BH}x{S}x{D}xf32>, tensor<{BH}x{D}x{S}xf32>) outs(%s_zero : tensor<{BH}x{S}x{S}xf32>) -> tensor<{BH}x{S}x{S}xf32>")
    a(f"  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [{B}, {H}, {S}, {S}] : tensor<{BH}x{S}x{S}xf32> into {T4}")
    a(f"  %l_init = tensor.empty() : {T4}")
    a(f"  %t1 = linalg.generic {{indexing_maps = [#map4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%s4 : {T4}) outs(%l_init : {T4}) {{")
    a("  ^bb0(%in: f32, %out: f32):")
    a("    %y = arith.mulf %in, %scale : f32")
    a("    linalg.yield %y : f32")
    a(f"  }} -> {T4}")
    if masked_fill:  # MPT: masked_fill(bias != 0, fill)
        a(f"  %mk_init = tensor.empty() : tensor<{B}x1x{S}x{S}xi1>")
        a(f"  %masked = linalg.generic {{indexing_maps = [#map4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%mask : tensor<{B}x1x{S}x{S}xf32>) outs(%mk_init : tensor<{B}x1x{S}x{S}xi1>) {{")
        a("  ^bb0(%in: f32, %out: i1):")
        a("    %y = arith.cmpf une, %in, %zero : f32")
        a("    linalg.yield %y : i1")
        a(f"  }} -> tensor<{B}x1x{S}x{S}xi1>")
        a(f"  %t2 = linalg.generic {{indexing_maps = [#mask4, #map4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%masked, %t1 : tensor<{B}x1x{S}x{S}xi1>, {T4}) outs(%l_init : {T4}) {{")
        a("  ^bb0(%in: i1, %in_0: f32, %out: f32):")
        a(f"    %y = arith.select %in, {fill}, %in_0 : f32")
        a("    linalg.yield %y : f32")
        a(f"  }} -> {T4}")
    else:
        a(f"  %t2 = linalg.generic {{indexing_maps = [#map4, #mask4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%t1, %mask : {T4}, tensor<{B}x1x{S}x{S}xf32>) outs(%l_init : {T4}) {{")
        a("  ^bb0(%in: f32, %in_0: f32, %out: f32):")
        a("    %y = arith.addf %in, %in_0 : f32")
        a("    linalg.yield %y : f32")
        a(f"  }} -> {T4}")
    R3, R4 = f"tensor<{B}x{H}x{S}xf32>", f"tensor<{B}x{H}x{S}x1xf32>"
    a(f"  %m_init = tensor.empty() : {R3}")
    a(f"  %m_fill = linalg.fill ins(%ninf : f32) outs(%m_init : {R3}) -> {R3}")
    a(f"  %max = linalg.generic {{indexing_maps = [#map4, #row3], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"reduction\"]}} ins(%t2 : {T4}) outs(%m_fill : {R3}) {{")
    a("  ^bb0(%in: f32, %out: f32):")
    a("    %y = arith.maximumf %in, %out : f32")
    a("    linalg.yield %y : f32")
    a(f"  }} -> {R3}")
    a(f"  %max4 = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [{B}, {H}, {S}, 1] : {R3} into {R4}")
    a(f"  %shifted = linalg.generic {{indexing_maps = [#map4, #row4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%t2, %max4 : {T4}, {R4}) outs(%l_init : {T4}) {{")
    a("  ^bb0(%in: f32, %in_0: f32, %out: f32):")
    a("    %y = arith.subf %in, %in_0 : f32")
    a("    linalg.yield %y : f32")
    a(f"  }} -> {T4}")
    a(f"  %exp = linalg.generic {{indexing_maps = [#map4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%shifted : {T4}) outs(%l_init : {T4}) {{")
    a("  ^bb0(%in: f32, %out: f32):")
    a("    %y = math.exp %in : f32")
    a("    linalg.yield %y : f32")
    a(f"  }} -> {T4}")
    a(f"  %sum_init = tensor.empty() : {R4}")
    a(f"  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : {R4}) -> {R4}")
    a(f"  %sum = linalg.generic {{indexing_maps = [#map4, #row4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"reduction\"]}} ins(%exp : {T4}) outs(%sum_fill : {R4}) {{")
    a("  ^bb0(%in: f32, %out: f32):")
    a("    %y = arith.addf %in, %out : f32")
    a("    linalg.yield %y : f32")
    a(f"  }} -> {R4}")
    a(f"  %probs = linalg.generic {{indexing_maps = [#map4, #row4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%exp, %sum : {T4}, {R4}) outs(%l_init : {T4}) {{")
    a("  ^bb0(%in: f32, %in_0: f32, %out: f32):")
    a("    %y = arith.divf %in, %in_0 : f32")
    a("    linalg.yield %y : f32")
    a(f"  }} -> {T4}")
    probs = "%probs"
    if guard:  # SDPA: rows whose logits are all -inf give 0
        B4, B1 = f"tensor<{B}x{H}x{S}x{S}xi1>", f"tensor<{B}x{H}x{S}x1xi1>"
        a(f"  %eq_init = tensor.empty() : {B4}")
        a(f"  %eq = linalg.generic {{indexing_maps = [#map4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%t2 : {T4}) outs(%eq_init : {B4}) {{")
        a("  ^bb0(%in: f32, %out: i1):")
        a("    %x = arith.extf %in : f32 to f64")
        a("    %y = arith.cmpf oeq, %x, %ninf64 : f64")
        a("    linalg.yield %y : i1")
        a(f"  }} -> {B4}")
        a(f"  %all_init = tensor.empty() : {B1}")
        a(f"  %all_fill = linalg.fill ins(%true : i1) outs(%all_init : {B1}) -> {B1}")
        a(f"  %all = linalg.generic {{indexing_maps = [#map4, #row4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"reduction\"]}} ins(%eq : {B4}) outs(%all_fill : {B1}) {{")
        a("  ^bb0(%in: i1, %out: i1):")
        a("    %y = arith.andi %in, %out : i1")
        a("    linalg.yield %y : i1")
        a(f"  }} -> {B1}")
        a(f"  %guarded = linalg.generic {{indexing_maps = [#row4, #map4, #map4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins(%all, %probs : {B1}, {T4}) outs(%l_init : {T4}) {{")
        a("  ^bb0(%in: i1, %in_0: f32, %out: f32):")
        a("    %y = arith.select %in, %zero, %in_0 : f32")
        a("    linalg.yield %y : f32")
        a(f"  }} -> {T4}")
        probs = "%guarded"
    a(f"  %pc = tensor.collapse_shape {probs} [[0, 1], [2], [3]] : {T4} into tensor<{BH}x{S}x{S}xf32>")
    a(f"  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<{B}x{H}x{S}x{D}xf32> into tensor<{BH}x{S}x{D}xf32>")
    a(f"  %o_init = tensor.empty() : tensor<{BH}x{S}x{D}xf32>")
    a(f"  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<{BH}x{S}x{D}xf32>) -> tensor<{BH}x{S}x{D}xf32>")
    a(f"  %o = linalg.batch_matmul ins(%pc, %vc : tensor<{BH}x{S}x{S}xf32>, tensor<{BH}x{S}x{D}xf32>) outs(%o_zero : tensor<{BH}x{S}x{D}xf32>) -> tensor<{BH}x{S}x{D}xf32>")
    a(f"  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [{B}, {H}, {S}, {D}] : tensor<{BH}x{S}x{D}xf32> into tensor<{B}x{H}x{S}x{D}xf32>")
    a(f"  return %o4 : tensor<{B}x{H}x{S}x{D}xf32>")
    a("}")
    return "\n".join(lines)


# HF's gather: attention_mask[batch_idx, kv_idx], indices wrapped like
# Python's negative indexing (torch-mlir's form).
HF_GATHER = [
    "%b64 = arith.index_cast %bi : index to i64",
    "%k64 = arith.index_cast %ki : index to i64",
    "%bneg = arith.cmpi slt, %b64, %c0_i64 : i64",
    "%c2_i64 = arith.constant 2 : i64",
    "%bw = arith.addi %b64, %c2_i64 : i64",
    "%bs = arith.select %bneg, %bw, %b64 : i64",
    "%bx = arith.index_cast %bs : i64 to index",
    "%kneg = arith.cmpi slt, %k64, %c0_i64 : i64",
    "%c4_i64 = arith.constant 4 : i64",
    "%kw = arith.addi %k64, %c4_i64 : i64",
    "%ks = arith.select %kneg, %kw, %k64 : i64",
    "%kx = arith.index_cast %ks : i64 to index",
    "%p = tensor.extract %valid[%bx, %kx] : tensor<2x4xi1>",
]


def gather_at(b, k):
    return [f"%p = tensor.extract %valid[{b}, {k}] : tensor<2x4xi1>"]


CASES = [
    ("sdpa_padding", dict(mask_arg="i64", gather=HF_GATHER)),
    ("bool_mask", dict(mask_arg="i1", gather=gather_at("%bi", "%ki"))),
    ("eager_padding", dict(mask_arg="i64", gather=HF_GATHER, fill="%big", guard=False)),
    ("mpt_masked_fill", dict(mask_arg="i64", gather=HF_GATHER, fill="%big", guard=False,
                             masked_fill=True)),
    ("near_miss_reversed_keys", dict(mask_arg="i64", gather=[
        "%c3 = arith.constant 3 : index", "%rk = arith.subi %c3, %ki : index"] +
        gather_at("%bi", "%rk"))),
    ("near_miss_other_batch", dict(mask_arg="i64", gather=[
        "%c1 = arith.constant 1 : index", "%ob = arith.subi %c1, %bi : index"] +
        gather_at("%ob", "%ki"))),
    ("near_miss_query_padding", dict(mask_arg="i64", gather=gather_at("%bi", "%qi"))),
    ("near_miss_or", dict(mask_arg="i64", gather=gather_at("%bi", "%ki"),
                          combine="arith.ori %c, %p : i1")),
    ("inverted_validity", dict(mask_arg="i64", gather=gather_at("%bi", "%ki"),
                                valid="eq")),
    ("near_miss_negated", dict(mask_arg="i64", gather=gather_at("%bi", "%ki") +
                               ["%np = arith.xori %p, %true : i1"],
                               combine="arith.andi %c, %np : i1")),
]

MAPS = """#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>"""

if __name__ == "__main__":
    for name, kw in CASES:
        print(f"// ===== {name}")
        print(MAPS)
        print(chain(name, **kw))
        print()
