"""Exceptions and warnings of tomostation.

Every error of the C++ core arrives as a subclass of :class:`TomoError` carrying the message the
``tomo`` command prints for the same mistake. Each class is also a subclass of the built-in
exception a Python user would catch (``ValueError``, ``FileNotFoundError``, ...), and carries
``code`` (the core's error code) and ``exit_code`` (what ``tomo`` exits with).
"""


class TomoError(Exception):
    """Base class of every tomostation error."""

    code = "internal"
    exit_code = 1


class InvalidArgumentError(TomoError, ValueError):
    """A keyword, parameter or option is out of range or inconsistent (``tomo`` exit code 2)."""

    code = "invalid-argument"
    exit_code = 2


class InvalidDataError(TomoError, ValueError):
    """Input data are malformed: wrong size, NaN/Inf, a bad header (exit code 3)."""

    code = "invalid-data"
    exit_code = 3


class NotFoundError(TomoError, FileNotFoundError):
    """A file, dataset or device does not exist (exit code 3)."""

    code = "not-found"
    exit_code = 3


class OutputError(TomoError, OSError):
    """Reading or writing a file failed (exit code 4)."""

    code = "io-error"
    exit_code = 4


class OutOfMemoryError(TomoError, MemoryError):
    """Host or device memory is exhausted (exit code 5)."""

    code = "out-of-memory"
    exit_code = 5


class UnsupportedError(TomoError, NotImplementedError):
    """The feature is not in this build or on this device (exit code 6)."""

    code = "unsupported"
    exit_code = 6


class DeviceError(TomoError, RuntimeError):
    """A GPU runtime reported an error (exit code 1)."""

    code = "device-error"
    exit_code = 1


class InternalError(TomoError, RuntimeError):
    """A bug: an invariant did not hold (exit code 1)."""

    code = "internal"
    exit_code = 1


class Cancelled(TomoError):
    """The job was cancelled (``tomo`` exit code 130). Ctrl-C raises KeyboardInterrupt instead."""

    code = "cancelled"
    exit_code = 130


class ConversionWarning(UserWarning):
    """An input array was copied to C-order float32 (pass one to avoid the copy)."""


__all__ = [
    "TomoError", "InvalidArgumentError", "InvalidDataError", "NotFoundError", "OutputError",
    "OutOfMemoryError", "UnsupportedError", "DeviceError", "InternalError", "Cancelled",
    "ConversionWarning",
]
