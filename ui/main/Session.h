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

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <QObject>
#include <QString>

#include <vector>

#include "app/jobs/ConeJob.h"
#include "app/jobs/DatasetSampling.h"
#include "app/jobs/DatasetState.h"
#include "app/jobs/DemoJob.h"
#include "app/jobs/IterativeJob.h"
#include "app/jobs/LoadJob.h"
#include "app/qt/JobRunner.h"
#include "core/projectors/BackProjector.h"

namespace tomo::ui {

/// Application state of one GUI window: the back-projector registry, the dataset, the latest
/// reconstruction and the job runner. Created in runGui() and injected (no singletons).
class Session : public QObject {
    Q_OBJECT

  public:
    enum class JobKind { None, Load, Reconstruct, Iterate };
    Q_ENUM(JobKind)

    /// @p engine (the devices, owned once) must outlive the session.
    explicit Session(const app::Engine& engine, QObject* parent = nullptr);

    const BackProjectorRegistry& registry() const { return m_engine.registry(); }
    const app::Engine& engine() const { return m_engine; }
    /// The front door every reconstruction of this session goes through.
    const app::ReconService& service() const { return m_service; }
    app::JobRunner& runner() { return m_runner; }

    /// The active dataset (null before the first load).
    std::shared_ptr<const app::Dataset> dataset() const { return m_dataset; }
    /// Where the active dataset came from ("demo (generated, 256x256)", a folder path).
    const QString& datasetName() const { return m_datasetName; }
    /// The one record of the dataset's state (app/jobs/DatasetState.h): its source with the
    /// preprocessing, the centre of rotation and the sampling. Every step writes it through the
    /// session (setCenterOfRotation, startReload, setSampling), and none undoes another.
    const app::DatasetState& state() const { return m_state; }
    /// The folder the active dataset was loaded from; empty for a generated demo.
    const std::filesystem::path& dataFolder() const { return m_state.source.folder; }
    /// Image size of the generated demo (0 when the dataset came from a folder or file).
    int demoSize() const { return m_state.source.demoSize; }
    /// The data file the active dataset was loaded from and what was stated for it (format
    /// filled in, the preprocessing applied); empty for a folder or the demo.
    const std::optional<app::LoadRequest>& dataFile() const { return m_state.source.file; }
    /// The latest reconstruction of the active data (null when none). After a change of the
    /// dataset's state (centre, preprocessing, sampling) it stays until a new one replaces it,
    /// made with the earlier settings (resultIsCurrent() false): Cancel keeps it.
    std::shared_ptr<const app::ReconOutcome> reconstruction() const { return m_recon; }
    /// True when reconstruction() was made from the dataset as it is now.
    bool resultIsCurrent() const;
    /// The dataset state the latest reconstruction was made with.
    const app::DatasetState& resultState() const { return m_reconState; }
    /// False once the latest reconstruction was saved (or there is none).
    bool resultUnsaved() const { return m_recon && !m_resultSaved; }
    /// Options and variant of the latest reconstruction.
    const FbpOptions& reconOptions() const { return m_reconOptions; }

    bool isBusy() const { return m_runner.isRunning(); }
    JobKind currentJob() const { return m_job; }

    /// Starts loading a dataset folder with @p preprocessing applied to its sinogram stack
    /// (app::loadDatasetFolder, as Apply and reload; a restored session's). False when busy.
    bool startLoad(const std::filesystem::path& folder,
                   const PreprocessOptions& preprocessing = {});
    /// Starts the demo: loads @p folder when it holds a dataset (geometry.txt), else generates
    /// the dataset of @p spec. False when a job is running.
    bool startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder = {});
    /// Starts loading a data file (app/jobs/LoadJob.h: any format of the registry) named
    /// @p name; an empty request.format is filled in from the extension. On error or Cancel
    /// the previous dataset stays. False when a job is running.
    bool startLoadFile(const app::LoadRequest& request, const QString& name);
    /// The open cone-beam dataset (app/jobs/ConeJob.h); null unless one is open, and dataset()
    /// is null while one is: the two kinds of data replace each other.
    std::shared_ptr<const app::ConeDataset> coneDataset() const { return m_cone; }
    /// The latest FDK result of the cone-beam dataset (null when none); reconstruction() points
    /// into it (its axial planes).
    std::shared_ptr<const app::ConeOutcome> coneResult() const { return m_coneResult; }
    /// Starts loading a cone-beam dataset named @p name (app::loadConeDataset). On success it
    /// replaces the active data of either kind; on error or Cancel the previous data stay.
    /// False when a job is running.
    bool startLoadCone(const app::ConeOpenRequest& request, const QString& name);
    /// Starts FDK of the cone-beam dataset (app::runConeJob). On success the result replaces
    /// reconstruction(); on Cancel or error the previous one stays. False when busy or without
    /// a cone-beam dataset.
    bool startCone(const app::ConeJobSpec& spec);

    /// Starts an FBP reconstruction of the active dataset (or @p method's: gridrec, with its
    /// filter in @p options). False when busy or without a dataset.
    bool startReconstruct(const FbpOptions& options, const std::string& variantId,
                          const app::AnalyticMethod& method = {});

    /// Starts an iterative reconstruction (app/jobs/IterativeJob.h) of the active dataset.
    /// Per iteration `iterationReported` follows, and `previewChanged` at the throttled rate.
    /// On success (including Stop and keep) the result replaces reconstruction(); on Cancel or
    /// error the previous reconstruction stays. False when busy or without a dataset.
    bool startIterative(const app::IterativeJobSpec& spec);
    /// The spec of the running (or last started) iterative job: algorithm, parameters and
    /// the starting image it was given (IterativeJobSpec::initial, null for a cold start).
    const app::IterativeJobSpec& iterativeSpec() const { return m_iterativeSpec; }
    /// Reports of the running (or last) iterative job, one per iteration, in order.
    const std::vector<app::IterationReport>& iterations() const { return m_iterations; }
    /// The latest live preview slice of the running iterative job (null when none).
    std::shared_ptr<const app::SliceImage> preview() const { return m_preview; }
    /// Summary of the last finished iterative job.
    const SolverSummary& lastSummary() const { return m_summary; }
    /// Where the last finished iterative job ran: backend ("cpu", "opencl", "cuda"), whether a
    /// device operator pair ran, and the service's notes (why the CPU ran instead).
    struct IterativeRun {
        std::string backend;
        bool deviceOperator = false;
        std::vector<std::string> notes;
    };
    const IterativeRun& lastIterativeRun() const { return m_iterativeRun; }

    /// Sets the dataset's centre of rotation to @p center (pixels from the centre of detector
    /// pixel 0 of the data as read, i.e. after preprocessing); the record keeps it on the detector
    /// as stored, so a later crop or binning keeps it. The reconstruction stays (not current).
    /// Error when busy or out of range.
    Status setCenterOfRotation(double center);
    /// Reads the open data file or dataset folder again with @p preprocessing and @p minusLog
    /// (Preprocessing > Apply and reload; a folder's sinogram stack: app::loadDatasetFolder):
    /// the centre, the sampling, the reference and the reconstruction (not current) stay.
    /// False when busy or no data file or folder is open (the generated demo).
    bool startReload(const PreprocessOptions& preprocessing, bool minusLog);
    /// Gives the loaded dataset @p reference as its ground truth (a golden image: the error per
    /// iteration, MBIR's HU curve, the metrics), [slice][y][x] on the loaded grid. Error when
    /// busy, without data or for another shape.
    Status setReference(Volume reference);
    /// Replaces the active dataset by @p data (e.g. the teaching or test data).
    void setDataset(app::Dataset data, const QString& name);

    /// What the reconstruction sees of the loaded data (app/jobs/DatasetSampling.h): dataset()
    /// becomes the loaded dataset through @p sampling; the loaded one is kept, so the default
    /// Sampling restores it. Drops the reconstruction and emits datasetChanged. Reset to the
    /// default whenever other data are loaded. Error when busy, without data or for a choice
    /// sampledDataset() refuses (nothing changes then).
    Status setSampling(const app::Sampling& sampling);
    const app::Sampling& sampling() const { return m_state.sampling; }
    /// The dataset as loaded (with the chosen centre of rotation), before the sampling.
    std::shared_ptr<const app::Dataset> loadedDataset() const { return m_loaded; }
    /// Counts the data loaded or set; the same number means the same scan (only its centre or
    /// sampling changed).
    std::uint64_t loadSerial() const { return m_loadSerial; }

    /// Writes the latest reconstruction (all slices) in the format of @p file's extension
    /// (.h5, .tif, .raw, ...) with its provenance (the input, preprocessing, geometry,
    /// algorithm and parameters, as `tomo recon` writes them; stored where the format can:
    /// HDF5 attributes, TIFF description). @p tiff16: TIFF as 16-bit counts spanning the
    /// volume's finite range (the scale is stored and applied when read back).
    /// After a save the result counts as saved (resultUnsaved() false).
    Status saveReconstruction(const std::filesystem::path& file, bool tiff16 = false);

  public slots:
    /// Cancel: the job stops, its result is discarded and the previous result stays.
    void cancel() { m_runner.cancel(); }
    /// Stop and keep: an iterative job stops after the current iteration and its iterate
    /// becomes the reconstruction (other jobs ignore it).
    void stopAndKeep() { m_runner.finishEarly(); }

  signals:
    void busyChanged(bool busy);
    void progress(double fraction, const QString& stage);
    void datasetChanged();
    void reconstructionChanged();
    /// An iterative job finished iteration @p iteration (iterations().back() holds it).
    void iterationReported(int iteration);
    /// A new live preview (preview()) is available, at most ~7 per second.
    void previewChanged();
    /// A decision of the dataset's record could not be kept (it no longer fits the data read
    /// again) and was reset; @p text says which and why.
    void stateNote(const QString& text);
    /// A job ended; @p message is empty on success, otherwise the error or "... cancelled".
    void jobFinished(tomo::ui::Session::JobKind kind, bool ok, const QString& message);

  private:
    /// Makes @p state the record and derives the loaded dataset (its centre and reference) and
    /// the sampled one from @p read; nothing changes on error. Emits datasetChanged.
    Status derive(std::shared_ptr<const app::Dataset> read, const app::DatasetState& state);
    /// Starts @p load; on success its dataset becomes the data of @p state (a new scan unless
    /// @p reload: then the centre, sampling, reference and result stay).
    bool startLoadJob(std::function<Result<app::Dataset>(const ExecContext&)> load, QString name,
                      app::DatasetState state, bool reload = false);
    /// The result of a finished job becomes the latest reconstruction, made with the state now.
    void publishResult(std::shared_ptr<const app::ReconOutcome> result);
    /// A finished load: new data, or the same scan read again (startReload).
    void finishLoad(std::shared_ptr<const app::Dataset> data);
    void onFinished(bool ok, const QString& message);
    /// The cone-beam half of onFinished (SessionCone.cpp): true when the job was a cone one.
    bool finishCone(JobKind kind, bool ok);
    void publishCone(std::shared_ptr<const app::ConeDataset> data);
    /// The cone-beam result in RTK's order, @p options given its frame and voxel size.
    Result<Volume> coneVolumeForSaving(WriteOptions& options) const;
    void onIteration(app::IterationReport report);

    const app::Engine& m_engine;
    app::ReconService m_service;
    app::JobRunner m_runner;
    JobKind m_job = JobKind::None;
    std::shared_ptr<app::JobOutput<app::Dataset>> m_pendingDataset;
    std::shared_ptr<app::JobOutput<app::ReconOutcome>> m_pendingRecon;
    std::shared_ptr<app::JobOutput<app::IterativeOutcome>> m_pendingIterative;
    app::IterativeJobSpec m_iterativeSpec;
    std::vector<app::IterationReport> m_iterations;
    std::shared_ptr<const app::SliceImage> m_preview;
    SolverSummary m_summary;
    IterativeRun m_iterativeRun;
    QString m_pendingName;
    app::DatasetState m_pendingState;
    bool m_pendingReload = false;
    FbpOptions m_pendingOptions;

    void publishDataset(std::shared_ptr<const app::Dataset> read, const app::DatasetState& state);

    app::DatasetState m_state;                     ///< the one record (DatasetState.h)
    std::shared_ptr<const app::Dataset> m_read;    ///< as read from the source
    std::shared_ptr<const Volume> m_reference;     ///< a golden image given for it (or none)
    std::shared_ptr<const app::Dataset> m_loaded;  ///< m_read with the centre and reference
    std::uint64_t m_loadSerial = 0;
    std::shared_ptr<const app::Dataset> m_dataset;  ///< m_loaded through the sampling
    QString m_datasetName;
    std::shared_ptr<const app::ReconOutcome> m_recon;
    app::DatasetState m_reconState;   ///< the record the result was made with
    std::uint64_t m_reconSerial = 0;  ///< m_loadSerial then
    bool m_resultSaved = false;
    app::DatasetState m_jobState;  ///< the record when the running job started
    double m_jobVoxel = 0;         ///< its grid's voxel size
    double m_reconVoxel = 0;       ///< the result's voxel size
    FbpOptions m_reconOptions;
    std::shared_ptr<app::JobOutput<app::ConeDataset>> m_pendingCone;
    std::shared_ptr<app::JobOutput<app::ConeOutcome>> m_pendingConeResult;
    std::shared_ptr<const app::ConeDataset> m_cone;
    std::shared_ptr<const app::ConeOutcome> m_coneResult;
};

}  // namespace tomo::ui
