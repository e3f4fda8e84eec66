#include "ui/views/vtk/VtkOffscreenRenderer.h"

#include <algorithm>
#include <cstring>

#include <QColor>

#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

namespace tomo::ui {

VtkOffscreenRenderer::VtkOffscreenRenderer(const QColor& background) {
    m_window->SetOffScreenRendering(1);
    m_window->SetMultiSamples(0);
    m_window->AddRenderer(m_renderer);
    m_renderer->SetBackground(background.redF(), background.greenF(), background.blueF());
}

VtkOffscreenRenderer::~VtkOffscreenRenderer() {
    m_window->Finalize();  // release the GL context while the renderer is still alive
}

QImage VtkOffscreenRenderer::render(QSize size) {
    int w = std::max(size.width(), 1);
    int h = std::max(size.height(), 1);
    int* current = m_window->GetSize();
    if (current[0] != w || current[1] != h) m_window->SetSize(w, h);
    m_window->Render();
    vtkNew<vtkUnsignedCharArray> pixels;
    if (m_window->GetRGBACharPixelData(0, 0, w - 1, h - 1, /*front=*/0, pixels) != 1 ||
        pixels->GetNumberOfValues() != static_cast<vtkIdType>(w) * h * 4)
        return {};
    QImage frame(w, h, QImage::Format_RGBX8888);
    if (frame.isNull()) return frame;
    // OpenGL rows run bottom-up.
    const unsigned char* src = pixels->GetPointer(0);
    for (int y = 0; y < h; ++y)
        std::memcpy(frame.scanLine(h - 1 - y), src + static_cast<std::size_t>(y) * w * 4,
                    static_cast<std::size_t>(w) * 4);
    return frame;
}

}  // namespace tomo::ui
