#pragma once
/// @file VtkOffscreenRenderer.h
/// @brief The VTK-to-Qt bridge of the VTK views: one offscreen VTK render window and renderer
/// whose frames are read back into QImages (approach 2 of ARCHITECTURE.md "VTK inside a Qt 6
/// window").
///
/// Debian 12's VTK 9.1 builds its Qt module against Qt 5, so the VTK views draw with
/// `SetOffScreenRendering(1)` (an X/GLX context on the display named by DISPLAY, e.g. Xvfb with
/// Mesa) and a plain QWidget paints the frame read back with GetRGBACharPixelData. A readback of
/// a 1024x1024 frame costs a few milliseconds, well below a frame at interactive rates.
///
/// Construct only after ViewFactory.h's vtkViewsAvailable() returned true: VTK 9.1's X render
/// window aborts the process when no X display can be opened.
///
/// Threading: GUI thread only. Every VTK object of a view is created, changed and rendered on
/// the GUI thread; workers hand over immutable data (shared_ptr<const Volume>) instead.

#include <QImage>
#include <QSize>

#include <vtkNew.h>

class vtkRenderer;
class vtkRenderWindow;

namespace tomo::ui {

class VtkOffscreenRenderer {
  public:
    /// An offscreen render window (no multisampling, so pixels are exact) with one renderer of
    /// the given background colour.
    explicit VtkOffscreenRenderer(const QColor& background);
    ~VtkOffscreenRenderer();
    VtkOffscreenRenderer(const VtkOffscreenRenderer&) = delete;
    VtkOffscreenRenderer& operator=(const VtkOffscreenRenderer&) = delete;

    vtkRenderer* renderer() const { return m_renderer.Get(); }
    vtkRenderWindow* window() const { return m_window.Get(); }

    /// Renders at @p size (device pixels, at least 1x1) and returns the frame, top row first
    /// (Format_RGBX8888). A null image when the read-back fails.
    QImage render(QSize size);

  private:
    vtkNew<vtkRenderWindow> m_window;
    vtkNew<vtkRenderer> m_renderer;
};

}  // namespace tomo::ui
