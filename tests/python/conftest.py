"""Shared fixtures of the Python tests (run by ctest: tests/python/CMakeLists.txt).

TOMO_CLI names the `tomo` executable of the same build; the tests compare the package with it.
"""
import os
import pathlib
import subprocess

import numpy as np
import pytest

import tomostation as ts

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli_path():
    return os.environ.get("TOMO_CLI") or str(ROOT / "build" / "release" / "bin" / "tomo")


def run_cli(*args, check=True):
    """Runs `tomo ARGS`; returns (exit code, stdout, stderr)."""
    p = subprocess.run([cli_path(), *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"tomo {' '.join(map(str, args))} failed ({p.returncode}): "
                             f"{p.stderr}")
    return p.returncode, p.stdout, p.stderr


def cli_error(*args):
    """The message `tomo` prints for an error ("tomo recon: MESSAGE" -> MESSAGE), and its code."""
    code, _, err = run_cli(*args, check=False)
    assert code != 0, f"tomo {args} should have failed"
    line = [l for l in err.splitlines() if l.startswith("tomo ")][-1]
    return line.split(": ", 1)[1], code


def read_raw(path, shape):
    return np.fromfile(path, dtype="<f4").reshape(shape)


@pytest.fixture(scope="session")
def engine():
    return ts.default_engine()


@pytest.fixture(scope="session")
def backends(engine):
    """Backends with a device (cpu always; opencl with PoCL here; cuda with a GPU)."""
    return [d["backend"] for d in ts.devices(engine) if d["available"] and d["variants"]]


def same_bits(a, b):
    a, b = np.ascontiguousarray(a, dtype=np.float32), np.ascontiguousarray(b, dtype=np.float32)
    return a.shape == b.shape and a.tobytes() == b.tobytes()
