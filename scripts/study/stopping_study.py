#!/usr/bin/env python3
"""Where the discrepancy principle stops, per method and tau, on 48 `tomo phantom` cases at 128^2
(docs/accuracy.md, "Stopping study"): 4 phantoms (Shepp-Logan, 12 and 40 random ellipses, discs)
x 60/90/180/360 views x 1e4/1e5/1e6 counts, one noise seed per case. Per case and method one
run without stopping rule (`--lcurve` with the truth) gives every iterate's residual and error;
the rule is then applied offline for each tau, with sigma as `tomo recon` estimates it (read
from its note) and, for comparison, the row estimate that preceded it (estimateNoiseSigma) at
the old taus (0.9 for the SIRT family, 0.95 for CGLS and MemXCT). Each run is capped at the
method's default iteration count.

    python3 -m venv /tmp/studyenv && /tmp/studyenv/bin/pip install numpy
    /tmp/studyenv/bin/python scripts/study/stopping_study.py --tomo build/release/bin/tomo \\
        --out docs/study/stopping-128.md
"""
import argparse
import itertools
import json
import os
import re
import subprocess
import tempfile

import numpy as np

from defaults_study import noise_sigma  # the row estimate (StoppingRule's former estimator)

RUN = {"sirt": 500, "os-sirt": 200, "sart": 50, "cgls": 30, "memxct": 30}  # default counts
OLD_TAU = {"sirt": 0.9, "os-sirt": 0.9, "sart": 0.9, "cgls": 0.95, "memxct": 0.95}
TAUS = (0.95, 1.0, 1.05, 1.1, 1.2, 1.3)
PHANTOMS = ("shepp-logan", "ellipses:12:7", "ellipses:40:3", "discs")


def measure(tomo, work, size):
    cases, seed = {}, 200
    for phantom, views, counts in itertools.product(PHANTOMS, (60, 90, 180, 360), (1e4, 1e5, 1e6)):
        seed += 1
        s, t = os.path.join(work, "s.raw"), os.path.join(work, "t.raw")
        subprocess.run([tomo, "phantom", "-o", s, "--truth", t, "--size", str(size), "--angles",
                        f"0:180:{views}", "--phantom", phantom, "--seed", str(seed), "--noise",
                        str(counts), "--quiet", "--threads", "1"], check=True, capture_output=True)
        detectors = os.path.getsize(s) // 4 // views
        data = np.fromfile(s, np.float32).reshape(views, detectors)
        base = [tomo, "recon", s, "--shape", f"{views}x{detectors}", "--angles", f"0:180:{views}",
                "--size", str(size), "-o", os.path.join(work, "r.raw"), "--truth", t,
                "--truth-shape", f"{size}x{size}", "--quiet", "--backend", "cpu", "--threads", "1"]

        def run(extra):
            return subprocess.run(base + extra, check=True, capture_output=True, text=True).stdout

        fbp = float(re.search(r"RMSE ([0-9.e-]+)", run(["--algo", "fbp"])).group(1))
        sigma = float(re.search(r"\(sigma ([0-9.e+-]+)", run(["--algo", "cgls"])).group(1))
        case = {"fbp": fbp, "sigma": sigma, "row_sigma": noise_sigma(data, detectors),
                "m": views * detectors, "algos": {}}
        for algo, count in RUN.items():
            curve = os.path.join(work, "lc.csv")
            run(["--algo", algo, "--stop", "none", "--iterations", str(count), "--lcurve", curve])
            table = np.genfromtxt(curve, delimiter=",", skip_header=1)
            case["algos"][algo] = {"res": table[:, 1].tolist(), "err": table[:, 3].tolist()}
        name = f"{phantom}-{views}v-{counts:.0e}"
        cases[name] = case
        print(name, f"FBP {fbp:.4f} sigma {sigma:.4f} row {case['row_sigma']:.4f}", flush=True)
    return cases


def stop_at(res, delta, tau):
    hits = np.nonzero(np.asarray(res) <= tau * delta)[0]
    return int(hits[0]) if hits.size else len(res) - 1


def summary(cases, algo, sigma_key, tau):
    over_best = above_fbp = achievable = 0
    ratios = []
    for case in cases.values():
        run = case["algos"][algo]
        k = stop_at(run["res"], case[sigma_key] * np.sqrt(case["m"]), tau)
        error, best = run["err"][k], min(run["err"])
        ratios.append(error / best)
        over_best += error > 1.1 * best
        if best < 0.98 * case["fbp"]:  # cases where a stopping rule can beat FBP
            achievable += 1
            above_fbp += error >= case["fbp"]
    return over_best, above_fbp, achievable, float(np.median(ratios)), max(ratios)


def report(cases):
    n = len(cases)
    lines = [f"{n} cases. Per method and rule: defaults more than 10% above their best iterate; "
             "defaults at or above FBP among the cases whose best iterate is at least 2% below "
             "FBP; median and worst default / best.", "",
             "| method | rule | > 1.1 best | >= FBP | median / best | worst / best |",
             "| --- | --- | --- | --- | --- | --- |"]
    for algo in RUN:
        rows = [("row estimate, tau %.2f" % OLD_TAU[algo], "row_sigma", OLD_TAU[algo])]
        rows += [("consistency estimate, tau %.2f" % tau, "sigma", tau) for tau in TAUS]
        for label, key, tau in rows:
            o, a, ach, med, worst = summary(cases, algo, key, tau)
            lines.append(f"| {algo} | {label} | {o}/{n} | {a}/{ach} | {med:.3f} | {worst:.3f} |")
    ratio = [c["sigma"] / c["row_sigma"] for c in cases.values()]
    lines += ["", f"Consistency / row estimate of sigma: {min(ratio):.2f}-{max(ratio):.2f}."]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tomo", default="build/release/bin/tomo")
    parser.add_argument("--size", type=int, default=128)
    parser.add_argument("--out", default="docs/study/stopping-128.md")
    parser.add_argument("--json", help="raw residuals and errors (also read back with --reuse)")
    parser.add_argument("--reuse", action="store_true", help="analyse --json without running")
    args = parser.parse_args()
    if args.reuse:
        cases = json.load(open(args.json))
    else:
        cases = measure(args.tomo, tempfile.mkdtemp(prefix="stopping-study-"), args.size)
        if args.json:
            json.dump(cases, open(args.json, "w"))
    text = report(cases)
    with open(args.out, "w") as out:
        out.write("# Stopping study (generated by scripts/study/stopping_study.py)\n\n" + text)
    print(text)


if __name__ == "__main__":
    main()
