#!/usr/bin/env python3
"""MBIR's noise adaptation, chosen by a study (docs/accuracy.md, "MBIR's noise adaptation"): on
the defaults study's cases (study_cases.py), MBIR with svmbir's sigma rules alone
(`noise_adapt=off`) at a grid of sharpness values; per case the ratio rho of the data's noise
(estimated: the row estimate and the consistency estimate of SinogramNoise.h) to svmbir's
sigma_y, and the sharpness whose error is lowest. Then each candidate rule "sharpness =
min(-a log2 rho, sharpest) + b log2(180 / views)" scored by the error it would reach on every
case (linear interpolation of the scan) against the best of the scan; a rule may sharpen
(rho < 1) by at most `sharpest` (0: svmbir's rule stands where rho <= 1). Last, the cases
with rho > 1 (where a one-sided rule acts) at each exponent a:

    /tmp/studyenv/bin/python scripts/study/mbir_adapt_study.py --tomo build/release/bin/tomo \\
        --out docs/study/mbir-adapt.md --json docs/study/mbir-adapt.json
"""
import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from defaults_study import Case, consistency_sigma, noise_sigma, rmse  # noqa: E402
from study_cases import CASES  # noqa: E402

SHARPNESS = np.arange(-2.0, 3.01, 0.5)
EXPONENTS = (0.0, 0.25, 0.375, 0.5, 0.625, 0.75, 1.0)
SHARPEST = (0.0, 0.5, 1.0, 2.0)
VIEW_TERMS = (0.0, 0.5)
VIEWS = {c["name"]: c["views"] for c in CASES}


def scan(case, tomo, threads):
    """Errors over SHARPNESS with svmbir's rules, and svmbir's sigma_y (from the CLI's note)."""
    errors, sigma_y = [], None
    for s in SHARPNESS:
        image, _, text = case.recon(tomo, threads, ["--algo", "mbir", "--param",
                                                    f"noise_adapt=off,sharpness={s:g}"],
                                    f"mbir-off-s{s:g}")
        errors.append(rmse(image, case.truth))
        for line in text.splitlines():
            if "MBIR sigma_y = " in line:
                sigma_y = float(line.split("sigma_y = ")[1].split()[0])
    return errors, sigma_y


def at(row, s):
    return float(np.interp(s, SHARPNESS, row["errors"]))


def rule(rho, views, exponent, sharpest, view_term):
    """The sharpness of the adaptation for the noise ratio rho and the view count."""
    return min(-exponent * float(np.log2(rho)), sharpest) + view_term * float(np.log2(180 / views))


def score(rows, estimate, exponent, sharpest, view_term=0.0):
    """Per case the error of the rule's sharpness / the scan's best; and / svmbir's rule."""
    to_best, to_rule = [], []
    for r in rows:
        s = rule(r[estimate] / r["sigma_y"], VIEWS[r["case"]], exponent, sharpest, view_term)
        e = at(r, float(np.clip(s, SHARPNESS[0], SHARPNESS[-1])))
        to_best.append(e / min(r["errors"]))
        to_rule.append(e / at(r, 0.0))
    return (max(to_best), float(np.median(to_best)), float(np.mean(to_best)), max(to_rule),
            sum(t > 1.0 for t in to_rule))


def tables(rows):
    head = ["case", "rho (row)", "rho (consistency)", "best sharpness", "error at 0 / best"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in rows:
        k = int(np.argmin(r["errors"]))
        lines.append(f"| {r['case']} | {r['row'] / r['sigma_y']:.3f} | "
                     f"{r['consistency'] / r['sigma_y']:.3f} | {SHARPNESS[k]:+g} | "
                     f"{at(r, 0.0):.4f} / {r['errors'][k]:.4f} |")
    lines += ["", "| estimate | sharpest | a | b | worst / best | median / best | mean / best | "
              "worst / svmbir's rule | cases worse than svmbir's rule |", "|" + " --- |" * 9]
    for estimate in ("row", "consistency"):
        for sharpest in SHARPEST:
            for b in VIEW_TERMS:
                for a in EXPONENTS:
                    w, m, mean, wr, n = score(rows, estimate, a, sharpest, b)
                    lines.append(f"| {estimate} | {sharpest:g} | {a:.3f} | {b:g} | {w:.3f} | "
                                 f"{m:.3f} | {mean:.3f} | {wr:.3f} | {n} |")
    lines += ["", "| case | estimate | rho | " + " | ".join(f"a = {a:g}" for a in EXPONENTS) +
              " | best |", "|" + " --- |" * (len(EXPONENTS) + 4)]
    for r in rows:
        for estimate in ("row", "consistency"):
            rho = r[estimate] / r["sigma_y"]
            if rho > 1:
                cells = [f"{at(r, rule(rho, 180, a, 0.0, 0.0)):.4f}" for a in EXPONENTS]
                lines.append(f"| {r['case']} | {estimate} | {rho:.3f} | " + " | ".join(cells) +
                             f" | {min(r['errors']):.4f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tomo", default="build/release/bin/tomo")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sizes", default="256")
    parser.add_argument("--cases", default="", help="comma-separated case names (added to --sizes)")
    parser.add_argument("--out", default="docs/study/mbir-adapt.md")
    parser.add_argument("--json", default="docs/study/mbir-adapt.json")
    parser.add_argument("--work", default="")
    args = parser.parse_args()
    sizes = {int(s) for s in args.sizes.split(",")}
    work = args.work or tempfile.mkdtemp(prefix="tomo-mbir-adapt-")
    done = json.load(open(args.json))["rows"] if os.path.exists(args.json) else []
    rows = {r["case"]: r for r in done}
    wanted = set(args.cases.split(","))
    for spec in [c for c in CASES if c["size"] in sizes or c["name"] in wanted]:
        if spec["name"] in rows:
            continue
        t0 = time.perf_counter()
        case = Case(spec, work, args.tomo)
        errors, sigma_y = scan(case, args.tomo, args.threads)
        rows[spec["name"]] = {
            "case": spec["name"], "errors": errors, "sigma_y": sigma_y,
            "row": noise_sigma(case.data, case.detectors),
            "consistency": consistency_sigma(case.data, case.views, case.detectors)}
        with open(args.json, "w") as f:
            json.dump({"sharpness": list(SHARPNESS), "rows": list(rows.values())}, f, indent=1)
        print(f"{spec['name']}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    text = tables(list(rows.values()))
    print(text)
    with open(args.out, "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
