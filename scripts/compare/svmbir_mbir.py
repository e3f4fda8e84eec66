#!/usr/bin/env python3
"""MBIR side by side: TomoStation's `tomo recon --algo mbir` against svmbir on the same data.

The data are made by `tomo phantom` (exact line integrals of the analytic Shepp-Logan, Poisson
noise from a fixed seed), so neither reconstructor's projector made them. Both run with their
defaults (snr_db 30, sharpness 0, q-GGMRF p/q = 2/1.2 in our naming, 1.2/2 in svmbir's, T 1,
positivity, unweighted, stop threshold 0.02 %), on the same number of threads. Prints the RMSE
against the phantom and the wall time of each (svmbir's first call builds its system matrix,
the second reuses its cache: both are reported; so are ours).

svmbir is a comparison tool only, never a dependency:
    python3 -m venv /tmp/mbirenv && /tmp/mbirenv/bin/pip install svmbir numpy
    /tmp/mbirenv/bin/python scripts/compare/svmbir_mbir.py --tomo build/release/bin/tomo
Paper 004's case: --size 512 --views 720 --channels 1024.
"""
import argparse
import os
import subprocess
import tempfile
import time

import numpy as np


def run_tomo(tomo, sino_path, truth_path, views, channels, size, threads, out):
    cmd = [tomo, "recon", sino_path, "--shape", f"{views}x{channels}",
           "--angles", f"0:180:{views}", "--size", str(size), "--algo", "mbir",
           "--truth", truth_path, "--truth-shape", f"{size}x{size}", "--threads", str(threads), "--quiet", "-o", out]
    start = time.perf_counter()
    result = subprocess.run(cmd, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    image = np.fromfile(out, dtype=np.float32).reshape(size, size)
    return image, seconds, result.stdout + result.stderr


def best_orientation(image, truth):
    """svmbir's image axes may differ from ours: the dihedral transform closest to the truth."""
    best = None
    for k in range(4):
        for flip in (False, True):
            candidate = np.rot90(image, k)
            candidate = np.flipud(candidate) if flip else candidate
            rmse = float(np.sqrt(np.mean((candidate - truth) ** 2)))
            if best is None or rmse < best[0]:
                best = (rmse, f"rot90 x{k}" + (" + flipud" if flip else ""))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tomo", default="build/release/bin/tomo")
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--views", type=int, default=180)
    parser.add_argument("--counts", type=float, default=2e4)
    parser.add_argument("--channels", type=int, default=0,
                        help="detector channels (0: tomo phantom's default; paper 004: 1024 for 512^2)")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    args = parser.parse_args()
    import svmbir

    work = tempfile.mkdtemp(prefix="svmbir-compare-")
    sino_path, truth_path = os.path.join(work, "sino.raw"), os.path.join(work, "truth.raw")
    subprocess.run([args.tomo, "phantom", "-o", sino_path, "--truth", truth_path,
                    "--size", str(args.size), "--angles", f"0:180:{args.views}",
                    "--noise", str(args.counts), "--seed", "7"] +
                   (["--detectors", str(args.channels)] if args.channels else []), check=True,
                   capture_output=True)
    truth = np.fromfile(truth_path, dtype=np.float32).reshape(args.size, args.size)
    raw = np.fromfile(sino_path, dtype=np.float32)
    channels = raw.size // args.views
    sino = raw.reshape(args.views, 1, channels)  # svmbir: [view][slice][channel]
    angles = np.linspace(0, np.pi, args.views, endpoint=False)

    rows = []
    for attempt in ("first (builds A)", "second (A cached)"):
        start = time.perf_counter()
        image = svmbir.recon(sino, angles, num_rows=args.size, num_cols=args.size,
                             delta_channel=1.0, delta_pixel=1.0, num_threads=args.threads,
                             verbose=0)[0]
        seconds = time.perf_counter() - start
        rmse, how = best_orientation(image, truth)
        rows.append((f"svmbir {attempt}", rmse, seconds, how))
    for attempt in ("first", "second"):
        image, seconds, _ = run_tomo(args.tomo, sino_path, truth_path, args.views, channels,
                                     args.size, args.threads, os.path.join(work, "mbir.raw"))
        rmse = float(np.sqrt(np.mean((image - truth) ** 2)))
        rows.append((f"tomo mbir {attempt}", rmse, seconds, "as is"))
    print(f"{args.size}^2, {args.views} views x {channels} channels, Poisson {args.counts:g} "
          f"counts, {args.threads} threads")
    print(f"{'run':28s} {'RMSE':>10s} {'seconds':>9s}  orientation")
    for name, rmse, seconds, how in rows:
        print(f"{name:28s} {rmse:10.5f} {seconds:9.2f}  {how}")


if __name__ == "__main__":
    main()
