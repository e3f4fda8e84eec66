#include "ui/main/SessionBinding.h"

#include <cmath>
#include <filesystem>

#include "core/projectors/JosephTranspose.h"
#include "ui/main/ConeActions.h"
#include "ui/main/FileActions.h"
#include "ui/main/MainWindow.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/views/ImageView.h"
#include "ui/widgets/ConeVolumeBox.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {

namespace {

/// The same file read the same way, its preprocessing aside (samePreprocessing).
bool sameFile(const std::optional<app::LoadRequest>& a, const std::optional<app::LoadRequest>& b) {
    app::DataSource x, y;
    x.file = a;
    y.file = b;
    return x.sameScan(y);
}

/// The data of @p loaded read with the preprocessing of @p state (a file's with its -log).
bool samePreprocessing(const app::DatasetState& loaded, const SessionState& state) {
    if (state.dataFile)
        return loaded.source.file &&
               describe(loaded.source.file->preprocessing) ==
                   describe(state.dataFile->preprocessing) &&
               loaded.source.file->minusLog == state.dataFile->minusLog;
    return describe(loaded.source.folderPreprocessing) == describe(state.folderPreprocessing);
}

}  // namespace

SessionState captureSessionState(const MainWindow& window) {
    SessionState s;
    const Session& session = window.session();
    s.dataPath = session.dataFolder().string();
    s.demoSize = session.demoSize();
    s.dataFile = session.dataFile();  // with its preprocessing and -log
    if (!s.dataPath.empty()) s.folderPreprocessing = session.state().source.folderPreprocessing;
    // The record's centre on the detector as stored (it survives other preprocessing), or the
    // data's own.
    if (auto data = session.dataset())
        s.centerOfRotation = session.state().center.value_or(data->geometry.centerOfRotation());
    s.sampling = session.sampling();  // the Region and sampling box as applied
    if (auto cone = session.coneDataset()) {
        s.cone = ConeSession::of(cone->request);
        const ConeVolumeBox* box = window.coneActions()->volumeBox();
        if (!box->showsDefault()) {
            const ConeVolumeGrid g = box->grid();
            s.cone->grid = {g.nx, g.ny, g.nz};
            s.cone->gridSpacing = g.spacingX;
        }
    }
    AlgorithmPanel* algorithm = window.algorithmPanel();
    s.algorithm = algorithm->algorithm();
    s.parameters = algorithm->parameters();
    ReconParamsPanel* fbp = window.paramsPanel();
    s.fbpFilter = fbp->filterName().toStdString();
    s.fbpCutoff = fbp->options().filter.cutoff;
    // FBP's Joseph projector is stored as its back-projector's id (setVariant reads it back).
    s.variant = fbp->projector() == "joseph" ? std::string(kJosephTransposeId) : fbp->variantId();
    s.colorMap = colorMapName(window.colorMap()).toLower().toStdString();
    s.window = window.reconstructionView()->windowLevel().width;
    s.level = window.reconstructionView()->windowLevel().level;
    s.panel = window.currentPanel().toStdString();
    return s;
}

std::vector<std::string> applySessionCenter(MainWindow& window, const SessionState& state) {
    std::vector<std::string> failed;
    if (auto cone = window.session().coneDataset(); cone && state.cone) {
        const ConeSession& c = *state.cone;
        if (c.grid[0] > 0 && ConeSession::of(cone->request).sameData(c))
            window.coneActions()->volumeBox()->setGrid(c.grid[0], c.grid[1], c.grid[2],
                                                       c.gridSpacing);
        return failed;
    }
    Session& session = window.session();
    if (!session.loadedDataset()) return failed;
    if (!std::isnan(state.centerOfRotation)) {
        const double center =
            app::centerInLoaded(state.centerOfRotation, session.state().preprocessing());
        if (std::fabs(session.loadedDataset()->geometry.centerOfRotation() - center) > 1e-12)
            if (Status s = session.setCenterOfRotation(center); !s)
                failed.push_back("centre of rotation: " + s.message());
    }
    // After the data (a load resets the sampling) and the centre; the box follows the session.
    if (!(session.sampling() == state.sampling))
        if (Status s = session.setSampling(state.sampling); !s)
            failed.push_back("region and sampling: " + s.message());
    return failed;
}

namespace {

/// Why the data of @p state cannot be loaded before trying ("" when it can be tried): a data
/// file or dataset folder that is not there.
std::string missingData(const SessionState& state) {
    std::error_code ec;
    if (state.cone) {
        for (const std::string& file :
             {state.cone->projections, state.cone->geometry, state.cone->truth})
            if (!file.empty() && !std::filesystem::is_regular_file(file, ec))
                return "data: the cone-beam file " + file +
                       " is not there (moved or deleted?); the rest of the session was restored";
    } else if (state.dataFile) {
        const std::filesystem::path& file = state.dataFile->path;
        if (!std::filesystem::is_regular_file(file, ec))
            return "data: the data file " + file.string() +
                   " is not there (moved or deleted?); the rest of the session was restored";
    } else if (!state.dataPath.empty() && !std::filesystem::is_directory(state.dataPath, ec)) {
        return "data: the dataset folder " + state.dataPath +
               " is not there (moved or deleted?); the rest of the session was restored";
    }
    return {};
}

/// Starts loading the data of @p state through the same jobs as File > Open; false when busy.
bool startDataLoad(MainWindow& window, const SessionState& state) {
    Session& session = window.session();
    if (state.cone) return window.coneActions()->openCone(state.cone->request());
    if (state.dataFile) return window.fileActions()->openDataFile(*state.dataFile);
    if (!state.dataPath.empty())
        return session.startLoad(state.dataPath, state.folderPreprocessing);
    return session.startDemo(state.demoSize > 0 ? app::demoSpecForSize(state.demoSize)
                                                : app::DemoSpec{});
}

}  // namespace

std::vector<std::string> applySessionState(MainWindow& window, const SessionState& state,
                                           bool* loadingData) {
    std::vector<std::string> failed;
    if (loadingData) *loadingData = false;
    Session& session = window.session();
    auto cone = session.coneDataset();
    const bool sameData = state.cone ? cone && ConeSession::of(cone->request).sameData(*state.cone)
                                     : session.dataset() &&
                                           session.dataFolder().string() == state.dataPath &&
                                           session.demoSize() == state.demoSize &&
                                           sameFile(session.dataFile(), state.dataFile) &&
                                           samePreprocessing(session.state(), state);
    if (sameData) {
        // First: a new centre drops the reconstruction, which resets the view below.
        for (std::string& f : applySessionCenter(window, state))
            failed.push_back(std::move(f));
    } else if (std::string missing = missingData(state); !missing.empty()) {
        // The active dataset stays; everything else below is still applied.
        failed.push_back(std::move(missing));
    } else {
        const bool started = startDataLoad(window, state);
        if (!started) failed.push_back("data: busy, wait for the running job");
        if (loadingData) *loadingData = started;
        // Parallel-beam data on the way: its algorithms are offered again.
        if (started && !state.cone) window.algorithmPanel()->setConeBeam(false);
    }
    AlgorithmPanel* algorithm = window.algorithmPanel();
    for (const std::string& name : algorithm->setParameters(state.parameters))
        failed.push_back("parameter " + name);
    if (!algorithm->setAlgorithm(state.algorithm)) failed.push_back("algorithm " + state.algorithm);
    ReconParamsPanel* fbp = window.paramsPanel();
    if (!fbp->setFilter(QString::fromStdString(state.fbpFilter)))
        failed.push_back("filter " + state.fbpFilter);
    fbp->setCutoff(state.fbpCutoff);
    if (state.variant.empty()) fbp->setProjector("pixel");
    if (!state.variant.empty() && !fbp->setVariant(state.variant))
        failed.push_back("variant " + state.variant);
    for (ColorMap map : {ColorMap::Grey, ColorMap::Inferno})
        if (colorMapName(map).toLower().toStdString() == state.colorMap) window.setColorMap(map);
    if (state.window > 0) window.reconstructionView()->setWindowLevel({state.window, state.level});
    if (!state.panel.empty()) window.showPanel(QString::fromStdString(state.panel));

    return failed;
}

}  // namespace tomo::ui
