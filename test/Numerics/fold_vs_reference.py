"""Folded RoPE frequency tables vs the independent fp64 NumPy reference.

For every scheme, N random configurations (posenc_ref.random_configs) are
written as posenc.rope_frequencies, folded by `posenc-opt
--posenc-fold-frequencies`, read back bit-exactly and compared with
posenc_ref.inv_freq:
  - f32 results: within 1 ulp of the fp64 reference rounded to f32 (the fold
    computes in fp64 and rounds once);
  - f64 results: relative error <= 1e-13;
  - the attention factor (f32): within 1 ulp.
Usage: fold_vs_reference.py POSENC_OPT [--n N] [--seed S]
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import posenc_mlir as pm  # noqa: E402
import posenc_ref as ref  # noqa: E402

SCHEMES = ["default", "linear", "ntk", "dynamic_ntk", "yarn", "llama3", "longrope"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("posenc_opt")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    passed = failed = 0
    for scheme in SCHEMES:
        cfgs = list(ref.random_configs(scheme, args.n, seed=args.seed))
        refs = [ref.inv_freq(c["rotary_dim"], c["base"], c["scheme"],
                             seq_len=pm.ref_seq_len(c), **c["params"]) for c in cfgs]
        for elem in ("f32", "f64"):
            text = pm.run_opt(args.posenc_opt, pm.fold_module(cfgs, elem),
                              "--posenc-fold-frequencies",
                              "--mlir-print-elementsattrs-with-hex-if-larger=0")
            got = pm.folded_results(text)
            worst = 0.0
            for i, (inv_ref, af_ref) in enumerate(refs):
                inv, af = got[f"cfg{i}"]
                if elem == "f32":
                    err = int(pm.ulp_distance_f32(inv, inv_ref.astype(np.float32)).max())
                    ok = err <= 1
                else:
                    err = float(np.max(np.abs(inv - inv_ref) / np.abs(inv_ref)))
                    ok = err <= 1e-13
                af_err = int(pm.ulp_distance_f32(np.float32(af), np.float32(af_ref)))
                worst = max(worst, err)
                if ok and af_err <= 1:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL {scheme} {elem} cfg{i}: inv err {err}, attention factor "
                          f"{af} vs {af_ref} ({af_err} ulp); config {cfgs[i]}")
            unit = "ulp" if elem == "f32" else "rel"
            print(f"{scheme:12s} {elem}: {len(cfgs)} configs, worst inv_freq error {worst:g} {unit}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
