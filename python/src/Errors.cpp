// Status values as Python exceptions (Errors.h).
#include "python/src/Errors.h"

namespace tomo::python {
namespace {

/// The class name in tomostation.errors of each code.
const char* className(ErrorCode code) {
    switch (code) {
        case ErrorCode::InvalidArgument:
            return "InvalidArgumentError";
        case ErrorCode::InvalidData:
            return "InvalidDataError";
        case ErrorCode::NotFound:
            return "NotFoundError";
        case ErrorCode::IoError:
            return "OutputError";
        case ErrorCode::OutOfMemory:
            return "OutOfMemoryError";
        case ErrorCode::Cancelled:
            return "Cancelled";
        case ErrorCode::Unsupported:
            return "UnsupportedError";
        case ErrorCode::DeviceError:
            return "DeviceError";
        case ErrorCode::Ok:
        case ErrorCode::Internal:
            break;
    }
    return "InternalError";
}

}  // namespace

void raise(const Status& status) {
    const py::object errors = py::module_::import("tomostation.errors");
    const py::object cls = errors.attr(className(status.code()));
    PyErr_SetString(cls.ptr(), status.message().c_str());
    throw py::error_already_set();
}

void warnConversion(const std::string& message) {
    const py::object errors = py::module_::import("tomostation.errors");
    const py::object category = errors.attr("ConversionWarning");
    if (PyErr_WarnEx(category.ptr(), message.c_str(), 2) != 0) throw py::error_already_set();
}

}  // namespace tomo::python
