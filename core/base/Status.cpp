#include "core/base/Status.h"

namespace tomo {

const char* errorCodeName(ErrorCode code) {
    switch (code) {
        case ErrorCode::Ok:
            return "ok";
        case ErrorCode::InvalidArgument:
            return "invalid-argument";
        case ErrorCode::InvalidData:
            return "invalid-data";
        case ErrorCode::NotFound:
            return "not-found";
        case ErrorCode::IoError:
            return "io-error";
        case ErrorCode::OutOfMemory:
            return "out-of-memory";
        case ErrorCode::Cancelled:
            return "cancelled";
        case ErrorCode::Unsupported:
            return "unsupported";
        case ErrorCode::DeviceError:
            return "device-error";
        case ErrorCode::Internal:
            return "internal";
    }
    return "unknown";
}

Status Status::withContext(const std::string& context) const {
    if (isOk()) return *this;
    return {m_code, context + ": " + m_message};
}

std::string Status::toString() const {
    if (isOk()) return "ok";
    return std::string(errorCodeName(m_code)) + ": " + m_message;
}

}  // namespace tomo
