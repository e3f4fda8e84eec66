// Typed raw stacks of RawIO.h.
#include "core/io/RawIO.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
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

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

bool hostOrderIs(ByteOrder order) {
    return (order == ByteOrder::Little) == (std::endian::native == std::endian::little);
}

void swapBytes(std::uint8_t* bytes, std::size_t count, std::size_t size) {
    for (std::size_t i = 0; i < count; ++i)
        std::reverse(bytes + i * size, bytes + (i + 1) * size);
}

template <class T>
float load(const std::uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return static_cast<float>(v);
}

/// Converts @p n host-order elements to float; returns the index of the first non-finite one
/// (f32/f64: NaN, Inf, or beyond the float range) or n.
std::size_t convert(RawType type, const std::uint8_t* src, float* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t* p = src + i * rawTypeSize(type);
        switch (type) {
            case RawType::U8:
                dst[i] = static_cast<float>(*p);
                break;
            case RawType::U16:
                dst[i] = load<std::uint16_t>(p);
                break;
            case RawType::U32:
                dst[i] = load<std::uint32_t>(p);
                break;
            case RawType::I16:
                dst[i] = load<std::int16_t>(p);
                break;
            case RawType::I32:
                dst[i] = load<std::int32_t>(p);
                break;
            case RawType::F32:
                dst[i] = load<float>(p);
                break;
            case RawType::F64:
                dst[i] = load<double>(p);
                break;
        }
        if ((type == RawType::F32 || type == RawType::F64) && !std::isfinite(dst[i])) return i;
    }
    return n;
}

std::string dimsString(const std::array<std::size_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

Result<std::size_t> parseCount(std::string_view s, std::string_view what) {
    std::size_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return invalidArgument("raw spec: '" + std::string(s) + "' is not a valid " +
                               std::string(what));
    return v;
}

/// The range of integer type T as doubles, or infinities for float types.
template <class T>
bool storeInt(double v, std::uint8_t* dst) {
    const double r = std::nearbyint(v);
    if (!(r >= static_cast<double>(std::numeric_limits<T>::min()) &&
          r <= static_cast<double>(std::numeric_limits<T>::max())))
        return false;
    const T t = static_cast<T>(r);
    std::memcpy(dst, &t, sizeof(T));
    return true;
}

bool store(RawType type, float v, std::uint8_t* dst) {
    switch (type) {
        case RawType::U8:
            return storeInt<std::uint8_t>(v, dst);
        case RawType::U16:
            return storeInt<std::uint16_t>(v, dst);
        case RawType::U32:
            return storeInt<std::uint32_t>(v, dst);
        case RawType::I16:
            return storeInt<std::int16_t>(v, dst);
        case RawType::I32:
            return storeInt<std::int32_t>(v, dst);
        case RawType::F32:
            std::memcpy(dst, &v, 4);
            return true;
        case RawType::F64: {
            const double d = v;
            std::memcpy(dst, &d, 8);
            return true;
        }
    }
    return false;
}

}  // namespace

std::size_t rawTypeSize(RawType type) {
    switch (type) {
        case RawType::U8:
            return 1;
        case RawType::U16:
        case RawType::I16:
            return 2;
        case RawType::U32:
        case RawType::I32:
        case RawType::F32:
            return 4;
        case RawType::F64:
            return 8;
    }
    return 1;
}

const char* rawTypeName(RawType type) {
    switch (type) {
        case RawType::U8:
            return "u8";
        case RawType::U16:
            return "u16";
        case RawType::U32:
            return "u32";
        case RawType::I16:
            return "i16";
        case RawType::I32:
            return "i32";
        case RawType::F32:
            return "f32";
        case RawType::F64:
            return "f64";
    }
    return "?";
}

Result<RawType> parseRawType(std::string_view t) {
    struct Name {
        const char* shortName;
        const char* longName;
        RawType type;
    };
    static constexpr Name kNames[] = {
        {"u8", "uint8", RawType::U8},     {"u16", "uint16", RawType::U16},
        {"u32", "uint32", RawType::U32},  {"i16", "int16", RawType::I16},
        {"i32", "int32", RawType::I32},   {"f32", "float32", RawType::F32},
        {"f64", "float64", RawType::F64}, {"float", "single", RawType::F32},
        {"double", "f8", RawType::F64},
    };
    for (const Name& n : kNames)
        if (t == n.shortName || t == n.longName) return n.type;
    return invalidArgument("unknown raw element type '" + std::string(t) +
                           "' (expected u8, u16, u32, i16, i32, f32 or f64)");
}

std::string RawSpec::toString() const {
    return dimsString(dims) + " " + rawTypeName(type) +
           (order == ByteOrder::Little ? " little-endian, " : " big-endian, ") +
           std::to_string(headerBytes) + "-byte header";
}

Result<RawSpec> parseRawSpec(std::string_view text) {
    RawSpec spec;
    std::vector<std::string_view> parts;
    for (std::size_t pos = 0;;) {
        std::size_t colon = text.find(':', pos);
        parts.push_back(text.substr(pos, colon == std::string_view::npos ? colon : colon - pos));
        if (colon == std::string_view::npos) break;
        pos = colon + 1;
    }
    std::vector<std::size_t> dims;
    for (std::size_t pos = 0;;) {
        std::size_t x = parts[0].find('x', pos);
        TOMO_ASSIGN_OR_RETURN(
            std::size_t d,
            parseCount(parts[0].substr(pos, x == std::string_view::npos ? x : x - pos),
                       "dimension"));
        dims.push_back(d);
        if (x == std::string_view::npos) break;
        pos = x + 1;
    }
    if (dims.size() < 2 || dims.size() > 3)
        return invalidArgument("raw spec '" + std::string(text) +
                               "': shape must be ROWSxCOLS or PLANESxROWSxCOLS");
    if (dims.size() == 2) dims.insert(dims.begin(), 1);
    spec.dims = {dims[0], dims[1], dims[2]};
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string_view p = parts[i];
        if (p == "le" || p == "little") {
            spec.order = ByteOrder::Little;
        } else if (p == "be" || p == "big") {
            spec.order = ByteOrder::Big;
        } else if (p.starts_with("skip=")) {
            TOMO_ASSIGN_OR_RETURN(spec.headerBytes, parseCount(p.substr(5), "header size"));
        } else {
            TOMO_ASSIGN_OR_RETURN(spec.type, parseRawType(p));
        }
    }
    return spec;
}

Result<Array3<float>> readRaw(const std::filesystem::path& path, const RawSpec& spec,
                              const ReadRange& range) {
    const std::string name = path.string();
    const auto& d = spec.dims;
    const std::size_t es = rawTypeSize(spec.type);
    if (d[0] == 0 || d[1] == 0 || d[2] == 0)
        return invalidArgument(name + ": dimensions " + dimsString(d) + " must all be positive");
    const std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max() / 16;
    if (d[0] > kMax / d[1] || d[0] * d[1] > kMax / d[2] || d[0] * d[1] * d[2] > kMax / es)
        return invalidArgument(name + ": dimensions " + dimsString(d) + " overflow");
    const std::uint64_t dataBytes = std::uint64_t{d[0]} * d[1] * d[2] * es;
    if (spec.headerBytes > kMax) return invalidArgument(name + ": header size overflows");

    std::error_code ec;
    auto st = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(st)) return notFound(name + ": no such file");
    if (!std::filesystem::is_regular_file(st))
        return invalidArgument(name + ": not a regular file");
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return ioError(name + ": cannot read size: " + ec.message());
    if (size != spec.headerBytes + dataBytes)
        return invalidData(
            name + ": size " + std::to_string(size) + " bytes does not match " + spec.toString() +
            " (" + std::to_string(spec.headerBytes + dataBytes) + " bytes expected; " +
            (size < spec.headerBytes + dataBytes ? "truncated?)" : "trailing bytes)"));
    TOMO_ASSIGN_OR_RETURN(ReadRange r, range.resolve(d[0], d[1], name));

    FilePtr f(std::fopen(path.c_str(), "rb"));
    if (!f) return ioError(name + ": cannot open: " + std::generic_category().message(errno));
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(r.planeCount, r.rowCount, d[2]));
    const std::size_t rowBytes = d[2] * es;
    const std::size_t rowsPerChunk = std::clamp<std::size_t>(kChunkBytes / rowBytes, 1, r.rowCount);
    std::vector<std::uint8_t> buf(rowsPerChunk * rowBytes);
    for (std::size_t p = 0; p < r.planeCount; ++p) {
        const std::size_t plane = r.firstPlane + p;
        const std::uint64_t offset =
            spec.headerBytes + (std::uint64_t{plane} * d[1] + r.firstRow) * rowBytes;
        if (::fseeko(f.get(), static_cast<off_t>(offset), SEEK_SET) != 0)
            return ioError(name + ": seek failed: " + std::generic_category().message(errno));
        for (std::size_t row0 = 0; row0 < r.rowCount; row0 += rowsPerChunk) {
            const std::size_t rows = std::min(rowsPerChunk, r.rowCount - row0);
            if (std::fread(buf.data(), rowBytes, rows, f.get()) != rows)
                return ioError(name + ": read failed in plane " + std::to_string(plane) + ": " +
                               (std::ferror(f.get()) ? std::generic_category().message(errno)
                                                     : std::string("unexpected end of file")));
            if (es > 1 && !hostOrderIs(spec.order)) swapBytes(buf.data(), rows * d[2], es);
            for (std::size_t k = 0; k < rows; ++k) {
                std::size_t bad = convert(spec.type, buf.data() + k * rowBytes,
                                          out.row(p, row0 + k).data(), d[2]);
                if (bad < d[2])
                    return invalidData(name + ": value at (" + std::to_string(plane) + ", " +
                                       std::to_string(r.firstRow + row0 + k) + ", " +
                                       std::to_string(bad) + ") is NaN, infinite or beyond the " +
                                       "float32 range");
            }
        }
    }
    return out;
}

Status writeRaw(const std::filesystem::path& path, const Array3<float>& data, RawType type,
                ByteOrder order) {
    const std::string name = path.string();
    const std::size_t es = rawTypeSize(type), cols = data.dim(2);
    // Validate every value before the file exists, so a bad value leaves nothing behind.
    std::uint8_t probe[8];
    for (std::size_t p = 0; p < data.dim(0); ++p)
        for (std::size_t r = 0; r < data.dim(1); ++r)
            for (std::size_t c = 0; c < cols; ++c) {
                const float v = data(p, r, c);
                if ((type != RawType::F32 && type != RawType::F64 && !std::isfinite(v)) ||
                    !store(type, v, probe))
                    return invalidArgument(name + ": value " + std::to_string(v) + " at (" +
                                           std::to_string(p) + ", " + std::to_string(r) + ", " +
                                           std::to_string(c) + ") does not fit " +
                                           rawTypeName(type));
            }
    TOMO_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    const std::size_t rowBytes = cols * es;
    const std::size_t rowsPerChunk =
        std::max<std::size_t>(1, kChunkBytes / std::max<std::size_t>(rowBytes, 1));
    View2<const float> rows = data.rows();
    std::vector<std::uint8_t> buf(rowsPerChunk * rowBytes);
    for (std::size_t r0 = 0; r0 < rows.rows(); r0 += rowsPerChunk) {
        const std::size_t n = std::min(rowsPerChunk, rows.rows() - r0);
        for (std::size_t k = 0; k < n; ++k)
            for (std::size_t c = 0; c < cols; ++c)
                (void)store(type, rows(r0 + k, c), buf.data() + k * rowBytes + c * es);
        if (es > 1 && !hostOrderIs(order)) swapBytes(buf.data(), n * cols, es);
        TOMO_RETURN_IF_ERROR(file.write(buf.data(), n * rowBytes));
    }
    return file.commit();
}

}  // namespace tomo
