#pragma once
/// @file VolumeBrowser.h
/// @brief A stored volume (a reconstruction, possibly larger than memory) shown slice by slice:
/// a slice view and a slider over z, each slice read from the file when shown
/// (app/jobs/PlaneCache.h, the last ones cached within 256 MiB). Opened by File > Open
/// reconstruction; several may be open at once.
///
/// Threading: GUI thread only (a plane is read on it: one plane, milliseconds).

#include <QWidget>

#include "app/jobs/PlaneCache.h"

class QLabel;
class QSlider;

namespace tomo::ui {

class ImageView;

class VolumeBrowser : public QWidget {
    Q_OBJECT

  public:
    VolumeBrowser(app::PlaneCache cache, const QString& name, QWidget* parent = nullptr);

    /// Shows slice @p z (clamped); false (and a message in the caption) when reading fails.
    bool showSlice(int z);
    int slice() const;
    const app::PlaneCache& cache() const { return m_cache; }
    ImageView* view() const { return m_view; }

  private:
    app::PlaneCache m_cache;
    ImageView* m_view = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_label = nullptr;
    QString m_name;
};

}  // namespace tomo::ui
