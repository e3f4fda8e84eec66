"""read/write for every format `tomo` writes; preprocess and find_center as the CLI's."""
import numpy as np
import pytest

import tomostation as ts
from conftest import read_raw, run_cli, same_bits

FORMATS = [".tif", ".h5", ".mha", ".nrrd", ".nii", ".raw"]


@pytest.mark.parametrize("ext", FORMATS)
def test_write_read_round_trip(tmp_path, ext):
    volume = np.random.default_rng(3).normal(size=(3, 20, 24)).astype(np.float32)
    path = tmp_path / f"v{ext}"
    ts.write(path, volume, provenance={"algorithm": "test"})
    back = ts.read(path, shape=volume.shape if ext == ".raw" else None)
    assert same_bits(back, volume)
    if ext == ".h5":
        assert ts.info(path)["metadata"].get("algorithm") == "test"


def test_written_files_are_what_tomo_convert_reads(tmp_path):
    volume = np.arange(2 * 5 * 7, dtype=np.float32).reshape(2, 5, 7)
    ts.write(tmp_path / "a.tif", volume)
    run_cli("convert", tmp_path / "a.tif", tmp_path / "b.raw")
    assert same_bits(read_raw(tmp_path / "b.raw", volume.shape), volume)


def test_uint16_tiff_keeps_its_scale(tmp_path):
    volume = np.linspace(-1, 3, 2 * 8 * 8, dtype=np.float32).reshape(2, 8, 8)
    ts.write(tmp_path / "q.tif", volume, uint16="auto")
    np.testing.assert_allclose(ts.read(tmp_path / "q.tif"), volume, atol=4 / 65535)
    with pytest.raises(ts.InvalidArgumentError, match="--uint16 applies to TIFF outputs only"):
        ts.write(tmp_path / "q.h5", volume, uint16="auto")


def test_preprocess_arrays_is_flat_dark_and_minus_log():
    rng = np.random.default_rng(5)
    darks = rng.uniform(90, 110, size=(3, 6, 10)).astype(np.float32)
    flats = rng.uniform(900, 1100, size=(4, 6, 10)).astype(np.float32)
    transmission = rng.uniform(0.2, 0.9, size=(7, 6, 10))
    projections = (darks.mean(0) + transmission * (flats.mean(0) - darks.mean(0))).astype(
        np.float32)
    out, summary = ts.preprocess(projections, flats, darks, np.linspace(0, np.pi, 7),
                                 return_summary=True)
    np.testing.assert_allclose(out, -np.log(transmission), atol=2e-5)
    assert "flat" in summary["steps"]


def test_preprocess_of_a_file_gives_tomo_preprocess_bits(tmp_path):
    frames = np.random.default_rng(1).uniform(1, 2, size=(9, 12, 16)).astype(np.float32)
    ts.write(tmp_path / "frames.tif", frames)
    run_cli("preprocess", tmp_path / "frames.tif", "-o", tmp_path / "cli.raw", "--bin", "2",
            "--crop", "2:10,:", "--rings", "vo", "--quiet")
    mine = ts.preprocess(str(tmp_path / "frames.tif"), bin=2, crop=((2, 10), (None, None)),
                         rings="vo")
    assert same_bits(mine, read_raw(tmp_path / "cli.raw", mine.shape))
    assert mine.shape == (9, 4, 8)


def test_ring_snr_is_tomo_preprocess_ring_snr(tmp_path):
    # A stripe in column 5: ring_snr is --ring-snr, the stripe detector's threshold.
    frames = np.random.default_rng(2).uniform(1, 1.1, size=(60, 4, 32)).astype(np.float32)
    frames[:, :, 5] *= 1.5
    ts.write(tmp_path / "frames.tif", frames)
    run_cli("preprocess", tmp_path / "frames.tif", "-o", tmp_path / "cli.raw", "--rings", "vo",
            "--ring-snr", "1.5", "--quiet")
    mine = ts.preprocess(str(tmp_path / "frames.tif"), rings="vo", ring_snr=1.5)
    assert same_bits(mine, read_raw(tmp_path / "cli.raw", mine.shape))
    blind = ts.preprocess(str(tmp_path / "frames.tif"), rings="vo", ring_snr=1e6)
    assert not np.array_equal(mine, blind)  # no stripe passes a threshold of 1e6


def test_find_center_gives_tomo_center_numbers():
    p = ts.phantom(96, angles=200, detectors=128, center=66.25)
    c = ts.find_center(p.data, p.angles)
    assert c == pytest.approx(66.25, abs=0.1)
    everything = ts.find_center(p.data, p.angles, method="all")
    assert everything["vo-fourier"]["center"] == c
    assert "error" in everything["phase-correlation"]  # a 180-degree scan has no 0/180 pairs
    with pytest.raises(ts.InvalidArgumentError, match="--method: expected"):
        ts.find_center(p.data, p.angles, method="best")


def _striped_sinograms():
    """A clean phantom stack [rows][angles][detectors], and it with a stripe on column 40 and
    six zingers (detector pixels 20 times as bright: ln 20 below their neighbours in line
    integrals)."""
    p = ts.phantom(48, angles=90, detectors=64, slices=2)
    clean = np.ascontiguousarray(p.data, dtype=np.float32)
    damaged = clean.copy()
    damaged[:, :, 40] += 0.3 * clean.max() / 10
    for k in range(6):
        damaged[k % 2, 10 + 12 * k, 12 + 6 * k] -= np.log(20.0)
    return clean, damaged, p.angles


def test_preprocess_sinograms_removes_a_stripe_and_zingers_as_tomo_does(tmp_path):
    clean, damaged, angles = _striped_sinograms()
    out, summary = ts.preprocess(damaged, angles=angles, sinograms=True, rings="vo", ring_size=5,
                                 zinger=0.2, return_summary=True)
    assert out.shape == clean.shape
    assert summary["zingers_replaced"] >= 5
    assert "line-integral, dark" in summary["steps"]
    stripe_before = np.abs((damaged - clean)[:, :, 40].mean(axis=1)).max()
    stripe_after = np.abs((out - clean)[:, :, 40].mean(axis=1)).max()
    assert stripe_after < 0.1 * stripe_before
    inside = 0
    for k in range(6):  # zingers replaced by a median of clean neighbours (its sinogram's 3x3)
        z, a, c = k % 2, 10 + 12 * k, 12 + 6 * k
        window = clean[z, a - 1:a + 2, c - 1:c + 2]
        inside += int(window.min() <= out[z, a, c] <= window.max())
    assert inside >= 5  # one on a slope steeper than its depth may be kept
    # The same request of `tomo preprocess --sinograms` gives the same bits.
    ts.write(tmp_path / "damaged.tif", damaged)
    run_cli("preprocess", tmp_path / "damaged.tif", "--sinograms", "-o", tmp_path / "cli.raw",
            "--rings", "vo", "--ring-size", "5", "--zinger", "0.2",
            "--quiet")
    assert same_bits(out, read_raw(tmp_path / "cli.raw", out.shape))
    # A single sinogram [angles][detectors] keeps its shape.
    one = ts.preprocess(damaged[0], sinograms=True, rings="vo", ring_size=5)
    assert one.shape == damaged[0].shape


def test_preprocess_sinograms_refuses_steps_of_an_acquisition():
    _, damaged, _ = _striped_sinograms()
    with pytest.raises(ts.InvalidArgumentError, match="minus-log|flat/dark.*line integrals"):
        ts.preprocess(damaged, sinograms=True, flat_dark=True)
    with pytest.raises(ts.InvalidArgumentError, match="Paganin.*line integrals"):
        ts.preprocess(damaged, sinograms=True, paganin=(20, 100, 1, 100))
