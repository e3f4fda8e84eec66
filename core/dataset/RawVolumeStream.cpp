// Raw float32 volumes by slabs of planes (RawVolumeStream.h).
#include "core/dataset/RawVolumeStream.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "core/io/AtomicFile.h"

namespace tomo {
namespace {

static_assert(std::endian::native == std::endian::little,
              "raw volumes are float32 little-endian; add byte swapping for this host");

std::string shapeText(const std::array<std::size_t, 3>& s) {
    return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

/// Checks @p slab against @p shape for planes [first, first + slab.dim(0)).
Status checkSlab(const std::array<std::size_t, 3>& shape, std::size_t first,
                 const Array3<float>& slab, const std::string& name) {
    if (slab.dim(1) != shape[1] || slab.dim(2) != shape[2] || slab.dim(0) == 0 ||
        first > shape[0] || slab.dim(0) > shape[0] - first)
        return invalidArgument(name + ": slab of " + shapeText(slab.dims()) + " at plane " +
                               std::to_string(first) + " does not fit the volume " +
                               shapeText(shape));
    return Status::ok();
}

/// Reads (or writes) the rows of @p slab, planes [first, first + slab.dim(0)) of a file of
/// @p shape, with preadv/pwritev: the rows of consecutive planes are contiguous in the file,
/// so one call moves up to IOV_MAX rows (the slab's row padding is skipped by the iovecs).
template <class Slab>  // Array3<float> to read, const Array3<float> to write
Status transferRows(int fd, Slab& slab, std::size_t first, const std::array<std::size_t, 3>& shape,
                    bool read, const std::string& name) {
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
        off_t offset = static_cast<off_t>((first * shape[1] + r0) * rowBytes);
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
            for (std::size_t left = static_cast<std::size_t>(got); left > 0;) {
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

class RawWriter final : public VolumeWriter {
  public:
    RawWriter(AtomicFile file, std::array<std::size_t, 3> shape)
        : m_file(std::move(file)), m_shape(shape), m_written(shape[0], false) {}
    std::array<std::size_t, 3> shape() const override { return m_shape; }

    Status writeSlab(std::size_t first, const Array3<float>& slab) override {
        const std::string name = m_file.target().string();
        if (m_committed) return invalidArgument(name + ": already committed");
        TOMO_RETURN_IF_ERROR(checkSlab(m_shape, first, slab, name));
        TOMO_RETURN_IF_ERROR(transferRows(m_file.fd(), slab, first, m_shape, false, name));
        for (std::size_t z = 0; z < slab.dim(0); ++z)
            m_written[first + z] = true;
        return Status::ok();
    }

    Status commit() override {
        const std::string name = m_file.target().string();
        if (m_committed) return invalidArgument(name + ": already committed");
        for (std::size_t z = 0; z < m_shape[0]; ++z)
            if (!m_written[z])
                return invalidArgument(name + ": plane " + std::to_string(z) +
                                       " was never written");
        m_committed = true;
        return m_file.commit();
    }

  private:
    AtomicFile m_file;
    std::array<std::size_t, 3> m_shape;
    std::vector<bool> m_written;
    bool m_committed = false;
};

/// As the whole-file reader (ImageIO.h readRawFloat32): NaN or infinite values are InvalidData.
Status checkFinite(std::span<const float> row, std::size_t plane, std::size_t y,
                   const std::string& name) {
    for (std::size_t c = 0; c < row.size(); ++c)
        if (!std::isfinite(row[c]))
            return invalidData(name + ": value at (" + std::to_string(plane) + ", " +
                               std::to_string(y) + ", " + std::to_string(c) + ") is " +
                               (std::isnan(row[c]) ? "NaN" : "infinite"));
    return Status::ok();
}

class RawReader final : public VolumeReader {
  public:
    RawReader(std::filesystem::path path, int fd, std::array<std::size_t, 3> shape)
        : m_path(std::move(path)), m_fd(fd), m_shape(shape) {}
    ~RawReader() override { ::close(m_fd); }
    RawReader(const RawReader&) = delete;
    RawReader& operator=(const RawReader&) = delete;
    std::array<std::size_t, 3> shape() const override { return m_shape; }

    Result<Array3<float>> readPlanes(std::size_t first, std::size_t count) override {
        const std::string name = m_path.string();
        if (count == 0 || first > m_shape[0] || count > m_shape[0] - first)
            return invalidArgument(name + ": planes " + std::to_string(first) + "+" +
                                   std::to_string(count) + " lie outside its " +
                                   std::to_string(m_shape[0]));
        TOMO_ASSIGN_OR_RETURN(Array3<float> out,
                              Array3<float>::create(count, m_shape[1], m_shape[2]));
        TOMO_RETURN_IF_ERROR(transferRows(m_fd, out, first, m_shape, true, name));
        for (std::size_t z = 0; z < count; ++z)
            for (std::size_t y = 0; y < m_shape[1]; ++y)
                TOMO_RETURN_IF_ERROR(checkFinite(out.row(z, y), first + z, y, name));
        return out;
    }

  private:
    std::filesystem::path m_path;
    int m_fd;
    std::array<std::size_t, 3> m_shape;
};

Status checkShape(const std::filesystem::path& path, const std::array<std::size_t, 3>& shape) {
    if (shape[0] == 0 || shape[1] == 0 || shape[2] == 0)
        return invalidArgument(path.string() + ": shape " + shapeText(shape) + " must be positive");
    if (shape[1] * shape[2] > (std::size_t(1) << 40) / shape[0])
        return invalidArgument(path.string() + ": shape " + shapeText(shape) + " is too large");
    return Status::ok();
}

}  // namespace

Result<std::unique_ptr<VolumeWriter>> openRawVolumeWriter(const std::filesystem::path& path,
                                                          const std::array<std::size_t, 3>& shape) {
    TOMO_RETURN_IF_ERROR(checkShape(path, shape));
    TOMO_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    return std::unique_ptr<VolumeWriter>(std::make_unique<RawWriter>(std::move(file), shape));
}

Result<std::unique_ptr<VolumeReader>> openRawVolumeReader(const std::filesystem::path& path,
                                                          const std::array<std::size_t, 3>& shape) {
    TOMO_RETURN_IF_ERROR(checkShape(path, shape));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return notFound(path.string() + ": no such file");
    const std::uintmax_t expected = std::uintmax_t(shape[0]) * shape[1] * shape[2] * 4;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec || size != expected)
        return invalidData(path.string() + ": size " + std::to_string(size) +
                           " bytes does not match " + shapeText(shape) + " float32 (" +
                           std::to_string(expected) + " bytes expected)");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ioError(path.string() + ": cannot open: " + std::strerror(errno));
    return std::unique_ptr<VolumeReader>(std::make_unique<RawReader>(path, fd, shape));
}

}  // namespace tomo
