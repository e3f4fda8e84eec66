"""Forward projection, as ``tomo project`` computes it (core/projectors/ForwardProjector.h)."""
import numpy as np

from . import _tomostation as _core
from ._flags import to_flags
from ._progress import progress_callback

__all__ = ["project"]


def project(image, angles, *, detectors=None, detector_pitch=None, center=None, pixel_size=None,
            roi_center=None, threads=None, progress=None):
    """Parallel-beam sinograms of ``image`` by Joseph's method (``tomo project``): line integrals
    with linear interpolation along each pixel row a ray crosses, the operator ASTRA calls
    ``"linear"`` (``astra.create_sino`` with that projector), in the length unit of the pitch.

    image: [rows][columns] or [slices][rows][columns], square slices, row 0 at the top (+y up),
        as :func:`~tomostation.fbp` returns them.
    angles: radians. detectors: default enough to span the image, so that
        ``fbp(project(image, angles), angles)`` rebuilds the same grid. detector_pitch, center,
        pixel_size, roi_center mean what :func:`~tomostation.fbp`'s keywords of the same name
        mean. Returns [angles][detectors] for a 2-D image, else [slices][angles][detectors].
    """
    values = {"detectors": detectors, "detector_pitch": detector_pitch, "center": center,
              "pixel_size": pixel_size, "roi_center": roi_center, "threads": threads}
    flags = to_flags(values)
    a = np.asarray(angles, dtype=np.float64).ravel()
    with progress_callback(progress, "project") as report:
        return _core.project(image, a, flags, report)
