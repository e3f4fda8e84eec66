#!/usr/bin/env python3
"""tomostation.astra against astra-toolbox itself (side-by-side check; not part of the product
or of the test command). Usage, in an environment with astra-toolbox and the tomostation
module (PYTHONPATH=build/release/python):

    python3 scripts/compare/astra_adapter.py

For each geometry, ASTRA projects an off-centre object in its own geometry and:
 1. geometry: parallel: ASTRA's strip projection of the object against exact strip integrals
    of the same pixels placed where the converted geometry puts them (TomoStation's grid and
    detector), within 1e-3 of the peak (measured 2e-4; shifting the geometry by 0.001 pixel
    doubles it, by 0.01 pixel makes it 3e-3); cone and cone_vec: the centroid of single
    voxels' projections against the RTK matrices of from_astra;
 1b. projection: ASTRA's "linear" projector (Joseph's method) against tomostation's own
    (AstraSetup.project, tomo project) in the converted geometry: the RMS of the difference
    within 1e-5 of the peak (the same model on both sides, so only rounding differs); at the
    three angles where they differ most, both against Joseph's method in double precision
    (numpy, tests/python/joseph_reference.py): tomostation within 1e-6 of the peak (measured 4e-8), ASTRA's
    float arithmetic accounts for the rest (1.6e-4);
 2. FBP: ASTRA's CPU FBP (the "FBP" algorithm with the "linear" projector, Ram-Lak) against
    setup.reconstruct (projector "joseph": the Ram-Lak filter and Joseph's transpose), both
    against the same algorithm in double precision (tests/python/astra_fbp_reference.py):
    TomoStation within 1e-6 of it everywhere; against ASTRA within 1e-5 RMS of the peak where
    ASTRA's own float arithmetic is closer than that to it (128^2), else within 1.1 x ASTRA's
    own distance (256^2: ASTRA accumulates positions in float).
 3. cone and cone_vec without CUDA: from_astra against astra-toolbox's own pure-Python
    geometry functions (geom_2vec, geom_postalignment).
ASTRA's 3-D projectors need CUDA: without a GPU the single-voxel cases are reported as not run.
 4. with ``--gpu-reference NPZ``: ASTRA's GPU results made on a GPU machine by
    scripts/gpu-check astra (FP_CUDA, FBP_CUDA, cone and cone_vec FP3D_CUDA and FDK_CUDA)
    against TomoStation here (scripts/compare/astra_gpu_reference.py compare, its bounds).
"""
import pathlib
import sys
import time

import astra
import numpy as np

import tomostation as ts
from tomostation.astra import cone_vectors, from_astra

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "python"))
from astra_fbp_reference import astra_fbp_reference, joseph_transpose  # noqa: E402
from joseph_reference import joseph_reference  # noqa: E402

TOL = 1e-3  # of the peak: a 0.001-pixel shift of the geometry doubles the 2e-4 measured
# The same model on both sides: RMS of the difference within 1e-5 of the peak; the largest
# differences (ASTRA accumulates in float) bounded by tomostation against a double reference.
JOSEPH_RMS, JOSEPH_MAX = 1e-5, 1e-6
# FBP: the same algorithm on both sides (ASTRA's CPU FBP, "linear" projector; projector
# "joseph" here): TomoStation within 1e-6 of the double-precision reference everywhere, within
# 1e-5 RMS of ASTRA where ASTRA's float rounding allows it.
FBP_REF_MAX, FBP_RMS = 1e-6, 1e-5


def _sum_of_boxes_cdf(z, a, b):
    """P(U + V <= z) for U, V uniform on [-a/2, a/2] and [-b/2, b/2] (a >= b >= 0)."""
    if b < 1e-12 * max(a, 1e-300):
        return np.clip(z / a + 0.5, 0.0, 1.0)
    r = lambda x: np.maximum(x, 0.0) ** 2
    return (r(z + (a + b) / 2) - r(z + (a - b) / 2) - r(z - (a - b) / 2) +
            r(z - (a + b) / 2)) / (2 * a * b)


def strip_projection(img, xs, ys, size, angles, det, pitch):
    """Exact integrals over each detector bin of every pixel's footprint (a square of side
    ``size`` at (xs, ys)): what an area-weighted (strip) projector computes."""
    v, x, y = img[img != 0], xs[img != 0], ys[img != 0]
    out = np.zeros((len(angles), det))
    edges = (np.arange(det + 1) - 0.5 - (det - 1) / 2) * pitch
    for i, t in enumerate(angles):
        a, b = sorted((abs(np.cos(t)) * size, abs(np.sin(t)) * size), reverse=True)
        centre = x * np.cos(t) + y * np.sin(t)
        first = np.floor((centre - (a + b) / 2 - edges[0]) / pitch).astype(int)
        for j in range(int(np.ceil((a + b) / pitch)) + 2):
            k = first + j
            ok = (k >= 0) & (k < det)
            lo = _sum_of_boxes_cdf(edges[k[ok]] - centre[ok], a, b)
            hi = _sum_of_boxes_cdf(edges[k[ok] + 1] - centre[ok], a, b)
            np.add.at(out[i], k[ok], v[ok] * (hi - lo) * size * size)
    return out


def parallel_case(width=0.75, shift=(6.0, -4.0)):
    n, det = 256, 400
    angles = np.linspace(0, np.pi, 360, endpoint=False)
    pg = astra.create_proj_geom("parallel", width, det, angles)
    half = n * 0.5 * 0.8
    vg = astra.create_vol_geom(n, n, shift[0] - half, shift[0] + half, shift[1] - half,
                               shift[1] + half)  # 0.8-unit pixels, window off the axis
    pix = 0.8
    img = np.zeros((n, n), np.float32)
    yy, xx = np.mgrid[0:n, 0:n]
    img[((xx - 170) ** 2 + (yy - 90) ** 2) < 30 ** 2] = 1.0
    img[((xx - 80) ** 2 + (yy - 150) ** 2) < 18 ** 2] = 0.5
    pid = astra.create_projector("strip", pg, vg)
    _, sino = astra.create_sino(img, pid)
    sino = np.asarray(sino, dtype=np.float64)
    # 1. ASTRA's strip projection against exact strip integrals of the same pixels placed by
    #    the converted geometry (t = x cos + y sin, bin k centred at (k - c) * pitch).
    setup = from_astra(pg, vg)
    kw = setup.keywords
    xs = kw["roi_center"][0] + (xx - (n - 1) / 2) * kw["pixel_size"]   # TomoStation's grid
    ys = kw["roi_center"][1] - (yy - (n - 1) / 2) * kw["pixel_size"]
    reference = strip_projection(img, xs, ys, kw["pixel_size"], setup.angles, det,
                                 kw["detector_pitch"])
    scale = float((reference * sino).sum() / (reference * reference).sum())
    geometry_error = float(np.abs(sino - scale * reference).max() / np.abs(sino).max())
    # 1b. The same projector model on both sides: ASTRA's "linear" (Joseph) projection against
    #     tomostation's (setup.project), in the converted geometry, to float precision.
    lid = astra.create_projector("linear", pg, vg)
    _, joseph = astra.create_sino(img, lid)
    projected = setup.project(img)
    peak = float(np.abs(joseph).max())
    diff = projected - joseph
    joseph_rms = float(np.sqrt(np.mean(diff ** 2)) / peak)
    joseph_max = float(np.abs(diff).max() / peak)
    # Where they differ most, both against Joseph in double precision: whose rounding it is.
    worst = np.argsort(np.abs(diff).max(1))[-3:]
    refs = [joseph_reference(img, kw["pixel_size"], kw["roi_center"], setup.angles[a], det,
                             kw["detector_pitch"]) for a in worst]
    ours_ref = max(float(np.abs(projected[a] - r).max()) for a, r in zip(worst, refs)) / peak
    astra_ref = max(float(np.abs(joseph[a] - r).max()) for a, r in zip(worst, refs)) / peak
    joseph_ok = joseph_rms < JOSEPH_RMS and ours_ref < JOSEPH_MAX
    # 2. FBP: ASTRA's CPU FBP ("FBP", its "linear" projector, Ram-Lak) of its linear sinogram,
    #    TomoStation's through the adapter (projector "joseph"), and the same algorithm in
    #    double precision (tests/python/astra_fbp_reference.py).
    fbp_ok, fbp_text = fbp_check(pg, vg, lid, joseph, setup, kw)
    print(f"parallel (width {width}, window centred at {shift}): ASTRA's strip projection vs "
          f"exact strips in the converted geometry: max {geometry_error:.1e} of the peak "
          f"({'ok' if geometry_error < TOL else 'FAIL'})")
    print(f"  ASTRA's linear (Joseph) projection vs tomostation.project in the converted geometry:"
          f" RMS {joseph_rms:.1e} of the peak (bound {JOSEPH_RMS:g}), max {joseph_max:.1e};"
          f" at the 3 worst angles against Joseph in double precision: tomostation"
          f" {ours_ref:.1e} (bound {JOSEPH_MAX:g}), astra {astra_ref:.1e}"
          f" ({'ok' if joseph_ok else 'FAIL'})")
    print("  " + fbp_text)
    return geometry_error < TOL and joseph_ok and fbp_ok


def fbp_check(pg, vg, projector, sino, setup, kw):
    """ASTRA's CPU FBP with ``projector`` against setup.reconstruct and the double-precision
    reference: (passed, line). Bounds: TomoStation within FBP_REF_MAX of the reference
    everywhere; against ASTRA within FBP_RMS RMS, or, where ASTRA's own float arithmetic is
    farther than that from the reference, within 1.1 x that distance."""
    sid = astra.data2d.create("-sino", pg, sino)
    rid = astra.data2d.create("-vol", vg, 0)
    cfg = astra.astra_dict("FBP")
    cfg.update(ProjectorId=projector, ProjectionDataId=sid, ReconstructionDataId=rid)
    alg = astra.algorithm.create(cfg)
    t0 = time.perf_counter()
    astra.algorithm.run(alg)
    astra_s = time.perf_counter() - t0
    theirs = np.asarray(astra.data2d.get(rid), dtype=np.float64)
    t0 = time.perf_counter()
    ours = setup.reconstruct(np.asarray(sino, dtype=np.float32))
    ours_s = time.perf_counter() - t0
    n = theirs.shape[0]
    ref = astra_fbp_reference(sino, n, kw["pixel_size"], kw["roi_center"], setup.angles,
                              kw["detector_pitch"])
    peak = float(np.abs(ref).max())
    rms = lambda a, b: float(np.sqrt(np.mean((a - b) ** 2)) / peak)
    top = lambda a, b: float(np.abs(a - b).max() / peak)
    vs_astra, vs_ref, astra_ref = rms(ours, theirs), top(ours, ref), rms(theirs, ref)
    ok = vs_ref < FBP_REF_MAX and vs_astra < max(FBP_RMS, 1.1 * astra_ref)
    for i in (sid, rid):
        astra.data2d.delete(i)
    astra.algorithm.delete(alg)
    return ok, (f"FBP (ASTRA's CPU FBP, linear projector, Ram-Lak) vs setup.reconstruct: RMS "
                f"{vs_astra:.1e} of the peak, max {top(ours, theirs):.1e}; against the same "
                f"algorithm in double precision: tomostation max {vs_ref:.1e} (bound "
                f"{FBP_REF_MAX:g}), astra RMS {astra_ref:.1e} max {top(theirs, ref):.1e}; "
                f"{ours_s:.2f} s vs astra {astra_s:.2f} s ({'ok' if ok else 'FAIL'})")


def float32_rows_transpose(row, t, det, width, n, pixel, window):
    """ASTRA's linear back-projection of one row at a mostly vertical angle t (|cos| > |sin|),
    its positions evaluated as it evaluates them, in float32 (read from
    ParallelBeamLinearKernelProjector2D.inl: the ray's crossing with the first pixel row, then
    one float step per row), so that its distance from the double-precision reference can be
    told apart from a difference of model."""
    f, a = np.float32, np.float64(np.float32(t))           # ASTRA stores angles as float
    rx, ry = f(-np.sin(a)), f(np.cos(a))
    s0, u0 = np.float64(f(det * width * -0.5)), np.float64(f(width))  # rotated in double
    sx, sy, ux, uy = (f(v) for v in (s0 * np.cos(a), s0 * np.sin(a), u0 * np.cos(a),
                                     u0 * np.sin(a)))
    ex, ey = f(f(window[0]) + f(pixel) * f(0.5)), f(f(window[3]) - f(pixel) * f(0.5))
    j = np.arange(det).astype(f) + f(0.5)
    dx, dy = sx + j * ux, sy + j * uy
    ratio, inv = rx / ry, f(1) / f(pixel)
    length = f(pixel) * np.sqrt(ry * ry + rx * rx) / abs(ry)
    step = -f(pixel) * ratio * inv
    c = (dx + (ey - dy) * ratio - ex) * inv
    out = np.zeros((n, n + 2))
    for i in range(n):
        col = np.floor(c).astype(int)
        off, ok = c - col.astype(f), (col >= -1) & (col < n)
        np.add.at(out[i], col[ok] + 1, (row[ok] * (f(1) - off[ok]) * length).astype(np.float64))
        np.add.at(out[i], col[ok] + 2, (row[ok] * off[ok] * length).astype(np.float64))
        c = (c + step).astype(f)
    return out[:, 1:-1]


def astra_rounding(pg, vg, projector, angles, det, width, n, pixel):
    """ASTRA's back-projection of single filtered rows ("FBP" with FilterType none) against the
    float32 evaluation above (the same numbers: ~1e-9) and against Joseph's transpose in double
    (astra_fbp_reference.joseph_transpose): the largest relative differences."""
    o = vg["option"]
    window = (o["WindowMinX"], o["WindowMaxX"], o["WindowMinY"], o["WindowMaxY"])
    offset = ((window[0] + window[1]) / 2, (window[2] + window[3]) / 2)
    worst = [0.0, 0.0]
    rng = np.random.default_rng(1)
    for a in [k for k, t in enumerate(angles) if abs(np.cos(t)) > abs(np.sin(t)) + 0.1][1::40][:3]:
        sino = np.zeros((len(angles), det), np.float32)
        sino[a] = rng.standard_normal(det).astype(np.float32)
        sid, rid = astra.data2d.create("-sino", pg, sino), astra.data2d.create("-vol", vg, 0)
        cfg = astra.astra_dict("FBP")
        cfg.update(ProjectorId=projector, ProjectionDataId=sid, ReconstructionDataId=rid)
        cfg["option"] = {"FilterType": "none"}
        alg = astra.algorithm.create(cfg)
        astra.algorithm.run(alg)
        back = np.asarray(astra.data2d.get(rid), np.float64)
        back *= 2 * len(angles) * pixel ** 2 / np.pi   # undo the FBP's scaling
        emulated = float32_rows_transpose(sino[a], angles[a], det, width, n, pixel, window)
        exact = joseph_transpose(sino[a:a + 1], n, pixel, offset, angles[a:a + 1], width)
        scale = np.abs(exact).max()
        worst = [max(worst[0], float(np.abs(back - emulated).max() / scale)),
                 max(worst[1], float(np.abs(back - exact).max() / scale))]
        for i in (sid, rid):
            astra.data2d.delete(i)
        astra.algorithm.delete(alg)
    return worst


def window_rms(pg, vg, projector, sino, setup, name, d):
    """ASTRA's CPU FBP with FilterType ``name`` and FilterD ``d`` against setup.reconstruct
    with ``filter=name, cutoff=d``: the RMS of the difference over the peak."""
    sid = astra.data2d.create("-sino", pg, sino)
    rid = astra.data2d.create("-vol", vg, 0)
    cfg = astra.astra_dict("FBP")
    cfg.update(ProjectorId=projector, ProjectionDataId=sid, ReconstructionDataId=rid)
    cfg["option"] = {"FilterType": name, "FilterD": d}
    alg = astra.algorithm.create(cfg)
    astra.algorithm.run(alg)
    theirs = np.asarray(astra.data2d.get(rid), dtype=np.float64)
    for i in (sid, rid):
        astra.data2d.delete(i)
    astra.algorithm.delete(alg)
    ours = setup.reconstruct(np.asarray(sino, dtype=np.float32), filter=name, cutoff=d)
    return float(np.sqrt(np.mean((ours - theirs) ** 2)) / np.abs(theirs).max())


def small_fbp_case():
    """128^2 from 180 angles: ASTRA's rounding is below 1e-5 here, so the bound is 1e-5."""
    n, det, width = 128, 180, 0.9
    angles = np.linspace(0, np.pi, 180, endpoint=False)
    pg = astra.create_proj_geom("parallel", width, det, angles)
    vg = astra.create_vol_geom(n, n, -60.0, 68.0, -70.0, 58.0)
    yy, xx = np.mgrid[0:n, 0:n]
    img = np.zeros((n, n), np.float32)
    img[((xx - 80) ** 2 + (yy - 50) ** 2) < 20 ** 2] = 1.0
    img[((xx - 40) ** 2 + (yy - 75) ** 2) < 12 ** 2] = 0.5
    lid = astra.create_projector("linear", pg, vg)
    _, sino = astra.create_sino(img, lid)
    setup = from_astra(pg, vg)
    ok, text = fbp_check(pg, vg, lid, sino, setup, setup.keywords)
    print(f"parallel 128^2, 180 angles, width {width}, window centred at (4, -6): {text}")
    worst = 0.0
    for name, d in (("shepp-logan", 1.0), ("cosine", 1.0), ("hamming", 1.0), ("hann", 1.0),
                    ("hann", 0.6), ("shepp-logan", 0.5)):
        worst = max(worst, window_rms(pg, vg, lid, sino, setup, name, d))
    windows_ok = worst < FBP_RMS
    print(f"  ASTRA's other filters (FilterType shepp-logan, cosine, hamming, hann; FilterD 1, "
          f"0.6, 0.5) against filter=..., cutoff=FilterD: RMS at most {worst:.1e} of the peak "
          f"({'ok' if windows_ok else 'FAIL'})")
    ok = ok and windows_ok
    emulated, exact = astra_rounding(pg, vg, lid, angles, det, width, n, 1.0)
    print(f"  ASTRA's back-projection of single rows (3 angles) against its arithmetic in float32:"
          f" max {emulated:.1e}; against Joseph's transpose in double: max {exact:.1e}: the"
          f" distance between ASTRA and the reference is ASTRA's float rounding")
    return ok and emulated < 1e-6


def _pixel(matrix, det, xr):
    """(column, row) where an RTK matrix puts the RTK point ``xr`` (homogeneous)."""
    h = matrix @ xr
    return (h[0] / h[2] - det.origin_u) / det.pitch_u, (h[1] / h[2] - det.origin_v) / det.pitch_v


def cone_geometry_case():
    """No CUDA needed: astra-toolbox's own pure-Python geometry functions (geom_2vec,
    geom_postalignment) against from_astra. 1. cone -> cone_vec: tomostation.astra's
    cone_vectors against geom_2vec, and from_astra's RTK matrices of the two dicts; 2. a
    cone_vec made by ASTRA (geom_2vec, then geom_postalignment by (2.5, -1.5) pixels): points
    seen through from_astra's matrices where the ray from ASTRA's source through the point meets
    ASTRA's detector plane (d + a u + b v, pixel (a + (N - 1) / 2, b + (M - 1) / 2)), and moved
    by exactly (-2.5, +1.5) pixels from the unshifted geometry."""
    angles = np.linspace(0, 2 * np.pi, 36, endpoint=False)
    pg = astra.create_proj_geom("cone", 1.2, 1.1, 48, 64, angles, 400.0, 200.0)
    vg = astra.create_vol_geom(32, 32, 32)
    vec = astra.functions.geom_2vec(pg)
    conversion = float(np.abs(cone_vectors(pg) - vec["Vectors"]).max())
    m_cone = from_astra(pg, vg).geometry.matrices()
    m_vec = from_astra(vec, vg).geometry.matrices()
    same = max(float(np.abs(a / np.abs(a).max() - b / np.abs(b).max()).max())
               for a, b in zip(m_cone, m_vec))
    shifted = astra.functions.geom_postalignment(pg, (2.5, -1.5))
    g = from_astra(shifted, vg).geometry
    det, m_shift = g.detector, g.matrices()
    rng = np.random.default_rng(5)
    ray, moved = 0.0, 0.0
    base = from_astra(pg, vg).geometry
    m_base = base.matrices()
    for k in range(len(angles)):
        src, d, u, v = np.split(shifted["Vectors"][k], 4)
        for point in rng.uniform(-15, 15, size=(4, 3)):
            n = np.cross(u, v)
            hit = src + np.dot(n, d - src) / np.dot(n, point - src) * (point - src) - d
            a, b = np.linalg.lstsq(np.stack([u, v], 1), hit, rcond=None)[0]
            xr = np.array([point[0], point[2], -point[1], 1.0])   # RTK (x, y = axis, z)
            col, row = _pixel(m_shift[k], det, xr)
            ray = max(ray, abs(col - (a + 31.5)), abs(row - (b + 23.5)))
            col0, row0 = _pixel(m_base[k], base.detector, xr)
            moved = max(moved, abs(col - col0 + 2.5), abs(row - row0 - 1.5))
    ok = conversion < 1e-9 and same < 1e-9 and ray < 1e-6 and moved < 1e-6
    print(f"cone / cone_vec geometry against astra.functions (no CUDA): cone_vectors vs "
          f"geom_2vec max {conversion:.1e}; matrices of cone and geom_2vec(cone) differ by "
          f"{same:.1e}; after geom_postalignment(2.5, -1.5): points {ray:.1e} px from ASTRA's "
          f"ray-detector intersection, moved by (-2.5, +1.5) px to {moved:.1e} "
          f"({'ok' if ok else 'FAIL'})")
    return ok


def cone_case(kind):
    if not astra.use_cuda():
        print(f"{kind}: not run (astra-toolbox's 3-D projectors need CUDA; no GPU here: see "
              "--gpu-reference)")
        return True
    n, rows, cols = 64, 96, 128
    angles = np.linspace(0, 2 * np.pi, 90, endpoint=False)
    pg = astra.create_proj_geom("cone", 1.2, 1.1, rows, cols, angles, 400.0, 200.0)
    if kind == "cone_vec":
        pg = astra.functions.geom_2vec(pg)
        pg["Vectors"][:, 3:6] += [3.0, -2.0, 1.5]
    vg = astra.create_vol_geom(n, n, n)
    worst = 0.0
    setup = from_astra(pg, vg)
    m = setup.geometry.matrices()
    det = setup.geometry.detector
    for (z, y, x) in [(10, 40, 20), (50, 12, 33), (32, 32, 32)]:
        vol = np.zeros((n, n, n), np.float32)
        vol[z, y, x] = 1.0
        _, proj = astra.create_sino3d_gpu(vol, pg, vg)   # [rows][angles][cols]
        proj = np.asarray(proj, dtype=np.float64)
        # ASTRA 3-D voxel centre: WindowMin + (index + 0.5)
        pa = np.array([x + 0.5 - n / 2, y + 0.5 - n / 2, z + 0.5 - n / 2])
        pr = np.array([pa[0], pa[2], -pa[1], 1.0])
        for a in range(len(angles)):
            p = proj[:, a, :]
            col = (p.sum(0) * np.arange(cols)).sum() / p.sum()
            row = (p.sum(1) * np.arange(rows)).sum() / p.sum()
            h = m[a] @ pr
            worst = max(worst, abs((h[0] / h[2] - det.origin_u) / det.pitch_u - col),
                        abs((h[1] / h[2] - det.origin_v) / det.pitch_v - row))
    print(f"{kind}: single voxels' projections vs the converted geometry: max {worst:.2e} px "
          f"({'ok' if worst < 0.05 else 'FAIL'}: a voxel's footprint centroid, not a point)")
    return worst < 0.05


if __name__ == "__main__":
    print(f"astra-toolbox {astra.__version__}, tomostation {ts.__version__}")
    ok = all([parallel_case(), parallel_case(1.0, (0.0, 0.0)), small_fbp_case(),
              cone_geometry_case(), cone_case("cone"), cone_case("cone_vec")])
    if len(sys.argv) == 3 and sys.argv[1] == "--gpu-reference":
        # ASTRA's GPU results made on a GPU machine (scripts/gpu-check astra), compared here.
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
        import astra_gpu_reference  # noqa: E402

        ok = astra_gpu_reference.compare(sys.argv[2]) == 0 and ok
    sys.exit(0 if ok else 1)
