#!/usr/bin/env bash
# `mpirun tomo recon` as a user runs it (issue 16): the same file as one process (raw, and HDF5
# written by every rank at once; FDK on a grid of ranks), progress and notes from rank 0, a job
# stopped by mpirun's SIGTERM leaving nothing behind, other commands refused, and a corrupt slab
# on rank 1 failing every rank with its message, the exit code of one process and no output
# file.
# Usage: mpirun-cli.sh TOMO MPIRUN WORKDIR
set -euo pipefail
export OMPI_MCA_btl_vader_single_copy_mechanism=none  # containers without ptrace
tomo=$1
mpirun=$2
dir=$3
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
ranks() { "$mpirun" --oversubscribe --allow-run-as-root -np "$@"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

"$tomo" phantom -o sino.raw --truth truth.raw --size 64 --angles 0:180:90 --detectors 96 \
    --slices 32 > /dev/null
common=(sino.raw --shape 90x96x32 --angles 0:180:90 --size 64)

"$tomo" recon "${common[@]}" -o one.raw --chunk-rows 8 > /dev/null
# mpirun forwards stdout and stderr separately (their lines may interleave): check each alone.
ranks 2 "$tomo" recon "${common[@]}" -o two.raw --chunk-rows 8 > two.out 2> two.err ||
    { cat two.out two.err; fail "FBP on 2 ranks"; }
cmp one.raw two.raw || fail "FBP on 2 ranks differs from one process"
grep -q "note: ran across 2 ranks" two.err || fail "no note of the ranks"
[ "$(grep -c '^reconstructed' two.out)" = 1 ] || fail "the result is not printed once"
# HDF5 laid out for the ranks: each writes its own planes into the one file.
ranks 2 "$tomo" recon "${common[@]}" -o two.h5 --chunk-rows 8 > two-h5.out 2> two-h5.err ||
    { cat two-h5.out two-h5.err; fail "FBP to HDF5 on 2 ranks"; }
grep -q "each rank writes its planes into the output file itself" two-h5.err ||
    { cat two-h5.err; fail "the ranks did not write the HDF5 file themselves"; }
"$tomo" compare one.raw two.h5 --shape 64x64x32 > compare-h5.log
grep -q "max error 0$" compare-h5.log || { cat compare-h5.log; fail "HDF5 on 2 ranks differs"; }

"$tomo" recon "${common[@]}" -o one-sirt.raw --algo sirt --param iterations=4 > /dev/null 2>&1
ranks 4 "$tomo" recon "${common[@]}" -o four-sirt.raw --algo sirt --param iterations=4 \
    > four.out 2> four.err || { cat four.out four.err; fail "SIRT on 4 ranks"; }
[ "$(grep -c 'sirt iteration' four.err)" = 4 ] || fail "iterations are not printed once each"
"$tomo" compare one-sirt.raw four-sirt.raw --shape 64x64x32 > compare.log
grep -q "max error 0$" compare.log || { cat compare.log; fail "SIRT on 4 ranks differs"; }

# Cone-beam FDK on a 2 x 1 grid (z-slabs): the same bits as one process; a grid that does not
# divide the ranks is refused with its reason.
"$tomo" phantom --cone -o cone.mha --geometry cone.xml --size 32 --views 40 > /dev/null 2>&1
"$tomo" recon cone.mha --geometry cone.xml --volume 32 -o cone-one.raw > /dev/null 2>&1
ranks 2 "$tomo" recon cone.mha --geometry cone.xml --volume 32 -o cone-two.raw --rank-grid 2x1 \
    > cone.out 2> cone.err || { cat cone.out cone.err; fail "FDK on 2 ranks"; }
cmp cone-one.raw cone-two.raw || fail "FDK on a 2 x 1 grid differs from one process"
grep -q "R x C = 2 x 1 over 2 ranks" cone.err || { cat cone.err; fail "no note of the grid"; }
if ranks 2 "$tomo" recon cone.mha --geometry cone.xml --volume 32 -o cone-bad.raw \
    --rank-grid 3x1 > /dev/null 2> cone-bad.err; then
    fail "a 3 x 1 grid ran on 2 ranks"
fi
grep -q "R = 3 does not divide the 2 ranks" cone-bad.err || { cat cone-bad.err; fail "no reason"; }

# mpirun's SIGTERM (what it sends its ranks on Ctrl-C or a scheduler's kill) reaches each rank's
# interrupt watcher, not an MPI thread: every rank stops, says so, and rank 0 removes the file
# it was writing. The job (512^3 from 90 views, several seconds) is stopped half a second after
# it announced its output. Open MPI 4.1 sends SIGTERM one second after the job is told to stop
# and SIGKILL one second later (odls_base_sigkill_timeout = 1): a rank has that second to stop
# and say so, so nothing on the way may ignore a cancel for long (a slab's memset once did).
"$tomo" phantom --cone -o big.mha --geometry big.xml --size 128 --views 90 > /dev/null 2>&1
"$mpirun" --oversubscribe --allow-run-as-root -np 2 "$tomo" recon big.mha --geometry big.xml \
    --volume 512 -o big.h5 > big.out 2> big.err &
job=$!
for _ in $(seq 1 300); do grep -q "writes its planes" big.err && break; sleep 0.1; done
sleep 0.5
kill -TERM "$job"
set +e
wait "$job"
code=$?
set -e
[ "$code" != 0 ] || fail "the stopped job exited with 0"
grep -q "tomo recon: rank 0: cancelled" big.err || { cat big.err; fail "no cancel message"; }
if ls -a | grep -q "big.h5"; then fail "a stopped job left $(ls -a | grep big.h5)"; fi

if ranks 2 "$tomo" phantom -o x.raw --size 8 > /dev/null 2> refuse.log; then
    fail "tomo phantom ran on 2 ranks"
fi
grep -q "only \`tomo recon\` runs across" refuse.log || fail "no reason for the refusal"

# A NaN in slice 28 (the raw reader refuses it when it reads that slab): slabs of one FBP batch
# (8 or 16 slices, as the variant batches them) put it on rank 1, after rank 0 has written its
# first slab to the (temporary) output.
plane=$((90 * 96 * 4))
cp sino.raw corrupt.raw
printf '\x00\x00\xc0\x7f' | dd of=corrupt.raw bs=1 seek=$((28 * plane + 400)) conv=notrunc \
    status=none
bad=(corrupt.raw --shape 90x96x32 --angles 0:180:90 --size 64 --chunk-rows 8)
set +e
"$tomo" recon "${bad[@]}" -o alone.h5 > alone.log 2>&1
alone=$?
ranks 2 "$tomo" recon "${bad[@]}" -o out-bad.h5 > /dev/null 2> bad.log
code=$?
set -e
cat bad.log
[ "$code" = "$alone" ] && [ "$code" != 0 ] || fail "exit code $code, one process $alone"
grep -q "tomo recon: rank 1: .*NaN" bad.log || fail "no message from rank 1"
if ls -a | grep -q "out-bad"; then fail "a partial output was left: $(ls -a | grep out-bad)"; fi
echo "mpirun-cli: all checks passed"
