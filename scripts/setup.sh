#!/usr/bin/env bash
# Installs posenc's build and test dependencies on Debian 12, idempotently.
# Debian's LLVM/MLIR 22 comes from the bookworm-security suite.
set -euo pipefail

PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
          libomp-22-dev ninja-build cmake python3-numpy
          libclang-rt-22-dev)  # ASan/UBSan/libFuzzer runtimes (test.sh)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if ! grep -rqs "bookworm-security" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "deb http://deb.debian.org/debian-security bookworm-security main" |
      $SUDO tee /etc/apt/sources.list.d/bookworm-security.list >/dev/null
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# Python packages of the test suite, pinned in requirements.txt (numpy),
# requirements-hf.txt (torch + transformers for the differential tests, ~3 GB
# once per machine), requirements-iree.txt (IREE compiler and runtime for
# test/IREE and bench/iree) and requirements-bench.txt (ONNX Runtime and
# OpenVINO for bench/rope and bench/attention); a stamp keyed by their hash
# keeps re-runs instant.
req="$(dirname "$0")/../requirements.txt"
req_hf="$(dirname "$0")/../requirements-hf.txt"
req_iree="$(dirname "$0")/../requirements-iree.txt"
req_bench="$(dirname "$0")/../requirements-bench.txt"
stamp_dir=${XDG_CACHE_HOME:-$HOME/.cache}/posenc
stamp="$stamp_dir/pip-$(cat "$req" "$req_hf" "$req_iree" "$req_bench" | sha256sum | cut -c1-16)-$(python3 -c 'import sys; print(sys.version_info[0]*100+sys.version_info[1])')"
if [ ! -f "$stamp" ]; then
  echo "setup: installing Python packages from requirements.txt"
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
    -r "$req" -r "$req_hf" -r "$req_iree" -r "$req_bench"
  mkdir -p "$stamp_dir" && touch "$stamp"
fi
echo "setup: dependencies present"
