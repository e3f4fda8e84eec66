// Float32 planes at a fixed place in a file, written by one process or several (PlaneFile.h).
#include "core/dataset/PlaneFile.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

namespace tomo {
namespace {

static_assert(std::endian::native == std::endian::little,
              "planes are float32 little-endian; add byte swapping for this host");

std::string shapeText(const std::array<std::size_t, 3>& s) {
    return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

/// Reads (or writes) the rows of @p slab with preadv/pwritev: the rows of consecutive planes are
/// contiguous in the file, so one call moves up to IOV_MAX rows (the slab's row padding is
/// skipped by the iovecs).
template <class Slab>  // Array3<float> to read, const Array3<float> to write
Status transferRows(int fd, Slab& slab, std::size_t first, const std::array<std::size_t, 3>& shape,
                    std::uint64_t base, bool read, const std::string& name) {
    const std::size_t rowBytes = shape[2] * sizeof(float);
    const std::size_t rows = slab.dim(0) * slab.dim(1);
    constexpr std::size_t kBatch = 1024;  // IOV_MAX on Linux
    std::vector<iovec> iov;
    for (std::size_t r0 = 0; r0 < rows; r0 += kBatch) {
        const std::size_t n = std::min(kBatch, rows - r0);
        iov.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            iov[i] = {const_cast<float*>(slab.rows().row(r0 + i).data()),
                      rowBytes};  // iovec is not const
        auto offset = static_cast<off_t>(base + (first * shape[1] + r0) * rowBytes);
        std::size_t next = 0;  // first iovec not yet complete
        while (next < n) {
            const ssize_t got = read
                                    ? ::preadv(fd, &iov[next], static_cast<int>(n - next), offset)
                                    : ::pwritev(fd, &iov[next], static_cast<int>(n - next), offset);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0)
                return ioError(name + (read ? ": cannot read: " : ": cannot write: ") +
                               (got == 0 ? std::string("unexpected end of file")
                                         : std::string(std::strerror(errno))));
            offset += got;
            for (auto left = static_cast<std::size_t>(got); left > 0;) {
                const std::size_t take = std::min(left, iov[next].iov_len);
                iov[next].iov_base = static_cast<char*>(iov[next].iov_base) + take;
                iov[next].iov_len -= take;
                left -= take;
                if (iov[next].iov_len == 0) ++next;
            }
        }
    }
    return Status::ok();
}

Status syncFd(int fd, const std::string& name) {
    if (::fsync(fd) != 0 && errno != EINVAL)  // EINVAL: a file system without fsync
        return ioError(name + ": fsync failed: " + std::strerror(errno));
    return Status::ok();
}

class PlaneFileVolumeWriter final : public VolumeWriter {
  public:
    PlaneFileVolumeWriter(AtomicFile file, int fd, std::uint64_t offset,
                          std::array<std::size_t, 3> shape)
        : m_file(std::move(file)),
          m_fd(fd),
          m_offset(offset),
          m_shape(shape),
          m_written(shape[0], false) {}
    ~PlaneFileVolumeWriter() override {
        if (m_fd >= 0) ::close(m_fd);  // before AtomicFile removes the uncommitted file
    }
    PlaneFileVolumeWriter(const PlaneFileVolumeWriter&) = delete;
    PlaneFileVolumeWriter& operator=(const PlaneFileVolumeWriter&) = delete;

    std::array<std::size_t, 3> shape() const override { return m_shape; }

    Status writeSlab(std::size_t first, const Array3<float>& slab) override {
        const std::string name = m_file.target().string();
        if (m_fd < 0) return invalidArgument(name + ": already committed");
        TOMO_RETURN_IF_ERROR(checkPlaneSlab(m_shape, first, slab, name));
        TOMO_RETURN_IF_ERROR(writePlaneRows(m_fd, slab, first, m_shape, m_offset, name));
        markWritten(first, slab.dim(0));
        return Status::ok();
    }

    std::optional<PlaneFileLayout> planeLayout() const override {
        return PlaneFileLayout{m_file.tempPath(), m_offset, m_shape};
    }

    Status writtenElsewhere(std::size_t first, std::size_t count) override {
        if (first > m_shape[0] || count > m_shape[0] - first)
            return invalidArgument(m_file.target().string() + ": planes " + std::to_string(first) +
                                   "+" + std::to_string(count) + " lie outside its " +
                                   std::to_string(m_shape[0]));
        markWritten(first, count);
        return Status::ok();
    }

    Status commit() override {
        const std::string name = m_file.target().string();
        if (m_fd < 0) return invalidArgument(name + ": already committed");
        for (std::size_t z = 0; z < m_shape[0]; ++z)
            if (!m_written[z])
                return invalidArgument(name + ": plane " + std::to_string(z) +
                                       " was never written");
        const Status synced = syncFd(m_fd, name);
        ::close(std::exchange(m_fd, -1));
        TOMO_RETURN_IF_ERROR(synced);
        return m_file.commit();
    }

  private:
    void markWritten(std::size_t first, std::size_t count) {
        std::fill_n(m_written.begin() + static_cast<std::ptrdiff_t>(first), count, true);
    }

    AtomicFile m_file;
    int m_fd;
    std::uint64_t m_offset;
    std::array<std::size_t, 3> m_shape;
    std::vector<bool> m_written;
};

}  // namespace

Status checkPlaneSlab(const std::array<std::size_t, 3>& shape, std::size_t first,
                      const Array3<float>& slab, const std::string& name) {
    if (slab.dim(1) != shape[1] || slab.dim(2) != shape[2] || slab.dim(0) == 0 ||
        first > shape[0] || slab.dim(0) > shape[0] - first)
        return invalidArgument(name + ": slab of " + shapeText(slab.dims()) + " at plane " +
                               std::to_string(first) + " does not fit the volume " +
                               shapeText(shape));
    return Status::ok();
}

Status readPlaneRows(int fd, Array3<float>& slab, std::size_t first,
                     const std::array<std::size_t, 3>& shape, std::uint64_t offset,
                     const std::string& name) {
    return transferRows(fd, slab, first, shape, offset, true, name);
}

Status writePlaneRows(int fd, const Array3<float>& slab, std::size_t first,
                      const std::array<std::size_t, 3>& shape, std::uint64_t offset,
                      const std::string& name) {
    return transferRows(fd, slab, first, shape, offset, false, name);
}

Result<std::unique_ptr<VolumeWriter>> openPlaneFileVolumeWriter(
    AtomicFile file, std::uint64_t offset, const std::array<std::size_t, 3>& shape) {
    int fd = file.releaseFd();
    if (fd < 0) fd = ::open(file.tempPath().c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return ioError(file.target().string() + ": cannot open " + file.tempPath().string() + ": " +
                       std::strerror(errno));
    return std::unique_ptr<VolumeWriter>(
        std::make_unique<PlaneFileVolumeWriter>(std::move(file), fd, offset, shape));
}

Result<PlaneFileWriter> PlaneFileWriter::open(const PlaneFileLayout& layout) {
    const int fd = ::open(layout.file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return ioError(layout.file.string() + ": cannot open the output being written: " +
                       std::strerror(errno) + " (every rank must reach the output's folder)");
    return PlaneFileWriter(layout, fd);
}

PlaneFileWriter::PlaneFileWriter(PlaneFileWriter&& other) noexcept
    : m_layout(std::move(other.m_layout)), m_fd(std::exchange(other.m_fd, -1)) {}

PlaneFileWriter& PlaneFileWriter::operator=(PlaneFileWriter&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) ::close(m_fd);
        m_layout = std::move(other.m_layout);
        m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
}

PlaneFileWriter::~PlaneFileWriter() {
    if (m_fd >= 0) ::close(m_fd);
}

Status PlaneFileWriter::writeSlab(std::size_t first, const Array3<float>& slab) {
    const std::string name = m_layout.file.string();
    TOMO_RETURN_IF_ERROR(checkPlaneSlab(m_layout.shape, first, slab, name));
    return writePlaneRows(m_fd, slab, first, m_layout.shape, m_layout.offset, name);
}

Status PlaneFileWriter::sync() {
    return syncFd(m_fd, m_layout.file.string());
}

}  // namespace tomo
