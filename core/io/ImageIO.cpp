// Raw float32 I/O, atomic byte writes and the extension dispatch of ImageIO.h. TIFF lives in
// TiffIO.cpp (or TiffUnsupported.cpp), PNG in PngWriter.cpp.
#include "core/io/ImageIO.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <system_error>
#include <vector>

#include "core/io/AtomicFile.h"

namespace tomo {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;  // rows are batched into ~1 MiB writes

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

/// float <-> little-endian bytes. A no-op on little-endian hosts (all supported platforms).
void toFromLittleEndian(float* values, std::size_t count) {
    if constexpr (std::endian::native == std::endian::big) {
        for (std::size_t i = 0; i < count; ++i) {
            unsigned char b[4];
            std::memcpy(b, &values[i], 4);
            std::swap(b[0], b[3]);
            std::swap(b[1], b[2]);
            std::memcpy(&values[i], b, 4);
        }
    } else {
        (void)values;
        (void)count;
    }
}

std::string dimsString(const std::array<std::size_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

std::string lowerExtension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

}  // namespace

Status writeFileAtomic(const std::filesystem::path& path, const void* bytes, std::size_t size) {
    TOMO_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    TOMO_RETURN_IF_ERROR(file.write(bytes, size));
    return file.commit();
}

Result<Array3<float>> readRawFloat32(const std::filesystem::path& path,
                                     std::array<std::size_t, 3> dims) {
    const std::string name = path.string();
    if (dims[0] == 0 || dims[1] == 0 || dims[2] == 0)
        return invalidArgument(name + ": dimensions " + dimsString(dims) + " must all be positive");
    std::size_t count = dims[0];
    for (std::size_t k = 1; k < 3; ++k) {
        if (count > std::numeric_limits<std::size_t>::max() / 4 / dims[k])
            return invalidArgument(name + ": dimensions " + dimsString(dims) + " overflow");
        count *= dims[k];
    }
    const std::uintmax_t expected = static_cast<std::uintmax_t>(count) * 4;

    std::error_code ec;
    auto st = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(st)) return notFound(name + ": no such file");
    if (!std::filesystem::is_regular_file(st))
        return invalidArgument(name + ": not a regular file");
    std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return ioError(name + ": cannot read size: " + ec.message());
    if (size != expected)
        return invalidData(name + ": size " + std::to_string(size) + " bytes does not match " +
                           dimsString(dims) + " float32 (" + std::to_string(expected) +
                           " bytes expected)");

    FilePtr f(std::fopen(path.c_str(), "rb"));
    if (!f) return ioError(name + ": cannot open: " + std::generic_category().message(errno));
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(dims[0], dims[1], dims[2]));
    View2<float> rows = out.rows();
    for (std::size_t r = 0; r < rows.rows(); ++r) {
        float* row = rows.row(r).data();
        if (std::fread(row, 4, dims[2], f.get()) != dims[2])
            return ioError(name + ": read failed at row " + std::to_string(r) +
                           (std::ferror(f.get()) ? ": " + std::generic_category().message(errno)
                                                 : std::string(": unexpected end of file")));
        toFromLittleEndian(row, dims[2]);
        for (std::size_t c = 0; c < dims[2]; ++c) {
            if (std::isfinite(row[c])) continue;
            std::size_t index = r * dims[2] + c;
            return invalidData(name + ": value at index " + std::to_string(index) + " (" +
                               std::to_string(r / dims[1]) + ", " + std::to_string(r % dims[1]) +
                               ", " + std::to_string(c) + ") is " +
                               (std::isnan(row[c]) ? "NaN" : "infinite"));
        }
    }
    return out;
}

Status writeRawFloat32(const std::filesystem::path& path, const Array3<float>& data) {
    TOMO_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    const std::size_t cols = data.dim(2);
    View2<const float> rows = data.rows();
    const std::size_t rowsPerChunk =
        std::max<std::size_t>(1, kChunkBytes / 4 / std::max<std::size_t>(cols, 1));
    std::vector<float> chunk;
    chunk.reserve(rowsPerChunk * cols);
    for (std::size_t r = 0; r < rows.rows(); r += rowsPerChunk) {
        chunk.clear();
        std::size_t end = std::min(rows.rows(), r + rowsPerChunk);
        for (std::size_t k = r; k < end; ++k) {
            auto row = rows.row(k);
            chunk.insert(chunk.end(), row.begin(), row.end());
        }
        toFromLittleEndian(chunk.data(), chunk.size());
        TOMO_RETURN_IF_ERROR(file.write(chunk.data(), chunk.size() * sizeof(float)));
    }
    return file.commit();
}

Status writeVolume(const std::filesystem::path& path, const Array3<float>& data) {
    const std::string ext = lowerExtension(path);
    if (ext == ".tif" || ext == ".tiff") return writeTiff(path, data);
    if (ext == ".raw") return writeRawFloat32(path, data);
    return invalidArgument(path.string() + ": unknown output format '" + ext +
                           "' (expected .tif, .tiff or .raw)");
}

}  // namespace tomo
