#!/usr/bin/env bash
# The main job: set up, build, run posenc-opt over the example model IR, JIT-run
# an imported Llama-3.2-1B attention block, then compile and run the two S=2048
# attention blocks of examples/ (Llama-3.1-8B RoPE llama3 GQA, MPT-7B ALiBi),
# check them against the fp64 reference and time them against PyTorch SDPA
# (examples/attention_demo.py; exits non-zero if a check fails).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
BUILD_DIR=${POSENC_BUILD_DIR:-build}
for f in examples/*.mlir; do
  echo "== posenc-opt $f"
  "$BUILD_DIR/bin/posenc-opt" "$f"
done

# A real model's positional encoding end to end: import Llama-3.2-1B's
# config.json, compile the attention block through posenc-cpu-pipeline and run
# it on seeded random inputs (positions drawn from [0, 16)).
echo "== posenc-translate --import-hf-config llama-3.2-1b.json | posenc-run"
"$BUILD_DIR/bin/posenc-translate" --import-hf-config \
  test/Translate/Inputs/llama-3.2-1b.json --seq-len=16 |
  "$BUILD_DIR/bin/posenc-run" - --iterations=3 --int-max=16

# Realistic blocks: Llama-3.1-8B attention (RoPE llama3 x8, GQA 32/8) and
# MPT-7B-style ALiBi attention at S=2048, f32, through posenc-run's default
# pipeline on seeded inputs; each output checked against bench/attention's fp64
# reference; PyTorch SDPA (HF-form RoPE) timed on the same inputs when torch is
# installed (setup.sh installs it from requirements-hf.txt). ~30-40 s on 2 cores.
echo "== examples/attention_demo.py (Llama-3.1-8B and MPT-7B ALiBi attention, S=2048)"
python3 examples/attention_demo.py --build "$BUILD_DIR"
