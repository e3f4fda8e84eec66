"""The same request through `tomo recon` and through tomostation gives the same bits:
FBP, gridrec, SIRT, CGLS, MBIR (parallel beam) and FDK (cone beam)."""
import numpy as np
import pytest

import tomostation as ts
from conftest import read_raw, run_cli, same_bits

ANGLES, DETECTORS, SIZE, SLICES = 120, 96, 64, 3


@pytest.fixture(scope="module")
def sinogram(tmp_path_factory):
    d = tmp_path_factory.mktemp("front")
    sino = d / "sino.raw"
    run_cli("phantom", "-o", sino, "--size", SIZE, "--angles", f"0:180:{ANGLES}",
            "--detectors", DETECTORS, "--slices", SLICES, "--phantom", "shepp-logan-3d",
            "--noise", 20000, "--quiet")
    data = read_raw(sino, (SLICES, ANGLES, DETECTORS))
    # The angles the CLI computes from 0:180:N, as the phantom reports them.
    angles = ts.phantom(SIZE, angles=ANGLES, detectors=DETECTORS, truth=False).angles
    return d, sino, data, angles


CASES = [
    ("fbp", ["--filter", "hann", "--center", "47.25"], dict(filter="hann", center=47.25)),
    ("gridrec", ["--filter", "hann", "--param", "tolerance=1e-4"],
     dict(filter="hann", tolerance=1e-4)),
    ("sirt", ["--iterations", "7", "--param", "relaxation=0.9"],
     dict(iterations=7, relaxation=0.9)),
    ("cgls", ["--iterations", "6", "--stop", "none"], dict(iterations=6, stop="none")),
    # MBIR's parameters are spelt with underscores (svmbir's names): passed as they are.
    ("mbir", ["--iterations", "2", "--param", "stop_threshold=0.02"],
     dict(iterations=2, stop_threshold=0.02)),
]


@pytest.mark.parametrize("algorithm,flags,keywords", CASES, ids=[c[0] for c in CASES])
def test_same_bits_as_tomo_recon(sinogram, algorithm, flags, keywords):
    d, sino, data, angles = sinogram
    out = d / f"{algorithm}.raw"
    run_cli("recon", sino, "--shape", f"{ANGLES}x{DETECTORS}x{SLICES}", "--angles",
            f"0:180:{ANGLES}", "--size", SIZE, "--algo", algorithm, "-o", out, "--quiet",
            "--backend", "cpu", *flags)
    expected = read_raw(out, (SLICES, SIZE, SIZE))
    image = ts.reconstruct(data, angles, algorithm, size=SIZE, backend="cpu", **keywords)
    assert image.shape == (SLICES, SIZE, SIZE)
    assert same_bits(image, expected)
    assert np.abs(expected).max() > 0.1  # a reconstruction, not zeros


def test_gridrec_is_fbp_in_fourier_space(sinogram):
    d, sino, data, angles = sinogram
    direct = ts.fbp(data, angles, size=SIZE, backend="cpu")
    fourier = ts.gridrec(data, angles, size=SIZE, backend="cpu", tolerance=1e-4)
    # The same filtered back-projection up to the gridding (and FBP's own interpolation):
    # within a few percent of the image's range, not bit for bit.
    assert fourier.shape == direct.shape == (SLICES, SIZE, SIZE)
    assert np.sqrt(np.mean((fourier - direct) ** 2)) < 0.03 * np.abs(direct).max()
    with pytest.raises(TypeError, match="relaxation"):
        ts.gridrec(data, angles, size=SIZE, relaxation=0.5)
    with pytest.raises(TypeError, match="subsets"):
        ts.fbp(data, angles, size=SIZE, subsets=4)


def test_fbp_on_every_backend_same_bits(sinogram, backends):
    d, sino, data, angles = sinogram
    for backend in backends:
        out = d / f"fbp-{backend}.raw"
        run_cli("recon", sino, "--shape", f"{ANGLES}x{DETECTORS}x{SLICES}", "--angles",
                f"0:180:{ANGLES}", "--size", SIZE, "-o", out, "--backend", backend, "--quiet")
        image = ts.fbp(data, angles, size=SIZE, backend=backend)
        assert same_bits(image, read_raw(out, (SLICES, SIZE, SIZE))), backend


def test_fdk_same_bits_as_tomo_recon(tmp_path):
    proj, geometry = tmp_path / "proj.mha", tmp_path / "geometry.json"
    run_cli("phantom", "--cone", "-o", proj, "--geometry", geometry, "--size", 32, "--views",
            60, "--quiet")
    out = tmp_path / "rec.raw"
    run_cli("recon", proj, "--geometry", geometry, "--size", 32, "-o", out, "--filter", "hann",
            "--quiet")
    expected = read_raw(out, (32, 32, 32))
    g = ts.ConeGeometry.from_file(geometry)
    volume = ts.fdk(ts.read(proj), g, size=32, filter="hann")
    assert same_bits(volume, expected)
    assert np.abs(expected).max() > 0.1


def test_fdk_with_rtk_xml_and_the_detector_of_the_projection_file(tmp_path):
    """RTK XML has no detector grid: the CLI takes it from the .mha; Python from info()."""
    proj, xml = tmp_path / "proj.mha", tmp_path / "geometry.xml"
    run_cli("phantom", "--cone", "-o", proj, "--geometry", xml, "--size", 24, "--views", 40,
            "--quiet")
    out = tmp_path / "rec.raw"
    run_cli("recon", proj, "--geometry", xml, "--size", 24, "-o", out, "--quiet")
    frame = ts.info(proj)["frame"]
    data = ts.read(proj)
    g = ts.ConeGeometry.from_rtk_xml(xml).with_detector(
        (data.shape[2], data.shape[1]), frame["spacing"][:2], frame["origin"][:2])
    assert same_bits(ts.fdk(data, g, size=24), read_raw(out, (24, 24, 24)))
