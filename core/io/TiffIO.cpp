// TIFF reading and writing through libtiff (built when TOMO_WITH_TIFF; else TiffUnsupported.cpp).
//
// libtiff reports problems through error and warning handlers. The classic TIFFSetErrorHandler is
// process-global, so instead every file is opened with TIFFOpenExt/TIFFFdOpenExt and per-file
// handlers (libtiff >= 4.5) that append the text to the returned Status: nothing is printed on
// stderr and no global state is touched, so concurrent reads from several threads are safe.
#include <tiffio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "core/io/AtomicFile.h"
#include "core/io/ImageIO.h"
#include "core/io/TiffFormat.h"
#include "core/io/TiffInternal.h"

namespace tomo {
namespace {

using namespace tiffio;

enum class SampleKind { U8, S8, U16, S16, U32, S32, F32, F64 };

bool sampleKind(std::uint16_t bits, std::uint16_t format, SampleKind& kind) {
    const bool isUint = format == SAMPLEFORMAT_UINT || format == SAMPLEFORMAT_VOID;
    const bool isInt = format == SAMPLEFORMAT_INT;
    const bool isFloat = format == SAMPLEFORMAT_IEEEFP;
    switch (bits) {
        case 8:
            kind = isUint ? SampleKind::U8 : SampleKind::S8;
            return isUint || isInt;
        case 16:
            kind = isUint ? SampleKind::U16 : SampleKind::S16;
            return isUint || isInt;
        case 32:
            kind = isFloat ? SampleKind::F32 : isUint ? SampleKind::U32 : SampleKind::S32;
            return isUint || isInt || isFloat;
        case 64:
            kind = SampleKind::F64;
            return isFloat;
        default:
            return false;
    }
}

template <class T>
void convertAs(const std::uint8_t* src, float* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        T v;
        std::memcpy(&v, src + i * sizeof(T), sizeof(T));
        dst[i] = static_cast<float>(v);
    }
}

/// Converts @p n samples of @p kind (native byte order, as libtiff returns them) to float.
void convertSamples(SampleKind kind, const std::uint8_t* src, float* dst, std::size_t n) {
    switch (kind) {
        case SampleKind::U8:
            convertAs<std::uint8_t>(src, dst, n);
            break;
        case SampleKind::S8:
            convertAs<std::int8_t>(src, dst, n);
            break;
        case SampleKind::U16:
            convertAs<std::uint16_t>(src, dst, n);
            break;
        case SampleKind::S16:
            convertAs<std::int16_t>(src, dst, n);
            break;
        case SampleKind::U32:
            convertAs<std::uint32_t>(src, dst, n);
            break;
        case SampleKind::S32:
            convertAs<std::int32_t>(src, dst, n);
            break;
        case SampleKind::F32:
            convertAs<float>(src, dst, n);
            break;
        case SampleKind::F64:
            convertAs<double>(src, dst, n);
            break;
    }
}

struct PageLayout {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    SampleKind kind = SampleKind::U8;
    std::size_t bytesPerSample = 1;
};

Status readPageLayout(TIFF* tif, const std::string& where, PageLayout& page) {
    std::uint16_t spp = 1, bits = 1, format = SAMPLEFORMAT_UINT;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &page.width) ||
        !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &page.height) || page.width == 0 ||
        page.height == 0)
        return invalidData(where + ": missing or zero image size");
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    if (spp != 1)
        return unsupported(where + ": " + std::to_string(spp) +
                           " samples per pixel (only single-channel images are supported)");
    if (!sampleKind(bits, format, page.kind))
        return unsupported(where + ": " + std::to_string(bits) + "-bit samples of format " +
                           std::to_string(format) +
                           " (supported: 8/16/32-bit integer, 32/64-bit float)");
    page.bytesPerSample = bits / 8u;
    return Status::ok();
}

/// Decodes rows [firstRow, firstRow + out.rows()) of one page (strips or tiles) into @p out,
/// reading only the strips or tiles that overlap them.
Status readPage(TIFF* tif, const std::string& where, const PageLayout& page, std::size_t firstRow,
                View2<float> out, const TiffMessages& messages) {
    const std::size_t w = page.width, h = page.height, bps = page.bytesPerSample;
    const std::size_t rowEnd = firstRow + out.rows();
    if (TIFFIsTiled(tif)) {
        std::uint32_t tw = 0, th = 0;
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &th);
        tmsize_t tileBytes = TIFFTileSize(tif);
        if (tw == 0 || th == 0 || tileBytes < static_cast<tmsize_t>(std::size_t{tw} * th * bps))
            return invalidData(where + ": invalid tile layout");
        std::vector<std::uint8_t> buf(static_cast<std::size_t>(tileBytes));
        for (std::size_t y = firstRow / th * th; y < rowEnd; y += th)
            for (std::uint32_t x = 0; x < w; x += tw) {
                if (TIFFReadTile(tif, buf.data(), x, static_cast<std::uint32_t>(y), 0, 0) < 0)
                    return invalidData(where + ": cannot decode tile at (" + std::to_string(x) +
                                       ", " + std::to_string(y) + "): " + detail(messages));
                const std::size_t r0 = std::max(y, firstRow);
                const std::size_t r1 = std::min({y + th, rowEnd, h});
                const std::size_t cols = std::min<std::size_t>(tw, w - x);
                for (std::size_t r = r0; r < r1; ++r)
                    convertSamples(page.kind, buf.data() + (r - y) * tw * bps,
                                   &out(r - firstRow, x), cols);
            }
        return Status::ok();
    }
    std::uint32_t rowsPerStrip = 0;
    TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rowsPerStrip);
    rowsPerStrip = std::clamp<std::uint32_t>(rowsPerStrip, 1, page.height);
    tmsize_t stripBytes = TIFFStripSize(tif);
    if (stripBytes < static_cast<tmsize_t>(w * bps * rowsPerStrip))
        return invalidData(where + ": invalid strip layout");
    std::vector<std::uint8_t> buf(static_cast<std::size_t>(stripBytes));
    for (std::size_t row0 = firstRow / rowsPerStrip * rowsPerStrip; row0 < rowEnd;
         row0 += rowsPerStrip) {
        std::size_t rows = std::min<std::size_t>(rowsPerStrip, h - row0);
        auto need = static_cast<tmsize_t>(rows * w * bps);
        tstrip_t strip = TIFFComputeStrip(tif, static_cast<std::uint32_t>(row0), 0);
        if (TIFFReadEncodedStrip(tif, strip, buf.data(), need) < need)
            return invalidData(where + ": cannot decode strip " + std::to_string(strip) + ": " +
                               detail(messages));
        const std::size_t r0 = std::max(row0, firstRow), r1 = std::min(row0 + rows, rowEnd);
        for (std::size_t r = r0; r < r1; ++r)
            convertSamples(page.kind, buf.data() + (r - row0) * w * bps, &out(r - firstRow, 0), w);
    }
    return Status::ok();
}

Status checkFinite(View2<const float> plane, const std::string& where, bool fromDouble,
                   std::size_t firstRow) {
    for (std::size_t r = 0; r < plane.rows(); ++r)
        for (std::size_t c = 0; c < plane.cols(); ++c)
            if (!std::isfinite(plane(r, c)))
                return invalidData(where + ": value at row " + std::to_string(firstRow + r) +
                                   ", column " + std::to_string(c) + " is " +
                                   (std::isnan(plane(r, c)) ? "NaN"
                                    : fromDouble            ? "infinite or beyond the float32 range"
                                                            : "infinite"));
    return Status::ok();
}

/// Upper bound of the expansion of any TIFF codec (LZW reaches ~2700:1, deflate 1032:1).
constexpr std::uintmax_t kMaxCompressionRatio = 1u << 15;

/// The TomoStation 16-bit map from ImageDescription, when the page carries one.
bool readScale(TIFF* tif, double& scale, double& offset) {
    const char* text = nullptr;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEDESCRIPTION, &text) || !text) return false;
    const std::string d(text);
    // At the start (files written before the ImageJ calibration) or on a line of its own.
    std::size_t at = d.starts_with(kScaleTag) ? 0 : d.find(std::string("\n") + kScaleTag);
    if (at == std::string::npos) return false;
    if (at != 0) ++at;
    double s = 0, o = 0;
    if (std::sscanf(d.c_str() + at + std::strlen(kScaleTag), "%lf offset=%lf", &s, &o) != 2 ||
        !std::isfinite(s) || !std::isfinite(o) || !(s > 0))
        return false;
    scale = s;
    offset = o;
    return true;
}

struct OpenTiff {
    std::unique_ptr<TiffMessages> messages = std::make_unique<TiffMessages>();
    TiffPtr tif;
};

Result<OpenTiff> openForReading(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return notFound(name + ": no such file");
    OpenTiff t;
    auto opts = makeOptions(*t.messages);
    if (!opts) return outOfMemory(name + ": cannot allocate TIFF options");
    t.tif.reset(TIFFOpenExt(path.c_str(), "r", opts.get()));
    if (!t.tif) return invalidData(name + ": not a readable TIFF file: " + detail(*t.messages));
    return t;
}

}  // namespace

bool tiffSupported() {
    return true;
}

Result<TiffInfo> probeTiff(const std::filesystem::path& path) {
    const std::string name = path.string();
    TOMO_ASSIGN_OR_RETURN(OpenTiff t, openForReading(path));
    TiffInfo info;
    info.pages = TIFFNumberOfDirectories(t.tif.get());
    if (info.pages == 0)
        return invalidData(name + ": no readable image directory: " + detail(*t.messages));
    PageLayout page;
    TOMO_RETURN_IF_ERROR(readPageLayout(t.tif.get(), name + " page 0", page));
    info.width = page.width;
    info.height = page.height;
    info.bitsPerSample = static_cast<std::uint16_t>(page.bytesPerSample * 8);
    info.isFloat = page.kind == SampleKind::F32 || page.kind == SampleKind::F64;
    info.isSigned =
        page.kind == SampleKind::S8 || page.kind == SampleKind::S16 || page.kind == SampleKind::S32;
    info.bigTiff = TIFFIsBigTIFF(t.tif.get()) != 0;
    if (page.kind == SampleKind::U16) info.scaled = readScale(t.tif.get(), info.scale, info.offset);
    return info;
}

Result<Array3<float>> readTiff(const std::filesystem::path& path) {
    return readTiffRange(path, ReadRange{});
}

Result<Array3<float>> readTiffRange(const std::filesystem::path& path, const ReadRange& range) {
    const std::string name = path.string();
    TOMO_ASSIGN_OR_RETURN(OpenTiff t, openForReading(path));
    TIFF* tif = t.tif.get();
    const TiffMessages& messages = *t.messages;

    const tdir_t pages = TIFFNumberOfDirectories(tif);
    if (pages == 0) return invalidData(name + ": no readable image directory: " + detail(messages));
    PageLayout first;
    TOMO_RETURN_IF_ERROR(readPageLayout(tif, name + " page 0", first));
    // An uncompressed page cannot hold more pixel bytes than the file has, and no TIFF codec
    // expands data by more than kMaxCompressionRatio: refuse before allocating for dimensions a
    // corrupt or truncated header made up (found by fuzz_tiff: a 600-byte file asking for 3 GB).
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    std::error_code ec;
    const std::uintmax_t fileBytes = std::filesystem::file_size(path, ec);
    const std::uintmax_t pageBytes =
        std::uintmax_t{first.width} * first.height * first.bytesPerSample;
    const std::uintmax_t ratio = compression == COMPRESSION_NONE ? 1 : kMaxCompressionRatio;
    if (!ec && pageBytes / ratio > fileBytes)
        return invalidData(name + " page 0: declares " + std::to_string(first.width) + "x" +
                           std::to_string(first.height) + (ratio == 1 ? " uncompressed" : "") +
                           " pixels (" + std::to_string(pageBytes) +
                           " bytes) but the file has only " + std::to_string(fileBytes) +
                           " bytes (truncated or corrupt)");
    TOMO_ASSIGN_OR_RETURN(ReadRange r, range.resolve(pages, first.height, name));
    TOMO_ASSIGN_OR_RETURN(Array3<float> out,
                          Array3<float>::create(r.planeCount, r.rowCount, first.width));
    for (std::size_t k = 0; k < r.planeCount; ++k) {
        const std::size_t p = r.firstPlane + k;
        const std::string where = name + " page " + std::to_string(p);
        if (p > 0 && !TIFFSetDirectory(tif, static_cast<tdir_t>(p)))
            return invalidData(where + ": cannot read directory: " + detail(messages));
        PageLayout page;
        TOMO_RETURN_IF_ERROR(readPageLayout(tif, where, page));
        if (page.width != first.width || page.height != first.height)
            return invalidData(where + ": size " + std::to_string(page.width) + "x" +
                               std::to_string(page.height) + " differs from page 0 (" +
                               std::to_string(first.width) + "x" + std::to_string(first.height) +
                               "); all pages of a stack must have the same size");
        TOMO_RETURN_IF_ERROR(readPage(tif, where, page, r.firstRow, out.plane(k), messages));
        if (page.kind == SampleKind::F32 || page.kind == SampleKind::F64)
            TOMO_RETURN_IF_ERROR(
                checkFinite(out.plane(k), where, page.kind == SampleKind::F64, r.firstRow));
        double scale = 1, offset = 0;
        if (page.kind == SampleKind::U16 && readScale(tif, scale, offset))
            for (std::size_t row = 0; row < r.rowCount; ++row)
                for (float& v : out.row(k, row))
                    v = static_cast<float>(offset + scale * static_cast<double>(v));
    }
    return out;
}

}  // namespace tomo
