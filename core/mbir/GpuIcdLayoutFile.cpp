#include "core/mbir/GpuIcdLayoutFile.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/base/CacheFiles.h"

namespace tomo {
namespace {

constexpr char kMagic[8] = {'T', 'O', 'M', 'O', 'I', 'C', 'D', 'L'};
constexpr std::uint64_t kVersion = 3;
constexpr std::size_t kMaxKey = 4096;

/// The header's words (file comment of GpuIcdLayoutFile.h).
enum Word : int {
    kVersionWord,
    kKeyLength,
    kViews,
    kChannels,
    kPadding,
    kNx,
    kNy,
    kPitch,
    kRows,
    kChunks,
    kSide,
    kColours,
    kSvBases,
    kSvFirsts,
    kSvSizes,
    kOrders,
    kChunkMetas,
    kTileRows,
    kScales,
    kWords
};
using Header = std::array<std::uint64_t, kWords>;

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return (a + b - 1) / b;
}

/// The header a layout of @p g for @p options has (the counts of its arrays; rows and tile
/// rows, which only the file knows, copied from @p file).
Header expectedHeader(const Header& file, std::size_t keyLength, const MbirSliceGeometry& g,
                      const GpuIcdOptions& options) {
    const std::uint64_t voxels = std::uint64_t(g.nx()) * std::uint64_t(g.ny());
    const std::uint64_t side = std::uint64_t(std::max(1, options.side));
    const std::uint64_t svs =
        ceilDiv(std::uint64_t(g.nx()), side) * ceilDiv(std::uint64_t(g.ny()), side);
    const std::uint64_t chunks = ceilDiv(std::uint64_t(g.views()), kIcdChunkViews);
    Header h{};
    h[kVersionWord] = kVersion;
    h[kKeyLength] = keyLength;
    h[kViews] = std::uint64_t(g.views());
    h[kChannels] = std::uint64_t(g.channels());
    h[kPadding] = std::uint64_t(g.padding());
    h[kNx] = std::uint64_t(g.nx());
    h[kNy] = std::uint64_t(g.ny());
    h[kPitch] = chunks * kIcdChunkViews;
    h[kRows] = file[kRows];
    h[kChunks] = chunks;
    h[kSide] = side;
    h[kColours] = h[kSvFirsts] = h[kSvSizes] = svs;
    h[kSvBases] = svs * std::uint64_t(g.views());
    h[kOrders] = h[kScales] = voxels;
    h[kChunkMetas] = 2 * voxels * chunks;
    h[kTileRows] = file[kTileRows];
    return h;
}

Header headerOf(const GpuIcdLayout& l, std::size_t keyLength) {
    return {kVersion,
            keyLength,
            std::uint64_t(l.views),
            std::uint64_t(l.channels),
            std::uint64_t(l.padding),
            std::uint64_t(l.nx),
            std::uint64_t(l.ny),
            std::uint64_t(l.pitch),
            std::uint64_t(l.rows),
            std::uint64_t(l.chunks),
            std::uint64_t(l.side),
            l.colour.size(),
            l.svBase.size(),
            l.svFirst.size(),
            l.svSize.size(),
            l.order.size(),
            l.chunkMeta.size(),
            l.tileRows,
            l.scale.size()};
}

/// The file's length for header @p h: magic, header, key, arrays, checksum.
std::uint64_t fileBytes(const Header& h) {
    return sizeof kMagic + sizeof(Header) + h[kKeyLength] +
           4 * (h[kColours] + h[kSvBases] + h[kSvFirsts] + h[kSvSizes] + h[kOrders] +
                h[kChunkMetas] + h[kScales]) +
           sizeof(std::uint64_t);
}

template <typename T>
void put(std::ostream& out, Checksum64& sum, const std::vector<T>& v) {
    static_assert(sizeof(T) == 4);
    sum.add(v.data(), v.size() * sizeof(T));
    out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
}

template <typename T>
bool get(std::istream& in, Checksum64& sum, std::vector<T>& v, std::uint64_t count) {
    v.resize(std::size_t(count));
    in.read(reinterpret_cast<char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
    sum.add(v.data(), v.size() * sizeof(T));
    return bool(in);
}

/// Every index the kernels follow is in range (the file comment of GpuIcdLayoutFile.h); "" or
/// what is not.
std::string checkIndices(const GpuIcdLayout& l) {
    std::uint64_t tileRows = 0;  // the tiles follow each other (the device writes them all)
    for (std::size_t k = 0; k < l.chunkMeta.size(); k += 2) {
        const std::uint32_t start = l.chunkMeta[k + 1] & 0xffffu, count = l.chunkMeta[k + 1] >> 16;
        if (l.chunkMeta[k] != tileRows || start + count > std::uint32_t(l.rows))
            return "a chunk's tile or band rows are out of range";
        tileRows += count;
    }
    if (tileRows != l.tileRows) return "the tiles' rows do not add up";
    for (std::int32_t j : l.order)
        if (j < 0 || std::uint64_t(j) >= l.voxels()) return "a voxel order is out of range";
    for (std::size_t s = 0; s < l.svCount(); ++s)
        if (l.svFirst[s] < 0 || l.svSize[s] < 0 ||
            std::uint64_t(l.svFirst[s]) + std::uint64_t(l.svSize[s]) > l.order.size())
            return "an SV's voxel range is out of range";
    for (int c : l.colour)
        if (c < 0 || c > 3) return "an SV colour is out of range";
    return "";
}

}  // namespace

Status saveGpuIcdLayout(const GpuIcdLayout& layout, const std::filesystem::path& path,
                        const std::string& key) {
    return writeFileAtomically(path, [&](std::ostream& out) {
        const Header h = headerOf(layout, key.size());
        Checksum64 sum;
        out.write(kMagic, sizeof kMagic);
        sum.add(h.data(), sizeof h);
        out.write(reinterpret_cast<const char*>(h.data()), sizeof h);
        sum.add(key.data(), key.size());
        out.write(key.data(), std::streamsize(key.size()));
        put(out, sum, layout.colour);
        put(out, sum, layout.svBase);
        put(out, sum, layout.svFirst);
        put(out, sum, layout.svSize);
        put(out, sum, layout.order);
        put(out, sum, layout.chunkMeta);
        put(out, sum, layout.scale);
        const std::uint64_t value = sum.value();
        out.write(reinterpret_cast<const char*>(&value), sizeof value);
        return bool(out);
    });
}

Result<GpuIcdLayout> loadGpuIcdLayout(const std::filesystem::path& path, const std::string& key,
                                      const MbirSliceGeometry& g, const GpuIcdOptions& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return notFound("no cached GPU-ICD layout at " + path.string());
    const std::string what = path.string() + ": ";
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    char magic[sizeof kMagic] = {};
    Header h{};
    in.read(magic, sizeof magic);
    in.read(reinterpret_cast<char*>(h.data()), sizeof h);
    if (ec || !in || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
        return invalidData(what + "not a GPU-ICD layout file");
    if (h[kVersionWord] != kVersion)
        return invalidData(what + "layout file version " + std::to_string(h[kVersionWord]) +
                           ", this build reads " + std::to_string(kVersion));
    if (h[kKeyLength] != key.size() || key.size() > kMaxKey)
        return invalidData(what + "not the layout of this geometry and SV side");
    std::string stored(key.size(), '\0');
    in.read(stored.data(), std::streamsize(stored.size()));
    if (!in || stored != key)
        return invalidData(what + "not the layout of this geometry and SV side");
    if (h != expectedHeader(h, key.size(), g, options) || h[kRows] == 0 || h[kRows] >= (1u << 16) ||
        h[kTileRows] >= (std::uint64_t(1) << 32))
        return invalidData(what + "its sizes do not match this geometry and SV side");
    if (fileBytes(h) != size)
        return invalidData(what + std::to_string(size) + " bytes where the header asks for " +
                           std::to_string(fileBytes(h)) + " (truncated or too long)");
    GpuIcdLayout l = GpuIcdLayout::sizesOf(g, options);  // the header matched them
    l.rows = int(h[kRows]);
    l.tileRows = std::size_t(h[kTileRows]);
    Checksum64 sum;
    sum.add(h.data(), sizeof h);
    sum.add(stored.data(), stored.size());
    std::vector<std::int32_t> colours;
    bool ok = get(in, sum, colours, h[kColours]) && get(in, sum, l.svBase, h[kSvBases]) &&
              get(in, sum, l.svFirst, h[kSvFirsts]) && get(in, sum, l.svSize, h[kSvSizes]) &&
              get(in, sum, l.order, h[kOrders]) && get(in, sum, l.chunkMeta, h[kChunkMetas]) &&
              get(in, sum, l.scale, h[kScales]);
    std::uint64_t stamp = 0;
    ok = ok && in.read(reinterpret_cast<char*>(&stamp), sizeof stamp);
    if (!ok) return invalidData(what + "truncated");
    if (stamp != sum.value()) return invalidData(what + "checksum mismatch (corrupt file)");
    l.colour.assign(colours.begin(), colours.end());
    const std::string bad = checkIndices(l);
    if (!bad.empty()) return invalidData(what + bad);
    l.id = newGpuIcdLayoutId();
    return l;
}

}  // namespace tomo
