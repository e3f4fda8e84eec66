"""Sinograms not made by `tomo phantom`, for the defaults study (scripts/study/defaults_study.py).

Three independent generators, each in TomoStation's frame (docs/geometry.md: t = x cos(theta) +
y sin(theta), detector pixel j at t = (j - (D - 1) / 2) * pitch, image row 0 at the top):
  - analytic: the modified Shepp-Logan's exact line integrals, one ray per detector bin (point
    sampling, unlike `tomo phantom`'s averaged rays), written here from the ellipse formula of
    Kak & Slaney ch. 3.1; the setting of issue 29's "another program";
  - skimage: scikit-image's radon (it rotates the image and sums columns) of the phantom
    rasterised on a 4x finer grid, then binned to the detector pitch;
  - astra: ASTRA's CPU strip projector (the area of each pixel in each detector strip) of the
    phantom rasterised on a 2x finer grid.
Poisson noise: counts N0 exp(-k p) with k chosen so that the largest line integral is `peak`
(issue 29: e^-4), back to line integrals by -log / k. Every generator is deterministic by seed.
"""
import numpy as np

# Modified Shepp-Logan (Toft): density, semi-axes a, b, centre x, y, angle (degrees).
SHEPP_LOGAN = [
    (1.0, 0.69, 0.92, 0.0, 0.0, 0.0),
    (-0.8, 0.6624, 0.874, 0.0, -0.0184, 0.0),
    (-0.2, 0.11, 0.31, 0.22, 0.0, -18.0),
    (-0.2, 0.16, 0.41, -0.22, 0.0, 18.0),
    (0.1, 0.21, 0.25, 0.0, 0.35, 0.0),
    (0.1, 0.046, 0.046, 0.0, 0.1, 0.0),
    (0.1, 0.046, 0.046, 0.0, -0.1, 0.0),
    (0.1, 0.046, 0.023, -0.08, -0.605, 0.0),
    (0.1, 0.023, 0.023, 0.0, -0.606, 0.0),
    (0.1, 0.023, 0.046, 0.06, -0.605, 0.0),
]


def analytic_sinogram(size, angles_deg, detectors, ellipses=SHEPP_LOGAN):
    """Exact line integrals [angle][detector] of ellipses scaled to span the size^2 grid."""
    scale = 0.5 * size
    theta = np.deg2rad(np.asarray(angles_deg, dtype=np.float64))[:, None]
    t = (np.arange(detectors) - 0.5 * (detectors - 1))[None, :]
    sino = np.zeros((theta.shape[0], detectors))
    for d, a, b, cx, cy, phi in ellipses:
        a, b, cx, cy = a * scale, b * scale, cx * scale, cy * scale
        p = np.deg2rad(phi)
        h2 = (a * np.cos(theta - p)) ** 2 + (b * np.sin(theta - p)) ** 2
        tt = t - (cx * np.cos(theta) + cy * np.sin(theta))
        inside = tt * tt < h2
        chord = np.where(inside, 2 * a * b * np.sqrt(np.maximum(h2 - tt * tt, 0)) / h2, 0.0)
        sino += d * chord
    return sino


def rasterize(size, supersample=4, ellipses=SHEPP_LOGAN):
    """The phantom on the size^2 grid (row 0 at the top), each pixel the mean of supersample^2
    point samples."""
    n = size * supersample
    c = (np.arange(n) - 0.5 * (n - 1)) / supersample  # pixel units, centred
    x = c[None, :]
    y = -c[:, None]
    img = np.zeros((n, n))
    scale = 0.5 * size
    for d, a, b, cx, cy, phi in ellipses:
        p = np.deg2rad(phi)
        dx, dy = x - cx * scale, y - cy * scale
        u = dx * np.cos(p) + dy * np.sin(p)
        v = -dx * np.sin(p) + dy * np.cos(p)
        img += d * ((u / (a * scale)) ** 2 + (v / (b * scale)) ** 2 <= 1.0)
    return img.reshape(size, supersample, size, supersample).mean(axis=(1, 3))


def skimage_sinogram(size, angles_deg, detectors):
    """scikit-image's radon of the phantom on a 4x grid, binned to the detector."""
    from skimage.transform import radon
    fine = rasterize(4 * size, supersample=2)
    # radon rotates the image: its angle 0 sums columns, i.e. projects onto x (our theta = 0).
    sino = radon(fine, theta=np.asarray(angles_deg), circle=False).T / 4.0
    # sino's detector axis: fine pixels centred at its middle; bin to pitch 4 (our pixels).
    n = sino.shape[1]
    centre = 0.5 * (n - 1)
    out = np.zeros((sino.shape[0], detectors))
    for j in range(detectors):
        t = (j - 0.5 * (detectors - 1)) * 4.0 + centre
        lo, hi = t - 2.0, t + 2.0
        for k in range(int(np.floor(lo)), int(np.ceil(hi)) + 1):
            w = max(0.0, min(hi, k + 0.5) - max(lo, k - 0.5))
            if 0 <= k < n and w > 0:
                out[:, j] += w * sino[:, k]
    return out / 4.0


def astra_sinogram(size, angles_deg, detectors):
    """ASTRA's CPU strip projector of the phantom on a 2x grid (pitch 2 fine pixels)."""
    import astra
    fine = rasterize(2 * size, supersample=2)
    vol = astra.create_vol_geom(2 * size, 2 * size)
    # ASTRA's parallel angle a projects onto (cos a, -sin a) in its (x, y-down) frame: our
    # theta with y up. Detector width 2 fine pixels = our pitch 1.
    proj = astra.create_proj_geom("parallel", 2.0, detectors, np.deg2rad(np.asarray(angles_deg)))
    pid = astra.create_projector("strip", proj, vol)
    sid, sino = astra.create_sino(fine, pid)
    astra.data2d.delete(sid)
    astra.projector.delete(pid)
    return np.asarray(sino) / 2.0


def add_poisson(sino, counts, peak, seed):
    """Poisson counts with the largest line integral at attenuation `peak`; -log back."""
    k = peak / float(sino.max())
    rng = np.random.default_rng(seed)
    n = rng.poisson(counts * np.exp(-k * sino)).astype(np.float64)
    n = np.maximum(n, 0.5)
    return (np.log(counts) - np.log(n)) / k
