// Cone-beam geometry (core/cone/ConeGeometry.h, ConeGeometryIo.h) for tomostation.ConeGeometry.
#include <pybind11/stl.h>

#include "core/cone/ConeGeometryIo.h"
#include "python/src/Bindings.h"
#include "python/src/Errors.h"

namespace tomo::python {
namespace {

/// The validated geometry of @p file (a detector is needed: the file's, else InvalidArgument).
ConeGeometry geometryOf(const ConeGeometryFile& file) {
    if (!file.detector)
        raise(
            invalidArgument("the geometry has no detector grid (RTK XML files have none: give "
                            "detector_shape and detector_pitch)"));
    return unwrap(ConeGeometry::create(file.views, *file.detector));
}

void bindTypes(py::module_& m) {
    py::class_<ConeView>(m, "ConeView", "RTK's nine per-view parameters (mm, radians).")
        .def(py::init<>())
        .def_readwrite("sid", &ConeView::sid)
        .def_readwrite("sdd", &ConeView::sdd)
        .def_readwrite("gantry_angle", &ConeView::gantryAngle)
        .def_readwrite("proj_offset_x", &ConeView::projOffsetX)
        .def_readwrite("proj_offset_y", &ConeView::projOffsetY)
        .def_readwrite("out_of_plane_angle", &ConeView::outOfPlaneAngle)
        .def_readwrite("in_plane_angle", &ConeView::inPlaneAngle)
        .def_readwrite("source_offset_x", &ConeView::sourceOffsetX)
        .def_readwrite("source_offset_y", &ConeView::sourceOffsetY);
    py::class_<DetectorGrid>(m, "DetectorGrid", "The detector's pixel grid (mm).")
        .def(py::init<>())
        .def_static("centred", &DetectorGrid::centred, py::arg("nu"), py::arg("nv"),
                    py::arg("pitch_u"), py::arg("pitch_v"))
        .def_readwrite("nu", &DetectorGrid::nu)
        .def_readwrite("nv", &DetectorGrid::nv)
        .def_readwrite("pitch_u", &DetectorGrid::pitchU)
        .def_readwrite("pitch_v", &DetectorGrid::pitchV)
        .def_readwrite("origin_u", &DetectorGrid::originU)
        .def_readwrite("origin_v", &DetectorGrid::originV);
    py::class_<ConeVolumeGrid>(m, "ConeVolumeGrid", "RTK's volume grid (mm).")
        .def(py::init<>())
        .def_static("centred", &ConeVolumeGrid::centred, py::arg("nx"), py::arg("ny"),
                    py::arg("nz"), py::arg("spacing"))
        .def_readwrite("nx", &ConeVolumeGrid::nx)
        .def_readwrite("ny", &ConeVolumeGrid::ny)
        .def_readwrite("nz", &ConeVolumeGrid::nz)
        .def_readwrite("spacing_x", &ConeVolumeGrid::spacingX)
        .def_readwrite("spacing_y", &ConeVolumeGrid::spacingY)
        .def_readwrite("spacing_z", &ConeVolumeGrid::spacingZ)
        .def_readwrite("origin_x", &ConeVolumeGrid::originX)
        .def_readwrite("origin_y", &ConeVolumeGrid::originY)
        .def_readwrite("origin_z", &ConeVolumeGrid::originZ);
    py::class_<ConeGeometryFile>(m, "ConeGeometryFile",
                                 "Views, and optionally the detector and volume grids.")
        .def(py::init<>())
        .def_readwrite("views", &ConeGeometryFile::views)
        .def_readwrite("detector", &ConeGeometryFile::detector)
        .def_readwrite("volume", &ConeGeometryFile::volume)
        .def_readwrite("format", &ConeGeometryFile::format);
}

}  // namespace

void bindCone(py::module_& m) {
    bindTypes(m);
    m.def(
        "read_cone_geometry",
        [](const std::string& path) { return unwrap(readConeGeometryFile(path)); }, py::arg("path"),
        "RTK XML or TomoStation JSON (by content).");
    m.def(
        "write_cone_geometry",
        [](const std::string& path, const ConeGeometryFile& file) {
            const ConeGeometry g = geometryOf(file);
            check(writeConeGeometryFile(path, g, file.volume ? &*file.volume : nullptr));
        },
        py::arg("path"), py::arg("geometry"), "By extension: .xml RTK XML, .json JSON.");
    m.def(
        "cone_view_from_matrix",
        [](const Matrix34& matrix) { return unwrap(coneViewFromMatrix(matrix)); },
        py::arg("matrix"), "RTK's nine parameters of a 3x4 projection matrix (world mm -> mm).");
    m.def(
        "cone_matrices",
        [](const ConeGeometryFile& file) {
            const ConeGeometry g = geometryOf(file);
            std::vector<Matrix34> out;
            for (int k = 0; k < g.viewCount(); ++k)
                out.push_back(g.matrix(k));
            return out;
        },
        py::arg("geometry"), "RTK's matrix of every view (world mm -> detector mm).");
    m.def(
        "describe_cone", [](const ConeGeometryFile& file) { return describe(geometryOf(file)); },
        py::arg("geometry"));
}

}  // namespace tomo::python
