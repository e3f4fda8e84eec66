# Shared by scripts/run and scripts/test: install missing Debian packages from the one list, then
# configure (Release, ccache, warnings as errors) and build incrementally.
set -euo pipefail
TOMO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOMO_PRESET=${TOMO_PRESET:-release}
TOMO_BUILD_DIR="$TOMO_ROOT/build/$TOMO_PRESET"

tomo_install_deps() {
    local missing=() pkg
    while read -r pkg; do
        [[ -z "$pkg" || "$pkg" == \#* ]] && continue
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done < "$TOMO_ROOT/scripts/packages.txt"
    if ((${#missing[@]})); then
        echo "== installing ${#missing[@]} Debian package(s): ${missing[*]}"
        local sudo=""
        [[ $(id -u) -ne 0 ]] && sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

tomo_build() {
    # Paths relative to the repository in ccache's keys, so that the Python package's build
    # (build/wheel, scripts/python-pip-check) reuses this build's objects.
    export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$TOMO_ROOT}"
    # nvcc from NVIDIA's installer lives in /usr/local/cuda/bin, often not on PATH.
    if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
        export PATH="/usr/local/cuda/bin:$PATH"
    fi
    cd "$TOMO_ROOT"
    echo "== configuring ($TOMO_PRESET) in $TOMO_BUILD_DIR"
    cmake --preset "$TOMO_PRESET" >"$TOMO_ROOT/build/configure-$TOMO_PRESET.log" 2>&1 || {
        cat "$TOMO_ROOT/build/configure-$TOMO_PRESET.log"; return 1; }
    sed -n '/TomoStation .* configuration/,/ccache/p' "$TOMO_ROOT/build/configure-$TOMO_PRESET.log"
    echo "== building"
    cmake --build --preset "$TOMO_PRESET"
}

mkdir -p "$TOMO_ROOT/build"
