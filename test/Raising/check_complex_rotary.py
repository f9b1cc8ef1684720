#!/usr/bin/env python3
"""Execution check of posenc-raise-rotary on Meta's complex-product RoPE.

    check_complex_rotary.py POSENC_OPT POSENC_RUN WORKDIR

Writes functions in torch-mlir's form of
`view_as_real(view_as_complex(x.reshape(..., D/2, 2)) * freqs_cis).flatten(3)`
(see posenc-raise-rotary-complex.mlir), raises each with posenc-raise-rotary,
runs the raised function through posenc-run (default CPU pipeline) and
compares it with an fp64 numpy evaluation of the complex product on the same
f32 table values. The un-raised function is run too and must match both:
posenc-run compiles it with a dense complex table, not with a
dense_resource one (LLVM 22 cannot translate a complex-typed resource
global: "no known conversion for innermost element type"), which is
reported, not failed. Prints "<case>: ok ..." or "<case>: FAIL ..." per
check. Exit status 1 on any failure.
"""

import os
import subprocess
import sys

import numpy as np

TOL = 1e-5  # |x| < 5, f32, polynomial sin/cos in posenc-run's pipeline


def ladder_table(rows, half, base):
    """cos + i sin of the f32 angles float(p) * w_i, rounded to f32 (torch's
    polar(ones, outer(t, freqs)))."""
    w = (np.float32(1.0) / (np.float32(base) ** (
        np.arange(0, 2 * half, 2, dtype=np.float32) / np.float32(2 * half)))).astype(np.float32)
    angles = np.outer(np.arange(rows, dtype=np.float32), w).astype(np.float32)
    a = angles.astype(np.float64)
    return (np.cos(a).astype(np.float32) + 1j * np.sin(a).astype(np.float32)).astype(np.complex64)


def shape(s):
    return "x".join(str(d) for d in s)


def dense(t):
    rows = ["[" + ", ".join("(%.9e, %.9e)" % (z.real, z.imag) for z in r) + "]" for r in t]
    return "dense<[" + ", ".join(rows) + "]>"


def module(name, xshape, table, table_rows, table_map, args="", resource=False):
    """One function: rotary of x ([B, S, H, D] or [B, H, S, D]) by `table`
    rows `table_rows` (a slice [o, o + S) or `gather` by a positions arg)."""
    n = len(xshape)
    half = xshape[-1] // 2
    cs, ps = xshape[:-1] + [half], xshape[:-1] + [half, 2]
    ct, pt, xt = (f"tensor<{shape(cs)}xcomplex<f32>>", f"tensor<{shape(ps)}xf32>",
                  f"tensor<{shape(xshape)}xf32>")
    tt = f"tensor<{shape(table.shape)}xcomplex<f32>>"
    d = [f"d{i}" for i in range(n)]
    idn = f"affine_map<({', '.join(d)}) -> ({', '.join(d)})>"
    idn1 = f"affine_map<({', '.join(d + [f'd{n}'])}) -> ({', '.join(d + [f'd{n}'])})>"
    cpl = f"affine_map<({', '.join(d + [f'd{n}'])}) -> ({', '.join(d)})>"
    par = ", ".join(['"parallel"'] * n)
    groups = ", ".join([f"[{i}]" for i in range(n - 1)] + [f"[{n - 1}, {n}]"])
    token = 1 if table_map == "bshd" else 2
    S = xshape[token]
    bshape = [1] * n
    bshape[token], bshape[-1] = S, half
    bt = f"tensor<{shape(bshape)}xcomplex<f32>>"
    bmap = ", ".join(f"d{i}" if i in (token, n - 1) else "0" for i in range(n))
    value = "dense_resource<freqs_cis>" if resource else dense(table)
    L = [f"func.func @{name}(%x: {xt}{args}) -> {xt} {{",
         "  %c0 = arith.constant 0 : index",
         "  %c1 = arith.constant 1 : index",
         f"  %table = arith.constant {value} : {tt}"]
    if table_rows == "gather":
        L += [f"  %ge = tensor.empty() : tensor<{S}x{half}xcomplex<f32>>",
              f"  %rows = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0)>, "
              f"affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\"]}} "
              f"ins(%pos : tensor<{S}xi64>) outs(%ge : tensor<{S}x{half}xcomplex<f32>>) {{",
              "  ^bb0(%in: i64, %out: complex<f32>):",
              "    %r = arith.index_cast %in : i64 to index",
              "    %col = linalg.index 1 : index",
              f"    %t = tensor.extract %table[%r, %col] : {tt}",
              "    linalg.yield %t : complex<f32>",
              f"  }} -> tensor<{S}x{half}xcomplex<f32>>"]
    else:
        L += [f"  %rows = tensor.extract_slice %table[{table_rows}, 0] [{S}, {half}] [1, 1] : "
              f"{tt} to tensor<{S}x{half}xcomplex<f32>>"]
    eg = "[[0, 1], [2, 3]]" if token == 1 else "[[0, 1, 2], [3]]"
    L += [f"  %fc = tensor.expand_shape %rows {eg} output_shape [{', '.join(map(str, bshape))}] : "
          f"tensor<{S}x{half}xcomplex<f32>> into {bt}",
          f"  %pairs = tensor.expand_shape %x [{groups}] output_shape [{', '.join(map(str, ps))}] : {xt} into {pt}",
          f"  %e = tensor.empty() : {ct}",
          f"  %xc = linalg.generic {{indexing_maps = [{idn}], iterator_types = [{par}]}} outs(%e : {ct}) {{",
          "  ^bb0(%out: complex<f32>):"]
    idx = []
    for i in range(n):
        if cs[i] == 1:
            idx.append("%c0")
        else:
            L.append(f"    %i{i} = linalg.index {i} : index")
            idx.append(f"%i{i}")
    L += [f"    %re = tensor.extract %pairs[{', '.join(idx)}, %c0] : {pt}",
          f"    %im = tensor.extract %pairs[{', '.join(idx)}, %c1] : {pt}",
          "    %z = complex.create %re, %im : complex<f32>",
          "    linalg.yield %z : complex<f32>",
          f"  }} -> {ct}",
          f"  %prod = linalg.generic {{indexing_maps = [{idn}, affine_map<({', '.join(d)}) -> ({bmap})>, {idn}], "
          f"iterator_types = [{par}]}} ins(%xc, %fc : {ct}, {bt}) outs(%e : {ct}) {{",
          "  ^bb0(%a: complex<f32>, %b: complex<f32>, %out: complex<f32>):",
          "    %m = complex.mul %a, %b : complex<f32>",
          "    linalg.yield %m : complex<f32>",
          f"  }} -> {ct}",
          f"  %e5 = tensor.empty() : {pt}",
          f"  %real = linalg.generic {{indexing_maps = [{cpl}, {idn1}], iterator_types = [{par}, \"parallel\"]}} "
          f"ins(%prod : {ct}) outs(%e5 : {pt}) {{",
          "  ^bb0(%in: complex<f32>, %out: f32):",
          "    %r = complex.re %in : complex<f32>",
          "    %j = complex.im %in : complex<f32>",
          f"    %lane = linalg.index {n} : index",
          "    %first = arith.cmpi eq, %lane, %c0 : index",
          "    %v = arith.select %first, %r, %j : f32",
          "    linalg.yield %v : f32",
          f"  }} -> {pt}",
          f"  %res = tensor.collapse_shape %real [{groups}] : {pt} into {xt}",
          f"  return %res : {xt}",
          "}"]
    text = "\n".join(L) + "\n"
    if resource:
        blob = "0x08000000" + table.astype(np.complex64).tobytes().hex().upper()
        text += "\n{-#\n  dialect_resources: {\n    builtin: {\n      freqs_cis: \"" + blob + "\"\n    }\n  }\n#-}\n"
    return text


def reference(x, table, positions, token):
    """fp64 view_as_real(view_as_complex(x) * table[positions]).flatten()."""
    x = x.astype(np.float64)
    xc = x[..., 0::2] + 1j * x[..., 1::2]
    rows = table.astype(np.complex128)[positions]  # [S, D/2]
    broadcast = [1] * x.ndim
    broadcast[token], broadcast[-1] = rows.shape
    y = xc * rows.reshape(broadcast)
    return np.stack([y.real, y.imag], axis=-1).reshape(x.shape)


def run(posenc_run, mlir, inputs, workdir, name):
    outdir = os.path.join(workdir, name + ".out")
    os.makedirs(outdir, exist_ok=True)
    proc = subprocess.run([posenc_run, "--inputs=" + ",".join(inputs), "--outputs-dir=" + outdir,
                           "--iterations=1", "--warmup=0", mlir], capture_output=True, text=True)
    path = os.path.join(outdir, "out0.npy")
    if proc.returncode != 0 or not os.path.exists(path):
        errors = [l for l in proc.stderr.splitlines() if "error" in l]
        return None, (errors or proc.stderr.strip().splitlines() or ["?"])[0]
    return np.load(path), ""


def main() -> int:
    posenc_opt, posenc_run, workdir = sys.argv[1:4]
    os.makedirs(workdir, exist_ok=True)
    rng = np.random.default_rng(13)
    llama3 = ladder_table(32, 8, 500000.0)
    custom = np.exp(1j * rng.uniform(-np.pi, np.pi, (32, 8))).astype(np.complex64)
    cases = [
        # name, x shape, table, rows, layout, resource, expected source
        ("slice_resource", [2, 8, 4, 16], llama3, 3, "bshd", True, "inv_freq"),
        ("slice_bhsd", [1, 2, 8, 16], ladder_table(32, 8, 10000.0), 20, "bhsd", False, "inv_freq"),
        ("gather", [1, 8, 2, 16], llama3, "gather", "bshd", False, "inv_freq"),
        ("custom_table", [1, 8, 2, 16], custom, 5, "bshd", False, "cos_sin"),
    ]
    failed = False
    for name, xshape, table, rows, layout, resource, source in cases:
        token = 1 if layout == "bshd" else 2
        S = xshape[token]
        x = rng.standard_normal(xshape).astype(np.float32)
        inputs = [os.path.join(workdir, name + ".x.npy")]
        np.save(inputs[0], x)
        args = ""
        if rows == "gather":
            positions = rng.permutation(32)[:S].astype(np.int64)
            inputs.append(os.path.join(workdir, name + ".pos.npy"))
            np.save(inputs[1], positions)
            args = f", %pos: tensor<{S}xi64>"
        else:
            positions = np.arange(rows, rows + S)
        src = os.path.join(workdir, name + ".mlir")
        with open(src, "w") as f:
            f.write(module(name, xshape, table, "gather" if rows == "gather" else rows, layout,
                           args, resource))
        raised = os.path.join(workdir, name + ".raised.mlir")
        proc = subprocess.run([posenc_opt, "--posenc-raise-rotary", src, "-o", raised],
                              capture_output=True, text=True)
        text = open(raised).read() if proc.returncode == 0 else ""
        if "posenc.rotary" not in text or "complex" in text or f"{source}(" not in text:
            print(f"{name}: FAIL not raised into posenc.rotary with {source}: {proc.stderr.strip()}")
            failed = True
            continue
        ref = reference(x, table, positions, token)
        got, err = run(posenc_run, raised, inputs, workdir, name)
        if got is None:
            print(f"{name}: FAIL posenc-run on the raised function: {err}")
            failed = True
            continue
        e = float(np.max(np.abs(got.astype(np.float64) - ref)))
        ok = e <= TOL
        failed |= not ok
        print(f"{name}: {'ok' if ok else 'FAIL'} {source} max_abs_err={e:.3g} tol={TOL:g}")
        unraised, err = run(posenc_run, src, inputs, workdir, name + ".unraised")
        if unraised is None:
            print(f"{name}: un-raised not compiled by posenc-run ({err.strip()[:90]})")
            continue
        e = float(np.max(np.abs(unraised.astype(np.float64) - ref)))
        diff = float(np.max(np.abs(unraised.astype(np.float64) - got)))
        ok = e <= TOL and diff <= TOL
        failed |= not ok
        print(f"{name}: un-raised {'ok' if ok else 'FAIL'} max_abs_err={e:.3g} "
              f"max_abs_diff_raised={diff:.3g}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
