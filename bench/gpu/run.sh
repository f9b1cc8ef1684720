#!/bin/sh
# bench/gpu: posenc's GPU kernels (RoPE; attention prefill and decode) on a
# CUDA device against the device's copy bandwidth and PyTorch, in one run
# sized for a 10-minute GPU slot. See bench/gpu/README.md.
#
#   bench/gpu/run.sh --prepare [--small]     # here (the build, no GPU): compile
#   bench/gpu/run.sh                         # there (the GPU): run, table, RESULT
#   bench/gpu/run.sh --dry-run               # what would run (no GPU)
#
# Options: --artifacts DIR (default build/gpu-bench), --build DIR (default
# build), --chip sm_XY (default sm_90), --cases rope,prefill,decode,
# --iterations N (20), --warmup N (3), --budget-s S (420), --small (prepare:
# smoke-test shapes). Exit status: 0 done, 1 numerics failed or error,
# 2 bad arguments, 77 no CUDA driver or GPU.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=run
artifacts="$root/build/gpu-bench"
build="$root/build"
chip=sm_90
small=
cases=
pass=

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }
need() { [ $# -ge 2 ] || { echo "run.sh: error: $1 needs a value" >&2; exit 2; }; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prepare) mode=prepare ;;
    --dry-run) mode=dry-run ;;
    --small) small=--small ;;
    --artifacts) need "$@"; artifacts=$2; shift ;;
    --build) need "$@"; build=$2; shift ;;
    --chip) need "$@"; chip=$2; shift ;;
    --cases) need "$@"; cases="--cases $2"; shift ;;
    --iterations|--warmup|--budget-s) need "$@"; pass="$pass $1 $2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# PyTorch's own numpy, torch and CUDA libraries are the peers: the python3
# on PATH (on the GPU machines, the image's, which holds torch).
py=${PYTHON:-python3}
case $mode in
  prepare)
    # shellcheck disable=SC2086
    exec "$py" "$here/gpu_bench.py" prepare --build "$build" --out "$artifacts" \
      --chip "$chip" $small $cases ;;
  dry-run)
    # shellcheck disable=SC2086
    exec "$py" "$here/gpu_bench.py" run --artifacts "$artifacts" --dry-run $cases $pass ;;
  run)
    [ -z "$small" ] || { echo "run.sh: error: --small goes with --prepare" >&2; exit 2; }
    # shellcheck disable=SC2086
    exec "$py" "$here/gpu_bench.py" run --artifacts "$artifacts" $cases $pass ;;
esac
