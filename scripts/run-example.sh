#!/usr/bin/env bash
# The main job: set up, build, and run posenc-opt over the example model IR.
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
