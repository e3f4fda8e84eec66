"""tomostation.project / tomo project: Joseph's projection in the geometry the keywords give,
against a double-precision numpy reference (joseph_reference.py), FBP of it putting the image
back where it was, the CLI's bits and messages."""
import numpy as np
import pytest

import tomostation as ts
from conftest import cli_error, read_raw, run_cli, same_bits
from joseph_reference import joseph_reference


def disc_image(n, cx, cy, r, seed=3):
    """Discs with texture, row 0 at the top: fixed-seed values, no randomness in the verdict."""
    yy, xx = np.mgrid[0:n, 0:n]
    img = np.zeros((n, n), np.float32)
    img[(xx - cx) ** 2 + (yy - cy) ** 2 < r ** 2] = 1.0
    img[(xx - cx - r / 3) ** 2 + (yy - cy) ** 2 < (r / 3) ** 2] = 0.4
    rng = np.random.default_rng(seed)
    return img * (1.0 + 0.2 * rng.random((n, n)).astype(np.float32))


@pytest.mark.parametrize("pitch,pixel,offset,center", [
    (1.0, 1.0, (0.0, 0.0), None),
    (0.75, 0.8, (3.0, -2.0), 47.3),   # off-axis window, pitch != pixel, axis off the middle
])
def test_projection_is_josephs_in_the_keywords_geometry(pitch, pixel, offset, center):
    n, det = 64, 96
    img = disc_image(n, 38, 24, 14)
    angles = np.radians([0.0, 17.0, 45.0, 60.0, 90.0, 121.0, 135.0, 172.5])
    sino = ts.project(img, angles, detectors=det, detector_pitch=pitch, pixel_size=pixel,
                      roi_center=offset, center=center)
    assert sino.shape == (len(angles), det) and sino.dtype == np.float32
    peak = float(np.abs(sino).max())
    assert peak > 10 * pixel                         # the discs are seen, not an empty frame
    for a, t in enumerate(angles):
        ref = joseph_reference(img, pixel, offset, t, det, pitch, center)
        assert np.abs(sino[a] - ref).max() < 1e-6 * peak, np.degrees(t)


def test_fbp_of_the_projection_puts_the_image_back():
    n = 96
    img = disc_image(n, 60, 36, 18)
    angles = ts.uniform_angles(0.0, np.pi, 360)
    keywords = dict(detector_pitch=0.9, pixel_size=1.1, roi_center=(2.5, -1.5))
    sino = ts.project(img, angles, detectors=140, **keywords)
    back = ts.fbp(sino, angles, size=n, **keywords)
    assert np.sqrt(np.mean((back - img) ** 2)) < 0.06
    yy, xx = np.indices(img.shape)
    near = (xx - 60) ** 2 + (yy - 36) ** 2 < 26 ** 2  # around the discs, inside the field
    moved = [np.average(k[near], weights=back[near]) for k in (yy, xx)]
    placed = [np.average(k[near], weights=img[near]) for k in (yy, xx)]
    assert np.allclose(moved, placed, atol=0.05)     # pixels: the same place, not a shift


def test_a_stack_gives_the_clis_bits(tmp_path):
    img = np.stack([disc_image(48, 20, 25, 10, seed=s) for s in (1, 2)])
    img.astype("<f4").tofile(tmp_path / "img.raw")
    flags = ["--detectors", 70, "--detector-pitch", 0.8, "--center", 34.25]
    run_cli("project", tmp_path / "img.raw", "--shape", "48x48x2", "--angles", "0:180:50",
            "-o", tmp_path / "sino.raw", *flags, "--quiet")
    cli = read_raw(tmp_path / "sino.raw", (2, 50, 70))
    ours = ts.project(img, ts.uniform_angles(0.0, np.pi, 50), detectors=70, detector_pitch=0.8,
                      center=34.25)
    assert ours.shape == (2, 50, 70)
    assert same_bits(ours, cli)
    assert not same_bits(ours[0], ours[1])


def test_errors_are_the_clis(tmp_path):
    np.zeros((2, 30, 40), "<f4").tofile(tmp_path / "wide.raw")
    message, _ = cli_error("project", tmp_path / "wide.raw", "--shape", "30x40x2", "--angles",
                           "0:180:10", "-o", tmp_path / "out.raw")
    assert "square" in message
    with pytest.raises(ts.InvalidArgumentError) as e:
        ts.project(np.zeros((30, 40), np.float32), ts.uniform_angles(0.0, np.pi, 10))
    assert str(e.value) == message
    np.zeros((40, 40), "<f4").tofile(tmp_path / "square.raw")
    message, _ = cli_error("project", tmp_path / "square.raw", "--shape", "40x40", "--angles",
                           "0:180:10", "-o", tmp_path / "out.raw", "--detectors", "0")
    with pytest.raises(ts.InvalidArgumentError) as e:
        ts.project(np.zeros((40, 40), np.float32), ts.uniform_angles(0.0, np.pi, 10), detectors=0)
    assert str(e.value) == message
