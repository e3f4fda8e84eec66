#pragma once
/// @file ViewFactory.h
/// @brief The one place that chooses between the VTK views and their fallbacks.
///
/// With VTK (TOMO_WITH_VTK, chosen by CMake: ViewFactoryVtk.cpp or ViewFactoryBasic.cpp is
/// compiled) and a reachable X display, slice views are VtkImageView and volume views
/// VtkVolumeRenderView. Otherwise slices use the QPainter ImageView and volume rendering shows a
/// message saying why it is unavailable ("built without VTK", "no X display").
///
/// Why the display check: VTK 9.1's X render window aborts the process when it cannot open the
/// display, so VTK views are only created when DISPLAY names a server that accepts a
/// connection. Qt's own platform (xcb, offscreen) does not matter: VTK renders offscreen on
/// its own connection (VtkOffscreenRenderer.h).
///
/// Threading: GUI thread only. The returned widgets are owned by @p parent (Qt ownership), or
/// by the caller when @p parent is null.

#include <QString>

class QWidget;

namespace tomo::ui {

class SliceView;
class VolumeView;

/// Which slice implementation createSliceView() makes.
enum class SliceBackend {
    Auto,     ///< VtkImageView when vtkViewsAvailable(), else ImageView
    Painter,  ///< ImageView (QPainter), always available
};

/// True when VTK views can be created in this process; otherwise @p reason (when given) says
/// why. Checks the build and opens (and closes) a connection to the X display each call.
bool vtkViewsAvailable(QString* reason = nullptr);

/// A new slice view (see SliceView.h).
SliceView* createSliceView(SliceBackend backend = SliceBackend::Auto, QWidget* parent = nullptr);

/// A new volume view: VTK ray casting, or a placeholder that explains what is missing.
VolumeView* createVolumeView(QWidget* parent = nullptr);

}  // namespace tomo::ui
