// TIFF volumes by slabs of planes (TiffVolumeStream.h).
#include "core/dataset/TiffVolumeStream.h"

#include <string>
#include <system_error>
#include <vector>

#include "core/io/ImageIO.h"
#include "core/io/TiffStack.h"

namespace tomo {
namespace {
namespace fs = std::filesystem;

class TiffWriter final : public VolumeWriter {
  public:
    TiffWriter(fs::path path, std::unique_ptr<TiffPageWriter> pages,
               std::array<std::size_t, 3> shape)
        : m_path(std::move(path)), m_pages(std::move(pages)), m_shape(shape) {}
    std::array<std::size_t, 3> shape() const override { return m_shape; }
    Status writeSlab(std::size_t first, const Array3<float>& slab) override {
        if (first != m_pages->written())
            return invalidArgument(m_path.string() + ": TIFF pages are written in order: plane " +
                                   std::to_string(m_pages->written()) + " comes next, not " +
                                   std::to_string(first));
        return m_pages->append(slab);
    }
    Status commit() override { return m_pages->commit(); }

  private:
    fs::path m_path;
    std::unique_ptr<TiffPageWriter> m_pages;
    std::array<std::size_t, 3> m_shape;
};

class TiffReader final : public VolumeReader {
  public:
    TiffReader(fs::path path, std::array<std::size_t, 3> shape, bool stack)
        : m_path(std::move(path)), m_shape(shape), m_stack(stack) {}
    std::array<std::size_t, 3> shape() const override { return m_shape; }
    Result<Array3<float>> readPlanes(std::size_t first, std::size_t count) override {
        if (count == 0 || first > m_shape[0] || count > m_shape[0] - first)
            return invalidArgument(m_path.string() + ": planes " + std::to_string(first) + "+" +
                                   std::to_string(count) + " lie outside its " +
                                   std::to_string(m_shape[0]));
        const ReadRange range = ReadRange::planes(first, count);
        return m_stack ? readTiffStack(m_path, range) : readTiffRange(m_path, range);
    }

  private:
    fs::path m_path;
    std::array<std::size_t, 3> m_shape;
    bool m_stack;
};

/// One atomic single-page file per plane; the files written so far are removed unless committed.
class StackWriter final : public VolumeWriter {
  public:
    StackWriter(fs::path folder, bool createdFolder, std::array<std::size_t, 3> shape,
                std::optional<Tiff16Scale> map)
        : m_folder(std::move(folder)),
          m_createdFolder(createdFolder),
          m_shape(shape),
          m_map(map),
          m_written(shape[0], false) {}
    ~StackWriter() override {
        if (m_committed) return;
        std::error_code ec;
        for (std::size_t k = 0; k < m_shape[0]; ++k)
            if (m_written[k]) fs::remove(tiffStackFile(m_folder, "slice", k, m_shape[0]), ec);
        if (m_createdFolder) fs::remove(m_folder, ec);  // only when empty
    }
    StackWriter(const StackWriter&) = delete;
    StackWriter& operator=(const StackWriter&) = delete;
    std::array<std::size_t, 3> shape() const override { return m_shape; }

    Status writeSlab(std::size_t first, const Array3<float>& slab) override {
        const std::string name = m_folder.string();
        if (m_committed) return invalidArgument(name + ": already committed");
        if (slab.dim(1) != m_shape[1] || slab.dim(2) != m_shape[2] || slab.dim(0) == 0 ||
            first > m_shape[0] || slab.dim(0) > m_shape[0] - first)
            return invalidArgument(
                name + ": slab of " + std::to_string(slab.dim(0)) + " plane(s) at " +
                std::to_string(first) + " does not fit the stack's " + std::to_string(m_shape[0]) +
                " planes of " + std::to_string(m_shape[2]) + "x" + std::to_string(m_shape[1]));
        Array3<float> page(1, m_shape[1], m_shape[2]);
        for (std::size_t z = 0; z < slab.dim(0); ++z) {
            for (std::size_t r = 0; r < m_shape[1]; ++r)
                std::copy(slab.row(z, r).begin(), slab.row(z, r).end(), page.row(0, r).begin());
            const fs::path file = tiffStackFile(m_folder, "slice", first + z, m_shape[0]);
            TOMO_RETURN_IF_ERROR(m_map ? writeTiff16(file, page, *m_map) : writeTiff(file, page));
            m_written[first + z] = true;
        }
        return Status::ok();
    }

    Status commit() override {
        if (m_committed) return invalidArgument(m_folder.string() + ": already committed");
        for (std::size_t k = 0; k < m_shape[0]; ++k)
            if (!m_written[k])
                return invalidArgument(m_folder.string() + ": plane " + std::to_string(k) +
                                       " was never written");
        m_committed = true;
        return Status::ok();
    }

  private:
    fs::path m_folder;
    bool m_createdFolder;
    std::array<std::size_t, 3> m_shape;
    std::optional<Tiff16Scale> m_map;
    std::vector<bool> m_written;
    bool m_committed = false;
};

}  // namespace

Result<std::unique_ptr<VolumeWriter>> openTiffVolumeWriter(const fs::path& path,
                                                           const std::array<std::size_t, 3>& shape,
                                                           const std::optional<Tiff16Scale>& map) {
    TOMO_ASSIGN_OR_RETURN(auto pages, TiffPageWriter::open(path, shape, map ? &*map : nullptr));
    return std::unique_ptr<VolumeWriter>(
        std::make_unique<TiffWriter>(path, std::move(pages), shape));
}

Result<std::unique_ptr<VolumeReader>> openTiffVolumeReader(const fs::path& path) {
    TOMO_ASSIGN_OR_RETURN(TiffInfo info, probeTiff(path));
    return std::unique_ptr<VolumeReader>(std::make_unique<TiffReader>(
        path, std::array<std::size_t, 3>{info.pages, info.height, info.width}, false));
}

Result<std::unique_ptr<VolumeWriter>> openTiffStackWriter(const fs::path& folder,
                                                          const std::array<std::size_t, 3>& shape,
                                                          const std::optional<Tiff16Scale>& map) {
    if (shape[0] == 0 || shape[1] == 0 || shape[2] == 0)
        return invalidArgument(folder.string() + ": cannot write an empty stack");
    if (!tiffSupported())
        return unsupported(folder.string() + ": this build has no TIFF support (libtiff)");
    std::error_code ec;
    const bool existed = fs::exists(folder, ec);
    fs::create_directories(folder, ec);
    if (ec) return ioError(folder.string() + ": cannot create folder: " + ec.message());
    return std::unique_ptr<VolumeWriter>(
        std::make_unique<StackWriter>(folder, !existed, shape, map));
}

Result<std::unique_ptr<VolumeReader>> openTiffStackReader(const fs::path& path) {
    TOMO_ASSIGN_OR_RETURN(auto files, listTiffStack(path));
    TOMO_ASSIGN_OR_RETURN(TiffInfo first, probeTiff(files[0]));
    return std::unique_ptr<VolumeReader>(std::make_unique<TiffReader>(
        path, std::array<std::size_t, 3>{files.size(), first.height, first.width}, true));
}

}  // namespace tomo
