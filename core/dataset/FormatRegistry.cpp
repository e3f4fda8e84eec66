// File formats by name and extension, and the capability-checking wrappers around them.
#include "core/dataset/FormatRegistry.h"

#include <algorithm>
#include <cctype>

namespace tomo {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

Status missingCapability(const FileFormat& f, const std::filesystem::path& path,
                         const char* capability) {
    return unsupported(path.string() + ": the " + f.name + " format cannot " + capability);
}

/// NotFound / InvalidArgument for a missing file or a folder, except for formats read from
/// folders or patterns (no extension: a TIFF stack), whose reader lists the files itself.
Status checkExists(const FileFormat& format, const std::filesystem::path& path) {
    if (format.extensions.empty()) return Status::ok();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return notFound(path.string() + ": no such file");
    if (std::filesystem::is_directory(path, ec))
        return invalidArgument(path.string() + ": is a directory, not a file");
    return Status::ok();
}

}  // namespace

Status FormatRegistry::add(FileFormat format) {
    if (format.name.empty()) return invalidArgument("a file format needs a name");
    if (format.extensions.empty() && format.name != "tiff-stack")  // stacks are folders/patterns
        return invalidArgument("file format '" + format.name + "' has no extension");
    for (auto& e : format.extensions)
        e = lower(e);
    auto same = std::find_if(m_formats.begin(), m_formats.end(),
                             [&](const FileFormat& f) { return f.name == format.name; });
    if (same != m_formats.end()) m_formats.erase(same);
    m_formats.push_back(std::move(format));
    return Status::ok();
}

Result<const FileFormat*> FormatRegistry::byName(const std::string& name) const {
    std::string known;
    for (const FileFormat& f : m_formats) {
        if (f.name == name) return &f;
        known += (known.empty() ? "" : ", ") + f.name;
    }
    return notFound("unknown file format '" + name + "' (known: " + known + ")");
}

Result<const FileFormat*> FormatRegistry::forPath(const std::filesystem::path& path) const {
    // Folders and wildcard patterns are image stacks; files match their longest registered
    // suffix (".nii.gz" before ".gz"), later registrations first.
    const std::string name = lower(path.filename().string());
    std::error_code ec;
    if (name.find_first_of("*?") != std::string::npos || std::filesystem::is_directory(path, ec)) {
        for (auto it = m_formats.rbegin(); it != m_formats.rend(); ++it)
            if (it->name == "tiff-stack") return &*it;
        return invalidArgument(path.string() +
                               ": a folder or pattern, but this build reads no image stacks");
    }
    const FileFormat* best = nullptr;
    std::size_t bestLength = 0;
    for (auto it = m_formats.rbegin(); it != m_formats.rend(); ++it)
        for (const std::string& e : it->extensions)
            if (e.size() > bestLength && name.size() > e.size() &&
                name.compare(name.size() - e.size(), e.size(), e) == 0) {
                best = &*it;
                bestLength = e.size();
            }
    if (best) return best;
    std::string known;
    for (const FileFormat& f : m_formats)
        for (const std::string& e : f.extensions)
            known += (known.empty() ? "" : " ") + e;
    return invalidArgument(path.string() + ": unknown file type '" +
                           lower(path.extension().string()) + "' (known: " + known + ")");
}

Result<std::unique_ptr<AcquisitionReader>> FormatRegistry::openAcquisition(
    const std::filesystem::path& path, const ReadOptions& options) const {
    TOMO_ASSIGN_OR_RETURN(const FileFormat* f, forPath(path));
    if (!f->openAcquisition) return missingCapability(*f, path, "hold projections");
    TOMO_RETURN_IF_ERROR(checkExists(*f, path));
    return f->openAcquisition(path, options);
}

Result<Array3<float>> FormatRegistry::readVolume(const std::filesystem::path& path,
                                                 const ReadOptions& options) const {
    TOMO_ASSIGN_OR_RETURN(const FileFormat* f, forPath(path));
    if (!f->readVolume) return missingCapability(*f, path, "be read as a volume");
    TOMO_RETURN_IF_ERROR(checkExists(*f, path));
    return f->readVolume(path, options);
}

Status FormatRegistry::writeVolume(const std::filesystem::path& path, const Array3<float>& volume,
                                   const WriteOptions& options) const {
    TOMO_ASSIGN_OR_RETURN(const FileFormat* f, forPath(path));
    if (!f->writeVolume) return missingCapability(*f, path, "be written");
    if (volume.empty()) return invalidArgument(path.string() + ": nothing to write (empty volume)");
    return f->writeVolume(path, volume, options);
}

Result<FileDescription> FormatRegistry::describe(const std::filesystem::path& path,
                                                 const ReadOptions& options) const {
    TOMO_ASSIGN_OR_RETURN(const FileFormat* f, forPath(path));
    if (!f->describe) return missingCapability(*f, path, "be described");
    TOMO_RETURN_IF_ERROR(checkExists(*f, path));
    return f->describe(path, options);
}

Result<std::unique_ptr<VolumeWriter>> FormatRegistry::openVolumeWriter(
    const std::filesystem::path& path, const std::array<std::size_t, 3>& shape,
    const WriteOptions& options) const {
    TOMO_ASSIGN_OR_RETURN(const FileFormat* f, forPath(path));
    if (!f->openVolumeWriter) return missingCapability(*f, path, "be written by slabs (streamed)");
    if (shape[0] == 0 || shape[1] == 0 || shape[2] == 0)
        return invalidArgument(path.string() + ": nothing to write (empty volume)");
    return f->openVolumeWriter(path, shape, options);
}

Result<std::unique_ptr<VolumeReader>> FormatRegistry::openVolumeReader(
    const std::filesystem::path& path, const ReadOptions& options) const {
    TOMO_ASSIGN_OR_RETURN(const FileFormat* f, forPath(path));
    if (!f->openVolumeReader) return missingCapability(*f, path, "be read by planes");
    TOMO_RETURN_IF_ERROR(checkExists(*f, path));
    return f->openVolumeReader(path, options);
}

}  // namespace tomo
