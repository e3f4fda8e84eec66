// TIFF stacks of TiffStack.h, on top of the page reader of TiffFormat.h.
#include "core/io/TiffStack.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <system_error>

#include "core/io/ImageIO.h"

namespace tomo {
namespace {

bool hasPatternChars(const std::string& name) {
    return name.find_first_of("*?[") != std::string::npos;
}

bool isTiffName(const std::string& name) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.ends_with(".tif") || lower.ends_with(".tiff");
}

/// Natural order: digit runs compare by value (then by length, so "01" < "001" stays stable).
bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const auto ca = static_cast<unsigned char>(a[i]), cb = static_cast<unsigned char>(b[j]);
        if (std::isdigit(ca) && std::isdigit(cb)) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])))
                ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])))
                ++je;
            std::size_t is = i, js = j;  // skip leading zeros for the value comparison
            while (is + 1 < ie && a[is] == '0')
                ++is;
            while (js + 1 < je && b[js] == '0')
                ++js;
            if (ie - is != je - js) return ie - is < je - js;
            const int c = a.compare(is, ie - is, b, js, je - js);
            if (c != 0) return c < 0;
            if (ie - i != je - j) return ie - i < je - j;
            i = ie;
            j = je;
        } else {
            if (ca != cb) return ca < cb;
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

}  // namespace

bool isTiffStackPath(const std::filesystem::path& path) {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec) || hasPatternChars(path.filename().string());
}

Result<std::vector<std::filesystem::path>> listTiffStack(const std::filesystem::path& path) {
    std::error_code ec;
    const bool isDir = std::filesystem::is_directory(path, ec);
    const std::string pattern = isDir ? std::string() : path.filename().string();
    if (!isDir && !hasPatternChars(pattern))
        return invalidArgument(path.string() +
                               ": a TIFF stack is a folder or a pattern such as "
                               "'proj_*.tif'");
    const std::filesystem::path folder =
        isDir ? path : (path.has_parent_path() ? path.parent_path() : std::filesystem::path("."));
    std::vector<std::string> names;
    std::filesystem::directory_iterator it(folder, ec), end;
    if (ec) return notFound(folder.string() + ": cannot list folder: " + ec.message());
    for (; it != end; it.increment(ec)) {
        if (ec) return ioError(folder.string() + ": listing failed: " + ec.message());
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.' || !it->is_regular_file(ec)) continue;
        if (isDir ? isTiffName(name) : ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0)
            names.push_back(name);
    }
    if (names.empty())
        return notFound(path.string() + ": no " +
                        (isDir ? "TIFF files in folder" : "file matches"));
    std::sort(names.begin(), names.end(), naturalLess);
    std::vector<std::filesystem::path> files;
    files.reserve(names.size());
    for (const auto& n : names)
        files.push_back(folder / n);
    return files;
}

Result<Array3<float>> readTiffStack(const std::filesystem::path& path, const ReadRange& range) {
    TOMO_ASSIGN_OR_RETURN(auto files, listTiffStack(path));
    TOMO_ASSIGN_OR_RETURN(TiffInfo first, probeTiff(files[0]));
    TOMO_ASSIGN_OR_RETURN(ReadRange r, range.resolve(files.size(), first.height, path.string()));
    const ReadRange rows{0, 1, r.firstRow, r.rowCount};
    Array3<float> out;
    for (std::size_t k = 0; k < r.planeCount; ++k) {
        const auto& file = files[r.firstPlane + k];
        TOMO_ASSIGN_OR_RETURN(TiffInfo info, probeTiff(file));
        if (info.pages != 1)
            return invalidData(file.string() + ": holds " + std::to_string(info.pages) +
                               " pages; every file of a TIFF stack must hold one");
        if (info.width != first.width || info.height != first.height)
            return invalidData(file.string() + ": size " + std::to_string(info.width) + "x" +
                               std::to_string(info.height) + " differs from " +
                               files[0].filename().string() + " (" + std::to_string(first.width) +
                               "x" + std::to_string(first.height) + ")");
        TOMO_ASSIGN_OR_RETURN(Array3<float> page, readTiffRange(file, rows));
        if (k == 0) {
            TOMO_ASSIGN_OR_RETURN(out,
                                  Array3<float>::create(r.planeCount, r.rowCount, first.width));
        }
        for (std::size_t row = 0; row < r.rowCount; ++row)
            std::copy(page.row(0, row).begin(), page.row(0, row).end(), out.row(k, row).begin());
    }
    return out;
}

std::filesystem::path tiffStackFile(const std::filesystem::path& folder, const std::string& stem,
                                    std::size_t k, std::size_t count) {
    const std::size_t digits = std::max<std::size_t>(5, std::to_string(count - 1).size());
    std::string index = std::to_string(k);
    index.insert(0, digits - index.size(), '0');
    return folder / (stem + "_" + index + ".tif");
}

Status writeTiffStack(const std::filesystem::path& folder, const std::string& stem,
                      const Array3<float>& data, const Tiff16Scale* map) {
    if (data.empty()) return invalidArgument(folder.string() + ": cannot write an empty stack");
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) return ioError(folder.string() + ": cannot create folder: " + ec.message());
    std::vector<std::filesystem::path> written;
    Array3<float> page(1, data.dim(1), data.dim(2));
    for (std::size_t k = 0; k < data.dim(0); ++k) {
        const auto file = tiffStackFile(folder, stem, k, data.dim(0));
        for (std::size_t r = 0; r < data.dim(1); ++r)
            std::copy(data.row(k, r).begin(), data.row(k, r).end(), page.row(0, r).begin());
        Status s = map ? writeTiff16(file, page, *map) : writeTiff(file, page);
        if (!s.isOk()) {
            for (const auto& w : written)
                std::filesystem::remove(w, ec);
            return s;
        }
        written.push_back(file);
    }
    return Status::ok();
}

}  // namespace tomo
