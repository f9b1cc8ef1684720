#!/usr/bin/env bash
# Regenerates the dialect reference (add_mlir_doc) into docs/dialect/.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${POSENC_BUILD_DIR:-build}
ninja -C "$BUILD_DIR" mlir-doc
cp "$BUILD_DIR/docs/posenc/PosEncDialect.md" docs/dialect/PosEncDialect.md
cp "$BUILD_DIR"/docs/posenc/*Passes.md docs/passes/
