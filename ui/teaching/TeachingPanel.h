#pragma once
/// @file TeachingPanel.h
/// @brief Teaching mode: how back-projection makes an image. Top row: the sinogram with the
/// current angle marked, the simple (unfiltered) back-projection, the filtered one and
/// single-step ART (one SART update per projection), all built up angle by angle as an
/// animation (Play/Pause or Space, or scrub the frame slider). Bottom row: FBP, SIRT, CGLS and
/// TV on the same data with their RMSE against the phantom (SIRT's iterations and relaxation,
/// CGLS's iterations, TV's lambda and the discrepancy-principle stop set in the panel). Under
/// them the projection at the current angle and the filter's frequency response
/// (TeachingPlots.h), and the Fourier slice theorem at the current angle (FourierSliceView.h);
/// a readout names the angles back-projected so far.
/// Sliders for the number of angles and the noise level and a filter box recompute everything
/// (through the GUI's one debounced preview runner, PreviewRunner.h: 200 ms, a newer request
/// cancels an older one); playback is the one FramePlayer. Data and frames:
/// app/jobs/TeachingJob.h.
///
/// Threading: GUI thread; the job runs on the panel's runner.

#include <memory>

#include <QWidget>

#include "app/jobs/TeachingJob.h"
#include "ui/main/PreviewRunner.h"

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QSlider;
class QSpinBox;

namespace tomo::ui {

class FourierSliceView;
class FramePlayer;
class ImageView;
class WrappedLabel;
class MarkedSinogramView;
class TeachingPlots;

class TeachingPanel : public QWidget {
    Q_OBJECT

  public:
    /// @p engine (its default back-projector) must outlive the panel.
    explicit TeachingPanel(const app::Engine& engine, QWidget* parent = nullptr);

    /// The spec the controls describe.
    app::TeachingSpec spec() const;
    void setAngles(int angles);
    void setNoiseLevel(int level);  ///< 0 = none .. 5 = strongest
    /// Computes the data now (normally after the debounce).
    void recompute();
    /// Shows animation frame @p frame (clamped).
    void showFrame(int frame);
    int frame() const;
    int frameCount() const;
    const app::TeachingResult* result() const { return m_result.get(); }
    bool isPlaying() const;
    void setPlaying(bool on);

    ImageView* unfilteredView() const { return m_unfiltered; }
    ImageView* filteredView() const { return m_filtered; }
    MarkedSinogramView* sinogramView() const { return m_sinogram; }
    TeachingPlots* plots() const { return m_plots; }
    FourierSliceView* fourierView() const { return m_fourier; }
    /// "Angles 0-60.0 deg back-projected: 30 of 90 projections" (the playback readout).
    QString angleReadout() const;
    void setIterations(int sirt, int cgls);
    /// Whether SIRT and CGLS stop at the noise level (the discrepancy principle).
    void setStopAtNoise(bool on);
    ImageView* artView() const { return m_art; }
    /// The captions of the FBP, SIRT, CGLS and TV panes ("SIRT: RMSE ..., stopped at ...").
    QStringList resultCaptions() const;

  signals:
    void computed();

  protected:
    /// Puts the two plot panels side by side where they fit, one above the other otherwise
    /// (1280 px windows), so that the lesson never needs a horizontal scrollbar.
    void resizeEvent(QResizeEvent* event) override;

  private:
    const app::Engine& m_engine;
    void onComputed(std::shared_ptr<const app::TeachingResult> result);
    /// Starts the lesson's job now or after the debounce.
    void compute(bool now);
    /// The iteration counts, the angle readout and the plots.
    void createLessonControls();
    /// Every readout label at its text's height (WrappedLabel), after new texts.
    void fitLabels();
    /// The sinogram, the two back-projections and FBP/SIRT/CGLS, titled, in a grid.
    QGridLayout* createViews();
    /// The Fourier slice theorem at sinogram row @p angle.
    void showFourierSlice(int angle);

    PreviewRunner m_jobs;
    std::shared_ptr<const app::TeachingResult> m_result;
    bool m_computeOnChange = false;  ///< false while the panel is being built

    QSlider* m_angles = nullptr;
    QSpinBox* m_sirtIterations = nullptr;
    QSpinBox* m_cglsIterations = nullptr;
    QDoubleSpinBox* m_relaxation = nullptr;
    QDoubleSpinBox* m_tvLambda = nullptr;
    QCheckBox* m_stopAtNoise = nullptr;
    QLabel* m_angleLabel = nullptr;
    TeachingPlots* m_plots = nullptr;
    FourierSliceView* m_fourier = nullptr;
    QBoxLayout* m_plotsRow = nullptr;  ///< m_plots and m_fourier
    QSlider* m_noise = nullptr;
    QComboBox* m_filter = nullptr;
    FramePlayer* m_player = nullptr;
    QLabel* m_settings = nullptr;
    QLabel* m_status = nullptr;
    MarkedSinogramView* m_sinogram = nullptr;
    ImageView* m_unfiltered = nullptr;
    ImageView* m_filtered = nullptr;
    ImageView* m_fbp = nullptr;
    ImageView* m_sirt = nullptr;
    ImageView* m_cgls = nullptr;
    ImageView* m_tv = nullptr;
    ImageView* m_art = nullptr;
    WrappedLabel* m_tvLabel = nullptr;
    WrappedLabel* m_artLabel = nullptr;
    WrappedLabel* m_fbpLabel = nullptr;
    WrappedLabel* m_sirtLabel = nullptr;
    WrappedLabel* m_cglsLabel = nullptr;
};

}  // namespace tomo::ui
