"""Devices, variant selection and what this build contains."""
from . import _tomostation as _core
from ._engine import engine_or_default
from ._flags import to_flags
from ._progress import progress_callback

__all__ = ["devices", "tune", "algorithms", "build_info"]


def devices(engine=None):
    """Per backend (cpu, opencl, cuda): whether it is available, its devices, the
    back-projector variants registered and the default one (``tomo devices``)."""
    return _core.devices(engine_or_default(engine))


def tune(backend="cpu", *, budget=None, repeats=None, size=None, slices=None, threads=None,
         progress=None, engine=None):
    """Measures the back-projector variants of ``backend`` per workload class and stores the
    fastest in the selection cache (``tomo tune``); returns the sweep as a dict."""
    flags = to_flags({"backend": backend, "budget": budget, "repeats": repeats, "size": size,
                      "slices": slices, "threads": threads})
    with progress_callback(progress, "tune") as report:
        return _core.tune(engine_or_default(engine), flags, report)


def algorithms():
    """Every algorithm of ``tomo recon --algo`` with its parameters (name, default, range,
    description): the schema the CLI and the GUI's forms use."""
    return _core.algorithms()


def build_info():
    """Version, compiler and the optional parts of this build (cuda, opencl, hdf5, ...)."""
    return _core.build_info()
