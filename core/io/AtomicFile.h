#pragma once
/// @file AtomicFile.h
/// @brief A file written under a temporary name and renamed over its target only on `commit()`.
///
/// Used by every writer of ImageIO.h so that a failed or interrupted write never leaves a partial
/// or truncated target: the data goes to `<name>.tmp-<pid>-<n>` in the target's directory (same
/// file system, so the final `rename(2)` is atomic), is flushed with `fsync(2)`, and replaces the
/// target in one step. Until `commit()` succeeds the target is untouched; the destructor removes
/// the temporary file when `commit()` was not reached or failed.
///
/// The temporary file is opened read-write (libtiff reads back directories it links) and its
/// name is reserved with `O_CREAT | O_EXCL`, trying n = 0, 1, 2, ... so concurrent
/// writers (threads or processes) never share a temporary file and no global counter is needed.
///
/// Threading: one AtomicFile is used by one thread at a time; distinct objects are independent.
/// POSIX only (open/write/fsync/rename).

#include <cstddef>
#include <filesystem>

#include "core/base/Status.h"

namespace tomo {

class AtomicFile {
  public:
    /// Creates the temporary file next to @p target. IoError naming the directory and the
    /// system's reason (strerror) when it cannot be created (missing or unwritable directory).
    static Result<AtomicFile> create(const std::filesystem::path& target);

    AtomicFile(AtomicFile&& other) noexcept;
    AtomicFile& operator=(AtomicFile&& other) noexcept;
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    /// Closes the descriptor (if still owned) and removes the temporary file unless committed.
    ~AtomicFile();

    const std::filesystem::path& target() const { return m_target; }
    const std::filesystem::path& tempPath() const { return m_temp; }
    /// The open descriptor, or -1 after `releaseFd()`.
    int fd() const { return m_fd; }

    /// Writes all @p size bytes (retrying short writes and EINTR). IoError naming the target.
    Status write(const void* bytes, std::size_t size);

    /// Hands the descriptor to a library that closes it itself (libtiff's TIFFClose). The caller
    /// must fsync it before that close if durability matters; `commit()` then only renames.
    int releaseFd();

    /// fsync + close (when the descriptor is still owned), then rename over the target.
    /// On failure the temporary file is removed and the target is left as it was.
    Status commit();

  private:
    AtomicFile(std::filesystem::path target, std::filesystem::path temp, int fd);
    void discard() noexcept;

    std::filesystem::path m_target;
    std::filesystem::path m_temp;
    int m_fd = -1;
    bool m_committed = false;
};

}  // namespace tomo
