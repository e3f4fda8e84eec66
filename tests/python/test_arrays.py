"""numpy in, numpy out: no copy for float32 arrays whose last axis is contiguous, a warning and
a copy otherwise."""
import warnings

import numpy as np
import pytest

import tomostation as ts
from conftest import same_bits


@pytest.fixture(scope="module")
def data():
    p = ts.phantom(48, angles=60, detectors=64, slices=4, phantom="shepp-logan-3d", truth=False)
    return p.data, p.angles


def address(a):
    return a.__array_interface__["data"][0]


def test_c_order_float32_is_read_in_place(data):
    sino, angles = data
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ConversionWarning
        _, report = ts.fbp(sino, angles, return_report=True)
    assert report.input_address == address(sino)
    assert not report.input_copied


def test_a_transposed_view_with_a_contiguous_last_axis_is_read_in_place(data):
    sino, angles = data
    projections = np.ascontiguousarray(sino.swapaxes(0, 1))  # [angles][rows][columns]
    view = projections.swapaxes(0, 1)                         # back to [rows][angles][cols]
    assert not view.flags.c_contiguous
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        image, report = ts.fbp(view, angles, return_report=True)
    assert report.input_address == address(view)
    assert same_bits(image, ts.fbp(sino, angles))


@pytest.mark.parametrize("convert", [
    lambda a: a.astype(np.float64), lambda a: np.asfortranarray(a), lambda a: a[:, :, ::-1][:, :, ::-1].copy(order="F"),
    lambda a: a.astype(">f4")], ids=["float64", "fortran", "fortran-copy", "big-endian"])
def test_other_layouts_are_copied_with_a_warning_and_give_the_same_bits(data, convert):
    sino, angles = data
    other = convert(sino)
    with pytest.warns(ts.ConversionWarning, match="sinogram: copied to a C-order float32"):
        image, report = ts.fbp(other, angles, return_report=True)
    assert report.input_copied
    assert report.input_address != address(other)
    assert same_bits(image, ts.fbp(sino, angles))


def test_a_list_is_converted_with_a_warning(data):
    sino, angles = data
    with pytest.warns(ts.ConversionWarning, match="list was converted"):
        image = ts.fbp(sino[0].tolist(), angles)
    assert same_bits(image, ts.fbp(sino[0], angles))


def test_output_is_handed_over_without_a_copy_and_2d_in_2d_out(data):
    sino, angles = data
    image = ts.fbp(sino[0], angles, size=64)
    assert image.shape == (64, 64) and image.dtype == np.float32
    assert not image.flags.owndata  # owned by the C++ volume through a capsule
    assert image.flags.c_contiguous  # 64 floats per row: no padding
    volume = ts.fbp(sino, angles, size=50)
    assert volume.shape == (4, 50, 50)
    # Rows padded to 64-byte multiples are read right (one slice runs another kernel: close,
    # not the same bits).
    np.testing.assert_allclose(volume[2], ts.fbp(sino[2], angles, size=50), atol=2e-6)
