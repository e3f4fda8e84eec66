#include "core/io/AtomicFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>
#include <utility>

namespace tomo {
namespace {

std::string reason(int err) {
    return std::generic_category().message(err);
}

constexpr int kMaxNameAttempts = 10000;

}  // namespace

Result<AtomicFile> AtomicFile::create(const std::filesystem::path& target) {
    if (target.empty() || !target.has_filename())
        return invalidArgument("cannot write '" + target.string() + "': not a file name");
    std::filesystem::path dir = target.parent_path();
    std::string base = target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-";
    for (int n = 0; n < kMaxNameAttempts; ++n) {
        std::filesystem::path temp = dir / (base + std::to_string(n));
        int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return AtomicFile(target, std::move(temp), fd);
        int err = errno;
        if (err == EINTR || err == EEXIST) continue;
        std::string where = dir.empty() ? std::string(".") : dir.string();
        return ioError("cannot write " + target.string() + ": cannot create a file in '" + where +
                       "': " + reason(err));
    }
    return ioError("cannot write " + target.string() + ": no free temporary name after " +
                   std::to_string(kMaxNameAttempts) + " attempts");
}

AtomicFile::AtomicFile(std::filesystem::path target, std::filesystem::path temp, int fd)
    : m_target(std::move(target)), m_temp(std::move(temp)), m_fd(fd) {}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : m_target(std::move(other.m_target)),
      m_temp(std::move(other.m_temp)),
      m_fd(std::exchange(other.m_fd, -1)),
      m_committed(std::exchange(other.m_committed, true)) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
    if (this != &other) {
        discard();
        m_target = std::move(other.m_target);
        m_temp = std::move(other.m_temp);
        m_fd = std::exchange(other.m_fd, -1);
        m_committed = std::exchange(other.m_committed, true);
    }
    return *this;
}

AtomicFile::~AtomicFile() {
    discard();
}

void AtomicFile::discard() noexcept {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
    if (!m_committed && !m_temp.empty()) ::unlink(m_temp.c_str());
    m_committed = true;
}

Status AtomicFile::write(const void* bytes, std::size_t size) {
    if (m_fd < 0) return internalError("AtomicFile::write after the descriptor was released");
    const char* p = static_cast<const char*>(bytes);
    while (size > 0) {
        ssize_t n = ::write(m_fd, p, size);
        if (n < 0) {
            int err = errno;
            if (err == EINTR) continue;
            return ioError("cannot write " + m_target.string() + ": " + reason(err));
        }
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return Status::ok();
}

int AtomicFile::releaseFd() {
    return std::exchange(m_fd, -1);
}

Status AtomicFile::commit() {
    if (m_committed) return internalError("AtomicFile::commit called twice");
    if (m_fd >= 0) {
        int fd = std::exchange(m_fd, -1);
        if (::fsync(fd) != 0 && errno != EINVAL) {  // EINVAL: file system without fsync
            int err = errno;
            ::close(fd);
            discard();
            return ioError("cannot write " + m_target.string() + ": fsync failed: " + reason(err));
        }
        if (::close(fd) != 0) {
            int err = errno;
            discard();
            return ioError("cannot write " + m_target.string() + ": close failed: " + reason(err));
        }
    }
    if (std::rename(m_temp.c_str(), m_target.c_str()) != 0) {
        int err = errno;
        discard();
        return ioError("cannot write " + m_target.string() + ": rename from " + m_temp.string() +
                       " failed: " + reason(err));
    }
    m_committed = true;
    return Status::ok();
}

}  // namespace tomo
