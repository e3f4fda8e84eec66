"""Cone-beam geometry in RTK's frame (core/cone/ConeGeometry.h, docs/cone-beam.md).

World x, y, z in mm with the origin at the isocentre and the rotation axis along y; at gantry
angle 0 the source is at z = sid and the detector plane at z = sid - sdd; detector u runs along
x, v along y. Angles are radians here (RTK's XML files store degrees; the reader converts).
"""
import numpy as np

from . import _tomostation as _core

__all__ = ["ConeGeometry"]


def _pair(value, name):
    a = np.broadcast_to(np.asarray(value, dtype=np.float64).ravel(), (2,))
    if a.size != 2:
        raise ValueError(f"{name}: expected one number or two")
    return float(a[0]), float(a[1])


class ConeGeometry:
    """Views (RTK's nine parameters each), and optionally the detector and volume grids."""

    def __init__(self, file):
        self._file = file

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def from_rtk_xml(cls, path):
        """RTK's ThreeDCircularProjectionGeometry XML (as rtksimulatedgeometry writes it), or a
        TomoStation JSON geometry: read by the same reader as ``tomo recon --geometry``."""
        return cls(_core.read_cone_geometry(str(path)))

    from_file = from_rtk_xml

    @classmethod
    def circular(cls, sid, sdd, angles, *, detector_offset=(0.0, 0.0), source_offset=(0.0, 0.0),
                 detector_shape=None, detector_pitch=None, detector_origin=None):
        """A circular scan: ``angles`` (radians) of the gantry, the same ``sid`` and ``sdd`` (mm)
        for every view, as ``tomo recon --sid --sdd --angles`` builds it."""
        f = _core.ConeGeometryFile()
        views = []
        for a in np.asarray(angles, dtype=np.float64).ravel():
            v = _core.ConeView()
            v.sid, v.sdd, v.gantry_angle = float(sid), float(sdd), float(a)
            v.proj_offset_x, v.proj_offset_y = _pair(detector_offset, "detector_offset")
            v.source_offset_x, v.source_offset_y = _pair(source_offset, "source_offset")
            views.append(v)
        f.views = views
        f.format = "python"
        g = cls(f)
        if detector_shape is not None:
            g = g.with_detector(detector_shape, detector_pitch or 1.0, detector_origin)
        return g

    @classmethod
    def from_matrices(cls, matrices, detector_shape, detector_pitch=1.0, detector_origin=None):
        """Per-view 3x4 projection matrices (world mm -> detector mm, homogeneous), decomposed
        into RTK's nine parameters as RTK's AddProjection(matrix) does. ``detector_shape`` is
        (columns, rows) = (nu, nv)."""
        f = _core.ConeGeometryFile()
        f.views = [_core.cone_view_from_matrix(np.asarray(m, dtype=np.float64).tolist())
                   for m in np.asarray(matrices, dtype=np.float64).reshape(-1, 3, 4)]
        f.format = "matrices"
        return cls(f).with_detector(detector_shape, detector_pitch, detector_origin)

    def with_detector(self, shape, pitch=1.0, origin=None):
        """A copy with a detector of ``shape`` = (nu, nv) pixels of ``pitch`` (mm, one or
        (u, v)); ``origin``: the centre of pixel (0, 0) in mm (default: centred)."""
        pu, pv = _pair(pitch, "detector_pitch")
        d = _core.DetectorGrid.centred(int(shape[0]), int(shape[1]), pu, pv)
        if origin is not None:
            d.origin_u, d.origin_v = _pair(origin, "detector_origin")
        f = self._copy()
        f.detector = d
        return ConeGeometry(f)

    def with_volume(self, shape, spacing=1.0, origin=None):
        """A copy with the volume grid ``shape`` = (nx, ny, nz) of ``spacing`` mm, centred on
        the isocentre unless ``origin`` (centre of voxel (0, 0, 0), mm) is given."""
        v = _core.ConeVolumeGrid.centred(int(shape[0]), int(shape[1]), int(shape[2]),
                                         float(spacing))
        if origin is not None:
            v.origin_x, v.origin_y, v.origin_z = (float(o) for o in origin)
        f = self._copy()
        f.volume = v
        return ConeGeometry(f)

    def _copy(self):
        f = _core.ConeGeometryFile()
        f.views, f.detector, f.volume, f.format = (self._file.views, self._file.detector,
                                                   self._file.volume, self._file.format)
        return f

    # --- reading ------------------------------------------------------------------------------
    @property
    def views(self):
        """The views' parameters as dicts (mm, radians)."""
        names = ("sid", "sdd", "gantry_angle", "proj_offset_x", "proj_offset_y",
                 "out_of_plane_angle", "in_plane_angle", "source_offset_x", "source_offset_y")
        return [{n: getattr(v, n) for n in names} for v in self._file.views]

    @property
    def angles(self):
        """Gantry angles in radians."""
        return np.array([v.gantry_angle for v in self._file.views])

    @property
    def detector(self):
        return self._file.detector

    @property
    def volume(self):
        return self._file.volume

    def __len__(self):
        return len(self._file.views)

    def matrices(self):
        """RTK's projection matrix of every view, [views][3][4] (needs the detector grid)."""
        return np.array(_core.cone_matrices(self._file))

    def write(self, path):
        """RTK XML (``.xml``) or TomoStation JSON (``.json``), as ``tomo phantom --cone``."""
        _core.write_cone_geometry(str(path), self._file)

    def __repr__(self):
        try:
            return f"ConeGeometry({_core.describe_cone(self._file)})"
        except Exception:  # no detector yet
            return f"ConeGeometry({len(self)} views, no detector grid)"
