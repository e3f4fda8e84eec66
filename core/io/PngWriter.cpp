// writePngGray: a minimal, dependency-free PNG encoder (8-bit greyscale, no interlace).
//
// Layout (PNG 1.2 / ISO/IEC 15948, RFC 1950 zlib, RFC 1951 deflate):
//   signature | IHDR | IDAT... | IEND, each chunk = length(be32) type data crc32(type+data).
// The image data is the zlib stream of the filtered scanlines (filter byte 0 = "None" before each
// row) made of *stored* deflate blocks (BTYPE=00, at most 65535 bytes each), so no compressor is
// needed; previews are small enough that the missing compression does not matter.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/io/AtomicFile.h"
#include "core/io/ImageIO.h"

namespace tomo {
namespace {

constexpr std::size_t kMaxStoredBlock = 65535;
constexpr std::size_t kIdatChunkBytes = std::size_t{1} << 20;

/// CRC-32 (ISO 3309, polynomial 0xEDB88320 reflected), as PNG requires.
class Crc32 {
  public:
    Crc32() {
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            m_table[n] = c;
        }
    }
    std::uint32_t compute(const std::uint8_t* p, std::size_t n) const {
        std::uint32_t c = 0xFFFFFFFFu;
        for (std::size_t i = 0; i < n; ++i)
            c = m_table[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
        return c ^ 0xFFFFFFFFu;
    }

  private:
    std::array<std::uint32_t, 256> m_table{};
};

/// Adler-32 (RFC 1950), updated incrementally.
class Adler32 {
  public:
    void update(const std::uint8_t* p, std::size_t n) {
        constexpr std::uint32_t kMod = 65521;
        constexpr std::size_t kBlock = 5552;  // largest n with no 32-bit overflow before modulo
        while (n > 0) {
            std::size_t k = std::min(n, kBlock);
            n -= k;
            for (std::size_t i = 0; i < k; ++i) {
                m_a += p[i];
                m_b += m_a;
            }
            p += k;
            m_a %= kMod;
            m_b %= kMod;
        }
    }
    std::uint32_t value() const { return (m_b << 16) | m_a; }

  private:
    std::uint32_t m_a = 1;
    std::uint32_t m_b = 0;
};

void putBe32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    out.push_back(static_cast<std::uint8_t>(v >> 24));
    out.push_back(static_cast<std::uint8_t>(v >> 16));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
}

void appendChunk(std::vector<std::uint8_t>& out, const char type[4], const std::uint8_t* data,
                 std::size_t size, const Crc32& crc) {
    putBe32(out, static_cast<std::uint32_t>(size));
    std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data, data + size);
    putBe32(out, crc.compute(out.data() + start, size + 4));
}

/// The zlib stream: header 0x78 0x01 (deflate, 32 KiB window, no dictionary, FCHECK valid),
/// stored blocks, Adler-32 of the uncompressed bytes.
std::vector<std::uint8_t> zlibStored(const std::vector<std::uint8_t>& raw) {
    std::vector<std::uint8_t> z;
    std::size_t blocks =
        std::max<std::size_t>(1, (raw.size() + kMaxStoredBlock - 1) / kMaxStoredBlock);
    z.reserve(raw.size() + 5 * blocks + 6);
    z.push_back(0x78);
    z.push_back(0x01);
    std::size_t pos = 0;
    do {
        std::size_t len = std::min(kMaxStoredBlock, raw.size() - pos);
        bool last = pos + len == raw.size();
        z.push_back(last ? 1 : 0);  // BFINAL, BTYPE = 00 (stored)
        z.push_back(static_cast<std::uint8_t>(len & 0xFF));
        z.push_back(static_cast<std::uint8_t>(len >> 8));
        z.push_back(static_cast<std::uint8_t>(~len & 0xFF));
        z.push_back(static_cast<std::uint8_t>((~len >> 8) & 0xFF));
        z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(pos),
                 raw.begin() + static_cast<std::ptrdiff_t>(pos + len));
        pos += len;
    } while (pos < raw.size());
    Adler32 adler;
    adler.update(raw.data(), raw.size());
    putBe32(z, adler.value());
    return z;
}

}  // namespace

Status writePngGray(const std::filesystem::path& path, View2<const float> image, double lo,
                    double hi) {
    const std::size_t w = image.cols();
    const std::size_t h = image.rows();
    constexpr std::size_t kMaxSide = 0x7FFFFFFF;
    if (w == 0 || h == 0)
        return invalidArgument(path.string() + ": cannot write an empty " + std::to_string(h) +
                               "x" + std::to_string(w) + " image as PNG");
    if (w > kMaxSide || h > kMaxSide || (w + 1) > std::numeric_limits<std::size_t>::max() / h)
        return invalidArgument(path.string() + ": image too large for PNG");
    if (!(lo < hi)) {  // own range over the finite values
        lo = std::numeric_limits<double>::infinity();
        hi = -lo;
        for (std::size_t r = 0; r < h; ++r)
            for (float v : image.row(r))
                if (std::isfinite(v)) {
                    lo = std::min(lo, static_cast<double>(v));
                    hi = std::max(hi, static_cast<double>(v));
                }
    }
    const double scale = (hi > lo) ? 255.0 / (hi - lo) : 0.0;  // constant image -> all 0

    std::vector<std::uint8_t> raw;
    raw.reserve(h * (w + 1));
    for (std::size_t r = 0; r < h; ++r) {
        raw.push_back(0);  // filter type None
        for (float v : image.row(r)) {
            double g = (static_cast<double>(v) - lo) * scale;
            g = (g > 0.0) ? std::min(std::round(g), 255.0) : 0.0;  // NaN -> 0, clamped
            raw.push_back(static_cast<std::uint8_t>(g));
        }
    }
    std::vector<std::uint8_t> z = zlibStored(raw);

    const Crc32 crc;
    std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    std::vector<std::uint8_t> ihdr;
    putBe32(ihdr, static_cast<std::uint32_t>(w));
    putBe32(ihdr, static_cast<std::uint32_t>(h));
    ihdr.insert(ihdr.end(),
                {8, 0, 0, 0, 0});  // bit depth 8, greyscale, deflate, filter 0, no interlace
    appendChunk(png, "IHDR", ihdr.data(), ihdr.size(), crc);
    for (std::size_t pos = 0; pos < z.size(); pos += kIdatChunkBytes)
        appendChunk(png, "IDAT", z.data() + pos, std::min(kIdatChunkBytes, z.size() - pos), crc);
    appendChunk(png, "IEND", nullptr, 0, crc);
    return writeFileAtomic(path, png.data(), png.size());
}

}  // namespace tomo
