#pragma once
/// @file CacheFiles.h
/// @brief The file handling of TomoStation's disk caches (MBIR system matrices, GPU-ICD tile
/// layouts: core/mbir/MbirMatrixCache.h), once for every kind of entry: a complete file renamed
/// into place (two processes may store one entry at once), a directory kept under a disk budget
/// by removing its oldest entries first, and a checksum that catches a corrupt file.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

/// Writes @p path through @p write into a file of this writer's own next to it, then renames
/// it into place, so that a reader never sees a partial file. @p write returns false (or leaves
/// the stream failed) when it cannot complete: nothing is left behind then.
Status writeFileAtomically(const std::filesystem::path& path,
                           const std::function<bool(std::ostream&)>& write);

/// Removes the oldest files of @p directory whose extension is one of @p extensions (".amat")
/// until those files take at most @p budgetBytes; @p keep (the entry just stored) stays.
void pruneCacheFiles(const std::filesystem::path& directory,
                     const std::vector<std::string>& extensions, std::uintmax_t budgetBytes,
                     const std::filesystem::path& keep);

/// A 64-bit checksum of a byte stream, fed in pieces of any size: 8-byte words through
/// h = (h xor w) * P (P odd: a bijection of h for each word, so a change confined to one word
/// always changes the result), at memory speed.
class Checksum64 {
  public:
    void add(const void* data, std::size_t bytes);
    std::uint64_t value() const;

  private:
    void word(std::uint64_t w) { m_h = (m_h ^ w) * 0x100000001b3ull; }
    std::uint64_t m_h = 0xcbf29ce484222325ull;
    std::uint64_t m_pending = 0;  ///< bytes of an incomplete word, little end first
    std::size_t m_pendingBytes = 0;
    std::uint64_t m_total = 0;
};

}  // namespace tomo
