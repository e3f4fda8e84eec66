#pragma once
/// @file VolumeBrowser.h
/// @brief A stored volume (a reconstruction, possibly larger than memory) shown slice by slice:
/// a slice view with the value under the cursor, the window/level bar, a slider over z and the
/// file's provenance (what made it: input, geometry, algorithm, parameters), each slice read
/// from the file when shown (app/jobs/PlaneCache.h, the last ones cached within 256 MiB). Opened
/// by File > Open reconstruction; several may be open at once.
///
/// Slices: the slider, and PageUp/PageDown or Ctrl+wheel on the image (as in every slice view),
/// one slice per step; the window/level set by the user stays from slice to slice (the first
/// slice shown gets an automatic one).
///
/// Threading: GUI thread only (a plane is read on it: one plane, milliseconds).

#include <map>
#include <string>

#include <QWidget>

#include "app/jobs/PlaneCache.h"

class QLabel;
class QSlider;

namespace tomo::ui {

class ImageView;
class WindowLevelBar;

class VolumeBrowser : public QWidget {
    Q_OBJECT

  public:
    /// @p provenance: the file's attributes (FormatRegistry describe(); empty: none stored).
    VolumeBrowser(app::PlaneCache cache, const QString& name,
                  const std::map<std::string, std::string>& provenance = {},
                  QWidget* parent = nullptr);

    /// Shows slice @p z (clamped); false (and a message in the caption) when reading fails.
    bool showSlice(int z);
    int slice() const;
    const app::PlaneCache& cache() const { return m_cache; }
    ImageView* view() const { return m_view; }
    WindowLevelBar* windowBar() const { return m_window; }
    /// "slice 12 of 24 ..." under the image.
    QLabel* sliceLabel() const { return m_label; }
    /// The value under the cursor ("x 12  y 40  value 0.0213").
    QLabel* valueLabel() const { return m_value; }
    /// The provenance, one "key: value" line each ("No provenance stored in the file." when none).
    QLabel* provenanceLabel() const { return m_provenance; }

  private:
    app::PlaneCache m_cache;
    ImageView* m_view = nullptr;
    WindowLevelBar* m_window = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_label = nullptr;
    QLabel* m_value = nullptr;
    QLabel* m_provenance = nullptr;
    QString m_name;
    bool m_windowSet = false;
};

}  // namespace tomo::ui
