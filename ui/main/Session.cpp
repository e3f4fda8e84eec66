#include "ui/main/Session.h"

#include <cmath>
#include <utility>

#include "core/io/ImageIO.h"

namespace tomo::ui {

Session::Session(BackProjectorRegistry registry, QObject* parent)
    : QObject(parent), m_registry(std::move(registry)) {
    connect(&m_runner, &app::JobRunner::progress, this, &Session::progress);
    connect(&m_runner, &app::JobRunner::finished, this, &Session::onFinished);
}

bool Session::startLoadJob(std::function<Result<app::Dataset>(const ExecContext&)> load,
                           QString name) {
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
    emit busyChanged(true);
    return true;
}

bool Session::startLoad(const std::filesystem::path& folder) {
    return startLoadJob([folder](const ExecContext&) { return app::loadDataset(folder); },
                        QString::fromStdString(folder.string()));
}

bool Session::startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder) {
    std::error_code ec;
    if (!folder.empty() && std::filesystem::exists(folder / "geometry.txt", ec))
        return startLoadJob(
            [folder](const ExecContext&) { return app::loadDataset(folder); },
            QStringLiteral("demo (%1)").arg(QString::fromStdString(folder.string())));
    return startLoadJob([spec](const ExecContext& ctx) { return app::makeDemoDataset(spec, ctx); },
                        QStringLiteral("demo (generated %1x%1 %2, %3 angles)")
                            .arg(spec.size)
                            .arg(QString::fromStdString(spec.phantom))
                            .arg(spec.angles));
}

bool Session::startReconstruct(const FbpOptions& options, const std::string& variantId) {
    if (isBusy() || !m_dataset) return false;
    auto output = std::make_shared<app::JobOutput<app::ReconOutcome>>();
    std::shared_ptr<const app::Dataset> data = m_dataset;
    bool started = m_runner.start(
        [data, options, variantId, output](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(app::ReconOutcome outcome,
                                  app::reconstructDataset(*data, options, variantId, ctx));
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

Status Session::saveReconstruction(const std::filesystem::path& file) const {
    if (!m_recon) return invalidArgument("there is no reconstruction to save yet");
    return writeVolume(file, m_recon->image).withContext("saving " + file.string());
}

void Session::onFinished(bool ok, const QString& message) {
    JobKind kind = std::exchange(m_job, JobKind::None);
    if (kind == JobKind::Load) {
        auto data = std::exchange(m_pendingDataset, nullptr)->take();
        if (ok && data) {
            m_dataset = std::move(data);
            m_datasetName = m_pendingName;
            m_recon.reset();
            emit datasetChanged();
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
