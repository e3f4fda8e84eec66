#pragma once
/// @file AlgorithmPanel.h
/// @brief The reconstruction form: the algorithm (every AlgorithmSpec of this build, FBP
/// first), FBP's filter and back-projector variant (ReconParamsPanel), the iterative
/// algorithms' parameters through the generic ParameterForm, presets saved to and loaded from
/// JSON files (SessionFile.h). Reconstruct is the window's run bar (always in view, Ctrl+R).
/// Only the shown page counts for the panel's height: no gap is left under a short form after
/// a long one.
///
/// MBIR's form (formHintsFor): sharpness and SNR with sliders, editable while a job runs
/// (liveParameterEdited: MbirRestart warm-restarts from the current image), the model's
/// exponents, sigmas and SuperVoxel schedule behind the "Advanced" expander.
///
/// Parameter values are remembered per algorithm while the panel lives, so switching from SIRT
/// to CGLS and back keeps what was typed; parameters() returns all of them for the session.
///
/// Threading: GUI thread only.

#include <map>
#include <string>
#include <vector>

#include <QWidget>

#include "app/jobs/DemoJob.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/projectors/BackProjector.h"
#include "ui/panels/ParameterForm.h"

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace tomo::ui {

class ReconParamsPanel;

/// The form layout of @p algorithm's parameters (advanced ones, sliders, live ones).
FormHints formHintsFor(const std::string& algorithm);

class AlgorithmPanel : public QWidget {
    Q_OBJECT

  public:
    explicit AlgorithmPanel(const BackProjectorRegistry& registry, QWidget* parent = nullptr);

    /// The selected algorithm id ("fbp", "gridrec", "sirt", ...).
    std::string algorithm() const;
    /// Selects @p id; false when this build has no such algorithm, or for an iterative one
    /// while the data are cone beam (setConeBeam).
    bool setAlgorithm(const std::string& id);
    /// The selected algorithm iterates (the iterative job); FBP and gridrec do not.
    bool isIterative() const;
    /// How Reconstruct and the live preview run a one-pass method: FBP (the default; its
    /// projector parameter when the FBP page's Projector is joseph), or gridrec with its form's
    /// values and the Device box's backend.
    app::AnalyticMethod analyticMethod() const;
    /// FBP's options (the FBP page), or for gridrec its form's filter and cutoff.
    FbpOptions analyticOptions() const;

    /// The current algorithm's parameter values (empty for FBP, see fbpPanel(); gridrec's and
    /// the iterative methods' from the generic form).
    std::map<std::string, std::string> values() const;
    /// Values of every algorithm touched so far, the current one's up to date.
    std::map<std::string, std::map<std::string, std::string>> parameters() const;
    /// Restores values per algorithm; returns "algorithm.name" of those rejected.
    std::vector<std::string> setParameters(
        const std::map<std::string, std::map<std::string, std::string>>& parameters);

    /// Where iterative methods run: "auto", "cpu", or a backend with a device ("opencl",
    /// "cuda"), from the Device box of the iterative page.
    std::string backend() const;
    /// Selects @p backend in the Device box; false when it is not offered.
    bool setBackend(const std::string& backend);
    ReconParamsPanel* fbpPanel() const { return m_fbp; }
    ParameterForm* form() const { return m_form; }

    /// Enables the form (false while a job runs: all but the live parameters are locked).
    void setReady(bool ready);
    /// Cone-beam data (true): the first entry reads "FDK (cone beam)" and is selected, the
    /// iterative methods are disabled with a tooltip saying why; false restores FBP and them.
    void setConeBeam(bool cone);
    bool isConeBeam() const { return m_coneBeam; }

    Status savePreset(const std::string& file) const;
    Status loadPreset(const std::string& file);

  signals:
    void algorithmChanged(const QString& id);
    /// The user changed a live parameter (FormHints::live) of the current algorithm.
    void liveParameterEdited(const QString& name);

  private:
    void onAlgorithmIndex(int index);

    std::vector<AlgorithmSpec> m_specs;
    std::map<std::string, std::map<std::string, std::string>> m_remembered;
    std::string m_current;
    bool m_coneBeam = false;
    QString m_fbpLabel;  ///< the first entry's parallel-beam text
    QComboBox* m_algorithm = nullptr;
    QLabel* m_description = nullptr;
    QStackedWidget* m_pages = nullptr;
    ReconParamsPanel* m_fbp = nullptr;
    ParameterForm* m_form = nullptr;
    QComboBox* m_device = nullptr;
    QWidget* m_presetButtons = nullptr;
};

}  // namespace tomo::ui
