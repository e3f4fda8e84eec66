// The cone-beam part of the Session (Session.h): loading a cone-beam dataset and running FDK
// on it through the session's runner, and what saving its result writes.
#include "ui/main/Session.h"

#include <utility>

namespace tomo::ui {

bool Session::startLoadCone(const app::ConeOpenRequest& request, const QString& name) {
    if (isBusy()) return false;
    auto output = std::make_shared<app::JobOutput<app::ConeDataset>>();
    const bool started = m_runner.start(
        [request, output](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(app::ConeDataset data, app::loadConeDataset(request, ctx));
            output->set(std::move(data));
            return Status::ok();
        },
        QStringLiteral("loading"));
    if (!started) return false;
    m_job = JobKind::Load;
    m_pendingCone = std::move(output);
    m_pendingName = name;
    emit busyChanged(true);
    return true;
}

bool Session::startCone(const app::ConeJobSpec& spec) {
    if (isBusy() || !m_cone) return false;
    auto output = std::make_shared<app::JobOutput<app::ConeOutcome>>();
    std::shared_ptr<const app::ConeDataset> data = m_cone;
    const bool started = m_runner.start(
        [this, data, spec, output](const ExecContext& ctx) -> Status {
            TOMO_ASSIGN_OR_RETURN(app::ConeOutcome outcome,
                                  app::runConeJob(m_service, data, spec, ctx));
            output->set(std::move(outcome));
            return Status::ok();
        },
        QStringLiteral("FDK"));
    if (!started) return false;
    m_job = JobKind::Reconstruct;
    m_pendingConeResult = std::move(output);
    emit busyChanged(true);
    return true;
}

void Session::publishCone(std::shared_ptr<const app::ConeDataset> data) {
    m_cone = std::move(data);
    m_coneResult.reset();
    m_read.reset();
    m_loaded.reset();
    m_dataset.reset();
    m_reference.reset();
    m_state = {};
    ++m_loadSerial;
    m_recon.reset();
    emit datasetChanged();
    emit reconstructionChanged();
}

bool Session::finishCone(JobKind kind, bool ok) {
    if (kind == JobKind::Load && m_pendingCone) {
        auto data = std::exchange(m_pendingCone, nullptr)->take();
        if (ok && data) {
            m_datasetName = m_pendingName;
            publishCone(std::move(data));
        }
        return true;
    }
    if (kind == JobKind::Reconstruct && m_pendingConeResult) {
        auto outcome = std::exchange(m_pendingConeResult, nullptr)->take();
        if (ok && outcome) {
            m_coneResult = outcome;
            m_jobState = {};
            publishResult(std::shared_ptr<const app::ReconOutcome>(outcome, &outcome->recon));
        }
        return true;
    }
    return false;
}

Result<Volume> Session::coneVolumeForSaving(WriteOptions& options) const {
    const ConeVolumeGrid& g = m_coneResult->grid;
    options.voxelSize = g.spacingX;
    options.frame =
        VolumeFrame{{g.spacingX, g.spacingY, g.spacingZ}, {g.originX, g.originY, g.originZ}};
    return app::rtkOrder(m_coneResult->recon.image);
}

}  // namespace tomo::ui
