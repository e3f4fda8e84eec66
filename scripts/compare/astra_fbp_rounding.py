#!/usr/bin/env python3
"""Whose rounding separates TomoStation's FBP from ASTRA's CPU FBP above 128^2 (issue 30; a
side-by-side check, not part of the product or of the test command). Usage, in an environment
with astra-toolbox and the tomostation module (PYTHONPATH=build/release/python):

    python3 scripts/compare/astra_fbp_rounding.py [SIZES]     (default 128,256,512,1024)

For each n: an n x n image of discs and a smooth background in a window off the axis (pixel 1),
n angles over [0, pi), 1.5 n bins of 0.9; ASTRA's "linear" (Joseph) projection of it (float32)
is reconstructed three ways: ASTRA's CPU FBP ("FBP", "linear" projector, Ram-Lak),
tomostation through the adapter (setup.reconstruct, projector "joseph": the same algorithm), and
the same algorithm in double precision (tests/python/astra_fbp_reference.py, numpy). Printed:
RMS and max of each difference over the reference's peak. The double reference is the same
discretisation, so its distance from each implementation is that implementation's rounding.
"""
import pathlib
import sys
import time

import astra
import numpy as np

from tomostation.astra import from_astra

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "python"))
from astra_fbp_reference import astra_fbp_reference  # noqa: E402


def case(n):
    det, width = n * 3 // 2, 0.9
    angles = np.linspace(0, np.pi, n, endpoint=False)
    pg = astra.create_proj_geom("parallel", width, det, angles)
    cx, cy = 0.03 * n, -0.05 * n  # the window's centre, off the axis
    vg = astra.create_vol_geom(n, n, cx - n / 2, cx + n / 2, cy - n / 2, cy + n / 2)
    yy, xx = np.mgrid[0:n, 0:n] / n
    img = (0.2 * np.exp(-((xx - 0.5) ** 2 + (yy - 0.5) ** 2) / 0.08)).astype(np.float32)
    img[((xx - 0.62) ** 2 + (yy - 0.4) ** 2) < 0.15 ** 2] += 1.0
    img[((xx - 0.3) ** 2 + (yy - 0.6) ** 2) < 0.09 ** 2] += 0.5
    pid = astra.create_projector("linear", pg, vg)
    _, sino = astra.create_sino(img, pid)
    sino = np.asarray(sino, np.float32)
    sid, rid = astra.data2d.create("-sino", pg, sino), astra.data2d.create("-vol", vg, 0)
    cfg = astra.astra_dict("FBP")
    cfg.update(ProjectorId=pid, ProjectionDataId=sid, ReconstructionDataId=rid)
    alg = astra.algorithm.create(cfg)
    astra.algorithm.run(alg)
    theirs = np.asarray(astra.data2d.get(rid), np.float64)
    astra.algorithm.delete(alg)
    astra.data2d.delete([sid, rid])
    setup = from_astra(pg, vg)
    ours = setup.reconstruct(sino).astype(np.float64)
    kw = setup.keywords
    t0 = time.perf_counter()
    ref = astra_fbp_reference(sino, n, kw["pixel_size"], kw["roi_center"], setup.angles,
                              kw["detector_pitch"])
    seconds = time.perf_counter() - t0
    peak = float(np.abs(ref).max())

    def both(a, b):
        d = a - b
        return f"{np.sqrt(np.mean(d * d)) / peak:.1e} / {np.abs(d).max() / peak:.1e}"

    print(f"{n:>5}^2 {n:>5} x {det:<5} {both(ours, theirs):>17}  {both(ours, ref):>17}  "
          f"{both(theirs, ref):>17}   ({seconds:.0f} s for the reference)", flush=True)


if __name__ == "__main__":
    arg = sys.argv[1] if len(sys.argv) > 1 else "128,256,512,1024"
    sizes = [int(s) for s in arg.split(",")]
    print(f"astra-toolbox {astra.__version__}; RMS / max of each difference over the peak")
    print(f"{'image':>7} {'views x bins':<13} {'tomostation-ASTRA':>17}  {'tomostation-double':>17}  "
          f"{'ASTRA-double':>17}")
    for n in sizes:
        case(n)
