// Header checks of HeaderChecks.h (NIfTI field offsets from nifti1.h and nifti2.h).
#include "core/itkio/HeaderChecks.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <string>

namespace tomo {
namespace {

constexpr std::size_t kHeaderBytes = 540;  // NIfTI-2; NIfTI-1 is 348
constexpr std::size_t kMaxMetaLine = 240;

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

}  // namespace

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
        // NIfTI-1: float fields; NIfTI-2: double fields.
        static constexpr Field kV1[] = {{"pixdim", 76, 8},     {"quatern_b/c/d", 256, 3},
                                        {"qoffset", 268, 3},   {"srow_x", 280, 4},
                                        {"srow_y", 296, 4},    {"srow_z", 312, 4},
                                        {"vox_offset", 108, 1}};
        static constexpr Field kV2[] = {{"pixdim", 104, 8},  {"quatern_b/c/d", 352, 3},
                                        {"qoffset", 376, 3}, {"srow_x", 400, 4},
                                        {"srow_y", 432, 4},  {"srow_z", 464, 4}};
        double value = 0;
        auto check = [&](const Field& field, bool isDouble) -> Status {
            for (int k = 0; k < field.count; ++k) {
                const std::size_t at =
                    field.offset + static_cast<std::size_t>(k) * (isDouble ? 8 : 4);
                value = isDouble ? fields.at<double>(at) : fields.at<float>(at);
                if (!std::isfinite(value) || std::abs(value) > 1e12)
                    return invalidData(name + ": NIfTI header field " + field.name + "[" +
                                       std::to_string(k) + "] is " + std::to_string(value) +
                                       " (not finite or implausibly large)");
            }
            return Status::ok();
        };
        if (size == 348) {
            for (const Field& field : kV1)
                TOMO_RETURN_IF_ERROR(check(field, false));
            header.version = 1;
            header.voxOffset = fields.at<float>(108);
            if (header.voxOffset < 0) return invalidData(name + ": negative NIfTI vox_offset");
            return header;
        }
        if (size == 540 && n >= 540) {
            for (const Field& field : kV2)
                TOMO_RETURN_IF_ERROR(check(field, true));
            header.version = 2;
            const auto offset = fields.at<std::int64_t>(168);
            if (offset < 0) return invalidData(name + ": negative NIfTI vox_offset");
            header.voxOffset = static_cast<double>(offset);
            return header;
        }
    }
    return invalidData(name + ": no NIfTI-1 or NIfTI-2 header (sizeof_hdr is neither 348 nor 540)");
}

Status checkMetaImageHeader(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::ifstream in(path, std::ios::binary);
    if (!in) return ioError(name + ": cannot open");
    static const std::regex kNDims(R"(^\s*NDims\s*[=:]\s*([0-9]{1,2})\s*$)");
    std::string line;
    std::size_t bytes = 0;
    bool found = false;
    while (std::getline(in, line)) {
        bytes += line.size() + 1;
        if (bytes > 65536)
            return invalidData(name + ": MetaImage header longer than 64 KiB (corrupt?)");
        if (!line.empty() && line.back() == '\r') line.pop_back();
        // MetaIO copies string values into fixed 255-byte members (Name, Comment, ...): a longer
        // line overflows the heap.
        if (line.size() > kMaxMetaLine)
            return invalidData(name + ": MetaImage header line of " + std::to_string(line.size()) +
                               " characters (at most " + std::to_string(kMaxMetaLine) + ")");
        const std::size_t key = line.find_first_not_of(" \t");
        if (key == std::string::npos) continue;
        if (line.compare(key, 15, "ElementDataFile") == 0) {
            // MetaIO matches keys by prefix, so "ElementDataFileXyz = ..." would be taken as the
            // data file line while the real one comes later (an ITK division by zero found by
            // fuzz_mha): the key must be exactly ElementDataFile.
            const std::size_t afterKey = line.find_first_not_of(" \t", key + 15);
            if (afterKey == std::string::npos || (line[afterKey] != '=' && line[afterKey] != ':'))
                return invalidData(name + ": MetaImage header line '" + line.substr(0, 80) +
                                   "' is not 'ElementDataFile = ...'");
            // MetaIO divides by the step of "name%d.raw first last step" patterns (SIGFPE on a
            // step of 0): accept only LOCAL and a single file name.
            const std::size_t eq = line.find_first_of("=:", key);
            const std::size_t v0 =
                eq == std::string::npos ? eq : line.find_first_not_of(" \t", eq + 1);
            const std::size_t v1 = line.find_last_not_of(" \t");
            const std::string value = v0 == std::string::npos ? "" : line.substr(v0, v1 - v0 + 1);
            if (value.empty() || value == "LIST" ||
                value.find_first_of(" \t%") != std::string::npos)
                return unsupported(name + ": MetaImage ElementDataFile '" + value.substr(0, 80) +
                                   "' is not LOCAL or a single data file (file lists and "
                                   "patterns are not read)");
            break;
        }
        if (line.find("NDims") == std::string::npos) continue;
        // MetaIO takes the last of repeated keys and looks for them anywhere on a line: every
        // line that mentions NDims must hold a valid one.
        std::smatch m;
        if (!std::regex_match(line, m, kNDims) || std::stoi(m[1]) < 1 || std::stoi(m[1]) > 8)
            return invalidData(name + ": MetaImage header line '" + line.substr(0, 80) +
                               "' must give NDims as an integer from 1 to 8");
        found = true;
    }
    if (!found) return invalidData(name + ": MetaImage header has no NDims line before the data");
    return Status::ok();
}

}  // namespace tomo
