#pragma once
/// @file Status.h
/// @brief Errors as values: `Status` carries an error code and a human-readable message;
/// `Result<T>` carries either a value or a failing `Status`. Nothing in TomoStation aborts on bad
/// input or on an exhausted device: functions return these instead.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace tomo {

/// Broad error classes. The CLI maps them to exit codes (see app/cli/ExitCodes.h).
enum class ErrorCode {
    Ok = 0,
    InvalidArgument,  ///< a parameter or option is out of range or inconsistent
    InvalidData,      ///< input data is malformed (wrong size, NaN/Inf, bad header)
    NotFound,         ///< a file, dataset or device does not exist
    IoError,          ///< reading or writing failed
    OutOfMemory,      ///< host or device memory exhausted
    Cancelled,        ///< the job's stop token was triggered
    Unsupported,      ///< the feature is not available in this build or on this device
    DeviceError,      ///< a GPU runtime reported an error
    Internal,         ///< a bug: an invariant did not hold
};

/// Short stable name of an error code ("invalid-argument", ...).
const char* errorCodeName(ErrorCode code);

/// @brief The outcome of an operation: OK, or an error code with a message.
/// Messages name the cause ("sinogram.raw: size 4000 bytes does not match --shape 10x100 (4000x1
/// float32 expected)") so that they can be shown to the user as they are.
class [[nodiscard]] Status {
  public:
    Status() = default;
    Status(ErrorCode code, std::string message) : m_code(code), m_message(std::move(message)) {}

    static Status ok() { return {}; }
    bool isOk() const { return m_code == ErrorCode::Ok; }
    explicit operator bool() const { return isOk(); }
    ErrorCode code() const { return m_code; }
    const std::string& message() const { return m_message; }

    /// Returns a copy whose message is prefixed with @p context ("reading x.tif: ...").
    Status withContext(const std::string& context) const;
    /// "invalid-argument: message" (or "ok").
    std::string toString() const;

  private:
    ErrorCode m_code = ErrorCode::Ok;
    std::string m_message;
};

inline Status invalidArgument(std::string m) {
    return {ErrorCode::InvalidArgument, std::move(m)};
}
inline Status invalidData(std::string m) {
    return {ErrorCode::InvalidData, std::move(m)};
}
inline Status notFound(std::string m) {
    return {ErrorCode::NotFound, std::move(m)};
}
inline Status ioError(std::string m) {
    return {ErrorCode::IoError, std::move(m)};
}
inline Status outOfMemory(std::string m) {
    return {ErrorCode::OutOfMemory, std::move(m)};
}
inline Status cancelled(std::string m = "cancelled") {
    return {ErrorCode::Cancelled, std::move(m)};
}
inline Status unsupported(std::string m) {
    return {ErrorCode::Unsupported, std::move(m)};
}
inline Status deviceError(std::string m) {
    return {ErrorCode::DeviceError, std::move(m)};
}
inline Status internalError(std::string m) {
    return {ErrorCode::Internal, std::move(m)};
}

/// @brief A value of type T or a failing Status. Construct from either; never from an OK status.
template <class T>
class [[nodiscard]] Result {
  public:
    Result(T value) : m_data(std::move(value)) {}        // NOLINT(google-explicit-constructor)
    Result(Status status) : m_data(std::move(status)) {  // NOLINT(google-explicit-constructor)
        assert(!std::get<Status>(m_data).isOk() && "Result built from an OK status");
    }

    bool isOk() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return isOk(); }

    /// The error; an OK Status when a value is held.
    Status status() const { return isOk() ? Status::ok() : std::get<Status>(m_data); }

    T& value() & { return std::get<T>(m_data); }
    const T& value() const& { return std::get<T>(m_data); }
    T&& value() && { return std::get<T>(std::move(m_data)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

  private:
    std::variant<T, Status> m_data;
};

}  // namespace tomo

/// Returns early from the enclosing function when @p expr (a Status) fails.
#define TOMO_RETURN_IF_ERROR(expr)                   \
    do {                                             \
        ::tomo::Status tomoStatus_ = (expr);         \
        if (!tomoStatus_.isOk()) return tomoStatus_; \
    } while (false)

#define TOMO_CONCAT_INNER_(a, b) a##b
#define TOMO_CONCAT_(a, b) TOMO_CONCAT_INNER_(a, b)

/// `TOMO_ASSIGN_OR_RETURN(auto x, makeX());` declares x from a Result or returns its Status.
#define TOMO_ASSIGN_OR_RETURN(decl, expr)                    \
    auto TOMO_CONCAT_(tomoResult_, __LINE__) = (expr);       \
    if (!TOMO_CONCAT_(tomoResult_, __LINE__).isOk())         \
        return TOMO_CONCAT_(tomoResult_, __LINE__).status(); \
    decl = std::move(TOMO_CONCAT_(tomoResult_, __LINE__)).value()
