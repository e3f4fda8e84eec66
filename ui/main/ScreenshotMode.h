#pragma once
/// @file ScreenshotMode.h
/// @brief `tomostation --demo --screenshot FILE [--view NAME] [--screenshot-size WxH]`: renders
/// one view or panel in a given state without interaction, for the user guide and the tests.
///
/// Sequence: the demo loads and is reconstructed by FBP (as on every start); then the view's
/// state is prepared: "convergence", "lcurve" and "compare" (SIRT against FBP) run SIRT (30
/// iterations) and wait for it, "profile" draws a line across the reconstruction,
/// "center" waits for a centre preview, "sweep" for a 7-slice centre sweep, "teaching" for the
/// teaching data, "devices" for device discovery; the others need nothing more. With cone-beam
/// data (`tomostation PROJ --geometry FILE --screenshot ...`) the first reconstruction is FDK
/// and the Cone geometry dock is raised; "cone" is that dock and "open-cone" the dialog of
/// File > Open cone-beam dataset filled with the files. The named
/// widget is then taken out of the window, resized to exactly WxH (default 1280x800; "main" is
/// the whole window at that size), rendered with QWidget::grab and saved as PNG; the process
/// exits 0, or non-zero with a message on stderr when a job failed (1), the file could not be
/// written (2), the state was not reached within 120 s (3), or the view cannot be made that
/// small (4: the message names its minimum size).
///
/// "mbir" runs MBIR (12 iterations; mu_water 0.2, the demo's soft tissue, for the HU curve)
/// and shows the whole window: its form, the live image and the cost and HU chart. "gridrec"
/// reconstructs by gridrec (Hann filter) and shows the whole window with its form.
///
/// Threading: GUI thread.

#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

namespace tomo::ui {

class MainWindow;

/// The names --view accepts, "main" first.
QStringList screenshotViews();

class ScreenshotMode : public QObject {
    Q_OBJECT

  public:
    /// Arms the mode on @p window (which must outlive it); @p view must be in screenshotViews().
    ScreenshotMode(MainWindow& window, QString view, QString file, QSize size);
    /// Deletes the widget taken out of the window (its parent no longer owns it).
    ~ScreenshotMode() override;

  private:
    void onFirstReconstruction();
    void capture();
    void fail(int code, const QString& message);
    /// File > Open cone-beam dataset's dialog, filled with the open dataset's files.
    QWidget* openConeDialog() const;

    MainWindow& m_window;
    QString m_view;
    QString m_file;
    QSize m_size;
    bool m_prepared = false;
    bool m_done = false;
    QWidget* m_detached = nullptr;
};

}  // namespace tomo::ui
