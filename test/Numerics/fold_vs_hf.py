"""Differential test: posenc's folded tables vs Hugging Face transformers.

posenc's folded `posenc.rope_frequencies` (f64 results, so that only HF's
own rounding is measured) are compared with transformers' own
ROPE_INIT_FUNCTIONS on the same random configurations as the reference
tests, and the ALiBi slopes posenc lowers to are compared with BLOOM's
build_alibi_tensor for n = 1..130 heads. Tolerances are those of
test/lib/test_ref_vs_hf.py (HF computes inv_freq in fp32: relative 64u*A;
attention factor relative 1e-12; slopes relative (2n+4)u).
Usage: fold_vs_hf.py POSENC_OPT [--n N] [--seed S]
"""

import argparse
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import posenc_mlir as pm  # noqa: E402
import posenc_ref as ref  # noqa: E402
import hf_ref as hf  # noqa: E402
from test_ref_vs_hf import RTOL_INV, U32, amplification  # noqa: E402

HF_SCHEMES = ["default", "linear", "dynamic_ntk", "yarn", "llama3", "longrope"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("posenc_opt")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("HF versions:", hf.versions())
    passed = failed = 0

    for scheme in HF_SCHEMES:
        cfgs = list(ref.random_configs(scheme, args.n, seed=args.seed))
        got = pm.folded_results(pm.run_opt(
            args.posenc_opt, pm.fold_module(cfgs, "f64"), "--posenc-fold-frequencies",
            "--mlir-print-elementsattrs-with-hex-if-larger=0"))
        worst = 0.0
        for i, cfg in enumerate(cfgs):
            inv, af = got[f"cfg{i}"]
            hf_inv, hf_af = hf.hf_inv_freq(cfg)
            tol = RTOL_INV * amplification(cfg)
            err = float(np.max(np.abs(inv - hf_inv) / np.abs(hf_inv)))
            # posenc's attention factor is an f32 constant: 1 f32 ulp of HF's.
            af_ok = abs(af - hf_af) <= abs(hf_af) * 2 * U32
            worst = max(worst, err / tol)
            if err <= tol and af_ok:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {scheme} cfg{i}: rel err {err:.3g} (tol {tol:.3g}), "
                      f"attention factor {af} vs HF {hf_af}; {cfg}")
        print(f"{scheme:12s}: {len(cfgs)} configs vs HF, worst error {worst:.3g} x tolerance")

    # ALiBi slopes: posenc lowers #posenc.alibi_slopes to an f32 constant.
    funcs = "\n".join(
        f"func.func @n{n}() -> tensor<{n}x1x1xf32> {{\n"
        f"  %b = posenc.alibi key_linear slopes(<num_heads = {n}>) : tensor<{n}x1x1xf32>\n"
        f"  return %b : tensor<{n}x1x1xf32>\n}}" for n in range(1, 131))
    text = pm.run_opt(args.posenc_opt, funcs, "--convert-posenc-to-linalg",
                      "--mlir-print-elementsattrs-with-hex-if-larger=0")
    for n in range(1, 131):
        body = text.split(f"func.func @n{n}()")[1]
        m = re.search(r'arith\.constant (dense<[^>]*>) : (tensor<\d+xf32>)', body)
        slopes = pm._parse_constant(m.group(1), m.group(2)) if m else None
        hf_slopes = hf.bloom_slopes(n)
        ok = slopes is not None and pm.np.allclose(
            slopes, hf_slopes, rtol=(2 * n + 4) * U32, atol=0)
        passed, failed = passed + ok, failed + (not ok)
        if not ok:
            print(f"FAIL alibi slopes n={n}: {slopes} vs BLOOM {hf_slopes}")
    print("alibi slopes vs BLOOM build_alibi_tensor: n = 1..130 checked")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
