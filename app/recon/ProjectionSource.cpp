// Projection stacks for cone-beam reconstruction (ProjectionSource.h).
#include "app/recon/ProjectionSource.h"

#include <cstring>
#include <mutex>

#include "app/data/AcquisitionLoader.h"
#include "core/cone/Fdk.h"

namespace tomo::app {
namespace {

Result<Array3<float>> copyViews(const Array3<float>& all, std::size_t first, std::size_t count) {
    if (first > all.dim(0) || count > all.dim(0) - first)
        return invalidArgument("projections: views " + std::to_string(first) + " + " +
                               std::to_string(count) + " past the last (" +
                               std::to_string(all.dim(0)) + ")");
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(count, all.dim(1), all.dim(2)));
    const std::size_t plane = all.dim(1) * all.pitch();
    std::memcpy(out.data(), all.data() + first * plane, count * plane * sizeof(float));
    return out;
}

Status copyViewsInto(const Array3<float>& all, std::size_t first, std::size_t count,
                     View2<float> out, int threads) {
    if (first > all.dim(0) || count > all.dim(0) - first)
        return invalidArgument("projections: views " + std::to_string(first) + " + " +
                               std::to_string(count) + " past the last (" +
                               std::to_string(all.dim(0)) + ")");
    return copyHeldViews(all, first, out, threads);
}

class MemoryProjections final : public ProjectionSource {
  public:
    explicit MemoryProjections(std::shared_ptr<const Array3<float>> v) : m_views(std::move(v)) {}
    std::array<std::size_t, 3> shape() const override {
        return {m_views->dim(0), m_views->dim(1), m_views->dim(2)};
    }
    Result<Array3<float>> read(std::size_t first, std::size_t count) const override {
        return copyViews(*m_views, first, count);
    }
    Status readInto(std::size_t first, std::size_t count, View2<float> out,
                    int threads) const override {
        return copyViewsInto(*m_views, first, count, out, threads);
    }

  private:
    std::shared_ptr<const Array3<float>> m_views;
};

/// A file read by planes (views) through its format's VolumeReader.
class StreamedProjections final : public ProjectionSource {
  public:
    StreamedProjections(std::unique_ptr<VolumeReader> reader, std::optional<VolumeFrame> frame)
        : m_reader(std::move(reader)), m_frame(frame) {}
    std::array<std::size_t, 3> shape() const override { return m_reader->shape(); }
    Result<Array3<float>> read(std::size_t first, std::size_t count) const override {
        std::lock_guard lock(m_mutex);
        return m_reader->readPlanes(first, count);
    }
    std::optional<VolumeFrame> frame() const override { return m_frame; }

  private:
    mutable std::mutex m_mutex;
    std::unique_ptr<VolumeReader> m_reader;
    std::optional<VolumeFrame> m_frame;
};

/// A file read whole (formats without a plane reader, acquisitions).
class WholeProjections final : public ProjectionSource {
  public:
    WholeProjections(Array3<float> v, std::optional<VolumeFrame> frame,
                     std::vector<double> angles = {}, std::string preprocessing = "none")
        : m_views(std::move(v)),
          m_frame(frame),
          m_angles(std::move(angles)),
          m_preprocessing(std::move(preprocessing)) {}
    std::array<std::size_t, 3> shape() const override {
        return {m_views.dim(0), m_views.dim(1), m_views.dim(2)};
    }
    Result<Array3<float>> read(std::size_t first, std::size_t count) const override {
        return copyViews(m_views, first, count);
    }
    Status readInto(std::size_t first, std::size_t count, View2<float> out,
                    int threads) const override {
        return copyViewsInto(m_views, first, count, out, threads);
    }
    std::optional<VolumeFrame> frame() const override { return m_frame; }
    std::vector<double> angles() const override { return m_angles; }
    std::string preprocessing() const override { return m_preprocessing; }

  private:
    Array3<float> m_views;
    std::optional<VolumeFrame> m_frame;
    std::vector<double> m_angles;
    std::string m_preprocessing;
};

/// An acquisition: flat/dark and -log through the parallel-beam loader (which hands out
/// sinograms [row][angle][column]), transposed back to projections [angle][row][column].
Result<std::unique_ptr<ProjectionSource>> openAcquisition(const FormatRegistry& registry,
                                                          const std::filesystem::path& path,
                                                          const ReadOptions& read) {
    TOMO_ASSIGN_OR_RETURN(LoadedSinograms loaded,
                          readAcquisitionSinograms(registry, path, read, {}, {}));
    const Sinograms& s = loaded.sinograms;
    TOMO_ASSIGN_OR_RETURN(Array3<float> views, Array3<float>::create(s.dim(1), s.dim(0), s.dim(2)));
    for (std::size_t row = 0; row < s.dim(0); ++row)
        for (std::size_t angle = 0; angle < s.dim(1); ++angle) {
            auto src = s.row(row, angle);
            std::copy(src.begin(), src.end(), views.row(angle, row).begin());
        }
    return std::unique_ptr<ProjectionSource>(std::make_unique<WholeProjections>(
        std::move(views), std::nullopt, std::move(loaded.angles), describe(loaded.preprocessing)));
}

}  // namespace

Status ProjectionSource::readInto(std::size_t first, std::size_t count, View2<float> out,
                                  int threads) const {
    TOMO_ASSIGN_OR_RETURN(Array3<float> views, read(first, count));
    if (views.dim(0) != count)
        return internalError("the projection source returned " + std::to_string(views.dim(0)) +
                             " views for " + std::to_string(count));
    return copyHeldViews(views, 0, out, threads);
}

std::unique_ptr<ProjectionSource> memoryProjections(std::shared_ptr<const Array3<float>> views) {
    return std::make_unique<MemoryProjections>(std::move(views));
}

Result<std::unique_ptr<ProjectionSource>> openProjections(const FormatRegistry& registry,
                                                          const std::filesystem::path& path,
                                                          const ReadOptions& read) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return notFound(path.string() + ": no such projection file");
    TOMO_ASSIGN_OR_RETURN(const FileFormat* format, registry.forPath(path));
    if (isAcquisitionFormat(*format)) return openAcquisition(registry, path, read);
    std::optional<VolumeFrame> frame;
    if (auto d = registry.describe(path, read); d.isOk()) frame = d->frame;
    auto reader = registry.openVolumeReader(path, read);
    if (reader.isOk())
        return std::unique_ptr<ProjectionSource>(
            std::make_unique<StreamedProjections>(std::move(*reader), frame));
    TOMO_ASSIGN_OR_RETURN(Array3<float> views, registry.readVolume(path, read));
    return std::unique_ptr<ProjectionSource>(
        std::make_unique<WholeProjections>(std::move(views), frame));
}

}  // namespace tomo::app
