"""ASTRA's CPU FBP (its "FBP" algorithm with a "linear" projector, Ram-Lak filter) in double
precision, in numpy: the independent reference for ``tomostation.fbp(..., projector="joseph")``
(tests/python/test_astra_fbp.py) and for astra-toolbox itself (scripts/compare/astra_adapter.py).
Not part of the package.

The algorithm, as astra-toolbox 2.5.0 describes and runs it
(src/FilteredBackProjectionAlgorithm.cpp, src/Filters.cpp,
include/astra/ParallelBeamLinearKernelProjector2D.inl), written from that description:
 1. each row is zero-padded to N, the smallest power of two >= 2 x detectors, and convolved
    circularly (by FFT) with twice the spatial Ram-Lak kernel h(0) = 1/4, h(n odd) =
    -1/(pi n)^2, h(n even) = 0, for lags |n| < N/2 (in detector samples: no pitch);
 2. the filtered rows are back-projected with the transpose of the projector, Joseph's
    method (joseph_reference.py): every ray scatters its value onto the two pixel centres of
    each row (or column) it crosses with the weights the forward projection reads them with;
 3. the image is scaled by pi / (2 x angles x pixel area).
"""
import numpy as np


def ramlak_filtered(sino):
    """Step 1: [angles][detectors] rows filtered as ASTRA filters them (the factor 2 included)."""
    sino = np.asarray(sino, dtype=np.float64)
    det = sino.shape[-1]
    n = 1
    while n < 2 * det:
        n *= 2
    h = np.zeros(n)
    h[0] = 0.25
    odd = np.arange(1, n, 2)
    lag = np.where(2 * odd > n, n - odd, odd)
    h[odd] = -1.0 / (np.pi * lag) ** 2
    response = 2.0 * np.fft.fft(h).real
    rows = np.fft.ifft(np.fft.fft(sino, n, axis=-1) * response, axis=-1).real
    return rows[..., :det]


def joseph_transpose(rows, n, pixel, offset, angles, pitch, center=None):
    """Step 2: the transpose of Joseph's projection (joseph_reference.py's weights) applied to
    ``rows`` [angles][detectors], onto an n x n image (row 0 at the top)."""
    det = rows.shape[-1]
    axis = (det - 1) / 2 if center is None else center
    u = (np.arange(det) - axis) * pitch
    x0 = offset[0] - (n - 1) / 2 * pixel
    y0 = offset[1] + (n - 1) / 2 * pixel
    out = np.zeros((n + 2, n + 2))  # one pixel of margin on each side: the fade past the edge
    for t, row in zip(angles, np.asarray(rows, dtype=np.float64)):
        c, s = np.cos(t), np.sin(t)
        value = row * pixel / max(abs(c), abs(s))
        for i in range(n):
            if abs(c) >= abs(s):
                f = ((u - (y0 - i * pixel) * s) / c - x0) / pixel
            else:
                f = (y0 - (u - (x0 + i * pixel) * c) / s) / pixel
            k = np.floor(f).astype(int)
            ok = (k >= -1) & (k < n)
            k, w, v = k[ok], (f - np.floor(f))[ok], value[ok]
            line = out[i + 1] if abs(c) >= abs(s) else out[:, i + 1]
            np.add.at(line, k + 1, v * (1 - w))
            np.add.at(line, k + 2, v * w)
    return out[1:-1, 1:-1]


def astra_fbp_reference(sino, n, pixel, offset, angles, pitch, center=None):
    """ASTRA's CPU FBP of ``sino`` [angles][detectors] on an n x n grid of ``pixel`` centred at
    ``offset`` (x, y), the axis at detector ``center`` (default (det - 1) / 2)."""
    back = joseph_transpose(ramlak_filtered(sino), n, pixel, offset, angles, pitch, center)
    return back * np.pi / (2 * len(angles) * pixel * pixel)
