#pragma once
/// @file Errors.h
/// @brief Status values raised as Python exceptions (tomostation/errors.py: one class per
/// ErrorCode, each also a subclass of the built-in exception a Python user expects, e.g.
/// InvalidArgumentError is a ValueError), with the message the CLI prints. And warnings.

#include <pybind11/pybind11.h>

#include <string>

#include "core/base/Status.h"

namespace tomo::python {

namespace py = pybind11;

/// Sets the Python exception of @p status (its class by code, its message as is) and throws
/// py::error_already_set, which pybind11 hands to Python. @p status must not be OK.
[[noreturn]] void raise(const Status& status);

/// Raises when @p status is not OK.
inline void check(const Status& status) {
    if (!status.isOk()) raise(status);
}

/// The value of @p result, or raises its status.
template <class T>
T unwrap(Result<T>&& result) {
    if (!result.isOk()) raise(result.status());
    return std::move(*result);
}

/// Issues tomostation.ConversionWarning (a UserWarning) with @p message; raises when the
/// warnings filter turns it into an error.
void warnConversion(const std::string& message);

}  // namespace tomo::python
