#!/usr/bin/env python3
"""The defaults study of docs/accuracy.md ("Defaults study"): every method's default against its
own best iterate, FBP, svmbir and ASTRA on a grid of independent cases. One command regenerates
the table (and the raw numbers as JSON beside it):

    python3 -m venv /tmp/studyenv && /tmp/studyenv/bin/pip install numpy scikit-image svmbir astra-toolbox
    /tmp/studyenv/bin/python scripts/study/defaults_study.py --tomo build/release/bin/tomo \\
        --quick --out docs/study/defaults-quick.md --json docs/study/defaults-quick.json

svmbir, ASTRA and scikit-image are comparison tools (installed by pip for the study), never a
dependency of TomoStation or of its test command; a case whose tool is missing is skipped with a
note. Cases: `tomo phantom` sinograms (exact line integrals averaged over 4 rays per bin, Poisson
noise from a fixed seed per case) of the modified Shepp-Logan, random ellipses and a low-contrast
disc set, and sinograms made elsewhere (external_data.py: our own analytic formula with one ray
per bin, scikit-image's radon, ASTRA's strip projector). Error: RMSE against the rasterised
phantom over the whole image (the same units for every program: attenuation per pixel).

Per method, its default (`tomo recon --algo M` with nothing else) and its best iterate (the
lowest error along a longer run without stopping rule, read from `--lcurve` with the truth: the
error a perfect stopping rule would reach with the default's other parameters).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import external_data  # noqa: E402
from study_astra import run_astra  # noqa: E402
from study_cases import CASES, QUICK_CASES  # noqa: E402
from study_tables import table  # noqa: E402

ITERATIVE = ["sirt", "os-sirt", "sart", "cgls", "memxct", "tv", "mbir"]
# Iterations of the runs without a stopping rule that find each method's best iterate.
BEST_RUN = {"sirt": 800, "os-sirt": 300, "sart": 80, "cgls": 80, "memxct": 80, "tv": 400,
            "mbir": 100}
# The sharpness grid on which MBIR and svmbir are compared at their best.
SHARPNESS = (-1.0, -0.5, 0.0, 0.5, 1.0)


def rmse(image, truth):
    return float(np.sqrt(np.mean((image - truth) ** 2)))


class Case:
    """One sinogram and its truth in a work folder."""

    def __init__(self, spec, work, tomo):
        self.spec = spec
        self.size, self.views = spec["size"], spec["views"]
        self.dir = os.path.join(work, spec["name"])
        os.makedirs(self.dir, exist_ok=True)
        self.sino, self.truth_path = os.path.join(self.dir, "s.raw"), os.path.join(self.dir, "t.raw")
        gen = spec.get("generator", "tomo")
        if gen == "tomo":
            cmd = [tomo, "phantom", "-o", self.sino, "--truth", self.truth_path, "--size",
                   str(self.size), "--angles", f"0:180:{self.views}", "--phantom", spec["phantom"],
                   "--seed", str(spec["seed"]), "--quiet"]
            if spec["counts"]:
                cmd += ["--noise", str(spec["counts"])]
            subprocess.run(cmd, check=True, capture_output=True)
            self.detectors = os.path.getsize(self.sino) // 4 // self.views
        else:
            self.detectors = spec.get("detectors", self.size)
            angles = np.arange(self.views) * 180.0 / self.views
            make = {"analytic": external_data.analytic_sinogram,
                    "skimage": external_data.skimage_sinogram,
                    "astra": external_data.astra_sinogram}[gen]
            s = make(self.size, angles, self.detectors)
            if spec["counts"]:
                s = external_data.add_poisson(s, spec["counts"], spec.get("peak", 4.0), spec["seed"])
            s.astype(np.float32).tofile(self.sino)
            external_data.rasterize(self.size).astype(np.float32).tofile(self.truth_path)
        self.truth = np.fromfile(self.truth_path, np.float32).reshape(self.size, self.size)
        self.data = np.fromfile(self.sino, np.float32).reshape(self.views, self.detectors)

    def recon(self, tomo, threads, extra, name):
        out = os.path.join(self.dir, name + ".raw")
        cmd = [tomo, "recon", self.sino, "--shape", f"{self.views}x{self.detectors}", "--angles",
               f"0:180:{self.views}", "--size", str(self.size), "-o", out, "--quiet", "--threads",
               str(threads), "--truth", self.truth_path, "--truth-shape",
               f"{self.size}x{self.size}", "--backend", "cpu"] + extra
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(" ".join(cmd) + "\n" + done.stderr)
        image = np.fromfile(out, np.float32).reshape(self.size, self.size)
        return image, seconds, done.stdout + done.stderr


def consistency_sigma(data, views, detectors):
    """SinogramNoise.cpp's estimateSinogramNoise for one slice over a half turn, axis in the
    middle: the median power of the 2-D spectrum outside the double wedge |k| > R |w| + 4
    (R = 1.2 x the axis-to-edge distance), / ln 2, per unit-noise power (2 V D)."""
    n = np.fft.fft(np.asarray(data, np.float64).reshape(views, detectors), axis=1)
    centre = 0.5 * (detectors - 1)
    w = 2 * np.pi * np.arange(detectors) / detectors
    n = n * np.exp(1j * w * centre)[None, :]
    z = np.fft.fft(np.concatenate([n, np.conj(n)], axis=0), axis=0)  # theta + pi: t -> -t
    k = np.abs(np.fft.fftfreq(2 * views, 1.0 / (2 * views)))
    radius = 1.2 * max(centre + 1, detectors - centre)
    m = np.arange(detectors)
    outside = (k[:, None] > radius * w[None, :] + 4) & (m >= 1)[None, :] & \
        (m < (detectors + 1) // 2)[None, :]
    powers = np.abs(z[outside]) ** 2 / (2 * views * detectors)
    return float(np.sqrt(np.median(powers) / np.log(2))) if powers.size >= 32 else \
        noise_sigma(data, detectors)


def noise_sigma(data, row):
    """SinogramNoise.cpp's estimateNoiseSigma (the row estimate): per block of 16 values of each detector row the
    robust scale of second differences, 1.4826 MAD / sqrt(6), squared and averaged."""
    inner = row - 2
    blocks = max(1, inner // 16)
    energy = counted = 0.0
    for values in np.asarray(data, np.float64).reshape(-1, row):
        for j in range(blocks):
            first, last = 1 + j * inner // blocks, 1 + (j + 1) * inner // blocks
            d = values[first - 1:last - 1] - 2 * values[first:last] + values[first + 1:last + 1]
            if d.size < 3:
                continue
            sigma = 1.4826 * np.median(np.abs(d - np.median(d))) / np.sqrt(6.0)
            energy += sigma * sigma * d.size
            counted += d.size
    return float(np.sqrt(energy / counted)) if counted else 0.0


TAUS = (0.9, 0.95, 1.0, 1.05, 1.1, 1.2)


def rule_choices(case, points):
    """Where the discrepancy principle (the estimated sigma, each tau of TAUS) stops along a run
    without rule, and its error: the rules compared offline on the same iterates."""
    delta = consistency_sigma(case.data, case.views, case.detectors) * np.sqrt(case.data.size)
    out = {}
    for tau in TAUS:
        k = next((i for i, p in enumerate(points) if p["residual_norm"] <= tau * delta),
                 len(points) - 1)
        out[f"discrepancy{tau}"] = (int(points[k]["parameter"]), points[k]["error"])
    return out


def method_args(method):
    """"sirt" or a variant "sirt@relaxation=1.9,stop=corner": the algorithm and its arguments."""
    algo, _, params = method.partition("@")
    return algo, ["--algo", algo] + (["--param", params] if params else [])


def best_iterate(case, tomo, threads, method):
    """The lowest per-iteration error of a run without stopping rule (and its iteration)."""
    algo, _, params = method.partition("@")
    # The stopping rule does not change the iterates: variants that differ only in it (stop=,
    # or MBIR's stop_threshold=) share one run. (With MBIR's multi-resolution start the
    # threshold also stops the coarse stage: the run without a rule, threshold 0, has its
    # coarse stage at 0.2 %, so its iterates are not the default's; its best is the reference.)
    params = ",".join(p for p in params.split(",")
                      if p and not p.startswith(("stop=", "stop_threshold=")))
    key = algo + ("@" + params if params else "")
    lcurve = os.path.join(case.dir, key + "-best.json")
    extra = ["--algo", algo] + (["--param", params] if params else [])
    extra += ["--iterations", str(BEST_RUN[algo]), "--lcurve", lcurve]
    if algo != "mbir":
        extra += ["--stop", "none"]
    else:
        extra += ["--param", "stop_threshold=0"]
    if not os.path.exists(lcurve):
        case.recon(tomo, threads, extra, key + "-best")
    points = json.load(open(lcurve))["points"]
    errors = [p["error"] for p in points]
    k = int(np.argmin(errors))
    return errors[k], int(points[k]["parameter"]), rule_choices(case, points)


def kept_iteration(text):
    for line in text.splitlines():
        if line.startswith("stopping rule"):
            return line.split("result is iteration ")[1].split(";")[0].split(" ")[0]
        if line.startswith("reconstructed") and "iteration(s)" in line:
            return line.split(" iteration(s)")[0].split()[-1]
    return ""


def run_svmbir(case, threads):
    """svmbir at its defaults (the first call builds or loads its matrix, the second is the
    cached call timed) and its best error over SHARPNESS."""
    try:
        import svmbir
    except ImportError:
        return None
    sino = case.data.reshape(case.views, 1, case.detectors).astype(np.float32)
    angles = np.arange(case.views) * np.pi / case.views

    def call(**extra):
        start = time.perf_counter()
        image = svmbir.recon(sino, angles, num_rows=case.size, num_cols=case.size,
                             delta_channel=1.0, delta_pixel=1.0, num_threads=threads,
                             verbose=0, **extra)[0]
        seconds = time.perf_counter() - start
        # svmbir's image axes differ from ours (its image is our image transposed with these
        # angles): the dihedral transform closest to the truth, as scripts/compare/svmbir_mbir.py.
        error = min(rmse(np.flipud(np.rot90(image, k)) if flip else np.rot90(image, k),
                         case.truth) for k in range(4) for flip in (False, True))
        return error, seconds

    _, first = call()
    error, seconds = call()
    sharp = {s: call(sharpness=s)[0] for s in SHARPNESS}
    best = min(sharp, key=sharp.get)
    return {"rmse": error, "seconds_first": first, "seconds": seconds,
            "best_sharpness": best, "best_sharpness_rmse": sharp[best]}


def mbir_sharpness(case, tomo, threads):
    """Our MBIR's best error over SHARPNESS (its other parameters at their defaults)."""
    errors = {}
    for s in SHARPNESS:
        image, _, _ = case.recon(tomo, threads, ["--algo", "mbir", "--param", f"sharpness={s}"],
                                 f"mbir-sharpness{s}")
        errors[s] = rmse(image, case.truth)
    best = min(errors, key=errors.get)
    return {"best_sharpness": best, "best_sharpness_rmse": errors[best]}


def _tree():
    """The commit of the tree that ran (with "+changes" when the work tree differs from it)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=HERE).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, cwd=HERE).stdout.strip()
    return head + ("+changes" if dirty else "")


def run_case(spec, work, tomo, threads, methods, tools, row):
    """Runs the parts asked for (FBP and `methods` when any; each tool of `tools`) on one case and
    merges them into `row` (the case's earlier results), with their provenance."""
    case = Case(spec, work, tomo)
    row.update(case=spec, detectors=case.detectors)
    parts = []
    if methods:
        image, seconds, _ = case.recon(tomo, threads, [], "fbp")
        row["fbp"] = {"rmse": rmse(image, case.truth), "seconds": seconds}
        parts.append("fbp")
    for m in methods:
        image, seconds, text = case.recon(tomo, threads, method_args(m)[1], m)
        best, at, rules = best_iterate(case, tomo, threads, m)
        row[m] = {"rmse": rmse(image, case.truth), "seconds": seconds,
                  "iteration": kept_iteration(text), "best": best, "best_iteration": at,
                  "rules": rules}
        if m == "mbir":
            row["mbir"].update(mbir_sharpness(case, tomo, threads))
        parts.append(m)
    if "svmbir" in tools:
        row["svmbir"] = run_svmbir(case, threads)
        parts.append("svmbir")
    if "astra" in tools:
        row["astra"] = run_astra(case)
        parts.append("astra")
    run = {"parts": parts, "tree": _tree(), "date": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
           "load": f"{os.getloadavg()[0]:.1f}", "threads": threads}
    add_run(row, run)
    return row


def add_run(row, run):
    """Records `run` in row["runs"]; earlier runs keep only the parts it did not redo."""
    kept = []
    for r in row.get("runs", []):
        r = dict(r, parts=[p for p in r["parts"] if p not in run["parts"]])
        if r["parts"]:
            kept.append(r)
    row["runs"] = kept + [run]


def merge_parts(row, other):
    """The parts of `other` (a row of another run, as its runs list them) into `row`."""
    row.update(case=other["case"], detectors=other["detectors"])
    for run in other.get("runs", []):
        for part in run["parts"]:
            row[part] = other[part]
        add_run(row, run)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tomo", default="build/release/bin/tomo")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="the four-case subset")
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--methods", default=",".join(ITERATIVE),
                        help="our methods to run (FBP runs with any); empty: none")
    parser.add_argument("--tools", default="svmbir,astra")
    parser.add_argument("--json", default="docs/study/defaults.json",
                        help="the rows: read, updated with the parts that ran, written back")
    parser.add_argument("--out", default="docs/study/defaults.md",
                        help="the tables, rendered from every row of --json")
    parser.add_argument("--render", action="store_true", help="run nothing, only render --out")
    parser.add_argument("--merge", default="",
                        help="comma-separated JSON files of other runs (e.g. in parallel into "
                             "their own --json): their parts merged into --json, run nothing")
    parser.add_argument("--work", default="")
    args = parser.parse_args()
    cases = QUICK_CASES if args.quick else CASES
    if args.cases:
        wanted = args.cases.split(",")
        cases = [c for c in CASES if c["name"] in wanted]
    if args.render or args.merge:
        cases = []
    methods = [m for m in args.methods.split(",") if m]
    tools = [t for t in args.tools.split(",") if t]
    store = json.load(open(args.json)) if os.path.exists(args.json) else {"rows": []}
    rows = {r["case"]["name"]: r for r in store["rows"]}
    for other in [f for f in args.merge.split(",") if f]:
        for r in json.load(open(other))["rows"]:
            merge_parts(rows.setdefault(r["case"]["name"], {}), r)
    work = args.work or tempfile.mkdtemp(prefix="tomo-defaults-study-")
    for spec in cases:
        t0 = time.perf_counter()
        rows[spec["name"]] = run_case(spec, work, args.tomo, args.threads, methods, tools,
                                      rows.get(spec["name"], {}))
        print(f"{spec['name']}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        ordered = [rows[c["name"]] for c in CASES if c["name"] in rows]
        with open(args.json, "w") as f:  # after each case: a long run keeps what it finished
            json.dump({"rows": ordered}, f, indent=1)
    ordered = [rows[c["name"]] for c in CASES if c["name"] in rows]
    if args.merge:
        with open(args.json, "w") as f:
            json.dump({"rows": ordered}, f, indent=1)
    text = table(ordered, ITERATIVE)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
