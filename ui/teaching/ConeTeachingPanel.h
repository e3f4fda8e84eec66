#pragma once
/// @file ConeTeachingPanel.h
/// @brief Teaching mode, cone beam: what FDK does. Top row: the cosine pre-weight over the
/// detector (with its formula), one projection as measured and after FDK's weights. Bottom
/// row: the same projection after the ramp filter, an axial plane built up by back-projecting
/// the filtered views one group at a time, and the same plane of the truth. The projection and
/// the plane follow the frame slider and playback (Play/Pause or Space), as in the parallel-beam
/// lesson; every picture has a one-sentence caption. The data are the session's cone-beam
/// dataset when one is open (and chosen in the Data box), else a built-in 3-D Shepp-Logan
/// (app/jobs/ConeTeachingJob.h); the filter and the plane recompute through the GUI's one
/// debounced preview runner (PreviewRunner.h: 200 ms, a newer request cancelling an older one);
/// playback is the one FramePlayer, as in the parallel-beam lesson.
///
/// Threading: GUI thread; the job runs on the panel's runner.

#include <memory>

#include <QWidget>

#include "app/jobs/ConeTeachingJob.h"
#include "ui/main/PreviewRunner.h"

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace tomo::ui {

class FramePlayer;
class ImageView;
class WrappedLabel;

class ConeTeachingPanel : public QWidget {
    Q_OBJECT

  public:
    /// @p engine (its cone back-projectors) must outlive the panel.
    explicit ConeTeachingPanel(const app::Engine& engine, QWidget* parent = nullptr);

    /// The session's cone-beam dataset (null: none) named @p name; chosen when not null.
    void setDataset(std::shared_ptr<const app::ConeDataset> data, const QString& name);
    /// True when the lesson shows the session's dataset (false: the built-in phantom).
    bool usesDataset() const;
    /// The spec the controls describe.
    app::ConeTeachingSpec spec() const;
    void setFilter(const QString& name);
    /// Axial plane j of the grid (clamped when the data are known).
    void setPlane(int j);
    /// Computes the lesson now (normally after the debounce).
    void recompute();
    /// Shows animation frame @p frame (clamped).
    void showFrame(int frame);
    int frame() const;
    int frameCount() const;
    const app::ConeTeachingResult* result() const { return m_result.get(); }
    bool isPlaying() const;
    /// True while the lesson is being computed.
    bool isComputing() const { return m_jobs.isRunning(); }
    void setPlaying(bool on);

    ImageView* cosineView() const { return m_views[0]; }
    ImageView* rawView() const { return m_views[1]; }
    ImageView* weightedView() const { return m_views[2]; }
    ImageView* filteredView() const { return m_views[3]; }
    ImageView* planeView() const { return m_views[4]; }
    ImageView* truthView() const { return m_views[5]; }
    QSlider* frameSlider() const;
    /// The captions of the six pictures (cosine, raw, weighted, filtered, plane, truth).
    QStringList captions() const;
    /// "Views 1-30 of 120 back-projected (gantry 0-87.0 deg)".
    QString readout() const;

  signals:
    void computed();

  private:
    /// Each caption at its new text's height (WrappedLabel).
    void fitCaptions();
    static constexpr int kPictures = 6;
    void createControls();
    void onComputed(std::shared_ptr<const app::ConeTeachingResult> result);
    /// Starts the lesson's job now or after the debounce.
    void compute(bool now);
    /// The captions that do not change with the frame.
    void showFixedCaptions();
    /// The Plane box's range for the data chosen, back to the central plane.
    void updatePlaneRange();

    const app::Engine& m_engine;
    PreviewRunner m_jobs;
    std::shared_ptr<const app::ConeTeachingResult> m_result;
    std::shared_ptr<const app::ConeDataset> m_dataset;  ///< the session's
    std::shared_ptr<const app::ConeDataset> m_phantom;  ///< the built-in one, once made

    QComboBox* m_source = nullptr;
    QComboBox* m_filter = nullptr;
    QSpinBox* m_plane = nullptr;
    FramePlayer* m_player = nullptr;
    QLabel* m_readout = nullptr;
    QLabel* m_status = nullptr;
    ImageView* m_views[kPictures] = {};
    WrappedLabel* m_captions[kPictures] = {};
};

}  // namespace tomo::ui
