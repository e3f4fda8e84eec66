#pragma once
/// @file Session.h
/// @brief The GUI's application state: the back-projector registry, the active dataset, the
/// latest reconstruction, and the one JobRunner that computes them. Created in main and injected
/// into MainWindow (STYLE.md #20: no singletons); widgets observe it through signals.
///
/// Data flow: a job (load a folder, generate the demo, reconstruct) runs on the runner's worker
/// thread and leaves its result in a JobOutput. When the runner reports `finished`, the session
/// (on the GUI thread) takes the result as `std::shared_ptr<const ...>`, publishes it and emits
/// `datasetChanged` or `reconstructionChanged`, then `jobFinished`. Published objects are never
/// modified again, so a reconstruction job can read the dataset while the views show it.
///
/// Threading: GUI thread only (the worker never touches the session).

#include <filesystem>
#include <memory>
#include <string>

#include <QObject>
#include <QString>

#include "app/jobs/DemoJob.h"
#include "app/qt/JobRunner.h"
#include "core/projectors/BackProjector.h"

namespace tomo::ui {

/// Application state of one GUI window: the back-projector registry, the dataset, the latest
/// reconstruction and the job runner. Created in runGui() and injected (no singletons).
class Session : public QObject {
    Q_OBJECT

  public:
    enum class JobKind { None, Load, Reconstruct };
    Q_ENUM(JobKind)

    explicit Session(BackProjectorRegistry registry, QObject* parent = nullptr);

    const BackProjectorRegistry& registry() const { return m_registry; }
    app::JobRunner& runner() { return m_runner; }

    /// The active dataset (null before the first load).
    std::shared_ptr<const app::Dataset> dataset() const { return m_dataset; }
    /// Where the active dataset came from ("demo (generated, 256x256)", a folder path).
    const QString& datasetName() const { return m_datasetName; }
    /// The latest reconstruction of the active dataset (null when none).
    std::shared_ptr<const app::ReconOutcome> reconstruction() const { return m_recon; }
    /// Options and variant of the latest reconstruction.
    const FbpOptions& reconOptions() const { return m_reconOptions; }

    bool isBusy() const { return m_runner.isRunning(); }
    JobKind currentJob() const { return m_job; }

    /// Starts loading a dataset folder (app::loadDataset). False when a job is running.
    bool startLoad(const std::filesystem::path& folder);
    /// Starts the demo: loads @p folder when it holds a dataset (geometry.txt), else generates
    /// the dataset of @p spec. False when a job is running.
    bool startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder = {});
    /// Starts an FBP reconstruction of the active dataset. False when busy or without a dataset.
    bool startReconstruct(const FbpOptions& options, const std::string& variantId);

    /// Writes the latest reconstruction (all slices) with writeVolume (.tif, .raw).
    Status saveReconstruction(const std::filesystem::path& file) const;

  public slots:
    void cancel() { m_runner.cancel(); }

  signals:
    void busyChanged(bool busy);
    void progress(double fraction, const QString& stage);
    void datasetChanged();
    void reconstructionChanged();
    /// A job ended; @p message is empty on success, otherwise the error or "... cancelled".
    void jobFinished(tomo::ui::Session::JobKind kind, bool ok, const QString& message);

  private:
    bool startLoadJob(std::function<Result<app::Dataset>(const ExecContext&)> load, QString name);
    void onFinished(bool ok, const QString& message);

    BackProjectorRegistry m_registry;
    app::JobRunner m_runner;
    JobKind m_job = JobKind::None;
    std::shared_ptr<app::JobOutput<app::Dataset>> m_pendingDataset;
    std::shared_ptr<app::JobOutput<app::ReconOutcome>> m_pendingRecon;
    QString m_pendingName;
    FbpOptions m_pendingOptions;

    std::shared_ptr<const app::Dataset> m_dataset;
    QString m_datasetName;
    std::shared_ptr<const app::ReconOutcome> m_recon;
    FbpOptions m_reconOptions;
};

}  // namespace tomo::ui
