"""Joseph's parallel-beam projection in double precision, in numpy: an independent reference
for ``tomostation.project`` (tests/python/test_project.py) and for ASTRA's "linear" projector
(scripts/compare/astra_adapter.py). Not part of the package."""
import numpy as np


def joseph_reference(img, pixel, offset, t, det, pitch, center=None):
    """Joseph's projection of the square image ``img`` (row 0 at the top, +y up; pixels of side
    ``pixel``, grid centre at ``offset`` = (x, y) from the rotation axis) at angle ``t``
    (radians) on ``det`` bins of ``pitch`` with the axis at ``center`` pixels (default
    (det - 1) / 2): along the ray's dominant axis one sample per pixel row (or column) by
    linear interpolation between its two pixel centres, zero beyond the grid, times
    pixel / max(|cos|, |sin|)."""
    n = img.shape[0]
    c, s = np.cos(t), np.sin(t)
    axis = (det - 1) / 2 if center is None else center
    u = (np.arange(det) - axis) * pitch
    x0 = offset[0] - (n - 1) / 2 * pixel              # centre of pixel (row 0, column 0)
    y0 = offset[1] + (n - 1) / 2 * pixel
    padded = np.pad(np.asarray(img, dtype=np.float64), 1)
    out = np.zeros(det)
    for i in range(n):
        if abs(c) >= abs(s):                          # row i: y fixed, x = (u - y s) / c
            f = ((u - (y0 - i * pixel) * s) / c - x0) / pixel
            k = np.floor(f).astype(int)
            ok = (k >= -1) & (k < n)
            k, w = np.where(ok, k, -1), f - np.floor(f)
            out += np.where(ok, padded[i + 1, k + 1] * (1 - w) + padded[i + 1, k + 2] * w, 0)
        else:                                         # column i: x fixed, y = (u - x c) / s
            f = (y0 - (u - (x0 + i * pixel) * c) / s) / pixel
            k = np.floor(f).astype(int)
            ok = (k >= -1) & (k < n)
            k, w = np.where(ok, k, -1), f - np.floor(f)
            out += np.where(ok, padded[k + 1, i + 1] * (1 - w) + padded[k + 2, i + 1] * w, 0)
    return out * pixel / max(abs(c), abs(s))
