"""A drop-in for ``tomopy.recon``: TomoPy's array layout, centre convention, output shape and
algorithm names, reconstructed by TomoStation (``import tomostation.tomopy as
tomopy`` switches a script with one import). Conventions and the TomoPy files they come from
are written down in docs/python.md.

* Layout: ``tomo`` is [angles][rows][columns] (``sinogram_order=True``: [rows][angles][columns]),
  ``theta`` in radians (algorithm.py: init_tomo swaps axes 0 and 1 without copying; so do we).
* Centre: TomoPy's ray model (libtomo/recon/utils.c ``preprocessing``, project.c) puts detector
  pixel d at distance d + 0.5 - center from the axis, so TomoPy's ``center`` is TomoStation's
  ``center`` + 0.5; the default ``shape[2] / 2`` (sim/project.py ``get_center``) is the middle
  of the detector, TomoStation's default (columns - 1) / 2. One centre per slice is allowed.
* Angles: TomoPy's (x along the array's rows, y along its columns, rays along (cos t, sin t))
  and TomoStation's frame give the same detector coordinate for the same theta.
* Output: (rows, num_gridx, num_gridy), default num_gridx = num_gridy = columns
  (algorithm.py ``_get_algorithm_kwargs``), centred on the axis; float32. TomoPy does not mask
  the result; :func:`circ_mask` is TomoPy's mask (misc/corr.py ``_get_mask``).
"""
import math
import warnings

import numpy as np

from . import recon as _recon
from .errors import InvalidArgumentError, UnsupportedError

__all__ = ["recon", "circ_mask", "angles", "ALGORITHMS"]

#: TomoPy names TomoStation runs, and what runs them.
ALGORITHMS = {"gridrec": "fbp", "fbp": "fbp", "sirt": "sirt", "art": "sart", "bart": "os-sirt",
              "tv": "tv"}
#: TomoPy names TomoStation does not have, and the nearest it has.
NEAREST = {"mlem": "sirt", "osem": "sirt", "pml_hybrid": "tv", "pml_quad": "tv",
           "ospml_hybrid": "tv", "ospml_quad": "tv", "grad": "sirt", "tikh": "cgls (through "
           "tomostation.cgls with lambda)"}
#: TomoPy filter names (gridrec/fbp) and TomoStation's.
FILTERS = {"ramlak": "ramp", "shepp": "shepp-logan", "cosine": "cosine", "hann": "hann",
           "hamming": "hamming"}
FILTER_NEAREST = {"parzen": "hann", "butterworth": "hann", "none": "ramp", "custom": "ramp",
                  "custom2d": "ramp"}

_noted = set()


def _builtin_algorithms():
    from . import _tomostation
    return {a["id"] for a in _tomostation.algorithms()}


def _note_once(key, text):
    if key not in _noted:
        _noted.add(key)
        warnings.warn(text, stacklevel=3)


def _algorithm(name):
    if callable(name) or name is None:
        raise InvalidArgumentError(
            f"algorithm must be one of {sorted(ALGORITHMS)} (TomoStation runs no Python method)")
    if name in ALGORITHMS:
        if name == "gridrec":
            if "gridrec" in _builtin_algorithms():  # the front door's own gridrec (issue 31)
                return "gridrec"
            _note_once("gridrec", "tomostation.tomopy: 'gridrec' runs TomoStation's FBP (the "
                       "same filter, direct back-projection, not a Fourier-grid method)")
        return ALGORITHMS[name]
    if name in NEAREST:
        raise UnsupportedError(f"TomoPy's algorithm '{name}' is not in TomoStation; the nearest "
                               f"it has is '{NEAREST[name]}'")
    raise InvalidArgumentError(f"unknown algorithm '{name}' (TomoStation runs "
                               f"{', '.join(sorted(ALGORITHMS))})")


def _filter(name):
    if name in FILTERS:
        return FILTERS[name]
    if name in FILTER_NEAREST:
        raise UnsupportedError(f"TomoPy's filter '{name}' is not in TomoStation; the nearest it "
                               f"has is '{FILTER_NEAREST[name]}'")
    raise InvalidArgumentError(f"unknown filter_name '{name}' (known: {', '.join(FILTERS)})")


def _keywords(algorithm, kwargs, columns):
    """TomoPy's keyword arguments as TomoStation's."""
    out = {}
    gx, gy = kwargs.pop("num_gridx", columns), kwargs.pop("num_gridy", columns)
    if int(gx) != int(gy):
        raise UnsupportedError(f"num_gridx {gx} != num_gridy {gy}: TomoStation reconstructs "
                               "square slices")
    out["size"] = int(gx)
    if algorithm in ("fbp", "gridrec"):
        out["filter"] = _filter(kwargs.pop("filter_name", "shepp"))
        kwargs.pop("filter_par", None)
    else:
        out["iterations"] = int(kwargs.pop("num_iter", 1))
        if algorithm == "os-sirt":
            out["subsets"] = int(kwargs.pop("num_block", 1))
            kwargs.pop("ind_block", None)
        if algorithm == "tv" and "reg_par" in kwargs:
            out["lambda"] = float(np.ravel(kwargs.pop("reg_par"))[0])
    if kwargs:
        raise InvalidArgumentError(f"keyword(s) {', '.join(sorted(kwargs))} not allowed for "
                                   f"this algorithm in tomostation.tomopy")
    return out


def recon(tomo, theta, center=None, sinogram_order=False, algorithm=None, init_recon=None,
          ncore=None, nchunk=None, **kwargs):
    """TomoPy's ``recon`` (tomopy/recon/algorithm.py) on TomoStation: same arguments, layout,
    centre, output shape (rows, num_gridx, num_gridy) and float32 result. ``ncore`` sets the
    threads; ``nchunk`` is ignored (TomoStation chooses its own batches)."""
    method = _algorithm(algorithm)
    sino = np.asarray(tomo)
    if sino.ndim != 3:
        raise InvalidArgumentError(f"tomo: expected 3-D data, got shape {sino.shape}")
    if sino.dtype != np.float32:
        sino = sino.astype(np.float32)
    if not sinogram_order:
        sino = np.swapaxes(sino, 0, 1)  # [rows][angles][columns], a view (read in place)
    rows, _, columns = sino.shape
    options = _keywords(method, dict(kwargs), columns)
    if ncore is not None:
        options["threads"] = int(ncore)
    centers = np.full(rows, columns / 2.0) if center is None else \
        np.broadcast_to(np.asarray(center, dtype=np.float64).ravel(), (rows,))
    initial = None if init_recon is None else np.asarray(init_recon, dtype=np.float32)
    if method in ("fbp", "gridrec"):
        initial = None
    out = np.empty((rows, options["size"], options["size"]), dtype=np.float32)
    # One request per run of slices with the same centre (TomoPy allows one per slice).
    start = 0
    while start < rows:
        end = start + 1
        while end < rows and centers[end] == centers[start]:
            end += 1
        init = None if initial is None else initial[start:end]
        out[start:end] = _recon.reconstruct(
            sino[start:end], theta, method, center=float(centers[start]) - 0.5, initial=init,
            **options)
        start = end
    return out


def circ_mask(arr, axis, ratio=1, val=0.0, ncore=None):
    """TomoPy's ``circ_mask`` (tomopy/misc/corr.py): values outside the circle of diameter
    ``ratio`` x the smaller edge of the planes normal to ``axis`` set to ``val``; pixel (i, j)
    is inside when its centre's distance from the array's centre is below the radius."""
    a = np.array(arr, dtype=np.float32, copy=True)
    planes = np.moveaxis(a, axis, 0)
    ny, nx = planes.shape[1:]
    y = np.arange(ny) - (ny - 1) / 2.0
    x = np.arange(nx) - (nx - 1) / 2.0
    radius = min(ny, nx) / 2.0
    inside = x[None, :] ** 2 + y[:, None] ** 2 < (ratio * radius) ** 2
    planes[:, ~inside] = np.float32(val)
    return a


def angles(nang, ang1=0.0, ang2=180.0):
    """TomoPy's ``angles`` (tomopy/sim/project.py): ``nang`` angles from ``ang1`` to ``ang2``
    degrees *inclusive*, in radians."""
    return np.linspace(ang1 * math.pi / 180.0, ang2 * math.pi / 180.0, nang)
