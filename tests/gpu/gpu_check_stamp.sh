#!/usr/bin/env bash
# scripts/gpu-check prepare-binaries keeps binaries prepared ahead of a GPU session: a folder
# stamped with the commit and preset a build would now use is not rebuilt; a tree with changes,
# another commit or another CUDAARCHS is. Stand-ins: a fresh repository holding the script,
# with stamped folders of fake binaries (nothing is built: the rebuilds run as --dry-run).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/repo/scripts"
cp "$ROOT/scripts/gpu-check" "$WORK/repo/scripts/"
cd "$WORK/repo"
printf '/.carry/\n/out/\n' >.gitignore
git init -q . && git add . &&
    git -c user.name=t -c user.email=t@t commit -q -m stand-in
HEAD=$(git rev-parse HEAD)
fake() {  # DIR STAMP FILE...
    mkdir -p "$1/bin"
    for f in "${@:3}"; do printf '#!/bin/sh\n' >"$1/bin/$f" && chmod +x "$1/bin/$f"; done
    echo "$2" >"$1/stamp"
}
fake .carry/baseline "commit $HEAD preset minimal CUDAARCHS 90 tests OFF" tomo tomo_cuda_selfcheck \
    tomo_memxct_cuda_bench
fake .carry/new "commit $HEAD preset minimal CUDAARCHS 90 tests ON" tomo tomo_cuda_selfcheck \
    tomo_memxct_cuda_bench tomo_gpu_cuda_tests
export TOMO_GPU_CHECK_BASELINE=HEAD
echo "-- prepared ahead, clean tree:"
bash scripts/gpu-check prepare-binaries --out out 2>&1 | grep -E '^(baseline|new): |^travels'
echo "-- CUDAARCHS 80:"
CUDAARCHS=80 bash scripts/gpu-check prepare-binaries --dry-run 2>&1 |
    grep -oE '^(build-[a-z]+|[a-z]+: up to date)'
echo "-- a changed tree:"
echo change >README
bash scripts/gpu-check prepare-binaries --dry-run 2>&1 |
    grep -oE '^(build-[a-z]+|[a-z]+: up to date|new: the tree has changes)'
