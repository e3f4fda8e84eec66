#pragma once
// Helpers shared by the io tests: a scratch directory removed at the end, and file listing.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace tomo::test {

/// A fresh directory under the system temp dir, removed with its content on destruction.
class ScratchDir {
  public:
    explicit ScratchDir(const std::string& tag) {
        auto base = std::filesystem::temp_directory_path();
        for (int n = 0;; ++n) {
            m_path =
                base / ("tomo-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(n));
            if (std::filesystem::create_directory(m_path)) break;
        }
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::permissions(m_path, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(m_path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

    /// Sorted file names in the directory.
    std::vector<std::string> list() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(m_path))
            names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

  private:
    std::filesystem::path m_path;
};

inline std::vector<unsigned char> readBytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::filesystem::path& p, const void* data, std::size_t n) {
    std::ofstream out(p, std::ios::binary);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
}

}  // namespace tomo::test
