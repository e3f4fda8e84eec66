"""Files: every format ``tomo`` reads and writes (app/data/DataFormats.cpp): TIFF (pages,
folders, BigTIFF, 16-bit with scale), raw float32, HDF5 (DXchange, NXtomo, reconstructions with
provenance), MetaImage, NRRD, NIfTI. The format follows the extension, as for ``tomo convert``.
"""
import numpy as np

from . import _tomostation as _core
from ._flags import to_flags

__all__ = ["read", "write", "info", "read_dataset", "uniform_angles"]


def _shape_flag(shape):
    """numpy order (planes, rows, columns) or (rows, columns) -> ``ROWSxCOLUMNS[xPLANES]``."""
    s = [int(n) for n in shape]
    if len(s) == 2:
        return f"{s[0]}x{s[1]}"
    if len(s) == 3:
        return f"{s[1]}x{s[2]}x{s[0]}"
    raise ValueError("shape: expected (rows, columns) or (planes, rows, columns)")


def read(path, *, shape=None, dataset=None):
    """A float32 stack [planes][rows][columns] from ``path`` (a reconstruction [z][y][x], a
    sinogram stack, projections). ``shape``: of a raw file, numpy order; ``dataset``: an HDF5
    dataset (default /reconstruction/data, else /exchange/data). Zero-copy out of the reader."""
    flags = to_flags({"dataset": dataset})
    if shape is not None:
        flags.append("--shape=" + _shape_flag(shape))
    return _core.read(str(path), flags)


def write(path, volume, *, provenance=None, voxel_size=None, uint16=None):
    """Writes ``volume`` ([y][x] or [planes][y][x]) atomically, as ``tomo convert`` writes.

    provenance: dict of text stored with the data where the format allows (HDF5 attributes;
    e.g. a reconstruction's ``report.provenance``). voxel_size: recorded in HDF5.
    uint16: TIFF as 16-bit counts: ``"auto"`` or (scale, offset).
    """
    flags = to_flags({"voxel_size": voxel_size, "uint16": uint16})
    prov = {str(k): str(v) for k, v in (provenance or {}).items()}
    _core.write(str(path), volume, flags, prov)


def info(path, *, dataset=None):
    """What ``tomo info`` prints, as a dict: format, datasets, metadata, acquisition."""
    return _core.info(str(path), to_flags({"dataset": dataset}))


def read_dataset(folder):
    """A dataset folder (``sinogram.tif`` or ``.raw`` with ``geometry.txt``, as ``tomo demo
    --write-data`` writes it and the workstation opens it): (sinograms [slice][angle][detector],
    angles in radians, the truth [slice][y][x] or None), read as the workstation reads it."""
    return _core.read_dataset(str(folder))


def uniform_angles(start, stop, count):
    """``count`` angles from ``start`` to ``stop`` radians, ``stop`` excluded, computed as
    ``tomo recon --angles`` and the workstation compute them (the same doubles)."""
    return np.asarray(_core.uniform_angles(float(start), float(stop), int(count)))
