"""FBP's ``projector="joseph"`` (``tomo recon --param projector=joseph``) is ASTRA's CPU FBP
with its "linear" projector: against an independent double-precision numpy version of that
algorithm (astra_fbp_reference.py, no astra needed) in offset, off-axis geometries; through
``tomostation.astra.from_astra``; the CLI's bits and messages. scripts/compare/astra_adapter.py
checks the same against astra-toolbox itself."""
import numpy as np
import pytest

import tomostation as ts
from tomostation.astra import from_astra
from astra_fbp_reference import astra_fbp_reference
from conftest import cli_error, read_raw, run_cli, same_bits
from test_project import disc_image

# 90 angles over 180 degrees: none at exactly 45 or 135 degrees, where Joseph's walk along
# rows or columns is decided by the last bit of cos and sin (numpy's and the C library's may
# differ by one).
ANGLES = np.linspace(0.0, np.pi, 90, endpoint=False)


@pytest.mark.parametrize("pitch,pixel,offset,center", [
    (1.0, 1.0, (0.0, 0.0), None),
    (0.75, 0.8, (3.0, -2.0), 47.3),   # off-axis window, pitch != pixel, axis off the middle
    (1.3, 1.1, (5.0, 2.0), None),     # a detector coarser than the pixels
])
def test_joseph_fbp_is_astras_algorithm(pitch, pixel, offset, center):
    n, det = 64, 96
    img = disc_image(n, 38, 24, 14)
    keywords = dict(detector_pitch=pitch, pixel_size=pixel, roi_center=offset, center=center)
    sino = ts.project(img, ANGLES, detectors=det, **keywords)
    ours = ts.fbp(sino, ANGLES, size=n, projector="joseph", **keywords)
    ref = astra_fbp_reference(sino, n, pixel, offset, ANGLES, pitch, center)
    peak = float(np.abs(ref).max())
    assert peak > 0.5                                 # the discs are there
    assert np.abs(ours - ref).max() < 1e-6 * peak     # measured 2.0e-7 to 2.5e-7
    # The default, pixel-driven projector is another model: 7e-3 to 2e-2 of the peak away (RMS).
    pixel_driven = ts.fbp(sino, ANGLES, size=n, **keywords)
    assert np.sqrt(np.mean((pixel_driven - ref) ** 2)) > 1e-3 * peak


def test_from_astra_reconstructs_as_astras_cpu_fbp():
    # ASTRA's dicts (astra.create_proj_geom / create_vol_geom), astra itself not needed.
    n, det, width = 48, 80, 0.9
    pg = {"type": "parallel", "DetectorWidth": width, "DetectorCount": det,
          "ProjectionAngles": ANGLES}
    vg = {"GridColCount": n, "GridRowCount": n,
          "option": {"WindowMinX": -20.0, "WindowMaxX": 28.0, "WindowMinY": -30.0,
                     "WindowMaxY": 18.0}}     # 1-unit pixels, the window off the axis
    setup = from_astra(pg, vg)
    img = disc_image(n, 20, 30, 10)
    sino = setup.project(img)
    ref = astra_fbp_reference(sino, n, 1.0, (4.0, -6.0), ANGLES, width)
    image = setup.reconstruct(sino)
    assert np.abs(image - ref).max() < 1e-6 * np.abs(ref).max()
    faster = setup.reconstruct(sino, projector="pixel")
    assert not np.allclose(faster, ref, atol=1e-3 * np.abs(ref).max())


def test_the_clis_bits_and_the_reports_variant(tmp_path):
    sino = ts.project(np.stack([disc_image(40, 18, 22, 9, seed=s) for s in (1, 2)]), ANGLES,
                      detectors=60, detector_pitch=0.8)
    sino.astype("<f4").tofile(tmp_path / "sino.raw")
    run_cli("recon", tmp_path / "sino.raw", "--shape", "90x60x2", "--angles", "0:180:90",
            "--detector-pitch", 0.8, "--size", 40, "--param", "projector=joseph", "-o",
            tmp_path / "out.raw", "--quiet")
    cli = read_raw(tmp_path / "out.raw", (2, 40, 40))
    ours, report = ts.fbp(sino, ts.uniform_angles(0.0, np.pi, 90), size=40, detector_pitch=0.8,
                          projector="joseph", return_report=True)
    assert same_bits(ours, cli)
    assert report.variant == "cpu.joseph" and report.backend == "cpu"


def test_errors_are_the_clis(tmp_path):
    np.zeros((90, 60), "<f4").tofile(tmp_path / "sino.raw")
    common = ("recon", tmp_path / "sino.raw", "--shape", "90x60", "--angles", "0:180:90",
              "--param", "projector=joseph", "-o", tmp_path / "out.raw")
    sino = np.zeros((90, 60), np.float32)
    for flag, keyword in ((("--variant", "cpu.simd.lin"), {"variant": "cpu.simd.lin"}),
                          (("--interp", "nearest"), {"interp": "nearest"})):
        message, _ = cli_error(*common, *flag)
        assert "projector joseph" in message
        with pytest.raises(ts.InvalidArgumentError) as e:
            ts.fbp(sino, ANGLES, projector="joseph", **keyword)
        assert str(e.value) == message
    with pytest.raises(ts.InvalidArgumentError) as e:
        ts.fbp(sino, ANGLES, projector="strip")
    assert "pixel" in str(e.value) and "joseph" in str(e.value)
