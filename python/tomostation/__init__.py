"""TomoStation from Python: numpy in, numpy out, through the same reconstruction service as
``tomo recon`` and the workstation (docs/python.md).

>>> import numpy as np, tomostation as ts
>>> p = ts.phantom(256, angles=400)
>>> image = ts.fbp(p.data, p.angles, filter="hann")
"""
from . import _tomostation as _core
from .devices import algorithms, build_info, devices, tune
from .errors import (Cancelled, ConversionWarning, DeviceError, InternalError,
                     InvalidArgumentError, InvalidDataError, NotFoundError, OutOfMemoryError,
                     OutputError, TomoError, UnsupportedError)
from ._engine import Engine, default_engine
from .geometry import ConeGeometry
from .io import info, read, read_dataset, uniform_angles, write
from .phantoms import Phantom, phantom
from .preprocessing import find_center, preprocess
from .projection import project
from .recon import (ITERATIVE, cgls, fbp, fdk, gridrec, mbir, memxct, os_sirt, reconstruct, sart,
                    sirt, tv)
from .report import Report

__version__ = _core.build_info()["version"]

__all__ = [
    "fbp", "gridrec", "sirt", "os_sirt", "sart", "cgls", "tv", "memxct", "mbir", "reconstruct", "fdk",
    "ITERATIVE", "ConeGeometry", "read", "write", "info", "read_dataset", "uniform_angles", "preprocess", "find_center",
    "project",
    "phantom", "Phantom", "devices", "tune", "algorithms", "build_info", "Engine",
    "default_engine", "Report", "TomoError", "InvalidArgumentError", "InvalidDataError",
    "NotFoundError", "OutputError", "OutOfMemoryError", "UnsupportedError", "DeviceError",
    "InternalError", "Cancelled", "ConversionWarning",
]
