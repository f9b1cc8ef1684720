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
