#include "core/base/CacheFiles.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <utility>

#include "core/base/Parallel.h"

namespace tomo {

Status writeFileAtomically(const std::filesystem::path& path,
                           const std::function<bool(std::ostream&)>& write) {
    // A name of this writer's own: ranks of one job, or two jobs, may store the same entry at
    // once; each renames a complete file into place.
    const std::string tmp =
        path.string() + ".part." + std::to_string(::getpid()) + "." +
        std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return ioError("cannot write " + tmp);
        const bool complete = write(out);
        if (!complete || !out.flush()) {
            out.close();
            std::remove(tmp.c_str());
            return ioError("cannot write " + tmp + (complete ? " (disk full?)" : ""));
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return ioError("cannot rename " + tmp + ": " + ec.message());
    }
    return Status::ok();
}

void pruneCacheFiles(const std::filesystem::path& directory,
                     const std::vector<std::string>& extensions, std::uintmax_t budgetBytes,
                     const std::filesystem::path& keep) {
    std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> files;
    std::uintmax_t total = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
        const std::string extension = entry.path().extension().string();
        if (std::find(extensions.begin(), extensions.end(), extension) == extensions.end())
            continue;
        total += entry.file_size(ec);
        files.emplace_back(entry.last_write_time(ec), entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& [time, path] : files) {
        if (total <= budgetBytes) break;
        if (path == keep) continue;
        total -= std::filesystem::file_size(path, ec);
        std::filesystem::remove(path, ec);
    }
}

void Checksum64::add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    m_total += bytes;
    while (bytes > 0 && m_pendingBytes > 0) {  // complete a word begun by an earlier call
        m_pending |= std::uint64_t(*p++) << (8 * m_pendingBytes);
        --bytes;
        if (++m_pendingBytes == 8) {
            word(m_pending);
            m_pending = 0;
            m_pendingBytes = 0;
        }
    }
    for (; bytes >= 8; bytes -= 8, p += 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        word(w);
    }
    for (; bytes > 0; --bytes)
        m_pending |= std::uint64_t(*p++) << (8 * m_pendingBytes++);
}

std::uint64_t Checksum64::value() const {
    Checksum64 end = *this;  // the tail and the length, so that trailing zeros count
    if (end.m_pendingBytes > 0) end.word(end.m_pending);
    end.word(m_total);
    return end.m_h;
}

bool readFileInBlocks(const std::filesystem::path& path, std::uint64_t offset, void* dest,
                      std::size_t bytes, int threads) {
    auto* out = static_cast<char*>(dest);
    std::atomic<bool> ok{true};
    const std::size_t blocks = (bytes + kCacheBlockBytes - 1) / kCacheBlockBytes;
    (void)parallelFor(blocks, threads, {}, [&](std::size_t b, int) {
        const std::size_t n = std::min(kCacheBlockBytes, bytes - b * kCacheBlockBytes);
        std::ifstream in(path, std::ios::binary);
        in.seekg(std::streamoff(offset + b * kCacheBlockBytes));
        in.read(out + b * kCacheBlockBytes, std::streamsize(n));
        if (!in || std::size_t(in.gcount()) != n) ok = false;
    });
    return ok;
}

std::uint64_t blockChecksum64(const void* data, std::size_t bytes, int threads) {
    const auto* in = static_cast<const std::uint8_t*>(data);
    const std::size_t blocks = (bytes + kCacheBlockBytes - 1) / kCacheBlockBytes;
    std::vector<std::uint64_t> sums(blocks);
    (void)parallelFor(blocks, threads, {}, [&](std::size_t b, int) {
        Checksum64 sum;
        sum.add(in + b * kCacheBlockBytes,
                std::min(kCacheBlockBytes, bytes - b * kCacheBlockBytes));
        sums[b] = sum.value();
    });
    Checksum64 all;
    all.add(sums.data(), sums.size() * sizeof(std::uint64_t));
    return all.value();
}

}  // namespace tomo
