# Shared by scripts/fuzz (replay, part of the README test command) and scripts/fuzz-explore
# (mutation, a developer's command): builds the libFuzzer harnesses of fuzz/ with clang and
# -fsanitize=fuzzer,address,undefined in build/fuzz. Sourced; defines fuzz_build and the
# sanitizer options. Without clang and its libFuzzer runtime fuzz_build prints why and returns 1.
set -euo pipefail
TOMO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ_BUILD=${TOMO_FUZZ_BUILD_DIR:-$TOMO_ROOT/build/fuzz}
FUZZ_CC=${TOMO_FUZZ_CC:-clang}
FUZZ_CXX=${TOMO_FUZZ_CXX:-clang++}
FUZZ_TARGETS=()

# Readers must turn a failed allocation into an error (HDF5 and our Array3::create do), so huge
# sizes from corrupt headers return null instead of aborting.
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$TOMO_ROOT/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

fuzz_build() {
    local probe
    probe=$(mktemp -d)
    echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
        >"$probe/p.cpp"
    if ! command -v "$FUZZ_CXX" >/dev/null ||
        ! "$FUZZ_CXX" -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>/dev/null; then
        rm -rf "$probe"
        echo "== fuzzing skipped: $FUZZ_CXX with libFuzzer not available (packages clang, libclang-rt-14-dev)"
        return 1
    fi
    rm -rf "$probe"
    local san="-fsanitize=address,undefined -fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined"
    san="$san -fno-omit-frame-pointer -g"
    mkdir -p "$(dirname "$FUZZ_BUILD")"
    echo "== fuzzing: configuring $FUZZ_BUILD"
    cmake -S "$TOMO_ROOT" -B "$FUZZ_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER="$FUZZ_CC" -DCMAKE_CXX_COMPILER="$FUZZ_CXX" \
        -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
        -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
        -DTOMO_BUILD_FUZZERS=ON -DTOMO_BUILD_TESTS=OFF -DTOMO_WERROR=OFF \
        -DTOMO_ENABLE_CUDA=OFF -DTOMO_ENABLE_OPENCL=OFF -DTOMO_ENABLE_GUI=OFF -DTOMO_ENABLE_MPI=OFF \
        >"$FUZZ_BUILD.configure.log" 2>&1 || { cat "$FUZZ_BUILD.configure.log"; return 2; }
    mapfile -t FUZZ_TARGETS < <(ninja -C "$FUZZ_BUILD" -t targets all |
        sed -n 's/^\(fuzz_[a-z0-9_]*\): .*/\1/p' | sort -u)
    if ((${#FUZZ_TARGETS[@]} == 0)); then
        echo "== fuzzing skipped: no harness configured (see $FUZZ_BUILD.configure.log)"
        return 1
    fi
    echo "== fuzzing: building ${FUZZ_TARGETS[*]}"
    ninja -C "$FUZZ_BUILD" -j"${TOMO_FUZZ_JOBS:-2}" "${FUZZ_TARGETS[@]}" || return 2
}
