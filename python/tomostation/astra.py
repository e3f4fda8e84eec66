"""ASTRA geometries as TomoStation's: ``from_astra(proj_geom, vol_geom)`` for ``parallel``,
``parallel3d``, ``cone`` and ``cone_vec`` (the dicts ``astra.create_proj_geom`` and
``astra.create_vol_geom`` return), so an ASTRA script keeps its geometry and data and
reconstructs with TomoStation. Checked against astra-toolbox's own projections and FBP in
scripts/compare/astra_adapter.py; conventions in docs/python.md.

ASTRA's conventions used (python/astra/functions.py ``geom_2vec``, the vector geometries):
parallel rays travel along (sin t, -cos t) and detector pixel k lies at
(k - (N - 1) / 2) x DetectorWidth along u = (cos t, sin t), so a point (x, y) is seen at
x cos t + y sin t: TomoStation's frame with the same angles. A 2-D volume's row 0 is the top
(WindowMaxY), as TomoStation's. In 3-D, z is the rotation axis, detector rows run along z and
projection data are [rows][angles][columns]; cone sources sit at (sin t, -cos t, 0) x
DistanceOriginSource, the detector centre at (-sin t, cos t, 0) x DistanceOriginDetector.
"""
import numpy as np

from . import projection as _projection
from . import recon as _recon
from .errors import InvalidArgumentError, UnsupportedError
from .geometry import ConeGeometry

__all__ = ["from_astra", "AstraSetup"]


class AstraSetup:
    """What ``from_astra`` returns.

    kind: ``parallel`` (2-D), ``parallel3d`` or ``cone``. angles: radians (parallel).
    keywords: for :func:`tomostation.fbp` and the iterative methods (parallel) or
    :func:`tomostation.fdk` (cone). geometry: the :class:`ConeGeometry` (cone).
    ``reconstruct(data)`` takes ASTRA's data layout and returns ASTRA's volume layout.
    """

    def __init__(self, kind, angles=None, keywords=None, geometry=None, detectors=None):
        self.kind, self.angles, self.keywords, self.geometry = kind, angles, keywords or {}, geometry
        self.detectors = detectors

    def project(self, volume):
        """``astra.create_sino`` (``create_sino3d`` for parallel3d) with ASTRA's ``"linear"``
        projector (Joseph's method, :func:`tomostation.project`): ASTRA's volume layout in,
        ASTRA's projection layout out. Cone-beam projection is not offered here."""
        if self.kind == "cone":
            raise UnsupportedError("cone-beam forward projection is not offered: project "
                                   "parallel and parallel3d geometries")
        kw = {k: v for k, v in self.keywords.items()
              if k in ("detector_pitch", "pixel_size", "roi_center", "center")}
        v = np.asarray(volume)
        if self.kind == "parallel3d":
            v = np.ascontiguousarray(v[:, ::-1, :])
        return _projection.project(v, self.angles, detectors=self.detectors, **kw)

    def reconstruct(self, data, algorithm="fbp", **keywords):
        """Reconstructs ASTRA-layout data (2-D: [angles][detectors]; 3-D: [rows][angles]
        [columns]) and returns ASTRA's volume layout ([y][x], or [z][y][x]).

        FBP (parallel beams) is ASTRA's CPU FBP with the ``"linear"`` projector: the Ram-Lak
        filter and the transpose of Joseph's method (``projector="joseph"``; pass
        ``projector="pixel"`` for TomoStation's faster pixel-driven back-projection)."""
        kw = dict(self.keywords, **keywords)
        if self.kind == "cone":
            if algorithm != "fdk":
                raise UnsupportedError("cone-beam data reconstruct by 'fdk' here")
            volume = _recon.fdk(np.swapaxes(np.asarray(data), 0, 1), self.geometry, **kw)
            # RTK [k (z_r)][j (y_r, the axis)][i (x)] -> ASTRA [z_a = y_r][y_a = -z_r][x].
            return np.ascontiguousarray(volume.transpose(1, 0, 2)[:, ::-1, :])
        if algorithm == "fbp":  # ASTRA's CPU FBP back-projects with its projector's transpose
            kw.setdefault("projector", "joseph")
        image = _recon.reconstruct(data, self.angles, algorithm, **kw)
        return image if self.kind == "parallel" else np.ascontiguousarray(image[:, ::-1, :])


def _window(vol_geom, axis, count):
    o = vol_geom.get("option", {})
    lo = o.get(f"WindowMin{axis}", -count / 2.0)
    hi = o.get(f"WindowMax{axis}", count / 2.0)
    return float(lo), float(hi)


def _parallel_grid(vol_geom, pitch):
    nx, ny = int(vol_geom["GridColCount"]), int(vol_geom["GridRowCount"])
    if nx != ny:
        raise UnsupportedError(f"the ASTRA volume is {ny} x {nx}: TomoStation reconstructs "
                               "square slices")
    x0, x1 = _window(vol_geom, "X", nx)
    y0, y1 = _window(vol_geom, "Y", ny)
    if not np.isclose((x1 - x0) / nx, (y1 - y0) / ny, rtol=1e-9):
        raise UnsupportedError("the ASTRA volume's pixels are not square")
    return {"size": nx, "pixel_size": (x1 - x0) / nx,
            "roi_center": ((x0 + x1) / 2.0, (y0 + y1) / 2.0), "detector_pitch": pitch}


def _parallel(proj_geom, vol_geom):
    angles = np.asarray(proj_geom["ProjectionAngles"], dtype=np.float64)
    kw = _parallel_grid(vol_geom, float(proj_geom["DetectorWidth"]))
    return AstraSetup("parallel", angles, kw, detectors=int(proj_geom["DetectorCount"]))


def _parallel3d(proj_geom, vol_geom):
    angles = np.asarray(proj_geom["ProjectionAngles"], dtype=np.float64)
    rows = int(proj_geom["DetectorRowCount"])
    if int(vol_geom["GridSliceCount"]) != rows:
        raise UnsupportedError(f"{vol_geom['GridSliceCount']} volume slices for {rows} detector "
                               "rows: TomoStation reconstructs one slice per detector row")
    z0, z1 = _window(vol_geom, "Z", rows)
    if not (np.isclose((z1 - z0) / rows, float(proj_geom["DetectorSpacingY"])) and
            np.isclose(z0 + z1, 0.0)):
        raise UnsupportedError("the ASTRA volume's slices do not match the detector rows")
    # 3-D volumes have row 0 at WindowMinY (bottom): reconstruct() flips TomoStation's rows.
    kw = _parallel_grid(vol_geom, float(proj_geom["DetectorSpacingX"]))
    return AstraSetup("parallel3d", angles, kw, detectors=int(proj_geom["DetectorColCount"]))


def cone_vectors(proj_geom):
    """ASTRA's ``cone`` as ``cone_vec`` vectors (src, d, u, v per view), ASTRA's geom_2vec."""
    t = np.asarray(proj_geom["ProjectionAngles"], dtype=np.float64)
    s, c = np.sin(t), np.cos(t)
    dso, dod = float(proj_geom["DistanceOriginSource"]), float(proj_geom["DistanceOriginDetector"])
    du, dv = float(proj_geom["DetectorSpacingX"]), float(proj_geom["DetectorSpacingY"])
    z = np.zeros_like(t)
    return np.stack([s * dso, -c * dso, z, -s * dod, c * dod, z, c * du, s * du, z, z, z,
                     z + dv], axis=1)


#: RTK world (x_r, y_r = the axis, z_r) from ASTRA's (x_a, y_a, z_a = the axis): a rotation.
_ASTRA_FROM_RTK = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])


def _matrix(vec, rows, columns):
    """The 3x4 matrix taking an RTK world point (mm) to detector mm (col |u|, row |v|)
    homogeneous, for one cone_vec view: ray from src through the point onto the plane
    d + a u + b v, pixel (col, row) = (a + (columns - 1) / 2, b + (rows - 1) / 2)."""
    src, d, u, v = vec[0:3], vec[3:6], vec[6:9], vec[9:12]
    n = np.cross(u, v)
    ut = np.cross(v, n) / np.dot(u, np.cross(v, n))  # dual basis: ut.u = 1, ut.v = 0
    vt = np.cross(n, u) / np.dot(v, np.cross(n, u))
    rows_a = []
    for dual, half, pitch in ((ut, (columns - 1) / 2.0, np.linalg.norm(u)),
                              (vt, (rows - 1) / 2.0, np.linalg.norm(v))):
        # a w = dual.(src - d) (n.X - n.src) + n.(d - src) (dual.X - dual.src), w = n.(X - src)
        k1, k2 = np.dot(dual, src - d), np.dot(n, d - src)
        lin = k1 * n + k2 * dual + half * n
        const = -k1 * np.dot(n, src) - k2 * np.dot(dual, src) - half * np.dot(n, src)
        rows_a.append(np.append(lin, const) * pitch)
    rows_a.append(np.append(n, -np.dot(n, src)))
    m = np.array(rows_a)
    m[:, :3] = m[:, :3] @ _ASTRA_FROM_RTK  # world RTK -> ASTRA, then ASTRA's projection
    w0 = m[2, 3]  # depth of the isocentre: RTK's matrices have it negative
    return m if w0 < 0 else -m


def _cone(proj_geom, vol_geom):
    vectors = (np.asarray(proj_geom["Vectors"], dtype=np.float64)
               if proj_geom["type"] == "cone_vec" else cone_vectors(proj_geom))
    rows, columns = int(proj_geom["DetectorRowCount"]), int(proj_geom["DetectorColCount"])
    matrices = [_matrix(v, rows, columns) for v in vectors]
    pu, pv = np.linalg.norm(vectors[0, 6:9]), np.linalg.norm(vectors[0, 9:12])
    g = ConeGeometry.from_matrices(matrices, (columns, rows), (pu, pv), (0.0, 0.0))
    nx, ny, nz = (int(vol_geom[k]) for k in ("GridColCount", "GridRowCount", "GridSliceCount"))
    (x0, x1), (y0, y1), (z0, z1) = (_window(vol_geom, a, n) for a, n in
                                     (("X", nx), ("Y", ny), ("Z", nz)))
    dx, dy, dz = (x1 - x0) / nx, (y1 - y0) / ny, (z1 - z0) / nz
    if not (np.isclose(dx, dy) and np.isclose(dx, dz)):
        raise UnsupportedError("the ASTRA volume's voxels are not cubes")
    # RTK grid: x_r = x_a, y_r (axis) = z_a, z_r = -y_a; voxel k = 0 at the largest y_a.
    g = g.with_volume((nx, nz, ny), dx, (x0 + dx / 2, z0 + dz / 2, -(y1 - dy / 2)))
    return AstraSetup("cone", None, {}, g)


def from_astra(proj_geom, vol_geom):
    """TomoStation's geometry of an ASTRA projection and volume geometry (see the module)."""
    kind = proj_geom.get("type")
    if kind == "parallel":
        return _parallel(proj_geom, vol_geom)
    if kind == "parallel3d":
        return _parallel3d(proj_geom, vol_geom)
    if kind in ("cone", "cone_vec"):
        return _cone(proj_geom, vol_geom)
    raise InvalidArgumentError(f"ASTRA geometry '{kind}' is not converted (parallel, "
                               "parallel3d, cone and cone_vec are)")
