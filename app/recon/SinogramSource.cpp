// The reconstruction service's sources: a stack in memory, a sinogram file read by planes, an
// acquisition read, preprocessed and transposed a block of detector rows at a time.
#include "app/recon/SinogramSource.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

#include "core/dataset/ProjectionData.h"
#include "core/pipeline/SlabDownload.h"
#include "core/preprocess/SinogramPreprocess.h"

namespace tomo::app {
namespace {

Status checkRange(std::size_t first, std::size_t count, std::size_t slices) {
    if (count == 0 || first > slices || count > slices - first)
        return invalidArgument("slices " + std::to_string(first) + "+" + std::to_string(count) +
                               " lie outside the " + std::to_string(slices) + " of the input");
    return Status::ok();
}

/// Slices [first, first + count) of a stack, copied into uninitialised memory on @p threads
/// threads: each stored float written once, padding zeroed (storeRows).
Result<Sinograms> copySlices(const Sinograms& all, std::size_t first, std::size_t count,
                             int threads) {
    TOMO_ASSIGN_OR_RETURN(Sinograms part,
                          Sinograms::createUninitialised(count, all.dim(1), all.dim(2)));
    const std::size_t rows = all.dim(1);
    storeRows(all.data() + first * rows * all.pitch(), all.pitch(), 0, count * rows, part, threads);
    return part;
}

class MemorySource final : public SinogramSource {
  public:
    explicit MemorySource(std::shared_ptr<const Sinograms> s) : m_sino(std::move(s)) {}
    std::array<std::size_t, 3> shape() const override { return m_sino->dims(); }
    Result<Sinograms> read(std::size_t first, std::size_t count,
                           const ExecContext& ctx) const override {
        TOMO_RETURN_IF_ERROR(checkRange(first, count, m_sino->dim(0)));
        return copySlices(*m_sino, first, count, ctx.threads);
    }
    const Sinograms* whole() const override { return m_sino.get(); }

  private:
    std::shared_ptr<const Sinograms> m_sino;
};

/// A sinogram stack file read by planes through its format's VolumeReader.
class PlaneFileSource final : public SinogramSource {
  public:
    explicit PlaneFileSource(std::unique_ptr<VolumeReader> reader) : m_reader(std::move(reader)) {}
    std::array<std::size_t, 3> shape() const override { return m_reader->shape(); }
    Result<Sinograms> read(std::size_t first, std::size_t count,
                           const ExecContext& ctx) const override {
        TOMO_RETURN_IF_ERROR(checkRange(first, count, shape()[0]));
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        std::lock_guard lock(m_mutex);
        return m_reader->readPlanes(first, count);
    }

  private:
    mutable std::mutex m_mutex;  ///< readers are used by one thread at a time
    std::unique_ptr<VolumeReader> m_reader;
};

/// An acquisition read by blocks of detector rows (see SinogramSource.h).
class AcquisitionSource final : public SinogramSource {
  public:
    std::array<std::size_t, 3> shape() const override { return m_shape; }
    std::size_t readOverheadPerSlice() const override { return m_overheadPerSlice; }
    Result<Sinograms> read(std::size_t first, std::size_t count,
                           const ExecContext& ctx) const override;

    std::unique_ptr<AcquisitionReader> reader;
    PreprocessOptions options;  ///< with the row crop taken out
    std::size_t firstRow = 0, binRows = 1;
    std::size_t halo = 0;  ///< slices of context each side (zinger window)
    std::array<std::size_t, 3> m_shape{};
    std::size_t m_overheadPerSlice = 0;

  private:
    mutable std::mutex m_mutex;
};

Result<Sinograms> AcquisitionSource::read(std::size_t first, std::size_t count,
                                          const ExecContext& ctx) const {
    TOMO_RETURN_IF_ERROR(checkRange(first, count, m_shape[0]));
    const std::size_t from = first >= halo ? first - halo : 0;
    const std::size_t to = std::min(m_shape[0], first + count + halo);
    const IndexRange rows{firstRow + from * binRows, (to - from) * binRows};
    std::unique_lock lock(m_mutex);
    TOMO_ASSIGN_OR_RETURN(ProjectionData data, reader->read(rows));
    lock.unlock();
    TOMO_RETURN_IF_ERROR(preprocess(data, options, ctx).withContext(reader->info().file));
    if (data.projections.dim(0) != m_shape[1] || data.projections.dim(2) != m_shape[2])
        return internalError("slices " + std::to_string(first) + "-" +
                             std::to_string(first + count - 1) +
                             " preprocessed to a different frame shape");
    return toSinograms(data.projections, IndexRange{first - from, count});
}

/// The acquisition @p reader as a row-block source, or null when it must be read whole
/// (invalid crops or binning, which the whole-frame path reports; Paganin).
Result<std::unique_ptr<AcquisitionSource>> rowBlockSource(std::unique_ptr<AcquisitionReader> reader,
                                                          const PreprocessOptions& pre,
                                                          OpenedSource& opened) {
    const AcquisitionInfo& acq = reader->info();
    auto rows = pre.cropRows.resolve(acq.rows, "rows");
    if (!rows || pre.binRows < 1 || rows->count < static_cast<std::size_t>(pre.binRows) ||
        !pre.validate())
        return std::unique_ptr<AcquisitionSource>();
    if (pre.paganin) {
        opened.notes.push_back(
            "Paganin phase retrieval filters every frame across all its rows, "
            "so whole frames are read");
        return std::unique_ptr<AcquisitionSource>();
    }
    auto source = std::make_unique<AcquisitionSource>();
    const std::size_t bin = static_cast<std::size_t>(pre.binRows);
    source->options = pre;
    source->options.cropRows = IndexRange::all();
    source->firstRow = rows->first;
    source->binRows = bin;
    // The zinger window spans rows, except on line integrals (each row's sinogram).
    source->halo = pre.zingers && pre.zingers->mode != ThresholdMode::LineIntegral
                       ? static_cast<std::size_t>(pre.zingers->size / 2)
                       : 0;
    const std::size_t frames = acq.angleCount + acq.flatCount + acq.darkCount;
    source->m_overheadPerSlice = sizeof(float) * acq.columns * bin * frames;
    // The angles and detector count after preprocessing, from the first slice.
    TOMO_ASSIGN_OR_RETURN(ProjectionData probe, reader->read(IndexRange{rows->first, bin}));
    TOMO_RETURN_IF_ERROR(preprocess(probe, source->options, ExecContext{}).withContext(acq.file));
    source->m_shape = {rows->count / bin, probe.projections.dim(0), probe.projections.dim(2)};
    opened.angles = probe.angles;
    source->reader = std::move(reader);
    return source;
}

Result<OpenedSource> openAcquisition(const FormatRegistry& registry, const SourceSpec& spec) {
    OpenedSource opened;
    TOMO_ASSIGN_OR_RETURN(auto reader, registry.openAcquisition(spec.path, spec.read));
    const AcquisitionInfo& acq = reader->info();
    const std::size_t flats = acq.flatCount;
    if (spec.preprocessing) {
        TOMO_ASSIGN_OR_RETURN(opened.preprocessing, spec.preprocessing(flats));
    } else {
        opened.preprocessing = acquisitionPreprocessing({}, flats, true);
    }
    const std::size_t frames = acq.angleCount + acq.flatCount + acq.darkCount;
    const std::size_t wholeBytes = sizeof(float) * acq.rows * acq.columns * frames;
    if (spec.wholeBelowBytes == 0 || wholeBytes > spec.wholeBelowBytes) {
        TOMO_ASSIGN_OR_RETURN(auto blocks,
                              rowBlockSource(std::move(reader), opened.preprocessing, opened));
        if (blocks) {
            opened.source = std::move(blocks);
            return opened;
        }
    }
    // Whole: the same steps on whole frames (AcquisitionLoader.h).
    const PreprocessOptions pre = opened.preprocessing;
    TOMO_ASSIGN_OR_RETURN(
        LoadedSinograms loaded,
        readAcquisitionSinograms(
            registry, spec.path, spec.read,
            [&pre](std::size_t) -> Result<PreprocessOptions> { return pre; }, ExecContext{}));
    opened.angles = std::move(loaded.angles);
    opened.source = memorySource(std::make_shared<const Sinograms>(std::move(loaded.sinograms)));
    return opened;
}

/// A sinogram stack read whole and preprocessed (SinogramPreprocess.h): the steps that act on
/// line integrals. Angle selection keeps the subset of the stated angles (the stack stores
/// none), as it does on an acquisition's.
Result<OpenedSource> preprocessedStack(const FormatRegistry& registry, const SourceSpec& spec,
                                       const PreprocessOptions& pre, OpenedSource& opened) {
    const std::string name = spec.path.string();
    TOMO_RETURN_IF_ERROR(checkSinogramSteps(pre).withContext(name));
    if (selectsAngles(pre) && spec.statedAngles.empty())
        return invalidArgument(name +
                               ": angle selection on a sinogram stack needs the angles of all "
                               "its projections (--angles START:STOP:COUNT)");
    TOMO_ASSIGN_OR_RETURN(LoadedSinograms loaded,
                          readSinogramFile(registry, spec.path, spec.read, ExecContext{}));
    std::vector<double> angles = spec.statedAngles;
    TOMO_RETURN_IF_ERROR(
        preprocessSinograms(loaded.sinograms, angles, pre, ExecContext{}).withContext(name));
    if (selectsAngles(pre)) {
        opened.angles = std::move(angles);
        opened.anglesSelected = true;
    }
    opened.preprocessing = pre;
    opened.notes.push_back("preprocessing a sinogram stack: read whole");
    opened.source = memorySource(std::make_shared<const Sinograms>(std::move(loaded.sinograms)));
    return std::move(opened);
}

}  // namespace

std::unique_ptr<SinogramSource> memorySource(std::shared_ptr<const Sinograms> sinograms) {
    return std::make_unique<MemorySource>(std::move(sinograms));
}

Result<OpenedSource> openSinogramSource(const FormatRegistry& registry, const SourceSpec& spec) {
    TOMO_ASSIGN_OR_RETURN(const FileFormat* format, registry.forPath(spec.path));
    if (isAcquisitionFormat(*format)) {
        TOMO_ASSIGN_OR_RETURN(OpenedSource opened, openAcquisition(registry, spec));
        opened.format = format->name;
        return opened;
    }
    OpenedSource opened;
    opened.format = format->name;
    if (spec.preprocessing) {
        TOMO_ASSIGN_OR_RETURN(PreprocessOptions pre, spec.preprocessing(0));
        if (!pre.empty()) return preprocessedStack(registry, spec, forSinograms(pre), opened);
    }
    if (format->openVolumeReader) {
        TOMO_ASSIGN_OR_RETURN(auto reader, registry.openVolumeReader(spec.path, spec.read));
        opened.source = std::make_unique<PlaneFileSource>(std::move(reader));
        return opened;
    }
    TOMO_ASSIGN_OR_RETURN(LoadedSinograms loaded,
                          readSinogramFile(registry, spec.path, spec.read, ExecContext{}));
    opened.source = memorySource(std::make_shared<const Sinograms>(std::move(loaded.sinograms)));
    return opened;
}

}  // namespace tomo::app
