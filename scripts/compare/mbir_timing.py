#!/usr/bin/env python3
"""MBIR's time against svmbir's cached call, in one Python process (issue 29, item 3).

The data are made outside `tomo phantom`: the exact line integrals of the modified Shepp-Logan
by scripts/study/external_data.py (one ray per bin, 256 detectors), Poisson noise with the
largest line integral at attenuation e^-4 (the issue's setting). Both programs run at their
defaults on the same number of threads: svmbir.recon (its first call builds or loads its system
matrix, untimed; the repetitions are its cached calls) and tomostation.mbir (its first call is
reported apart; the repetitions reuse whatever it caches). Reports each program's RMSE against
the rasterised phantom, the median and spread of the repetitions, the ratio, and the load
(`uptime`) before and after.

svmbir is a comparison tool only, never a dependency:
    python3 -m venv /tmp/mbirenv && /tmp/mbirenv/bin/pip install svmbir numpy
    PYTHONPATH=build/release/python /tmp/mbirenv/bin/python scripts/compare/mbir_timing.py
(the tomostation module from the release build; or `pip install .` into the same venv).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "study"))
import external_data  # noqa: E402


def rmse(image, truth):
    return float(np.sqrt(np.mean((image - truth) ** 2)))


def svmbir_error(image, truth):
    """svmbir's image axes differ from ours: the dihedral transform closest to the truth."""
    return min(rmse(np.flipud(np.rot90(image, k)) if flip else np.rot90(image, k), truth)
               for k in range(4) for flip in (False, True))


def study_case(name, tomo):
    """The sinogram and truth of a defaults-study case, made in a temporary folder."""
    import tempfile
    from defaults_study import Case
    from study_cases import CASES
    spec = next((c for c in CASES if c["name"] == name), None)
    if spec is None:
        sys.exit(f"mbir_timing.py: no study case {name!r} (scripts/study/study_cases.py)")
    return Case(spec, tempfile.mkdtemp(prefix="tomo-mbir-timing-"), tomo)


def timed(call):
    """The image, the wall seconds and the CPU seconds of the process (user + system, all
    threads: both programs run inside this process)."""
    start, cpu = time.perf_counter(), time.process_time()
    image = call()
    return image, time.perf_counter() - start, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--views", type=int, default=180)
    parser.add_argument("--detectors", type=int, default=256)
    parser.add_argument("--counts", type=float, default=2e4)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--case", default="",
                        help="a case of the defaults study (scripts/study/study_cases.py, made "
                             "by `tomo phantom` or external_data.py) instead of the analytic one")
    parser.add_argument("--tomo", default="build/release/bin/tomo", help="for --case")
    parser.add_argument("--baseline", action="store_true",
                        help="also time tomostation.mbir with svmbir's stop_threshold 0.02 %% "
                             "(the default before issue 29's change)")
    args = parser.parse_args()
    import svmbir
    import tomostation as ts

    if args.case:
        case = study_case(args.case, args.tomo)
        args.size, args.views, args.detectors = case.size, case.views, case.detectors
        sino, truth = case.data, case.truth
        setting = f"study case {args.case}"
    else:
        angles_deg = np.arange(args.views) * 180.0 / args.views
        sino = external_data.analytic_sinogram(args.size, angles_deg, args.detectors)
        sino = external_data.add_poisson(sino, args.counts, 4.0, args.seed).astype(np.float32)
        truth = external_data.rasterize(args.size).astype(np.float32)
        setting = f"Poisson {args.counts:g} counts (peak e^-4), analytic Shepp-Logan"
    angles = np.arange(args.views) * np.pi / args.views

    def run_svmbir():
        return svmbir.recon(sino.reshape(args.views, 1, args.detectors), angles,
                            num_rows=args.size, num_cols=args.size, delta_channel=1.0,
                            delta_pixel=1.0, num_threads=args.threads, verbose=0)[0]

    programs = {
        "svmbir": run_svmbir,
        "tomostation": lambda: ts.mbir(sino, angles, size=args.size, threads=args.threads),
    }
    if args.baseline:
        programs["tomo (0.02 %)"] = lambda: ts.mbir(sino, angles, size=args.size,
                                                    threads=args.threads, stop_threshold=0.02)

    load_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    first = {name: timed(run)[1] for name, run in programs.items()}
    times = {name: [] for name in programs}
    cpu = {name: [] for name in programs}
    errors = {}
    for _ in range(args.repeat):  # alternating, so all see the same load
        for name, run in programs.items():
            image, seconds, cpu_seconds = timed(run)
            times[name].append(seconds)
            cpu[name].append(cpu_seconds)
            image = np.asarray(image)
            errors[name] = svmbir_error(image, truth) if name == "svmbir" else rmse(image, truth)
    load_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()

    print(f"{args.size}^2, {args.views} views x {args.detectors} detectors, {setting}, "
          f"{args.threads} threads, {args.repeat} repetitions")
    print(f"load before: {load_before}\nload after:  {load_after}")
    print(f"{'program':12s} {'RMSE':>9s} {'first s':>8s} {'median s':>9s} {'min s':>7s} "
          f"{'max s':>7s} {'CPU s':>7s}")
    for name, t in times.items():
        print(f"{name:12s} {errors[name]:9.5f} {first[name]:8.3f} {statistics.median(t):9.3f} "
              f"{min(t):7.3f} {max(t):7.3f} {statistics.median(cpu[name]):7.3f}")
    for name in times:
        if name != "svmbir":
            ratio = statistics.median(times[name]) / statistics.median(times["svmbir"])
            cpu_ratio = statistics.median(cpu[name]) / statistics.median(cpu["svmbir"])
            print(f"{name} / svmbir (cached), median time ratio {ratio:.3f}, CPU time ratio "
                  f"{cpu_ratio:.3f}, error ratio {errors[name] / errors['svmbir']:.3f}")


if __name__ == "__main__":
    main()
