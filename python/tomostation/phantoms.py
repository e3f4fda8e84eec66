"""Analytic phantoms with exact line integrals, as ``tomo phantom`` computes them."""
import collections

import numpy as np

from . import _tomostation as _core
from ._flags import to_flags
from ._progress import progress_callback
from .geometry import ConeGeometry

__all__ = ["phantom", "Phantom"]

#: data: sinograms [angles][detectors] (or [slices][angles][detectors]), or cone-beam
#: projections [views][rows][columns]; truth: the supersampled ground truth (None unless
#: asked); angles: radians; center: the rotation axis used (detector pixels); geometry: the
#: cone-beam ConeGeometry (None for parallel beam).
Phantom = collections.namedtuple("Phantom", "data truth angles center geometry")


def phantom(size=256, *, phantom="shepp-logan", angles=None, detectors=None, slices=None,
            rays=None, center=None, noise=None, attenuation_scale=None, seed=None,
            supersample=None, truth=True, cone=False, sid=None, sdd=None, views=None, arc=None,
            threads=None, progress=None):
    """Exact projections of an analytic phantom and its ground truth (``tomo phantom``).

    size: the N x N image (or N^3 volume) the phantom spans; units are its pixels.
    angles: parallel beam: a count over [0, 180) degrees, or ``tomo phantom``'s
        ``"START:STOP:COUNT"`` in degrees (default ceil(N pi / 2) over 180 degrees).
    cone: cone-beam projections in RTK's frame (``sid``, ``sdd``, ``views``, ``arc`` in
        degrees) with their :class:`~tomostation.geometry.ConeGeometry`.
    Other keywords are ``tomo phantom``'s flags. One slice gives 2-D arrays.
    """
    if isinstance(angles, (int, np.integer)):
        angles = f"0:180:{int(angles)}"
    values = {"phantom": phantom, "size": size, "angles": angles, "detectors": detectors,
              "slices": slices, "rays": rays, "center": center, "noise": noise,
              "attenuation_scale": attenuation_scale, "seed": seed,
              "supersample": supersample, "cone": cone, "sid": sid, "sdd": sdd,
              "views": views, "arc": arc, "threads": threads}
    flags = to_flags(values, switches=("cone",))
    with progress_callback(progress, "phantom") as report:
        data, true_image, info = _core.phantom(flags, bool(truth), report)
    if cone:
        g = ConeGeometry(info["geometry"])
        return Phantom(data, true_image, g.angles, None, g)
    if data.shape[0] == 1:
        data = data[0]
        true_image = None if true_image is None else true_image[0]
    return Phantom(data, true_image, np.asarray(info["angles"]), info["center"], None)
