"""tomostation.tomopy puts an off-centre object where TomoPy's conventions put it.

The sinogram is the exact line integrals of discs in TomoPy's frame (libtomo/recon/utils.c and
project.c): image row i and column j have their centres at x = i - (n - 1) / 2 and
y = j - (n - 1) / 2, a ray at angle theta has the lateral coordinate u = -x sin t + y cos t, and
detector pixel d sits at u = d + 0.5 - center (docs/python.md)."""
import numpy as np
import pytest

import tomostation as ts
import tomostation.tomopy as tomopy


def disc_sinogram(theta, columns, center, discs, sub=8):
    """[angles][columns] exact integrals of discs (x0, y0, r, value), averaged over ``sub``
    rays per detector pixel."""
    offsets = (np.arange(sub) + 0.5) / sub - 0.5
    d = np.arange(columns)[None, :, None] + offsets[None, None, :]
    u = d + 0.5 - center
    out = np.zeros((len(theta), columns))
    for x0, y0, r, value in discs:
        u0 = -x0 * np.sin(theta) + y0 * np.cos(theta)
        chord = np.clip(r * r - (u - u0[:, None, None]) ** 2, 0, None)
        out += value * 2 * np.sqrt(chord).mean(axis=2)
    return out.astype(np.float32)


def centroid(image):
    """Centroid of the values above a third of the maximum (the disc, not the ripples)."""
    w = np.where(image > image.max() / 3, image, 0.0)
    i, j = np.indices(image.shape)
    return (w * i).sum() / w.sum(), (w * j).sum() / w.sum()


@pytest.mark.parametrize("algorithm", ["gridrec", "fbp", "sirt"])
def test_off_centre_disc_lands_where_tomopy_puts_it(algorithm):
    columns, rows = 96, 2
    theta = tomopy.angles(180, 0.0, 180.0 * 179 / 180)  # TomoPy's linspace, end inclusive
    center = 50.3                                         # TomoPy's convention
    x0, y0 = 12.0, -20.0                                  # TomoPy frame: row, column offsets
    sino = disc_sinogram(theta, columns, center, [(x0, y0, 6.0, 1.0)])
    tomo = np.repeat(sino[:, None, :], rows, axis=1)      # [angles][rows][columns]
    kwargs = {"num_iter": 200} if algorithm == "sirt" else {"filter_name": "ramlak"}
    fbp_for_gridrec = algorithm == "gridrec" and "gridrec" not in ts.ITERATIVE and \
        "gridrec" not in [a["id"] for a in ts.algorithms()]
    with pytest.warns(UserWarning, match="runs TomoStation's FBP") if fbp_for_gridrec \
            else _no_warning():
        rec = tomopy.recon(tomo, theta, center=center, algorithm=algorithm, **kwargs)
    assert rec.shape == (rows, columns, columns) and rec.dtype == np.float32
    ci, cj = centroid(rec[1])
    n = columns
    assert ci == pytest.approx(x0 + (n - 1) / 2, abs=0.05)
    assert cj == pytest.approx(y0 + (n - 1) / 2, abs=0.05)
    assert rec[1][int(round(x0 + (n - 1) / 2)), int(round(y0 + (n - 1) / 2))] == \
        pytest.approx(1.0, abs=0.08)


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_default_center_is_the_detector_middle_and_grid_keywords_set_the_shape():
    columns = 64
    theta = tomopy.angles(120, 0.0, 180.0 * 119 / 120)
    sino = disc_sinogram(theta, columns, columns / 2, [(5.0, 7.0, 4.0, 1.0)])
    tomo = sino[:, None, :]
    rec = tomopy.recon(tomo, theta, algorithm="fbp")           # center=None: columns / 2
    explicit = tomopy.recon(tomo, theta, center=columns / 2, algorithm="fbp")
    np.testing.assert_array_equal(rec, explicit)
    bigger = tomopy.recon(tomo, theta, algorithm="fbp", num_gridx=80, num_gridy=80)
    assert bigger.shape == (1, 80, 80)
    ci, cj = centroid(bigger[0])
    assert (ci, cj) == (pytest.approx(5 + 79 / 2, abs=0.05), pytest.approx(7 + 79 / 2, abs=0.05))
    # sinogram_order: [rows][angles][columns] gives the same
    np.testing.assert_array_equal(
        tomopy.recon(np.swapaxes(tomo, 0, 1).copy(), theta, algorithm="fbp",
                     sinogram_order=True), rec)


def test_one_centre_per_slice():
    columns = 64
    theta = tomopy.angles(100, 0.0, 180.0 * 99 / 100)
    centers = [30.0, 33.5]
    tomo = np.stack([disc_sinogram(theta, columns, c, [(0.0, 9.0, 4.0, 1.0)]) for c in centers],
                    axis=1)
    rec = tomopy.recon(tomo, theta, center=centers, algorithm="fbp")
    for s in range(2):
        assert centroid(rec[s])[1] == pytest.approx(9 + (columns - 1) / 2, abs=0.05)


def test_circ_mask_is_tomopys():
    a = np.ones((2, 6, 8), dtype=np.float32)
    m = tomopy.circ_mask(a, axis=0, ratio=1.0, val=-1.0)
    # TomoPy (misc/corr.py _get_mask): centres (i - 2.5, j - 3.5), inside when r^2 < 3^2
    i, j = np.indices((6, 8))
    inside = (i - 2.5) ** 2 + (j - 3.5) ** 2 < 9.0
    np.testing.assert_array_equal(m[0] == 1.0, inside)
    assert (m[~np.broadcast_to(inside, m.shape)] == -1.0).all()
    assert a.min() == 1.0  # the input is left alone


def test_unsupported_names_name_the_nearest():
    tomo = np.zeros((10, 1, 16), dtype=np.float32)
    theta = np.linspace(0, np.pi, 10, endpoint=False)
    with pytest.raises(ts.UnsupportedError, match="'mlem' is not in TomoStation; the nearest it "
                                                  "has is 'sirt'"):
        tomopy.recon(tomo, theta, algorithm="mlem")
    with pytest.raises(ts.UnsupportedError, match="'parzen'.*nearest it has is 'hann'"):
        tomopy.recon(tomo, theta, algorithm="gridrec", filter_name="parzen")
    with pytest.raises(ts.InvalidArgumentError, match="unknown algorithm 'magic'"):
        tomopy.recon(tomo, theta, algorithm="magic")
