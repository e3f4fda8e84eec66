#!/usr/bin/env python3
"""MBIR's view adaptation, chosen by a study (docs/accuracy.md, "MBIR's view adaptation").

Two parts, written as Markdown tables to --out:

1. Why ours was above svmbir with the same rule (--why CASES): svmbir's own automatic sigmas
   (svmbir.auto_sigma_y / auto_sigma_x on the same sinogram) against the ones our run prints, and
   our MBIR with svmbir's sigmas given, with svmbir's whole cost (its potential is d^2 / (1.2
   sigma_x^2) near 0 and its neighbour weights are normalised over 10 neighbours also on one
   slice: our cost at sigma_x x 0.8807 and T = 1.1355, docs/mbir.md), each at our default stop
   and converged (stop_threshold 0.002 %, up to 300 iterations), and svmbir at its default stop
   and converged (0.001 %, up to 300 iterations).
2. The sharpness scan (--scan CASES): MBIR with svmbir's rules and the noise adaptation but no
   view adaptation (`view_adapt=off`) at sharpness 0 ... -1.5, against svmbir's default, on the
   defaults study's cases (study_cases.py) and on smaller `tomo phantom` cases named
   phantom:size:views:counts:seed (e.g. discs:128:720:1e4:5).

    PYTHONPATH= /tmp/studyenv/bin/python scripts/study/mbir_view_study.py \\
        --why sl-256-720v-clean,discs-256-720v-1e4 \\
        --scan sl-256-720v-clean,ell-256-720v-1e6,discs-256-720v-1e4,ell-512-720v-1e5 \\
        --out docs/study/mbir-views.md
    scripts/study/mbir_view_study.py --score docs/study/mbir-views.md   # part 3
"""
import argparse
import os
import re
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from defaults_study import Case, rmse  # noqa: E402
from study_cases import CASES  # noqa: E402

SHIFTS = (0.0, -0.25, -0.5, -0.75, -1.0, -1.5)
# svmbir's cost in our parameters (docs/mbir.md): sigma_x x SCALE, T.
SVMBIR_SCALE, SVMBIR_T = 0.88066, 1.13552


def make_case(name, work, tomo):
    """A study case by name, or a `tomo phantom` case phantom:size:views:counts:seed."""
    spec = next((c for c in CASES if c["name"] == name), None)
    if spec is None:
        phantom, size, views, counts, seed = name.split(":")
        spec = {"name": name.replace(":", "-"), "generator": "tomo", "phantom": phantom,
                "size": int(size), "views": int(views), "counts": float(counts),
                "seed": int(seed)}
    return Case(spec, work, tomo)


def svmbir_error(case, **extra):
    import svmbir
    sino = case.data.reshape(case.views, 1, case.detectors).astype(np.float32)
    start = time.perf_counter()
    image = svmbir.recon(sino, np.arange(case.views) * np.pi / case.views, num_rows=case.size,
                         num_cols=case.size, delta_channel=1.0, delta_pixel=1.0, num_threads=2,
                         verbose=0, **extra)[0]
    seconds = time.perf_counter() - start
    # svmbir's image axes differ from ours: the dihedral transform closest to the truth.
    error = min(rmse(np.flipud(np.rot90(image, k)) if flip else np.rot90(image, k), case.truth)
                for k in range(4) for flip in (False, True))
    return error, seconds


def ours(case, tomo, params, tag):
    image, seconds, text = case.recon(tomo, 2, ["--algo", "mbir", "--param", params],
                                      "view-" + tag)
    sigmas = re.findall(r"sigma_([xy]) = ([0-9.eE+-]+)", text)
    return rmse(image, case.truth), seconds, dict(sigmas)


def why(names, work, tomo):
    import svmbir
    lines = ["| case | sigma_y ours / svmbir | sigma_x ours / svmbir | run | ours | svmbir |",
             "| --- | --- | --- | --- | --- | --- |"]
    converged = "stop_threshold=0.002,iterations=300"
    for name in names:
        case = make_case(name, work, tomo)
        sino = case.data.reshape(case.views, 1, case.detectors).astype(np.float32)
        sy = svmbir.auto_sigma_y(sino, np.ones_like(sino), delta_channel=1.0, delta_pixel=1.0)
        sx = svmbir.auto_sigma_x(sino, delta_channel=1.0)
        default, _, s = ours(case, tomo, "view_adapt=off", "off")
        given = f"sigma_y={sy:.6g},sigma_x={sx:.6g}"
        cost = f"sigma_y={sy:.6g},sigma_x={sx * SVMBIR_SCALE:.6g},T={SVMBIR_T}"
        runs = [("svmbir's rules (view_adapt=off)", default, svmbir_error(case)[0]),
                ("svmbir's sigmas given", ours(case, tomo, given, "given")[0], None),
                ("svmbir's sigmas given, converged", ours(case, tomo, given + "," + converged,
                                                          "given-conv")[0],
                 svmbir_error(case, stop_threshold=0.001, max_iterations=300)[0]),
                ("svmbir's cost", ours(case, tomo, cost, "cost")[0], None),
                ("svmbir's cost, converged",
                 ours(case, tomo, cost + "," + converged, "cost-conv")[0], None)]
        for i, (run, error, theirs) in enumerate(runs):
            head = (f"| {name} | {s.get('y')} / {sy:.6g} | {s.get('x')} / {sx:.6g} " if i == 0
                    else "| | | ")
            lines.append(head + f"| {run} | {error:.5f} | "
                         + (f"{theirs:.5f} |" if theirs is not None else "|"))
        print(lines[-5:], file=sys.stderr, flush=True)
    return "\n".join(lines)


def scan(names, work, tomo):
    lines = ["| case | views | rays per pixel | svmbir | " +
             " | ".join(f"{s:g}" for s in SHIFTS) + " |",
             "| --- " * (4 + len(SHIFTS)) + "|"]
    for name in names:
        case = make_case(name, work, tomo)
        theirs = svmbir_error(case)[0]
        rays = case.views * np.sqrt(2.0) / case.size
        cells = []
        for s in SHIFTS:
            error = ours(case, tomo, f"view_adapt=off,sharpness={s:g}", f"s{s:g}")[0]
            cells.append(f"{error / theirs:.3f}")
        lines.append(f"| {name} | {case.views} | {rays:.2f} | {theirs:.5f} | " +
                     " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def score(text):
    """Each exponent c of the rule sigma_x x r^-c (r the rays per pixel, where r > 1) scored on the
    scan's table in `text` (linear interpolation between its shifts): the worst and the median
    RMSE / svmbir's over its cases."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) == 4 + len(SHIFTS) and re.match(r"^[0-9.]+$", cells[2]):
            rows.append((cells[0], float(cells[2]), [float(c) for c in cells[4:]]))
    lines = ["| exponent c | worst RMSE / svmbir (case) | median |", "| --- | --- | --- |"]
    for c in (0.0, 0.125, 0.15, 0.1875, 0.2, 0.25, 0.375):
        ratios = [(name, float(np.interp(-c * np.log2(max(r, 1.0)), SHIFTS[::-1], e[::-1])))
                  for name, r, e in rows]
        worst = max(ratios, key=lambda t: t[1])
        lines.append(f"| {c:g} | {worst[1]:.3f} ({worst[0]}) | "
                     f"{np.median([v for _, v in ratios]):.3f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tomo", default="build/release/bin/tomo")
    parser.add_argument("--why", default="", help="comma-separated cases")
    parser.add_argument("--scan", default="", help="comma-separated cases")
    parser.add_argument("--out", default="")
    parser.add_argument("--score", default="",
                        help="run nothing: score the exponents on this file's scan, append")
    args = parser.parse_args()
    if args.score:
        text = open(args.score).read().rstrip("\n")
        text += "\n\nPart 3: the rule sigma_x x r^-c scored on part 2\n\n" + score(text) + "\n"
        with open(args.score, "w") as f:
            f.write(text)
        print(text)
        return
    work = tempfile.mkdtemp(prefix="mbir-view-study-")
    parts = []
    if args.why:
        parts += ["Part 1: sigmas, cost and convergence against svmbir (RMSE)", "",
                  why(args.why.split(","), work, args.tomo), ""]
    if args.scan:
        parts += ["Part 2: view_adapt=off at sharpness shifts, RMSE / svmbir's default", "",
                  scan(args.scan.split(","), work, args.tomo), ""]
    text = "\n".join(parts)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
