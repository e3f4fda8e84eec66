#!/usr/bin/env python3
"""MBIR's sharpening where the data are cleaner than snr_db assumes (docs/accuracy.md, MBIR,
"Sixth round, sharpening"): on the defaults study's cases (study_cases.py), MBIR at its defaults
(noise and view adaptation on) at sharpness shifts 0 ... +2.5, with per case the ratio rho of the
data's noise (the consistency estimate of SinogramNoise.h) to the sigma_y that snr_db gives, the
rays per pixel r, FBP's and svmbir's default error (docs/study/defaults.json). A rule "sharpness
= min(-a log2 rho, cap) where rho < 1" is then scored by the error it reaches on every case
(linear interpolation of the scan) against the scan's best, FBP and svmbir; the sharpening acts
in full where r <= 1 and tapers to nothing at r = sqrt 2, so only cases with r < sqrt 2 are run:

    /tmp/defaults-study-env/bin/python scripts/study/mbir_sharpen_study.py \\
        --tomo build/release/bin/tomo --cases CASE,... \\
        --json docs/study/mbir-sharpen.json --out docs/study/mbir-sharpen.md
"""
import argparse
import json
import math
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from defaults_study import Case, consistency_sigma, rmse  # noqa: E402
from study_cases import CASES  # noqa: E402

SHIFTS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5)


def scan(case, tomo, threads):
    errors, sigma_y = [], None
    for s in SHIFTS:
        image, _, text = case.recon(tomo, threads, ["--algo", "mbir", "--param", f"sharpness={s:g}"],
                                    f"mbir-s{s:g}")
        errors.append(rmse(image, case.truth))
        for line in text.splitlines():
            if "MBIR sigma_y = " in line and sigma_y is None:
                sigma_y = float(line.split("sigma_y = ")[1].split()[0])
    return errors, sigma_y


def rays_per_pixel(row):
    return row["views"] * math.hypot(row["size"], row["size"]) / row["size"] ** 2


def shift(row, a, cap):
    """The rule's sharpness: min(cap, -a log2 rho) where rho < 1, in full at r <= 1, tapered
    linearly in log2 r to nothing at r = sqrt 2 (pitch = voxel, as on every case here)."""
    rho = row["consistency"] / row["sigma_y"]
    if rho >= 1:
        return 0.0
    taper = min(1.0, max(0.0, 1.0 - 2.0 * math.log2(rays_per_pixel(row))))
    return taper * (cap if rho <= 0 else min(cap, -a * math.log2(rho)))


def table(rows, study):
    """Each (cap, a) scored: worst and median error / the scan's best, worst / FBP, / svmbir."""
    ref = {r["case"]["name"]: r for r in json.load(open(study))["rows"]}
    lines = ["| cap | a | worst / best shift (case) | median / best shift | worst / FBP (case) | "
             "worst / svmbir (case) |", "|" + " --- |" * 6]
    for cap in (1.0, 1.5, 2.0):
        for a in (0.1, 0.15, 0.175, 0.2, 0.25, 0.3, 0.5):
            tb, tf, ts = [], [], []
            for r in rows:
                e = float(np.interp(shift(r, a, cap), r["shifts"], r["errors"]))
                d = ref[r["case"]]
                tb.append((e / min(r["errors"]), r["case"]))
                tf.append((e / d["fbp"]["rmse"], r["case"]))
                ts.append((e / d["svmbir"]["rmse"], r["case"]))
            wb, wf, ws = max(tb), max(tf), max(ts)
            lines.append(f"| {cap:g} | {a:g} | {wb[0]:.3f} ({wb[1]}) | "
                         f"{np.median([t[0] for t in tb]):.3f} | {wf[0]:.3f} ({wf[1]}) | "
                         f"{ws[0]:.3f} ({ws[1]}) |")
    head = ["| case | r | rho | " + " | ".join(f"+{s:g}" for s in SHIFTS) + " |",
            "|" + " --- |" * (3 + len(SHIFTS))]
    for r in rows:
        head.append(f"| {r['case']} | {rays_per_pixel(r):.2f} | "
                    f"{r['consistency'] / r['sigma_y']:.3f} | " +
                    " | ".join(f"{e:.4f}" for e in r["errors"]) + " |")
    return "\n".join(head + [""] + lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tomo", default="build/release/bin/tomo")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--cases", default="")
    p.add_argument("--out", default="", help="the scan and the rules scored, as Markdown")
    p.add_argument("--study", default="docs/study/defaults.json",
                   help="FBP's and svmbir's errors per case")
    p.add_argument("--json", default="docs/study/mbir-sharpen.json")
    p.add_argument("--work", default="")
    args = p.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="tomo-mbir-sharpen-")
    rows = json.load(open(args.json))["rows"] if os.path.exists(args.json) else []
    have = {r["case"] for r in rows}
    for name in [n for n in args.cases.split(",") if n]:
        if name in have:
            continue
        spec = next(c for c in CASES if c["name"] == name)
        case = Case(spec, work, args.tomo)
        errors, sigma_y = scan(case, args.tomo, args.threads)
        sigma = consistency_sigma(case.data, case.views, case.detectors)
        rows.append({"case": name, "shifts": list(SHIFTS), "errors": errors, "sigma_y": sigma_y,
                     "consistency": sigma, "views": case.views, "size": case.size,
                     "detectors": case.detectors})
        print(name, " ".join(f"{e:.4f}" for e in errors), f"rho {sigma / sigma_y:.3f}", flush=True)
        json.dump({"rows": rows}, open(args.json, "w"), indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(table(rows, args.study))


if __name__ == "__main__":
    main()
