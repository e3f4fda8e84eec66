"""The Engine: the devices of this process, opened once and shared by every call."""
from . import _tomostation as _core

Engine = _core.Engine

_default = []


def default_engine():
    """The Engine every function uses when none is given, opened on first use.

    Opening the devices (CPU, OpenCL, CUDA) takes a moment; it happens once per process. Pass
    ``engine=tomostation.Engine()`` to a function to use another.
    """
    if not _default:
        _default.append(Engine())
    return _default[0]


def engine_or_default(engine):
    return default_engine() if engine is None else engine
