#!/usr/bin/env python3
"""ASTRA's GPU results for issue 30, made on the GPU machine and compared here (a side-by-side
check; not part of the product or of the test command).

    make:    python3 scripts/compare/astra_gpu_reference.py make OUT.npz [--cpu]
             astra-toolbox with CUDA (the PyPI wheel; `scripts/gpu-check astra` installs it on the
             GPU machine); no tomostation there. Makes every case's data deterministically, runs
             ASTRA's GPU algorithms and writes inputs, geometries and results into OUT.npz.
             --cpu: a stand-in without a GPU (ASTRA's CPU "linear" projector and FBP for the
             parallel case, the cone cases marked not made), to try both halves here.
    compare: python3 scripts/compare/astra_gpu_reference.py compare NPZ
             tomostation (PYTHONPATH=build/release/python); no astra and no GPU. Runs
             TomoStation on the npz's inputs in the geometry from_astra converts and prints,
             case by case, the numbers against the bounds below; exit status 1 when one fails.

Cases and bounds (relative to the peak of ASTRA's result):
 - par.fp: FP_CUDA ("parallel", 256^2 in an off-centre window of 0.8-unit pixels, 384 bins of
   0.9, 360 angles) against AstraSetup.project (Joseph's method): RMS <= 1e-3. ASTRA's GPU
   kernels read the image through CUDA's linear texture filter, whose interpolation weight has 8
   fractional bits (CUDA C++ Programming Guide, "Linear Filtering"): ~1/512 of a neighbour
   difference per sample, so 1e-5 is out of reach; a geometry off by 0.01 pixel costs ~1e-2.
 - par.fbp: FBP_CUDA (Ram-Lak) of the FP_CUDA sinogram against setup.reconstruct with the
   pixel-driven projector (what FBP_CUDA's back-projection is): RMS <= 3e-4, same reason; the
   compare prints beside it what 8-bit weights alone cost a pixel-driven FBP of the same
   sinogram (numpy, double: 3.4e-5 RMS on this case), which says how much of the difference is
   the texture's; the issue's 1e-5 holds for ASTRA's CPU FBP only (docs/python.md).
 - cone, cone_vec: FP3D_CUDA of single voxels (48^3, 72 views over 2 pi, 80 x 96 detector;
   cone_vec: geom_2vec of the cone with the detector moved by (3, -2, 1.5)), per voxel and view:
   where from_astra's matrices put the voxel centre against where ASTRA's vectors do (exact:
   <= 1e-6 px); and FP3D_CUDA's footprint against its own ray-driven scheme rebuilt in double
   from the vectors (cuda/3d/cone_fp.cu: slice planes along the view's main axis, trilinear
   samples), centroids <= 0.01 px and values <= 2/256 of the footprint's height (two 8-bit
   texture weights per sample). A sampled footprint's centroid is not its voxel's centre
   (0.08-0.10 px here, printed): comparing those two, as this script first did, failed on the
   H200's data (2026-11-27) for that reason alone; FDK_CUDA of a phantom of 4 balls against
   setup.reconstruct(..., "fdk"): each ball's centroid within 0.1 voxel of ASTRA's (0.03 against
   the phantom itself on exact line integrals here), and the RMS difference printed (two FDKs
   with their own filters and weights: not one discretisation).
A case that failed on the GPU machine is stored as its error message and reported "not run".
"""
import pathlib
import sys
import time

import numpy as np

FORMAT = 1
N_PAR, DET_PAR, WIDTH_PAR, PIXEL_PAR, ANGLES_PAR = 256, 384, 0.9, 0.8, 360
WINDOW_PAR = (-96.4, 108.4, -108.2, 96.6)  # 256 x 0.8 centred at (6, -5.8)
N_CONE, ROWS_CONE, COLS_CONE, VIEWS_CONE = 48, 80, 96, 72
VOXELS = ((10, 30, 14), (36, 9, 25), (24, 24, 24))  # (z, y, x) of ASTRA's [z][y][x]
BALLS = ((12.0, 30.0, 16.0, 5.0), (34.0, 14.0, 30.0, 4.0), (24.0, 24.0, 24.0, 6.0),
         (20.0, 36.0, 33.0, 3.5))  # (z, y, x, radius) in voxels, value 1
FP_RMS, FBP_RMS, CENTROID_PX, BALL_VOXEL = 1e-3, 3e-4, 0.01, 0.1
POINT_PX, FOOTPRINT_REL = 1e-6, 2 / 256  # two 8-bit texture weights per sample


# -- the cases' inputs and geometries (shared by make and compare: one definition) ----------
def parallel_geometries():
    angles = np.linspace(0, np.pi, ANGLES_PAR, endpoint=False)
    pg = {"type": "parallel", "DetectorWidth": WIDTH_PAR, "DetectorCount": DET_PAR,
          "ProjectionAngles": angles}
    x0, x1, y0, y1 = WINDOW_PAR
    vg = {"GridColCount": N_PAR, "GridRowCount": N_PAR,
          "option": {"WindowMinX": x0, "WindowMaxX": x1, "WindowMinY": y0, "WindowMaxY": y1}}
    return pg, vg


def parallel_image():
    yy, xx = np.mgrid[0:N_PAR, 0:N_PAR]
    img = np.zeros((N_PAR, N_PAR), np.float32)
    img[((xx - 170) ** 2 + (yy - 90) ** 2) < 30 ** 2] = 1.0
    img[((xx - 80) ** 2 + (yy - 150) ** 2) < 18 ** 2] = 0.5
    img += (0.2 * np.exp(-((xx - 128.0) ** 2 + (yy - 128.0) ** 2) / 2000.0)).astype(np.float32)
    return img


def cone_geometries(kind):
    angles = np.linspace(0, 2 * np.pi, VIEWS_CONE, endpoint=False)
    pg = {"type": "cone", "DetectorSpacingX": 1.2, "DetectorSpacingY": 1.1,
          "DetectorRowCount": ROWS_CONE, "DetectorColCount": COLS_CONE,
          "ProjectionAngles": angles, "DistanceOriginSource": 400.0,
          "DistanceOriginDetector": 200.0}
    if kind == "cone_vec":
        vectors = _cone_vectors(pg)
        vectors[:, 3:6] += [3.0, -2.0, 1.5]
        pg = {"type": "cone_vec", "DetectorRowCount": ROWS_CONE,
              "DetectorColCount": COLS_CONE, "Vectors": vectors}
    h = N_CONE / 2
    vg = {"GridColCount": N_CONE, "GridRowCount": N_CONE, "GridSliceCount": N_CONE,
          "option": {"WindowMinX": -h, "WindowMaxX": h, "WindowMinY": -h, "WindowMaxY": h,
                     "WindowMinZ": -h, "WindowMaxZ": h}}
    return pg, vg


def _cone_vectors(pg):
    """ASTRA's geom_2vec of a cone (python/astra/functions.py), without astra."""
    t = pg["ProjectionAngles"]
    s, c, z = np.sin(t), np.cos(t), np.zeros_like(t)
    dso, dod = pg["DistanceOriginSource"], pg["DistanceOriginDetector"]
    du, dv = pg["DetectorSpacingX"], pg["DetectorSpacingY"]
    return np.stack([s * dso, -c * dso, z, -s * dod, c * dod, z, c * du, s * du, z, z, z,
                     z + dv], axis=1)


def ball_phantom():
    z, y, x = np.mgrid[0:N_CONE, 0:N_CONE, 0:N_CONE].astype(np.float64)
    vol = np.zeros((N_CONE,) * 3, np.float32)
    for bz, by, bx, r in BALLS:
        vol[(z - bz) ** 2 + (y - by) ** 2 + (x - bx) ** 2 <= r * r] = 1.0
    return vol


# -- make (GPU machine, astra only) ----------------------------------------------------------
def _astra_run(astra, name, cfg_ids, options=None):
    cfg = astra.astra_dict(name)
    cfg.update(cfg_ids)
    if options:
        cfg["option"] = options
    alg = astra.algorithm.create(cfg)
    astra.algorithm.run(alg)
    astra.algorithm.delete(alg)


def make_parallel(astra, out, gpu):
    """FP_CUDA and FBP_CUDA; without a GPU (``--cpu``, a stand-in to try the scripts) the
    "linear" projector and the CPU FBP, which compare meets with projector "joseph"."""
    pg, vg = parallel_geometries()
    img = parallel_image()
    pid = astra.create_projector("cuda" if gpu else "linear", pg, vg)
    sid, sino = astra.create_sino(img, pid)
    out["par.fp"] = np.asarray(sino, np.float32)
    rid = astra.data2d.create("-vol", vg, 0)
    ids = {"ProjectionDataId": sid, "ReconstructionDataId": rid}
    if not gpu:
        ids["ProjectorId"] = pid
    _astra_run(astra, "FBP_CUDA" if gpu else "FBP", ids, options={"FilterType": "ram-lak"})
    out["par.fbp"] = np.asarray(astra.data2d.get(rid), np.float32)
    astra.data2d.delete([sid, rid])
    astra.projector.delete(pid)


def make_cone(astra, kind, out):
    pg, vg = cone_geometries(kind)
    projections = []
    for z, y, x in VOXELS:
        vol = np.zeros((N_CONE,) * 3, np.float32)
        vol[z, y, x] = 1.0
        pid, proj = astra.create_sino3d_gpu(vol, pg, vg)  # [rows][angles][cols]
        astra.data3d.delete(pid)
        projections.append(np.asarray(proj, np.float32))
    out[f"{kind}.voxels"] = np.stack(projections)
    pid, proj = astra.create_sino3d_gpu(ball_phantom(), pg, vg)
    out[f"{kind}.proj"] = np.asarray(proj, np.float32)
    rid = astra.data3d.create("-vol", vg, 0)
    try:  # FDK_CUDA may refuse a vector geometry: the projections above are kept then
        _astra_run(astra, "FDK_CUDA", {"ProjectionDataId": pid, "ReconstructionDataId": rid})
        out[f"{kind}.fdk"] = np.asarray(astra.data3d.get(rid), np.float32)
    except Exception as e:  # noqa: BLE001 (kept as the result, reported by compare)
        out[f"{kind}.fdk_error"] = np.array(f"{type(e).__name__}: {e}")
        print(f"{kind}: FDK_CUDA failed: {type(e).__name__}: {e}", file=sys.stderr)
    astra.data3d.delete([pid, rid])


def make(path, gpu=True):
    import astra  # noqa: PLC0415 (the GPU machine's astra-toolbox; compare never needs it)

    if gpu and not astra.use_cuda():
        print("astra-toolbox finds no CUDA device (--cpu makes the CPU stand-in)",
              file=sys.stderr)
        return 1
    out = {"format": np.array(FORMAT), "astra_version": np.array(str(astra.__version__)),
           "mode": np.array("gpu" if gpu else "cpu")}
    try:
        out["gpu"] = np.array(str(astra.get_gpu_info()))
    except Exception as e:  # noqa: BLE001 (older astra: no get_gpu_info)
        out["gpu"] = np.array(f"unknown ({e})")
    ok = True
    for case, fn in (("par", lambda: make_parallel(astra, out, gpu)),
                     ("cone", lambda: make_cone(astra, "cone", out)),
                     ("cone_vec", lambda: make_cone(astra, "cone_vec", out))):
        if case != "par" and not gpu:
            out[f"{case}.error"] = np.array("not made: --cpu (ASTRA's 3-D algorithms need CUDA)")
            continue
        t0 = time.perf_counter()
        try:
            fn()
            print(f"{case}: made in {time.perf_counter() - t0:.2f} s")
        except Exception as e:  # noqa: BLE001 (kept as the case's result, reported by compare)
            out[f"{case}.error"] = np.array(f"{type(e).__name__}: {e}")
            print(f"{case}: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
            ok = False
    np.savez_compressed(path, **out)
    print(f"wrote {path} ({pathlib.Path(path).stat().st_size >> 10} KiB), astra "
          f"{out['astra_version']}, {out['gpu']}")
    return 0 if ok else 1


# -- compare (here: tomostation, no astra) ---------------------------------------------------
class ReferenceError(Exception):
    """The npz is not a reference this script made (wrong format, missing arrays)."""


def read_reference(path):
    """The npz as a dict of arrays, checked: its format and, per case, either all of the
    case's arrays with the shapes its geometry gives, or the case's error message."""
    try:
        with np.load(path, allow_pickle=False) as z:
            ref = {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise ReferenceError(f"{path}: not an npz file ({e})") from e
    if "format" not in ref or int(ref["format"]) != FORMAT:
        raise ReferenceError(f"{path}: format {ref.get('format')}, expected {FORMAT} "
                             "(made by another version of astra_gpu_reference.py)")
    for key in ("astra_version", "mode", "gpu"):
        ref[key] = str(ref.get(key, "unknown"))
    views, n = (ROWS_CONE, VIEWS_CONE, COLS_CONE), N_CONE
    shapes = {"par.fp": (ANGLES_PAR, DET_PAR), "par.fbp": (N_PAR, N_PAR)}
    for kind in ("cone", "cone_vec"):
        shapes.update({f"{kind}.voxels": (len(VOXELS),) + views, f"{kind}.proj": views,
                       f"{kind}.fdk": (n, n, n)})
    for key, shape in shapes.items():
        case = key.split(".")[0]
        if f"{case}.error" in ref or (key.endswith(".fdk") and f"{case}.fdk_error" in ref):
            continue
        if key not in ref:
            raise ReferenceError(f"{path}: no '{key}' and no '{case}.error'")
        if ref[key].shape != shape:
            raise ReferenceError(f"{path}: '{key}' is {ref[key].shape}, expected {shape}")
    return ref


def _rel(a, b, peak):
    d = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    return float(np.sqrt(np.mean(d * d)) / peak), float(np.abs(d).max() / peak)


def ram_lak(sino):
    """Rows filtered by the Ram-Lak kernel in the spatial domain (h(0) = 1/4, h(odd k) =
    -1/(pi k)^2), zero-padded to twice their length: double precision."""
    det = sino.shape[1]
    k = np.arange(-det + 1, det)
    h = np.where(k == 0, 0.25, np.where(k % 2, -1.0 / (np.pi * np.maximum(np.abs(k), 1)) ** 2, 0))
    size = 1 << int(np.ceil(np.log2(3 * det)))
    f = np.fft.rfft(np.asarray(sino, np.float64), size) * np.fft.rfft(h, size)
    return np.fft.irfft(f, size)[:, det - 1:2 * det - 1]


def texture_weight_effect(sino, pg, vg):
    """RMS over the peak of a pixel-driven back-projection of the Ram-Lak-filtered sinogram
    with interpolation weights rounded to 8 fractional bits (CUDA's linear texture filter)
    against exact weights, in double: what the texture alone costs an FBP of this data."""
    sino = ram_lak(sino)
    det, width = pg["DetectorCount"], pg["DetectorWidth"]
    o = vg["option"]
    n = vg["GridColCount"]
    pix = (o["WindowMaxX"] - o["WindowMinX"]) / n
    x = o["WindowMinX"] + (np.arange(n) + 0.5) * pix
    y = o["WindowMaxY"] - (np.arange(n) + 0.5) * pix
    xx, yy = np.meshgrid(x, y)
    exact, rounded = np.zeros((n, n)), np.zeros((n, n))
    padded = np.pad(np.asarray(sino, np.float64), ((0, 0), (1, 1)))
    for row, t in zip(padded, pg["ProjectionAngles"]):
        u = (xx * np.cos(t) + yy * np.sin(t)) / width + (det - 1) / 2 + 1
        i = np.clip(np.floor(u).astype(int), 0, det)
        a = np.where((u >= 0) & (u < det + 1), u - i, 0.0)
        exact += row[i] * (1 - a) + row[i + 1] * a
        aq = np.round(a * 256) / 256
        rounded += row[i] * (1 - aq) + row[i + 1] * aq
    return _rel(rounded, exact, np.abs(exact).max())[0]


def compare_parallel(ref, ts_astra):
    pg, vg = parallel_geometries()
    setup = ts_astra.from_astra(pg, vg)
    fp = ref["par.fp"]
    peak = float(np.abs(fp).max())
    rms, top = _rel(setup.project(parallel_image()), fp, peak)
    ok_fp = rms <= FP_RMS
    name = "FP_CUDA" if ref["mode"] == "gpu" else "linear projection (CPU stand-in)"
    print(f"par.fp: {name} vs tomostation's Joseph projection in the converted geometry: RMS "
          f"{rms:.1e} of the peak (bound {FP_RMS:g}), max {top:.1e} "
          f"({'ok' if ok_fp else 'FAIL'})")
    theirs = ref["par.fbp"]
    # FBP_CUDA back-projects pixel by pixel; the CPU stand-in's FBP with Joseph's transpose.
    projector = "pixel" if ref["mode"] == "gpu" else "joseph"
    name = "FBP_CUDA" if ref["mode"] == "gpu" else "FBP (CPU stand-in)"
    ours = setup.reconstruct(np.ascontiguousarray(fp), projector=projector)
    peak = float(np.abs(theirs).max())
    rms, top = _rel(ours, theirs, peak)
    ok_fbp = rms <= FBP_RMS
    # What 8-bit interpolation weights alone cost a pixel-driven back-projection of this data.
    effect = texture_weight_effect(fp, pg, vg)
    print(f"par.fbp: {name} (Ram-Lak) vs setup.reconstruct(projector='{projector}'): RMS "
          f"{rms:.1e} of the peak (bound {FBP_RMS:g}; the issue's 1e-5 "
          f"{'met' if rms <= 1e-5 else 'not met'}), max {top:.1e}; 8-bit texture weights alone "
          f"move a pixel-driven FBP of this sinogram by {effect:.1e} RMS "
          f"({'ok' if ok_fbp else 'FAIL'})")
    return ok_fp and ok_fbp


def _centroid(image):
    total = image.sum()
    return [float((image.sum(axis=tuple(a for a in range(image.ndim) if a != k)) *
                   np.arange(image.shape[k])).sum() / total) for k in range(image.ndim)]


def _vector_point(vec, p):
    """Where ASTRA's cone_vec view ``vec`` (src, d, u, v) puts world point ``p``, in detector
    pixels (column, row) from the first pixel's centre: the ray src -> p meets the detector."""
    src, d, u, v = vec[0:3], vec[3:6], vec[6:9], vec[9:12]
    n = np.cross(u, v)
    hit = src + (p - src) * (np.dot(d - src, n) / np.dot(p - src, n))
    a = np.linalg.solve(np.stack([u, v], axis=1).T @ np.stack([u, v], axis=1),
                        np.stack([u, v], axis=1).T @ (hit - d))
    return a[0] + COLS_CONE / 2 - 0.5, a[1] + ROWS_CONE / 2 - 0.5


def _ray_model_footprints(vec, centre):
    """FP3D_CUDA's own discretisation of one voxel (cuda/3d/cone_fp.cu, in double): per view the
    axis most along src -> detector centre steps through the voxels' centre planes, each sample
    is the volume's trilinear interpolation there, and the sum is scaled by the ray's length per
    step. For one voxel only its own plane counts: a bilinear tent where the ray crosses it.
    A view whose two axes tie (45 degrees) is decided by ASTRA's float rounding: one footprint
    per axis within 1e-6 of the largest is returned, and the caller keeps the closer. Each
    comes with its height: the tent's peak times the ray length per step."""
    src, d, u, v = vec[0:3], vec[3:6], vec[6:9], vec[9:12]
    along = np.abs(src - d)
    j, i = np.meshgrid(np.arange(COLS_CONE) + 0.5 - COLS_CONE / 2,
                       np.arange(ROWS_CONE) + 0.5 - ROWS_CONE / 2)
    ray = d + j[..., None] * u + i[..., None] * v - src  # to the pixel centres, [rows][cols][xyz]
    footprints = []
    for k in np.flatnonzero(along >= along.max() * (1 - 1e-6)):
        others = [m for m in range(3) if m != k]
        t = (centre[k] - src[k]) / ray[..., k]
        out = np.ones(j.shape)
        for m in others:
            out *= np.clip(1 - np.abs(src[m] + t * ray[..., m] - centre[m]), 0, None)
        scale = np.sqrt(1 + sum((ray[..., m] / ray[..., k]) ** 2 for m in others))
        footprints.append((out * scale, float(scale[out > 0].max())))
    return footprints


def compare_cone(ref, kind, ts_astra):
    """Three checks per voxel and view, which together say that from_astra's matrices put a
    voxel where FP3D_CUDA does: the matrices against ASTRA's vector semantics (a point, exact);
    FP3D_CUDA's footprint against its own discretisation rebuilt from the vectors (centroid and
    values); and, printed, how far a sampled footprint's centroid lies from the point anyway."""
    pg, vg = cone_geometries(kind)
    setup = ts_astra.from_astra(pg, vg)
    m, det = setup.geometry.matrices(), setup.geometry.detector
    vectors = pg["Vectors"] if kind == "cone_vec" else _cone_vectors(pg)
    point = model = bias = values = 0.0
    for (z, y, x), proj in zip(VOXELS, ref[f"{kind}.voxels"].astype(np.float64)):
        # ASTRA's voxel centre (x, y, z) = WindowMin + index + 0.5; RTK's point (x, z, -y).
        pa = np.array([x + 0.5 - N_CONE / 2, y + 0.5 - N_CONE / 2, z + 0.5 - N_CONE / 2])
        pr = np.array([pa[0], pa[2], -pa[1], 1.0])
        for a in range(VIEWS_CONE):
            h = m[a] @ pr
            ours = ((h[0] / h[2] - det.origin_u) / det.pitch_u,
                    (h[1] / h[2] - det.origin_v) / det.pitch_v)
            theirs = _vector_point(vectors[a], pa)
            point = max(point, abs(ours[0] - theirs[0]), abs(ours[1] - theirs[1]))
            fp, height = min(_ray_model_footprints(vectors[a], pa),
                             key=lambda f: float(np.abs(proj[:, a, :] - f[0]).max()))
            row, col = _centroid(proj[:, a, :])
            mrow, mcol = _centroid(fp)
            model = max(model, abs(row - mrow), abs(col - mcol))
            bias = max(bias, abs(mrow - ours[1]), abs(mcol - ours[0]))
            values = max(values, float(np.abs(proj[:, a, :] - fp).max()) / height)
    ok_vox = point <= POINT_PX and model <= CENTROID_PX and values <= FOOTPRINT_REL
    print(f"{kind}.voxels: from_astra's matrices vs ASTRA's vectors, voxel centres: max "
          f"{point:.1e} px (bound {POINT_PX:g}); FP3D_CUDA's footprints vs its ray model: "
          f"centroids {model:.1e} px (bound {CENTROID_PX:g}), values {values:.1e} of the height "
          f"(bound {FOOTPRINT_REL:g}); a sampled footprint's centroid lies up to {bias:.1e} px "
          f"from its voxel's centre ({'ok' if ok_vox else 'FAIL'})")
    if f"{kind}.fdk_error" in ref:
        print(f"{kind}.fdk: not run on the GPU machine: {ref[f'{kind}.fdk_error']}")
        return ok_vox
    theirs = ref[f"{kind}.fdk"].astype(np.float64)
    ours = setup.reconstruct(np.ascontiguousarray(ref[f"{kind}.proj"]), "fdk")
    shift = 0.0
    for bz, by, bx, r in BALLS:
        box = tuple(slice(int(c - r - 2), int(c + r + 3)) for c in (bz, by, bx))
        a, b = (np.clip(v[box], 0, None) for v in (theirs, ours))
        shift = max(shift, max(abs(p - q) for p, q in zip(_centroid(a), _centroid(b))))
    rms, top = _rel(ours, theirs, float(np.abs(theirs).max()))
    ok_fdk = shift <= BALL_VOXEL
    print(f"{kind}.fdk: FDK_CUDA vs setup.reconstruct(..., 'fdk'): balls' centroids differ by "
          f"at most {shift:.2e} voxel (bound {BALL_VOXEL:g}); RMS {rms:.1e} of the peak, max "
          f"{top:.1e} (two FDKs) ({'ok' if ok_fdk else 'FAIL'})")
    return ok_vox and ok_fdk


def compare(path):
    from tomostation import astra as ts_astra  # noqa: PLC0415 (here only)

    ref = read_reference(path)
    print(f"reference {path}: astra {ref['astra_version']} ({ref['mode']}), {ref['gpu']}")
    ok = True
    for case, fn in (("par", lambda: compare_parallel(ref, ts_astra)),
                     ("cone", lambda: compare_cone(ref, "cone", ts_astra)),
                     ("cone_vec", lambda: compare_cone(ref, "cone_vec", ts_astra))):
        if f"{case}.error" in ref:
            print(f"{case}: not run on the GPU machine: {ref[f'{case}.error']}")
            ok = False
            continue
        ok = fn() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    args = sys.argv[1:]
    cpu = "--cpu" in args
    args = [a for a in args if a != "--cpu"]
    if len(args) != 2 or args[0] not in ("make", "compare") or (cpu and args[0] != "make"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    try:
        sys.exit(make(args[1], gpu=not cpu) if args[0] == "make" else compare(args[1]))
    except ReferenceError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
