// Multi-page TIFF written in page order (TiffPageWriter, TiffFormat.h); writeTiff and writeTiff16
// are this writer given every page at once.
#include <tiffio.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <optional>
#include <system_error>
#include <vector>

#include "core/io/AtomicFile.h"
#include "core/io/ImageIO.h"
#include "core/io/TiffFormat.h"
#include "core/io/TiffInternal.h"

namespace tomo {
namespace {

using namespace tiffio;

/// Count of @p v under @p map, or -1 when it is not finite or falls outside 0..65535.
long countOf(float v, const Tiff16Scale& map) {
    const double q = std::nearbyint((static_cast<double>(v) - map.offset) / map.scale);
    return std::isfinite(v) && q >= 0 && q <= 65535 ? static_cast<long>(q) : -1;
}

/// InvalidArgument naming the first value of @p pages (its page counted from @p firstPage) that
/// @p map cannot represent.
Status checkCounts(const Array3<float>& pages, std::size_t firstPage, const Tiff16Scale& map,
                   const std::string& name) {
    for (std::size_t p = 0; p < pages.dim(0); ++p)
        for (std::size_t r = 0; r < pages.dim(1); ++r)
            for (std::size_t c = 0; c < pages.dim(2); ++c)
                if (countOf(pages(p, r, c), map) < 0)
                    return invalidArgument(
                        name + ": value " + std::to_string(pages(p, r, c)) + " at (" +
                        std::to_string(firstPage + p) + ", " + std::to_string(r) + ", " +
                        std::to_string(c) + ") is outside the 16-bit range [" +
                        std::to_string(map.offset) + ", " +
                        std::to_string(map.offset + 65535 * map.scale) + "] of the scale");
    return Status::ok();
}

class PageWriter final : public TiffPageWriter {
  public:
    PageWriter(AtomicFile file, std::array<std::size_t, 3> shape, std::optional<Tiff16Scale> map)
        : m_file(std::move(file)), m_shape(shape), m_map(map) {}

    Status start(bool big) {
        const std::string name = m_file.target().string();
        auto opts = makeOptions(m_messages);
        if (!opts) return outOfMemory(name + ": cannot allocate TIFF options");
        const int fd = m_file.releaseFd();
        m_tif.reset(TIFFFdOpenExt(fd, name.c_str(), big ? "w8" : "w", opts.get()));
        if (!m_tif) {
            ::close(fd);
            return ioError(name + ": cannot start TIFF: " + detail(m_messages));
        }
        if (m_map) m_description = scaleDescription(m_map->scale, m_map->offset);
        return Status::ok();
    }

    Status append(const Array3<float>& pages) override {
        const std::string name = m_file.target().string();
        if (m_committed || !m_tif) return invalidArgument(name + ": already committed");
        if (pages.dim(1) != m_shape[1] || pages.dim(2) != m_shape[2] ||
            pages.dim(0) > m_shape[0] - m_written)
            return invalidArgument(name + ": " + std::to_string(pages.dim(0)) + " page(s) of " +
                                   std::to_string(pages.dim(2)) + "x" +
                                   std::to_string(pages.dim(1)) + " do not fit after page " +
                                   std::to_string(m_written) + " of " + std::to_string(m_shape[0]));
        if (m_map) TOMO_RETURN_IF_ERROR(checkCounts(pages, m_written, *m_map, name));
        for (std::size_t p = 0; p < pages.dim(0); ++p) {
            TOMO_RETURN_IF_ERROR(writePage(pages.plane(p), name));
            ++m_written;
        }
        return Status::ok();
    }

    std::size_t written() const override { return m_written; }

    Status commit() override {
        const std::string name = m_file.target().string();
        if (m_committed || !m_tif) return invalidArgument(name + ": already committed");
        if (m_written != m_shape[0])
            return invalidArgument(name + ": " + std::to_string(m_written) + " of " +
                                   std::to_string(m_shape[0]) + " pages were written");
        if (::fsync(TIFFFileno(m_tif.get())) != 0 && errno != EINVAL)
            return ioError(name + ": fsync failed: " + std::generic_category().message(errno));
        m_tif.reset();  // TIFFClose closes the descriptor
        if (!m_messages.errors.empty()) return ioError(name + ": " + m_messages.errors);
        m_committed = true;
        return m_file.commit();
    }

  private:
    Status writePage(View2<const float> plane, const std::string& name) {
        TIFF* t = m_tif.get();
        const std::size_t w = m_shape[2], h = m_shape[1], pages = m_shape[0];
        const std::size_t bytesPerSample = m_map ? 2 : 4;
        TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(w));
        TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(h));
        TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, static_cast<int>(bytesPerSample * 8));
        TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
        TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, m_map ? SAMPLEFORMAT_UINT : SAMPLEFORMAT_IEEEFP);
        TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
        TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
        TIFFSetField(
            t, TIFFTAG_ROWSPERSTRIP,
            static_cast<std::uint32_t>(std::max<std::size_t>(1, 65536 / (w * bytesPerSample))));
        if (m_map) TIFFSetField(t, TIFFTAG_IMAGEDESCRIPTION, m_description.c_str());
        if (pages > 1) {
            TIFFSetField(t, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
            if (pages <= 0xFFFF)
                TIFFSetField(t, TIFFTAG_PAGENUMBER, static_cast<std::uint16_t>(m_written),
                             static_cast<std::uint16_t>(pages));
        }
        m_row.resize(w);
        m_counts.resize(w);
        for (std::size_t r = 0; r < h; ++r) {
            void* line = m_row.data();
            if (m_map) {
                for (std::size_t c = 0; c < w; ++c)
                    m_counts[c] = static_cast<std::uint16_t>(countOf(plane(r, c), *m_map));
                line = m_counts.data();
            } else {
                std::copy(plane.row(r).begin(), plane.row(r).end(), m_row.begin());
            }
            if (TIFFWriteScanline(t, line, static_cast<std::uint32_t>(r), 0) < 0)
                return ioError(name + ": writing page " + std::to_string(m_written) + " row " +
                               std::to_string(r) + " failed: " + detail(m_messages));
        }
        if (!TIFFWriteDirectory(t))
            return ioError(name + ": writing page " + std::to_string(m_written) +
                           " failed: " + detail(m_messages));
        return Status::ok();
    }

    AtomicFile m_file;
    std::array<std::size_t, 3> m_shape;
    std::optional<Tiff16Scale> m_map;
    TiffMessages m_messages;  ///< outlives m_tif, which points to it
    TiffPtr m_tif;
    std::string m_description;
    std::vector<float> m_row;
    std::vector<std::uint16_t> m_counts;
    std::size_t m_written = 0;
    bool m_committed = false;
};

Status writePages(const std::filesystem::path& path, const Array3<float>& data,
                  const Tiff16Scale* map) {
    if (data.empty())
        return invalidArgument(path.string() + ": cannot write an empty stack as TIFF");
    TOMO_ASSIGN_OR_RETURN(auto writer, TiffPageWriter::open(path, data.dims(), map));
    TOMO_RETURN_IF_ERROR(writer->append(data));
    return writer->commit();
}

}  // namespace

Result<std::unique_ptr<TiffPageWriter>> TiffPageWriter::open(
    const std::filesystem::path& path, const std::array<std::size_t, 3>& shape,
    const Tiff16Scale* map) {
    const std::string name = path.string();
    const std::size_t pages = shape[0], h = shape[1], w = shape[2];
    if (pages == 0 || h == 0 || w == 0)
        return invalidArgument(name + ": cannot write an empty stack as TIFF");
    if (w > 0xFFFFFFFFu || h > 0xFFFFFFFFu)
        return invalidArgument(name + ": page size exceeds the TIFF limit");
    if (map && (!std::isfinite(map->scale) || !(map->scale > 0) || !std::isfinite(map->offset)))
        return invalidArgument(name +
                               ": 16-bit scale must be finite and positive, offset "
                               "finite (got scale " +
                               std::to_string(map->scale) + ", offset " +
                               std::to_string(map->offset) + ")");
    // Classic TIFF addresses 4 GiB; switch to BigTIFF well before the pixel data gets there.
    const std::size_t bytes = pages * h * w * (map ? 2 : 4);
    const bool big = bytes > (std::size_t{0xFFFFFFFFu} - (std::size_t{1} << 26));
    TOMO_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    auto writer = std::make_unique<PageWriter>(
        std::move(file), shape, map ? std::optional<Tiff16Scale>(*map) : std::nullopt);
    TOMO_RETURN_IF_ERROR(writer->start(big));
    return std::unique_ptr<TiffPageWriter>(std::move(writer));
}

Status writeTiff(const std::filesystem::path& path, const Array3<float>& data) {
    return writePages(path, data, nullptr);
}

Status writeTiff16(const std::filesystem::path& path, const Array3<float>& data, Tiff16Scale map) {
    return writePages(path, data, &map);
}

}  // namespace tomo
