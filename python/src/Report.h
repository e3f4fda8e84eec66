#pragma once
/// @file Report.h
/// @brief ReconReport and IterationInfo as Python dicts (tomostation/report.py wraps them).

#include <pybind11/pybind11.h>

#include "app/recon/ReconService.h"
#include "core/solvers/IterationInfo.h"

namespace tomo::python {

namespace py = pybind11;

/// Everything of @p r but the image and its first slice (returned as arrays).
py::dict reportDict(const app::ReconReport& r);
/// The numbers of one iteration and where its slab lies.
py::dict iterationDict(const IterationInfo& info, const app::SlabInfo& slab);

}  // namespace tomo::python
