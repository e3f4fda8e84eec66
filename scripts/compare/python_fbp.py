#!/usr/bin/env python3
"""FBP from Python side by side (docs/performance.md, "Python"): tomostation.fbp against
`tomo recon` (the CLI's in-process time of the same request), ASTRA's CPU FBP and
scikit-image's iradon, on the same exact Shepp-Logan sinogram; time and RMSE against the
phantom inside the reconstruction circle. Not part of the product or of the test command:

    python3 -m venv --system-site-packages build/compare-venv
    build/compare-venv/bin/pip install astra-toolbox scikit-image
    PYTHONPATH=build/release/python build/compare-venv/bin/python \\
        scripts/compare/python_fbp.py [--repeats 5] [--skimage-slices 1]

Cases: 1024^2 from 1024 views (one slice) and 2048^2 x 16 slices from 2048 views. ASTRA and
scikit-image reconstruct one slice per call (their 2-D FBP); the 16-slice time is the sum
(scikit-image: the first --skimage-slices slices timed, scaled to 16 and marked so).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import tomostation as ts

CLI = os.environ.get("TOMO_CLI", os.path.join(os.path.dirname(__file__), "..", "..", "build",
                                              "release", "bin", "tomo"))


def rmse(image, truth):
    n = truth.shape[-1]
    yy, xx = np.mgrid[0:n, 0:n]
    inside = (xx - (n - 1) / 2) ** 2 + (yy - (n - 1) / 2) ** 2 < (0.5 * n) ** 2
    return float(np.sqrt(np.mean((np.asarray(image, np.float64) - truth)[..., inside] ** 2)))


def median_time(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def cli_once(path, n, views, slices, out):
    """`tomo recon`'s own report of the same request: 'in X s' (the service's FBP time)."""
    text = subprocess.run(
        [CLI, "recon", path, "--shape", f"{views}x{n}x{slices}", "--angles", f"0:180:{views}",
         "--size", str(n), "-o", out, "--quiet", "--backend", "cpu"],
        capture_output=True, text=True, check=True).stdout
    return float(re.search(r" in ([0-9.]+) s", text).group(1))


def tomostation_times(sino, p, n, path, views, slices, repeats):
    """The CLI and the Python call alternately (the same load for both), medians."""
    ts.fbp(sino[:1], p.angles, size=n, backend="cpu")  # the engine opened, FFTW plans made
    cli, wall, service = [], [], []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(repeats):
            cli.append(cli_once(path, n, views, slices, os.path.join(d, "r.raw")))
            t = time.perf_counter()
            image, report = ts.fbp(sino, p.angles, size=n, backend="cpu", return_report=True)
            wall.append(time.perf_counter() - t)
            service.append(report.timings["total"])
    m = statistics.median
    return m(cli), m(wall), m(service), image


def case(n, views, slices, repeats, skimage_slices, only_tomostation=False):
    p = ts.phantom(n, angles=views, detectors=n, rays=2)
    sino = np.ascontiguousarray(np.repeat(p.data[None], slices, axis=0))
    truth = p.truth
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "sino.raw")
        sino.astype("<f4").tofile(path)
        t_cli, t_py, t_service, image = tomostation_times(sino, p, n, path, views, slices,
                                                          repeats)
    rows = [("tomostation.fbp (wall, Python call)", t_py, rmse(image[0], truth), ""),
            ("tomo recon (in-process FBP time)", t_cli, None, ""),
            ("tomostation report.timings.total", t_service, None, "")]
    if only_tomostation:
        return report_rows(n, views, slices, repeats, t_py, t_cli, rows)
    try:
        import astra
        vg = astra.create_vol_geom(n, n)
        pg = astra.create_proj_geom("parallel", 1.0, n, p.angles)
        pid = astra.create_projector("linear", pg, vg)

        def astra_fbp():
            out = []
            for s in range(slices):
                sid = astra.data2d.create("-sino", pg, sino[s])
                rid = astra.data2d.create("-vol", vg, 0)
                cfg = astra.astra_dict("FBP")
                cfg.update(ProjectorId=pid, ProjectionDataId=sid, ReconstructionDataId=rid)
                cfg["option"] = {"FilterType": "Ram-Lak"}
                alg = astra.algorithm.create(cfg)
                astra.algorithm.run(alg)
                out.append(astra.data2d.get(rid))
                astra.algorithm.delete(alg)
                astra.data2d.delete([sid, rid])
            return out
        t_astra, out = median_time(astra_fbp, max(1, repeats // 2))
        rows.append((f"ASTRA {astra.__version__} CPU FBP (linear)", t_astra, rmse(out[0], truth),
                     f"{slices} calls" if slices > 1 else ""))
    except ImportError:
        rows.append(("ASTRA", None, None, "astra-toolbox not installed"))
    try:
        import skimage
        from skimage.transform import iradon
        deg = np.degrees(p.angles)
        k = min(slices, skimage_slices)
        # scikit-image turns about detector n // 2; this sinogram's axis is at (n - 1) / 2:
        # one zero column in front puts it there (else half a pixel off, blurring the image).
        padded = np.pad(sino[:k], ((0, 0), (0, 0), (1, 0)))
        t_sk, out = median_time(lambda: [iradon(padded[s].T, theta=deg, filter_name="ramp",
                                                output_size=n, circle=True) for s in range(k)],
                                1)
        rows.append((f"scikit-image {skimage.__version__} iradon (ramp)", t_sk * slices / k,
                     rmse(out[0], truth), f"{k} slice(s) timed, x{slices / k:g}" if k < slices
                     else ""))
    except ImportError:
        rows.append(("scikit-image", None, None, "not installed"))
    report_rows(n, views, slices, repeats, t_py, t_cli, rows)


def report_rows(n, views, slices, repeats, t_py, t_cli, rows):
    print(f"\n{n}^2 x {slices} slice(s) from {views} views (median of {repeats}; "
          f"python/cli = {t_py / t_cli:.3f})")
    for name, t, e, note in rows:
        ts_ = "-" if t is None else f"{t:.3f} s"
        es = "" if e is None else f"RMSE {e:.4f}"
        print(f"  {name:44s} {ts_:>10s}  {es:12s} {note}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--skimage-slices", type=int, default=1)
    ap.add_argument("--only", choices=["1024", "2048"])
    ap.add_argument("--only-tomostation", action="store_true",
                    help="the CLI and the Python call only (no ASTRA, scikit-image)")
    a = ap.parse_args()
    print(f"tomostation {ts.__version__}; {os.uname().nodename}; load {os.getloadavg()}")
    if a.only != "2048":
        case(1024, 1024, 1, a.repeats, a.skimage_slices, a.only_tomostation)
    if a.only != "1024":
        case(2048, 2048, 16, max(1, a.repeats // 2), a.skimage_slices, a.only_tomostation)


if __name__ == "__main__":
    sys.exit(main())
