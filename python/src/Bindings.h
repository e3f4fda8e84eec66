#pragma once
/// @file Bindings.h
/// @brief The parts of the extension module tomostation._tomostation (Module.cpp).

#include <pybind11/pybind11.h>

namespace tomo::python {

namespace py = pybind11;

void bindRecon(py::module_& m);    ///< recon(), fdk() (Recon.cpp)
void bindCone(py::module_& m);     ///< cone-beam geometry types and files (Cone.cpp)
void bindData(py::module_& m);     ///< read, write, info, preprocess, find_center, phantom
void bindDevices(py::module_& m);  ///< Engine, devices, tune, algorithms, build_info

}  // namespace tomo::python
