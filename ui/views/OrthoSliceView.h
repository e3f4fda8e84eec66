#pragma once
/// @file OrthoSliceView.h
/// @brief Three orthogonal slices of a volume through one point, with a linked crosshair.
///
/// The volume is [z][y][x] (docs/geometry.md: row 0 of a plane = largest y). The panes are
///  - axial    (plane z = const): rows y, columns x, as a reconstructed slice;
///  - coronal  (y = const):       rows z, columns x;
///  - sagittal (x = const):       rows z, columns y.
/// Each pane is a SliceView from ViewFactory.h (VTK when available) and shows a crosshair at
/// the other two coordinates. Clicking a pane moves the point there (the two other panes
/// change slice); PageUp/PageDown or Ctrl+wheel in a pane moves that pane's slice. The three
/// panes share one window/level and colour map: changing it in one changes all.
///
/// Threading: GUI thread only. The volume is shared immutably (a worker may hand it over).

#include <array>
#include <memory>

#include <QWidget>

#include "core/data/Array.h"
#include "ui/views/ColorMap.h"
#include "ui/views/ViewFactory.h"

namespace tomo::ui {

class SliceView;

class OrthoSliceView : public QWidget {
    Q_OBJECT

  public:
    enum Pane { Axial = 0, Coronal = 1, Sagittal = 2 };

    explicit OrthoSliceView(SliceBackend backend = SliceBackend::Auto, QWidget* parent = nullptr);

    /// Shows @p volume with the point at its centre and an automatic window.
    void setVolume(std::shared_ptr<const Volume> volume);
    std::shared_ptr<const Volume> volume() const { return m_volume; }

    /// The point (voxel indices x, y, z), clamped into the volume.
    void setPosition(int x, int y, int z);
    std::array<int, 3> position() const { return m_position; }

    /// What the volume's axes are called in the panes' captions, slowest first (default
    /// "z", "y", "x"; a cone-beam result's axial planes are "y", "z", "x").
    void setAxisNames(const std::array<QString, 3>& names);

    void setWindowLevel(const WindowLevel& wl);
    void setColorMap(ColorMap map);

    SliceView* pane(Pane pane) const { return m_panes[static_cast<std::size_t>(pane)]; }

    /// The three panes side by side at @p size.
    QImage renderToImage(QSize size);

  signals:
    /// The point moved (voxel indices).
    void positionChanged(int x, int y, int z);
    void pixelHovered(const QString& text);

  private:
    void refresh();
    void onClicked(Pane pane, QPointF pixel);
    void onStep(Pane pane, int delta);

    std::shared_ptr<const Volume> m_volume;
    std::array<int, 3> m_position{0, 0, 0};  ///< x, y, z
    std::array<QString, 3> m_names{QStringLiteral("z"), QStringLiteral("y"), QStringLiteral("x")};
    std::array<SliceView*, 3> m_panes{};
    bool m_syncingWindow = false;
};

}  // namespace tomo::ui
