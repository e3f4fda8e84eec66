// Header checks of HeaderChecks.h (NIfTI field offsets from nifti1.h and nifti2.h).
#include "core/itkio/HeaderChecks.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <span>
#include <string>
#include <vector>

namespace tomo {
namespace {

constexpr std::size_t kHeaderBytes = 540;  // NIfTI-2; NIfTI-1 is 348

class Fields {
  public:
    Fields(const std::uint8_t* bytes, bool swap) : m_bytes(bytes), m_swap(swap) {}
    template <class T>
    T at(std::size_t offset) const {
        std::uint8_t b[sizeof(T)];
        std::memcpy(b, m_bytes + offset, sizeof(T));
        if (m_swap) std::reverse(b, b + sizeof(T));
        T v;
        std::memcpy(&v, b, sizeof(T));
        return v;
    }

  private:
    const std::uint8_t* m_bytes;
    bool m_swap;
};

struct Field {
    const char* name;
    std::size_t offset;
    int count;
};

/// The NIfTI-1 (@p version 1) or NIfTI-2 layout of dim[] and bitpix: the data bytes, or
/// InvalidData when dim[0] is not 1..7, a used size is not positive, or bitpix is not a
/// multiple of 8 in 8..256 (nifti1.h: the largest type, complex256, has 256 bits).
Result<long double> niftiDataBytes(const std::string& name, const Fields& fields, int version) {
    auto dim = [&](int k) -> std::int64_t {
        return version == 1 ? fields.at<std::int16_t>(40 + 2 * static_cast<std::size_t>(k))
                            : fields.at<std::int64_t>(16 + 8 * static_cast<std::size_t>(k));
    };
    const std::int64_t rank = dim(0);
    if (rank < 1 || rank > 7)
        return invalidData(name + ": NIfTI dim[0] is " + std::to_string(rank) +
                           " (the number of dimensions must be 1 to 7)");
    long double count = 1;
    for (int k = 1; k <= rank; ++k) {
        if (dim(k) < 1)
            return invalidData(name + ": NIfTI dim[" + std::to_string(k) + "] is " +
                               std::to_string(dim(k)) + " (sizes must be positive)");
        count *= static_cast<long double>(dim(k));
    }
    const int bitpix = fields.at<std::int16_t>(version == 1 ? 72 : 14);
    if (bitpix < 8 || bitpix > 256 || bitpix % 8 != 0)
        return invalidData(name + ": NIfTI bitpix is " + std::to_string(bitpix) +
                           " (must be a whole number of bytes, 8 to 256 bits)");
    return count * static_cast<long double>(bitpix / 8);
}

/// Checks that pixdim, the orientation and vox_offset of a NIfTI-@p version header are finite
/// and plausible (ITK aborts on a non-finite orientation).
Status checkNiftiFields(const std::string& name, const Fields& fields, int version) {
    // NIfTI-1: float fields; NIfTI-2: double fields.
    static constexpr Field kV1[] = {
        {"pixdim", 76, 8},  {"quatern_b/c/d", 256, 3}, {"qoffset", 268, 3},   {"srow_x", 280, 4},
        {"srow_y", 296, 4}, {"srow_z", 312, 4},        {"vox_offset", 108, 1}};
    static constexpr Field kV2[] = {{"pixdim", 104, 8},  {"quatern_b/c/d", 352, 3},
                                    {"qoffset", 376, 3}, {"srow_x", 400, 4},
                                    {"srow_y", 432, 4},  {"srow_z", 464, 4}};
    const bool isDouble = version == 2;
    for (const Field& field : isDouble ? std::span<const Field>(kV2) : std::span<const Field>(kV1))
        for (int k = 0; k < field.count; ++k) {
            const std::size_t at = field.offset + static_cast<std::size_t>(k) * (isDouble ? 8 : 4);
            const double value = isDouble ? fields.at<double>(at) : fields.at<float>(at);
            if (!std::isfinite(value) || std::abs(value) > 1e12)
                return invalidData(name + ": NIfTI header field " + field.name + "[" +
                                   std::to_string(k) + "] is " + std::to_string(value) +
                                   " (not finite or implausibly large)");
        }
    return Status::ok();
}

bool gzipName(const std::filesystem::path& path) {
    const std::string n = path.filename().string();
    return n.ends_with(".gz") || n.ends_with(".GZ");
}

}  // namespace

Status checkDataExtent(const std::string& name, const DataExtent& e) {
    const auto stored = static_cast<long double>(e.storedBytes);
    long double holds = stored;
    const char* how = "raw";
    switch (e.encoding) {
        case DataEncoding::Raw:
            break;
        case DataEncoding::Deflate:
            holds = stored * static_cast<long double>(kMaxDeflateRatio);
            how = "compressed (deflate expands at most 1032:1)";
            break;
        case DataEncoding::Hex:
            holds = stored / 2;
            how = "hexadecimal (two digits per byte)";
            break;
        case DataEncoding::Text:
            holds = (stored + 1) / 2 * static_cast<long double>(e.componentBytes);
            how = "text (a digit and a separator per value)";
            break;
    }
    if (e.decodedBytes <= holds) return Status::ok();
    return invalidData(name + ": header declares " +
                       std::to_string(static_cast<unsigned long long>(
                           std::min<long double>(e.decodedBytes, 1.8e19L))) +
                       " bytes of data but the file holds only " + std::to_string(e.storedBytes) +
                       " " + how + " bytes for it (truncated or corrupt)");
}

Status checkDeflateStream(const std::string& name, const std::filesystem::path& file,
                          std::uintmax_t offset, std::uintmax_t bytes, long double decodedBytes) {
    std::ifstream in(file, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    if (!in) return ioError(name + ": cannot read its compressed data");
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK)  // zlib or gzip, detected from the header
        return internalError(name + ": zlib inflateInit2 failed");
    std::vector<unsigned char> input(1 << 16), output(1 << 18);
    long double produced = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END && bytes > 0) {
        const auto want =
            static_cast<std::streamsize>(std::min<std::uintmax_t>(bytes, input.size()));
        in.read(reinterpret_cast<char*>(input.data()), want);
        if (in.gcount() != want) break;
        bytes -= static_cast<std::uintmax_t>(want);
        z.next_in = input.data();
        z.avail_in = static_cast<uInt>(want);
        do {
            z.next_out = output.data();
            z.avail_out = static_cast<uInt>(output.size());
            rc = inflate(&z, Z_NO_FLUSH);
            produced += static_cast<long double>(output.size() - z.avail_out);
        } while (rc == Z_OK && z.avail_out == 0 && produced <= decodedBytes);
        if ((rc != Z_OK && rc != Z_STREAM_END) || produced > decodedBytes) break;
    }
    inflateEnd(&z);
    if (rc == Z_STREAM_END && produced == decodedBytes) return Status::ok();
    const auto count = [](long double n) {
        return std::to_string(static_cast<unsigned long long>(n));
    };
    if (produced > decodedBytes)
        return invalidData(name + ": compressed data decodes to more than the " +
                           count(decodedBytes) + " bytes the header declares");
    if (rc == Z_STREAM_END)
        return invalidData(name + ": compressed data decodes to " + count(produced) +
                           " bytes, the header declares " + count(decodedBytes));
    return invalidData(name + ": compressed data ends early or is corrupt after " +
                       count(produced) + " of " + count(decodedBytes) + " bytes");
}

Result<NiftiHeader> checkNiftiHeader(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::uint8_t h[kHeaderBytes] = {};
    gzFile f = gzopen(path.c_str(), "rb");  // reads plain files as they are
    if (!f) return ioError(name + ": cannot open");
    const int n = gzread(f, h, sizeof h);
    gzclose(f);
    if (n < 348) return invalidData(name + ": too short for a NIfTI header");
    for (bool swap : {false, true}) {
        const Fields fields(h, swap);
        const auto size = fields.at<std::int32_t>(0);
        NiftiHeader header;
        if (size == 348) {
            header.version = 1;
            header.voxOffset = fields.at<float>(108);
        } else if (size == 540 && n >= 540) {
            header.version = 2;
            header.voxOffset = static_cast<double>(fields.at<std::int64_t>(168));
        } else {
            continue;
        }
        TOMO_RETURN_IF_ERROR(checkNiftiFields(name, fields, header.version));
        if (header.voxOffset < 0) return invalidData(name + ": negative NIfTI vox_offset");
        TOMO_ASSIGN_OR_RETURN(header.dataBytes, niftiDataBytes(name, fields, header.version));
        std::error_code ec;
        const std::uintmax_t fileBytes = std::filesystem::file_size(path, ec);
        if (ec) return ioError(name + ": cannot read its size: " + ec.message());
        DataExtent extent{header.dataBytes, fileBytes, DataEncoding::Deflate, 1};
        if (!gzipName(path)) {
            const auto offset = static_cast<std::uintmax_t>(header.voxOffset);
            extent = {header.dataBytes, fileBytes > offset ? fileBytes - offset : 0,
                      DataEncoding::Raw, 1};
        }
        TOMO_RETURN_IF_ERROR(checkDataExtent(name, extent));
        return header;
    }
    return invalidData(name + ": no NIfTI-1 or NIfTI-2 header (sizeof_hdr is neither 348 nor 540)");
}

Status checkVolumeHeader(const std::filesystem::path& path, VolumeFileFormat format) {
    switch (format) {
        case VolumeFileFormat::MetaImage:
            return checkMetaImageHeader(path);
        case VolumeFileFormat::Nrrd:
            return checkNrrdHeader(path);
        case VolumeFileFormat::Nifti:
            return checkNiftiHeader(path).status();
        case VolumeFileFormat::None:
            break;
    }
    return Status::ok();
}

}  // namespace tomo
