"""A wrong dtype, shape, geometry or path gives the exception and the message `tomo` gives."""
import numpy as np
import pytest

import tomostation as ts
from conftest import cli_error, run_cli


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("errors")
    run_cli("phantom", "-o", d / "sino.raw", "--size", 32, "--angles", "0:180:40",
            "--detectors", 48, "--quiet")
    sino = np.fromfile(d / "sino.raw", dtype="<f4").reshape(40, 48)
    angles = ts.phantom(32, angles=40, detectors=48, truth=False).angles
    return d, sino, angles


def recon_error(d, *flags):
    return cli_error("recon", d / "sino.raw", "--shape", "40x48", "--angles", "0:180:40",
                     "-o", d / "out.raw", *flags)


@pytest.mark.parametrize("flags,keywords", [
    (["--size", "-3"], dict(size=-3)),
    (["--filter", "gaussian"], dict(filter="gaussian")),
    (["--cutoff", "2"], dict(cutoff=2)),
    (["--center", "1000000000.0"], dict(center=1e9)),
    (["--pixel-size", "0.0"], dict(pixel_size=0.0)),
    (["--roi-center", "500,0"], dict(roi_center=(500.0, 0.0))),
    (["--backend", "quantum"], dict(backend="quantum")),
    (["--variant", "cpu.none"], dict(variant="cpu.none")),
    (["--memory-budget", "0"], dict(memory_budget=0)),
], ids=["size", "filter", "cutoff", "center", "pixel-size", "roi", "backend", "variant",
        "budget"])
def test_bad_keyword_gives_the_cli_message(files, flags, keywords):
    d, sino, angles = files
    message, code = recon_error(d, *flags)
    with pytest.raises(ts.TomoError) as e:
        ts.fbp(sino, angles, **keywords)
    assert str(e.value) == message
    assert e.value.exit_code == code


def test_bad_algorithm_parameter_gives_the_cli_message(files):
    d, sino, angles = files
    message, code = recon_error(d, "--algo", "sirt", "--param", "relaxation=5")
    with pytest.raises(ts.InvalidArgumentError) as e:
        ts.sirt(sino, angles, relaxation=5)
    assert str(e.value) == message and e.value.exit_code == code == 2
    assert isinstance(e.value, ValueError)


def test_wrong_angle_count_gives_the_cli_message(files):
    d, sino, angles = files
    message, _ = cli_error("recon", d / "sino.raw", "--shape", "40x48", "--angles", "0:180:39",
                           "-o", d / "out.raw")
    with pytest.raises(ts.InvalidArgumentError) as e:
        ts.fbp(sino, angles[:39])
    assert str(e.value) == message


def test_wrong_shape_and_dtype(files):
    _, sino, angles = files
    with pytest.raises(ts.InvalidArgumentError, match=r"sinogram: expected \[angles\]\[detectors\]"
                       r" or \[rows\]\[angles\]\[detectors\], got an array of shape \(48,\)"):
        ts.fbp(sino[0], angles)
    with pytest.raises(ts.InvalidArgumentError, match="empty"):
        ts.fbp(sino[:, :0], angles)
    with pytest.raises(ts.InvalidArgumentError, match="complex"):
        ts.fbp(sino.astype(np.complex64) * 1j, angles)


def test_missing_file_gives_the_cli_message(files):
    d, _, _ = files
    message, code = cli_error("convert", d / "missing.tif", d / "out.tif")
    with pytest.raises(ts.NotFoundError) as e:
        ts.read(d / "missing.tif")
    assert str(e.value) == message and e.value.exit_code == code
    assert isinstance(e.value, FileNotFoundError)


def test_unwritable_output_gives_the_cli_message(files):
    d, sino, angles = files
    message, code = cli_error("recon", d / "sino.raw", "--shape", "40x48", "--angles",
                              "0:180:40", "-o", "/nonexistent/dir/out.tif")
    with pytest.raises(ts.TomoError) as e:
        ts.fbp(sino, angles, output="/nonexistent/dir/out.tif")
    assert str(e.value) == message and e.value.exit_code == code


def test_unknown_keyword_is_a_type_error(files):
    _, sino, angles = files
    with pytest.raises(TypeError, match="relaxation"):
        ts.fbp(sino, angles, relaxation=0.5)


def test_a_reconstruction_too_big_for_the_machine_names_the_keywords(files):
    # Four 65536^2 slices held as the returned array (64 GiB) fit no test machine; the refusal
    # comes before anything is allocated and advises in Python's terms, not the CLI's flags.
    d, sino, angles = files
    stack = np.ascontiguousarray(np.repeat(sino[None], 4, axis=0))
    with pytest.raises(ts.OutOfMemoryError) as e:
        ts.fbp(stack, angles, size=65536)
    message = str(e.value)
    assert message.startswith("cannot start: 4 slice(s) of 65536x65536"), message
    assert "the result, held whole in memory, 64.00 GiB" in message, message
    assert 'output="result.h5"' in message, message
    assert "--" not in message and "streamed file (.raw" not in message, message
