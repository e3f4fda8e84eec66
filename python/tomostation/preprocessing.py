"""Preprocessing and the centre of rotation, as ``tomo preprocess`` and ``tomo center`` do them
(core/preprocess, core/centering; docs/preprocessing.md)."""
import numpy as np

from . import _tomostation as _core
from ._flags import to_flags
from ._progress import progress_callback

__all__ = ["preprocess", "find_center"]


def _range_text(r):
    """(first, end) with None for an open end -> ``first:end``."""
    first, end = r
    return f"{'' if first is None else int(first)}:{'' if end is None else int(end)}"


def preprocess(data, flats=None, darks=None, angles=None, *, flat_dark=None, flats_before=None,
               no_log=False, zinger=None, zinger_size=None, rings=None, ring_size=None,
               ring_levels=None, ring_sigma=None, ring_snr=None, paganin=None, bin=None,
               crop=None, angle_range=None, threads=None, shape=None, angle_unit=None, dataset=None,
               sinograms=False, progress=None, return_summary=False):
    """Flat/dark normalisation, -log, zingers, rings, Paganin, binning and cropping.

    data: projections [angles][rows][columns] (counts) with ``flats`` and ``darks``
        [frames][rows][columns], or the path of an acquisition (DXchange/NXtomo HDF5, TIFF
        stack, raw with ``shape``), read as ``tomo preprocess`` reads it.
    Keywords are ``tomo preprocess``'s flags: ``flat_dark`` (default: True when flats are
    given) normalises and takes -log (``no_log`` keeps transmissions), ``zinger=T``,
    ``rings="vo"|"fw"``, ``paganin=(keV, mm, um, delta/beta)``, ``bin=N or (rows, columns)``,
    ``crop=((r0, r1), (c0, c1))`` (None for an open end), ``angle_range=(first, end[, step])``.
    Steps run in the order angle range, crop, bin, zingers, flat/dark, Paganin, -log, rings.

    Returns the projections [angles][rows][columns] (pass ``p.swapaxes(0, 1)`` to
    reconstruct: it is read in place); with ``return_summary``, (projections, summary) where
    the summary has the steps, the angles kept and the counts of clamped values.

    ``sinograms=True`` (``tomo preprocess --sinograms``): ``data`` is a sinogram stack of line
    integrals [rows][angles][detectors] or [angles][detectors] (or the path of one, as
    ``tomo recon`` reads it), such as :func:`read_dataset`'s. The same steps run on the same
    code as for projections; those that act on line integrals apply (angle range, crop, bin,
    zingers, rings; ``zinger=T`` then replaces pixels more than T above their median, as
    TomoPy's remove_outlier), flat/dark, Paganin and -log raise an error saying why. Returns
    the sinograms in the shape given (with the summary on request).
    """
    if sinograms:
        return _preprocess_sinograms(data, angles, flat_dark=flat_dark, flats=flats, darks=darks,
                                     zinger=zinger, zinger_size=zinger_size, rings=rings,
                                     ring_size=ring_size, ring_levels=ring_levels,
                                     ring_sigma=ring_sigma, ring_snr=ring_snr, paganin=paganin,
                                     no_log=no_log, flats_before=flats_before, bin=bin, crop=crop,
                                     angle_range=angle_range, threads=threads, shape=shape,
                                     angle_unit=angle_unit, dataset=dataset, progress=progress,
                                     return_summary=return_summary)
    if flat_dark is None:
        flat_dark = flats is not None and not isinstance(data, str)
    values = {"flat_dark": flat_dark, "flats_before": flats_before, "no_log": no_log,
              "zinger": zinger, "zinger_size": zinger_size, "rings": rings,
              "ring_size": ring_size, "ring_levels": ring_levels, "ring_sigma": ring_sigma,
              "ring_snr": ring_snr, "paganin": paganin, "threads": threads,
              "angle_unit": angle_unit, "dataset": dataset}
    flags = to_flags(values, switches=("flat_dark", "no_log"))
    flags += _geometry_flags(bin, crop, angle_range, shape)
    a = [] if angles is None else np.asarray(angles, dtype=np.float64).ravel()
    with progress_callback(progress, "preprocess") as report:
        projections, summary = _core.preprocess(data, flats, darks, a, flags, report)
    return (projections, summary) if return_summary else projections


def _geometry_flags(bin, crop, angle_range, shape):
    """The flags of the keywords that are not plain values (bin, crop, angle range, shape)."""
    flags = []
    if bin is not None:
        b = (bin, bin) if np.isscalar(bin) else tuple(bin)
        flags.append(f"--bin={int(b[0])}x{int(b[1])}")
    if crop is not None:
        flags.append(f"--crop={_range_text(crop[0])},{_range_text(crop[1])}")
    if angle_range is not None:
        flags.append("--angle-range=" + ":".join(str(int(a)) for a in angle_range))
    if shape is not None:
        s = [int(n) for n in shape]
        flags.append(f"--shape={s[1]}x{s[2]}x{s[0]}")
    return flags


def _preprocess_sinograms(data, angles, *, flats, darks, bin, crop, angle_range, shape,
                          progress, return_summary, **values):
    """preprocess(sinograms=True): see :func:`preprocess`."""
    flags = to_flags(dict(values, flat_dark=bool(values["flat_dark"]), sinograms=True),
                     switches=("flat_dark", "no_log", "sinograms"))
    flags += _geometry_flags(bin, crop, angle_range, shape)
    two_d = not isinstance(data, str) and np.ndim(data) == 2
    if two_d:
        data = np.asarray(data)[np.newaxis]
    a = [] if angles is None else np.asarray(angles, dtype=np.float64).ravel()
    with progress_callback(progress, "preprocess") as report:
        out, summary = _core.preprocess(data, flats, darks, a, flags, report)
    if two_d:
        out = out[0]
    return (out, summary) if return_summary else out


def find_center(sinogram, angles, *, method="vo-fourier", slice=None, radius=None,
                threads=None):
    """The centre of rotation in detector pixels from the centre of pixel 0 (what ``center=``
    of :func:`~tomostation.fbp` and ``tomo recon --center`` take), as ``tomo center``:

    method: ``vo-fourier`` (Vo et al. 2014, a 180-degree scan), ``phase-correlation``
        (0/180-degree pairs, a 360-degree scan), ``sharpness`` (an FBP sweep), or ``all``.
    sinogram: [angles][detectors] or [rows][angles][detectors] (``slice`` picks the row).
    Returns the centre (a float), or for ``all`` a dict per method of {center, confidence,
    trial_centers, metric} (or {error}).
    """
    flags = to_flags({"method": method, "slice": slice, "radius": radius, "threads": threads})
    a = np.asarray(angles, dtype=np.float64).ravel()
    results = _core.find_center(sinogram, a, flags)
    if method == "all":
        return results
    r = results[method]
    if "error" in r:
        from .errors import InvalidArgumentError
        raise InvalidArgumentError(r["error"])
    return r["center"]
