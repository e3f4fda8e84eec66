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

/// Large cache entries are read and checksummed in blocks of this size on the caller's
/// threads (issue 27 item 4: one thread took 1.1 s for a 1 GiB GPU-ICD layout on an H200's host).
inline constexpr std::size_t kCacheBlockBytes = std::size_t(8) << 20;

/// Reads @p bytes at @p offset of @p path into @p dest, in blocks of kCacheBlockBytes on
/// @p threads threads (ExecContext::threads: 0 all, 1 the calling thread only), each thread the
/// first to touch its block's pages (so @p dest may be fresh, uninitialised memory); false when
/// a block cannot be read whole.
bool readFileInBlocks(const std::filesystem::path& path, std::uint64_t offset, void* dest,
                      std::size_t bytes, int threads);

/// The Checksum64 of the Checksum64s of @p data's kCacheBlockBytes blocks, in order (computed
/// on @p threads threads, as readFileInBlocks's): a digest of a large array that a file's
/// checksum adds in the array's place.
std::uint64_t blockChecksum64(const void* data, std::size_t bytes, int threads);

}  // namespace tomo
