#pragma once
/// @file Arrays.h
/// @brief numpy arrays in and out of the reconstruction service without copies where the
/// layout allows.
///
/// In: a float32 array whose last axis is contiguous (any C-order float32 array, and slices of
/// one along the first axes) is borrowed as it is: the service's sources read their slabs
/// straight from its memory (the data pointer is shared; Float3::data is the array's). Any
/// other array (float64, Fortran order, a reversed or strided last axis, a list) is converted
/// to a C-order float32 copy with a tomostation.ConversionWarning naming what was converted.
///
/// Out: an Array3 (64-byte aligned rows, row pitch >= width) is handed to numpy without a copy:
/// the array owns it through a capsule and has the Array3's strides (C-contiguous when the
/// width is a multiple of 16 floats).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <cstddef>
#include <memory>
#include <string>

#include "app/recon/ProjectionSource.h"
#include "app/recon/SinogramSource.h"
#include "core/data/Array.h"

namespace tomo::python {

namespace py = pybind11;

/// A 3-D float32 stack borrowed from Python (or a converted copy of it), [n0][n1][n2].
struct Float3 {
    const float* data = nullptr;
    std::array<std::size_t, 3> shape{};
    std::array<std::size_t, 3> strides{};  ///< in floats; strides[2] == 1
    int ndim = 3;                          ///< of the array given (2-D arrays have n0 = 1)
    bool converted = false;                ///< a copy was made (and a warning issued)
    /// The array holding the memory; destroyed with the GIL held (Float3 lives on the Python
    /// thread; sources keep a shared copy, see borrowedSource).
    py::object owner;

    const float* row(std::size_t i0, std::size_t i1) const {
        return data + i0 * strides[0] + i1 * strides[1];
    }
};

/// @p obj as a 3-D stack. 2-D arrays are one plane (n0 = 1) when @p allow2d; other ranks are
/// InvalidArgument naming @p what and @p layout ("[angles][detectors]", ...).
Float3 borrowFloat3(py::handle obj, const std::string& what, const std::string& layout,
                    bool allow2d);

/// A copy of @p a as an Array3 (for core functions that take one, e.g. preprocessing).
Array3<float> copyToArray3(const Float3& a);

/// The sinograms [slice][angle][detector] of @p a as a source of the reconstruction service
/// (app/recon/SinogramSource.h) reading its slabs from the array's memory.
std::unique_ptr<app::SinogramSource> borrowedSinograms(const Float3& a);
/// The projections [view][v][u] of @p a as a cone-beam source (app/recon/ProjectionSource.h).
std::unique_ptr<app::ProjectionSource> borrowedProjections(const Float3& a);

/// @p a as a numpy array that owns it (no copy); 2-D when @p ndim is 2 and a has one plane.
py::array toNumpy(Array3<float>&& a, int ndim = 3);
/// A C-order copy of @p a (for iterates that live only during a callback).
py::array copyToNumpy(const Array3<float>& a, int ndim = 3);

}  // namespace tomo::python
