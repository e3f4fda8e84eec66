// The MetaImage and NRRD checks of HeaderChecks.h: both formats have a text header of key/value
// lines followed by (or pointing to) the element data.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/itkio/HeaderChecks.h"

namespace tomo {
namespace {

constexpr std::size_t kMaxHeaderBytes = 65536;
constexpr std::size_t kMaxMetaLine = 240;

/// One header line, already checked for control characters.
struct HeaderLine {
    std::string text;
    std::uintmax_t end = 0;  ///< byte offset just past its newline
    bool eof = false;        ///< no line was left
};

/// Reads the lines of a text header one at a time, refusing control characters (a NUL in a
/// header ends MetaIO's C strings early and leaves its stream in a state it does not check)
/// and headers over 64 KiB.
class HeaderReader {
  public:
    explicit HeaderReader(const std::filesystem::path& path)
        : m_name(path.string()), m_in(path, std::ios::binary) {}
    bool opened() const { return static_cast<bool>(m_in); }
    /// Reads the next line into @p out (without its newline or a trailing CR; eof set at the
    /// end of the file), or returns InvalidData.
    Status next(HeaderLine& out) {
        std::string line;
        if (!std::getline(m_in, line)) {
            out = HeaderLine{{}, m_offset, true};
            return Status::ok();
        }
        m_offset += line.size() + (m_in.eof() ? 0 : 1);
        if (m_offset > kMaxHeaderBytes)
            return invalidData(m_name + ": header longer than 64 KiB (corrupt?)");
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto bad = std::find_if(line.begin(), line.end(), [](char c) {
            return static_cast<unsigned char>(c) < 0x20 && c != '\t';
        });
        if (bad != line.end())
            return invalidData(m_name + ": header line " + std::to_string(m_lines + 1) +
                               " holds a control character (byte " +
                               std::to_string(static_cast<int>(static_cast<unsigned char>(*bad))) +
                               "): corrupt or not a header");
        ++m_lines;
        out = HeaderLine{std::move(line), m_offset, false};
        return Status::ok();
    }

  private:
    std::string m_name;
    std::ifstream m_in;
    std::uintmax_t m_offset = 0;
    int m_lines = 0;
};

std::string trim(const std::string& s) {
    const std::size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

/// Whitespace-separated integers of @p text; nullopt when any token is not one.
std::optional<std::vector<long long>> integers(const std::string& text) {
    std::vector<long long> out;
    std::size_t i = 0;
    while ((i = text.find_first_not_of(" \t", i)) != std::string::npos) {
        const std::size_t j = std::min(text.find_first_of(" \t", i), text.size());
        long long v = 0;
        const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + j, v);
        if (ec != std::errc() || ptr != text.data() + j) return std::nullopt;
        out.push_back(v);
        i = j;
    }
    return out;
}

/// A header field: its key and its value.
struct KeyValue {
    const char* key;
    std::string value;
};

/// The element count of a grid whose @p rank field is one integer in 1..@p maxRank and whose
/// @p sizes field has that many positive integers; InvalidData prefixed with @p what otherwise.
Result<long double> gridElements(const std::string& what, const KeyValue& rank, int maxRank,
                                 const KeyValue& sizes) {
    const auto n = integers(rank.value);
    if (!n || n->size() != 1 || (*n)[0] < 1 || (*n)[0] > maxRank)
        return invalidData(what + " " + rank.key + " '" + rank.value.substr(0, 40) +
                           "' must be an integer from 1 to " + std::to_string(maxRank));
    const auto each = integers(sizes.value);
    if (!each || each->size() != static_cast<std::size_t>((*n)[0]) ||
        std::any_of(each->begin(), each->end(), [](long long v) { return v < 1; }))
        return invalidData(what + " " + sizes.key + " '" + sizes.value.substr(0, 60) +
                           "' must give " + rank.key + " positive sizes");
    long double count = 1;
    for (long long v : *each)
        count *= static_cast<long double>(v);
    return count;
}

/// The size of the data file @p file named by the header @p header (relative to its folder).
Result<std::uintmax_t> dataFileBytes(const std::filesystem::path& header, const std::string& file) {
    const std::filesystem::path p = header.parent_path() / file;
    std::error_code ec;
    const std::uintmax_t bytes = std::filesystem::file_size(p, ec);
    if (ec)
        return notFound(header.string() + ": its data file " + p.string() +
                        " cannot be read: " + ec.message());
    return bytes;
}

std::uintmax_t skipBytes(std::uintmax_t bytes, long long skip) {
    const auto s = static_cast<std::uintmax_t>(std::max(0LL, skip));
    return bytes > s ? bytes - s : 0;
}

/// A data file value that names one file: not LIST, and no pattern (MetaIO divides by a
/// pattern's step, SIGFPE on a step of 0).
bool singleFile(const std::string& value) {
    return !value.empty() && value != "LIST" && value.find_first_of(" \t%") == std::string::npos;
}

/// MetaIO's scalar element types and their sizes (metaTypes.h).
std::uintmax_t metaElementBytes(const std::string& type) {
    static const std::map<std::string, std::uintmax_t> kSizes = {
        {"MET_ASCII_CHAR", 1}, {"MET_CHAR", 1},      {"MET_UCHAR", 1},      {"MET_SHORT", 2},
        {"MET_USHORT", 2},     {"MET_INT", 4},       {"MET_UINT", 4},       {"MET_LONG", 4},
        {"MET_ULONG", 4},      {"MET_LONG_LONG", 8}, {"MET_ULONG_LONG", 8}, {"MET_FLOAT", 4},
        {"MET_DOUBLE", 8}};
    const auto it = kSizes.find(type);
    return it == kSizes.end() ? 0 : it->second;
}

/// The key/value pairs of a MetaImage header up to and including ElementDataFile, and the byte
/// offset just past that line.
struct MetaFields {
    std::map<std::string, std::string> values;
    std::uintmax_t dataOffset = 0;
};

Result<MetaFields> readMetaFields(const std::filesystem::path& path) {
    const std::string name = path.string();
    HeaderReader reader(path);
    if (!reader.opened()) return ioError(name + ": cannot open");
    MetaFields fields;
    for (;;) {
        HeaderLine line;
        TOMO_RETURN_IF_ERROR(reader.next(line));
        if (line.eof) break;
        const std::string& text = line.text;
        // MetaIO copies string values into fixed 255-byte members (Name, Comment, ...): a longer
        // line overflows the heap.
        if (text.size() > kMaxMetaLine)
            return invalidData(name + ": MetaImage header line of " + std::to_string(text.size()) +
                               " characters (at most " + std::to_string(kMaxMetaLine) + ")");
        if (trim(text).empty()) continue;
        // MetaIO matches keys by prefix, so "ElementDataFileXyz = ..." or "CompressedDataSize (=
        // 3" are taken for fields it then parses wrongly: every key must be a plain name.
        const std::size_t eq = text.find_first_of("=:");
        const std::string key = trim(text.substr(0, eq));
        const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
        if (eq == std::string::npos || !plain)
            return invalidData(name + ": MetaImage header line '" + text.substr(0, 80) +
                               "' is not 'Key = value'");
        // MetaIO also takes "ElementDataFileXyz" for ElementDataFile (an ITK division by zero
        // found by fuzz_mha) and looks for NDims anywhere on a line.
        if ((key.starts_with("ElementDataFile") && key != "ElementDataFile") ||
            (key != "NDims" && text.find("NDims") != std::string::npos))
            return invalidData(name + ": MetaImage header line '" + text.substr(0, 80) +
                               "' misuses the name of a field");
        const std::string value = trim(text.substr(eq + 1));
        // MetaIO skips further separators ("BinaryData =  = Tru" is true to it): refused, so
        // that these checks read every value as MetaIO does.
        if (value.starts_with('=') || value.starts_with(':'))
            return invalidData(name + ": MetaImage header line '" + text.substr(0, 80) +
                               "' is not 'Key = value'");
        if (fields.values.count(key))
            return invalidData(name + ": MetaImage header repeats " + key);
        fields.values[key] = value;
        if (key == "ElementDataFile") {
            fields.dataOffset = line.end;
            return fields;
        }
    }
    return invalidData(name + ": MetaImage header has no ElementDataFile line");
}

}  // namespace

Status checkMetaImageHeader(const std::filesystem::path& path) {
    const std::string name = path.string();
    TOMO_ASSIGN_OR_RETURN(MetaFields f, readMetaFields(path));
    auto value = [&](const char* key) { return f.values.count(key) ? f.values[key] : ""; };
    TOMO_ASSIGN_OR_RETURN(const long double elements,
                          gridElements(name + ": MetaImage", {"NDims", value("NDims")}, 8,
                                       {"DimSize", value("DimSize")}));
    const std::uintmax_t componentBytes = metaElementBytes(value("ElementType"));
    if (componentBytes == 0)
        return unsupported(name + ": MetaImage ElementType '" + value("ElementType").substr(0, 40) +
                           "' is not a scalar type");
    long long channels = 1;
    if (f.values.count("ElementNumberOfChannels")) {
        const auto c = integers(value("ElementNumberOfChannels"));
        if (!c || c->size() != 1 || (*c)[0] < 1 || (*c)[0] > 64)
            return invalidData(name + ": MetaImage ElementNumberOfChannels must be 1 to 64");
        channels = (*c)[0];
    }
    const long double decoded = elements * static_cast<long double>(componentBytes) * channels;

    const std::string dataFile = value("ElementDataFile");
    if (!singleFile(dataFile))
        return unsupported(name + ": MetaImage ElementDataFile '" + dataFile.substr(0, 80) +
                           "' is not LOCAL or a single data file (file lists and patterns are "
                           "not read)");
    std::uintmax_t stored = 0;
    std::filesystem::path dataPath = path;
    std::uintmax_t dataOffset = f.dataOffset;
    if (dataFile == "LOCAL") {
        std::error_code ec;
        const std::uintmax_t fileBytes = std::filesystem::file_size(path, ec);
        if (ec) return ioError(name + ": cannot read its size: " + ec.message());
        stored = skipBytes(fileBytes, static_cast<long long>(f.dataOffset));
    } else {
        dataPath = path.parent_path() / dataFile;
        TOMO_ASSIGN_OR_RETURN(stored, dataFileBytes(path, dataFile));
        long long skip = 0;
        if (f.values.count("HeaderSize")) {
            const auto s = integers(value("HeaderSize"));
            if (!s || s->size() != 1 || (*s)[0] < -1)
                return invalidData(name + ": MetaImage HeaderSize must be -1 or a byte count");
            skip = (*s)[0];
        }
        dataOffset = static_cast<std::uintmax_t>(std::max(0LL, skip));
        stored = skipBytes(stored, skip);
    }
    // MetaIO reads a boolean as true when its first character is T, t or 1.
    auto flag = [&](const char* key, bool absent) {
        const std::string v = value(key);
        return f.values.count(key) ? !v.empty() && (v[0] == 'T' || v[0] == 't' || v[0] == '1')
                                   : absent;
    };
    const bool deflate = flag("CompressedData", false);
    if (deflate && !f.values.count("CompressedDataSize"))
        // Without it ITK 5.2's MetaIO decodes the wrong bytes and reports success (found with
        // fuzz_mha and valgrind).
        return unsupported(name +
                           ": compressed MetaImage without CompressedDataSize is not read "
                           "(ITK 5.2 misreads it; rewrite the file with ITK or tomo convert)");
    if (deflate) {
        const auto size = integers(value("CompressedDataSize"));
        if (!size || size->size() != 1 || (*size)[0] < 1 ||
            static_cast<std::uintmax_t>((*size)[0]) > stored)
            return invalidData(name + ": MetaImage CompressedDataSize '" +
                               value("CompressedDataSize").substr(0, 40) +
                               "' is not a size within the " + std::to_string(stored) +
                               " bytes after the header (corrupt)");
        stored = static_cast<std::uintmax_t>((*size)[0]);
    }
    DataEncoding encoding = deflate ? DataEncoding::Deflate : DataEncoding::Raw;
    if (!flag("BinaryData", true)) encoding = DataEncoding::Text;
    TOMO_RETURN_IF_ERROR(checkDataExtent(name, {decoded, stored, encoding, componentBytes}));
    if (encoding != DataEncoding::Deflate) return Status::ok();
    return checkDeflateStream(name, dataPath, dataOffset, stored, decoded);
}

namespace {

/// NRRD's type names (nrrd format specification, "type") and their sizes; 0 when unknown.
std::uintmax_t nrrdTypeBytes(const std::string& type) {
    static const std::map<std::string, std::uintmax_t> kSizes = {{"signed char", 1},
                                                                 {"int8", 1},
                                                                 {"int8_t", 1},
                                                                 {"uchar", 1},
                                                                 {"unsigned char", 1},
                                                                 {"uint8", 1},
                                                                 {"uint8_t", 1},
                                                                 {"short", 2},
                                                                 {"short int", 2},
                                                                 {"signed short", 2},
                                                                 {"signed short int", 2},
                                                                 {"int16", 2},
                                                                 {"int16_t", 2},
                                                                 {"ushort", 2},
                                                                 {"unsigned short", 2},
                                                                 {"unsigned short int", 2},
                                                                 {"uint16", 2},
                                                                 {"uint16_t", 2},
                                                                 {"int", 4},
                                                                 {"signed int", 4},
                                                                 {"int32", 4},
                                                                 {"int32_t", 4},
                                                                 {"uint", 4},
                                                                 {"unsigned int", 4},
                                                                 {"uint32", 4},
                                                                 {"uint32_t", 4},
                                                                 {"longlong", 8},
                                                                 {"long long", 8},
                                                                 {"long long int", 8},
                                                                 {"signed long long", 8},
                                                                 {"signed long long int", 8},
                                                                 {"int64", 8},
                                                                 {"int64_t", 8},
                                                                 {"ulonglong", 8},
                                                                 {"unsigned long long", 8},
                                                                 {"unsigned long long int", 8},
                                                                 {"uint64", 8},
                                                                 {"uint64_t", 8},
                                                                 {"float", 4},
                                                                 {"double", 8}};
    const auto it = kSizes.find(type);
    return it == kSizes.end() ? 0 : it->second;
}

struct NrrdFields {
    std::map<std::string, std::string> values;
    std::uintmax_t dataOffset = 0;  ///< just past the blank line that ends the header
};

Result<NrrdFields> readNrrdFields(const std::filesystem::path& path) {
    const std::string name = path.string();
    HeaderReader reader(path);
    if (!reader.opened()) return ioError(name + ": cannot open");
    NrrdFields f;
    HeaderLine magic;
    TOMO_RETURN_IF_ERROR(reader.next(magic));
    if (magic.eof || !magic.text.starts_with("NRRD000"))
        return invalidData(name + ": no NRRD magic line (NRRD000n)");
    for (;;) {
        HeaderLine line;
        TOMO_RETURN_IF_ERROR(reader.next(line));
        if (line.eof || line.text.empty()) {
            f.dataOffset = line.eof ? 0 : line.end;
            return f;
        }
        const std::string& text = line.text;
        if (text.starts_with('#')) continue;
        const std::size_t pairAt = text.find(":=");  // key/value pairs carry no field
        const std::size_t colon = text.find(": ");
        if (pairAt != std::string::npos && (colon == std::string::npos || pairAt < colon)) continue;
        if (colon == std::string::npos)
            return invalidData(name + ": NRRD header line '" + text.substr(0, 80) +
                               "' is not 'field: value'");
        std::string key = text.substr(0, colon);
        std::transform(key.begin(), key.end(), key.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        key.erase(std::remove(key.begin(), key.end(), ' '), key.end());  // "data file" = datafile
        if (f.values.count(key)) return invalidData(name + ": NRRD header repeats field " + key);
        f.values[key] = trim(text.substr(colon + 2));
    }
}

Result<DataEncoding> nrrdEncoding(const std::string& name, const std::string& encoding) {
    if (encoding == "raw") return DataEncoding::Raw;
    if (encoding == "txt" || encoding == "text" || encoding == "ascii") return DataEncoding::Text;
    if (encoding == "hex") return DataEncoding::Hex;
    if (encoding == "gz" || encoding == "gzip") return DataEncoding::Deflate;
    if (encoding == "bz2" || encoding == "bzip2")
        return unsupported(name + ": bzip2-encoded NRRD data is not read (use raw or gzip)");
    return invalidData(name + ": unknown NRRD encoding '" + encoding.substr(0, 40) + "'");
}

}  // namespace

Status checkNrrdHeader(const std::filesystem::path& path) {
    const std::string name = path.string();
    TOMO_ASSIGN_OR_RETURN(NrrdFields f, readNrrdFields(path));
    auto value = [&](const char* key) { return f.values.count(key) ? f.values[key] : ""; };
    TOMO_ASSIGN_OR_RETURN(const long double elements,
                          gridElements(name + ": NRRD", {"dimension", value("dimension")}, 16,
                                       {"sizes", value("sizes")}));
    const std::uintmax_t componentBytes = nrrdTypeBytes(value("type"));
    if (componentBytes == 0)
        return unsupported(name + ": NRRD type '" + value("type").substr(0, 40) +
                           "' is not a scalar type");
    const long double decoded = elements * static_cast<long double>(componentBytes);
    TOMO_ASSIGN_OR_RETURN(DataEncoding encoding, nrrdEncoding(name, value("encoding")));

    std::uintmax_t stored = 0;
    const std::string dataFile = value("datafile");
    if (dataFile.empty()) {
        std::error_code ec;
        const std::uintmax_t fileBytes = std::filesystem::file_size(path, ec);
        if (ec) return ioError(name + ": cannot read its size: " + ec.message());
        if (f.dataOffset == 0) return invalidData(name + ": NRRD header without data");
        stored = skipBytes(fileBytes, static_cast<long long>(f.dataOffset));
    } else {
        if (!singleFile(dataFile))
            return unsupported(name + ": NRRD data file '" + dataFile.substr(0, 80) +
                               "' is not a single file (lists and patterns are not read)");
        TOMO_ASSIGN_OR_RETURN(stored, dataFileBytes(path, dataFile));
    }
    if (f.values.count("byteskip")) {
        const auto skip = integers(value("byteskip"));
        if (!skip || skip->size() != 1 || (*skip)[0] < -1)
            return invalidData(name + ": NRRD byte skip must be -1 or a byte count");
        stored = skipBytes(stored, (*skip)[0]);
    }
    return checkDataExtent(name, {decoded, stored, encoding, componentBytes});
}

}  // namespace tomo
