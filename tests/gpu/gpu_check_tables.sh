#!/usr/bin/env bash
# The tables of scripts/gpu-check's fbp and mbir steps, run for real on any machine with stand-in
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
[[ $1 == recon ]] || exit 0
on=cuda error=0.0123
[[ " $* " == *" --backend cpu "* ]] && { on=cpu; error=0.0125; }
if [[ " $* " == *" --algo mbir "* ]]; then
    echo "mbir iteration 6/100: residual 5, solution norm 3, regulariser 1, cost 2, 4 equits, error $error, 0.04 s (0.2 s total)" >&2
    echo "reconstructed 1 slice(s) of 8x8 from 8 angles with mbir on $on, 6 iteration(s) (converged) in 0.2 s -> x"
else
    echo "reconstructed 1 slice(s) of 8x8 from 8 angles with cuda.alu.acm.lin.1s.64x64 in 0.120 s (filtering 0.01 s, back-projection 0.1 s, 1 GU/s) -> x"
fi
EOF
chmod +x "$WORK/bin/tomo" "$WORK/bin/tomo_cuda_selfcheck"
bash "$ROOT/scripts/gpu-check" fbp --quick --bin "$WORK/bin" --out "$WORK/fbp" | tail -n 6
bash "$ROOT/scripts/gpu-check" mbir --quick --bin "$WORK/bin" --out "$WORK/mbir" | tail -n 4
