#include "ui/main/Session.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>
#include <utility>

#include "app/data/DataFormats.h"
#include "core/io/ImageIO.h"
#include "core/io/TiffFormat.h"

namespace tomo::ui {

Session::Session(const app::Engine& engine, QObject* parent)
    : QObject(parent), m_engine(engine), m_service(engine) {
    connect(&m_runner, &app::JobRunner::progress, this, &Session::progress);
    connect(&m_runner, &app::JobRunner::finished, this, &Session::onFinished);
}

bool Session::startLoadJob(std::function<Result<app::Dataset>(const ExecContext&)> load,
                           QString name, app::DatasetState state, bool reload) {
    if (isBusy()) return false;
    auto output = std::make_shared<app::JobOutput<app::Dataset>>();
    bool started = m_runner.start(
        [load = std::move(load), output](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(app::Dataset data, load(ctx));
            output->set(std::move(data));
            return Status::ok();
        },
        QStringLiteral("loading"));
    if (!started) return false;
    m_job = JobKind::Load;
    m_pendingDataset = std::move(output);
    m_pendingName = std::move(name);
    m_pendingState = std::move(state);
    m_pendingReload = reload;
    emit busyChanged(true);
    return true;
}

bool Session::startLoad(const std::filesystem::path& folder,
                        const PreprocessOptions& preprocessing) {
    app::DatasetState state;
    state.source.folder = folder;
    state.source.folderPreprocessing = preprocessing;
    return startLoadJob(
        [folder, preprocessing](const ExecContext& ctx) {
            return app::loadDatasetFolder(folder, preprocessing, ctx);
        },
        QString::fromStdString(folder.string()), std::move(state));
}

bool Session::startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder) {
    std::error_code ec;
    app::DatasetState state;
    if (!folder.empty() && std::filesystem::exists(folder / "geometry.txt", ec)) {
        // The bundled demo is a dataset folder like any other: Copy as Python reads it with
        // read_dataset and a saved session reopens it.
        state.source.folder = folder;
        return startLoadJob(
            [folder](const ExecContext&) { return app::loadDataset(folder); },
            QStringLiteral("demo (%1)").arg(QString::fromStdString(folder.string())),
            std::move(state));
    }
    state.source.demoSize = spec.size;
    return startLoadJob([spec](const ExecContext& ctx) { return app::makeDemoDataset(spec, ctx); },
                        QStringLiteral("demo (generated %1x%1 %2, %3 angles)")
                            .arg(spec.size)
                            .arg(QString::fromStdString(spec.phantom))
                            .arg(spec.angles),
                        std::move(state));
}

bool Session::startLoadFile(const app::LoadRequest& given, const QString& name) {
    app::LoadRequest request = given;
    if (request.format.empty()) {
        // Unknown extension: left empty, the job reports it.
        if (Result<std::string> format = app::dataFileFormat(request.path))
            request.format = *format;
    }
    app::DatasetState state;
    state.source.file = request;
    return startLoadJob(
        [request](const ExecContext& ctx) { return app::loadDataFile(request, ctx); }, name,
        std::move(state));
}

bool Session::startReload(const PreprocessOptions& preprocessing, bool minusLog) {
    if (!m_read) return false;
    if (!m_state.source.file) {
        // A dataset folder (the bundled demo): its sinogram stack read again and preprocessed.
        const std::filesystem::path folder = m_state.source.folder;
        if (folder.empty()) return false;
        app::DatasetState state = m_state;
        state.source.folderPreprocessing = preprocessing;
        return startLoadJob(
            [folder, preprocessing](const ExecContext& ctx) {
                return app::loadDatasetFolder(folder, preprocessing, ctx);
            },
            m_datasetName, std::move(state), true);
    }
    app::DatasetState state = m_state;
    state.source.file->preprocessing = preprocessing;
    state.source.file->minusLog = minusLog;
    const app::LoadRequest request = *state.source.file;
    return startLoadJob(
        [request](const ExecContext& ctx) { return app::loadDataFile(request, ctx); },
        m_datasetName, std::move(state), true);
}

bool Session::startReconstruct(const FbpOptions& options, const std::string& variantId,
                               const app::AnalyticMethod& asked) {
    if (isBusy() || !m_dataset) return false;
    auto output = std::make_shared<app::JobOutput<app::ReconOutcome>>();
    std::shared_ptr<const app::Dataset> data = m_dataset;
    app::AnalyticMethod method = asked;
    method.frontEnd = app::FrontEnd::Gui;  // a refusal names this window's controls
    bool started = m_runner.start(
        [this, data, options, variantId, method, output](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(
                app::ReconOutcome outcome,
                app::reconstructDataset(m_service, data, options, variantId, ctx, method));
            output->set(std::move(outcome));
            return Status::ok();
        },
        QStringLiteral("reconstruction"));
    if (!started) return false;
    m_job = JobKind::Reconstruct;
    m_pendingRecon = std::move(output);
    m_pendingOptions = options;
    m_jobState = m_state;
    m_jobVoxel = m_dataset->grid.voxelSize;
    emit busyChanged(true);
    return true;
}

bool Session::startIterative(const app::IterativeJobSpec& asked) {
    if (isBusy() || !m_dataset) return false;
    app::IterativeJobSpec spec = asked;
    spec.frontEnd = app::FrontEnd::Gui;  // a refusal names this window's controls
    auto output = std::make_shared<app::JobOutput<app::IterativeOutcome>>();
    std::shared_ptr<const app::Dataset> data = m_dataset;
    bool started = m_runner.startControlled(
        [this, data, spec, output](const ExecContext& ctx, const app::JobControl& control) {
            // Runs on the worker: reports are posted to this (GUI) thread, never applied here.
            // Back-pressure: on a tiny problem the solver outruns the charts, and a queue of
            // thousands of reports would hold Cancel and Stop-and-keep behind it; the worker
            // waits while more than kMaxPending are unread (every report is still delivered).
            constexpr int kMaxPending = 16;
            auto pending = std::make_shared<std::atomic<int>>(0);
            auto onReport = [this, &control, &ctx, pending](app::IterationReport report) {
                while (pending->load() > kMaxPending && !ctx.stop.stop_requested() &&
                       !control.finishEarlyRequested())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                ++*pending;
                control.post([this, pending, report = std::move(report)]() mutable {
                    --*pending;
                    onIteration(std::move(report));
                });
            };
            auto finishEarly = [&control] { return control.finishEarlyRequested(); };
            TOMO_ASSIGN_OR_RETURN(
                app::IterativeOutcome outcome,
                app::runIterativeJob(m_service, data, spec, onReport, finishEarly, ctx));
            output->set(std::move(outcome));
            return Status::ok();
        },
        QString::fromStdString(spec.algorithm));
    if (!started) return false;
    m_job = JobKind::Iterate;
    m_jobState = m_state;
    m_jobVoxel = m_dataset->grid.voxelSize;
    m_iterativeSpec = spec;
    m_pendingIterative = std::move(output);
    m_iterations.clear();
    m_preview.reset();
    emit busyChanged(true);
    return true;
}

void Session::onIteration(app::IterationReport report) {
    if (report.preview && report.slice) m_preview = report.slice;
    const bool preview = report.preview && report.slice;
    const int iteration = report.info.iteration;
    m_iterations.push_back(std::move(report));
    emit iterationReported(iteration);
    if (preview) emit previewChanged();
}

namespace {

std::array<std::size_t, 3> dimsOf(const VolumeGeometry& grid) {
    return {std::size_t(grid.nz), std::size_t(grid.ny), std::size_t(grid.nx)};
}

/// @p loaded itself for the default sampling, else a sampled copy, whose truth is @p reference
/// where that has the sampled grid's shape (a reference image loaded for a chosen Image size).
Result<std::shared_ptr<const app::Dataset>> seenThrough(std::shared_ptr<const app::Dataset> loaded,
                                                        const app::Sampling& sampling,
                                                        const Volume* reference) {
    if (sampling.isDefault()) return loaded;
    TOMO_ASSIGN_OR_RETURN(app::Dataset sampled, app::sampledDataset(*loaded, sampling));
    if (reference && reference->dims() == dimsOf(sampled.grid)) sampled.truth = reference->clone();
    return std::shared_ptr<const app::Dataset>(
        std::make_shared<const app::Dataset>(std::move(sampled)));
}

}  // namespace

Status Session::derive(std::shared_ptr<const app::Dataset> read, const app::DatasetState& state) {
    // The sinograms are the same as read and as loaded: only the loaded dataset keeps them, and
    // the data as read kept here (without them) takes them from it when derived again.
    const Sinograms* kept = read->sinograms.empty() && m_loaded ? &m_loaded->sinograms : nullptr;
    TOMO_ASSIGN_OR_RETURN(app::Dataset loaded, app::withStateCenter(*read, state, kept));
    if (m_reference && m_reference->dims() == dimsOf(loaded.grid))
        loaded.truth = m_reference->clone();
    auto shared = std::make_shared<const app::Dataset>(std::move(loaded));
    TOMO_ASSIGN_OR_RETURN(std::shared_ptr<const app::Dataset> seen,
                          seenThrough(shared, state.sampling, m_reference.get()));
    m_read = read->sinograms.empty()
                 ? std::move(read)
                 : std::make_shared<const app::Dataset>(app::withoutSinograms(*read));
    m_state = state;
    m_loaded = std::move(shared);
    m_dataset = std::move(seen);
    emit datasetChanged();
    return Status::ok();
}

Status Session::setCenterOfRotation(double center) {
    if (isBusy()) return invalidArgument("wait for the running job before changing the centre");
    if (!m_loaded) return invalidArgument("there is no dataset");
    const int width = m_loaded->geometry.detectorCount();
    if (!(center >= 0 && center <= width - 1))
        return invalidArgument("centre of rotation " + std::to_string(center) +
                               " is outside the detector [0, " + std::to_string(width - 1) + "]");
    app::DatasetState state = m_state;
    state.center = app::centerInStored(center, state.preprocessing());
    return derive(m_read, state);
}

Status Session::setReference(Volume reference) {
    if (isBusy()) return invalidArgument("wait for the running job before loading a reference");
    if (!m_loaded) return invalidArgument("there is no dataset");
    // The grid the reconstruction has now (Image size, region), or the data's as read.
    const std::array<std::size_t, 3> wanted = dimsOf(m_dataset->grid);
    const auto& got = reference.dims();
    if (got != wanted && got != dimsOf(m_loaded->grid))
        return invalidArgument("the reference is " + std::to_string(got[0]) + "x" +
                               std::to_string(got[1]) + "x" + std::to_string(got[2]) +
                               " (slices x rows x columns), the reconstruction " +
                               std::to_string(wanted[0]) + "x" + std::to_string(wanted[1]) + "x" +
                               std::to_string(wanted[2]));
    std::shared_ptr<const Volume> previous =
        std::exchange(m_reference, std::make_shared<const Volume>(std::move(reference)));
    Status s = derive(m_read, m_state);
    if (!s) m_reference = std::move(previous);
    return s;
}

Status Session::setSampling(const app::Sampling& sampling) {
    if (isBusy()) return invalidArgument("wait for the running job before changing the sampling");
    if (!m_loaded) return invalidArgument("there is no dataset");
    app::DatasetState state = m_state;
    state.sampling = sampling;
    return derive(m_read, state);
}

bool Session::resultIsCurrent() const {
    return m_recon && m_reconSerial == m_loadSerial && (m_cone || m_reconState == m_state);
}

void Session::publishResult(std::shared_ptr<const app::ReconOutcome> result) {
    m_recon = std::move(result);
    m_reconState = m_jobState;
    m_reconSerial = m_loadSerial;
    m_resultSaved = false;
    emit reconstructionChanged();
}

void Session::publishDataset(std::shared_ptr<const app::Dataset> read,
                             const app::DatasetState& state) {
    m_cone.reset();
    m_coneResult.reset();
    m_reference.reset();
    ++m_loadSerial;
    m_recon.reset();
    if (Status s = derive(read, state); !s) {
        // A state that does not fit the new data (a session's centre): the new data as read.
        app::DatasetState plain;
        plain.source = state.source;
        (void)derive(std::move(read), plain);
    }
    emit reconstructionChanged();
}

void Session::finishLoad(std::shared_ptr<const app::Dataset> data) {
    app::DatasetState state = std::move(m_pendingState);
    if (!std::exchange(m_pendingReload, false) || !m_read || m_cone) {
        m_datasetName = m_pendingName;
        publishDataset(std::move(data), state);
        return;
    }
    // The same scan read again with other preprocessing: every other decision stays, unless
    // it no longer fits the data (then it is dropped and the user told why).
    Status kept = derive(data, state);
    if (kept) return;
    QString why = QString::fromStdString(kept.message());
    app::DatasetState fallback = state;
    fallback.sampling = {};
    if (!derive(data, fallback)) {
        fallback.center.reset();
        (void)derive(data, fallback);
    }
    emit stateNote(tr("Kept the preprocessing; %1, so it was reset").arg(why));
}

void Session::setDataset(app::Dataset data, const QString& name) {
    m_datasetName = name;
    m_read = std::make_shared<const app::Dataset>(std::move(data));
    publishDataset(m_read, {});
}

Status Session::saveReconstruction(const std::filesystem::path& file, bool tiff16) {
    if (!m_recon) return invalidArgument("there is no reconstruction to save yet");
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, app::makeFormatRegistry());
    WriteOptions options;
    options.provenance = m_recon->provenance;
    options.provenance["input"] = m_datasetName.toStdString();
    if (m_dataset) options.voxelSize = m_reconVoxel > 0 ? m_reconVoxel : m_dataset->grid.voxelSize;
    if (tiff16) {
        float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
        const Volume& image = m_recon->image;
        for (std::size_t z = 0; z < image.dim(0); ++z)
            for (std::size_t y = 0; y < image.dim(1); ++y)
                for (float v : image.row(z, y))
                    if (std::isfinite(v)) {
                        lo = std::min(lo, v);
                        hi = std::max(hi, v);
                    }
        options.tiff16 = Tiff16Scale::forRange(lo, hi);
    }
    Status saved;
    if (m_coneResult) {  // RTK's order [z][y][x], with the grid's spacing and origin
        TOMO_ASSIGN_OR_RETURN(Volume rtk, coneVolumeForSaving(options));
        saved = registry.writeVolume(file, rtk, options).withContext("saving " + file.string());
    } else {
        saved = registry.writeVolume(file, m_recon->image, options)
                    .withContext("saving " + file.string());
    }
    if (saved) m_resultSaved = true;
    return saved;
}

void Session::onFinished(bool ok, const QString& message) {
    JobKind kind = std::exchange(m_job, JobKind::None);
    if (finishCone(kind, ok)) {
        // a cone-beam load or reconstruction (SessionCone.cpp)
    } else if (kind == JobKind::Load) {
        auto data = std::exchange(m_pendingDataset, nullptr)->take();
        if (ok && data) finishLoad(std::move(data));
    } else if (kind == JobKind::Iterate) {
        auto outcome = std::exchange(m_pendingIterative, nullptr)->take();
        if (ok && outcome) {
            m_summary = outcome->summary;
            m_iterativeRun = {outcome->backend, outcome->deviceOperator, outcome->notes};
            m_reconVoxel = m_jobVoxel;
            publishResult(std::shared_ptr<const app::ReconOutcome>(outcome, &outcome->recon));
        }
    } else if (kind == JobKind::Reconstruct) {
        auto outcome = std::exchange(m_pendingRecon, nullptr)->take();
        if (ok && outcome && !outcome->written.empty()) {
            // Streamed to a file: the result held here stays as it was.
            const auto& shape = outcome->writtenShape;
            emit busyChanged(false);
            emit jobFinished(kind, ok,
                             tr("Wrote %1 slice(s) of %2 x %3 to %4")
                                 .arg(shape[0])
                                 .arg(shape[2])
                                 .arg(shape[1])
                                 .arg(QString::fromStdString(outcome->written.string())));
            return;
        }
        if (ok && outcome) {
            m_reconOptions = m_pendingOptions;
            m_reconVoxel = m_jobVoxel;
            publishResult(std::move(outcome));
        }
    }
    emit busyChanged(false);
    emit jobFinished(kind, ok, message);
}

}  // namespace tomo::ui
