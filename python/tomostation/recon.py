"""Reconstruction: FBP, the iterative methods and cone-beam FDK through TomoStation's one front
door (app/recon/ReconService.h), the same service ``tomo recon`` and the GUI call.

Keywords are ``tomo recon``'s flags with ``_`` for ``-`` and mean what the flags mean (they are
parsed by the same parser); algorithm parameters not named here go to ``--param NAME=VALUE``.
Angles are in radians. Arrays are float32; a C-order float32 array (or any float32 array whose
last axis is contiguous, e.g. ``proj.swapaxes(0, 1)``) is read in place, anything else is copied
with a :class:`~tomostation.errors.ConversionWarning`.
"""
import math
import warnings

import numpy as np

from . import _tomostation as _core
from ._engine import engine_or_default
from ._flags import option_help, to_flags
from ._progress import progress_callback
from .report import Report

__all__ = ["reconstruct", "fbp", "gridrec", "sirt", "os_sirt", "sart", "cgls", "tv", "memxct",
           "mbir", "fdk", "ITERATIVE"]

#: ``tomo recon`` flags every parallel-beam call takes.
RECON_FLAGS = ("center", "filter", "cutoff", "interp", "size", "pixel_size", "roi_center",
               "detector_pitch", "backend", "variant", "threads", "chunk", "chunk_rows",
               "memory_budget", "output", "png")
#: Flags of iterative methods only.
ITERATIVE_FLAGS = ("iterations", "stop", "lcurve")
#: ``tomo recon`` flags of cone-beam FDK.
FDK_FLAGS = ("size", "volume", "voxel_size", "detector_pitch", "detector_offset", "short_scan",
             "filter", "cutoff", "backend", "variant", "threads", "memory_budget", "output",
             "png")

ITERATIVE = tuple(a["id"] for a in _core.algorithms() if a["iterative"])


def _parameter_names(algorithm):
    """The keyword names of ``algorithm``'s schema parameters (``--param``), each mapped to its
    schema name (``stop_tau``: ``stop-tau``; MBIR's ``stop_threshold`` stays as it is), or None
    when the algorithm is unknown (the front door then says so)."""
    spec = next((a for a in _core.algorithms() if a["id"] == algorithm), None)
    return None if spec is None else {p["name"].replace("-", "_"): p["name"]
                                      for p in spec["parameters"]}


def _angles(angles):
    a = np.asarray(angles, dtype=np.float64).ravel()
    if a.size and np.nanmax(np.abs(a)) > 2 * math.pi * 1.001 + 1e-9:
        warnings.warn("angles exceed 2 pi: tomostation takes radians (np.deg2rad(degrees))",
                      stacklevel=3)
    return a


def _truth(truth, flags):
    """A path goes to --truth (read as tomo recon reads it); an array is passed as is."""
    if truth is None or isinstance(truth, np.ndarray) or hasattr(truth, "__array__"):
        return truth
    flags.append("--truth=" + str(truth))
    return None


def _split(keywords, known):
    """Keywords that are flags of ``known``, and the rest (algorithm parameters)."""
    flags = {k: v for k, v in keywords.items() if k in known}
    params = {k: v for k, v in keywords.items() if k not in known}
    return flags, params


def reconstruct(sinogram, angles, algorithm="fbp", *, callback=None, callback_iterate=False,
                initial=None, truth=None, progress=None, return_report=False, engine=None,
                **keywords):
    """Reconstructs parallel-beam sinograms with any algorithm of ``tomo recon --algo``.

    sinogram: [angles][detectors] (one slice; the image is 2-D) or [rows][angles][detectors].
    angles: radians, one per projection.
    algorithm: ``fbp``, ``gridrec`` (FBP in Fourier space) or an iterative id
        (``tomostation.ITERATIVE``).
    callback: iterative methods: called after every iteration as ``callback(iteration,
        metrics)`` (``callback(iteration, metrics, iterate)`` with ``callback_iterate=True``,
        the iterate a copy); return False to stop and keep the current image, raise to cancel.
        It runs on the calling thread.
    initial: starting image of an iterative method (a warm restart).
    truth: reference image (array or file): the report's metrics and each iteration's error.
    progress: None, True (a tqdm bar, or lines on stderr) or a callable (fraction, stage).
    return_report: also return the :class:`~tomostation.report.Report`.
    Other keywords: ``tomo recon``'s flags (below) and the algorithm's parameters
    (``relaxation=0.5``, ``subsets=10``, ... as ``--param``; docs/algorithms.md).

    Returns the image [y][x] (or [slices][y][x]), or None when ``output`` names a file (it is
    then written by slabs, as ``tomo recon -o``); with ``return_report``, (image, report).
    Ctrl-C cancels within one chunk and raises KeyboardInterrupt; errors raise
    :class:`~tomostation.errors.TomoError` subclasses with ``tomo recon``'s messages.
    """
    iterative = algorithm in ITERATIVE
    flag_values, params = _split(keywords, RECON_FLAGS + (ITERATIVE_FLAGS if iterative else ()))
    names = _parameter_names(algorithm)
    unknown = set() if iterative or names is None else set(params) - set(names)
    if unknown:  # an iterative method's unknown parameter is the front door's message
        raise TypeError(f"{algorithm}() got unexpected keyword argument(s) "
                        f"{', '.join(sorted(unknown))}")
    flags = ["--algo=" + algorithm, "--output=" + str(flag_values.pop("output", None) or "")]
    flags += to_flags(flag_values)
    flags += [f"--param={(names or {}).get(k, k.replace('_', '-'))}={_param_text(v)}"
              for k, v in params.items() if v is not None]
    truth = _truth(truth, flags)
    with progress_callback(progress, algorithm) as report_progress:
        image, report = _core.recon(engine_or_default(engine), sinogram, _angles(angles), flags,
                                    truth, initial, report_progress, callback,
                                    bool(callback_iterate))
    return (image, Report(report)) if return_report else image


def _param_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(float(value)) if isinstance(value, float) else str(value)


def fbp(sinogram, angles, *, center=None, filter="ramp", cutoff=None, size=None,
        pixel_size=None, backend="auto", variant=None, projector=None, **keywords):
    """Filtered back-projection (``tomo recon --algo fbp``): see :func:`reconstruct`.

    projector: ``"pixel"`` (default; pixel-driven, every backend and variant) or ``"joseph"``
    (``--param projector=joseph``: the exact transpose of Joseph's forward projector, as
    ASTRA's CPU FBP with its ``"linear"`` projector; CPU). docs/python.md compares them.
    """
    return reconstruct(sinogram, angles, "fbp", center=center, filter=filter, cutoff=cutoff,
                       size=size, pixel_size=pixel_size, backend=backend, variant=variant,
                       projector=projector, **keywords)


def gridrec(sinogram, angles, *, center=None, filter="ramp", cutoff=None, size=None,
            pixel_size=None, backend="auto", tolerance=None, **keywords):
    """Gridrec, FBP in Fourier space (``tomo recon --algo gridrec``; TomoPy's default
    algorithm): FBP's filters and scaling, Kaiser-Bessel gridding chosen so that its own error
    stays below ``tolerance`` (default 1e-3 of the image's maximum). Other parameters
    (``oversampling``, ``kernel_width``, ``precision``) and everything else as
    :func:`reconstruct`.
    """
    return reconstruct(sinogram, angles, "gridrec", center=center, filter=filter, cutoff=cutoff,
                       size=size, pixel_size=pixel_size, backend=backend, tolerance=tolerance,
                       **keywords)


def _iterative(algorithm):
    def run(sinogram, angles, *, iterations=None, stop=None, callback=None, **keywords):
        return reconstruct(sinogram, angles, algorithm, iterations=iterations, stop=stop,
                           callback=callback, **keywords)

    spec = next(a for a in _core.algorithms() if a["id"] == algorithm)
    params = "\n".join(
        f"    {p['name'].replace('-', '_')}: {p['description']} (default {p['default']})"
        for p in spec["parameters"] if p["name"] not in ("iterations", "stop"))
    run.__name__ = run.__qualname__ = algorithm.replace("-", "_")
    run.__doc__ = (f"{spec['label']} (``tomo recon --algo {algorithm}``): {spec['description']}\n\n"
                   f"Reference: {spec['reference']}\n\nParameters of {algorithm} (keywords):\n"
                   f"{params}\n\nEverything else as :func:`reconstruct`.")
    return run


sirt = _iterative("sirt")
os_sirt = _iterative("os-sirt")
sart = _iterative("sart")
cgls = _iterative("cgls")
tv = _iterative("tv")
memxct = _iterative("memxct")
mbir = _iterative("mbir")


def fdk(projections, geometry, *, truth=None, progress=None, return_report=False, engine=None,
        **keywords):
    """Cone-beam FDK (``tomo recon --geometry``) in RTK's geometry and frame.

    projections: [views][rows][columns] line integrals (RTK's stack order).
    geometry: a :class:`~tomostation.geometry.ConeGeometry` (e.g.
        ``ConeGeometry.from_rtk_xml(path)``); its detector grid, else ``detector_pitch``, else
        1 mm centred; its volume, else ``size``/``volume``/``voxel_size``, else the detector's
        columns x rows x columns at the isocentre.
    Returns the volume [z][y][x] (RTK's memory order), or None when ``output`` names a file.
    """
    unknown = set(keywords) - set(FDK_FLAGS)
    if unknown:
        raise TypeError(f"fdk() got unexpected keyword argument(s) {', '.join(sorted(unknown))}")
    values = dict(keywords)
    size = values.pop("size", None)
    volume = values.pop("volume", None)
    flags = ["--output=" + str(values.pop("output", None) or "")]
    if volume is not None:
        flags.append("--volume=" + "x".join(str(int(n)) for n in volume))
    elif size is not None:
        flags.append(f"--size={int(size)}")
    flags += to_flags(values)
    truth = _truth(truth, flags)
    with progress_callback(progress, "fdk") as report_progress:
        image, report = _core.fdk(engine_or_default(engine), projections, geometry._file, flags,
                                  truth, report_progress)
    return (image, Report(report)) if return_report else image


def _document():
    options = _core.recon_options()

    def section(title, names):
        return f"\n\n    {title}:\n" + "\n".join("    " + line for line in
                                                 option_help(options, names).splitlines())

    reconstruct.__doc__ += (section("``tomo recon`` flags (keywords)", RECON_FLAGS) +
                            section("Iterative methods also", ITERATIVE_FLAGS))
    fbp.__doc__ += section("Keywords", RECON_FLAGS)
    fdk.__doc__ += section("Keywords (``tomo recon`` flags)", FDK_FLAGS)


_document()
