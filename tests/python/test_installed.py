"""Run by scripts/python-pip-check in the environment `pip install .` installed into: the
package is the installed one, with every backend the CMake build found, and reconstructs the
bits `tomo recon` does."""
import os
import pathlib
import sys

import numpy as np

import tomostation as ts
from conftest import read_raw, run_cli, same_bits


def test_the_installed_package_is_imported():
    path = pathlib.Path(ts.__file__).resolve()
    assert pathlib.Path(sys.prefix).resolve() in path.parents, path
    assert "site-packages" in path.parts


def test_every_backend_of_the_build_is_compiled_in_mpi_off():
    info = ts.build_info()
    expected = os.environ.get("TOMO_EXPECTED_BACKENDS", "cpu").split(",")
    assert sorted(info["backends"]) == sorted(expected)
    assert info["features"]["mpi"] is False


def test_fbp_bits_equal_tomo_recon(tmp_path):
    run_cli("phantom", "-o", tmp_path / "s.raw", "--size", 48, "--angles", "0:180:64",
            "--detectors", 64, "--slices", 2, "--quiet")
    run_cli("recon", tmp_path / "s.raw", "--shape", "64x64x2", "--angles", "0:180:64",
            "-o", tmp_path / "r.raw", "--backend", "cpu", "--quiet")
    data = read_raw(tmp_path / "s.raw", (2, 64, 64))
    angles = ts.phantom(48, angles=64, detectors=64, truth=False).angles
    assert same_bits(ts.fbp(data, angles, backend="cpu"), read_raw(tmp_path / "r.raw", (2, 64, 64)))
