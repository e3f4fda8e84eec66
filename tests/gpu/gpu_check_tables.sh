#!/usr/bin/env bash
# The tables of scripts/gpu-check's fbp, mbir and fdk steps, run for real on any machine with stand-in
# binaries that print what tomo and tomo_cuda_selfcheck print on a GPU: the parsing, the verdicts
# and a step without --baseline (whose missing files once ended the step before its table).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/bin"
cat >"$WORK/bin/tomo_cuda_selfcheck" <<'EOF'
#!/usr/bin/env bash
echo "FBP of some slices: 0.50 s host to host"
EOF
cat >"$WORK/bin/tomo" <<'EOF'
#!/usr/bin/env bash
if [[ $1 == bench && " $* " == *" --suite fdk "* ]]; then
    echo "variant                N^3 x P, det       read s filter s     bp s  store s  total s    GUPS  bpGUPS   model s"
    if [[ " $* " == *" --workload 2048:2048:2048 "* ]]; then
        [[ " $* " == *" --variants cuda.fdk.tile "* ]] &&
            echo "cuda.fdk.tile          2048^3 x 2048, 2048^2    1.000    1.000   14.000    3.000   19.000  900.00 1200.00    18.000"
        [[ " $* " == *" --variants cuda.fdk.shfl.ldg "* ]] &&
            echo "cuda.fdk.shfl.ldg      2048^3 x 2048, 2048^2    1.000    1.000   20.000    3.000   25.000  700.00  870.00    24.000"
    else
        echo "cuda.fdk.shfl.ldg      512^3 x 720, 768^2    0.100    0.200    0.300    0.100    1.200   80.00  300.00     1.100"
        echo "                       device: upload 0.063 s, kernels 0.250 s, transpose 0.001 s, download 0.042 s"
        echo "cuda.fdk.tile          512^3 x 720, 768^2    0.100    0.200    0.300    0.100    1.100   80.00  300.00     1.100"
        echo "                       device: upload 0.063 s, kernels 0.0750 s, transpose 0.001 s, download 0.042 s"
    fi
    exit 0
fi
[[ $1 == recon ]] || exit 0
on=cuda error=0.0123
[[ " $* " == *" --backend cpu "* ]] && { on=cpu; error=0.0125; }
if [[ " $* " == *" --algo mbir "* ]]; then
    echo "mbir iteration 6/100: residual 5, solution norm 3, regulariser 1, cost 2, 4 equits, error $error, 0.04 s (0.2 s total)" >&2
    if [[ $on == cuda ]]; then  # the layout: built by the first run of a cache, then read
        layout="built in 0.580 s"
        [[ -n ${XDG_CACHE_HOME:-} && -f $XDG_CACHE_HOME/layout ]] && layout="from disk in 0.050 s"
        [[ -n ${XDG_CACHE_HOME:-} ]] && mkdir -p "$XDG_CACHE_HOME" && touch "$XDG_CACHE_HOME/layout"
        echo "tomo recon: note: MBIR GPU-ICD on CUDA stand-in: 64 SVs of 33, 8 (automatic) per launch, 40 work-groups of 256 each, 600 MiB on the device (layout $layout)" >&2
        echo "tomo recon: note: MBIR timeline: wall 0.250 s | upload 0.010 s | kernels 0.150 s | download 0.005 s | host 0.080 s | efficiency 0.98" >&2
    fi
    echo "reconstructed 1 slice(s) of 8x8 from 8 angles with mbir on $on, 6 iteration(s) (converged) in 0.2 s -> x"
else
    echo "reconstructed 1 slice(s) of 8x8 from 8 angles with cuda.alu.acm.lin.1s.64x64 in 0.120 s (filtering 0.01 s, back-projection 0.1 s, 1 GU/s) -> x"
fi
EOF
chmod +x "$WORK/bin/tomo" "$WORK/bin/tomo_cuda_selfcheck"
bash "$ROOT/scripts/gpu-check" fbp --quick --bin "$WORK/bin" --out "$WORK/fbp" | tail -n 6
mbir=$(bash "$ROOT/scripts/gpu-check" mbir --quick --bin "$WORK/bin" --out "$WORK/mbir")
grep -A2 -E '^-- mbir-cuda(-disk)?,' <<<"$mbir"
tail -n 5 <<<"$mbir"
bash "$ROOT/scripts/gpu-check" fdk --bin "$WORK/bin" --out "$WORK/fdk" | tail -n 8
