"""tomostation.astra: ASTRA's geometries as TomoStation's, checked here on analytic data in
ASTRA's documented conventions (python/astra/functions.py geom_2vec); scripts/compare checks
them against astra-toolbox's own projectors when it is installed."""
import numpy as np
import pytest

import tomostation as ts
from tomostation import astra as tsa


def parallel_disc_sinogram(angles, count, width, discs, sub=8):
    """ASTRA 'parallel': pixel k at t = (k - (count - 1) / 2) width, t = x cos + y sin."""
    offsets = ((np.arange(sub) + 0.5) / sub - 0.5)
    t = ((np.arange(count)[None, :, None] + offsets) - (count - 1) / 2) * width
    out = np.zeros((len(angles), count))
    for x0, y0, r, v in discs:
        t0 = x0 * np.cos(angles) + y0 * np.sin(angles)
        out += v * 2 * np.sqrt(np.clip(r * r - (t - t0[:, None, None]) ** 2, 0, None)).mean(2)
    return out.astype(np.float32)


def test_parallel_off_centre_disc_in_an_offset_window():
    angles = np.linspace(0, np.pi, 180, endpoint=False)
    pg = {"type": "parallel", "DetectorWidth": 0.5, "DetectorCount": 160,
          "ProjectionAngles": angles}
    # 64 x 64 pixels of 0.5 over x in [-8, 24], y in [-20, 12] (row 0 at y = 12)
    vg = {"GridColCount": 64, "GridRowCount": 64,
          "option": {"WindowMinX": -8.0, "WindowMaxX": 24.0, "WindowMinY": -20.0,
                     "WindowMaxY": 12.0}}
    sino = parallel_disc_sinogram(angles, 160, 0.5, [(10.0, -5.0, 3.0, 1.0)])
    setup = tsa.from_astra(pg, vg)
    image = setup.reconstruct(sino)
    assert image.shape == (64, 64)
    # pixel (row, col) centre: x = -8 + (col + 0.5) 0.5, y = 12 - (row + 0.5) 0.5
    w = np.where(image > image.max() / 3, image, 0)
    r, c = np.indices(image.shape)
    x = (-8 + (c + 0.5) * 0.5) * w
    y = (12 - (r + 0.5) * 0.5) * w
    assert x.sum() / w.sum() == pytest.approx(10.0, abs=0.02)
    assert y.sum() / w.sum() == pytest.approx(-5.0, abs=0.02)
    assert image[int(round((12 + 5) / 0.5 - 0.5)), int(round((10 + 8) / 0.5 - 0.5))] == \
        pytest.approx(1.0, abs=0.06)


def test_project_is_create_sino_of_the_same_geometry():
    """setup.project (astra.create_sino / create_sino3d) of a pixelated disc against the disc's
    exact line integrals in ASTRA's geometry: 2-D (row 0 at WindowMaxY) and 3-D (row 0 at
    WindowMinY)."""
    angles = np.linspace(0, np.pi, 90, endpoint=False)
    window = {"WindowMinX": -8.0, "WindowMaxX": 24.0, "WindowMinY": -20.0, "WindowMaxY": 12.0}
    exact = parallel_disc_sinogram(angles, 160, 0.5, [(10.0, -5.0, 6.0, 1.0)])
    sub = (np.arange(8) + 0.5) / 8                    # supersampled pixel coverage of the disc
    r, c = np.indices((64, 64))
    x = -8 + (c[..., None, None] + sub[:, None]) * 0.5
    y = 12 - (r[..., None, None] + sub[None, :]) * 0.5
    disc = (((x - 10) ** 2 + (y + 5) ** 2) < 36).mean((2, 3)).astype(np.float32)
    pg = {"type": "parallel", "DetectorWidth": 0.5, "DetectorCount": 160,
          "ProjectionAngles": angles}
    vg = {"GridColCount": 64, "GridRowCount": 64, "option": window}
    sino = tsa.from_astra(pg, vg).project(disc)
    assert sino.shape == (90, 160)
    assert np.sqrt(np.mean((sino - exact) ** 2)) < 0.01 * exact.max()
    pg3 = {"type": "parallel3d", "DetectorSpacingX": 0.5, "DetectorSpacingY": 1.0,
           "DetectorRowCount": 2, "DetectorColCount": 160, "ProjectionAngles": angles}
    vg3 = {"GridColCount": 64, "GridRowCount": 64, "GridSliceCount": 2,
           "option": dict(window, WindowMinZ=-1.0, WindowMaxZ=1.0)}
    volume = np.stack([disc[::-1], 0.5 * disc[::-1]])  # ASTRA 3-D: row 0 at the bottom
    sino3 = tsa.from_astra(pg3, vg3).project(volume)
    assert sino3.shape == (2, 90, 160)                 # [rows][angles][columns], as ASTRA's
    assert np.sqrt(np.mean((sino3[0] - exact) ** 2)) < 0.01 * exact.max()
    assert np.allclose(sino3[1], 0.5 * sino3[0], atol=1e-5 * exact.max())
    cone = {"type": "cone", "DetectorSpacingX": 1.0, "DetectorSpacingY": 1.0,
            "DetectorRowCount": 8, "DetectorColCount": 8, "ProjectionAngles": angles,
            "DistanceOriginSource": 100.0, "DistanceOriginDetector": 50.0}
    with pytest.raises(ts.UnsupportedError, match="cone-beam forward projection"):
        tsa.from_astra(cone, {"GridColCount": 8, "GridRowCount": 8,
                              "GridSliceCount": 8}).project(np.zeros((8, 8, 8), np.float32))


def astra_cone_project_point(vec, rows, columns, point):
    """Where ASTRA's cone_vec view ``vec`` sees ``point`` (ASTRA world): (column, row)."""
    src, d, u, v = vec[0:3], vec[3:6], vec[6:9], vec[9:12]
    n = np.cross(u, v)
    t = np.dot(n, d - src) / np.dot(n, point - src)
    p = src + t * (point - src) - d
    a = np.linalg.lstsq(np.stack([u, v], 1), p, rcond=None)[0]  # p = a0 u + a1 v
    return a[0] + (columns - 1) / 2, a[1] + (rows - 1) / 2


@pytest.mark.parametrize("kind", ["cone", "cone_vec"])
def test_cone_matrices_see_points_where_astra_does(kind):
    angles = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    pg = {"type": "cone", "DetectorSpacingX": 1.3, "DetectorSpacingY": 1.1,
          "DetectorRowCount": 40, "DetectorColCount": 50, "ProjectionAngles": angles,
          "DistanceOriginSource": 300.0, "DistanceOriginDetector": 200.0}
    vectors = tsa.cone_vectors(pg)
    if kind == "cone_vec":  # a tilted, shifted detector
        vectors = vectors.copy()
        vectors[:, 3:6] += [2.0, -1.0, 3.0]
        c, s = np.cos(0.05), np.sin(0.05)
        u, v = vectors[:, 6:9].copy(), vectors[:, 9:12].copy()
        vectors[:, 6:9], vectors[:, 9:12] = c * u + s * v * 1.3 / 1.1, c * v - s * u * 1.1 / 1.3
        pg = {"type": "cone_vec", "DetectorRowCount": 40, "DetectorColCount": 50,
              "Vectors": vectors}
    vg = {"GridColCount": 16, "GridRowCount": 16, "GridSliceCount": 16}
    setup = tsa.from_astra(pg, vg)
    g = setup.geometry
    det = g.detector
    m = g.matrices()
    rng = np.random.default_rng(7)
    for k in range(len(angles)):
        for point in rng.uniform(-20, 20, size=(5, 3)):
            col, row = astra_cone_project_point(vectors[k], 40, 50, point)
            xr = np.array([point[0], point[2], -point[1], 1.0])  # RTK (x, y = axis, z)
            h = m[k] @ xr
            u_mm, v_mm = h[0] / h[2], h[1] / h[2]
            assert (u_mm - det.origin_u) / det.pitch_u == pytest.approx(col, abs=1e-6)
            assert (v_mm - det.origin_v) / det.pitch_v == pytest.approx(row, abs=1e-6)


def test_cone_is_rtks_circular_geometry():
    angles = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    pg = {"type": "cone", "DetectorSpacingX": 1.0, "DetectorSpacingY": 1.0,
          "DetectorRowCount": 30, "DetectorColCount": 40, "ProjectionAngles": angles,
          "DistanceOriginSource": 500.0, "DistanceOriginDetector": 250.0}
    g = tsa.from_astra(pg, {"GridColCount": 8, "GridRowCount": 8, "GridSliceCount": 8}).geometry
    for view, a in zip(g.views, angles):
        assert view["sid"] == pytest.approx(500.0)
        assert view["sdd"] == pytest.approx(750.0)
        assert np.cos(view["gantry_angle"]) == pytest.approx(np.cos(a), abs=1e-9)
        assert np.sin(view["gantry_angle"]) == pytest.approx(np.sin(a), abs=1e-9)
        assert abs(view["out_of_plane_angle"]) < 1e-9 and abs(view["in_plane_angle"]) < 1e-9


def test_unsupported_geometries_are_named():
    with pytest.raises(ts.InvalidArgumentError, match="'fanflat' is not converted"):
        tsa.from_astra({"type": "fanflat"}, {})
    with pytest.raises(ts.UnsupportedError, match="square"):
        tsa.from_astra({"type": "parallel", "DetectorWidth": 1.0, "DetectorCount": 4,
                        "ProjectionAngles": [0.0]}, {"GridColCount": 4, "GridRowCount": 5})
