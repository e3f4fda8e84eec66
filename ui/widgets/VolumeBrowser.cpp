#include "ui/widgets/VolumeBrowser.h"

#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include "ui/views/ImageView.h"

namespace tomo::ui {

VolumeBrowser::VolumeBrowser(app::PlaneCache cache, const QString& name, QWidget* parent)
    : QWidget(parent), m_cache(std::move(cache)), m_name(name) {
    const auto [planes, rows, cols] = m_cache.shape();
    setWindowTitle(
        tr("%1 (%2 x %3 x %4, read by slice)").arg(name).arg(cols).arg(rows).arg(planes));
    m_view = new ImageView(this);
    m_view->setObjectName(QStringLiteral("volumeBrowserView"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("volumeBrowserSlice"));
    m_slider->setRange(0, static_cast<int>(planes) - 1);
    m_slider->setToolTip(tr("Slice (z); each slice is read from the file when shown"));
    m_label = new QLabel(this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_slider);
    layout->addWidget(m_label);
    connect(m_slider, &QSlider::valueChanged, this, [this](int z) { showSlice(z); });
    showSlice(static_cast<int>(planes / 2));
}

bool VolumeBrowser::showSlice(int z) {
    const int last = static_cast<int>(m_cache.shape()[0]) - 1;
    z = std::clamp(z, 0, last);
    if (m_slider->value() != z) {
        m_slider->setValue(z);  // shows it through valueChanged
        return m_label->property("ok").toBool();
    }
    auto plane = m_cache.plane(static_cast<std::size_t>(z));
    if (!plane) {
        m_label->setText(
            tr("slice %1: %2").arg(z).arg(QString::fromStdString(plane.status().message())));
        m_label->setProperty("ok", false);
        return false;
    }
    m_view->setImage((*plane)->view());
    m_label->setText(tr("slice %1 of %2 — %3 slice(s) read from the file, %4 held")
                         .arg(z)
                         .arg(last + 1)
                         .arg(m_cache.planesRead())
                         .arg(m_cache.planesHeld()));
    m_label->setProperty("ok", true);
    return true;
}

int VolumeBrowser::slice() const {
    return m_slider->value();
}

}  // namespace tomo::ui
