// Raw float32 volumes by slabs of planes (RawVolumeStream.h).
#include "core/dataset/RawVolumeStream.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <span>

#include "core/dataset/PlaneFile.h"

namespace tomo {
namespace {

std::string shapeText(const std::array<std::size_t, 3>& s) {
    return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

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
        TOMO_RETURN_IF_ERROR(readPlaneRows(m_fd, out, first, m_shape, 0, name));
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
    return openPlaneFileVolumeWriter(std::move(file), 0, shape);
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
