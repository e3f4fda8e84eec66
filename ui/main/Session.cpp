#include "ui/main/Session.h"

#include <algorithm>
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
                           QString name, std::filesystem::path folder, int demoSize,
                           std::optional<app::LoadRequest> file) {
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
    m_pendingFolder = std::move(folder);
    m_pendingDemoSize = demoSize;
    m_pendingFile = std::move(file);
    emit busyChanged(true);
    return true;
}

bool Session::startLoad(const std::filesystem::path& folder) {
    return startLoadJob([folder](const ExecContext&) { return app::loadDataset(folder); },
                        QString::fromStdString(folder.string()), folder, 0);
}

bool Session::startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder) {
    std::error_code ec;
    if (!folder.empty() && std::filesystem::exists(folder / "geometry.txt", ec))
        return startLoadJob(
            [folder](const ExecContext&) { return app::loadDataset(folder); },
            QStringLiteral("demo (%1)").arg(QString::fromStdString(folder.string())), {}, 0);
    return startLoadJob([spec](const ExecContext& ctx) { return app::makeDemoDataset(spec, ctx); },
                        QStringLiteral("demo (generated %1x%1 %2, %3 angles)")
                            .arg(spec.size)
                            .arg(QString::fromStdString(spec.phantom))
                            .arg(spec.angles),
                        {}, spec.size);
}

bool Session::startLoadFile(const app::LoadRequest& given, const QString& name) {
    app::LoadRequest request = given;
    if (request.format.empty()) {
        // Unknown extension: left empty, the job reports it.
        if (Result<std::string> format = app::dataFileFormat(request.path))
            request.format = *format;
    }
    return startLoadJob(
        [request](const ExecContext& ctx) { return app::loadDataFile(request, ctx); }, name, {}, 0,
        request);
}

bool Session::startReconstruct(const FbpOptions& options, const std::string& variantId,
                               const app::AnalyticMethod& method) {
    if (isBusy() || !m_dataset) return false;
    auto output = std::make_shared<app::JobOutput<app::ReconOutcome>>();
    std::shared_ptr<const app::Dataset> data = m_dataset;
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
    emit busyChanged(true);
    return true;
}

bool Session::startIterative(const app::IterativeJobSpec& spec) {
    if (isBusy() || !m_dataset) return false;
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

/// @p loaded itself for the default sampling, else a sampled copy.
Result<std::shared_ptr<const app::Dataset>> seenThrough(std::shared_ptr<const app::Dataset> loaded,
                                                        const app::Sampling& sampling) {
    if (sampling.isDefault()) return loaded;
    TOMO_ASSIGN_OR_RETURN(app::Dataset sampled, app::sampledDataset(*loaded, sampling));
    return std::shared_ptr<const app::Dataset>(
        std::make_shared<const app::Dataset>(std::move(sampled)));
}

}  // namespace

Status Session::setCenterOfRotation(double center) {
    if (isBusy()) return invalidArgument("wait for the running job before changing the centre");
    if (!m_loaded) return invalidArgument("there is no dataset");
    ParallelGeometry::Params params = m_loaded->geometry.params();
    if (!(center >= 0 && center <= params.detectorCount - 1))
        return invalidArgument("centre of rotation " + std::to_string(center) +
                               " is outside the detector [0, " +
                               std::to_string(params.detectorCount - 1) + "]");
    params.centerOfRotation = center;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    app::Dataset copy{std::move(geometry), m_loaded->grid, m_loaded->sinograms.clone(),
                      m_loaded->truth.clone(), m_loaded->warnings};
    return replaceLoaded(std::move(copy));
}

Status Session::replaceLoaded(app::Dataset next) {
    next.preprocessing = m_loaded->preprocessing;
    auto loaded = std::make_shared<const app::Dataset>(std::move(next));
    TOMO_ASSIGN_OR_RETURN(m_dataset, seenThrough(loaded, m_sampling));
    m_loaded = std::move(loaded);
    m_recon.reset();
    emit datasetChanged();
    emit reconstructionChanged();
    return Status::ok();
}

Status Session::setReference(Volume reference) {
    if (isBusy()) return invalidArgument("wait for the running job before loading a reference");
    if (!m_loaded) return invalidArgument("there is no dataset");
    const VolumeGeometry& grid = m_loaded->grid;
    const std::array<std::size_t, 3> wanted{std::size_t(grid.nz), std::size_t(grid.ny),
                                            std::size_t(grid.nx)};
    const auto& got = reference.dims();
    if (got != wanted)
        return invalidArgument("the reference is " + std::to_string(got[0]) + "x" +
                               std::to_string(got[1]) + "x" + std::to_string(got[2]) +
                               " (slices x rows x columns), the reconstruction " +
                               std::to_string(wanted[0]) + "x" + std::to_string(wanted[1]) + "x" +
                               std::to_string(wanted[2]));
    app::Dataset copy{m_loaded->geometry, grid, m_loaded->sinograms.clone(), std::move(reference),
                      m_loaded->warnings};
    return replaceLoaded(std::move(copy));
}

Status Session::setSampling(const app::Sampling& sampling) {
    if (isBusy()) return invalidArgument("wait for the running job before changing the sampling");
    if (!m_loaded) return invalidArgument("there is no dataset");
    TOMO_ASSIGN_OR_RETURN(m_dataset, seenThrough(m_loaded, sampling));
    m_sampling = sampling;
    m_recon.reset();
    emit datasetChanged();
    emit reconstructionChanged();
    return Status::ok();
}

void Session::publishDataset(std::shared_ptr<const app::Dataset> loaded) {
    m_cone.reset();
    m_coneResult.reset();
    m_loaded = std::move(loaded);
    m_dataset = m_loaded;
    m_sampling = {};
    ++m_loadSerial;
    m_recon.reset();
    emit datasetChanged();
    emit reconstructionChanged();
}

void Session::setDataset(app::Dataset data, const QString& name) {
    m_datasetName = name;
    m_dataFolder.clear();
    m_demoSize = 0;
    m_dataFile.reset();
    publishDataset(std::make_shared<const app::Dataset>(std::move(data)));
}

Status Session::saveReconstruction(const std::filesystem::path& file, bool tiff16) const {
    if (!m_recon) return invalidArgument("there is no reconstruction to save yet");
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, app::makeFormatRegistry());
    WriteOptions options;
    options.provenance = m_recon->provenance;
    options.provenance["input"] = m_datasetName.toStdString();
    if (m_dataset) options.voxelSize = m_dataset->grid.voxelSize;
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
    if (m_coneResult) {  // RTK's order [z][y][x], with the grid's spacing and origin
        TOMO_ASSIGN_OR_RETURN(Volume rtk, coneVolumeForSaving(options));
        return registry.writeVolume(file, rtk, options).withContext("saving " + file.string());
    }
    return registry.writeVolume(file, m_recon->image, options)
        .withContext("saving " + file.string());
}

void Session::onFinished(bool ok, const QString& message) {
    JobKind kind = std::exchange(m_job, JobKind::None);
    if (finishCone(kind, ok)) {
        // a cone-beam load or reconstruction (SessionCone.cpp)
    } else if (kind == JobKind::Load) {
        auto data = std::exchange(m_pendingDataset, nullptr)->take();
        std::optional<app::LoadRequest> file = std::exchange(m_pendingFile, std::nullopt);
        if (ok && data) {
            m_datasetName = m_pendingName;
            m_dataFolder = m_pendingFolder;
            m_demoSize = m_pendingDemoSize;
            m_dataFile = std::move(file);
            publishDataset(std::move(data));
        }
    } else if (kind == JobKind::Iterate) {
        auto outcome = std::exchange(m_pendingIterative, nullptr)->take();
        if (ok && outcome) {
            m_summary = outcome->summary;
            m_iterativeRun = {outcome->backend, outcome->deviceOperator, outcome->notes};
            m_recon = std::shared_ptr<const app::ReconOutcome>(outcome, &outcome->recon);
            emit reconstructionChanged();
        }
    } else if (kind == JobKind::Reconstruct) {
        auto outcome = std::exchange(m_pendingRecon, nullptr)->take();
        if (ok && outcome) {
            m_recon = std::move(outcome);
            m_reconOptions = m_pendingOptions;
            emit reconstructionChanged();
        }
    }
    emit busyChanged(false);
    emit jobFinished(kind, ok, message);
}

}  // namespace tomo::ui
