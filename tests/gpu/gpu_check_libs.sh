#!/usr/bin/env bash
# scripts/gpu-check on a machine whose loader misses a CUDA library that a pip package holds (the
# GPU image: libcusparse in site-packages/nvidia/cu13/lib, not in the loader's cache): every GPU
# step finds it and adds its folder to LD_LIBRARY_PATH, and the binaries then run. Stand-ins:
# a program linked against a library made here, moved where only the search can find it.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CXX=${CXX:-c++}
mkdir -p "$WORK/build" "$WORK/bin" "$WORK/site/nvidia/cu13/lib"
echo 'int tomoFakeSparse() { return 27; }' >"$WORK/build/fake.cpp"
"$CXX" -shared -fPIC -Wl,-soname,libtomofakesparse.so.12 -o "$WORK/build/libtomofakesparse.so.12" \
    "$WORK/build/fake.cpp"
cat >"$WORK/build/main.cpp" <<'CPP'
#include <cstdio>
int tomoFakeSparse();
int main() { std::printf("FBP of some slices: 0.%d s host to host\n", tomoFakeSparse()); }
CPP
"$CXX" -o "$WORK/bin/tomo_cuda_selfcheck" "$WORK/build/main.cpp" "$WORK/build/libtomofakesparse.so.12"
cp "$WORK/bin/tomo_cuda_selfcheck" "$WORK/bin/tomo"
mv "$WORK/build/libtomofakesparse.so.12" "$WORK/site/nvidia/cu13/lib/"
unset LD_LIBRARY_PATH
# Without the search the stand-in cannot start.
"$WORK/bin/tomo" >/dev/null 2>&1 && { echo "the stand-in ran without its library"; exit 1; }
export TOMO_GPU_CHECK_LIB_ROOTS="$WORK/site/nvidia"
bash "$ROOT/scripts/gpu-check" libs --bin "$WORK/bin" --out "$WORK/libs" 2>&1 | grep '^libs:'
# A GPU step runs the binaries with the library found.
bash "$ROOT/scripts/gpu-check" fbp --quick --bin "$WORK/bin" --out "$WORK/fbp" 2>&1 | grep '^16 '
# Where nothing holds the library the step says so and fails.
export TOMO_GPU_CHECK_LIB_ROOTS="$WORK/build"
bash "$ROOT/scripts/gpu-check" libs --bin "$WORK/bin" --out "$WORK/none" 2>&1 | grep '^libs:' ||
    true
bash "$ROOT/scripts/gpu-check" libs --bin "$WORK/bin" --out "$WORK/none2" >/dev/null 2>&1 &&
    echo "a missing library passed" || echo "a missing library fails the step"
