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

namespace tomo {
namespace {

/// Messages libtiff reported for one file; must outlive the TIFF handle that points to it.
struct TiffMessages {
    std::string errors;
    std::string warnings;
};

int collect(std::string& sink, const char* module, const char* fmt, va_list ap) {
    char text[512];
    std::vsnprintf(text, sizeof text, fmt, ap);
    if (!sink.empty()) sink += "; ";
    if (module && *module) sink += std::string(module) + ": ";
    sink += text;
    return 1;  // handled: libtiff does not call its global handler
}

int onError(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    return collect(static_cast<TiffMessages*>(user)->errors, module, fmt, ap);
}

int onWarning(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    return collect(static_cast<TiffMessages*>(user)->warnings, module, fmt, ap);
}

struct OptionsDeleter {
    void operator()(TIFFOpenOptions* o) const { TIFFOpenOptionsFree(o); }
};
struct TiffDeleter {
    void operator()(TIFF* t) const { TIFFClose(t); }
};
using TiffPtr = std::unique_ptr<TIFF, TiffDeleter>;

std::unique_ptr<TIFFOpenOptions, OptionsDeleter> makeOptions(TiffMessages& messages) {
    std::unique_ptr<TIFFOpenOptions, OptionsDeleter> opts(TIFFOpenOptionsAlloc());
    if (opts) {
        TIFFOpenOptionsSetErrorHandlerExtR(opts.get(), onError, &messages);
        TIFFOpenOptionsSetWarningHandlerExtR(opts.get(), onWarning, &messages);
    }
    return opts;
}

std::string detail(const TiffMessages& m) {
    return m.errors.empty() ? std::string("libtiff reported no details") : m.errors;
}

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

/// Decodes one page (strips or tiles) into @p out, rows of @p out.cols() floats.
Status readPage(TIFF* tif, const std::string& where, const PageLayout& page, View2<float> out,
                const TiffMessages& messages) {
    const std::size_t w = page.width, h = page.height, bps = page.bytesPerSample;
    if (TIFFIsTiled(tif)) {
        std::uint32_t tw = 0, th = 0;
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &th);
        tmsize_t tileBytes = TIFFTileSize(tif);
        if (tw == 0 || th == 0 || tileBytes < static_cast<tmsize_t>(std::size_t{tw} * th * bps))
            return invalidData(where + ": invalid tile layout");
        std::vector<std::uint8_t> buf(static_cast<std::size_t>(tileBytes));
        for (std::uint32_t y = 0; y < h; y += th)
            for (std::uint32_t x = 0; x < w; x += tw) {
                if (TIFFReadTile(tif, buf.data(), x, y, 0, 0) < 0)
                    return invalidData(where + ": cannot decode tile at (" + std::to_string(x) +
                                       ", " + std::to_string(y) + "): " + detail(messages));
                std::size_t rows = std::min<std::size_t>(th, h - y);
                std::size_t cols = std::min<std::size_t>(tw, w - x);
                for (std::size_t r = 0; r < rows; ++r)
                    convertSamples(page.kind, buf.data() + r * tw * bps, &out(y + r, x), cols);
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
    for (std::size_t row0 = 0; row0 < h; row0 += rowsPerStrip) {
        std::size_t rows = std::min<std::size_t>(rowsPerStrip, h - row0);
        auto need = static_cast<tmsize_t>(rows * w * bps);
        tstrip_t strip = TIFFComputeStrip(tif, static_cast<std::uint32_t>(row0), 0);
        if (TIFFReadEncodedStrip(tif, strip, buf.data(), need) < need)
            return invalidData(where + ": cannot decode strip " + std::to_string(strip) + ": " +
                               detail(messages));
        for (std::size_t r = 0; r < rows; ++r)
            convertSamples(page.kind, buf.data() + r * w * bps, &out(row0 + r, 0), w);
    }
    return Status::ok();
}

Status checkFinite(View2<const float> plane, const std::string& where, bool fromDouble) {
    for (std::size_t r = 0; r < plane.rows(); ++r)
        for (std::size_t c = 0; c < plane.cols(); ++c)
            if (!std::isfinite(plane(r, c)))
                return invalidData(where + ": value at row " + std::to_string(r) + ", column " +
                                   std::to_string(c) + " is " +
                                   (std::isnan(plane(r, c)) ? "NaN"
                                    : fromDouble            ? "infinite or beyond the float32 range"
                                                            : "infinite"));
    return Status::ok();
}

}  // namespace

bool tiffSupported() {
    return true;
}

Result<Array3<float>> readTiff(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return notFound(name + ": no such file");
    TiffMessages messages;
    auto opts = makeOptions(messages);
    if (!opts) return outOfMemory(name + ": cannot allocate TIFF options");
    TiffPtr tif(TIFFOpenExt(path.c_str(), "r", opts.get()));
    if (!tif) return invalidData(name + ": not a readable TIFF file: " + detail(messages));

    const tdir_t pages = TIFFNumberOfDirectories(tif.get());
    if (pages == 0) return invalidData(name + ": no readable image directory: " + detail(messages));
    PageLayout first;
    TOMO_RETURN_IF_ERROR(readPageLayout(tif.get(), name + " page 0", first));
    // An uncompressed page cannot hold more pixel bytes than the file has: refuse before
    // allocating for dimensions a corrupt or truncated header made up.
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_COMPRESSION, &compression);
    const std::uintmax_t fileBytes = std::filesystem::file_size(path, ec);
    const std::uintmax_t pageBytes =
        std::uintmax_t{first.width} * first.height * first.bytesPerSample;
    if (compression == COMPRESSION_NONE && !ec && pageBytes > fileBytes)
        return invalidData(name + " page 0: declares " + std::to_string(first.width) + "x" +
                           std::to_string(first.height) + " uncompressed pixels (" +
                           std::to_string(pageBytes) + " bytes) but the file has only " +
                           std::to_string(fileBytes) + " bytes (truncated or corrupt)");
    TOMO_ASSIGN_OR_RETURN(Array3<float> out,
                          Array3<float>::create(pages, first.height, first.width));
    for (tdir_t p = 0; p < pages; ++p) {
        const std::string where = name + " page " + std::to_string(p);
        if (p > 0 && !TIFFReadDirectory(tif.get()))
            return invalidData(where + ": cannot read directory: " + detail(messages));
        PageLayout page;
        TOMO_RETURN_IF_ERROR(readPageLayout(tif.get(), where, page));
        if (page.width != first.width || page.height != first.height)
            return invalidData(where + ": size " + std::to_string(page.width) + "x" +
                               std::to_string(page.height) + " differs from page 0 (" +
                               std::to_string(first.width) + "x" + std::to_string(first.height) +
                               "); all pages of a stack must have the same size");
        TOMO_RETURN_IF_ERROR(readPage(tif.get(), where, page, out.plane(p), messages));
        if (page.kind == SampleKind::F32 || page.kind == SampleKind::F64)
            TOMO_RETURN_IF_ERROR(checkFinite(out.plane(p), where, page.kind == SampleKind::F64));
    }
    return out;
}

Status writeTiff(const std::filesystem::path& path, const Array3<float>& data) {
    const std::string name = path.string();
    const std::size_t pages = data.dim(0), h = data.dim(1), w = data.dim(2);
    if (data.empty()) return invalidArgument(name + ": cannot write an empty stack as TIFF");
    if (w > 0xFFFFFFFFu || h > 0xFFFFFFFFu)
        return invalidArgument(name + ": page size exceeds the TIFF limit");
    // Classic TIFF addresses 4 GiB; switch to BigTIFF well before the pixel data gets there.
    const bool big =
        data.elementCount() * sizeof(float) > (std::size_t{0xFFFFFFFFu} - (std::size_t{1} << 26));

    TOMO_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    TiffMessages messages;
    auto opts = makeOptions(messages);
    if (!opts) return outOfMemory(name + ": cannot allocate TIFF options");
    const int fd = file.releaseFd();
    TiffPtr tif(TIFFFdOpenExt(fd, name.c_str(), big ? "w8" : "w", opts.get()));
    if (!tif) {
        ::close(fd);
        return ioError(name + ": cannot start TIFF: " + detail(messages));
    }
    const auto rowsPerStrip = static_cast<std::uint32_t>(std::max<std::size_t>(1, 65536 / (w * 4)));
    std::vector<float> row(w);
    for (std::size_t p = 0; p < pages; ++p) {
        TIFF* t = tif.get();
        TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(w));
        TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(h));
        TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 32);
        TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
        TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP);
        TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
        TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
        TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, rowsPerStrip);
        if (pages > 1) {
            TIFFSetField(t, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
            if (pages <= 0xFFFF)
                TIFFSetField(t, TIFFTAG_PAGENUMBER, static_cast<std::uint16_t>(p),
                             static_cast<std::uint16_t>(pages));
        }
        View2<const float> plane = data.plane(p);
        for (std::size_t r = 0; r < h; ++r) {
            std::copy(plane.row(r).begin(), plane.row(r).end(), row.begin());
            if (TIFFWriteScanline(t, row.data(), static_cast<std::uint32_t>(r), 0) < 0)
                return ioError(name + ": writing page " + std::to_string(p) + " row " +
                               std::to_string(r) + " failed: " + detail(messages));
        }
        if (!TIFFWriteDirectory(t))
            return ioError(name + ": writing page " + std::to_string(p) +
                           " failed: " + detail(messages));
    }
    if (::fsync(TIFFFileno(tif.get())) != 0 && errno != EINVAL)
        return ioError(name + ": fsync failed: " + std::generic_category().message(errno));
    tif.reset();  // TIFFClose closes the descriptor
    if (!messages.errors.empty()) return ioError(name + ": " + messages.errors);
    return file.commit();
}

}  // namespace tomo
