#include "ui/views/OrthoSliceView.h"

#include <algorithm>
#include <vector>

#include <QHBoxLayout>
#include <QPainter>

#include "ui/views/SliceView.h"

namespace tomo::ui {

OrthoSliceView::OrthoSliceView(SliceBackend backend, QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    const std::array<QString, 3> titles{tr("Axial"), tr("Coronal"), tr("Sagittal")};
    for (std::size_t i = 0; i < 3; ++i) {
        SliceView* view = createSliceView(backend, this);
        view->setTitle(titles[i]);
        m_panes[i] = view;
        layout->addWidget(view, 1);
        auto pane = static_cast<Pane>(i);
        connect(view, &SliceView::pointClicked, this,
                [this, pane](QPointF p) { onClicked(pane, p); });
        connect(view, &SliceView::sliceStepRequested, this,
                [this, pane](int d) { onStep(pane, d); });
        connect(view, &SliceView::pixelHovered, this, &OrthoSliceView::pixelHovered);
        connect(view, &SliceView::windowLevelChanged, this, [this](const WindowLevel& wl) {
            if (!m_syncingWindow) setWindowLevel(wl);
        });
    }
}

void OrthoSliceView::setVolume(std::shared_ptr<const Volume> volume) {
    m_volume = std::move(volume);
    if (!m_volume || m_volume->empty()) {
        for (SliceView* v : m_panes)
            v->clear(tr("no volume"));
        return;
    }
    const auto& d = m_volume->dims();
    m_position = {static_cast<int>(d[2] / 2), static_cast<int>(d[1] / 2),
                  static_cast<int>(d[0] / 2)};
    refresh();
    // One window for all panes, from the volume's percentiles: of every k-th value, at most 4 Mi
    // of them, so that a large volume is not copied whole for it (1 GB at 1024^2 x 256).
    const std::size_t count = m_volume->elementCount();
    const std::size_t step = std::max<std::size_t>(1, count >> 22);
    std::vector<float> values;
    values.reserve(count / step + 1);
    std::size_t i = 0;
    for (std::size_t z = 0; z < d[0]; ++z)
        for (std::size_t y = 0; y < d[1]; ++y)
            for (float v : m_volume->row(z, y))
                if (i++ % step == 0) values.push_back(v);
    setWindowLevel(percentileWindow(values));
    emit positionChanged(m_position[0], m_position[1], m_position[2]);
}

void OrthoSliceView::setPosition(int x, int y, int z) {
    if (!m_volume || m_volume->empty()) return;
    const auto& d = m_volume->dims();
    std::array<int, 3> p{std::clamp(x, 0, static_cast<int>(d[2]) - 1),
                         std::clamp(y, 0, static_cast<int>(d[1]) - 1),
                         std::clamp(z, 0, static_cast<int>(d[0]) - 1)};
    if (p == m_position) return;
    m_position = p;
    refresh();
    emit positionChanged(p[0], p[1], p[2]);
}

void OrthoSliceView::refresh() {
    const Volume& vol = *m_volume;
    const auto& d = vol.dims();
    const std::size_t nz = d[0], ny = d[1], nx = d[2];
    const auto x = static_cast<std::size_t>(m_position[0]);
    const auto y = static_cast<std::size_t>(m_position[1]);
    const auto z = static_cast<std::size_t>(m_position[2]);
    m_panes[Axial]->setImage(vol.plane(z), false);
    std::vector<float> coronal(nz * nx), sagittal(nz * ny);
    for (std::size_t k = 0; k < nz; ++k) {
        for (std::size_t i = 0; i < nx; ++i)
            coronal[k * nx + i] = vol(k, y, i);
        for (std::size_t j = 0; j < ny; ++j)
            sagittal[k * ny + j] = vol(k, j, x);
    }
    m_panes[Coronal]->setImage(View2<const float>(coronal.data(), nz, nx, nx), false);
    m_panes[Sagittal]->setImage(View2<const float>(sagittal.data(), nz, ny, ny), false);
    m_panes[Axial]->setCrosshair(QPointF(m_position[0], m_position[1]));
    m_panes[Coronal]->setCrosshair(QPointF(m_position[0], m_position[2]));
    m_panes[Sagittal]->setCrosshair(QPointF(m_position[1], m_position[2]));
    // 1-based, as the Reconstruction tab's "Slice 3 / 4" and "Plane 49 / 96" count.
    m_panes[Axial]->setCaption(QStringLiteral("%1 %2 / %3").arg(m_names[0]).arg(z + 1).arg(nz));
    m_panes[Coronal]->setCaption(QStringLiteral("%1 %2 / %3").arg(m_names[1]).arg(y + 1).arg(ny));
    m_panes[Sagittal]->setCaption(QStringLiteral("%1 %2 / %3").arg(m_names[2]).arg(x + 1).arg(nx));
}

void OrthoSliceView::setAxisNames(const std::array<QString, 3>& names) {
    m_names = names;
    if (m_volume && !m_volume->empty()) refresh();
}

void OrthoSliceView::onClicked(Pane pane, QPointF pixel) {
    auto [x, y, z] = m_position;
    int u = static_cast<int>(std::lround(pixel.x()));
    int v = static_cast<int>(std::lround(pixel.y()));
    switch (pane) {
        case Axial:
            setPosition(u, v, z);
            break;
        case Coronal:
            setPosition(u, y, v);
            break;
        case Sagittal:
            setPosition(x, u, v);
            break;
    }
}

void OrthoSliceView::onStep(Pane pane, int delta) {
    auto [x, y, z] = m_position;
    switch (pane) {
        case Axial:
            setPosition(x, y, z + delta);
            break;
        case Coronal:
            setPosition(x, y + delta, z);
            break;
        case Sagittal:
            setPosition(x + delta, y, z);
            break;
    }
}

void OrthoSliceView::setWindowLevel(const WindowLevel& wl) {
    m_syncingWindow = true;
    for (SliceView* v : m_panes)
        v->setWindowLevel(wl);
    m_syncingWindow = false;
}

void OrthoSliceView::setColorMap(ColorMap map) {
    for (SliceView* v : m_panes)
        v->setColorMap(map);
}

QImage OrthoSliceView::renderToImage(QSize size) {
    QImage out(size, QImage::Format_RGB32);
    out.fill(QColor(16, 16, 16));
    QPainter painter(&out);
    const int paneWidth = (size.width() - 4) / 3;
    for (std::size_t i = 0; i < 3; ++i)
        painter.drawImage(QPoint(static_cast<int>(i) * (paneWidth + 2), 0),
                          m_panes[i]->renderToImage(QSize(paneWidth, size.height())));
    return out;
}

}  // namespace tomo::ui
