"""Runs posenc kernels through posenc-run and returns the results as arrays.

Test utility of the execution tests: writes the inputs as .npy files, calls
`posenc-run` (JIT through `posenc-cpu-pipeline` unless another pipeline is
given) once, and loads the outputs back. bf16 travels as raw uint16 bits.
"""

import os
import subprocess
import tempfile
from typing import List, Optional, Sequence

import numpy as np


def to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """Rounds f32 to bf16 (nearest even) and returns the raw bits."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def from_bf16_bits(b: np.ndarray) -> np.ndarray:
    return (np.asarray(b, np.uint16).astype(np.uint32) << 16).view(np.float32)


def run(posenc_run: str, module: str, inputs: Sequence[np.ndarray],
        entry: Optional[str] = None, pipeline: Optional[str] = None,
        threads: Optional[int] = None, extra: Sequence[str] = (),
        timeout: Optional[float] = None,
        log: Optional[List[str]] = None) -> List[np.ndarray]:
    """Runs `module` on `inputs`; returns the outputs. With `log`, appends
    posenc-run's stdout (its "compiled @NAME in X ms" and RESULT lines)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "kernel.mlir")
        with open(src, "w") as f:
            f.write(module)
        paths = []
        for i, x in enumerate(inputs):
            path = os.path.join(tmp, f"in{i}.npy")
            np.save(path, np.ascontiguousarray(x))
            paths.append(path)
        cmd = [posenc_run, src, "--iterations=1", "--warmup=0",
               f"--outputs-dir={tmp}"]
        if paths:
            cmd.append("--inputs=" + ",".join(paths))
        if entry:
            cmd.append(f"--entry={entry}")
        if pipeline:
            cmd.append(f"--pipeline={pipeline}")
        if threads:
            cmd.append(f"--threads={threads}")
        cmd.extend(extra)
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"posenc-run: error: timed out after {timeout:g} s")
        if out.returncode != 0:
            raise RuntimeError(f"posenc-run failed ({out.returncode}):\n{out.stdout[-2000:]}"
                               f"\n{out.stderr[-4000:]}")
        if log is not None:
            log.append(out.stdout)
        results = []
        i = 0
        while os.path.exists(os.path.join(tmp, f"out{i}.npy")):
            results.append(np.load(os.path.join(tmp, f"out{i}.npy")))
            i += 1
        return results


class Tally:
    """Counts a test script's checks: prints a "FAIL ..." line per failure
    and, at the end, "N passed, M failed" (FileCheck reads both)."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok: bool, failure: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {failure}")

    def finish(self) -> int:
        """Prints the summary; the script's exit status."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
