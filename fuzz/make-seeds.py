#!/usr/bin/env python3
"""Writes the seed corpora and dictionaries of the posenc fuzz targets.

  make-seeds.py --targets N [--target-list FILE] --out DIR

DIR/pass/       every test/**/*.mlir case (split at `// -----`, comment lines
                dropped): valid cases once per fuzz target (the first byte
                selects the pass or pipeline; posenc-pass-fuzzer takes it
                modulo its target count N), cases that expect a verifier
                error once (mutating them mostly exercises the verifiers,
                and N copies would crowd out the cases that reach passes).
                With --target-list (the `POSENC_FUZZ_LIST_TARGETS=1
                posenc-pass-fuzzer` output: index, name, pipeline, host),
                the exported models (IMPORTER_OUTPUT: 20-50 KB of torch-mlir
                linalg each, a quarter second per run under ASan) go only to
                the targets that read importer output, the raising passes
                (RAISING_TARGET); every other target does nothing with them
                (no posenc ops) or compiles a whole model, and 48 copies of
                12 models took two minutes of the CI run.
DIR/hf-config/  every test/Translate/Inputs/*.json and every config section
                of test/Translate/*.test, under option bytes 0, 65 and 122
                (options: see fuzz/HFConfigFuzzer.cpp).
DIR/npy/        .npy files (versions 1.0-3.0, every dtype kind, shapes from
                () to rank 4, Python 2 longs) for posenc-npy-fuzzer.
DIR/pass.dict, DIR/hf-config.dict, DIR/npy.dict
                libFuzzer dictionaries: the words and punctuation of those
                inputs plus edge-case values (the MLIR parser lives in an
                uninstrumented libMLIR.so, so libFuzzer cannot learn its
                keywords by itself).
"""

import argparse
import hashlib
import json
import pathlib
import re
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Test inputs that are importer output (exported models), seeded for the
# targets whose pipeline matches RAISING_TARGET only (--target-list).
IMPORTER_OUTPUT = ("test/Raising/Models/", "test/Raising/Inputs/")
RAISING_TARGET = re.compile(r"posenc-raise-|posenc-fuse-attention")

EDGE_NUMBERS = [
    "0", "-1", "1", "2", "3", "-9223372036854775808", "9223372036854775807",
    "9223372036854775806", "4611686018427387904", "2147483647", "4294967296",
    "1099511627776", "1e999", "-1e999", "1e-320", "0.0", "-0.0", "nan", "inf",
    "0x7FF8000000000000", "0x7FF0000000000000", "0xFFF0000000000000",
    "1.000000e+00", "1.0e+308",
]
MLIR_TOKENS = [
    "?", "x", "xf32", "xf16", "xbf16", "xf64", "xi64", "xi32", "xindex",
    "xi128", "xi1", "tensor<", "tensor<?x", ">", "<", "(", ")", "[", "]",
    "{", "}", ",", ":", "=", "->", "%", "#posenc.", "func.func", "return",
    "arith.constant", "dense<", "index", "i1", "i8", "i64", "i128", "f32",
    "f64", "unit", "true", "false", "// -----",
]
JSON_TOKENS = [
    "{", "}", "[", "]", ":", ",", "\"", "null", "true", "false", "{}", "[]",
    "\"rope_scaling\"", "\"rope_parameters\"", "\"rope_type\"", "\"type\"",
]


def split_cases(text):
    """(case, expects_error) of a file's MLIR test cases, comment lines
    dropped."""
    cases = []
    for case in re.split(r"^// -----.*$", text, flags=re.M):
        lines = [l for l in case.splitlines()
                 if not l.lstrip().startswith("//") and l.strip()]
        if lines:
            cases.append(("\n".join(lines) + "\n", "expected-error" in case))
    return cases


def json_sections(path):
    """Config bodies of a split-file .test (`#--- name.json` sections)."""
    out, current = [], None
    for line in path.read_text().splitlines():
        if line.startswith("#--- "):
            if current is not None:
                out.append("\n".join(current) + "\n")
            current = [] if line.endswith(".json") else None
        elif current is not None:
            current.append(line)
    if current is not None:
        out.append("\n".join(current) + "\n")
    return out


NPY_TOKENS = [
    "\x93NUMPY", "'descr'", "'fortran_order'", "'shape'", "True", "False",
    "'<f4'", "'<f2'", "'<f8'", "'<i8'", "'<i4'", "'|b1'", "'<u2'", "'<U3'",
    "'>f4'", "'|O'", "'<c8'", "L", "()", "(0,)", ", }", "{", "}", "(", ")",
    ",", ":", "[", "\\",
]


def npy_file(descr, shape, version=1, spelled_shape=None, data=None):
    """A .npy file as numpy writes it (header padded to 64 bytes)."""
    shape_text = spelled_shape or (
        "(%s)" % ("%d," % shape[0] if len(shape) == 1
                  else ", ".join(str(d) for d in shape)))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, shape_text)
    length_bytes = 2 if version == 1 else 4
    preamble = 8 + length_bytes
    total = (preamble + len(header) + 1 + 63) // 64 * 64
    header += " " * (total - preamble - len(header) - 1) + "\n"
    encoded = header.encode("latin-1" if version < 3 else "utf-8")
    length = struct.pack("<H" if version == 1 else "<I", len(encoded))
    if data is None:
        count = 1
        for d in shape:
            count *= d
        size = int(descr[2:]) * (4 if descr[1] == "U" else 1)
        data = bytes(range(256)) * (count * size // 256 + 1)
        data = data[:count * size]
    return b"\x93NUMPY" + bytes([version, 0]) + length + encoded + data


def write(directory, prefix, body):
    name = hashlib.sha1(prefix + body).hexdigest()
    (directory / name).write_bytes(prefix + body)


def dict_line(token):
    escaped = "".join(
        c if 32 <= ord(c) < 127 and c not in '"\\' else "\\x%02X" % ord(c)
        for c in token)
    return '"%s"\n' % escaped


def write_dict(path, tokens):
    path.write_text("".join(dict_line(t) for t in sorted(set(tokens)) if t))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, required=True,
                        help="target count of posenc-pass-fuzzer")
    parser.add_argument("--target-list", type=pathlib.Path,
                        help="posenc-pass-fuzzer's target list "
                        "(POSENC_FUZZ_LIST_TARGETS=1)")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args()
    all_targets = list(range(args.targets))
    raising_targets = all_targets
    if args.target_list:
        rows = [line.split("\t") for line in
                args.target_list.read_text().splitlines() if line.strip()]
        all_targets = [int(row[0]) for row in rows]
        raising_targets = [int(row[0]) for row in rows
                           if RAISING_TARGET.search(row[2])]

    pass_dir = args.out / "pass"
    hf_dir = args.out / "hf-config"
    pass_dir.mkdir(parents=True, exist_ok=True)
    hf_dir.mkdir(parents=True, exist_ok=True)

    words = set(MLIR_TOKENS) | set(EDGE_NUMBERS)
    valid = invalid = 0
    for path in sorted((ROOT / "test").rglob("*.mlir")):
        # Compile-time stress modules (whole-pipeline compiles of 15-20 s
        # under ASan): as seeds they are reported as slow units.
        if path.name.startswith("compile-time-"):
            continue
        imported = path.relative_to(ROOT).as_posix().startswith(IMPORTER_OUTPUT)
        for case, expects_error in split_cases(path.read_text()):
            if expects_error:
                invalid += 1
                write(pass_dir, bytes([0]), case.encode())
                continue
            valid += 1
            for target in raising_targets if imported else all_targets:
                write(pass_dir, bytes([target]), case.encode())
            words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", case))
            words.update(re.findall(r"#posenc\.[a-z_0-9]+<", case))
    write_dict(args.out / "pass.dict", [w for w in words if len(w) <= 40])

    keys = set(JSON_TOKENS) | set(EDGE_NUMBERS)
    configs = [p.read_text() for p in
               sorted((ROOT / "test/Translate/Inputs").glob("*.json"))]
    for path in sorted((ROOT / "test/Translate").glob("*.test")):
        configs.extend(json_sections(path))
    for config in configs:
        for flags in (0, 65, 122):
            write(hf_dir, bytes([flags]), config.encode())
        try:
            stack = [json.loads(config)]
        except ValueError:
            continue
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                keys.update('"%s"' % k for k in value)
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
            elif isinstance(value, str):
                keys.add('"%s"' % value)
    write_dict(args.out / "hf-config.dict", [k for k in keys if len(k) <= 60])

    npy_dir = args.out / "npy"
    npy_dir.mkdir(parents=True, exist_ok=True)
    npys = [
        npy_file("<f4", (2, 3)), npy_file("<f2", (4,)), npy_file("<f8", ()),
        npy_file("<i8", (1, 2, 3, 4)), npy_file("<i4", (0,)),
        npy_file("|b1", (5,)), npy_file("<u2", (2, 2)), npy_file("<U3", (2,)),
        npy_file("<c8", (1,)), npy_file("|i1", (3,)), npy_file("=f4", (2,)),
        npy_file("<f4", (2, 3), version=2), npy_file("<f4", (2, 3), version=3),
        npy_file("<f4", (2, 3), spelled_shape="(2L, 3L)"),
        npy_file("<f4", (3,), data=b""),  # truncated data
    ]
    for body in npys:
        write(npy_dir, b"", body)
    write_dict(args.out / "npy.dict", NPY_TOKENS)
    print("make-seeds: %d valid MLIR cases x %d targets, %d invalid ones, "
          "%d configs x 3 option bytes, %d .npy files"
          % (valid, args.targets, invalid, len(configs), len(npys)))


if __name__ == "__main__":
    main()
