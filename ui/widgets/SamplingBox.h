#pragma once
/// @file SamplingBox.h
/// @brief The Region and sampling box of the Parameters dock: image size, pixel size, the
/// centre of a region of interest and an angle subset for every algorithm and any data (stacks,
/// acquisitions, the demo), applied through Session::setSampling (app/jobs/DatasetSampling.h,
/// the same grid rules as `tomo recon --size --pixel-size --roi-center`). The loaded data are
/// kept, so "All data" goes back without reading the file again. Its angle step (every N-th of
/// the angles as loaded) composes with Preprocessing's (every M-th of the file's, applied when
/// the file is read): every N x M-th projection of the file; the box says how many are used.
///
/// Threading: GUI thread only.

#include <QGroupBox>

#include "app/jobs/DatasetSampling.h"

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace tomo::ui {

class Session;

class SamplingBox : public QGroupBox {
    Q_OBJECT

  public:
    explicit SamplingBox(Session& session, QWidget* parent = nullptr);

    /// The choice the widgets show.
    app::Sampling sampling() const;
    /// Shows @p sampling in the widgets (does not apply it).
    void setSampling(const app::Sampling& sampling);
    /// Applies the widgets' choice to the session; the error is also shown in the box.
    Status apply();

  signals:
    /// A new sampling was applied: the data the reconstruction sees changed.
    void applied();

  protected:
    /// Return or Enter in any of the box's fields presses Apply (when it is enabled).
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void syncFromSession();
    /// The number of angles reconstructed and how the two angle steps (load, here) give it.
    void showEffectiveAngles(const app::Dataset& loaded, const app::Dataset& seen);

    Session& m_session;
    QSpinBox* m_size = nullptr;
    QDoubleSpinBox* m_pixel = nullptr;
    QDoubleSpinBox* m_centerX = nullptr;
    QDoubleSpinBox* m_centerY = nullptr;
    QSpinBox* m_angleStep = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_reset = nullptr;
    QLabel* m_state = nullptr;
    QLabel* m_effective = nullptr;  ///< "Reconstructs from 15 angles: every 3 of the 45 loaded"
};

}  // namespace tomo::ui
