#pragma once
// Shared by the libFuzzer harnesses: the readers are file based, so each input is written into a
// fresh temporary folder (removed again after the call) under the names a harness chooses.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace tomo::fuzz {

class ScratchFolder {
  public:
    ScratchFolder() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "tomo-fuzz-XXXXXX").string();
        if (::mkdtemp(pattern.data())) m_path = pattern;
    }
    ~ScratchFolder() {
        std::error_code ec;
        if (!m_path.empty()) std::filesystem::remove_all(m_path, ec);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    bool ok() const { return !m_path.empty(); }
    const std::filesystem::path& path() const { return m_path; }

    /// Writes @p size bytes to `<folder>/<name>` and returns its path.
    std::filesystem::path write(const std::string& name, const std::uint8_t* data,
                                std::size_t size) const {
        const auto p = m_path / name;
        std::ofstream out(p, std::ios::binary);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        return p;
    }

  private:
    std::filesystem::path m_path;
};

}  // namespace tomo::fuzz
